// smctest link-peer: smcr's ADD LINK flow (RFC 7609 3.5.1.6, 3.5.5.1.1,
// A.3.2-A.3.4) from the client's side, answered with lies.
//
// With smcr_max_links_per_lgr 2 on the smcr server and max links 2 in our
// CONFIRM LINK reply (Script::max_links), smcr offers a second link on its
// other RoCE port after the first contact: an ADD LINK request on the
// existing link with its new QP (link number 2, the lowest free, A.3.1).
// What it must do with our answer (net/smc/llc_link.c):
//  - a reject (Z, reason code in byte 2), no answer within llc_timeout_ms,
//    or a positive reply it cannot use (another link number, MTU outside
//    1..5, QP number 0): it drops its new link without a word - no
//    CONTINUATION, no DELETE LINK;
//  - a usable positive reply: its QP goes to RTR/RTS towards our GID and
//    QP, then ADD LINK CONTINUATION rounds (A.3.3: its RMBs' RTokens on
//    the new link, then ours in our reply) and CONFIRM LINK on the new
//    link. A reply that lies - another link number, a NumRTokens larger
//    than our previous reply left, an RToken on the new link that
//    contradicts one we gave - or no CONFIRM LINK reply within
//    llc_timeout_ms: it tells us with DELETE LINK of the new link (lost
//    path, not all) on the existing link, since we accepted it, and drops
//    it.
// Either way the link group goes on with its one link: TEST LINK answered,
// data byte-exact. We have no QP for the new link: our positive reply
// names a made-up QP number (its RTR needs no live peer) and the GID of
// our other RoCE port, so smcr's CONFIRM LINK on the new link reaches
// nobody.
//
// Each answer goes out within half of llc_timeout_ms (--llc-timeout) of
// smcr's request, or the script fails (answer()): smcr must judge the lie,
// not give up on a late reply - which would look the same from here.
//
// One flow per link group comes by itself; for the next, a script sends
// the client's ADD LINK hint (3.5.5.1.2: a client with a new RNIC), which
// smcr, below its maximum of links, answers with its ADD LINK exchange.
#include <algorithm>
#include <initializer_list>
#include <utility>

#include "linkpeer.hpp"

