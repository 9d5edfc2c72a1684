// smctest link-peer: a scripted SMC-R peer below CLC.
//
// It plays an SMC-R client to an smcr server (which runs CLC on a plain
// TCP socket with the module parameter test_clc_without_option=1), of
// version 1 or, with --clc-version 2, of version 2 (the server needs the
// user EID --ueid then; Linux's LLC framing of version 2, see Peer::v2()):
//   Proposal -> Accept (first contact: a fresh peer ID every run), an RC QP
//   of its own on the local RoCE port, its own RMB (one 64 KiB element it
//   registers for remote write), Confirm, then the server's CONFIRM LINK and
//   our reply (RFC 7609 3.5.1). From there it is an SMC-R endpoint: it
//   RDMA-writes into the server's RMBE and sends CDC messages (A.4), reads
//   what the server writes into its RMB and checks every CDC message the
//   server sends against the rings (a cursor of smcr's that goes backwards
//   or past what is possible fails the run), answers TEST LINK, and logs
//   every LLC message.
//
// The scripts lie where a hostile peer would and state what smcr must do;
// the data they move is smctest's duplex pattern (we send --seed, the
// server --seed+1), so the smcr application is a plain
// `smctest server --mode duplex --bytes N --seed S --expect-mode smcr`
// whose own checksum says whether a lie reached its data.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <span>

#include "clc.hpp"
#include "clcio.hpp"
#include "commands.hpp"
#include "linkpeer.hpp"
#include "net.hpp"
#include "smcr/args.hpp"
#include "smcr/pattern.hpp"
#include "transfer.hpp"

