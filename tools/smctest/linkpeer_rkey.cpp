// smctest link-peer: the rkey exchange scripts (RFC 7609 3.5.5.2,
// A.3.5-A.3.7) on a link group of one link.
//
// Our requests to smcr: a CONFIRM RKEY request is answered by echoing it
// with R. Positive when smcr can take the RToken set: no more other-link
// RTokens than the link group has other links (none today), each naming
// one of its links, and an rkey that is new on this link or known with
// the same address - an identical repeat is positive, since Linux's smc.ko
// confirms its RMB on every contact. Otherwise negative: Z, and no C (we
// have no configuration change pending, so the sender waits for its next
// natural stimulus, A.3.5). A CONFIRM RKEY CONTINUATION that no CONFIRM
// RKEY announced is dropped without a reply (smcr's three links at most
// fit one CONFIRM RKEY, so it takes none that announces a continuation;
// Documentation/architecture.rst). DELETE RKEY (A.3.7) sets a bit of the
// error mask, and Z, for each rkey smcr cannot delete: unknown on this
// link, or the RMB one of its open connections writes into.
//
// smcr's request to us: a subsequent contact whose RMB element comes from
// an RMB the link group has not confirmed pauses the CLC exchange (Figure
// 13, with the server adding the RMB): CONFIRM RKEY on the connection's
// link, NumTkns 0, then - after our positive reply - the Accept naming
// that RMB. After a negative reply the server declines (ERR_RTOK) and the
// connection falls back; the RMB stays unconfirmed and the next contact
// that needs it asks again.
#include <algorithm>
#include <random>

#include "linkpeer.hpp"