namespace smctest::linkpeer {

namespace {

constexpr uint8_t kNewLink = 2;		   // the lowest link number not in use
constexpr uint32_t kLostPath = 0x00010000; // DELETE LINK reason (A.3.4)
constexpr uint8_t kDelAll = 0x40, kDelOrderly = 0x20;
constexpr uint64_t kQuietMs = 1500;  // what smcr must not send comes within this
constexpr uint64_t kSlackMs = 2000;  // beyond llc_timeout_ms
constexpr unsigned kHintTries = 5;   // a hint during smcr's flow is ignored
constexpr uint64_t kHintWaitMs = 1500;
constexpr uint32_t kFakeQpn = 0xa50000; // no QP of ours has such a number

std::string what(const LlcSeen &l)
{
	return wire::llc_name(l.type) + ((l.flags & wire::kLlcResp) ? " reply" : " request") + " (flags " +
	       hex8(l.flags) + "): " + hex_msg(l.msg);
}

// The first nonzero byte of m in the ranges [from, to), or nothing.
std::optional<size_t> nonzero(const wire::Msg &m, std::initializer_list<std::pair<size_t, size_t>> ranges)
{
	for (const auto &[from, to] : ranges)
		for (size_t i = from; i < to; ++i)
			if (m[i])
				return i;
	return std::nullopt;
}

// LLC message number `at` of what smcr sent (TEST LINK aside), once it
// came within ms; nothing if none did.
std::optional<LlcSeen> llc_at(Peer &p, size_t at, uint64_t ms, const std::string &label)
{
	p.pump_until([&] { return p.llc_seen().size() > at || !p.link_error().empty(); }, ms);
	if (!p.link_error().empty())
		throw Failure(label + ": link failed: " + p.link_error());
	if (p.llc_seen().size() <= at)
		return std::nullopt;
	return p.llc_seen()[at];
}

// smcr sends no LLC message (TEST LINK aside) beyond the first `from` for
// ms; why says what that means if it does.
void expect_quiet(Peer &p, size_t from, uint64_t ms, const std::string &label, const std::string &why)
{
	p.pump_for(ms);
	if (!p.link_error().empty())
		throw Failure(label + ": link failed: " + p.link_error());
	if (p.llc_seen().size() > from)
		throw Failure(label + ": smcr sent " + what(p.llc_seen()[from]) + "; " + why);
	say(label + ": no LLC message from smcr in " + std::to_string(ms) + " ms");
}

// The end of every script: the link group's one link carries on - the
// duplex exchange byte-exact, then TEST LINK answered (which also sees
// our C through before we go) - and smcr sends no LLC message beyond the
// first `from` meanwhile.
void single_link_goes_on(Peer &p, const Config &c, size_t from, const std::string &label)
{
	p.duplex(c.bytes);
	p.expect_link_alive(label);
	if (p.llc_seen().size() > from)
		throw Failure(label + ": smcr sent " + what(p.llc_seen()[from]) +
			      " while the link group went on with its one link");
	say(label + ": the link group goes on with its one link");
}

// smcr's offer of a new link: its ADD LINK request, when it came, and
// the index in llc_seen() after it.
struct Offer {
	wire::AddLink req;
	uint64_t ms;
	size_t next;
};

// Our answer m to smcr's request that came at ms: smcr waits for it up to
// llc_timeout_ms, so it must go well before that - or a lie would be
// dropped as late, and smcr's giving up pass for its verdict on the lie.
void answer(Peer &p, const Config &c, uint64_t ms, const wire::Msg &m, const std::string &label)
{
	const uint64_t late = now_ms() - ms;
	if (late > c.llc_timeout_ms / 2)
		throw Failure(label + ": our " + wire::llc_name(m[0]) + " reply would go " + std::to_string(late) +
			      " ms after smcr's request came, too close to llc_timeout_ms (" +
			      std::to_string(c.llc_timeout_ms) + ", --llc-timeout) to test what smcr does with it");
	p.send_msg(m);
}

// smcr's ADD LINK request, LLC message number `at`, checked field by field
// (A.3.2 in Linux's layout): no flags, no reason code, link number 2, the
// GID of another RoCE port than the first link's, a MAC, MTU 1..5 with
// the reserved nibble clear, a QP number, reserved bytes zero.
Offer await_add_link(Peer &p, size_t at, uint64_t ms, const std::string &label)
{
	auto l = llc_at(p, at, ms, label);
	if (!l)
		throw Failure(label + ": no ADD LINK request from smcr within " + std::to_string(ms) +
			      " ms (smcr_max_links_per_lgr 2 and a second RoCE port on the server?)");
	if (l->type != wire::kAddLink || (l->flags & wire::kLlcResp))
		throw Failure(label + ": expected smcr's ADD LINK request, got " + what(*l));
	const wire::Msg &m = l->msg;
	auto a = wire::add_link_parse(m.data(), m.size());
	std::string bad;
	if (l->flags)
		bad = "flags " + hex8(l->flags) + " (a request has none)";
	else if (a->reason)
		bad = "byte 2 " + hex8(a->reason) + " (a reject reason in a request)";
	else if (a->link_num != kNewLink || a->link_num == p.link_num())
		bad = "link number " + std::to_string(a->link_num) + " (the first link is " +
		      std::to_string(p.link_num()) + ", the new one takes the lowest free: " +
		      std::to_string(kNewLink) + ")";
	else if (a->gid == p.accept().gid)
		bad = "the first link's GID " + verbs::gid_str(a->gid);
	else if (a->mac == std::array<uint8_t, 6>{})
		bad = "MAC 0";
	else if (a->mtu < 1 || a->mtu > 5)
		bad = "MTU byte " + hex8(a->mtu) + " (1..5, A.2.3, high nibble reserved)";
	else if (!a->qpn)
		bad = "QP number 0";
	else if (auto i = nonzero(m, {{10, 12}, {36, wire::kMsgLen}}))
		bad = "reserved byte " + std::to_string(*i) + " = " + hex8(m[*i]);
	if (!bad.empty())
		throw Failure(label + ": smcr's ADD LINK request has " + bad + ": " + hex_msg(m));
	say(label + ": smcr's ADD LINK request: link " + std::to_string(a->link_num) + ", GID " +
	    verbs::gid_str(a->gid) + ", QP " + std::to_string(a->qpn) + ", MTU " + std::to_string(a->mtu) + ", PSN " +
	    std::to_string(a->psn) + " (the first link: GID " + verbs::gid_str(p.accept().gid) + ")");
	return {*a, l->ms, at + 1};
}

// Our RoCE port for the new link: another than the first link's, in the
// /24 of smcr's new GID if there is one; else any other; else the first.
verbs::Port second_port(const Peer &p, const wire::AddLink &req)
{
	std::optional<verbs::Port> other;
	for (const verbs::Port &q : p.local_ports()) {
		if (q.dev == p.port().dev && q.port == p.port().port)
			continue;
		if (std::equal(q.gid.begin(), q.gid.begin() + 15, req.gid.begin()))
			return q;
		if (!other)
			other = q;
	}
	return other ? *other : p.port();
}

// Our positive reply as a client that took the new link: our other
// port's MAC and GID, a made-up QP number and PSN (seeded), the request's
// link number and MTU.
wire::AddLink positive(const Peer &p, const Config &c, const wire::AddLink &req, const std::string &label)
{
	const verbs::Port port = second_port(p, req);
	wire::AddLink a;
	a.response = true;
	a.mac = port.mac;
	a.gid = port.gid;
	a.qpn = kFakeQpn | static_cast<uint32_t>(c.seed & 0xffff);
	a.link_num = req.link_num;
	a.mtu = req.mtu & 0x0f;
	a.psn = static_cast<uint32_t>(c.seed * 2654435761u) & 0xffffff;
	say(label + ": our positive ADD LINK reply: GID " + verbs::gid_str(a.gid) + " (" + port.dev + "), QP " +
	    std::to_string(a.qpn) + " (no such QP), MTU " + std::to_string(a.mtu));
	return a;
}

// The client's ADD LINK request, a hint at its RNIC (3.5.5.1.2: our
// other port, link number 0), until smcr answers with an ADD LINK request
// of its own, LLC message number `at` - while its previous flow (whose
// request was prev) runs it ignores hints.
Offer again(Peer &p, const Config &c, const wire::AddLink &prev, size_t at, const std::string &label)
{
	wire::AddLink hint;
	const verbs::Port port = second_port(p, prev);
	hint.mac = port.mac;
	hint.gid = port.gid;
	hint.qpn = kFakeQpn | static_cast<uint32_t>((c.seed + 1) & 0xffff);
	hint.mtu = static_cast<uint8_t>(p.port().active_mtu);
	unsigned n = 0;
	while (n < kHintTries) {
		p.send_msg(wire::add_link_build(hint));
		++n;
		if (llc_at(p, at, kHintWaitMs, label))
			break;
	}
	say(label + ": our ADD LINK hint sent (" + std::to_string(n) + "x); smcr offers a new link again");
	return await_add_link(p, at, kWaitMs, label);
}

// smcr's ADD LINK CONTINUATION request, LLC message number `at`: no
// flags, the new link's number, NumRTokens `left` (its RMBs the peer
// knows: the first contact's one in round 1, none after), in round 1 that
// RMB's rkey on the first link (the Accept's) with an rkey and address on
// the new link; unused pairs and reserved bytes zero.
struct Cont {
	wire::AddLinkCont cont;
	uint64_t ms; // when it came
};

Cont expect_cont(Peer &p, size_t at, const wire::AddLink &req, uint8_t left, const std::string &label)
{
	auto l = llc_at(p, at, kWaitMs, label);
	if (!l)
		throw Failure(label + ": no ADD LINK CONTINUATION request from smcr within " + std::to_string(kWaitMs) +
			      " ms after our positive ADD LINK reply");
	if (l->type != wire::kAddLinkCont || l->flags)
		throw Failure(label + ": expected smcr's ADD LINK CONTINUATION request (no flags), got " + what(*l));
	const wire::Msg &m = l->msg;
	auto cont = wire::add_link_cont_parse(m.data(), m.size());
	const size_t used = std::min<size_t>(cont->num_rkeys, 2);
	std::string bad;
	if (cont->link_num != req.link_num)
		bad = "link number " + std::to_string(cont->link_num);
	else if (cont->num_rkeys != left)
		bad = "NumRTokens " + std::to_string(cont->num_rkeys) + ", expected " + std::to_string(left) +
		      " (its RMBs we know: the first contact's one, in round 1)";
	else if (left && cont->pairs[0].ref_rkey != p.accept().rmb_rkey)
		bad = "reference rkey " + hex_u64(cont->pairs[0].ref_rkey) + ", not the Accept's " +
		      hex_u64(p.accept().rmb_rkey);
	else if (left && (!cont->pairs[0].new_rkey || !cont->pairs[0].new_vaddr))
		bad = "rkey " + hex_u64(cont->pairs[0].new_rkey) + " at " + hex_u64(cont->pairs[0].new_vaddr) +
		      " on the new link";
	else if (auto i = nonzero(m, {{8 + 16 * used, 40}}))
		bad = "byte " + std::to_string(*i) + " = " + hex8(m[*i]) + " in an unused pair";
	else if (auto j = nonzero(m, {{6, 8}, {40, wire::kMsgLen}}))
		bad = "reserved byte " + std::to_string(*j) + " = " + hex8(m[*j]);
	if (!bad.empty())
		throw Failure(label + ": smcr's ADD LINK CONTINUATION has " + bad + ": " + hex_msg(m));
	say(label + ": smcr's ADD LINK CONTINUATION: link " + std::to_string(cont->link_num) + ", NumRTokens " +
	    std::to_string(cont->num_rkeys) +
	    (left ? ", its RMB (rkey " + hex_u64(cont->pairs[0].ref_rkey) + ") as rkey " +
			    hex_u64(cont->pairs[0].new_rkey) + " at " + hex_u64(cont->pairs[0].new_vaddr) +
			    " on the new link"
		  : std::string()));
	return {*cont, l->ms};
}

// Our honest ADD LINK CONTINUATION reply: our one RMB, its rkey on the
// first link and a made-up one on the new link (we have no QP there).
wire::AddLinkCont our_cont(const Peer &p, const wire::AddLink &req)
{
	wire::AddLinkCont r;
	r.response = true;
	r.link_num = req.link_num;
	r.num_rkeys = 1;
	r.pairs[0] = {p.our_rkey(), p.our_rkey() ^ 0x5a5a00, p.our_vaddr()};
	return r;
}

// smcr abandons the new link we accepted: DELETE LINK of it, LLC message
// number `at`, within ms, on the first link - not all (A), no R, reason
// lost path. We reply as a client does (3.5.5.1.3). Returns the index
// after it.
size_t expect_delete_new_link(Peer &p, size_t at, const wire::AddLink &req, uint64_t ms, const std::string &label)
{
	auto l = llc_at(p, at, ms, label);
	if (!l)
		throw Failure(label + ": no DELETE LINK of link " + std::to_string(req.link_num) + " from smcr within " +
			      std::to_string(ms) + " ms");
	const wire::Msg &m = l->msg;
	if (l->type != wire::kDeleteLink || (l->flags & wire::kLlcResp))
		throw Failure(label + ": expected smcr's DELETE LINK of link " + std::to_string(req.link_num) + ", got " +
			      what(*l));
	const auto d = wire::delete_link_parse(m.data(), m.size());
	if (d->flags & kDelAll)
		throw Failure(label + ": smcr's DELETE LINK has A (the whole link group) for a new link that did not "
				      "come up: " + hex_msg(m));
	if (d->link_num != req.link_num)
		throw Failure(label + ": smcr's DELETE LINK names link " + std::to_string(d->link_num) +
			      ", not the new link " + std::to_string(req.link_num) + ": " + hex_msg(m));
	if (d->reason != kLostPath)
		throw Failure(label + ": smcr's DELETE LINK has reason " + hex_u64(d->reason) + ", expected " +
			      hex_u64(kLostPath) + " (lost path): " + hex_msg(m));
	say(label + ": smcr's DELETE LINK of link " + std::to_string(d->link_num) + " (flags " + hex8(d->flags) +
	    ", reason lost path)");
	p.send_msg(wire::delete_link_build(true, false, d->flags & kDelOrderly, d->link_num, d->reason));
	return at + 1;
}

void add_link_reject(Peer &p, const Config &c)
{
	const std::string label = "add-link-reject";
	Offer o = await_add_link(p, 0, kWaitMs, label);
	wire::AddLink rej = o.req; // echoed, as Linux does
	rej.response = true;
	rej.reject = true;
	rej.reason = wire::kAddLinkRsnNoAltPath;
	answer(p, c, o.ms, wire::add_link_build(rej), label);
	say(label + ": rejected (Z, reason 1: no alternate path)");
	expect_quiet(p, o.next, kQuietMs, label,
		     "after a reject smcr drops its new link without a word (no CONTINUATION, no DELETE LINK)");
	single_link_goes_on(p, c, o.next, label);
}

void add_link_silent(Peer &p, const Config &c)
{
	const std::string label = "add-link-silent";
	Offer o = await_add_link(p, 0, kWaitMs, label);
	expect_quiet(p, o.next, c.llc_timeout_ms + kSlackMs, label,
		     "smcr gives an unanswered ADD LINK up after llc_timeout_ms, without a word");
	p.send_msg(wire::add_link_build(positive(p, c, o.req, label)));
	say(label + ": that reply " + std::to_string(now_ms() - o.ms) + " ms after smcr's request (llc_timeout_ms " +
	    std::to_string(c.llc_timeout_ms) + ")");
	expect_quiet(p, o.next, kQuietMs, label,
		     "a reply after llc_timeout_ms finds no flow and is dropped (is --llc-timeout the smcr side's "
		     "llc_timeout_ms?)");
	single_link_goes_on(p, c, o.next, label);
}

void add_link_bad_reply(Peer &p, const Config &c)
{
	const std::string label = "add-link-bad-reply";
	struct Lie {
		const char *what;
		void (*edit)(wire::AddLink &);
	};
	static const Lie lies[] = {
		{"link number 3 (the request's: 2)", [](wire::AddLink &a) { a.link_num = kNewLink + 1; }},
		{"MTU 0", [](wire::AddLink &a) { a.mtu = 0; }},
		{"MTU 6 (beyond 4096, A.2.3)", [](wire::AddLink &a) { a.mtu = 6; }},
		{"QP number 0", [](wire::AddLink &a) { a.qpn = 0; }},
	};
	size_t at = 0;
	wire::AddLink prev;
	for (const Lie &lie : lies) {
		const std::string l = label + ": " + lie.what;
		Offer o = at ? again(p, c, prev, at, l) : await_add_link(p, 0, kWaitMs, l);
		prev = o.req;
		wire::AddLink r = positive(p, c, o.req, l);
		lie.edit(r);
		answer(p, c, o.ms, wire::add_link_build(r), l);
		expect_quiet(p, o.next, kQuietMs, l,
			     "smcr cannot use the reply and drops its new link without a word: no CONTINUATION "
			     "(llc_link.c: as after a reject, no DELETE LINK)");
		p.expect_link_alive(l);
		at = o.next;
	}
	single_link_goes_on(p, c, at, label);
}

void add_link_bad_cont(Peer &p, const Config &c)
{
	const std::string label = "add-link-bad-cont";
	struct Lie {
		const char *what;
		// our lying reply(ies) to smcr's first CONTINUATION `first`,
		// which was LLC message number at - 1; returns the index after
		// what smcr sent meanwhile
		size_t (*play)(Peer &, const Config &, const wire::AddLink &, const Cont &first, size_t at,
			       const std::string &);
	};
	static const Lie lies[] = {
		{"link number 3 in our CONTINUATION reply",
		 [](Peer &q, const Config &cc, const wire::AddLink &req, const Cont &first, size_t at,
		    const std::string &l) {
			 wire::AddLinkCont r = our_cont(q, req);
			 r.link_num = kNewLink + 1;
			 answer(q, cc, first.ms, wire::add_link_cont_build(r), l);
			 return at;
		 }},
		// smcr knows one RMB of ours and has one connection: at most 2
		// can be true; 255, 253, ... kept a flow going for 128 rounds
		{"NumRTokens 255 (the second pair of an rkey smcr never learnt)",
		 [](Peer &q, const Config &cc, const wire::AddLink &req, const Cont &first, size_t at,
		    const std::string &l) {
			 const auto unknown = static_cast<uint32_t>(cc.seed * 40503u) | 0x1000000u;
			 wire::AddLinkCont r = our_cont(q, req);
			 r.num_rkeys = 255;
			 r.pairs[1] = {unknown, unknown + 1, 0x7f0000000000ULL};
			 answer(q, cc, first.ms, wire::add_link_cont_build(r), l);
			 return at;
		 }},
		{"two RTokens on the new link for our one RMB (the second contradicts the first)",
		 [](Peer &q, const Config &cc, const wire::AddLink &req, const Cont &first, size_t at,
		    const std::string &l) {
			 wire::AddLinkCont r = our_cont(q, req);
			 r.num_rkeys = 2;
			 r.pairs[1] = {q.our_rkey(), r.pairs[0].new_rkey ^ 0x100, q.our_vaddr()};
			 answer(q, cc, first.ms, wire::add_link_cont_build(r), l);
			 return at;
		 }},
	};
	size_t at = 0;
	wire::AddLink prev;
	for (const Lie &lie : lies) {
		const std::string l = label + ": " + lie.what;
		Offer o = at ? again(p, c, prev, at, l) : await_add_link(p, 0, kWaitMs, l);
		prev = o.req;
		answer(p, c, o.ms, wire::add_link_build(positive(p, c, o.req, l)), l);
		const Cont first = expect_cont(p, o.next, o.req, 1, l);
		at = lie.play(p, c, o.req, first, o.next + 1, l);
		at = expect_delete_new_link(p, at, o.req, kWaitMs, l);
		expect_quiet(p, at, kQuietMs, l, "after its DELETE LINK of the new link smcr has nothing more to say");
		p.expect_link_alive(l);
	}
	single_link_goes_on(p, c, at, label);
}

// smcr's first ADD LINK of the link group accepted, its CONTINUATION
// answered honestly (our RMB): smcr's CONFIRM LINK on the new link then
// goes to a QP we do not have. The offer; its CONTINUATION is at o.next.
Offer accept_honestly(Peer &p, const Config &c, const std::string &label)
{
	Offer o = await_add_link(p, 0, kWaitMs, label);
	answer(p, c, o.ms, wire::add_link_build(positive(p, c, o.req, label)), label);
	const Cont first = expect_cont(p, o.next, o.req, 1, label);
	answer(p, c, first.ms, wire::add_link_cont_build(our_cont(p, o.req)), label);
	return o;
}

void add_link_no_confirm(Peer &p, const Config &c)
{
	const std::string label = "add-link-no-confirm";
	const Offer o = accept_honestly(p, c, label);
	const uint64_t t0 = now_ms();
	say(label + ": our honest CONTINUATION reply (our RMB); smcr's CONFIRM LINK on the new link goes to a QP "
		    "we do not have");
	const size_t at = expect_delete_new_link(p, o.next + 1, o.req, c.llc_timeout_ms + kSlackMs + 3000, label);
	const uint64_t took = now_ms() - t0;
	say(label + ": the DELETE LINK came " + std::to_string(took) + " ms after our CONTINUATION reply");
	if (took + 500 < c.llc_timeout_ms)
		throw Failure(label + ": the DELETE LINK came " + std::to_string(took) +
			      " ms after our CONTINUATION reply, before llc_timeout_ms (" +
			      std::to_string(c.llc_timeout_ms) + "): smcr did not wait for the CONFIRM LINK reply");
	expect_quiet(p, at, kQuietMs, label, "after its DELETE LINK of the new link smcr has nothing more to say");
	single_link_goes_on(p, c, at, label);
}

void add_link_rkey_names_new(Peer &p, const Config &c)
{
	const std::string label = "add-link-rkey-names-new";
	const Offer o = accept_honestly(p, c, label);
	// as a client done with its part would: the new link is ours now
	wire::ConfirmRkey r;
	r.num_tkns = 1;
	r.rkey = static_cast<uint32_t>(c.seed * 40503u) | 0x3000000u;
	r.vaddr = 0x7e0000000000ULL;
	r.others[0] = {o.req.link_num, r.rkey + 1, r.vaddr};
	const wire::Msg req = wire::confirm_rkey_build(r);
	p.send_msg(req);
	say(label + ": our CONFIRM RKEY naming link " + std::to_string(o.req.link_num) +
	    ", before smcr's CONFIRM LINK made it active: it waits for the flow's end");
	// the flow ends with the DELETE LINK of the link our QP never took
	const size_t at = expect_delete_new_link(p, o.next + 1, o.req, c.llc_timeout_ms + kSlackMs + 3000, label);
	auto l = llc_at(p, at, kWaitMs, label);
	if (!l)
		throw Failure(label + ": smcr never answered our CONFIRM RKEY, held for its flow");
	const uint8_t want = wire::kLlcResp | wire::kRkeyNeg;
	if (l->type != wire::kConfirmRkey || l->flags != want ||
	    !std::equal(req.begin() + 4, req.begin() + 43, l->msg.begin() + 4))
		throw Failure(label + ": expected smcr's negative CONFIRM RKEY reply without C (link " +
			      std::to_string(o.req.link_num) + " is gone), our request echoed; got " + what(*l));
	say(label + ": smcr's CONFIRM RKEY reply after its flow ended: negative, without C, request echoed");
	single_link_goes_on(p, c, at + 1, label);
}

// The smcr side runs with test_llc_work_delay_ms kHeldDelayMs: its LLC
// work waits that long before it takes a request.
constexpr uint64_t kHeldDelayMs = 2000;

void add_link_held_request(Peer &p, const Config &c)
{
	const std::string label = "add-link-held-request";
	Offer o = await_add_link(p, 0, kWaitMs, label);
	wire::DeleteRkey d;
	d.count = 1;
	d.rkeys[0] = static_cast<uint32_t>(c.seed * 40503u) | 0x2000000u;
	p.send_msg(wire::delete_rkey_build(d));
	say(label + ": our DELETE RKEY (an rkey smcr never had) during smcr's ADD LINK flow: it waits for the "
		    "flow's end");
	// smcr takes it and decides to hold it about kHeldDelayMs after it
	// came: our reject ends the flow around then
	p.pump_for(kHeldDelayMs * 3 / 2);
	wire::AddLink rej = o.req;
	rej.response = true;
	rej.reject = true;
	rej.reason = wire::kAddLinkRsnNoAltPath;
	answer(p, c, o.ms, wire::add_link_build(rej), label);
	say(label + ": ADD LINK rejected: smcr's flow ends while it holds our request");
	auto l = llc_at(p, o.next, 3 * kHeldDelayMs + 3000, label);
	if (!l)
		throw Failure(label + ": smcr never answered our DELETE RKEY, held for a flow that ended meanwhile "
				      "(stranded on its queue)");
	if (l->type != wire::kDeleteRkey || !(l->flags & wire::kLlcResp) || l->msg[5] != 0x80)
		throw Failure(label + ": expected smcr's DELETE RKEY reply with error mask 0x80, got " + what(*l));
	say(label + ": smcr's DELETE RKEY reply, error mask 0x80, after its flow ended");
	single_link_goes_on(p, c, o.next + 1, label);
}

} // namespace

const std::vector<Script> &link_scripts()
{
	static const std::vector<Script> v = {
		{"add-link-reject",
		 "announces max links 2; answers smcr's ADD LINK request with a reject (Z, reason 1: no alternate "
		 "path), the request echoed",
		 "smcr's ADD LINK request is the first LLC message after the first contact: no flags, link 2, a GID "
		 "other than the first link's, MTU 1..5, a QP number, reserved bytes zero; after the reject no LLC "
		 "message in 1.5 s (no CONTINUATION, no DELETE LINK); the link lives, data byte-exact",
		 add_link_reject, 2},
		{"add-link-silent",
		 "announces max links 2; never answers smcr's ADD LINK request; after --llc-timeout (the smcr "
		 "side's llc_timeout_ms) + 2 s a positive reply",
		 "the ADD LINK request as in add-link-reject; then no LLC message for llc_timeout_ms + 2 s (smcr "
		 "gives up quietly) nor in 1.5 s after the late reply (no flow waits for it: dropped); the link "
		 "lives, data byte-exact",
		 add_link_silent, 2},
		{"add-link-bad-reply",
		 "announces max links 2; answers smcr's ADD LINK request positively with link number 3, then (each "
		 "after our ADD LINK hint, 3.5.5.1.2, brings another ADD LINK) MTU 0, MTU 6, QP number 0; each "
		 "answer within half of --llc-timeout (the smcr side's llc_timeout_ms), as in every script",
		 "each ADD LINK request as in add-link-reject (link 2 again: the failed one is gone); after each "
		 "reply no LLC message in 1.5 s (no CONTINUATION, no DELETE LINK: smcr drops its new link), TEST "
		 "LINK answered; the link lives, data byte-exact",
		 add_link_bad_reply, 2},
		{"add-link-bad-cont",
		 "announces max links 2; answers smcr's ADD LINK request positively (our other RoCE port's GID, a "
		 "made-up QP number), then its CONTINUATION with a lie: link number 3; NumRTokens 255 (more RMBs "
		 "than we can have); a second, contradicting RToken for our RMB on the new link (each after our ADD "
		 "LINK hint brings another ADD LINK)",
		 "smcr's CONTINUATION: no flags, link 2, NumRTokens 1, its RMB's rkey of the Accept with an rkey and "
		 "address on the new link; after each lie (no second round) DELETE LINK of link 2 on the first "
		 "link, reason lost path, neither A nor R, which we answer; then no LLC message in 1.5 s, TEST "
		 "LINK answered; the link lives, data byte-exact",
		 add_link_bad_cont, 2},
		{"add-link-no-confirm",
		 "announces max links 2; answers smcr's ADD LINK request positively (a made-up QP number) and its "
		 "CONTINUATION honestly (our RMB); smcr's CONFIRM LINK on the new link reaches no QP of ours "
		 "(--llc-timeout: the smcr side's llc_timeout_ms)",
		 "the CONTINUATION as in add-link-bad-cont; DELETE LINK of link 2 (lost path, neither A nor R) "
		 "llc_timeout_ms to llc_timeout_ms + 5 s after our CONTINUATION reply; then no LLC message in 1.5 "
		 "s; the link lives, data byte-exact",
		 add_link_no_confirm, 2},
		{"add-link-rkey-names-new",
		 "announces max links 2; answers smcr's ADD LINK request and its CONTINUATION as in "
		 "add-link-no-confirm, then at once a CONFIRM RKEY request whose second RToken is for the new link, "
		 "as a client done with its part of the flow would send",
		 "smcr holds our CONFIRM RKEY until its flow ends (the new link is not active on its side): the next "
		 "LLC message is its DELETE LINK of link 2 (as in add-link-no-confirm), then its CONFIRM RKEY reply, "
		 "negative without C (link 2 is gone), the request echoed; the link lives, data byte-exact",
		 add_link_rkey_names_new, 2},
		{"add-link-held-request",
		 "announces max links 2; during smcr's ADD LINK flow a DELETE RKEY request of an unknown rkey, then "
		 "(1.5 x 2 s later) a reject of the ADD LINK; the smcr side runs with test_llc_work_delay_ms 2000 and "
		 "an llc_timeout_ms of at least 8 s (--llc-timeout)",
		 "smcr holds the DELETE RKEY for its flow (3.5.5.3.1) and its flow ends while it does: the request "
		 "is answered after the flow (error mask 0x80); the link lives, data byte-exact",
		 add_link_held_request, 2},
	};
	return v;
}

} // namespace smctest::linkpeer