namespace smctest::linkpeer {

void Peer::establish()
{
	Config tc = c_;
	tc.family = Family::Tcp;
	fd_ = dial(tc, peer_addr(tc));
	sockaddr_in local{};
	socklen_t len = sizeof(local);
	if (getsockname(fd_.get(), reinterpret_cast<sockaddr *>(&local), &len) < 0)
		throw_errno("getsockname", errno);
	sockaddr_in remote{};
	len = sizeof(remote);
	if (getpeername(fd_.get(), reinterpret_cast<sockaddr *>(&remote), &len) < 0)
		throw_errno("getpeername", errno);
	clc::Gid server_gid{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}; // ::ffff:a.b.c.d
	std::memcpy(&server_gid[12], &remote.sin_addr.s_addr, 4);
	local_ports_ = verbs::ports_ipv4();
	port_ = verbs::find_port_ipv4(local_ports_, local.sin_addr.s_addr);
	say("link-peer: " + local_name(fd_.get()) + " -> " + peer_name(fd_.get()) + " on " + port_.dev + " port " +
	    std::to_string(port_.port) + " GID index " + std::to_string(port_.gid_index));

	// A fresh peer ID (two random bytes, then our MAC, A.2.1): first contact.
	std::random_device rd;
	clc::ProposalSpec &ps = prop_;
	ps.peer_id[0] = static_cast<uint8_t>(rd());
	ps.peer_id[1] = static_cast<uint8_t>(rd());
	std::copy(port_.mac.begin(), port_.mac.end(), ps.peer_id.begin() + 2);
	ps.gid = port_.gid;
	ps.mac = port_.mac;
	ps.ipv4_subnet = ntohl(local.sin_addr.s_addr) & 0xffffff00u;
	ps.ipv4_prefix_len = 24;
	// version 2: our GID is our address (IPv4-mapped), the links we
	// allow are the script's (release 1 negotiates them in CLC)
	ps.v2_gid = port_.gid;
	ps.eid = clc::eid(c_.ueid);
	ps.max_links = max_links_;
	clc::Bytes prop = proposal();
	write_all(fd_.get(), prop.data(), prop.size());
	clc::Bytes a = read_clc(fd_.get(), kWaitMs, "the server's Accept");
	auto acc = clc::accept_confirm_parse(a);
	if (!acc || a[4] != clc::Accept)
		throw Failure("expected an Accept, got " + clc::type_name(a[4]) + ": " + clc::hex(a) +
			      (a[4] == clc::Decline ? std::string(" (server without test_clc_without_option=1 or a "
								  "RoCE port") +
							      (v2() ? ", or without the user EID " + c_.ueid : "") + "?)"
						    : ""));
	acc_ = *acc;
	if (!acc_.first_contact)
		throw Failure("the Accept is not a first contact although our peer ID is new");
	if (acc_.version != c_.clc_version)
		throw Failure("we proposed version " + std::to_string(c_.clc_version) + " only, the Accept is of " +
			      std::to_string(acc_.version));
	// release 1 limits: at least 16 connections and one link (Linux's
	// minimums), at most what we proposed
	if (v2() && (acc_.eid != ps.eid || acc_.release > ps.release || acc_.gid != server_gid ||
		     (acc_.release && (acc_.max_links < 1 || acc_.max_links > ps.max_links ||
				       acc_.max_conns < 16 || acc_.max_conns > ps.max_conns))))
		throw Failure("the version 2 Accept does not fit our Proposal (EID, release, limits) or its GID is "
			      "not the server's address: " + clc::hex(a, 256));

	link_ = std::make_unique<verbs::RcLink>(port_, kSqDepth, kRecvSlots + 1);
	rmb_mr_ = link_->reg(rmb_, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	stage_mr_ = link_->reg(stage_, IBV_ACCESS_LOCAL_WRITE);
	msgs_mr_ = link_->reg(msgs_, IBV_ACCESS_LOCAL_WRITE);
	link_->to_init();
	for (unsigned i = 0; i < kRecvSlots; ++i)
		link_->post_recv(kWrRecv | i, msgs_mr_.get(), recv_slot(i), kSlotLen);
	verbs::Remote r;
	r.gid = acc_.gid;
	r.qpn = acc_.qpn;
	r.psn = acc_.psn;
	r.mtu = static_cast<ibv_mtu>(acc_.mtu);
	link_->to_rtr(r);
	link_->to_rts();

	clc::Bytes cm = clc::accept_confirm(clc::Confirm, confirm_spec(true));
	write_all(fd_.get(), cm.data(), cm.size());

	if (!pump_until([&] { return confirm_link_.has_value(); }, kWaitMs))
		throw Failure("no CONFIRM LINK from the server" +
			      (link_error_.empty() ? std::string() : " (" + link_error_ + ")"));
	const wire::ConfirmLink &cl = *confirm_link_;
	if (cl.response || cl.gid != acc_.gid || cl.mac != acc_.mac || cl.qpn != acc_.qpn || !cl.link_num)
		throw Failure("the server's CONFIRM LINK does not match its Accept");
	link_num_ = cl.link_num;
	// The server chooses the RMBE format (Linux's flag bits, 4.4.1)
	eyec_ = (cl.flags & wire::kNoRmbeEyec) != wire::kNoRmbeEyec;
	wire::ConfirmLink resp;
	resp.response = true;
	resp.flags = cl.flags & wire::kNoRmbeEyec;
	resp.mac = port_.mac;
	resp.gid = port_.gid;
	resp.qpn = link_->qpn();
	resp.link_num = link_num_;
	resp.link_uid = {0x4c, 0x50, static_cast<uint8_t>(rd()), static_cast<uint8_t>(rd())};
	resp.max_links = max_links_;
	our_ring_ = {static_cast<uint32_t>(rmb_.size()), eyec_ ? 4u : 0u};
	peer_ring_ = {clc::rmbe_size(acc_.rmbe_size_code), eyec_ ? 4u : 0u};
	peer_addr_ = acc_.rmb_vaddr + static_cast<uint64_t>(acc_.rmbe_idx - 1) * peer_ring_.size;
	if (eyec_)
		std::memcpy(rmb_.data(), clc::kEyeCatcher.data(), 4);
	send_msg(wire::confirm_link_build(resp));
	// The server's application writes first (duplex): its first CDC
	// message shows the link ACTIVE and the connection in use on its side,
	// so a script's lie cannot hit the end of the handshake instead.
	if (!pump_until([&] { return rx_seq_.has_value() || !link_error_.empty(); }, kWaitMs) ||
	    !link_error_.empty())
		throw Failure("no CDC message from the server after CONFIRM LINK (is it `smctest server --mode "
			      "duplex`?)" + (link_error_.empty() ? std::string() : " (" + link_error_ + ")"));
	say("link-peer: link up (server QP " + std::to_string(acc_.qpn) + ", ours " + std::to_string(link_->qpn()) +
	    ", link " + std::to_string(link_num_) + ", server RMBE " + std::to_string(peer_ring_.size) + " bytes" +
	    (eyec_ ? ", RFC eye catcher" : "") + ")");
}

clc::AcceptConfirmSpec Peer::confirm_spec(bool first) const
{
	clc::AcceptConfirmSpec conf;
	conf.peer_id = prop_.peer_id;
	conf.gid = port_.gid;
	conf.mac = port_.mac;
	conf.qpn = link_->qpn();
	conf.rmb_rkey = rmb_mr_->rkey;
	conf.rmbe_idx = 1;
	conf.alert_token = kOurToken;
	conf.rmbe_size_code = kOurSizeCode;
	conf.mtu = static_cast<uint8_t>(link_->port().active_mtu);
	conf.rmb_vaddr = reinterpret_cast<uintptr_t>(rmb_.data());
	conf.psn = link_->psn();
	conf.version = acc_.version;
	conf.eid = acc_.eid;
	// version 2: only a first contact's Confirm has the F bit and the
	// first contact extension, which echoes the Accept's
	conf.first_contact = first;
	conf.release = acc_.release;
	conf.max_conns = acc_.max_conns;
	conf.max_links = acc_.max_links;
	conf.gids = {port_.gid};
	return conf;
}

UniqueFd Peer::take_over(Contact &&k, uint32_t token)
{
	old_ = OldConn{our_token_, rx_prod_, 0, 0, 0};
	UniqueFd old = std::move(fd_);
	fd_ = std::move(k.fd);
	acc_ = k.acc;
	peer_ring_ = {clc::rmbe_size(acc_.rmbe_size_code), eyec_ ? 4u : 0u};
	peer_addr_ = k.rmbe_addr();
	our_token_ = token;
	tx_seq_ = 0;
	tx_prod_ = tx_peer_cons_ = rx_prod_ = rx_cons_ = rx_cons_sent_ = 0;
	sent_conn_flags_ = peer_conn_flags_ = peer_prod_flags_ = 0;
	rx_seq_.reset();
	say("link-peer: our RMB element now belongs to the connection with alert token " + std::to_string(token) +
	    " (server RMBE " + std::to_string(peer_ring_.size) + " bytes)");
	return old;
}

UniqueFd Peer::dial_port(uint16_t port) const
{
	Config tc = c_;
	tc.family = Family::Tcp;
	tc.port = port;
	UniqueFd fd = dial(tc, peer_addr(tc));
	int one = 1;
	setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

Peer::Contact Peer::contact(uint16_t port, bool first) const
{
	UniqueFd fd = dial_port(port);
	clc::Bytes prop = proposal();
	write_all(fd.get(), prop.data(), prop.size());
	clc::Bytes a = read_clc(fd.get(), kWaitMs, "the server's Accept (port " + std::to_string(port) + ")");
	return check_accept(port, std::move(fd), a, first);
}

Peer::Contact Peer::accepted(uint16_t port, Answer &&a, bool first) const
{
	return check_accept(port, std::move(a.fd), a.clc, first);
}

Peer::Answer Peer::propose(uint16_t port, const std::function<void(const LlcSeen &)> &on_llc, bool may_end)
{
	const std::string what = "the server's CLC reply to our Proposal (port " + std::to_string(port) + ")";
	Answer r{dial_port(port), {}, {}, {}, {}};
	clc::Bytes prop = proposal();
	write_all(r.fd.get(), prop.data(), prop.size());
	const uint64_t deadline = now_ms() + kWaitMs;
	size_t seen = llc_.size();
	size_t want = clc::kHdrLen;
	while (r.clc.size() < want) {
		if (now_ms() >= deadline)
			throw Failure("expected " + what + ", got " + std::to_string(r.clc.size()) +
				      " byte(s) in " + std::to_string(kWaitMs) + " ms" +
				      (r.clc.empty() ? std::string() : ": " + clc::hex(r.clc)));
		pump(10);
		if (!link_error_.empty() && !may_end)
			throw Failure("link failed while we waited for " + what + ": " + link_error_);
		r.link_error = link_error_;
		while (seen < llc_.size()) {
			const LlcSeen l = llc_[seen++]; // a copy: on_llc may pump
			r.llc.push_back(l);
			if (on_llc)
				on_llc(l);
		}
		auto got = read_some(r.fd.get(), want - r.clc.size(), now_ms() + 10);
		r.clc.insert(r.clc.end(), got.data.begin(), got.data.end());
		if (r.clc.size() < want && (got.eof || got.err) && may_end) {
			r.tcp_end = got.eof ? std::string("EOF") : errno_name(got.err);
			return r;
		}
		if (r.clc.size() < want && (got.eof || got.err))
			throw Failure("expected " + what + ", got " + std::to_string(r.clc.size()) + " byte(s), then " +
				      (got.eof ? std::string("EOF") : errno_name(got.err)));
		if (want == clc::kHdrLen && r.clc.size() == clc::kHdrLen) {
			auto hdr = clc::parse_header(r.clc.data());
			if (!hdr.eye_ok || hdr.length < clc::kHdrLen + clc::kTrailerLen || hdr.length > clc::kMaxLen)
				throw Failure("expected " + what + ", got a bad CLC header: " + clc::hex(r.clc));
			want = hdr.length;
		}
	}
	if (!clc::trailer_ok(r.clc))
		throw Failure("expected " + what + ", got a " + clc::type_name(r.clc[4]) + " with a bad trailer: " +
			      clc::hex(r.clc));
	return r;
}

Peer::Contact Peer::check_accept(uint16_t port, UniqueFd fd, const clc::Bytes &a, bool first) const
{
	Contact k{std::move(fd), {}};
	auto acc = clc::accept_confirm_parse(a);
	if (!acc || a[4] != clc::Accept)
		throw Failure("port " + std::to_string(port) + ": expected an Accept, got " + clc::type_name(a[4]) +
			      ": " + clc::hex(a));
	k.acc = *acc;
	if (k.acc.version != acc_.version || (v2() && k.acc.eid != acc_.eid))
		throw Failure("port " + std::to_string(port) + ": an Accept of version " +
			      std::to_string(k.acc.version) + " (or another EID) on a link group of version " +
			      std::to_string(acc_.version));
	if (first && (!k.acc.first_contact || k.acc.qpn == acc_.qpn))
		throw Failure("port " + std::to_string(port) + ": expected a first contact on a new QP, got F=" +
			      std::to_string(k.acc.first_contact) + " QP " + std::to_string(k.acc.qpn) +
			      " (the link's is " + std::to_string(acc_.qpn) + ")");
	if (!first && (k.acc.first_contact || k.acc.qpn != acc_.qpn))
		throw Failure("port " + std::to_string(port) + ": expected a subsequent contact on our link (QP " +
			      std::to_string(acc_.qpn) + "), got F=" + std::to_string(k.acc.first_contact) + " QP " +
			      std::to_string(k.acc.qpn));
	say("link-peer: port " + std::to_string(port) + ": Accept, " +
	    (k.acc.first_contact ? "first" : "subsequent") + " contact, QP " + std::to_string(k.acc.qpn) +
	    ", RMB element " + std::to_string(k.acc.rmbe_idx) + " at 0x" + [&] {
		    char b[20];
		    std::snprintf(b, sizeof(b), "%llx", static_cast<unsigned long long>(k.rmbe_addr()));
		    return std::string(b);
	    }() + " rkey " + std::to_string(k.acc.rmb_rkey));
	return k;
}

void Peer::wait_sq_room()
{
	if (!pump_until([&] { return sq_out_ + 3 < kSqDepth || !link_error_.empty(); }, kWaitMs))
		throw Failure("send queue full for " + std::to_string(kWaitMs) + " ms");
	if (!link_error_.empty())
		throw Failure("link failed: " + link_error_);
}

namespace {

// The version 1 LLC types that have a version 2 form (type | 0x20)
bool has_v2_form(uint8_t type)
{
	switch (type) {
	case wire::kConfirmLink:
	case wire::kAddLink:
	case wire::kDeleteLink:
	case wire::kConfirmRkey:
	case wire::kTestLink:
	case wire::kDeleteRkey:
		return true;
	}
	return false;
}

} // namespace

void Peer::post_msg(const wire::Msg &m)
{
	uint8_t *slot = send_slot();
	std::memcpy(slot, m.data(), m.size());
	if (v2() && has_v2_form(m[0])) {
		slot[0] |= wire::kLlcV2;
		slot[1] = 0;
		slot[2] = wire::kMsgLen;
	}
	link_->post_send(kWrSend, msgs_mr_.get(), slot, wire::kMsgLen);
	++sq_out_;
}

void Peer::send_msg(const wire::Msg &m)
{
	wait_sq_room();
	post_msg(m);
}


LlcSeen Peer::llc_exchange(const wire::Msg &req, const std::string &label)
{
	const uint8_t type = req[0];
	const size_t from = llc_.size();
	std::optional<LlcSeen> reply;
	send_msg(req);
	pump_until([&] {
		for (size_t i = from; i < llc_.size() && !reply; ++i)
			if (llc_[i].type == type && (llc_[i].flags & wire::kLlcResp))
				reply = llc_[i];
		return reply || !link_error_.empty();
	}, kWaitMs);
	if (!reply)
		throw Failure(label + ": no " + wire::llc_name(type) + " reply within " + std::to_string(kWaitMs) +
			      " ms" + (link_error_.empty() ? std::string() : " (" + link_error_ + ")"));
	return *reply;
}

void Peer::send_cdc(uint8_t prod_flags, uint8_t conn_flags, const std::function<void(wire::Cdc &)> &edit)
{
	wire::Cdc cdc;
	cdc.seqno = ++tx_seq_;
	cdc.token = acc_.alert_token;
	cdc.prod = peer_ring_.at(tx_prod_);
	cdc.cons = our_ring_.at(rx_cons_);
	cdc.prod_flags = prod_flags;
	sent_conn_flags_ |= conn_flags;
	cdc.conn_flags = sent_conn_flags_;
	if (edit)
		edit(cdc);
	rx_cons_sent_ = rx_cons_;
	send_msg(wire::cdc_build(cdc));
}

void Peer::write_data(uint64_t n)
{
	while (n) {
		uint32_t off = peer_ring_.offset(tx_prod_);
		uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(n, peer_ring_.size - off));
		len = std::min<uint32_t>(len, static_cast<uint32_t>(stage_.size()));
		smcr::pattern_fill(c_.seed, tx_prod_, std::span<uint8_t>(stage_.data(), len));
		wait_sq_room();
		link_->post_write(kWrWrite, stage_mr_.get(), stage_.data(), len, peer_addr_ + off, acc_.rmb_rkey);
		++sq_out_;
		// the staging buffer is reused: let the write take its bytes first
		if (!pump_until([&] { return sq_out_ == 0 || !link_error_.empty(); }, kWaitMs) || !link_error_.empty())
			throw Failure("RDMA write did not complete: " + link_error_);
		tx_prod_ += len;
		n -= len;
	}
}

void Peer::pump(int ms)
{
	for (const ibv_wc &wc : link_->poll(ms)) {
		if (c_.verbose)
			say("link-peer: completion " + std::to_string(wc.wr_id >> 32) + " status " +
			    verbs::wc_status(wc.status) + " opcode " + std::to_string(wc.opcode) + " len " +
			    std::to_string(wc.byte_len));
		if (wc.status != IBV_WC_SUCCESS) {
			if (link_error_.empty())
				link_error_ = verbs::wc_status(wc.status);
			if ((wc.wr_id & ~0xffffffffULL) != kWrRecv && sq_out_)
				--sq_out_;
			continue;
		}
		if ((wc.wr_id & ~0xffffffffULL) == kWrRecv)
			on_recv(wc);
		else if (sq_out_)
			--sq_out_;
	}
}

bool Peer::pump_until(const std::function<bool()> &pred, uint64_t ms)
{
	uint64_t deadline = now_ms() + ms;
	while (!pred()) {
		uint64_t now = now_ms();
		if (now >= deadline)
			return false;
		pump(static_cast<int>(std::min<uint64_t>(deadline - now, 100)));
	}
	return true;
}

void Peer::on_recv(const ibv_wc &wc)
{
	unsigned i = static_cast<unsigned>(wc.wr_id & 0xffffffff);
	uint8_t *p = recv_slot(i);
	if (wc.opcode != IBV_WC_RECV || (wc.wc_flags & IBV_WC_WITH_IMM))
		throw Failure("smcr sent a message with opcode " + std::to_string(wc.opcode) +
			      ((wc.wc_flags & IBV_WC_WITH_IMM) ? " and immediate data" : ""));
	if (wc.byte_len < wire::kMsgLen || (wc.byte_len > wire::kMsgLen && (!v2() || p[0] == wire::kCdcType)))
		throw Failure("smcr sent a message of " + std::to_string(wc.byte_len) + " bytes (type " + hex8(p[0]) +
			      "); every CDC message" + (v2() ? "" : " and every version 1 LLC message") + " is 44");
	if (p[0] == wire::kCdcType) {
		auto cdc = wire::cdc_parse(p, wc.byte_len);
		if (!cdc)
			throw Failure("smcr sent a malformed CDC message");
		on_cdc(*cdc);
	} else if (!v2()) {
		on_llc(p, {});
	} else {
		// Linux's version 2 framing: the version in the type's high
		// nibble, the length in bytes 1-2 (smcr: big endian)
		if (p[0] != wire::kReqAddLinkV2 && (!(p[0] & wire::kLlcV2) || !has_v2_form(p[0] & ~wire::kLlcV2)))
			throw Failure("smcr sent LLC type " + hex8(p[0]) + " in a version 2 link group");
		const uint32_t said = static_cast<uint32_t>(p[1] << 8 | p[2]);
		if (said != wc.byte_len)
			throw Failure("smcr's " + wire::llc_name(p[0] & ~wire::kLlcV2) + " of " +
				      std::to_string(wc.byte_len) + " bytes says it has " + std::to_string(said));
		std::vector<uint8_t> tail(p + wire::kMsgLen, p + wc.byte_len);
		p[0] &= static_cast<uint8_t>(~wire::kLlcV2);
		p[1] = wire::kMsgLen;
		p[2] = 0;
		on_llc(p, std::move(tail));
	}
	if (!withhold_recv_)
		link_->post_recv(wc.wr_id, msgs_mr_.get(), recv_slot(i), kSlotLen);
}

// Everything smcr says about the rings must be possible (A.4, 4.3).
void Peer::on_cdc(const wire::Cdc &cdc)
{
	if (old_ && cdc.token == old_->token) {
		// the connection our element was taken from: tally only
		auto prod = our_ring_.unwrap(cdc.prod, old_->rx_prod);
		++old_->cdcs;
		if (cdc.conn_flags & wire::kConnAbort)
			++old_->aborts;
		if (!prod || *prod != old_->rx_prod)
			++old_->writes;
		say("link-peer: CDC message for the old connection (token " + std::to_string(cdc.token) +
		    ", flags 0x" + [&] {
			    char b[8];
			    std::snprintf(b, sizeof(b), "%02x", cdc.conn_flags);
			    return std::string(b);
		    }() + (prod && *prod == old_->rx_prod ? ", producer cursor unmoved)" : ", producer cursor MOVED)"));
		return;
	}
	if (cdc.token != our_token_)
		throw Failure("smcr sent a CDC message with alert token " + std::to_string(cdc.token) + ", ours is " +
			      std::to_string(our_token_));
	if (rx_seq_ && static_cast<uint16_t>(cdc.seqno - *rx_seq_) - 1u >= 0x7fffu)
		throw Failure("smcr's CDC sequence number went from " + std::to_string(*rx_seq_) + " to " +
			      std::to_string(cdc.seqno));
	rx_seq_ = cdc.seqno;
	++cdc_seen_;
	if (cdc.prod_flags & wire::kProdFailover)
		throw Failure("smcr sent a failover validation message on a one-link group");
	if (fuzzing_) {
		peer_conn_flags_ |= cdc.conn_flags;
		return;
	}
	auto prod = our_ring_.unwrap(cdc.prod, rx_prod_);
	if (!prod || *prod < rx_prod_ || *prod > rx_cons_ + our_ring_.cap())
		throw Failure("smcr's producer cursor (" + std::to_string(cdc.prod.wrap) + "," +
			      std::to_string(cdc.prod.count) + ") is impossible: had " + std::to_string(rx_prod_) +
			      ", consumed " + std::to_string(rx_cons_));
	auto cons = peer_ring_.unwrap(cdc.cons, tx_peer_cons_);
	if (!cons || *cons < tx_peer_cons_ || *cons > tx_prod_)
		throw Failure("smcr's consumer cursor (" + std::to_string(cdc.cons.wrap) + "," +
			      std::to_string(cdc.cons.count) + ") is impossible: we wrote " + std::to_string(tx_prod_));
	if ((peer_conn_flags_ & wire::kConnClosed) && *prod != rx_prod_)
		throw Failure("smcr wrote data after its close (C)");
	rx_prod_ = *prod;
	tx_peer_cons_ = *cons;
	peer_prod_flags_ = cdc.prod_flags;
	peer_conn_flags_ |= cdc.conn_flags;
}

void Peer::on_llc(const uint8_t *p, std::vector<uint8_t> tail)
{
	LlcSeen s{p[0], p[3], {}, now_ms(), std::move(tail)};
	std::copy_n(p, wire::kMsgLen, s.msg.begin());
	if (p[0] == wire::kConfirmLink && !confirm_link_) {
		confirm_link_ = wire::confirm_link_parse(p, wire::kMsgLen);
		return;
	}
	if (p[0] == wire::kTestLink) {
		if (p[3] & wire::kLlcResp) {
			++test_link_replies_;
			return;
		}
		if (answer_test_link_) {
			wire::Msg r;
			std::copy_n(p, wire::kMsgLen, r.begin());
			r[3] |= wire::kLlcResp;
			send_msg(r);
		}
		return;
	}
	if (fuzzing_)
		return;
	llc_.push_back(s);
	say("link-peer: got " + wire::llc_name(p[0]) + ((p[3] & wire::kLlcResp) ? " reply" : " request"));
}

void Peer::consume()
{
	uint64_t n = rx_prod_ - rx_cons_;
	while (n) {
		uint32_t off = our_ring_.offset(rx_cons_);
		uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(n, our_ring_.size - off));
		std::span<const uint8_t> d(rmb_.data() + off, len);
		size_t bad = smcr::pattern_mismatch(c_.seed + 1, rx_cons_, d);
		if (bad != len)
			throw Failure("data MISMATCH at offset " + std::to_string(rx_cons_ + bad) +
				      " of what smcr wrote into our RMBE");
		rx_cons_ += len;
		n -= len;
	}
	bool want = peer_prod_flags_ & (wire::kProdWriteBlocked | wire::kProdConsUpdReq);
	if (rx_cons_ != rx_cons_sent_ && (want || rx_cons_ - rx_cons_sent_ >= our_ring_.cap() / 2)) {
		peer_prod_flags_ &= static_cast<uint8_t>(~(wire::kProdWriteBlocked | wire::kProdConsUpdReq));
		send_cdc();
	}
}

void Peer::duplex(uint64_t bytes, bool close, uint64_t stop_at)
{
	uint64_t deadline = now_ms() + 10 * kWaitMs;
	bool sent_d = false;
	while (now_ms() < deadline) {
		pump(10);
		if (!link_error_.empty())
			throw Failure("link failed during the transfer: " + link_error_);
		if (peer_conn_flags_ & wire::kConnAbort)
			throw Failure("smcr aborted the connection (A) during the transfer");
		consume();
		if (tx_prod_ < bytes && tx_space()) {
			write_data(std::min({tx_space(), bytes - tx_prod_, uint64_t{64} << 10}));
			send_cdc(tx_space() ? 0 : wire::kProdWriteBlocked);
		} else if (tx_prod_ == bytes && !sent_d && close) {
			send_cdc(0, wire::kConnDoneWriting);
			sent_d = true;
		}
		if (rx_cons_ > bytes)
			throw Failure("smcr wrote more than --bytes");
		if (rx_cons_ >= stop_at)
			return; // mid-transfer, for the script
		bool peer_eof = peer_conn_flags_ & (wire::kConnDoneWriting | wire::kConnClosed);
		if (tx_prod_ == bytes && rx_cons_ == bytes && (!close || (sent_d && peer_eof)))
			break;
	}
	if (tx_prod_ != bytes || rx_cons_ != bytes)
		throw Failure("transfer incomplete: sent " + std::to_string(tx_prod_) + " of " + std::to_string(bytes) +
			      ", received " + std::to_string(rx_cons_));
	say("link-peer: duplex data ok: sent " + std::to_string(bytes) + " bytes (seed " + std::to_string(c_.seed) +
	    "), received " + std::to_string(bytes) + " bytes byte-exact (seed " + std::to_string(c_.seed + 1) + ")");
	if (close)
		close_orderly();
}

// 4.8.1: the server closes (C) after reading our D; we answer with C.
void Peer::close_orderly()
{
	if (!pump_until([&] { return (peer_conn_flags_ & (wire::kConnClosed | wire::kConnAbort)) ||
				     !link_error_.empty(); },
			kWaitMs))
		throw Failure("smcr never closed the connection (no C)");
	if (peer_conn_flags_ & wire::kConnAbort)
		throw Failure("smcr aborted the connection (A) instead of closing it");
	if (!link_error_.empty())
		throw Failure("link failed before the close: " + link_error_);
	consume();
	send_cdc(0, wire::kConnDoneWriting | wire::kConnClosed);
	say("link-peer: orderly close (C both ways)");
}

void Peer::reset_tcp()
{
	const linger l{1, 0};

	if (setsockopt(fd_.get(), SOL_SOCKET, SO_LINGER, &l, sizeof(l)) < 0)
		throw_errno("setsockopt(SO_LINGER)", errno);
	fd_.reset();
	say("link-peer: TCP connection reset (the QP stays)");
}

std::string Peer::tcp_end(int fd, uint64_t ms)
{
	const uint64_t deadline = now_ms() + ms;

	while (now_ms() < deadline) {
		pollfd pfd{fd, POLLIN, 0};
		pump(10);
		if (poll(&pfd, 1, 0) <= 0)
			continue;
		char b;
		const ssize_t n = recv(fd, &b, 1, MSG_DONTWAIT);
		if (n == 0)
			return "FIN";
		if (n > 0)
			return "data";
		if (errno == ECONNRESET)
			return "RST";
		if (errno != EAGAIN && errno != EINTR)
			throw_errno("recv on the TCP connection", errno);
	}
	return "open";
}

void Peer::stall_smcr_sends()
{
	withhold_recv();
	// one at a time: smcr answers without waiting for a send buffer, so
	// a burst would mostly be dropped, not answered
	for (int i = 0; i < 64; ++i) {
		wire::Msg m = wire::llc_build(wire::kTestLink, 0);
		m[4] = static_cast<uint8_t>(i);
		send_msg(m);
		pump_for(10);
	}
	pump_for(500);
}

void Peer::expect_link_alive(const std::string &label)
{
	unsigned before = test_link_replies_;
	wire::Msg m = wire::llc_build(wire::kTestLink, 0);
	m[4] = 0x5a;
	send_msg(m);
	if (!pump_until([&] { return test_link_replies_ > before || !link_error_.empty(); }, kWaitMs) ||
	    !link_error_.empty())
		throw Failure(label + ": the link is not alive: no TEST LINK reply" +
			      (link_error_.empty() ? std::string() : " (" + link_error_ + ")"));
	say(label + ": link alive (TEST LINK answered)");
}

void Peer::expect_link_down(const std::string &label)
{
	// rxe does not fail a send whose responder QP is gone (no retry
	// exhaustion seen in 20 s): a TEST LINK that stays unanswered while
	// smcr answered every one before is the sign, as for smcr's own
	// keepalive (4.5.3).
	constexpr uint64_t kNoReplyMs = 3000;
	uint64_t deadline = now_ms() + kWaitMs;
	auto deleted = [&] {
		return std::any_of(llc_.begin(), llc_.end(), [](const LlcSeen &l) {
			return l.type == wire::kDeleteLink && !(l.flags & wire::kLlcResp);
		});
	};
	std::string how;
	while (how.empty() && now_ms() < deadline) {
		unsigned before = test_link_replies_;
		if (sq_out_ + 3 < kSqDepth)
			post_msg(wire::llc_build(wire::kTestLink, 0));
		bool answered = pump_until([&] { return test_link_replies_ > before || !link_error_.empty() ||
						       deleted(); },
					   kNoReplyMs);
		if (deleted())
			how = "DELETE LINK";
		else if (!link_error_.empty())
			how = link_error_;
		else if (!answered)
			how = "TEST LINK unanswered for " + std::to_string(kNoReplyMs) + " ms";
	}
	if (how.empty())
		throw Failure(label + ": the link is still up after " + std::to_string(kWaitMs) + " ms");
	say(label + ": smcr ended the link (" + how + ")");
}

void Peer::send_raw(std::span<const uint8_t> m, std::optional<uint32_t> imm)
{
	if (m.size() > kSlotLen)
		throw Failure("a SEND of " + std::to_string(m.size()) + " bytes: more than our slots hold");
	wait_sq_room();
	uint8_t *slot = send_slot();
	const auto len = static_cast<uint32_t>(m.size());
	std::memcpy(slot, m.data(), len);
	if (imm)
		link_->post_send_imm(kWrSend, msgs_mr_.get(), slot, len, *imm);
	else
		link_->post_send(kWrSend, msgs_mr_.get(), slot, len);
	++sq_out_;
}

void Peer::write_imm(uint32_t imm)
{
	wait_sq_room();
	smcr::pattern_fill(c_.seed, tx_prod_, std::span<uint8_t>(stage_.data(), 1));
	link_->post_write_imm(kWrWrite, stage_mr_.get(), stage_.data(), 1, peer_addr_ + peer_ring_.offset(tx_prod_),
			      acc_.rmb_rkey, imm);
	++sq_out_;
}

ibv_wc_status Peer::write_at(uint64_t raddr, uint32_t rkey, uint32_t n)
{
	wait_sq_room();
	std::memset(stage_.data(), 0xa5, n);
	link_->post_write(kWrWrite, stage_mr_.get(), stage_.data(), n, raddr, rkey);
	++sq_out_;
	pump_until([&] { return sq_out_ == 0; }, kWaitMs);
	if (sq_out_)
		throw Failure("RDMA write: no completion in " + std::to_string(kWaitMs) + " ms");
	if (link_error_.empty())
		return IBV_WC_SUCCESS;
	// the failing completion's status was recorded as link_error_
	return IBV_WC_GENERAL_ERR;
}

// ---- scripts


// A lie smcr must ignore: after it the honest exchange is byte-exact (the
// server's own checksum and ours), and the link lives.
void ignored_then_honest(Peer &p, const Config &c, const std::string &label,
			 const std::function<void(Peer &)> &lie)
{
	lie(p);
	p.pump(200);
	p.duplex(c.bytes);
	p.expect_link_alive(label);
}

void llc_dropped_then_honest(Peer &p, const Config &c, const std::string &label,
			     const std::function<void(Peer &)> &lie)
{
	// smcr answers TEST LINK from its receive path, everything else from
	// its LLC work: a quiet half second after the exchange for that
	constexpr uint64_t kQuietMs = 500;
	const unsigned tl = p.test_link_replies();
	lie(p);
	p.pump(200);
	p.duplex(c.bytes);
	p.pump_for(kQuietMs);
	if (!p.llc_seen().empty())
		throw Failure(label + ": smcr answered with " + wire::llc_name(p.llc_seen().front().type) +
			      "; it should have dropped the message");
	if (p.test_link_replies() != tl)
		throw Failure(label + ": smcr answered with TEST LINK; it should have dropped the message");
	p.expect_link_alive(label);
}

void tcp_duplex(const Config &c, int fd, const std::string &label)
{
	TransferSpec s;
	s.msgsize = c.msgsize;
	s.send_bytes = c.bytes;
	s.send_seed = c.seed;
	s.verify_seed = c.seed + 1;
	auto r = transfer(fd, s, IoMode::Block);
	if (r.mismatch_at || r.received.bytes() != c.bytes)
		throw Failure(label + ": fallback data MISMATCH: received " + std::to_string(r.received.bytes()) +
			      " of " + std::to_string(c.bytes) + " bytes" +
			      (r.mismatch_at ? ", first bad offset " + std::to_string(*r.mismatch_at) : ""));
	say(label + ": fallback, duplex data over TCP byte-exact (" + std::to_string(c.bytes) + " bytes each way)");
}

void send_clc(int fd, const clc::Bytes &m)
{
	write_all(fd, m.data(), m.size());
}

std::string hex8(uint8_t v)
{
	char b[8];
	std::snprintf(b, sizeof(b), "0x%02x", v);
	return b;
}

std::string hex_u64(uint64_t v)
{
	char b[24];
	std::snprintf(b, sizeof(b), "0x%llx", static_cast<unsigned long long>(v));
	return b;
}

std::string hex_msg(const wire::Msg &m)
{
	return clc::hex(clc::Bytes(m.begin(), m.end()), m.size());
}

namespace {

constexpr uint32_t kSyncErr = 0x04000000, kNoSmcrDev = 0x03030002;

// smcr aborts the TCP connection fd: a reset, and not a byte before it
// (after a subsequent contact's Accept there is no Decline, C.3). Pumps
// the link meanwhile.
void expect_reset(Peer &p, int fd, const std::string &label)
{
	const uint64_t deadline = now_ms() + kWaitMs;
	clc::Bytes got;
	std::string end;
	while (end.empty() && now_ms() < deadline) {
		p.pump(10);
		auto r = read_some(fd, 1 << 16, now_ms() + 10);
		got.insert(got.end(), r.data.begin(), r.data.end());
		if (r.eof)
			end = "EOF";
		else if (r.err)
			end = errno_name(r.err);
	}
	std::string what = std::to_string(got.size()) + " byte(s)";
	if (got.size() >= clc::kHdrLen) {
		what += " (" + clc::type_name(got[4]);
		if (auto d = clc::decline_diagnosis(got)) {
			char h[12];
			std::snprintf(h, sizeof(h), "0x%08x", *d);
			what += std::string(" ") + h;
		}
		what += ")";
	}
	if (end.empty())
		throw Failure(label + ": expected a reset, the connection is still open after " +
			      std::to_string(kWaitMs) + " ms, got " + what);
	if (!got.empty() || end != "ECONNRESET")
		throw Failure(label + ": expected a reset without a byte, got " + what + ", then " + end);
	say(label + ": smcr reset the connection without a byte");
}

// An LLC message of type with seeded random bytes after the header.
template <typename Rng> wire::Msg llc_garbage(Rng &rng, uint8_t type, uint8_t flags)
{
	wire::Msg m = wire::llc_build(type, flags);
	for (size_t i = 4; i < m.size(); ++i)
		m[i] = static_cast<uint8_t>(rng());
	return m;
}

// fuzz: one CDC message with one to three fields lied about. Never A, C
// or D: the connection should live on to take more lies.
void fuzz_cdc(Peer &p, std::mt19937_64 &rng)
{
	auto r = [&](uint64_t n) { return rng() % n; };
	auto cursor = [&](const Ring &ring) {
		return wire::Cursor{static_cast<uint16_t>(rng()), static_cast<uint32_t>(r(2 * ring.size + 2))};
	};
	uint8_t prod_flags = static_cast<uint8_t>(rng());
	p.send_cdc(prod_flags, 0, [&](wire::Cdc &m) {
		for (uint64_t k = 1 + r(3); k; --k) {
			switch (r(6)) {
			case 0:
				m.token = r(2) ? m.token + static_cast<uint32_t>(r(3)) - 1 : static_cast<uint32_t>(rng());
				break;
			case 1:
				m.seqno = static_cast<uint16_t>(rng());
				break;
			case 2:
				m.prod = cursor(p.peer_ring());
				break;
			case 3:
				m.prod = p.peer_ring().at(p.tx_prod() + r(p.peer_ring().cap() + 1));
				break;
			case 4:
				m.cons = cursor(p.our_ring());
				break;
			default:
				m.cons = p.our_ring().at(p.rx_cons() + r(p.our_ring().cap() + 1));
				break;
			}
		}
		m.conn_flags &= static_cast<uint8_t>(~(wire::kConnAbort | wire::kConnClosed | wire::kConnDoneWriting));
	});
}

// fuzz: an LLC message of any type (mostly the defined ones) with random
// flags and body - but no DELETE LINK of this link or of all: that one
// ends the link group by right.
wire::Msg fuzz_llc(std::mt19937_64 &rng)
{
	static const uint8_t types[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x21, 0x22, 0x23};
	uint8_t type = rng() % 8 ? types[rng() % sizeof(types)] : static_cast<uint8_t>(rng());
	wire::Msg m = llc_garbage(rng, type, static_cast<uint8_t>(rng()));
	if (rng() % 4 == 0)
		m[1] = static_cast<uint8_t>(rng());	// the length
	if (type == wire::kDeleteLink) {
		m[3] &= static_cast<uint8_t>(~0x40);	// not all
		if (m[4] == 1)
			m[4] = 2;			// not this link
	}
	return m;
}
// The table: honest first, then the CDC scripts (linkpeer_cdc.cpp), the
// others, then the rkey exchange scripts (linkpeer_rkey.cpp) and the ADD
// LINK scripts (linkpeer_link.cpp).
const std::vector<Script> &scripts()
{
	static const std::vector<Script> own = {
		{"honest", "the duplex exchange of --bytes each way and an orderly close",
		 "byte-exact both ways, C answered with C, link alive",
		 [](Peer &p, const Config &c) {
			 p.duplex(c.bytes);
			 p.expect_link_alive("honest");
		 }},
		{"cross-lgr-write",
		 "two link groups on the server's RoCE device (this peer twice, fresh peer IDs, --port and "
		 "--port+1): the second RDMA-writes into the first one's RMBE with the first one's rkey and "
		 "address",
		 "the write fails at the MR (each link group has its own protection domain): remote access "
		 "error, the second link group ends; the first one's data stays byte-exact",
		 [](Peer &p, const Config &c) {
			 Config c2 = c;
			 c2.port = static_cast<uint16_t>(c.port + 1);
			 Peer q(c2);
			 q.establish();
			 ibv_wc_status st = q.write_at(p.server_rmbe_addr(), p.accept().rmb_rkey, 4096);
			 if (st == IBV_WC_SUCCESS)
				 throw Failure("cross-lgr-write: an RDMA write with another link group's rkey landed "
					       "in its RMBE (one protection domain for both?)");
			 say("cross-lgr-write: the write into the other link group's RMBE failed (" + q.link_error() +
			     ")");
			 p.duplex(c.bytes);
			 p.expect_link_alive("cross-lgr-write");
		 }},
		{"write-beyond-rmb",
		 "an RDMA write of 64 bytes just past the end of the server's RMB: its announced address plus "
		 "the RMB's size (smcr's RMBs are 256 KiB, or one element if that is larger)",
		 "the write fails at the MR bound (remote access error): the rkey covers the RMB and nothing "
		 "beyond it; smcr's QP takes the access error and its link group ends",
		 [](Peer &p, const Config &) {
			 const auto &acc = p.accept();
			 const uint64_t rmb_len = std::max<uint64_t>(256u << 10, clc::rmbe_size(acc.rmbe_size_code));
			 if (p.write_at(acc.rmb_vaddr + rmb_len, acc.rmb_rkey, 64) == IBV_WC_SUCCESS)
				 throw Failure("write-beyond-rmb: a write past the end of the RMB landed");
			 say("write-beyond-rmb: the write past the RMB failed (" + p.link_error() + ")");
		 }},
		{"delete-link-mid-transfer",
		 "the duplex exchange, and half-way through it DELETE LINK (all, orderly): with "
		 "test_tx_hold_ms the server holds a send buffer for a CDC message while its link group is torn "
		 "down",
		 "the link group ends (the server's connection is reset), the teardown waits for the held send "
		 "buffer: no use after free",
		 [](Peer &p, const Config &c) {
			 p.duplex(c.bytes, false, c.bytes / 2);
			 p.send_msg(wire::delete_link_build(false, true, true, 0, 0x00020000));
			 p.expect_link_down("delete-link-mid-transfer");
		 }},
		{"withhold-recv-close",
		 "no more receive buffers, 64 TEST LINK requests (smcr's replies fill our receive queue, then "
		 "its send queue waits on RNR for ever and every send buffer stays taken), then D and C: the "
		 "server closes with no send buffer to be had",
		 "smcr treats the send buffer timeout on an ACTIVE link as link failure: the link group ends "
		 "(and with it the RMB element), instead of giving the element back to the pool while the "
		 "link lives",
		 [](Peer &p, const Config &) {
			 p.stall_smcr_sends();
			 p.send_cdc(0, wire::kConnDoneWriting | wire::kConnClosed);
			 // Keep the QP (smcr's sends stay in RNR, not failed) while
			 // smcr's host checks what became of its link group.
			 p.pump_for(12000);
			 say("withhold-recv-close: D and C sent, QP kept 12 s; smcr's side is checked on its host");
		 }},
		{"llc-flood",
		 "256 CONFIRM RKEY requests back to back, with the server's test_llc_work_delay_ms making its LLC "
		 "work slower than the flood",
		 "smcr queues at most 16 requests and drops the rest (its log says so): fewer than 64 replies come "
		 "back (positive: the first stores RToken 0/0, the others repeat it), the link lives and the duplex "
		 "exchange is byte-exact",
		 [](Peer &p, const Config &c) {
			 constexpr unsigned kFlood = 256, kMaxReplies = 64;
			 for (unsigned i = 0; i < kFlood; ++i)
				 p.send_msg(wire::llc_build(wire::kConfirmRkey, 0));
			 // until the replies stop: 2 s without one
			 unsigned n = p.pump_until_replies_stop(wire::kConfirmRkey, 2000);
			 say("llc-flood: " + std::to_string(n) + " of " + std::to_string(kFlood) +
			     " CONFIRM RKEY requests answered");
			 if (n >= kMaxReplies)
				 throw Failure("llc-flood: smcr answered " + std::to_string(n) + " of " +
					       std::to_string(kFlood) + " flooded requests: its queue is not bounded");
			 p.duplex(c.bytes);
			 p.expect_link_alive("llc-flood");
		 }},
		{"llc-unknown",
		 "LLC messages of types 0x00, 0x05 (REQ ADD LINK: unsupported), 0x0a, 0x55 and 0xfd, and a CONFIRM "
		 "RKEY announcing 40 bytes (version 1; in version 2, where the length is the receive's "
		 "(v2-long-messages), types 0x20, 0x23, 0x28, 0x2a and 0x75 in version 2 framing instead)",
		 "dropped: no reply, the link lives, data byte-exact",
		 [](Peer &p, const Config &c) {
			 llc_dropped_then_honest(p, c, "llc-unknown", [](Peer &q) {
				 for (uint8_t t : {0x00, 0x05, 0x0a, 0x55, 0xfd})
					 q.send_msg(wire::llc_build(t, 0));
				 wire::Msg m = wire::llc_build(wire::kConfirmRkey, 0);
				 m[1] = 40;
				 if (!q.v2())
					 q.send_msg(m);
				 // version 2 framing of types without a version 2 form
				 for (uint8_t t : {0x20, 0x23, 0x28, 0x2a, 0x75}) {
					 wire::Msg v = wire::llc_build(t, 0);
					 v[1] = 0;
					 v[2] = wire::kMsgLen;
					 if (q.v2())
						 q.send_raw(v);
				 }
			 });
		 }},
		{"llc-unsolicited",
		 "replies nobody asked for: CONFIRM LINK, ADD LINK, ADD LINK CONTINUATION, DELETE LINK, CONFIRM "
		 "RKEY (negative), CONFIRM RKEY CONTINUATION, DELETE RKEY, TEST LINK",
		 "dropped: no reply, the link lives, data byte-exact",
		 [](Peer &p, const Config &c) {
			 llc_dropped_then_honest(p, c, "llc-unsolicited", [](Peer &q) {
				 for (uint8_t t : {wire::kConfirmLink, wire::kAddLink, wire::kAddLinkCont, wire::kConfirmRkey,
						   wire::kConfirmRkeyCont, wire::kDeleteRkey, wire::kTestLink})
					 q.send_msg(wire::llc_build(t, wire::kLlcResp));
				 q.send_msg(wire::delete_link_build(true, false, true, 1, 0x00020000));
			 });
		 }},
		{"llc-wrong-sender", "a CONFIRM LINK request from the client (only the server sends one, 3.5.1)",
		 "dropped (smcr logs it): no reply, the link lives, data byte-exact",
		 [](Peer &p, const Config &c) {
			 llc_dropped_then_honest(p, c, "llc-wrong-sender", [](Peer &q) {
				 wire::ConfirmLink cl;
				 cl.link_num = 1;
				 cl.qpn = 1234;
				 q.send_msg(wire::confirm_link_build(cl));
			 });
		 }},
		{"llc-add-link", "8 ADD LINK requests with seeded random bodies",
		 "a client's ADD LINK gets no reply (3.5.5.1.2): each is dropped as malformed or ignored as a hint, "
		 "smcr sends no LLC message, the link lives, data byte-exact",
		 [](Peer &p, const Config &c) {
			 std::mt19937 rng(static_cast<uint32_t>(c.seed));
			 llc_dropped_then_honest(p, c, "llc-add-link", [&](Peer &q) {
				 for (int i = 0; i < 8; ++i)
					 q.send_msg(llc_garbage(rng, wire::kAddLink, 0));
			 });
		 }},
		{"llc-add-link-hint",
		 "a well-formed ADD LINK request of the client (our MAC and GID, link number 0, a new QP number): "
		 "the client's notice of a new RNIC (3.5.5.1.2)",
		 "a hint, not a request: smcr, at its maximum of one link, ignores it - no LLC message within 3 s, "
		 "the link lives (TEST LINK answered), data byte-exact",
		 [](Peer &p, const Config &c) {
			 constexpr uint64_t kQuietMs = 3000;
			 wire::AddLink a;
			 a.mac = p.port().mac;
			 a.gid = p.port().gid;
			 a.qpn = static_cast<uint32_t>(c.seed) & 0xffffff;
			 a.mtu = static_cast<uint8_t>(p.port().active_mtu);
			 a.psn = static_cast<uint32_t>(c.seed >> 24) & 0xffffff;
			 p.send_msg(wire::add_link_build(a));
			 p.pump_for(kQuietMs);
			 if (!p.llc_seen().empty())
				 throw Failure("llc-add-link-hint: smcr answered the client's ADD LINK with " +
					       wire::llc_name(p.llc_seen().front().type) +
					       ((p.llc_seen().front().flags & wire::kLlcResp) ? " reply" : " request") +
					       ((p.llc_seen().front().flags & 0x40) ? " (reject)" : "") +
					       "; 3.5.5.1.2: the client waits for no reply");
			 say("llc-add-link-hint: no LLC message in " + std::to_string(kQuietMs) + " ms");
			 p.expect_link_alive("llc-add-link-hint");
			 p.duplex(c.bytes);
			 if (!p.llc_seen().empty())
				 throw Failure("llc-add-link-hint: smcr sent " + wire::llc_name(p.llc_seen().front().type) +
					       " after the client's ADD LINK");
		 }},
		{"llc-delete-link-unknown", "DELETE LINK (this one link, not all) naming link 7, which the link group "
					    "does not have",
		 "ignored (smcr logs it): no reply, the link lives, data byte-exact",
		 [](Peer &p, const Config &c) {
			 llc_dropped_then_honest(p, c, "llc-delete-link-unknown", [](Peer &q) {
				 q.send_msg(wire::delete_link_build(false, false, true, 7, 0x00020000));
			 });
		 }},
		{"llc-delete-rkey", "DELETE RKEY of 8 seeded random rkeys nobody announced",
		 "refused: one DELETE RKEY reply, negative (Z) with error mask 0xff, count and rkeys echoed; the "
		 "link lives, data byte-exact",
		 [](Peer &p, const Config &c) {
			 const std::string label = "llc-delete-rkey";
			 std::mt19937 rng(static_cast<uint32_t>(c.seed));
			 wire::Msg m = llc_garbage(rng, wire::kDeleteRkey, 0);
			 m[4] = 8;	// count (A.3.7)
			 m[5] = 0;	// error mask: a request has none
			 ignored_then_honest(p, c, label, [&](Peer &q) { q.send_msg(m); });
			 if (p.llc_replies(wire::kDeleteRkey) != 1)
				 throw Failure(label + ": expected one DELETE RKEY reply, got " +
					       std::to_string(p.llc_replies(wire::kDeleteRkey)));
			 auto it = std::find_if(p.llc_seen().begin(), p.llc_seen().end(), [](const LlcSeen &l) {
				 return l.type == wire::kDeleteRkey && (l.flags & wire::kLlcResp);
			 });
			 auto req = wire::delete_rkey_parse(m.data(), m.size());
			 auto rep = wire::delete_rkey_parse(it->msg.data(), it->msg.size());
			 if (!(rep->flags & wire::kRkeyNeg) || rep->err_mask != 0xff)
				 throw Failure(label + ": expected a negative reply (Z) with error mask 0xff, got flags " +
					       hex8(rep->flags) + " mask " + hex8(rep->err_mask));
			 if (rep->count != req->count || rep->rkeys != req->rkeys)
				 throw Failure(label + ": the reply does not echo the request's count and rkeys");
			 say(label + ": negative reply, error mask 0xff, rkeys echoed");
		 }},
		{"llc-test-link-flood", "1000 TEST LINK requests back to back",
		 "answered while send buffers are free, the rest dropped (nothing queues): the link lives, data "
		 "byte-exact",
		 [](Peer &p, const Config &c) {
			 ignored_then_honest(p, c, "llc-test-link-flood", [](Peer &q) {
				 for (int i = 0; i < 1000; ++i)
					 q.send_msg(wire::llc_build(wire::kTestLink, 0));
			 });
		 }},
		{"fuzz",
		 "--count messages (default 10000), seeded by --seed: 7 in 10 CDC messages with one to three fields "
		 "lied about (alert token, sequence number, cursors) and random producer flags, 3 in 10 LLC messages "
		 "of any type with random flags, lengths and bodies (no DELETE LINK of this link or of all, no A, C or "
		 "D; --clc-version 2: in version 2 framing, 1 in 4 up to 8 KiB long); a TEST LINK every 50000; then "
		 "D and C",
		 "smcr takes every one without taking the link down: our TEST LINKs are answered throughout and at "
		 "the end; the connection's own fate is not asserted (the bytes smcr delivers are our lies)",
		 [](Peer &p, const Config &c) {
			 std::mt19937_64 rng(c.seed);
			 const uint64_t n = c.count ? c.count : 10000;
			 const uint64_t t0 = now_ms();
			 p.fuzzing();
			 for (uint64_t i = 1; i <= n; ++i) {
				 if (rng() % 10 < 7)
					 fuzz_cdc(p, rng);
				 else if (p.v2())
					 p.send_raw(fuzz_llc_v2(rng));
				 else
					 p.send_msg(fuzz_llc(rng));
				 if (i % 50000 == 0) {
					 p.expect_link_alive("fuzz: " + std::to_string(i) + " messages");
					 say("fuzz: " + std::to_string(i * 1000 / std::max<uint64_t>(1, now_ms() - t0)) +
					     " messages/s");
				 }
			 }
			 p.send_cdc(0, wire::kConnDoneWriting | wire::kConnClosed);
			 p.pump_for(500);
			 p.expect_link_alive("fuzz: all " + std::to_string(n) + " messages sent");
		 }},
		{"sync-decline",
		 "after the duplex exchange on --port, three more TCP connections with our peer ID: --port+1 a "
		 "Decline SYNCERR with the S-bit in place of the Proposal; --port+2 Proposal, the server's Accept "
		 "reusing our link (subsequent contact), a Decline SYNCERR with the S-bit in place of the Confirm; "
		 "--port+3 Proposal again",
		 "+1: the server falls back (duplex data over TCP byte-exact) and the link lives - that Decline "
		 "names no link group; +2: fallback, data byte-exact, and the server ends the link group the Accept "
		 "named (RFC 7609 A.2.5: DELETE LINK on our link); +3: a first contact (F bit, a new QP), which we "
		 "decline, data byte-exact",
		 [](Peer &p, const Config &c) {
			 const auto port = [&](int i) { return static_cast<uint16_t>(c.port + i); };
			 p.duplex(c.bytes);
			 {
				 UniqueFd fd = p.dial_port(port(1));
				 send_clc(fd.get(), clc::decline(kSyncErr, 1, true));
				 tcp_duplex(c, fd.get(), "sync-decline: S-bit in place of the Proposal");
			 }
			 p.expect_link_alive("sync-decline: S-bit in place of the Proposal");
			 {
				 Peer::Contact k = p.contact(port(2));
				 send_clc(k.fd.get(), clc::decline(kSyncErr, 1, true));
				 tcp_duplex(c, k.fd.get(), "sync-decline: S-bit in place of the Confirm");
			 }
			 p.expect_link_down("sync-decline: S-bit in place of the Confirm");
			 Peer::Contact k = p.contact(port(3), true);
			 send_clc(k.fd.get(), clc::decline(kNoSmcrDev));
			 tcp_duplex(c, k.fd.get(), "sync-decline: the next contact is a first contact");
		 }},
		{"subsequent-abort",
		 "after the duplex exchange on --port, subsequent contacts on more TCP connections with our peer "
		 "ID: --port+1 Proposal, Accept, a Confirm announcing RMBE size code 15 (beyond what smcr takes), "
		 "then an RDMA write into the RMB element that Accept named, as a client may once its Confirm is "
		 "out (3.5.2.4); --port+1 again: Proposal, Accept, Decline; --port+2 Proposal, Accept, a Confirm "
		 "naming another QP than ours; --port+2 again: Proposal",
		 "no Decline after a subsequent contact's Accept (C.3): the bad Confirm is answered with a TCP "
		 "reset and not a byte; our write lands and the next Accept names another element - the first "
		 "stays out of use, no other connection gets it; that Decline falls back, data over TCP "
		 "byte-exact; the Confirm with another QP is reset too and the server ends the link group (out of "
		 "sync, C.4: DELETE LINK on our link); the last Proposal gets a first contact, which we decline, "
		 "data byte-exact",
		 [](Peer &p, const Config &c) {
			 const auto port = [&](int i) { return static_cast<uint16_t>(c.port + i); };
			 p.duplex(c.bytes);
			 Peer::Contact bad = p.contact(port(1));
			 clc::AcceptConfirmSpec conf = p.confirm_spec();
			 conf.rmbe_size_code = 15;
			 send_clc(bad.fd.get(), clc::accept_confirm(clc::Confirm, conf));
			 expect_reset(p, bad.fd.get(), "subsequent-abort: unusable RMB element in the Confirm");
			 if (p.write_at(bad.rmbe_addr(), bad.acc.rmb_rkey, 4096) != IBV_WC_SUCCESS)
				 throw Failure("subsequent-abort: our write into the element of the aborted contact "
					       "failed (" + p.link_error() + ")");
			 {
				 Peer::Contact k = p.contact(port(1));
				 if (k.rmbe_addr() == bad.rmbe_addr())
					 throw Failure("subsequent-abort: the next Accept names the element of the aborted "
						       "contact, which we may be writing into");
				 say("subsequent-abort: the next Accept names another element");
				 send_clc(k.fd.get(), clc::decline(kNoSmcrDev));
				 tcp_duplex(c, k.fd.get(), "subsequent-abort: Decline in place of the Confirm");
			 }
			 p.expect_link_alive("subsequent-abort: after the reset");
			 {
				 Peer::Contact k = p.contact(port(2));
				 conf = p.confirm_spec();
				 conf.qpn = (conf.qpn + 1) & 0xffffff;
				 send_clc(k.fd.get(), clc::accept_confirm(clc::Confirm, conf));
				 expect_reset(p, k.fd.get(), "subsequent-abort: another QP in the Confirm");
			 }
			 p.expect_link_down("subsequent-abort: another QP in the Confirm");
			 Peer::Contact k = p.contact(port(2), true);
			 send_clc(k.fd.get(), clc::decline(kNoSmcrDev));
			 tcp_duplex(c, k.fd.get(), "subsequent-abort: the next contact is a first contact");
		 }},
		{"rmbe-conflict",
		 "the duplex exchange on --port without our close (connection 1 stays open: smcr's application "
		 "waits for our end of data), then a subsequent contact on --port+1 whose Confirm names the very "
		 "RMB element connection 1's Confirm named (same rkey, address, index and size; another alert "
		 "token), the duplex exchange and an orderly close on it; then DELETE LINK",
		 "the element is in use by connection 1, so smcr aborts connection 1 (RFC 7609 3.5.2.3, 4.4.2): "
		 "its TCP connection ends with a reset, it writes nothing more into the element (a CDC message "
		 "for connection 1 after the Confirm carries A and no producer advance), its application fails "
		 "with ECONNRESET (checked on smcr's host); connection 2 proceeds normally: byte-exact both ways "
		 "through the element, C answered with C; the link lives (TEST LINK answered) until our DELETE "
		 "LINK ends the link group",
		 [](Peer &p, const Config &c) {
			 const std::string label = "rmbe-conflict";
			 p.duplex(c.bytes, false);
			 // connection 1's last consumer update comes before the
			 // Confirm: what comes after it is the abort's
			 p.pump_for(1000);
			 Peer::Contact k = p.contact(static_cast<uint16_t>(c.port + 1));
			 clc::AcceptConfirmSpec conf = p.confirm_spec();
			 conf.alert_token = kOurToken + 1;
			 send_clc(k.fd.get(), clc::accept_confirm(clc::Confirm, conf));
			 UniqueFd old = p.take_over(std::move(k), conf.alert_token);
			 p.duplex(c.bytes);
			 say(label + ": connection 2 byte-exact through connection 1's element");
			 const std::string end = p.tcp_end(old.get(), kWaitMs);
			 say(label + ": connection 1's TCP connection: " + end);
			 if (end != "RST")
				 throw Failure(label + ": connection 1's TCP connection is " +
					       (end == "open" ? std::string("still open") : "ended with " + end) +
					       " after connection 2 took its RMB element: smcr did not abort connection "
					       "1 (RFC 7609 4.4.2)");
			 const Peer::OldConn &o = *p.old_conn();
			 say(label + ": connection 1 after the Confirm: " + std::to_string(o.cdcs) + " CDC message(s), " +
			     std::to_string(o.aborts) + " with A, " + std::to_string(o.writes) + " with data");
			 if (o.writes)
				 throw Failure(label + ": smcr wrote into the element for connection 1 after connection "
						       "2 took it (RFC 7609 4.4.2: no RDMA write to it)");
			 if (o.cdcs != o.aborts)
				 throw Failure(label + ": smcr sent connection 1 a CDC message without A after "
						       "connection 2 took its element");
			 p.expect_link_alive(label);
			 p.send_msg(wire::delete_link_build(false, true, true, 0, 0x00020000));
			 p.expect_link_down(label + ": our DELETE LINK");
		 }},
		{"send-imm", "a TEST LINK request sent as SEND with immediate data",
		 "protocol violation: smcr takes the link down (link group ends, connection reset)",
		 [](Peer &p, const Config &) {
			 wire::Msg m = wire::llc_build(wire::kTestLink, 0);
			 p.send_raw(m, 0x12345678);
			 p.expect_link_down("send-imm");
		 }},
		{"write-imm", "an RDMA write with immediate data into the server's RMBE (it consumes a receive "
			      "buffer whose old content is no message)",
		 "protocol violation: smcr takes the link down; the stale receive buffer is not handled again",
		 [](Peer &p, const Config &) {
			 p.write_imm(0x12345678);
			 p.expect_link_down("write-imm");
		 }},
		{"send-short", "a 20-byte SEND (the start of a TEST LINK request)",
		 "protocol violation: smcr takes the link down",
		 [](Peer &p, const Config &) {
			 wire::Msg m = wire::llc_build(wire::kTestLink, 0);
			 p.send_raw(std::span<const uint8_t>(m).first(20));
			 p.expect_link_down("send-short");
		 }},
	};
	static const std::vector<Script> all = [] {
		std::vector<Script> v(own.begin(), own.begin() + 1);
		v.insert(v.end(), cdc_scripts().begin(), cdc_scripts().end());
		v.insert(v.end(), own.begin() + 1, own.end());
		v.insert(v.end(), rkey_scripts().begin(), rkey_scripts().end());
		v.insert(v.end(), link_scripts().begin(), link_scripts().end());
		v.insert(v.end(), v2_scripts().begin(), v2_scripts().end());
		return v;
	}();
	return all;
}

} // namespace

} // namespace smctest::linkpeer

namespace smctest {

int run_link_peer(const Config &c)
{
	using linkpeer::Peer;
	using linkpeer::Script;
	using linkpeer::scripts;
	if (c.list) {
		for (const auto &s : scripts())
			std::cout << s.name << "\t" << s.desc << "\texpect: " << s.expect << "\n";
		return 0;
	}
	auto it = std::find_if(scripts().begin(), scripts().end(), [&](const Script &s) { return c.script == s.name; });
	if (it == scripts().end())
		throw smcr::ArgError("unknown link-peer script '" + c.script + "' (smctest link-peer --list)");
	Peer p(c);
	p.announce_max_links(it->max_links);
	p.establish();
	it->run(p, c);
	say("link-peer " + c.script + ": ok (" + it->expect + ")");
	return 0;
}

} // namespace smctest