// smctest clc-peer: a scripted, hostile CLC peer over plain TCP.
//
// The peer talks CLC to an smcr socket on the other end (which must run CLC
// without the SMC TCP option: module parameter test_clc_without_option=1),
// sends one scripted (often malformed) message and asserts the outcome the
// CLC rules of net/smc/handshake.c demand:
//   drop      the smcr side ends the connection (EOF or reset) without
//             sending a single byte (no fallback);
//   decline   the smcr side answers with a Decline of an exact diagnosis and
//             falls back: then checksummed duplex data both ways; the
//             Decline's S-bit (out of sync, A.2.5) is clear, except for
//   decline+S scripts (the smcr side's link groups contradict ours), where
//             it must be set;
//   data      we sent a valid Decline: the smcr side falls back without
//             answering: checksummed duplex data both ways;
//   accept+confirm-drop  (client) the smcr server accepts our Proposal, we
//             send a Confirm, the server must drop the connection.
// Data after a fallback follows smctest's duplex mode: the client sends
// pattern --seed and verifies --seed+1, the server the other way round, so
// the smcr application side is a plain `smctest client|server --mode duplex`.
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <iostream>

#include "clc.hpp"
#include "clcio.hpp"
#include "commands.hpp"
#include "net.hpp"
#include "smcr/args.hpp"
#include "smcr/reasons.hpp"
#include "transfer.hpp"

