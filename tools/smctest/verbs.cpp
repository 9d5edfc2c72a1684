#include "verbs.hpp"

#include <net/if.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "net.hpp"

namespace smctest::verbs {

namespace fs = std::filesystem;

namespace {

std::string read_line(const fs::path &p)
{
	std::ifstream f(p);
	std::string s;
	std::getline(f, s);
	return s;
}

bool parse_mac(const std::string &s, std::array<uint8_t, 6> &out)
{
	unsigned v[6];
	if (std::sscanf(s.c_str(), "%2x:%2x:%2x:%2x:%2x:%2x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6)
		return false;
	for (int i = 0; i < 6; ++i)
		out[i] = static_cast<uint8_t>(v[i]);
	return true;
}

void check(int rc, const char *what)
{
	if (rc)
		throw_errno(what, rc > 0 ? rc : errno);
}

} // namespace

std::vector<Port> ports_ipv4()
{
	std::vector<Port> v;
	int n = 0;
	std::unique_ptr<ibv_device *, Deleter<ibv_free_device_list>> list(ibv_get_device_list(&n));
	for (int i = 0; list && i < n; ++i) {
		Context ctx(ibv_open_device(list.get()[i]));
		ibv_device_attr da{};
		if (!ctx || ibv_query_device(ctx.get(), &da))
			continue;
		size_t max = 0;
		for (uint8_t port = 1; port <= da.phys_port_cnt; ++port) {
			ibv_port_attr pa{};
			if (!ibv_query_port(ctx.get(), port, &pa))
				max += pa.gid_tbl_len;
		}
		// the valid entries only, in one ioctl (sysfs has a file per
		// entry, valid or not: 1024 per rxe port, seconds on a debug
		// kernel under TCG)
		std::vector<ibv_gid_entry> gids(max);
		const ssize_t got = max ? ibv_query_gid_table(ctx.get(), gids.data(), gids.size(), 0) : 0;
		for (ssize_t k = 0; k < got; ++k) {
			const ibv_gid_entry &e = gids[static_cast<size_t>(k)];
			Gid gid;
			std::memcpy(gid.data(), e.gid.raw, gid.size());
			// ::ffff:a.b.c.d
			if (e.gid_type != IBV_GID_TYPE_ROCE_V2 ||
			    std::any_of(gid.begin(), gid.begin() + 10, [](uint8_t b) { return b; }) ||
			    gid[10] != 0xff || gid[11] != 0xff)
				continue;
			char ndev[IF_NAMESIZE];
			if (!if_indextoname(e.ndev_ifindex, ndev))
				continue;
			Port p;
			p.dev = ibv_get_device_name(list.get()[i]);
			p.port = static_cast<uint8_t>(e.port_num);
			p.gid_index = static_cast<int>(e.gid_index);
			p.gid = gid;
			if (!parse_mac(read_line(fs::path("/sys/class/net") / ndev / "address"), p.mac))
				throw Failure(std::string("no MAC address for ") + ndev);
			v.push_back(p);
		}
	}
	return v;
}

Port find_port_ipv4(const std::vector<Port> &ports, uint32_t addr)
{
	Gid want{};
	want[10] = want[11] = 0xff;
	std::memcpy(&want[12], &addr, 4);
	for (const Port &p : ports)
		if (p.gid == want)
			return p;
	throw Skip("no RoCE v2 GID for this address on any RDMA device (rdma link add rxe0 type rxe netdev ...)");
}

void Buffer::Free::operator()(uint8_t *p) const noexcept
{
	std::free(p);
}

Buffer::Buffer(size_t size) : size_(size)
{
	size_t alloc = (size + 4095) & ~size_t{4095};
	mem_.reset(static_cast<uint8_t *>(std::aligned_alloc(4096, alloc ? alloc : 4096)));
	if (!mem_)
		throw std::bad_alloc();
	std::memset(mem_.get(), 0, alloc);
}

RcLink::RcLink(const Port &port, unsigned send_depth, unsigned recv_depth) : port_(port)
{
	int n = 0;
	std::unique_ptr<ibv_device *, Deleter<ibv_free_device_list>> list(ibv_get_device_list(&n));
	if (!list)
		throw_errno("ibv_get_device_list", errno);
	for (int i = 0; i < n && !ctx_; ++i)
		if (port_.dev == ibv_get_device_name(list.get()[i]))
			ctx_.reset(ibv_open_device(list.get()[i]));
	if (!ctx_)
		throw Failure("cannot open RDMA device " + port_.dev);
	ibv_port_attr pa{};
	check(ibv_query_port(ctx_.get(), port_.port, &pa), "ibv_query_port");
	port_.active_mtu = pa.active_mtu;
	pd_.reset(ibv_alloc_pd(ctx_.get()));
	if (!pd_)
		throw_errno("ibv_alloc_pd", errno);
	channel_.reset(ibv_create_comp_channel(ctx_.get()));
	if (!channel_)
		throw_errno("ibv_create_comp_channel", errno);
	cq_.reset(ibv_create_cq(ctx_.get(), static_cast<int>(send_depth + recv_depth), nullptr, channel_.get(), 0));
	if (!cq_)
		throw_errno("ibv_create_cq", errno);
	check(ibv_req_notify_cq(cq_.get(), 0), "ibv_req_notify_cq");
	ibv_qp_init_attr qa{};
	qa.send_cq = cq_.get();
	qa.recv_cq = cq_.get();
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = send_depth;
	qa.cap.max_recv_wr = recv_depth;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qp_.reset(ibv_create_qp(pd_.get(), &qa));
	if (!qp_)
		throw_errno("ibv_create_qp", errno);
	std::random_device rd;
	psn_ = rd() & 0xffffff;
}

RcLink::~RcLink()
{
	// ibv_destroy_cq() waits until every event taken from the channel
	// was acknowledged.
	if (unacked_events_)
		ibv_ack_cq_events(cq_.get(), unacked_events_);
}

Mr RcLink::reg(Buffer &b, int access)
{
	Mr mr(ibv_reg_mr(pd_.get(), b.data(), b.size(), access));
	if (!mr)
		throw_errno("ibv_reg_mr", errno);
	return mr;
}

void RcLink::to_init()
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = port_.port;
	a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE;
	check(ibv_modify_qp(qp_.get(), &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS),
	      "ibv_modify_qp(INIT)");
}

void RcLink::to_rtr(const Remote &r)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTR;
	path_mtu_ = std::min(r.mtu, port_.active_mtu);
	a.path_mtu = path_mtu_;
	a.dest_qp_num = r.qpn;
	a.rq_psn = r.psn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	std::memcpy(a.ah_attr.grh.dgid.raw, r.gid.data(), 16);
	a.ah_attr.grh.sgid_index = static_cast<uint8_t>(port_.gid_index);
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = port_.port;
	check(ibv_modify_qp(qp_.get(), &a,
			    IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				    IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER),
	      "ibv_modify_qp(RTR)");
}

void RcLink::to_rts()
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = psn_;
	a.max_rd_atomic = 1;
	check(ibv_modify_qp(qp_.get(), &a,
			    IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
				    IBV_QP_MAX_QP_RD_ATOMIC),
	      "ibv_modify_qp(RTS)");
}

