// smctest link-peer's SMC-R endpoint (linkpeer.cpp) and its scripts'
// table entry, shared by the script families: the CDC scripts live in
// linkpeer_cdc.cpp, the rkey exchange scripts in linkpeer_rkey.cpp, the
// ADD LINK scripts in linkpeer_link.cpp, the others in linkpeer.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cli.hpp"
#include "clc.hpp"
#include "net.hpp"
#include "verbs.hpp"
#include "wire.hpp"

namespace smctest::linkpeer {

using smcr::UniqueFd;
using wire::Cursor;

inline constexpr uint32_t kOurToken = 0x5a000001;
inline constexpr uint8_t kOurSizeCode = 2; // 64 KiB RMBE
// A send slot is written again only when its last SEND has completed:
// rxe reads a SEND's bytes when it sends them, not when it is posted, and
// the send queue completes in order, so as many slots as the queue is
// deep (wait_sq_room() keeps fewer outstanding).
inline constexpr unsigned kSqDepth = 128;
inline constexpr unsigned kSendSlots = kSqDepth;
inline constexpr unsigned kRecvSlots = 32;
// Send and receive slots: a version 2 LLC message's most (smcr's longest
// is an ADD LINK with 255 RKey pairs); larger than 44, so that in version
// 1 an oversized SEND shows as one
inline constexpr uint32_t kSlotLen = 8192;
inline constexpr uint64_t kWaitMs = 20000;

enum WrKind : uint64_t { kWrRecv = 1ULL << 32, kWrSend = 2ULL << 32, kWrWrite = 3ULL << 32 };

// One RMBE as a ring (RFC 7609 4.3): cursors begin and wrap at start.
// The peer tracks positions as linear byte counts and converts.
struct Ring {
	uint32_t size = 0;
	uint32_t start = 0;

	uint32_t cap() const { return size - start; }
	Cursor at(uint64_t n) const
	{
		return {static_cast<uint16_t>(n / cap()), static_cast<uint32_t>(start + n % cap())};
	}
	uint32_t offset(uint64_t n) const { return static_cast<uint32_t>(start + n % cap()); }
	// The linear position of c nearest to ref (16-bit wraps), or nothing
	// if c.count lies outside the data area.
	std::optional<uint64_t> unwrap(Cursor c, uint64_t ref) const
	{
		if (c.count < start || c.count >= size)
			return std::nullopt;
		const int64_t dom = int64_t{65536} * cap();
		int64_t x = int64_t{c.wrap} * cap() + (c.count - start);
		int64_t d = ((x - static_cast<int64_t>(ref % static_cast<uint64_t>(dom))) % dom + dom) % dom;
		if (d >= dom / 2)
			d -= dom;
		int64_t n = static_cast<int64_t>(ref) + d;
		if (n < 0)
			return std::nullopt;
		return static_cast<uint64_t>(n);
	}
};

// An LLC message smcr sent; in a version 2 link group unwrapped into its
// version 1 form (type without 0x20, byte 1 44, byte 2 0), and the bytes
// after the first 44 of a longer one in tail.
struct LlcSeen {
	uint8_t type;
	uint8_t flags;
	wire::Msg msg;
	uint64_t ms = 0; // now_ms() when it came
	std::vector<uint8_t> tail;
};

class Peer {
public:
	explicit Peer(const Config &c) : c_(c), rmb_(clc::rmbe_size(kOurSizeCode)), stage_(512 << 10),
					msgs_((kSendSlots + kRecvSlots) * kSlotLen)
	{
	}

	// SMC-R version 2 (--clc-version 2): the CLC exchange of version 2
	// (clc::proposal_v2()) and Linux's version 2 LLC framing. send_msg()
	// wraps an LLC message of a type that has a version 2 form (type |
	// 0x20, its length in bytes 1-2, big endian), send_raw() does not;
	// received ones are unwrapped (LlcSeen). CDC messages are those of
	// version 1.
	bool v2() const { return c_.clc_version == 2; }

	// TCP, CLC, the QP and CONFIRM LINK; the link is then usable.
	void establish();
	// The max links our CONFIRM LINK reply announces (A.3.1; default 1:
	// the link group stays single). Set before establish().
	void announce_max_links(uint8_t n) { max_links_ = n; }

