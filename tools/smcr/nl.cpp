#include "nl.hpp"

#include <linux/netlink.h>
#include <linux/smc.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <map>

#include "cli.hpp"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

namespace smcr::admin {

void NlSockDeleter::operator()(nl_sock *sk) const noexcept
{
	nl_socket_free(sk);
}

namespace {

struct NlMsgDeleter {
	void operator()(nl_msg *m) const noexcept { nlmsg_free(m); }
};
struct NlCbDeleter {
	void operator()(nl_cb *cb) const noexcept { nl_cb_put(cb); }
};
using NlMsgPtr = std::unique_ptr<nl_msg, NlMsgDeleter>;
using NlCbPtr = std::unique_ptr<nl_cb, NlCbDeleter>;

// Attributes of a nest (or of a message) by type; later duplicates win.
using AttrMap = std::map<int, const nlattr *>;

AttrMap attrs_of(const nlattr *head, int len)
{
	AttrMap m;
	const nlattr *a;
	int rem;
	nla_for_each_attr(a, const_cast<nlattr *>(head), len, rem)
		m[nla_type(a)] = a;
	return m;
}

AttrMap nested(const nlattr *nest)
{
	return attrs_of(static_cast<const nlattr *>(nla_data(nest)), nla_len(nest));
}

const nlattr *find(const AttrMap &m, int type)
{
	auto it = m.find(type);
	return it == m.end() ? nullptr : it->second;
}

// Integer of any width the kernel may use (u8/u16/u32/u64, NLA_UINT).
uint64_t num(const AttrMap &m, int type)
{
	const nlattr *a = find(m, type);
	if (!a)
		return 0;
	const void *d = nla_data(a);
	switch (nla_len(a)) {
	case 1: return *static_cast<const uint8_t *>(d);
	case 2: { uint16_t v; std::memcpy(&v, d, 2); return v; }
	case 4: { uint32_t v; std::memcpy(&v, d, 4); return v; }
	case 8: { uint64_t v; std::memcpy(&v, d, 8); return v; }
	}
	return 0;
}

std::string str(const AttrMap &m, int type)
{
	const nlattr *a = find(m, type);
	if (!a)
		return {};
	const char *d = static_cast<const char *>(nla_data(a));
	return trim_right(std::string_view(d, strnlen(d, static_cast<size_t>(nla_len(a)))));
}

void fill_hist(const AttrMap &t, int type, std::array<uint64_t, kBuckets> &h)
{
	if (const nlattr *n = find(t, type)) {
		AttrMap m = nested(n);
		for (size_t i = 0; i < kBuckets; ++i)
			h[i] = num(m, SMC_NLA_STATS_PLOAD_8K + static_cast<int>(i));
	}
}

void fill_bufev(const AttrMap &t, int type, BufEvents &b)
{
	if (const nlattr *n = find(t, type)) {
		AttrMap m = nested(n);
		b.small_peer = num(m, SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT);
		b.small = num(m, SMC_NLA_STATS_RMB_SIZE_SM_CNT);
		b.full_peer = num(m, SMC_NLA_STATS_RMB_FULL_PEER_CNT);
		b.full = num(m, SMC_NLA_STATS_RMB_FULL_CNT);
		b.reuse = num(m, SMC_NLA_STATS_RMB_REUSE_CNT);
		b.alloc = num(m, SMC_NLA_STATS_RMB_ALLOC_CNT);
		b.dgrade = num(m, SMC_NLA_STATS_RMB_DGRADE_CNT);
	}
}

void fill_tech(const nlattr *nest, TechStats &s)
{
	AttrMap t = nested(nest);
	fill_bufev(t, SMC_NLA_STATS_T_TX_RMB_STATS, s.tx.buf);
	fill_bufev(t, SMC_NLA_STATS_T_RX_RMB_STATS, s.rx.buf);
	fill_hist(t, SMC_NLA_STATS_T_TXPLOAD_SIZE, s.tx.payload);
	fill_hist(t, SMC_NLA_STATS_T_RXPLOAD_SIZE, s.rx.payload);
	fill_hist(t, SMC_NLA_STATS_T_TX_RMB_SIZE, s.tx.buf_size);
	fill_hist(t, SMC_NLA_STATS_T_RX_RMB_SIZE, s.rx.buf_size);
	s.clnt_v1 = num(t, SMC_NLA_STATS_T_CLNT_V1_SUCC);
	s.clnt_v2 = num(t, SMC_NLA_STATS_T_CLNT_V2_SUCC);
	s.srv_v1 = num(t, SMC_NLA_STATS_T_SRV_V1_SUCC);
	s.srv_v2 = num(t, SMC_NLA_STATS_T_SRV_V2_SUCC);
	s.sendpage = num(t, SMC_NLA_STATS_T_SENDPAGE_CNT);
	s.splice = num(t, SMC_NLA_STATS_T_SPLICE_CNT);
	s.cork = num(t, SMC_NLA_STATS_T_CORK_CNT);
	s.nodelay = num(t, SMC_NLA_STATS_T_NDLY_CNT);
	s.urg = num(t, SMC_NLA_STATS_T_URG_DATA_CNT);
	s.rx.bytes = num(t, SMC_NLA_STATS_T_RX_BYTES);
	s.tx.bytes = num(t, SMC_NLA_STATS_T_TX_BYTES);
	s.rx.calls = num(t, SMC_NLA_STATS_T_RX_CNT);
	s.tx.calls = num(t, SMC_NLA_STATS_T_TX_CNT);
	s.rx.buf_usage = num(t, SMC_NLA_STATS_T_RX_RMB_USAGE);
	s.tx.buf_usage = num(t, SMC_NLA_STATS_T_TX_RMB_USAGE);
}

// State shared with the libnl callbacks of one request.
struct Ctx {
	std::function<void(uint8_t, const nlattr *)> fn;
	int err = 0; // positive errno from an NLMSG_ERROR
	std::string extack;
	std::exception_ptr exc;
	bool acked = false;
};

int on_valid(nl_msg *msg, void *arg)
{
	auto *ctx = static_cast<Ctx *>(arg);
	if (!ctx->fn)
		return NL_OK;
	try {
		nlmsghdr *nlh = nlmsg_hdr(msg);
		auto *gh = static_cast<genlmsghdr *>(nlmsg_data(nlh));
		AttrMap top = attrs_of(genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0));
		if (top.empty())
			ctx->fn(gh->cmd, nullptr);
		for (const auto &[type, a] : top)
			ctx->fn(gh->cmd, a);
	} catch (...) {
		ctx->exc = std::current_exception();
		return NL_STOP;
	}
	return NL_OK;
}

int on_error(sockaddr_nl *, nlmsgerr *e, void *arg)
{
	auto *ctx = static_cast<Ctx *>(arg);
	ctx->err = -e->error;
	// Extended ack TLVs follow the error (and the request unless capped).
	auto *nlh = reinterpret_cast<nlmsghdr *>(reinterpret_cast<char *>(e) - NLMSG_HDRLEN);
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		size_t off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
		off = NLMSG_ALIGN(off);
		size_t payload = nlh->nlmsg_len - NLMSG_HDRLEN;
		if (off < payload) {
			auto *head = reinterpret_cast<nlattr *>(reinterpret_cast<char *>(e) + off);
			AttrMap m = attrs_of(head, static_cast<int>(payload - off));
			ctx->extack = str(m, NLMSGERR_ATTR_MSG);
		}
	}
	return NL_STOP;
}