namespace smctest {

using smcr::UniqueFd;
namespace clc = smctest::clc;

namespace {

enum class Send { Full, TruncClose, TruncSilent, Nothing };
enum class Expect { Drop, Decline, DeclineSync, Data, AcceptThenConfirmDrop, AcceptThenSilence, StrangerSyncDecline };

// What the smcr side's address looks like to us (for Proposal prefixes).
struct Ctx {
	bool ipv6 = false;
	uint32_t local4 = 0; // host order
	std::array<uint8_t, 16> local6{};
	uint32_t decline_code = 0;
	std::optional<uint16_t> peer_id_tag;
	// another peer's identity (--claim-*): empty where not claimed
	std::vector<uint8_t> peer_id, gid, mac;
	std::optional<uint32_t> qpn;
};

template <size_t N> void claim(std::array<uint8_t, N> &field, const std::vector<uint8_t> &v)
{
	if (v.size() == N)
		std::copy(v.begin(), v.end(), field.begin());
}

struct Script {
	const char *name;
	Role role; // role of the hostile peer
	Send send;
	Expect expect;
	uint32_t code; // expected Decline diagnosis (Expect::Decline)
	const char *desc;
	std::function<clc::Bytes(const Ctx &)> msg;
};

clc::ProposalSpec good_proposal(const Ctx &x)
{
	clc::ProposalSpec s;
	if (x.peer_id_tag) {
		s.peer_id[6] = static_cast<uint8_t>(*x.peer_id_tag >> 8);
		s.peer_id[7] = static_cast<uint8_t>(*x.peer_id_tag);
	}
	claim(s.peer_id, x.peer_id);
	claim(s.gid, x.gid);
	claim(s.mac, x.mac);
	if (x.ipv6) {
		clc::Ipv6Prefix p;
		std::copy_n(x.local6.begin(), 8, p.prefix.begin()); // /64
		p.len = 64;
		s.ipv6.push_back(p);
	} else {
		s.ipv4_subnet = x.local4 & 0xffffff00u;
		s.ipv4_prefix_len = 24;
	}
	return s;
}

// An Accept with the F bit clear, naming the claimed peer and QP, if any
clc::Bytes subsequent_accept(const Ctx &x)
{
	clc::AcceptConfirmSpec s;
	s.first_contact = false;
	claim(s.peer_id, x.peer_id);
	claim(s.gid, x.gid);
	claim(s.mac, x.mac);
	if (x.qpn)
		s.qpn = *x.qpn;
	return clc::accept_confirm(clc::Accept, s);
}

clc::Bytes good_decline(const Ctx &x)
{
	return clc::decline(x.decline_code);
}

constexpr uint32_t kSyncErr = 0x04000000, kNoSmcrDev = 0x03030002, kModeUnsupp = 0x03040000,
		   kErrRdyLnk = 0x09990002;

const std::vector<Script> &scripts()
{
	static const std::vector<Script> all = {
		// ---- hostile client -> smcr server
		{"bad-eyecatcher", Role::Client, Send::Full, Expect::Drop, 0, "Decline with eye catcher 'SMCX'",
		 [](const Ctx &x) { auto m = good_decline(x); m[3] = 0xE7; return m; }},
		{"bad-trailer", Role::Client, Send::Full, Expect::Drop, 0, "Decline whose trailer is not 'SMCR'",
		 [](const Ctx &x) { auto m = good_decline(x); m.back() ^= 0xff; return m; }},
		{"unknown-type", Role::Client, Send::Full, Expect::Drop, 0, "28-byte message of type 9",
		 [](const Ctx &x) { auto m = good_decline(x); m[4] = 9; return m; }},
		{"version0", Role::Client, Send::Full, Expect::Drop, 0, "Decline with CLC version 0",
		 [](const Ctx &x) { auto m = good_decline(x); m[7] = 0; return m; }},
		{"len-small", Role::Client, Send::Full, Expect::Drop, 0, "Decline announcing length 8 (< 12)",
		 [](const Ctx &x) { auto m = good_decline(x); m[5] = 0; m[6] = 8; return m; }},
		{"len-big", Role::Client, Send::Full, Expect::Drop, 0, "Decline announcing length 0xFFFF",
		 [](const Ctx &x) { auto m = good_decline(x); m[5] = 0xff; m[6] = 0xff; return m; }},
		{"trunc-close", Role::Client, Send::TruncClose, Expect::Drop, 0,
		 "first 20 bytes of a valid Proposal, then shutdown(SHUT_WR)",
		 [](const Ctx &x) { return clc::proposal_v1(good_proposal(x)); }},
		{"trunc-silence", Role::Client, Send::TruncSilent, Expect::Drop, 0,
		 "first 20 bytes of a valid Proposal, then silence (dropped after clc_timeout_ms)",
		 [](const Ctx &x) { return clc::proposal_v1(good_proposal(x)); }},
		{"silence", Role::Client, Send::Nothing, Expect::Drop, 0,
		 "no CLC message at all (dropped after clc_timeout_ms)", [](const Ctx &) { return clc::Bytes{}; }},
		{"accept-first", Role::Client, Send::Full, Expect::Decline, kSyncErr,
		 "Accept as the first message to a server", [](const Ctx &) { return clc::accept_confirm(clc::Accept); }},
		{"confirm-first", Role::Client, Send::Full, Expect::Decline, kSyncErr,
		 "Confirm as the first message to a server",
		 [](const Ctx &) { return clc::accept_confirm(clc::Confirm); }},
		{"decline", Role::Client, Send::Full, Expect::Data, 0,
		 "valid v1 Decline (--decline-code) in place of the Proposal", good_decline},
		{"proposal-v1", Role::Client, Send::Full, Expect::Decline, kNoSmcrDev,
		 "valid v1 SMC-R Proposal (server without test_fake_offer declines NOSMCRDEV)",
		 [](const Ctx &x) { return clc::proposal_v1(good_proposal(x)); }},
		{"proposal-linux-v2", Role::Client, Send::Full, Expect::Decline, kNoSmcrDev,
		 "Proposal shaped like Linux 6.12's CLC v2 one (SMC-R v2 + v1, one EID)",
		 [](const Ctx &x) { return clc::proposal_linux_v2(x.local4 & 0xffffff00u, 24); }},
		{"proposal-bad-v6count", Role::Client, Send::Full, Expect::Decline, kSyncErr,
		 "v1 Proposal announcing 3 IPv6 prefixes but carrying 1",
		 [](const Ctx &x) {
			 auto s = good_proposal(x);
			 clc::Ipv6Prefix p;
			 p.prefix = {0x20, 0x01, 0x0d, 0xb8};
			 p.len = 64;
			 s.ipv6 = {p};
			 s.ipv6_count_override = 3;
			 return clc::proposal_v1(s);
		 }},
		{"proposal-bad-iparea", Role::Client, Send::Full, Expect::Decline, kSyncErr,
		 "v1 Proposal whose IP area offset points beyond its end",
		 [](const Ctx &x) { auto s = good_proposal(x); s.iparea_offset = 200; return clc::proposal_v1(s); }},
		{"proposal-no-smcr-v1", Role::Client, Send::Full, Expect::Decline, kModeUnsupp,
		 "v1 Proposal offering SMC-D only (type field 1)",
		 [](const Ctx &x) { auto s = good_proposal(x); s.flags = 0x11; return clc::proposal_v1(s); }},
		{"confirm-after-accept", Role::Client, Send::Full, Expect::AcceptThenConfirmDrop, 0,
		 "valid Proposal, expect Accept (server: test_fake_offer=1), send Confirm: dropped",
		 [](const Ctx &x) { return clc::proposal_v1(good_proposal(x)); }},
		{"stranger-sync-decline", Role::Client, Send::Full, Expect::StrangerSyncDecline, 0,
		 "valid Proposal claiming another client's identity (--claim-peer-id/-gid/-mac, from another "
		 "address: --bind): the Accept must be a first contact (F set: a link group of our own, nothing "
		 "of the other client's); then a Decline SYNCERR with the S-bit, data over TCP",
		 [](const Ctx &x) { return clc::proposal_v1(good_proposal(x)); }},
		{"silent-after-accept", Role::Client, Send::Full, Expect::AcceptThenSilence, 0,
		 "valid Proposal (a first contact: the server creates a link group and its QP), expect Accept, "
		 "then send nothing: dropped after the server's clc_timeout_ms",
		 [](const Ctx &x) { return clc::proposal_v1(good_proposal(x)); }},
		// ---- smcr client -> hostile server (client: test_clc_without_option=1,
		// test_fake_offer=1, so it sends a Proposal first)
		{"srv-proposal", Role::Server, Send::Full, Expect::Decline, kSyncErr,
		 "Proposal in place of the Accept", [](const Ctx &x) { return clc::proposal_v1(good_proposal(x)); }},
		{"srv-confirm", Role::Server, Send::Full, Expect::Decline, kSyncErr, "Confirm in place of the Accept",
		 [](const Ctx &) { return clc::accept_confirm(clc::Confirm); }},
		{"srv-decline", Role::Server, Send::Full, Expect::Data, 0,
		 "valid v1 Decline (--decline-code) in place of the Accept", good_decline},
		{"srv-accept", Role::Server, Send::Full, Expect::Decline, kErrRdyLnk,
		 "valid v1 Accept: the client declines in place of its Confirm (ERR_RDYLNK)",
		 [](const Ctx &) { return clc::accept_confirm(clc::Accept); }},
		{"srv-accept-subsequent", Role::Server, Send::Full, Expect::DeclineSync, kSyncErr,
		 "valid v1 Accept claiming a subsequent contact (F bit clear) on a link the client does not have "
		 "(client with a RoCE port, without test_fake_offer): out of sync (RFC 7609 C.4), the client "
		 "declines SYNCERR with the S-bit",
		 subsequent_accept},
		{"srv-stranger-accept", Role::Server, Send::Full, Expect::Decline, kNoSmcrDev,
		 "valid v1 Accept claiming a subsequent contact on another server's link (--claim-peer-id/-gid/-mac/"
		 "-qpn, from another address): the client declines NOSMCRDEV without the S-bit, its link group "
		 "with that server lives on",
		 subsequent_accept},
		{"srv-bad-eyecatcher", Role::Server, Send::Full, Expect::Drop, 0, "Accept with a bad eye catcher",
		 [](const Ctx &) { auto m = clc::accept_confirm(clc::Accept); m[0] = 0; return m; }},
		{"srv-len-big", Role::Server, Send::Full, Expect::Drop, 0, "Accept announcing length 0xFFFF",
		 [](const Ctx &) { auto m = clc::accept_confirm(clc::Accept); m[5] = 0xff; m[6] = 0xff; return m; }},
		{"srv-trunc-close", Role::Server, Send::TruncClose, Expect::Drop, 0,
		 "first 20 bytes of an Accept, then shutdown(SHUT_WR)",
		 [](const Ctx &) { return clc::accept_confirm(clc::Accept); }},
		{"srv-silence", Role::Server, Send::Nothing, Expect::Drop, 0,
		 "no answer to the Proposal (client connect fails after clc_timeout_ms)",
		 [](const Ctx &) { return clc::Bytes{}; }},
	};
	return all;
}

std::string hex32(uint32_t v)
{
	char b[12];
	std::snprintf(b, sizeof(b), "0x%08x", v);
	return b;
}

std::string code_str(uint32_t v)
{
	auto i = smcr::reason_lookup(v);
	return hex32(v) + (i ? " " + std::string(i->name) : std::string());
}

// The smcr side must end the connection (EOF or reset) without a byte.
void expect_drop(int fd, uint64_t wait_ms, const std::string &label)
{
	auto r = read_some(fd, 1 << 16, now_ms() + wait_ms);
	if (!r.data.empty())
		throw Failure(label + ": expected the connection to be dropped, got " + std::to_string(r.data.size()) +
			      " byte(s): " + clc::hex(r.data) +
			      (r.data.size() >= clc::kHdrLen
				       ? " (" + clc::type_name(clc::parse_header(r.data.data()).type) + ")"
				       : ""));
	if (r.timed_out)
		throw Failure(label + ": expected the connection to be dropped, still open after " +
			      std::to_string(wait_ms) + " ms");
	say(label + ": dropped by the smcr side as expected (" +
	    (r.eof ? std::string("EOF") : errno_name(r.err)) + ")");
}

// sync: the S-bit (A.2.5, header flags 0x08) must be set, else clear.
void expect_decline(int fd, uint32_t code, bool sync, uint64_t wait_ms, const std::string &label)
{
	auto m = read_clc(fd, wait_ms, "a Decline " + code_str(code));
	auto d = clc::decline_diagnosis(m);
	if (!d)
		throw Failure(label + ": expected a Decline " + code_str(code) + ", got " +
			      clc::type_name(m[4]) + ": " + clc::hex(m));
	if (*d != code)
		throw Failure(label + ": expected a Decline " + code_str(code) + ", got a Decline " + code_str(*d));
	const bool s = clc::parse_header(m.data()).flags & clc::kDeclineSync;
	if (s != sync)
		throw Failure(label + ": expected a Decline with the S-bit " + (sync ? "set" : "clear") +
			      ", got header flags " + clc::hex(clc::Bytes{m[7]}));
	say(label + ": got Decline " + code_str(*d) + (s ? " with the S-bit" : "") + " as expected");
}

void fallback_data(const Config &c, int fd, const std::string &label)
{
	TransferSpec s;
	s.msgsize = c.msgsize;
	s.send_bytes = c.bytes;
	bool client = c.role == Role::Client;
	s.send_seed = client ? c.seed : c.seed + 1;
	s.verify_seed = client ? c.seed + 1 : c.seed;
	auto r = transfer(fd, s, IoMode::Block);
	if (r.mismatch_at || r.received.bytes() != c.bytes)
		throw Failure(label + ": fallback data MISMATCH: received bytes=" + std::to_string(r.received.bytes()) +
			      " fnv=" + r.received.hex() + ", expected bytes=" + std::to_string(c.bytes) +
			      (r.mismatch_at ? " (first bad offset " + std::to_string(*r.mismatch_at) + ")" : ""));
	say(label + ": fallback data ok: sent bytes=" + std::to_string(r.sent.bytes()) + " fnv=" + r.sent.hex() +
	    ", received bytes=" + std::to_string(r.received.bytes()) + " fnv=" + r.received.hex());
}

Ctx make_ctx(const Config &c, int fd)
{
	Ctx x;
	x.decline_code = c.decline_code;
	x.peer_id_tag = c.peer_id_tag;
	x.peer_id = c.claim_peer_id;
	x.gid = c.claim_gid;
	x.mac = c.claim_mac;
	x.qpn = c.claim_qpn;
	sockaddr_storage ss{};
	socklen_t len = sizeof(ss);
	if (getsockname(fd, reinterpret_cast<sockaddr *>(&ss), &len) < 0)
		throw_errno("getsockname", errno);
	if (ss.ss_family == AF_INET6) {
		x.ipv6 = true;
		auto *a = reinterpret_cast<sockaddr_in6 *>(&ss);
		std::memcpy(x.local6.data(), &a->sin6_addr, 16);
	} else {
		x.local4 = ntohl(reinterpret_cast<sockaddr_in *>(&ss)->sin_addr.s_addr);
	}
	return x;
}

void send_bytes(int fd, const clc::Bytes &m)
{
	if (!m.empty())
		write_all(fd, m.data(), m.size());
}

void expect_accept(int fd, uint64_t wait_ms, const std::string &label, const std::string &hint)
{
	auto a = read_clc(fd, wait_ms, "an Accept" + hint);
	if (a[4] != clc::Accept)
		throw Failure(label + ": expected an Accept, got " + clc::type_name(a[4]) +
			      (a[4] == clc::Decline ? " " + code_str(clc::decline_diagnosis(a).value_or(0)) : "") + ": " +
			      clc::hex(a));
	say(label + ": got Accept (" + std::to_string(a.size()) + " bytes)");
}

void play(const Config &c, const Script &s, int fd)
{
	const std::string label = "clc-peer " + std::string(s.name);
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (s.role == Role::Server) {
		// The smcr client speaks first: with test_fake_offer=1 a Proposal.
		auto p = read_clc(fd, c.drop_wait_ms, "the smcr client's Proposal");
		if (p[4] != clc::Proposal || p.size() < 16)
			throw Failure(label + ": expected the smcr client's Proposal (client needs test_fake_offer=1 and "
					      "test_clc_without_option=1), got " +
				      clc::type_name(p[4]) + ": " + clc::hex(p));
		// its peer ID (A.2.1), GID and MAC: bytes 8..15, 16..31, 32..37
		if (p.size() < 38)
			throw Failure(label + ": Proposal of " + std::to_string(p.size()) + " bytes: " + clc::hex(p));
		clc::Bytes id(p.begin() + 8, p.begin() + 16), gid(p.begin() + 16, p.begin() + 32),
			mac(p.begin() + 32, p.begin() + 38);
		say(label + ": got the client's Proposal (" + std::to_string(p.size()) + " bytes, peer ID " +
		    clc::hex(id) + " GID " + clc::hex(gid) + " MAC " + clc::hex(mac) + ")");
	}
	Ctx x = make_ctx(c, fd);
	clc::Bytes m = s.msg(x);
	switch (s.send) {
	case Send::Full:
		send_bytes(fd, m);
		break;
	case Send::TruncClose:
		m.resize(std::min<size_t>(m.size(), 20));
		send_bytes(fd, m);
		if (::shutdown(fd, SHUT_WR) < 0)
			throw_errno("shutdown(SHUT_WR)", errno);
		break;
	case Send::TruncSilent:
		m.resize(std::min<size_t>(m.size(), 20));
		send_bytes(fd, m);
		break;
	case Send::Nothing:
		m.clear();
		break;
	}
	say(label + ": sent " + std::to_string(m.size()) + " byte(s)" + (m.empty() ? "" : ": " + clc::hex(m)));
	switch (s.expect) {
	case Expect::Drop:
		expect_drop(fd, c.drop_wait_ms, label);
		break;
	case Expect::Decline:
	case Expect::DeclineSync:
		expect_decline(fd, c.expect_decline ? *c.expect_decline : s.code, s.expect == Expect::DeclineSync,
			       c.drop_wait_ms, label);
		fallback_data(c, fd, label);
		break;
	case Expect::Data:
		fallback_data(c, fd, label);
		break;
	case Expect::AcceptThenConfirmDrop:
		expect_accept(fd, c.drop_wait_ms, label, " (server needs test_fake_offer=1)");
		say(label + ": sending Confirm");
		send_bytes(fd, clc::accept_confirm(clc::Confirm));
		expect_drop(fd, c.drop_wait_ms, label);
		break;
	case Expect::StrangerSyncDecline: {
		auto a = read_clc(fd, c.drop_wait_ms, "an Accept");
		auto acc = clc::accept_confirm_parse(a);
		if (!acc || a[4] != clc::Accept || acc->version != 1)
			throw Failure(label + ": expected a version 1 Accept, got " + clc::type_name(a[4]) + ": " +
				      clc::hex(a));
		say(label + ": got Accept, " + (acc->first_contact ? "first" : "SUBSEQUENT") + " contact, peer ID " +
		    clc::hex(clc::Bytes(acc->peer_id.begin(), acc->peer_id.end())) + " GID " +
		    clc::hex(clc::Bytes(acc->gid.begin(), acc->gid.end())) + " MAC " +
		    clc::hex(clc::Bytes(acc->mac.begin(), acc->mac.end())) + " QP " + std::to_string(acc->qpn));
		// what a stranger that hit would do: end the link group it was shown
		send_bytes(fd, clc::decline(kSyncErr, 1, true));
		say(label + ": sent Decline SYNCERR with the S-bit");
		fallback_data(c, fd, label);
		if (!acc->first_contact)
			throw Failure(label + ": the server put a stranger on another client's link group (Accept "
					      "with the F bit clear, QP " +
				      std::to_string(acc->qpn) + ")");
		break;
	}
	case Expect::AcceptThenSilence:
		expect_accept(fd, c.drop_wait_ms, label, "");
		say(label + ": silent");
		expect_drop(fd, c.drop_wait_ms, label);
		break;
	}
}

const Script &find_script(const std::string &name)
{
	for (const auto &s : scripts())
		if (name == s.name)
			return s;
	throw smcr::ArgError("unknown clc-peer script '" + name + "' (smctest clc-peer --list)");
}

} // namespace

std::vector<std::string> clc_peer_script_names()
{
	std::vector<std::string> v;
	for (const auto &s : scripts())
		v.emplace_back(s.name);
	return v;
}

int run_clc_peer(const Config &c)
{
	if (c.list) {
		for (const auto &s : scripts()) {
			const char *e = s.expect == Expect::Drop		 ? "drop"
					: s.expect == Expect::Decline		 ? "decline"
					: s.expect == Expect::DeclineSync	 ? "decline+S"
					: s.expect == Expect::Data		 ? "data"
					: s.expect == Expect::StrangerSyncDecline ? "accept(first),decline+S"
										 : "accept,confirm->drop";
			std::cout << s.name << "\trole=" << (s.role == Role::Client ? "client" : "server")
				  << "\texpect=" << e << (s.code ? " " + code_str(s.code) : "") << "\t" << s.desc
				  << "\n";
		}
		return 0;
	}
	const Script &s = find_script(c.script);
	if (c.role != s.role)
		throw smcr::ArgError(std::string("script ") + s.name + " plays --role " +
				     (s.role == Role::Client ? "client" : "server"));
	if (c.role == Role::Client) {
		Config tc = c;
		tc.family = Family::Tcp;
		UniqueFd fd = dial(tc, peer_addr(tc));
		say("clc-peer " + c.script + ": connected " + local_name(fd.get()) + " -> " + peer_name(fd.get()));
		play(c, s, fd.get());
	} else {
		Config tc = c;
		tc.family = Family::Tcp;
		UniqueFd lfd = make_listener(tc);
		say("clc-peer " + c.script + ": listening on " + local_name(lfd.get()));
		write_ready_file(c.ready_file);
		UniqueFd fd = accept_one(lfd.get(), 0, 120000);
		say("clc-peer " + c.script + ": accepted " + peer_name(fd.get()));
		play(c, s, fd.get());
	}
	return 0;
}

} // namespace smctest