	// --- further contacts (3.5.2): another TCP connection, to port, with
	// our peer ID, GID and MAC.
	struct Contact {
		UniqueFd fd;
		clc::AcceptConfirmSpec acc;
		// the server's RMB element the Accept named: its address
		uint64_t rmbe_addr() const
		{
			return acc.rmb_vaddr + static_cast<uint64_t>(acc.rmbe_idx - 1) * clc::rmbe_size(acc.rmbe_size_code);
		}
	};
	UniqueFd dial_port(uint16_t port) const;
	// Proposal, then the server's Accept: a subsequent contact on our link
	// (F bit clear, the link's QP) - or, with first, a first contact on a
	// new QP. Anything else fails the run.
	Contact contact(uint16_t port, bool first = false) const;
	// What came back for a Proposal when smcr may first need the link:
	// a new RMB's CONFIRM RKEY before the Accept (3.5.5.2.1).
	struct Answer {
		UniqueFd fd;
		clc::Bytes clc;		  // the server's CLC message (any type)
		std::vector<LlcSeen> llc; // LLC messages smcr sent while we waited
		// with may_end: how the TCP connection ended before a whole
		// CLC message came ("EOF" or an errno name; clc holds what
		// came), and the link's failure meanwhile; else empty
		std::string tcp_end;
		std::string link_error;
	};
	// Proposal on another TCP connection to port, then the server's CLC
	// message, read while the link is pumped: on_llc sees each LLC
	// message that arrives meanwhile, in order, and may answer it. The
	// TCP connection's end before the CLC message, or the link's failure,
	// fails the run - unless may_end: then they are only reported.
	Answer propose(uint16_t port, const std::function<void(const LlcSeen &)> &on_llc = {},
		       bool may_end = false);
	// The Answer's Accept, checked as contact() checks it.
	Contact accepted(uint16_t port, Answer &&a, bool first = false) const;
	// Our honest Confirm (our QP, our RMB's one element); of a first
	// contact (version 2: with the first contact extension echoing the
	// Accept's limits and our GID) or, by default, a subsequent one.
	clc::AcceptConfirmSpec confirm_spec(bool first = false) const;
	// Our RMB's rkey and address, as our Confirm announces them.
	uint32_t our_rkey() const { return rmb_mr_->rkey; }
	uint64_t our_vaddr() const { return reinterpret_cast<uintptr_t>(rmb_.data()); }
	// Our RMB element passes to the connection of contact k, whose
	// Confirm (sent) named it with our alert token `token`: from here on
	// the Peer's connection is that one, its cursors start afresh. The
	// old connection's CDC messages (its token) are only tallied
	// (old_conn()); returns its TCP connection.
	UniqueFd take_over(Contact &&k, uint32_t token);
	// What smcr sent for the connection take_over() replaced, since then.
	struct OldConn {
		uint32_t token = 0;	// our alert token of it
		uint64_t rx_prod = 0;	// smcr's producer position at take_over()
		unsigned cdcs = 0;	// CDC messages since
		unsigned aborts = 0;	// of those, with A
		unsigned writes = 0;	// of those, with the producer cursor moved
	};
	const std::optional<OldConn> &old_conn() const { return old_; }

	// --- sending
	// A CDC message with the current cursors; edit may lie in any field.
	void send_cdc(uint8_t prod_flags = 0, uint8_t conn_flags = 0,
		      const std::function<void(wire::Cdc &)> &edit = {});
	void send_msg(const wire::Msg &m);
	// An LLC request, and smcr's reply to it: the next LLC reply of the
	// request's type. Fails the run if none comes within kWaitMs.
	LlcSeen llc_exchange(const wire::Msg &req, const std::string &label);
	// RDMA-writes n pattern bytes at our producer position (no CDC).
	void write_data(uint64_t n);
	// Bytes we may write now (the server's RMBE minus what it holds).
	uint64_t tx_space() const { return peer_ring_.cap() - (tx_prod_ - tx_peer_cons_); }

	// --- receiving
	// Handles completions for up to ms (at least one poll); returns
	// after the first batch.
	void pump(int ms);
	// Handles completions for ms, all of it.
	void pump_for(uint64_t ms)
	{
		pump_until([] { return false; }, ms);
	}
	// Pumps until pred() holds; false after ms.
	bool pump_until(const std::function<bool()> &pred, uint64_t ms);
	// Takes what the server wrote, checks it against its pattern and
	// sends a consumer update when due.
	void consume();

