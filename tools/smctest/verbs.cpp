#include "verbs.hpp"

#include <poll.h>

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

// "fe80:0000:...:0201" (sysfs) -> bytes; false if malformed.
bool parse_sysfs_gid(const std::string &s, Gid &out)
{
	unsigned v[8];
	if (std::sscanf(s.c_str(), "%4x:%4x:%4x:%4x:%4x:%4x:%4x:%4x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
			&v[6], &v[7]) != 8)
		return false;
	for (int i = 0; i < 8; ++i) {
		out[2 * i] = static_cast<uint8_t>(v[i] >> 8);
		out[2 * i + 1] = static_cast<uint8_t>(v[i]);
	}
	return true;
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

Port find_port_ipv4(uint32_t addr)
{
	Gid want{};
	want[10] = want[11] = 0xff;
	std::memcpy(&want[12], &addr, 4);
	const fs::path root = "/sys/class/infiniband";
	std::error_code ec;
	for (const auto &dev : fs::directory_iterator(root, ec)) {
		for (const auto &port : fs::directory_iterator(dev.path() / "ports", ec)) {
			for (const auto &g : fs::directory_iterator(port.path() / "gids", ec)) {
				Gid gid;
				if (!parse_sysfs_gid(read_line(g.path()), gid) || gid != want)
					continue;
				const auto idx = g.path().filename().string();
				const auto attrs = port.path() / "gid_attrs";
				if (read_line(attrs / "types" / idx) != "RoCE v2")
					continue;
				Port p;
				p.dev = dev.path().filename().string();
				p.port = static_cast<uint8_t>(std::stoi(port.path().filename().string()));
				p.gid_index = std::stoi(idx);
				p.gid = gid;
				const auto ndev = read_line(attrs / "ndevs" / idx);
				if (!parse_mac(read_line(fs::path("/sys/class/net") / ndev / "address"), p.mac))
					throw Failure("no MAC address for " + ndev);
				return p;
			}
		}
	}
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