int on_ack(nl_msg *, void *arg)
{
	static_cast<Ctx *>(arg)->acked = true;
	return NL_STOP;
}

[[noreturn]] void throw_local(int nlerr, const std::string &what)
{
	throw NlError(NlError::Kind::Local, nlerr, what + ": " + nl_geterror(nlerr));
}

} // namespace

Client::Client() : sk_(nl_socket_alloc())
{
	if (!sk_)
		throw NlError(NlError::Kind::Local, NLE_NOMEM, "cannot allocate a netlink socket");
	int rc = genl_connect(sk_.get());
	if (rc < 0)
		throw_local(rc, "generic netlink socket");
	int one = 1;
	// Best effort: the kernel's error messages (extended ack).
	(void)setsockopt(nl_socket_get_fd(sk_.get()), SOL_NETLINK, NETLINK_EXT_ACK, &one,
			 sizeof(one));
	family_ = genl_ctrl_resolve(sk_.get(), SMC_GENL_FAMILY_NAME);
	if (family_ < 0) {
		if (family_ == -NLE_OBJ_NOTFOUND)
			throw NlError(NlError::Kind::NoFamily, ENOENT,
				      SMC_GENL_FAMILY_NAME " family not found: is smcr.ko loaded?");
		throw_local(family_, "resolving " SMC_GENL_FAMILY_NAME);
	}
}