namespace smctest::linkpeer {

namespace {

constexpr uint32_t kDeclErrRtok = 0x09990001;

// Seeded rkeys and addresses for our lies: rkeys distinct from each other
// and from our RMB's (which smcr knows from our Confirm).
class Keys {
public:
	Keys(uint64_t seed, uint32_t ours) : rng_(seed), used_{ours} {}
	uint32_t rkey()
	{
		for (;;) {
			const auto k = static_cast<uint32_t>(rng_());
			if (k && std::find(used_.begin(), used_.end(), k) == used_.end()) {
				used_.push_back(k);
				return k;
			}
		}
	}
	uint64_t vaddr() { return rng_() & ~uint64_t{0xfff}; }

private:
	std::mt19937_64 rng_;
	std::vector<uint32_t> used_;
};

// smcr's reply to our request req (sent with flags 0): R, Z exactly when
// negative, nothing else in the flags byte (no C: see above); the body
// echoed - apart from DELETE RKEY's error mask and reserved bytes and
// CONFIRM RKEY's reserved last byte.
void expect_reply(const LlcSeen &rep, const wire::Msg &req, bool negative, const std::string &label)
{
	const uint8_t want = static_cast<uint8_t>(wire::kLlcResp | (negative ? wire::kRkeyNeg : 0));
	if (rep.flags != want)
		throw Failure(label + ": expected a " + (negative ? "negative" : "positive") + " " +
			      wire::llc_name(req[0]) + " reply (flags " + hex8(want) + "), got flags " +
			      hex8(rep.flags) + ((rep.flags & wire::kRkeyNeg) ? " (Z)" : "") +
			      ((rep.flags & wire::kRkeyRetry) ? " (C)" : "") + ": " + hex_msg(rep.msg));
	for (size_t i = 4; i < wire::kMsgLen; ++i) {
		if (req[0] == wire::kDeleteRkey && (i == 5 || i == 6 || i == 7 || i >= 40))
			continue;
		if (req[0] == wire::kConfirmRkey && i == 43)
			continue;
		if (rep.msg[i] != req[i])
			throw Failure(label + ": the reply does not echo the request: byte " + std::to_string(i) + " is " +
				      hex8(rep.msg[i]) + ", we sent " + hex8(req[i]) + "; reply " + hex_msg(rep.msg));
	}
}

// A DELETE RKEY reply: negative exactly when err_mask has bits, that mask.
void expect_delete_reply(const LlcSeen &rep, const wire::Msg &req, uint8_t err_mask, const std::string &label)
{
	expect_reply(rep, req, err_mask != 0, label);
	if (rep.msg[5] != err_mask)
		throw Failure(label + ": DELETE RKEY reply with error mask " + hex8(rep.msg[5]) + ", expected " +
			      hex8(err_mask));
}

// The link group ends by our DELETE LINK (all, orderly).
void end_link_group(Peer &p, const std::string &label)
{
	p.send_msg(wire::delete_link_build(false, true, true, 0, 0x00020000));
	p.expect_link_down(label + ": our DELETE LINK");
}

// smcr's CONFIRM RKEY request for a new RMB of its own on a link group of
// one link: no R, Z or C, NumTkns 0, no other-link RToken.
wire::ConfirmRkey new_rmb_request(const LlcSeen &l, const std::string &label)
{
	if (l.type != wire::kConfirmRkey || (l.flags & wire::kLlcResp))
		throw Failure(label + ": smcr sent " + wire::llc_name(l.type) +
			      ((l.flags & wire::kLlcResp) ? " reply" : " request") +
			      " while we waited for its CLC reply; only a CONFIRM RKEY request may come");
	auto r = wire::confirm_rkey_parse(l.msg.data(), l.msg.size());
	if (!r || r->flags)
		throw Failure(label + ": smcr's CONFIRM RKEY request has flags " + hex8(l.flags) + ": " +
			      hex_msg(l.msg));
	if (r->num_tkns || r->others != std::array<wire::Rtoken, 2>{})
		throw Failure(label + ": smcr's CONFIRM RKEY request on a link group of one link has NumTkns " +
			      std::to_string(r->num_tkns) + " or other-link RTokens: " + hex_msg(l.msg));
	return *r;
}

// A contact on port whose CLC reply may wait for smcr's CONFIRM RKEY:
// each request is answered by its echo with R, and Z unless positive.
struct RkeyContact {
	Peer::Answer a;
	std::vector<wire::ConfirmRkey> reqs; // smcr's requests before its CLC reply
};

RkeyContact contact_rkey(Peer &p, uint16_t port, bool positive, const std::string &label)
{
	std::vector<wire::ConfirmRkey> reqs;
	Peer::Answer a = p.propose(port, [&](const LlcSeen &l) {
		reqs.push_back(new_rmb_request(l, label));
		wire::Msg r = l.msg;
		r[3] = static_cast<uint8_t>(wire::kLlcResp | (positive ? 0 : wire::kRkeyNeg));
		p.send_msg(r);
		say(label + ": smcr's CONFIRM RKEY request (rkey " + hex_u64(reqs.back().rkey) + ", address " +
		    hex_u64(reqs.back().vaddr) + ") before its CLC reply; answered " +
		    (positive ? "positively" : "negatively (Z, no C)"));
	});
	return {std::move(a), std::move(reqs)};
}

// The Accept of k names the RMB smcr's CONFIRM RKEY request announced.
void expect_accept_names(const Peer::Contact &k, const wire::ConfirmRkey &req, const std::string &label)
{
	if (k.acc.rmb_rkey != req.rkey || k.acc.rmb_vaddr != req.vaddr)
		throw Failure(label + ": the Accept names RMB rkey " + hex_u64(k.acc.rmb_rkey) + " at " +
			      hex_u64(k.acc.rmb_vaddr) + ", the CONFIRM RKEY before it rkey " + hex_u64(req.rkey) +
			      " at " + hex_u64(req.vaddr));
	say(label + ": the Accept names the RMB of the CONFIRM RKEY (rkey " + hex_u64(req.rkey) + ")");
}

// Our Confirm on k, naming our RMB element under alert token `token`
// (the connection before it has closed), then the duplex exchange of
// --bytes over the new connection.
void confirm_and_duplex(Peer &p, const Config &c, Peer::Contact &&k, uint32_t token, const std::string &label)
{
	clc::AcceptConfirmSpec conf = p.confirm_spec();
	conf.alert_token = token;
	send_clc(k.fd.get(), clc::accept_confirm(clc::Confirm, conf));
	UniqueFd old = p.take_over(std::move(k), token);
	p.duplex(c.bytes);
	say(label + ": SMC-R data byte-exact over the new RMB");
}

unsigned confirm_rkey_requests(const Peer &p)
{
	return static_cast<unsigned>(std::count_if(p.llc_seen().begin(), p.llc_seen().end(), [](const LlcSeen &l) {
		return l.type == wire::kConfirmRkey && !(l.flags & wire::kLlcResp);
	}));
}

void llc_confirm_rkey(Peer &p, const Config &c)
{
	const std::string label = "llc-confirm-rkey";
	Keys keys(c.seed, p.our_rkey());
	unsigned sent = 0;
	auto step = [&](const std::string &what, const wire::Msg &req, bool negative) {
		const std::string l = label + ": " + what;
		LlcSeen rep = p.llc_exchange(req, l);
		++sent;
		expect_reply(rep, req, negative, l);
		say(l + ": " + (negative ? "negative" : "positive") + " reply, request echoed");
	};
	auto del = [&](const std::string &what, std::vector<uint32_t> rkeys, uint8_t err_mask) {
		const std::string l = label + ": " + what;
		wire::DeleteRkey d;
		d.count = static_cast<uint8_t>(rkeys.size());
		std::copy(rkeys.begin(), rkeys.end(), d.rkeys.begin());
		const wire::Msg req = wire::delete_rkey_build(d);
		LlcSeen rep = p.llc_exchange(req, l);
		++sent;
		expect_delete_reply(rep, req, err_mask, l);
		say(l + ": error mask " + hex8(err_mask) + ", request echoed");
	};

	wire::ConfirmRkey first;
	first.rkey = keys.rkey();
	first.vaddr = keys.vaddr();
	step("a new RToken", wire::confirm_rkey_build(first), false);
	step("the same RToken again", wire::confirm_rkey_build(first), false);
	wire::ConfirmRkey moved = first;
	moved.vaddr = first.vaddr ^ 0x100000;
	step("its rkey with another address", wire::confirm_rkey_build(moved), true);
	wire::ConfirmRkey link7;
	link7.num_tkns = 1;
	link7.rkey = keys.rkey();
	link7.vaddr = keys.vaddr();
	link7.others[0] = {7, keys.rkey(), keys.vaddr()};
	step("NumTkns 1, an RToken for link 7 (not in the link group)", wire::confirm_rkey_build(link7), true);
	wire::ConfirmRkey three;
	three.num_tkns = 3;
	three.rkey = keys.rkey();
	three.vaddr = keys.vaddr();
	three.others = {wire::Rtoken{2, keys.rkey(), keys.vaddr()}, wire::Rtoken{3, keys.rkey(), keys.vaddr()}};
	step("NumTkns 3 (beyond the link group's other links)", wire::confirm_rkey_build(three), true);
	{
		// no CONFIRM RKEY announced it (smcr takes none that would):
		// dropped, like any continuation of no exchange
		constexpr uint64_t kQuietMs = 2000;
		const std::string l = label + ": a CONFIRM RKEY CONTINUATION nobody announced";
		const size_t before = p.llc_seen().size();
		p.send_msg(wire::confirm_rkey_cont_build(0, 1, {wire::Rtoken{7, keys.rkey(), keys.vaddr()}, {}, {}}));
		p.pump_for(kQuietMs);
		if (p.llc_seen().size() != before)
			throw Failure(l + ": smcr answered with " + wire::llc_name(p.llc_seen().back().type) +
				      ((p.llc_seen().back().flags & wire::kLlcResp) ? " reply " : " request ") +
				      hex_msg(p.llc_seen().back().msg) + "; it should have dropped it");
		say(l + ": dropped, no LLC message in " + std::to_string(kQuietMs) + " ms");
	}
	del("DELETE RKEY of the confirmed rkey", {first.rkey}, 0);
	del("DELETE RKEY of it again (gone)", {first.rkey}, 0x80);
	del("DELETE RKEY of the refused RTokens' rkeys (never stored)", {link7.rkey, three.rkey}, 0xc0);
	p.pump(200);
	p.duplex(c.bytes);
	p.expect_link_alive(label);
	if (p.llc_seen().size() != sent)
		throw Failure(label + ": smcr sent " + std::to_string(p.llc_seen().size()) + " LLC messages for our " +
			      std::to_string(sent) + " requests; the last: " + wire::llc_name(p.llc_seen().back().type));
}

void llc_delete_rkey_in_use(Peer &p, const Config &c)
{
	const std::string label = "llc-delete-rkey-in-use";
	Keys keys(c.seed, p.our_rkey());
	wire::DeleteRkey d;
	d.count = 2;
	d.rkeys[0] = keys.rkey();
	d.rkeys[1] = p.our_rkey();
	const wire::Msg req = wire::delete_rkey_build(d);
	LlcSeen rep = p.llc_exchange(req, label);
	expect_delete_reply(rep, req, 0x80, label);
	say(label + ": DELETE RKEY of [unknown, our RMB's]: error mask 0x80, only the unknown one refused");
	p.pump(200);
	p.duplex(c.bytes);
	p.expect_link_alive(label);
	if (p.llc_seen().size() != 1)
		throw Failure(label + ": smcr sent " + std::to_string(p.llc_seen().size()) +
			      " LLC messages for our one request");
}

// The smcr server holds the link group's buffer lock while it registers a
// new RMB; with our receive queue withheld that waits on us for up to twice
// its llc_timeout_ms. Its host checks meanwhile that `smcr lgr show` does
// not wait with it.
void withhold_recv_new_rmb(Peer &p, const Config &c)
{
	const std::string label = "withhold-recv-new-rmb";
	p.duplex(c.bytes);
	p.stall_smcr_sends();
	say(label + ": smcr's sends wait on RNR; a Proposal on --port+1 (a new RMB size class)");
	Peer::Answer a = p.propose(static_cast<uint16_t>(c.port + 1), nullptr, true);
	say(label + ": the Proposal ended: " +
	    (a.clc.size() > 4 ? clc::type_name(a.clc[4]) : a.tcp_end.empty() ? "no reply" : a.tcp_end) +
	    (a.link_error.empty() ? "" : ", link " + a.link_error));
}

void rkey_new_rmb(Peer &p, const Config &c)
{
	const std::string label = "rkey-new-rmb";
	const auto port1 = static_cast<uint16_t>(c.port + 1);
	p.duplex(c.bytes);
	const uint32_t first_rkey = p.accept().rmb_rkey;

	RkeyContact k1 = contact_rkey(p, port1, true, label + ": contact 1");
	if (k1.reqs.size() != 1)
		throw Failure(label + ": contact 1: expected one CONFIRM RKEY request before the Accept, got " +
			      std::to_string(k1.reqs.size()) +
			      (k1.reqs.empty() ? " (does the server on --port+1 use another RMB size class than the "
						 "one on --port?)"
					       : ""));
	Peer::Contact c1 = p.accepted(port1, std::move(k1.a));
	expect_accept_names(c1, k1.reqs[0], label + ": contact 1");
	if (c1.acc.rmb_rkey == first_rkey)
		throw Failure(label + ": contact 1: the new RMB has the first contact's RMB's rkey");
	confirm_and_duplex(p, c, std::move(c1), kOurToken + 1, label + ": contact 1");

	RkeyContact k2 = contact_rkey(p, port1, true, label + ": contact 2");
	if (!k2.a.llc.empty())
		throw Failure(label + ": contact 2: smcr sent " + wire::llc_name(k2.a.llc.front().type) +
			      " before the Accept although the RMB is confirmed");
	Peer::Contact c2 = p.accepted(port1, std::move(k2.a));
	if (c2.acc.rmb_rkey != k1.reqs[0].rkey)
		throw Failure(label + ": contact 2: the Accept names rkey " + hex_u64(c2.acc.rmb_rkey) +
			      ", not the confirmed RMB's " + hex_u64(k1.reqs[0].rkey));
	say(label + ": contact 2: no LLC message before the Accept, the same RMB");
	confirm_and_duplex(p, c, std::move(c2), kOurToken + 2, label + ": contact 2");

	p.expect_link_alive(label);
	if (confirm_rkey_requests(p) != 1)
		throw Failure(label + ": smcr sent " + std::to_string(confirm_rkey_requests(p)) +
			      " CONFIRM RKEY requests in all, expected one");
	end_link_group(p, label);
}

void rkey_new_rmb_refused(Peer &p, const Config &c)
{
	const std::string label = "rkey-new-rmb-refused";
	const auto port1 = static_cast<uint16_t>(c.port + 1);
	p.duplex(c.bytes);

	RkeyContact k1 = contact_rkey(p, port1, false, label + ": contact 1");
	if (k1.reqs.size() != 1)
		throw Failure(label + ": contact 1: expected one CONFIRM RKEY request before the server's CLC reply, "
				      "got " + std::to_string(k1.reqs.size()));
	const clc::Bytes &m = k1.a.clc;
	const auto diag = clc::decline_diagnosis(m);
	if (m[4] != clc::Decline || !diag || *diag != kDeclErrRtok)
		throw Failure(label + ": contact 1: expected a Decline ERR_RTOK (0x09990001) after our negative "
				      "CONFIRM RKEY reply, got " + clc::type_name(m[4]) + ": " + clc::hex(m));
	if (clc::parse_header(m.data()).flags & clc::kDeclineSync)
		throw Failure(label + ": contact 1: the Decline has the S-bit, but the link group is in sync");
	say(label + ": contact 1: Decline ERR_RTOK in place of the Accept, no S-bit");
	tcp_duplex(c, k1.a.fd.get(), label + ": contact 1");
	k1.a.fd.reset();
	p.expect_link_alive(label + ": after the Decline");

	RkeyContact k2 = contact_rkey(p, port1, true, label + ": contact 2");
	if (k2.reqs.size() != 1)
		throw Failure(label + ": contact 2: expected smcr to send CONFIRM RKEY again for its unconfirmed "
				      "RMB (natural stimulus), got " + std::to_string(k2.reqs.size()) + " requests");
	if (k2.reqs[0].rkey != k1.reqs[0].rkey || k2.reqs[0].vaddr != k1.reqs[0].vaddr)
		throw Failure(label + ": contact 2: CONFIRM RKEY for rkey " + hex_u64(k2.reqs[0].rkey) + " at " +
			      hex_u64(k2.reqs[0].vaddr) + ", not the refused RMB (rkey " + hex_u64(k1.reqs[0].rkey) +
			      " at " + hex_u64(k1.reqs[0].vaddr) + ")");
	Peer::Contact c2 = p.accepted(port1, std::move(k2.a));
	expect_accept_names(c2, k2.reqs[0], label + ": contact 2");
	confirm_and_duplex(p, c, std::move(c2), kOurToken + 1, label + ": contact 2");

	p.expect_link_alive(label);
	end_link_group(p, label);
}


// smcr's CONFIRM RKEY for a new RMB unanswered: after llc_timeout_ms
// (--llc-timeout) the link is down, as for an unanswered TEST LINK, and the
// handshake fails: a Decline ERR_RTOK in place of the Accept - or, if the
// link group's end got there first, the end of the TCP connection; never
// an Accept.
void rkey_new_rmb_unanswered(Peer &p, const Config &c)
{
	const std::string label = "rkey-new-rmb-unanswered";
	const auto port1 = static_cast<uint16_t>(c.port + 1);
	constexpr uint64_t kSlackMs = 5000;
	p.duplex(c.bytes);

	std::vector<wire::ConfirmRkey> reqs;
	uint64_t t_req = 0;
	unsigned deletes = 0;
	Peer::Answer a = p.propose(
		port1,
		[&](const LlcSeen &l) {
			if (!reqs.empty() && l.type == wire::kDeleteLink && !(l.flags & wire::kLlcResp)) {
				++deletes;
				say(label + ": smcr's DELETE LINK while we waited for its CLC reply");
				return;
			}
			reqs.push_back(new_rmb_request(l, label));
			if (reqs.size() == 1)
				t_req = now_ms();
			say(label + ": smcr's CONFIRM RKEY request (rkey " + hex_u64(reqs.back().rkey) + ", address " +
			    hex_u64(reqs.back().vaddr) + ") before its CLC reply; not answered");
		},
		true);
	const uint64_t t_end = now_ms();
	const std::string got = !a.tcp_end.empty() ? "the TCP connection's end (" + a.tcp_end + ")"
						   : clc::type_name(a.clc[4]) + std::string(": ") + clc::hex(a.clc);
	if (reqs.empty())
		throw Failure(label + ": expected smcr's CONFIRM RKEY request for its new RMB before its CLC reply, "
				      "got " + got);
	if (reqs.size() != 1)
		throw Failure(label + ": expected one CONFIRM RKEY request before the CLC reply, got " +
			      std::to_string(reqs.size()));
	const uint64_t took = t_end - t_req;
	if (a.tcp_end.empty() && a.clc[4] == clc::Accept) {
		auto acc = clc::accept_confirm_parse(a.clc);
		throw Failure(label + ": an Accept " + std::to_string(took) + " ms after the unanswered CONFIRM RKEY" +
			      (acc && acc->rmb_rkey == reqs[0].rkey ? ", naming the unconfirmed RMB" : "") + ": " +
			      clc::hex(a.clc));
	}
	if (a.tcp_end.empty()) {
		const auto diag = clc::decline_diagnosis(a.clc);
		if (a.clc[4] != clc::Decline || !diag || *diag != kDeclErrRtok)
			throw Failure(label + ": expected a Decline ERR_RTOK (0x09990001) after the unanswered CONFIRM "
					      "RKEY, got " + got);
	}
	say(label + ": " + (a.tcp_end.empty() ? std::string("Decline ERR_RTOK") : got) + " " + std::to_string(took) +
	    " ms after the CONFIRM RKEY request" +
	    (a.tcp_end.empty() && (clc::parse_header(a.clc.data()).flags & clc::kDeclineSync) ? " (S-bit)" : "") +
	    (a.link_error.empty() ? std::string() : "; link error meanwhile: " + a.link_error));
	if (took + 500 < c.llc_timeout_ms || took > c.llc_timeout_ms + kSlackMs)
		throw Failure(label + ": the CLC reply came " + std::to_string(took) +
			      " ms after the CONFIRM RKEY request; expected llc_timeout_ms (" +
			      std::to_string(c.llc_timeout_ms) + ") up to " + std::to_string(kSlackMs) + " ms more");
	if (a.tcp_end.empty()) {
		tcp_duplex(c, a.fd.get(), label);
		a.fd.reset();
	}
	p.expect_link_down(label);
	if (confirm_rkey_requests(p) != 1)
		throw Failure(label + ": smcr sent " + std::to_string(confirm_rkey_requests(p)) +
			      " CONFIRM RKEY requests in all, expected one");
	say(label + ": " + std::to_string(deletes) + " DELETE LINK before the CLC reply");
}

} // namespace

const std::vector<Script> &rkey_scripts()
{
	static const std::vector<Script> v = {
		{"llc-confirm-rkey",
		 "requests one at a time: CONFIRM RKEY with a new RToken (NumTkns 0, seeded rkey and address); "
		 "the same again; its rkey with another address; NumTkns 1 with an RToken for link 7; NumTkns 3; "
		 "a CONFIRM RKEY CONTINUATION; DELETE RKEY of the first rkey, the same again, and of the rkeys "
		 "of the refused requests",
		 "each CONFIRM RKEY echoed with R and C clear: positive for the new RToken and its identical "
		 "repeat, negative (Z) for the other address, link 7 (not in the link group) and NumTkns 3 "
		 "(beyond its other links); the CONTINUATION dropped (no CONFIRM RKEY announced one): no reply in "
		 "2 s; DELETE RKEY positive with error mask 0, then negative with 0x80 (gone), then 0xc0 (refused "
		 "RTokens were not stored); no other LLC message, the link lives, data byte-exact",
		 llc_confirm_rkey},
		{"llc-delete-rkey-in-use",
		 "DELETE RKEY of two rkeys: an unknown one, and our RMB's, which our Confirm announced and smcr's "
		 "open connection writes into",
		 "a negative reply (Z) with error mask 0x80, request echoed: the unknown rkey refused, ours deleted "
		 "from smcr's RToken set (Linux deletes its RMB once its own connection ended, before ours may "
		 "have); smcr's open connection keeps writing into our RMB with the rkey it took from CLC: data "
		 "byte-exact both ways, the link lives",
		 llc_delete_rkey_in_use},
		{"rkey-new-rmb",
		 "the duplex exchange on --port (first contact), then two subsequent contacts on --port+1, where "
		 "the server's socket takes its RMB element from another size class (SO_RCVBUF); after each "
		 "Accept our Confirm and the duplex exchange; then DELETE LINK",
		 "contact 1: before its Accept smcr sends CONFIRM RKEY (NumTkns 0) for its new RMB on the link, "
		 "we echo it with R, the Accept names that rkey and address, data byte-exact; contact 2: no LLC "
		 "message before the Accept (the RMB is confirmed), the same rkey, data byte-exact; one CONFIRM "
		 "RKEY in all, the link lives until our DELETE LINK",
		 rkey_new_rmb},
		{"rkey-new-rmb-refused",
		 "as rkey-new-rmb, but we answer smcr's CONFIRM RKEY for its new RMB negatively (Z, no C); then "
		 "one more contact on --port+1, whose CONFIRM RKEY we answer positively; then DELETE LINK",
		 "contact 1: a Decline ERR_RTOK (0x09990001) without the S-bit in place of the Accept, duplex "
		 "data over TCP byte-exact, the link lives; contact 2: smcr asks again for the same rkey and "
		 "address (natural stimulus), the Accept names them, SMC-R data byte-exact",
		 rkey_new_rmb_refused},
		{"rkey-new-rmb-unanswered",
		 "as rkey-new-rmb, but we never answer smcr's CONFIRM RKEY for its new RMB (--llc-timeout: the "
		 "smcr side's llc_timeout_ms)",
		 "one CONFIRM RKEY request before any CLC reply; no Accept: a Decline ERR_RTOK (0x09990001) "
		 "llc_timeout_ms to llc_timeout_ms + 5 s after the request (or the TCP connection's end, if the "
		 "link group's end got there first), then duplex data over TCP byte-exact; the link is down "
		 "(smcr's DELETE LINK, or TEST LINK unanswered); no other CONFIRM RKEY",
		 rkey_new_rmb_unanswered},
		{"withhold-recv-new-rmb",
		 "the duplex exchange; then no more receive buffers and 64 TEST LINK requests (smcr's sends wait "
		 "on RNR for ever), then a Proposal on --port+1, whose server takes a new RMB size class",
		 "none here: smcr's host checks that its link group dump does not wait while the registration of "
		 "the new RMB waits on us (the registration times out and takes the link down)",
		 withhold_recv_new_rmb},
	};
	return v;
}

} // namespace smctest::linkpeer