void RcLink::to_error()
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_ERR;
	check(ibv_modify_qp(qp_.get(), &a, IBV_QP_STATE), "ibv_modify_qp(ERR)");
}

void RcLink::post_recv(uint64_t wr_id, const ibv_mr *mr, const void *addr, uint32_t len)
{
	ibv_sge sge{reinterpret_cast<uintptr_t>(addr), len, mr->lkey};
	ibv_recv_wr wr{};
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	ibv_recv_wr *bad = nullptr;
	check(ibv_post_recv(qp_.get(), &wr, &bad), "ibv_post_recv");
}

void RcLink::post(ibv_send_wr &wr)
{
	ibv_send_wr *bad = nullptr;
	check(ibv_post_send(qp_.get(), &wr, &bad), "ibv_post_send");
}

void RcLink::post_send(uint64_t wr_id, const ibv_mr *mr, const void *addr, uint32_t len, bool signaled)
{
	ibv_sge sge{reinterpret_cast<uintptr_t>(addr), len, mr->lkey};
	ibv_send_wr wr{};
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = signaled ? IBV_SEND_SIGNALED : 0;
	post(wr);
}

void RcLink::post_send_imm(uint64_t wr_id, const ibv_mr *mr, const void *addr, uint32_t len, uint32_t imm)
{
	ibv_sge sge{reinterpret_cast<uintptr_t>(addr), len, mr->lkey};
	ibv_send_wr wr{};
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.imm_data = imm;
	wr.send_flags = IBV_SEND_SIGNALED;
	post(wr);
}

void RcLink::post_write(uint64_t wr_id, const ibv_mr *mr, const void *addr, uint32_t len, uint64_t raddr,
			uint32_t rkey, bool signaled)
{
	ibv_sge sge{reinterpret_cast<uintptr_t>(addr), len, mr->lkey};
	ibv_send_wr wr{};
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = signaled ? IBV_SEND_SIGNALED : 0;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	post(wr);
}

void RcLink::post_write_imm(uint64_t wr_id, const ibv_mr *mr, const void *addr, uint32_t len, uint64_t raddr,
			    uint32_t rkey, uint32_t imm)
{
	ibv_sge sge{reinterpret_cast<uintptr_t>(addr), len, mr->lkey};
	ibv_send_wr wr{};
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.imm_data = imm;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	post(wr);
}

std::vector<ibv_wc> RcLink::poll(int timeout_ms, size_t max)
{
	std::vector<ibv_wc> out(max);
	uint64_t deadline = now_ms() + static_cast<uint64_t>(timeout_ms < 0 ? 0 : timeout_ms);
	for (;;) {
		int n = ibv_poll_cq(cq_.get(), static_cast<int>(max), out.data());
		if (n < 0)
			throw Failure("ibv_poll_cq failed");
		if (n > 0) {
			out.resize(static_cast<size_t>(n));
			return out;
		}
		uint64_t now = now_ms();
		if (now >= deadline)
			return {};
		// Sleep on the channel; re-arm, then poll once more so a
		// completion between the poll and the arm is not missed.
		pollfd pfd{channel_->fd, POLLIN, 0};
		if (::poll(&pfd, 1, static_cast<int>(std::min<uint64_t>(deadline - now, 100))) > 0) {
			ibv_cq *cq = nullptr;
			void *ctx = nullptr;
			if (!ibv_get_cq_event(channel_.get(), &cq, &ctx) && ++unacked_events_ >= 16) {
				ibv_ack_cq_events(cq_.get(), unacked_events_);
				unacked_events_ = 0;
			}
		}
		check(ibv_req_notify_cq(cq_.get(), 0), "ibv_req_notify_cq");
	}
}

std::string wc_status(ibv_wc_status s)
{
	return ibv_wc_status_str(s);
}

std::string gid_str(const Gid &g)
{
	std::string s;
	char b[8];
	for (size_t i = 0; i < g.size(); i += 2) {
		std::snprintf(b, sizeof(b), "%s%02x%02x", i ? ":" : "", g[i], g[i + 1]);
		s += b;
	}
	return s;
}

} // namespace smctest::verbs