void Client::dump(uint8_t cmd, const std::function<void()> &reset,
		  const std::function<void(uint8_t, const nlattr *)> &fn)
{
	for (int attempt = 0;; ++attempt) {
		reset();
		NlMsgPtr msg(nlmsg_alloc());
		NlCbPtr cb(nl_cb_alloc(NL_CB_DEFAULT));
		if (!msg || !cb)
			throw NlError(NlError::Kind::Local, NLE_NOMEM, "out of memory");
		if (!genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family_, 0, NLM_F_DUMP, cmd,
				 SMC_GENL_FAMILY_VERSION))
			throw NlError(NlError::Kind::Local, NLE_NOMEM, "cannot build request");
		Ctx ctx;
		ctx.fn = fn;
		nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &ctx);
		nl_cb_err(cb.get(), NL_CB_CUSTOM, on_error, &ctx);
		int rc = nl_send_auto(sk_.get(), msg.get());
		if (rc < 0)
			throw_local(rc, "sending request");
		rc = nl_recvmsgs(sk_.get(), cb.get());
		if (ctx.exc)
			std::rethrow_exception(ctx.exc);
		if (rc == -NLE_DUMP_INTR && attempt < 10)
			continue; // the data changed during the dump: start over
		if (ctx.err) {
			NlError e(NlError::Kind::Kernel, ctx.err, std::strerror(ctx.err));
			e.extack = ctx.extack;
			throw e;
		}
		if (rc < 0)
			throw_local(rc, "receiving");
		return;
	}
}

void Client::request(uint8_t cmd, const std::string *ueid)
{
	NlMsgPtr msg(nlmsg_alloc());
	NlCbPtr cb(nl_cb_alloc(NL_CB_DEFAULT));
	if (!msg || !cb)
		throw NlError(NlError::Kind::Local, NLE_NOMEM, "out of memory");
	if (!genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family_, 0, NLM_F_ACK, cmd,
			 SMC_GENL_FAMILY_VERSION))
		throw NlError(NlError::Kind::Local, NLE_NOMEM, "cannot build request");
	if (ueid) {
		std::string padded = ueid_pad(*ueid); // + the NUL nla_put_string adds
		if (nla_put_string(msg.get(), SMC_NLA_EID_TABLE_ENTRY, padded.c_str()) < 0)
			throw NlError(NlError::Kind::Local, NLE_NOMEM, "cannot build request");
	}
	Ctx ctx;
	nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, on_ack, &ctx);
	nl_cb_err(cb.get(), NL_CB_CUSTOM, on_error, &ctx);
	int rc = nl_send_auto(sk_.get(), msg.get());
	if (rc < 0)
		throw_local(rc, "sending request");
	while (!ctx.acked && !ctx.err) {
		rc = nl_recvmsgs(sk_.get(), cb.get());
		if (rc < 0 && !ctx.err)
			throw_local(rc, "receiving");
	}
	if (ctx.err) {
		NlError e(NlError::Kind::Kernel, ctx.err, std::strerror(ctx.err));
		e.extack = ctx.extack;
		throw e;
	}
}

SysInfo Client::sys_info()
{
	SysInfo info;
	dump(
		SMC_NETLINK_GET_SYS_INFO, [&] { info = SysInfo{}; },
		[&](uint8_t, const nlattr *a) {
			if (!a || nla_type(a) != SMC_GEN_SYS_INFO)
				return;
			AttrMap m = nested(a);
			info.version = static_cast<uint8_t>(num(m, SMC_NLA_SYS_VER));
			info.release = static_cast<uint8_t>(num(m, SMC_NLA_SYS_REL));
			info.ism_v2 = num(m, SMC_NLA_SYS_IS_ISM_V2) != 0;
			info.smcr_v2 = num(m, SMC_NLA_SYS_IS_SMCR_V2) != 0;
			info.hostname = str(m, SMC_NLA_SYS_LOCAL_HOST);
			if (find(m, SMC_NLA_SYS_SEID))
				info.seid = str(m, SMC_NLA_SYS_SEID);
			if (find(m, SMCR_NLA_SYS_UEID_CNT))
				info.ueid_cnt = static_cast<uint32_t>(num(m, SMCR_NLA_SYS_UEID_CNT));
		});
	return info;
}

