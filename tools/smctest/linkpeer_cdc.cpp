// smctest link-peer's CDC scripts (RFC 7609 A.4): lies in the cursors and
// sequence numbers, and every flag of the message where the state of the
// connection makes it a lie or a repetition: urgent data pending/present
// with nothing written, writer-blocked and update-request storms, D, C and
// A repeated, data after D and after C; and the receiver of the failover
// validation message (F, 4.6.1): no gap, a gap, a stale message after it.
// Each says what smcr does and why that is right, and asserts it on our
// side; the smcr application's checks (duplex pattern, --expect-data-error
// where smcr must fail it) are the other half.
#include <algorithm>
#include <string>

#include "linkpeer.hpp"

namespace smctest::linkpeer {

namespace {

// Pumps until smcr has sent no CDC message for quiet_ms: its application
// wrote what fit into our RMBE (it writes first) and now waits for us, so
// a CDC message that comes after this answers what we send next.
void settle(Peer &p, uint64_t quiet_ms = 300)
{
	const uint64_t deadline = now_ms() + kWaitMs;
	for (unsigned n = p.cdc_seen(); now_ms() < deadline;) {
		p.pump_for(quiet_ms);
		if (p.cdc_seen() == n)
			return;
		n = p.cdc_seen();
	}
	throw Failure("smcr kept sending CDC messages for " + std::to_string(kWaitMs) + " ms");
}

// Writes bytes of our pattern (all of the duplex exchange, without D) and
// waits until smcr's application has read every one: the writer-blocked
// flag on each CDC message makes smcr report every read at once (4.7.4).
// smcr's data into our RMBE stays unconsumed, so its application stays
// blocked in send() and cannot close meanwhile.
void write_until_read(Peer &p, uint64_t bytes, const std::string &label)
{
	while (p.tx_prod() < bytes) {
		if (!p.pump_until([&] { return p.tx_space() > 0; }, kWaitMs))
			throw Failure(label + ": smcr's application does not read (consumer cursor stuck at " +
				      std::to_string(p.tx_peer_cons()) + ")");
		p.write_data(std::min({p.tx_space(), bytes - p.tx_prod(), uint64_t{64} << 10}));
		p.send_cdc(wire::kProdWriteBlocked);
	}
	if (!p.pump_until([&] { return p.tx_peer_cons() == p.tx_prod(); }, kWaitMs))
		throw Failure(label + ": smcr's application read " + std::to_string(p.tx_peer_cons()) + " of " +
			      std::to_string(bytes) + " bytes");
}

// Takes all of smcr's bytes (pattern-checked), consumer updates as due.
void drain(Peer &p, uint64_t bytes, const std::string &label)
{
	const uint64_t deadline = now_ms() + 10 * kWaitMs;
	while (p.rx_cons() < bytes) {
		if (now_ms() >= deadline)
			throw Failure(label + ": received " + std::to_string(p.rx_cons()) + " of " +
				      std::to_string(bytes) + " bytes");
		p.pump(10);
		if (!p.link_error().empty())
			throw Failure(label + ": link failed: " + p.link_error());
		p.consume();
	}
}

// Waits for smcr's C or A on the connection; returns its flags.
uint8_t await_close(Peer &p, const std::string &label)
{
	if (!p.pump_until([&] { return (p.peer_conn_flags() & (wire::kConnClosed | wire::kConnAbort)) ||
				       !p.link_error().empty(); },
			  kWaitMs))
		throw Failure(label + ": smcr neither closed (C) nor aborted (A) the connection");
	if (!p.link_error().empty())
		throw Failure(label + ": link failed: " + p.link_error());
	return p.peer_conn_flags();
}

// A.4: after its C or A smcr sends no further control message for the
// connection - whatever we send after it.
void expect_silent_after(Peer &p, unsigned seen, const std::string &label)
{
	p.pump_for(500);
	if (p.cdc_seen() != seen)
		throw Failure(label + ": smcr sent " + std::to_string(p.cdc_seen() - seen) +
			      " CDC message(s) after its own C or A");
}

// smcr must end the connection with A (not C), then send nothing more.
void expect_abort(Peer &p, const std::string &label, const std::string &instead)
{
	const uint8_t f = await_close(p, label);
	const unsigned n = p.cdc_seen();
	if (!(f & wire::kConnAbort))
		throw Failure(label + ": " + instead);
	expect_silent_after(p, n, label);
}

// Our bytes, read by smcr's application, then our TCP connection reset (the
// QP kept): smcr must abort the SMC-R connection with A (4.8.2).
void reset_tcp_expect_abort(Peer &p, uint64_t bytes, const std::string &label)
{
	write_until_read(p, bytes, label);
	p.reset_tcp();
	expect_abort(p, label, "smcr answered a TCP reset with C, not A");
}

// A failover validation message (F, RFC 7609 4.6.1): only its sequence
// number ss and token count (A.4); the rest lies - cursors 1000 bytes
// ahead, A, C and D set - and smcr must act on none of it.
void send_failover(Peer &p, uint16_t ss)
{
	wire::Cdc m;
	m.seqno = ss;
	m.token = p.accept().alert_token;
	m.prod = p.peer_ring().at(p.tx_prod() + 1000);
	m.cons = p.our_ring().at(p.rx_cons() + 1000);
	m.prod_flags = wire::kProdFailover;
	m.conn_flags = wire::kConnDoneWriting | wire::kConnClosed | wire::kConnAbort;
	p.send_msg(wire::cdc_build(m));
}

} // namespace

const std::vector<Script> &cdc_scripts()
{
	static const std::vector<Script> all = {
		{"cdc-bad-token", "a CDC message whose producer cursor claims 100 bytes, under an alert token "
				  "no connection has",
		 "ignored: data byte-exact afterwards",
		 [](Peer &p, const Config &c) {
			 ignored_then_honest(p, c, "cdc-bad-token", [](Peer &q) {
				 q.send_cdc(0, 0, [&](wire::Cdc &m) {
					 m.token = q.accept().alert_token + 1;
					 m.prod = q.peer_ring().at(q.tx_prod() + 100);
				 });
			 });
		 }},
		{"cdc-prod-beyond", "producer cursor count past the end of the server's RMBE",
		 "ignored: data byte-exact afterwards",
		 [](Peer &p, const Config &c) {
			 ignored_then_honest(p, c, "cdc-prod-beyond", [](Peer &q) {
				 q.send_cdc(0, 0, [&](wire::Cdc &m) { m.prod.count = q.peer_ring().size + 100; });
			 });
		 }},
		{"cdc-prod-wrap2", "producer cursor two wraps ahead (more than the RMBE holds)",
		 "ignored: data byte-exact afterwards",
		 [](Peer &p, const Config &c) {
			 ignored_then_honest(p, c, "cdc-prod-wrap2", [](Peer &q) {
				 q.send_cdc(0, 0, [&](wire::Cdc &m) { m.prod.wrap = static_cast<uint16_t>(m.prod.wrap + 2); });
			 });
		 }},
		{"cdc-prod-backwards", "100 bytes written, then a producer cursor 50 bytes back",
		 "the cursor never moves back: data byte-exact afterwards",
		 [](Peer &p, const Config &c) {
			 // the duplex exchange continues from the 100 bytes on
			 p.write_data(100);
			 p.send_cdc();
			 p.send_cdc(0, 0, [&](wire::Cdc &m) { m.prod = p.peer_ring().at(p.tx_prod() - 50); });
			 p.pump(200);
			 p.duplex(c.bytes);
			 p.expect_link_alive("cdc-prod-backwards");
		 }},
		{"cdc-cons-ahead", "consumer cursor more than our RMBE ahead of what we consumed (beyond anything "
				   "smcr can have written)",
		 "ignored: smcr never overwrites bytes we did not consume (data byte-exact)",
		 [](Peer &p, const Config &c) {
			 ignored_then_honest(p, c, "cdc-cons-ahead", [](Peer &q) {
				 q.send_cdc(0, 0, [&](wire::Cdc &m) {
					 m.cons = q.our_ring().at(q.rx_cons() + q.our_ring().cap() + 4096);
				 });
			 });
		 }},
		{"cdc-seq-replay", "a CDC message replayed with its old sequence number and cursor after newer ones",
		 "the old message is discarded (A.4): data byte-exact afterwards",
		 [](Peer &p, const Config &c) {
			 p.write_data(100);
			 p.send_cdc();
			 uint16_t old = p.tx_seq();
			 wire::Cursor old_prod = p.peer_ring().at(p.tx_prod());
			 p.write_data(100);
			 p.send_cdc();
			 p.send_cdc(0, 0, [&](wire::Cdc &m) {
				 m.seqno = old;
				 m.prod = old_prod;
			 });
			 p.pump(200);
			 p.duplex(c.bytes);
			 p.expect_link_alive("cdc-seq-replay");
		 }},
		{"urg-after-close",
		 "our data, D and C; then one more byte flagged urgent (data after C) while the server "
		 "closes: with test_cdc_rx_delay_ms the late message is still in smcr's receive path when the "
		 "connection ends",
		 "the late message finds no connection and is dropped: no oops, link alive",
		 [](Peer &p, const Config &c) {
			 p.duplex(c.bytes, false);
			 p.send_cdc(0, wire::kConnDoneWriting | wire::kConnClosed);
			 p.write_data(1);
			 p.send_cdc(wire::kProdUrgPending | wire::kProdUrgPresent);
			 p.pump_until([&] { return (p.peer_conn_flags() & wire::kConnClosed) != 0; }, kWaitMs);
			 if (!(p.peer_conn_flags() & wire::kConnClosed))
				 throw Failure("urg-after-close: smcr never closed (no C)");
			 p.expect_link_alive("urg-after-close");
		 }},
		{"cdc-urg-empty",
		 "with nothing written yet (the server's RMBE empty): urgent data pending (P) alone, then pending "
		 "and present (P+U) with the producer cursor where it is",
		 "P announces urgent data, nothing to answer; P+U names no byte (none before the cursor is "
		 "unread): no mark, but smcr answers at once with a consumer update that does not move its cursor "
		 "(4.7.5 step 3: a sender waits for it); the data that follows is byte-exact, the link lives",
		 [](Peer &p, const Config &c) {
			 settle(p);
			 p.send_cdc(wire::kProdUrgPending);
			 p.pump_for(200);
			 const unsigned n = p.cdc_seen();
			 p.send_cdc(wire::kProdUrgPending | wire::kProdUrgPresent);
			 // on_cdc() fails a consumer cursor past the 0 bytes we wrote
			 if (!p.pump_until([&] { return p.cdc_seen() > n; }, 5000))
				 throw Failure("cdc-urg-empty: no consumer update answered urgent data present with "
					       "nothing written");
			 say("cdc-urg-empty: P+U on an empty ring answered with a consumer update at " +
			     std::to_string(p.tx_peer_cons()));
			 // a mark taken here would make smcr's reader skip or stop
			 // at a byte: its pattern check fails
			 p.duplex(c.bytes);
			 p.expect_link_alive("cdc-urg-empty");
		 }},
		{"cdc-blocked-storm",
		 "1000 CDC messages with writer blocked (B) and consumer update requested (R), no data, cursors "
		 "unchanged",
		 "each R asks for an immediate consumer update (A.4): smcr answers, coalescing requests that queue "
		 "up (at least 1, at most 1000 updates, none moving its cursor past what we wrote); the link lives, "
		 "the data that follows is byte-exact",
		 [](Peer &p, const Config &c) {
			 constexpr unsigned kStorm = 1000;
			 settle(p);
			 const unsigned n = p.cdc_seen();
			 for (unsigned i = 0; i < kStorm; ++i)
				 p.send_cdc(wire::kProdWriteBlocked | wire::kProdConsUpdReq);
			 settle(p, 1000);
			 const unsigned got = p.cdc_seen() - n;
			 say("cdc-blocked-storm: " + std::to_string(got) + " consumer updates for " +
			     std::to_string(kStorm) + " requests");
			 if (got == 0 || got > kStorm)
				 throw Failure("cdc-blocked-storm: " + std::to_string(got) + " CDC messages answered " +
					       std::to_string(kStorm) + " update requests");
			 p.duplex(c.bytes);
			 p.expect_link_alive("cdc-blocked-storm");
		 }},
		{"cdc-done-repeated",
		 "the duplex exchange, then D in three CDC messages; after smcr's C, our C twice",
		 "a repeated D changes nothing (the reader sees one end of stream, the server's data byte-exact); "
		 "smcr closes with C once; our second C finds the connection ended or done and smcr sends nothing "
		 "more (A.4: no control message after C); the link lives",
		 [](Peer &p, const Config &c) {
			 p.duplex(c.bytes, false);
			 for (int i = 0; i < 3; ++i)
				 p.send_cdc(0, wire::kConnDoneWriting);
			 p.close_orderly(); // smcr's C, our C
			 const unsigned n = p.cdc_seen();
			 p.send_cdc(0, wire::kConnDoneWriting | wire::kConnClosed);
			 expect_silent_after(p, n, "cdc-done-repeated");
			 p.expect_link_alive("cdc-done-repeated");
		 }},
		{"cdc-data-after-done",
		 "all our bytes (smcr's application reads them and waits), D three times, then 100 more bytes and "
		 "a producer cursor past them; smcr's data waits unread meanwhile, then we take it",
		 "the 100 bytes are taken (a Linux peer writes what a closed window held back after its D), but "
		 "the application already read --bytes and end of stream: they are unread at close(), so smcr "
		 "closes with A - the peer learns its bytes were not read, nothing is lost silently; the link "
		 "lives",
		 [](Peer &p, const Config &c) {
			 const std::string label = "cdc-data-after-done";
			 write_until_read(p, c.bytes, label);
			 for (int i = 0; i < 3; ++i)
				 p.send_cdc(0, wire::kConnDoneWriting);
			 p.pump_for(500); // the application's read returns 0
			 p.write_data(100);
			 p.send_cdc();
			 p.pump_for(300);
			 drain(p, c.bytes, label);
			 if (!(await_close(p, label) & wire::kConnAbort))
				 throw Failure(label + ": smcr closed with C although 100 bytes it took after our D "
						       "were never read (expected A)");
			 p.send_cdc(0, wire::kConnAbort);
			 p.expect_link_alive(label);
		 }},
		{"cdc-data-after-close",
		 "all our bytes (smcr's application reads them) and D, so that the application reads end of stream "
		 "and stays blocked in send() on our full RMBE; then 100 bytes RDMA-written and, back to back, C "
		 "and a CDC message whose producer cursor is past them (smcr takes both before its application "
		 "wakes up); smcr's data stays unconsumed (after C we send nothing)",
		 "A.4: after C the peer makes no update to the RMBE - the 100 bytes are ignored: the application "
		 "reads --bytes and end of stream, its blocked send() fails with EPIPE (the peer closed), and smcr "
		 "closes with C (nothing unread, nothing staged), then sends nothing more; the link lives",
		 [](Peer &p, const Config &c) {
			 const std::string label = "cdc-data-after-close";
			 write_until_read(p, c.bytes, label);
			 p.send_cdc(0, wire::kConnDoneWriting);
			 p.pump_for(500); // the application's read returns 0
			 const Cursor before = p.peer_ring().at(p.tx_prod());
			 p.write_data(100);
			 p.send_cdc(0, wire::kConnClosed, [&](wire::Cdc &m) { m.prod = before; });
			 p.send_cdc();
			 const uint8_t f = await_close(p, label);
			 const unsigned n = p.cdc_seen();
			 if (f & wire::kConnAbort)
				 throw Failure(label + ": smcr aborted (A): it took the 100 bytes written after our C "
						       "into the stream and found them unread at close");
			 expect_silent_after(p, n, label);
			 p.expect_link_alive(label);
		 }},
		{"cdc-abort-repeated",
		 "a quarter of the duplex exchange, then A in three CDC messages (nothing after)",
		 "passive abort (4.8.2, 2A/2B): the application's read or write fails with ECONNRESET, smcr answers "
		 "with A - once - and sends nothing more; the repeated A are dropped; its TCP connection ends with "
		 "a reset, not a FIN (an SMC-R abort is a TCP abort); the link lives (TEST LINK answered) for the "
		 "link group's other connections",
		 [](Peer &p, const Config &c) {
			 const std::string label = "cdc-abort-repeated";
			 p.duplex(c.bytes, false, c.bytes / 4);
			 for (int i = 0; i < 3; ++i)
				 p.send_cdc(0, wire::kConnAbort);
			 expect_abort(p, label, "smcr answered our A with C, not A (RFC 7609 4.8.2, 2B)");
			 const std::string end = p.tcp_end(kWaitMs);
			 say(label + ": smcr's TCP connection ended: " + end);
			 if (end != "RST")
				 throw Failure(label + ": smcr's TCP connection after its A: " + end + ", expected a reset");
			 p.expect_link_alive(label);
		 }},
		{"tcp-reset",
		 "all our bytes, read by smcr's application (its own wait unconsumed in our RMBE), then our TCP "
		 "connection reset (SO_LINGER 0) while the QP and the SMC-R connection stay; no A from us",
		 "a TCP reset aborts the SMC-R connection (4.8.2): smcr sends A - not the C of an application "
		 "that closes with nothing unread - and nothing after it; the application fails with "
		 "ECONNRESET; the link lives",
		 [](Peer &p, const Config &c) {
			 reset_tcp_expect_abort(p, c.bytes, "tcp-reset");
			 p.send_cdc(0, wire::kConnAbort);
			 p.expect_link_alive("tcp-reset");
		 }},
		{"abort-unanswered",
		 "as tcp-reset, but smcr's A is never answered: we stay silent on the connection",
		 "smcr sends A and nothing after it, also when its close timer ends the connection in "
		 "PeerAbortWait (4.8.2, 1B; the selftest checks smcr's element is freed); the link lives",
		 [](Peer &p, const Config &c) {
			 reset_tcp_expect_abort(p, c.bytes, "abort-unanswered");
			 p.expect_link_alive("abort-unanswered");
		 }},
		{"failover-no-gap",
		 "failover validation messages (F, RFC 7609 4.6.1) on the connection's only link, none consuming "
		 "a sequence number (A.4): SS the sequence number we sent last (the RFC's), one behind it "
		 "(Linux's), three behind; each with cursors claiming 1000 bytes and A, C and D set",
		 "SS not after the last number smcr received is no gap: smcr does nothing - no reply, no reset; "
		 "only type, length, token and sequence number count in F (A.4), so the cursors and A, C, D are "
		 "no lie it acts on, and the number is not taken as the last received (the honest messages after "
		 "it, numbered from ours, are accepted): the duplex exchange is byte-exact, the link lives",
		 [](Peer &p, const Config &c) {
			 const std::string label = "failover-no-gap";
			 p.write_data(100);
			 for (int i = 0; i < 5; ++i)
				 p.send_cdc();
			 settle(p);
			 const unsigned n = p.cdc_seen();
			 for (int d : {0, -1, -3})
				 send_failover(p, static_cast<uint16_t>(p.tx_seq() + d));
			 p.pump_for(500);
			 if (p.cdc_seen() != n)
				 throw Failure(label + ": smcr answered a failover validation message");
			 p.duplex(c.bytes);
			 p.expect_link_alive(label);
		 }},
		{"failover-gap",
		 "five CDC messages, then a failover validation message (F) whose SS is 5 ahead of the last one "
		 "we sent: it claims smcr received five messages it never got (its cursors claim 1000 bytes)",
		 "4.6.1: SS after SR is a gap, and the link group has no other link whose receive completions "
		 "could lag: smcr resets the connection - A (not C), nothing after it; its application fails "
		 "with ECONNRESET; the link lives for the link group's other connections",
		 [](Peer &p, const Config &) {
			 const std::string label = "failover-gap";
			 p.write_data(100);
			 for (int i = 0; i < 5; ++i)
				 p.send_cdc();
			 settle(p);
			 send_failover(p, static_cast<uint16_t>(p.tx_seq() + 5));
			 expect_abort(p, label, "smcr closed with C after a failover validation gap, expected A");
			 p.send_cdc(0, wire::kConnAbort);
			 p.expect_link_alive(label);
		 }},
		{"failover-stale-cdc",
		 "100 bytes and a CDC message (number k), F with SS k (no gap), 100 more bytes and a CDC message "
		 "(k+1); then, as if late on the link we failed over from, one numbered k whose producer cursor "
		 "claims 100 bytes more (never written) and asks for a consumer update (B, R)",
		 "the late message is not after the last number received (A.4): dropped - no consumer update "
		 "answers its R, smcr's reader never sees the 100 bytes (its consumer cursor stays within what we "
		 "wrote), and the duplex exchange that follows is byte-exact; the link lives",
		 [](Peer &p, const Config &c) {
			 const std::string label = "failover-stale-cdc";
			 p.write_data(100);
			 p.send_cdc();
			 const uint16_t k = p.tx_seq();
			 send_failover(p, k);
			 p.write_data(100);
			 p.send_cdc();
			 settle(p);
			 const unsigned n = p.cdc_seen();
			 p.send_cdc(wire::kProdWriteBlocked | wire::kProdConsUpdReq, 0, [&](wire::Cdc &m) {
				 m.seqno = k;
				 m.prod = p.peer_ring().at(p.tx_prod() + 100);
			 });
			 p.pump_for(500);
			 if (p.cdc_seen() != n)
				 throw Failure(label + ": smcr answered a stale CDC message (" +
					       std::to_string(p.cdc_seen() - n) + " message(s))");
			 p.duplex(c.bytes);
			 p.expect_link_alive(label);
		 }},
	};
	return all;
}

} // namespace smctest::linkpeer
