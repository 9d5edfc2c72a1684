// smctest link-peer: the version 2 scripts, for link groups of SMC-R
// version 2 (--clc-version 2; the smcr server needs the user EID).
//
// Version 2 keeps the LLC of RFC 7609 and changes its framing (Linux's
// format, include/smcr/llc_wire.h): the type's high nibble is the version
// (0x21 CONFIRM LINK ... 0x29 DELETE RKEY), bytes 1-2 are a 16-bit length
// and a message may be up to 8 KiB: the ADD LINK carries every RMB's RKey
// pair in an extension (no CONTINUATION messages), the client's REQ ADD
// LINK lists its GIDs, and a DELETE RKEY may name up to 255 rkeys. These
// scripts lie where only that framing can: version 1 types in a version 2
// link group, long forms of 44-byte messages, lengths that do not add up,
// counts beyond what came. Every other script runs in version 2 as well
// (Peer::send_msg() wraps, received messages are unwrapped); the fuzz
// script sends version 2 framing (fuzz_llc_v2()).
#include <algorithm>
#include <random>

#include "linkpeer.hpp"

namespace smctest::linkpeer {

namespace {

using Bytes = std::vector<uint8_t>;

// A version 2 message of len bytes: type, bytes 1-2 the length (big
// endian, as smcr sends it), flags, zeros.
Bytes v2_msg(uint8_t type, uint8_t flags, size_t len)
{
	Bytes m(len, 0);
	m[0] = type;
	m[1] = static_cast<uint8_t>(len >> 8);
	m[2] = static_cast<uint8_t>(len);
	m[3] = flags;
	return m;
}

// The client's REQ ADD LINK: 20 reserved bytes, the GID count at 24, the
// GIDs from 28. The ADD LINK extension (after the 44 bytes): flags,
// reserved, the target GID, 8 reserved, the pair count at 70 (16 bits,
// little endian as Linux writes it on x86), 16-byte pairs from 72.
Bytes req_add_link(const std::vector<verbs::Gid> &gids, std::optional<uint8_t> count = {}, size_t len = 0,
		   uint8_t flags = 0)
{
	Bytes m = v2_msg(wire::kReqAddLinkV2, flags, len ? len : std::max<size_t>(44, 28 + 16 * gids.size()));
	m[24] = count ? *count : static_cast<uint8_t>(gids.size());
	for (size_t i = 0; i < gids.size() && 28 + 16 * (i + 1) <= m.size(); ++i)
		std::copy(gids[i].begin(), gids[i].end(), m.begin() + static_cast<long>(28 + 16 * i));
	return m;
}

void need_v2(const Peer &p, const std::string &label)
{
	if (!p.v2())
		throw Failure(label + " needs --clc-version 2");
}

void expect_replies(const Peer &p, const std::string &label, uint8_t type, unsigned want)
{
	if (p.llc_replies(type) != want)
		throw Failure(label + ": expected " + std::to_string(want) + " " + wire::llc_name(type) +
			      " repl" + (want == 1 ? "y" : "ies") + ", got " + std::to_string(p.llc_replies(type)));
}

} // namespace

Bytes fuzz_llc_v2(std::mt19937_64 &rng)
{
	static const uint8_t types[] = {0x21, 0x22, 0x24, 0x25, 0x26, 0x27, 0x29, 0x23, 0x28, 0x01, 0x07};
	const uint8_t type = rng() % 8 ? types[rng() % sizeof(types)] : static_cast<uint8_t>(rng());
	// 3 in 4 of 44 bytes; else up to the 8 KiB smcr's receive tail holds.
	// Not a CDC message of another length: smcr takes the link down for
	// that (wr.c), and the fuzz is over.
	const size_t len = rng() % 4 || type == wire::kCdcType
				   ? wire::kMsgLen
				   : wire::kMsgLen + 1 + rng() % (kSlotLen - wire::kMsgLen);
	Bytes m = v2_msg(type, static_cast<uint8_t>(rng()), len);
	for (size_t i = 4; i < len; ++i)
		m[i] = static_cast<uint8_t>(rng());
	if (rng() % 4 == 0) {
		m[1] = static_cast<uint8_t>(rng()); // the length lies
		m[2] = static_cast<uint8_t>(rng());
	}
	if (type == 0x22 && len > 72 && rng() % 2) {
		// an ADD LINK extension whose count says anything
		m[70] = static_cast<uint8_t>(rng() % 2 ? (len - 72) / 16 : rng());
		m[71] = rng() % 2 ? 0 : static_cast<uint8_t>(rng());
	}
	if (type == 0x24 || type == 0x04) {
		m[3] &= static_cast<uint8_t>(~0x40); // not all
		if (m[4] == 1)
			m[4] = 2;		      // not this link
	}
	return m;
}

const std::vector<Script> &v2_scripts()
{
	static const std::vector<Script> v = {
		{"v2-llc-v1-framing",
		 "version 2 link group: LLC messages in version 1 framing - TEST LINK, CONFIRM LINK, ADD LINK (a "
		 "hint), CONFIRM RKEY, DELETE RKEY, and DELETE LINK (all, orderly)",
		 "dropped: a version 2 link group carries version 2 types only (Linux sends nothing else) - no "
		 "reply, TEST LINK included, the link group lives through the DELETE LINK, data byte-exact",
		 [](Peer &p, const Config &c) {
			 need_v2(p, "v2-llc-v1-framing");
			 llc_dropped_then_honest(p, c, "v2-llc-v1-framing", [](Peer &q) {
				 q.send_raw(wire::llc_build(wire::kTestLink, 0));
				 wire::ConfirmLink cl;
				 cl.link_num = 1;
				 q.send_raw(wire::confirm_link_build(cl));
				 wire::AddLink a;
				 a.mac = q.port().mac;
				 a.gid = q.port().gid;
				 q.send_raw(wire::add_link_build(a));
				 wire::ConfirmRkey r;
				 r.rkey = q.our_rkey();
				 r.vaddr = q.our_vaddr();
				 q.send_raw(wire::confirm_rkey_build(r));
				 wire::DeleteRkey d;
				 d.count = 1;
				 d.rkeys[0] = q.our_rkey();
				 q.send_raw(wire::delete_rkey_build(d));
				 q.send_raw(wire::delete_link_build(false, true, true, 0, 0x00020000));
			 });
		 }},
		{"v2-long-messages",
		 "version 2 link group: a TEST LINK of 8192 bytes (length field 8192, big endian), a TEST LINK "
		 "whose length field says 0, a CONFIRM RKEY of 300 bytes repeating our RMB's RToken; then DELETE "
		 "RKEY requests naming 9 (44 bytes), 100 and 255 unknown rkeys",
		 "smcr reads a message's first 44 bytes as its version 1 body whatever its length and length field "
		 "(Linux drops one whose field, read little endian, is below 44: both TEST LINKs): both TEST LINKs "
		 "answered, the CONFIRM RKEY answered positively with its RToken echoed; a DELETE RKEY of more than "
		 "8 rkeys is dropped (Linux takes up to 255, and sends one each): no reply in 1.5 s; the link "
		 "lives, data byte-exact",
		 [](Peer &p, const Config &c) {
			 const std::string label = "v2-long-messages";
			 need_v2(p, label);
			 const unsigned before = p.test_link_replies();
			 p.send_raw(v2_msg(0x27, 0, kSlotLen));
			 Bytes zero = v2_msg(0x27, 0, wire::kMsgLen);
			 zero[1] = zero[2] = 0;
			 p.send_raw(zero);
			 p.pump_until([&] { return p.test_link_replies() >= before + 2; }, 3000);
			 p.pump_for(500);
			 if (p.test_link_replies() != before + 2)
				 throw Failure(label + ": smcr answered " + std::to_string(p.test_link_replies() - before) +
					       " of the 2 long TEST LINKs");
			 wire::ConfirmRkey r;
			 r.rkey = p.our_rkey();
			 r.vaddr = p.our_vaddr();
			 const wire::Msg m = wire::confirm_rkey_build(r);
			 Bytes cr = v2_msg(0x26, 0, 300);
			 std::copy(m.begin() + 4, m.end(), cr.begin() + 4);
			 p.send_raw(cr);
			 if (!p.pump_until([&] { return p.llc_replies(wire::kConfirmRkey) > 0; }, kWaitMs))
				 throw Failure(label + ": no reply to the 300-byte CONFIRM RKEY");
			 auto it = std::find_if(p.llc_seen().begin(), p.llc_seen().end(), [](const LlcSeen &l) {
				 return l.type == wire::kConfirmRkey;
			 });
			 auto rep = wire::confirm_rkey_parse(it->msg.data(), it->msg.size());
			 if (!rep || rep->flags != wire::kLlcResp || rep->num_tkns || rep->rkey != r.rkey ||
			     rep->vaddr != r.vaddr || it->tail.size())
				 throw Failure(label + ": the CONFIRM RKEY reply is not the positive echo of 44 bytes: " +
					       hex_msg(it->msg));
			 std::mt19937 rng(static_cast<uint32_t>(c.seed));
			 for (unsigned n : {9u, 100u, 255u}) {
				 Bytes d = v2_msg(0x29, 0, 8 + 4 * n);
				 d[4] = static_cast<uint8_t>(n);
				 for (size_t i = 8; i < d.size(); ++i)
					 d[i] = static_cast<uint8_t>(rng());
				 p.send_raw(d);
			 }
			 p.pump_for(1500);
			 expect_replies(p, label, wire::kDeleteRkey, 0);
			 expect_replies(p, label, wire::kConfirmRkey, 1);
			 if (p.llc_seen().size() != 1)
				 throw Failure(label + ": smcr sent " + wire::llc_name(p.llc_seen().back().type) +
					       " as well");
			 p.duplex(c.bytes);
			 p.expect_link_alive(label);
			 say(label + ": long TEST LINKs answered, the long CONFIRM RKEY echoed, DELETE RKEYs of >8 rkeys "
				     "dropped");
		 }},
		{"v2-req-add-link",
		 "version 2 link group of one link (we allow one in CLC): REQ ADD LINK naming our GID; then, each "
		 "alone, lies - no GID, 255 GIDs in 44 bytes, the reply flag; then one naming 2 GIDs in 8192 bytes; "
		 "then 300 REQ ADD LINKs back to back",
		 "the first and the 8192-byte one are each answered with a REQ ADD LINK reply (no link is added: one "
		 "is the most); each lie gets nothing in 1.5 s; the flood is answered, and the last reply comes "
		 "within 3 s of the last request (nothing queues); the link lives, data byte-exact",
		 [](Peer &p, const Config &c) {
			 const std::string label = "v2-req-add-link";
			 need_v2(p, label);
			 const verbs::Gid g = p.port().gid;
			 auto replies = [&] { return p.llc_replies(wire::kReqAddLink); };
			 auto answered = [&](const Bytes &m, unsigned want, const std::string &what) {
				 const unsigned n = replies();
				 p.send_raw(m);
				 if (want)
					 p.pump_until([&] { return replies() == n + want; }, kWaitMs);
				 else
					 p.pump_for(1500);
				 if (replies() != n + want)
					 throw Failure(label + ": " + what + ": " + std::to_string(replies() - n) +
						       " REQ ADD LINK replies, expected " + std::to_string(want));
			 };
			 answered(req_add_link({g}), 1, "our GID");
			 answered(req_add_link({}, 0), 0, "no GID");
			 answered(req_add_link({g}, 255, wire::kMsgLen), 0, "255 GIDs in 44 bytes");
			 answered(req_add_link({g}, {}, 0, wire::kLlcResp), 0, "the reply flag");
			 answered(req_add_link({g, g}, {}, kSlotLen), 1, "2 GIDs in 8192 bytes");
			 constexpr unsigned kFlood = 300;
			 const unsigned n0 = replies();
			 for (unsigned i = 0; i < kFlood; ++i)
				 p.send_raw(req_add_link({g}));
			 const uint64_t sent = now_ms();
			 p.pump_until_replies_stop(wire::kReqAddLink, 1000);
			 uint64_t last = 0;
			 for (const LlcSeen &l : p.llc_seen())
				 if (l.type == wire::kReqAddLink)
					 last = std::max(last, l.ms);
			 const unsigned flood = replies() - n0;
			 if (!flood || last > sent + 3000)
				 throw Failure(label + ": " + std::to_string(flood) + " replies to " + std::to_string(kFlood) +
					       " REQ ADD LINKs, the last " + std::to_string(last - sent) +
					       " ms after the last request");
			 if (p.llc_seen().size() != replies())
				 throw Failure(label + ": smcr sent other LLC messages as well");
			 p.duplex(c.bytes);
			 p.expect_link_alive(label);
			 say(label + ": " + std::to_string(flood) + " of " + std::to_string(kFlood) +
			     " flooded requests answered, the last " + std::to_string(last > sent ? last - sent : 0) +
			     " ms after the last request");
		 }},
		{"v2-add-link-ext",
		 "version 2 link group of one link: the client's ADD LINK (a hint, 3.5.5.1.2) with RKey extensions - "
		 "two malformed (a count of 0xffff, a length not ending on a pair), two well formed (a count of 255 "
		 "over one pair: Linux counts connections, not RMBs; 255 seeded pairs)",
		 "no reply to any; the malformed ones dropped (smcr's log says so for each: the selftest counts "
		 "them), the others ignored as hints (one link is the most); the link lives, data byte-exact",
		 [](Peer &p, const Config &c) {
			 need_v2(p, "v2-add-link-ext");
			 llc_dropped_then_honest(p, c, "v2-add-link-ext", [&](Peer &q) {
				 wire::AddLink a;
				 a.mac = q.port().mac;
				 a.gid = q.port().gid;
				 a.qpn = 0x1234;
				 a.mtu = static_cast<uint8_t>(q.port().active_mtu);
				 const wire::Msg base = wire::add_link_build(a);
				 auto ext = [&](size_t len, uint16_t count) {
					 Bytes m = v2_msg(0x22, 0, len);
					 std::copy(base.begin() + 4, base.end(), m.begin() + 4);
					 m[70] = static_cast<uint8_t>(count); // little endian, as Linux
					 m[71] = static_cast<uint8_t>(count >> 8);
					 return m;
				 };
				 // one at a time: smcr keeps one 8 KiB receive tail per
				 // link (wr.c), which the next long message overwrites -
				 // back to back, one would be read with the next one's
				 // extension (seen here: the 0xffff count taken for 255)
				 auto one = [&](const Bytes &m) {
					 q.send_raw(m);
					 q.pump_for(300);
				 };
				 one(ext(72 + 16, 0xffff));
				 one(ext(72 + 16 + 5, 1));
				 one(ext(72 + 16, 255));
				 std::mt19937 rng(static_cast<uint32_t>(c.seed));
				 Bytes big = ext(72 + 16 * 255, 255);
				 for (size_t i = 72; i < big.size(); ++i)
					 big[i] = static_cast<uint8_t>(rng());
				 one(big);
			 });
		 }},
	};
	return v;
}

} // namespace smctest::linkpeer