std::vector<LinkGroup> Client::link_groups(bool with_links)
{
	std::vector<LinkGroup> out;
	dump(
		with_links ? SMC_NETLINK_GET_LINK_SMCR : SMC_NETLINK_GET_LGR_SMCR, [&] { out.clear(); },
		[&](uint8_t, const nlattr *a) {
			if (!a)
				return;
			AttrMap m = nested(a);
			if (nla_type(a) == SMC_GEN_LGR_SMCR) {
				LinkGroup g;
				g.id = static_cast<uint32_t>(num(m, SMC_NLA_LGR_R_ID));
				g.role = static_cast<uint8_t>(num(m, SMC_NLA_LGR_R_ROLE));
				g.type = static_cast<uint8_t>(num(m, SMC_NLA_LGR_R_TYPE));
				g.vlan = static_cast<uint8_t>(num(m, SMC_NLA_LGR_R_VLAN_ID));
				g.conns = static_cast<uint32_t>(num(m, SMC_NLA_LGR_R_CONNS_NUM));
				g.pnetid = str(m, SMC_NLA_LGR_R_PNETID);
				g.net_cookie = num(m, SMC_NLA_LGR_R_NET_COOKIE);
				g.sndbuf_alloc = num(m, SMC_NLA_LGR_R_SNDBUF_ALLOC);
				g.rmb_alloc = num(m, SMC_NLA_LGR_R_RMB_ALLOC);
				if (const nlattr *v2 = find(m, SMC_NLA_LGR_R_V2_COMMON)) {
					AttrMap v = nested(v2);
					g.v2_version = static_cast<uint8_t>(num(v, SMC_NLA_LGR_V2_VER));
					g.v2_release = static_cast<uint8_t>(num(v, SMC_NLA_LGR_V2_REL));
					g.peer_host = str(v, SMC_NLA_LGR_V2_PEER_HOST);
					g.neg_eid = str(v, SMC_NLA_LGR_V2_NEG_EID);
				}
				if (const nlattr *r2 = find(m, SMC_NLA_LGR_R_V2)) {
					AttrMap v = nested(r2);
					if (find(v, SMC_NLA_LGR_R_V2_DIRECT))
						g.v2_direct = num(v, SMC_NLA_LGR_R_V2_DIRECT) != 0;
				}
				out.push_back(std::move(g));
			} else if (nla_type(a) == SMC_GEN_LINK_SMCR && !out.empty()) {
				Link l;
				l.lgr_id = out.back().id;
				l.id = static_cast<uint8_t>(num(m, SMC_NLA_LINK_ID));
				l.state = static_cast<uint32_t>(num(m, SMC_NLA_LINK_STATE));
				l.conn_cnt = static_cast<uint32_t>(num(m, SMC_NLA_LINK_CONN_CNT));
				l.ibport = static_cast<uint8_t>(num(m, SMC_NLA_LINK_IB_PORT));
				l.ifindex = static_cast<uint32_t>(num(m, SMC_NLA_LINK_NET_DEV));
				l.ibdev = str(m, SMC_NLA_LINK_IB_DEV);
				l.uid = static_cast<uint32_t>(num(m, SMC_NLA_LINK_UID));
				l.peer_uid = static_cast<uint32_t>(num(m, SMC_NLA_LINK_PEER_UID));
				l.gid = str(m, SMC_NLA_LINK_GID);
				l.peer_gid = str(m, SMC_NLA_LINK_PEER_GID);
				out.back().links.push_back(std::move(l));
			}
		});
	return out;
}

