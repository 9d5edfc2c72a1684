// CLC messages (RFC 7609, Appendix A.2) as a hostile/scripted peer needs
// them: pure builders that can also produce malformed variants, and a small
// reader for what comes back. Byte layouts follow include/smcr/clc_wire.h
// (the module's) and the golden vectors of kunit/clc_test.c; this is an
// independent userspace implementation on purpose (tests must not share the
// code under test).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace smctest::clc {

using Bytes = std::vector<uint8_t>;

inline constexpr std::array<uint8_t, 4> kEyeCatcher{0xE2, 0xD4, 0xC3, 0xD9}; // "SMCR" EBCDIC

enum Type : uint8_t { Proposal = 1, Accept = 2, Confirm = 3, Decline = 4 };

inline constexpr size_t kHdrLen = 8;
inline constexpr size_t kTrailerLen = 4;
inline constexpr size_t kDeclineLen = 28;
inline constexpr size_t kAcceptLen = 68; // Accept and Confirm, version 1
inline constexpr size_t kAcceptV2Len = 108; // version 2, without first contact extension
inline constexpr size_t kEidLen = 32;
using Eid = std::array<uint8_t, kEidLen>;
using Gid = std::array<uint8_t, 16>;
// A user EID as Linux keeps it: upper case, blank padded to 32 bytes.
Eid eid(const std::string &name);
inline constexpr size_t kMaxLen = 1024;	 // largest message the module reads

struct Ipv6Prefix {
	std::array<uint8_t, 16> prefix{};
	uint8_t len = 0;
};

// Fields of a version 1 Proposal (Figures 26, 27).
struct ProposalSpec {
	std::array<uint8_t, 8> peer_id{0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc};
	std::array<uint8_t, 16> gid{0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc};
	std::array<uint8_t, 6> mac{0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc};
	uint32_t ipv4_subnet = 0; // host order; 0 for an IPv6 flow
	uint8_t ipv4_prefix_len = 0;
	std::vector<Ipv6Prefix> ipv6;
	std::optional<uint8_t> ipv6_count_override; // malformed: count field != entries
	uint16_t iparea_offset = 0;		    // malformed if it points past the end
	uint8_t flags = 0x10;			    // version 1, SMC-R v1 (type field 0)
	// version 2 (proposal_v2()): SMC-R v2 only, one user EID, release 1
	Eid eid{};
	Gid v2_gid{};		// RoCE v2 GID: the client's IPv4-mapped address
	uint8_t release = 1;
	uint8_t max_conns = 255;
	uint8_t max_links = 1;
};

// Header only (8 bytes).
Bytes header(uint8_t type, uint16_t length, uint8_t flags);
// Sets the header length to the current size + trailer and appends the
// trailer. Used by every builder below.
void finish(Bytes &m);

// The Decline's S-bit (A.2.5): the link group is out of sync.
inline constexpr uint8_t kDeclineSync = 0x08;

// Version 1 Decline (28 bytes), flags = version << 4 | (sync ? kDeclineSync : 0).
Bytes decline(uint32_t diagnosis, uint8_t version = 1, bool sync = false);
Bytes proposal_v1(const ProposalSpec &s);
// A CLC version 2 Proposal offering SMC-R version 2 only (version 1 type
// "none", no prefix area), in the layout smcr and Linux send: the SMC-D
// area, then the v2 extension with s.v2_gid, s.release, s.max_conns,
// s.max_links and the one user EID s.eid. s.flags is not used.
Bytes proposal_v2(const ProposalSpec &s);
// A Proposal shaped like Linux 6.12's (CLC version 2, SMC-R v2 + SMC-R v1,
// one user EID, default sysctls; kunit/clc_test.c golden_prop_linux_v2):
// 164 bytes. ipv4_subnet/prefix_len go into its IP prefix area.
Bytes proposal_linux_v2(uint32_t ipv4_subnet, uint8_t prefix_len);
// Fields of a version 1 Accept or Confirm (Figures 28, 29). The defaults
// are those of kunit/clc_test.c's golden vectors.
struct AcceptConfirmSpec {
	std::array<uint8_t, 8> peer_id{0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc};
	std::array<uint8_t, 16> gid{0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc};
	std::array<uint8_t, 6> mac{0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc};
	uint32_t qpn = 0x123456;
	uint32_t rmb_rkey = 0xdeadbeef;
	uint8_t rmbe_idx = 1;
	uint32_t alert_token = 0x1001;
	uint8_t rmbe_size_code = 2; // 64 KiB
	uint8_t mtu = 3;	    // 1024
	uint64_t rmb_vaddr = 0x00007f0012345000;
	uint32_t psn = 0xabcdef;
	bool first_contact = true; // Accept only (version 2: both)
	// version 2: after the PSN the EID and 8 reserved bytes; on first
	// contact the first contact extension (release 1: 52 bytes) and, in
	// a Confirm, the sender's GIDs
	uint8_t version = 1;
	Eid eid{};
	uint8_t fce_flags = 0x80; // the sender reaches the peer directly
	uint8_t os_type = 2;	  // Linux
	uint8_t release = 1;
	uint8_t max_conns = 255;
	uint8_t max_links = 1;
	std::vector<Gid> gids;
};

// Accept or Confirm of s.version: version 1 is 68 bytes (Figures 28, 29),
// version 2 108 plus, on first contact, the extension and GID list.
Bytes accept_confirm(uint8_t type, const AcceptConfirmSpec &s = {});
// An Accept or Confirm of version 1 (68 bytes) or 2 (the lengths adding
// up exactly, at most 8 GIDs), trailer checked; or nothing.
std::optional<AcceptConfirmSpec> accept_confirm_parse(const Bytes &m);
// RMBE size of a size code (A.2.3): 16 KiB << code.
inline uint32_t rmbe_size(uint8_t code) { return (16u << 10) << code; }

// Reader side: what a received message looks like.
struct Header {
	bool eye_ok = false;
	uint8_t type = 0;
	uint16_t length = 0;
	uint8_t flags = 0;
	uint8_t version() const { return flags >> 4; }
};
Header parse_header(const uint8_t *p); // 8 bytes
bool trailer_ok(const Bytes &m);
// Diagnosis of a Decline (version 1 or 2 layout), if m is a well-formed one.
std::optional<uint32_t> decline_diagnosis(const Bytes &m);

std::string type_name(uint8_t type);
std::string hex(const Bytes &m, size_t max = 64);

} // namespace smctest::clc