	// --- the duplex exchange, both directions at once, then an orderly
	// close (our D after the data, C after the server's C).
	void duplex(uint64_t bytes, bool close = true, uint64_t stop_at = UINT64_MAX);
	void close_orderly();
	// Resets our TCP connection (SO_LINGER 0, close); the QP stays.
	void reset_tcp();
	// How smcr's side of the TCP connection ends within ms, pumping the
	// link meanwhile: "RST", "FIN", "data" or "open" (nothing yet).
	std::string tcp_end(uint64_t ms) { return tcp_end(fd_.get(), ms); }
	// The same for another TCP connection of ours to smcr.
	std::string tcp_end(int fd, uint64_t ms);
	// A TEST LINK request of ours is answered: the link is alive.
	void expect_link_alive(const std::string &label);
	// smcr ends the link: a DELETE LINK comes, or (its QP gone) our TEST
	// LINK requests exhaust their transport retries.
	void expect_link_down(const std::string &label);
	// Posts m's bytes (at most kSlotLen) as one SEND as they are, not
	// wrapped: not 44 bytes in version 1, a lie; in version 2 a long
	// message or a lie in its framing.
	void send_raw(std::span<const uint8_t> m, std::optional<uint32_t> imm = std::nullopt);
	// One byte RDMA-written at our producer position with immediate data.
	void write_imm(uint32_t imm);
	// An RDMA write of n bytes to any address and rkey; waits for its
	// completion and returns its status.
	ibv_wc_status write_at(uint64_t raddr, uint32_t rkey, uint32_t n);
	uint64_t server_rmbe_addr() const { return peer_addr_; }

	uint64_t rx_got() const { return rx_cons_; }
	// CDC messages smcr sent us so far
	unsigned cdc_seen() const { return cdc_seen_; }
	uint64_t tx_peer_cons() const { return tx_peer_cons_; }
	uint8_t peer_conn_flags() const { return peer_conn_flags_; }
	const std::vector<LlcSeen> &llc_seen() const { return llc_; }
	// Pumps until no new reply of this type came for quiet_ms; returns
	// llc_replies(type) then (the end of an answered flood).
	unsigned pump_until_replies_stop(uint8_t type, uint64_t quiet_ms)
	{
		for (unsigned n = llc_replies(type);;) {
			pump_for(quiet_ms);
			if (llc_replies(type) == n)
				return n;
			n = llc_replies(type);
		}
	}
	// LLC replies of this type smcr sent (TEST LINK's are not kept)
	unsigned llc_replies(uint8_t type) const
	{
		return static_cast<unsigned>(std::count_if(llc_.begin(), llc_.end(), [&](const LlcSeen &l) {
			return l.type == type && (l.flags & wire::kLlcResp);
		}));
	}
	const std::string &link_error() const { return link_error_; }
	// smcr's replies to our TEST LINK requests so far
	unsigned test_link_replies() const { return test_link_replies_; }
	void set_answer_test_link(bool on) { answer_test_link_ = on; }
	// Stop reposting receive buffers: smcr's next SENDs meet RNR for ever.
	void withhold_recv() { withhold_recv_ = true; }
	// withhold_recv(), then 64 TEST LINK requests: smcr's replies fill our
	// receive queue, then its send queue waits on RNR for ever and every
	// send buffer of the link stays taken.
	void stall_smcr_sends();
	// Our lies make any cursor smcr sends back possible: check only what
	// is smcr's own (token, sequence, flags), and keep no LLC log.
	void fuzzing() { fuzzing_ = true; }
	const Ring &peer_ring() const { return peer_ring_; }
	const Ring &our_ring() const { return our_ring_; }
	uint64_t tx_prod() const { return tx_prod_; }
	uint64_t rx_cons() const { return rx_cons_; }
	uint16_t tx_seq() const { return tx_seq_; }
	const clc::AcceptConfirmSpec &accept() const { return acc_; }
	const verbs::Port &port() const { return port_; }
	// this host's RoCE v2 IPv4 GIDs with their ports, port() among them
	const std::vector<verbs::Port> &local_ports() const { return local_ports_; }
	// the link's number, from smcr's CONFIRM LINK
	uint8_t link_num() const { return link_num_; }

private:
	Contact check_accept(uint16_t port, UniqueFd fd, const clc::Bytes &a, bool first) const;
	uint8_t *send_slot() { return msgs_.data() + (tx_slot_++ % kSendSlots) * kSlotLen; }
	uint8_t *recv_slot(unsigned i) { return msgs_.data() + (kSendSlots + i) * kSlotLen; }
	clc::Bytes proposal() const { return v2() ? clc::proposal_v2(prop_) : clc::proposal_v1(prop_); }
	// m as it goes on the wire (version 2: wrapped), posted now
	void post_msg(const wire::Msg &m);
	void wait_sq_room();
	void on_recv(const ibv_wc &wc);
	void on_cdc(const wire::Cdc &cdc);
	void on_llc(const uint8_t *p, std::vector<uint8_t> tail);

