// The 44-byte messages of an SMC-R link (RFC 7609 A.3 LLC, A.4 CDC) as
// smctest's link peer needs them: builders that take every field as given
// (so a script can lie in any of them) and a parser for what smcr sends.
// An independent implementation of include/smcr/{cdc,llc}_wire.h on
// purpose: the test must not share the code under test.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace smctest::wire {

inline constexpr size_t kMsgLen = 44;
using Msg = std::array<uint8_t, kMsgLen>;

inline constexpr uint8_t kCdcType = 0xfe;

// CDC flags (A.4): byte 24 producer flags, byte 25 connection state
enum : uint8_t {
	kProdWriteBlocked = 0x80,
	kProdUrgPending = 0x40,
	kProdUrgPresent = 0x20,
	kProdConsUpdReq = 0x10,
	kProdFailover = 0x08,
	kConnDoneWriting = 0x80,
	kConnClosed = 0x40,
	kConnAbort = 0x20,
};

struct Cursor {
	uint16_t wrap = 0;
	uint32_t count = 0;
	bool operator==(const Cursor &) const = default;
};

struct Cdc {
	uint16_t seqno = 0;
	uint32_t token = 0;
	Cursor prod;	// in the receiver's RMBE
	Cursor cons;	// in the sender's RMBE
	uint8_t prod_flags = 0;
	uint8_t conn_flags = 0;
};

Msg cdc_build(const Cdc &c);
// A CDC message (type 0xFE, length 44) or nothing.
std::optional<Cdc> cdc_parse(const uint8_t *p, size_t len);

// LLC (A.3): type byte, length 44, byte 3 flags (0x80 = reply)
enum LlcType : uint8_t {
	kConfirmLink = 0x01,
	kAddLink = 0x02,
	kAddLinkCont = 0x03,
	kDeleteLink = 0x04,
	kReqAddLink = 0x05, // Linux, version 2 only (as kReqAddLinkV2)
	kConfirmRkey = 0x06,
	kTestLink = 0x07,
	kConfirmRkeyCont = 0x08,
	kDeleteRkey = 0x09,
};
inline constexpr uint8_t kLlcResp = 0x80;
// Linux's SMC-R version 2 framing: type | 0x20, length in bytes 1-2
inline constexpr uint8_t kLlcV2 = 0x20;
inline constexpr uint8_t kReqAddLinkV2 = 0x25;
inline constexpr uint8_t kNoRmbeEyec = 0x03; // CONFIRM LINK, Linux's layout

struct ConfirmLink {
	bool response = false;
	uint8_t flags = 0; // besides R
	std::array<uint8_t, 6> mac{};
	std::array<uint8_t, 16> gid{};
	uint32_t qpn = 0;
	uint8_t link_num = 0;
	std::array<uint8_t, 4> link_uid{};
	uint8_t max_links = 1;
};

Msg confirm_link_build(const ConfirmLink &c);
std::optional<ConfirmLink> confirm_link_parse(const uint8_t *p, size_t len);

// ADD LINK (A.3.2) in Linux's layout (include/smcr/llc_wire.h): MAC 4,
// two reserved bytes, GID 12, QPN 28, link 31, MTU 32 (low nibble), PSN 33.
// A client's request is a hint with link number 0 (3.5.5.1.2). A reply
// may reject (Z, flag 0x40) with a reason code in byte 2.
inline constexpr uint8_t kAddLinkRej = 0x40;
enum : uint8_t { kAddLinkRsnNoAltPath = 1, kAddLinkRsnInvalidMtu = 2 };

struct AddLink {
	bool response = false;
	bool reject = false;
	uint8_t reason = 0;	// byte 2, as given (a lie may set the high nibble)
	std::array<uint8_t, 6> mac{};
	std::array<uint8_t, 16> gid{};
	uint32_t qpn = 0;
	uint8_t link_num = 0;
	uint8_t mtu = 0;	// MTU code: byte 32's low nibble when built
	uint32_t psn = 0;
};