std::vector<Device> Client::devices()
{
	std::vector<Device> out;
	dump(
		SMC_NETLINK_GET_DEV_SMCR, [&] { out.clear(); },
		[&](uint8_t, const nlattr *a) {
			if (!a || nla_type(a) != SMC_GEN_DEV_SMCR)
				return;
			AttrMap m = nested(a);
			Device d;
			d.ibname = str(m, SMC_NLA_DEV_IB_NAME);
			d.is_crit = num(m, SMC_NLA_DEV_IS_CRIT) != 0;
			d.pci_id = str(m, SMC_NLA_DEV_PCI_ID);
			d.pci_vendor = static_cast<uint16_t>(num(m, SMC_NLA_DEV_PCI_VENDOR));
			d.pci_device = static_cast<uint16_t>(num(m, SMC_NLA_DEV_PCI_DEVICE));
			for (int i = 0; i < 2; ++i) {
				const nlattr *pa = find(m, SMC_NLA_DEV_PORT + i);
				if (!pa)
					continue;
				AttrMap p = nested(pa);
				Port port;
				port.number = static_cast<uint8_t>(i + 1);
				port.pnet_usr = num(p, SMC_NLA_DEV_PORT_PNET_USR) != 0;
				port.pnetid = str(p, SMC_NLA_DEV_PORT_PNETID);
				port.ifindex = static_cast<uint32_t>(num(p, SMC_NLA_DEV_PORT_NETDEV));
				port.state = static_cast<uint8_t>(num(p, SMC_NLA_DEV_PORT_STATE));
				port.lnk_cnt = static_cast<uint32_t>(num(p, SMC_NLA_DEV_PORT_LNK_CNT));
				d.ports.push_back(std::move(port));
			}
			out.push_back(std::move(d));
		});
	return out;
}

Stats Client::stats()
{
	Stats st;
	dump(
		SMC_NETLINK_GET_STATS, [&] { st = Stats{}; },
		[&](uint8_t, const nlattr *a) {
			if (!a || nla_type(a) != SMC_GEN_STATS)
				return;
			AttrMap m = nested(a);
			if (const nlattr *r = find(m, SMC_NLA_STATS_SMCR_TECH))
				fill_tech(r, st.smcr);
			st.clnt_hs_err = num(m, SMC_NLA_STATS_CLNT_HS_ERR_CNT);
			st.srv_hs_err = num(m, SMC_NLA_STATS_SRV_HS_ERR_CNT);
		});
	return st;
}

FallbackStats Client::fallback_stats()
{
	FallbackStats fb;
	dump(
		SMC_NETLINK_GET_FBACK_STATS, [&] { fb = FallbackStats{}; },
		[&](uint8_t, const nlattr *a) {
			if (!a || nla_type(a) != SMC_GEN_FBACK_STATS)
				return;
			AttrMap m = nested(a);
			if (find(m, SMC_NLA_FBACK_STATS_SRV_CNT))
				fb.srv_total = num(m, SMC_NLA_FBACK_STATS_SRV_CNT);
			if (find(m, SMC_NLA_FBACK_STATS_CLNT_CNT))
				fb.clnt_total = num(m, SMC_NLA_FBACK_STATS_CLNT_CNT);
			FallbackEntry e;
			e.server = num(m, SMC_NLA_FBACK_STATS_TYPE) != 0;
			e.code = static_cast<uint32_t>(num(m, SMC_NLA_FBACK_STATS_RSN_CODE));
			// smcr's full count when present, else Linux's 16-bit one
			e.count = find(m, SMCR_NLA_FBACK_STATS_RSN_CNT64)
					  ? num(m, SMCR_NLA_FBACK_STATS_RSN_CNT64)
					  : num(m, SMC_NLA_FBACK_STATS_RSN_CNT);
			if (e.code)
				fb.entries.push_back(e);
		});
	return fb;
}

std::vector<std::string> Client::ueids()
{
	std::vector<std::string> out;
	dump(
		SMC_NETLINK_DUMP_UEID, [&] { out.clear(); },
		[&](uint8_t, const nlattr *a) {
			if (a && nla_type(a) == SMC_NLA_EID_TABLE_ENTRY) {
				const char *d = static_cast<const char *>(nla_data(a));
				out.push_back(trim_right(
					std::string_view(d, strnlen(d, static_cast<size_t>(nla_len(a))))));
			}
		});
	return out;
}

void Client::ueid_add(const std::string &ueid)
{
	request(SMC_NETLINK_ADD_UEID, &ueid);
}

void Client::ueid_del(const std::string &ueid)
{
	request(SMC_NETLINK_REMOVE_UEID, &ueid);
}

void Client::ueid_flush()
{
	request(SMC_NETLINK_FLUSH_UEID, nullptr);
}

void Client::stats_reset()
{
	request(SMCR_NETLINK_RESET_STATS, nullptr);
}

} // namespace smcr::admin