	const Config &c_;
	UniqueFd fd_;
	clc::ProposalSpec prop_;
	clc::AcceptConfirmSpec acc_;
	std::vector<verbs::Port> local_ports_;
	verbs::Port port_;
	// Buffers before the link, MRs after it: MRs go first, then the QP,
	// CQ and PD, then the memory.
	verbs::Buffer rmb_;
	verbs::Buffer stage_;
	verbs::Buffer msgs_;
	std::unique_ptr<verbs::RcLink> link_;
	verbs::Mr rmb_mr_;
	verbs::Mr stage_mr_;
	verbs::Mr msgs_mr_;

	Ring our_ring_;
	Ring peer_ring_;
	uint64_t peer_addr_ = 0; // the server's RMBE
	bool eyec_ = false;
	uint8_t link_num_ = 0;
	uint8_t max_links_ = 1;

	unsigned tx_slot_ = 0;
	unsigned sq_out_ = 0;
	uint16_t tx_seq_ = 0;
	uint64_t tx_prod_ = 0;	    // bytes we wrote into the server's RMBE
	uint64_t tx_peer_cons_ = 0; // of those, what the server consumed
	uint64_t rx_prod_ = 0;	    // bytes the server wrote into ours
	uint64_t rx_cons_ = 0;	    // of those, what we consumed
	uint64_t rx_cons_sent_ = 0; // our consumer cursor as last sent
	uint8_t sent_conn_flags_ = 0;
	uint8_t peer_conn_flags_ = 0;
	uint8_t peer_prod_flags_ = 0;
	std::optional<uint16_t> rx_seq_;
	std::optional<wire::ConfirmLink> confirm_link_;
	std::vector<LlcSeen> llc_;
	bool answer_test_link_ = true;
	bool withhold_recv_ = false;
	bool fuzzing_ = false;
	unsigned test_link_replies_ = 0;
	unsigned cdc_seen_ = 0;
	std::string link_error_;
	uint32_t our_token_ = kOurToken;
	std::optional<OldConn> old_;
};

struct Script {
	const char *name;
	const char *desc;
	const char *expect;
	std::function<void(Peer &, const Config &)> run;
	// the max links our CONFIRM LINK reply announces (Peer::announce_max_links())
	uint8_t max_links = 1;
};

// A lie smcr must ignore: after it the honest exchange is byte-exact (the
// server's own checksum and ours), and the link lives.
void ignored_then_honest(Peer &p, const Config &c, const std::string &label,
			 const std::function<void(Peer &)> &lie);

// As ignored_then_honest(), and smcr sent no LLC message in reply.
void llc_dropped_then_honest(Peer &p, const Config &c, const std::string &label,
			     const std::function<void(Peer &)> &lie);
// fuzz in version 2 framing: a message of any type (mostly the version 2
// ones), random flags and body, 1 in 4 longer than 44 bytes (up to 8 KiB),
// 1 in 4 with a lying length field; no DELETE LINK of this link or of all.
std::vector<uint8_t> fuzz_llc_v2(std::mt19937_64 &rng);

// After a fallback: the duplex pattern over the TCP connection fd (we send
// --seed, the server --seed+1), byte-exact.
void tcp_duplex(const Config &c, int fd, const std::string &label);
void send_clc(int fd, const clc::Bytes &m);
// "0x2a": a flags byte or error mask in a message
std::string hex8(uint8_t v);
// "0x1f000": an rkey, address or reason
std::string hex_u64(uint64_t v);
// a whole message in hex
std::string hex_msg(const wire::Msg &m);

// The CDC scripts (linkpeer_cdc.cpp): lies in cursors, sequence numbers
// and flags.
const std::vector<Script> &cdc_scripts();
// The rkey exchange scripts (linkpeer_rkey.cpp): CONFIRM RKEY and DELETE
// RKEY both ways (RFC 7609 3.5.5.2).
const std::vector<Script> &rkey_scripts();
// The ADD LINK scripts (linkpeer_link.cpp): smcr's ADD LINK flow for a
// second link (RFC 7609 3.5.1.6, A.3.2-A.3.4) answered with lies.
const std::vector<Script> &link_scripts();
// The version 2 scripts (linkpeer_v2.cpp): lies only version 2 framing
// can tell - long messages, REQ ADD LINK, version 1 types in a version 2
// link group.
const std::vector<Script> &v2_scripts();

} // namespace smctest::linkpeer