Msg add_link_build(const AddLink &a);
// Any 44-byte ADD LINK (type 2); mtu is byte 32 whole (its high nibble is
// reserved), reason byte 2 whole.
std::optional<AddLink> add_link_parse(const uint8_t *p, size_t len);

// ADD LINK CONTINUATION (A.3.3, Figures 33/34): link number 4, NumRTokens
// 5 (pairs left, these included), two reserved bytes, then two pairs
// {RKey on the carrying link, RKey and virtual address on the new link}
// at 8 and 24 (zeros when unused), four reserved bytes.
struct RkeyPair {
	uint32_t ref_rkey = 0;
	uint32_t new_rkey = 0;
	uint64_t new_vaddr = 0;
	bool operator==(const RkeyPair &) const = default;
};

struct AddLinkCont {
	bool response = false;
	uint8_t link_num = 0;
	uint8_t num_rkeys = 0;
	std::array<RkeyPair, 2> pairs{};
	bool operator==(const AddLinkCont &) const = default;
};

Msg add_link_cont_build(const AddLinkCont &c);
std::optional<AddLinkCont> add_link_cont_parse(const uint8_t *p, size_t len);

// Any LLC message: header, then the body bytes as given (zero padded).
Msg llc_build(uint8_t type, uint8_t flags, const uint8_t *body = nullptr, size_t body_len = 0);
// DELETE LINK (A.3.4): link number, reason; flags 0x40 all, 0x20 orderly
Msg delete_link_build(bool response, bool all, bool orderly, uint8_t link_num, uint32_t reason);
struct DeleteLink {
	uint8_t flags = 0; // byte 3 whole (R, A, O)
	uint8_t link_num = 0;
	uint32_t reason = 0;
};
std::optional<DeleteLink> delete_link_parse(const uint8_t *p, size_t len);

// CONFIRM RKEY, its CONTINUATION, DELETE RKEY (A.3.5-A.3.7): byte 3
// flags besides R
inline constexpr uint8_t kRkeyNeg = 0x20;   // Z: negative reply
inline constexpr uint8_t kRkeyRetry = 0x10; // C: retry after the current change

// An RMB's RToken on one link (Figure 37): link number 0, RKey 1..4,
// virtual address 5..12 (13 bytes).
struct Rtoken {
	uint8_t link_num = 0;
	uint32_t rkey = 0;
	uint64_t vaddr = 0;
	bool operator==(const Rtoken &) const = default;
};

// CONFIRM RKEY (A.3.5, Figure 36): NumTkns 4, this link's RKey 5..8 and
// virtual address 9..16, then two other-link RTokens at 17 and 30 (zeros
// when unused), byte 43 reserved. flags: R, Z, C as given.
struct ConfirmRkey {
	uint8_t flags = 0;
	uint8_t num_tkns = 0;
	uint32_t rkey = 0;
	uint64_t vaddr = 0;
	std::array<Rtoken, 2> others{};
	bool operator==(const ConfirmRkey &) const = default;
};

Msg confirm_rkey_build(const ConfirmRkey &c);
// Any 44-byte CONFIRM RKEY (type 6), request or reply.
std::optional<ConfirmRkey> confirm_rkey_parse(const uint8_t *p, size_t len);

// CONFIRM RKEY CONTINUATION (A.3.6, Figure 38): NumTknsLeft 4, then three
// RTokens at 5, 18 and 31.
Msg confirm_rkey_cont_build(uint8_t flags, uint8_t num_left, const std::array<Rtoken, 3> &tokens);

// DELETE RKEY (A.3.7, Figure 39): count 4, error mask 5 (0x80 = first
// RKey), RKeys at 8, 12, ... 36.
struct DeleteRkey {
	uint8_t flags = 0;
	uint8_t count = 0;
	uint8_t err_mask = 0;
	std::array<uint32_t, 8> rkeys{};
	bool operator==(const DeleteRkey &) const = default;
};

Msg delete_rkey_build(const DeleteRkey &d);
std::optional<DeleteRkey> delete_rkey_parse(const uint8_t *p, size_t len);

std::string llc_name(uint8_t type);

} // namespace smctest::wire
