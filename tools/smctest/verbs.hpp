// RAII around the libibverbs objects smctest's link peer uses: one RC QP on
// a RoCE port, its CQ and PD, and memory regions. Every object is owned by a
// std::unique_ptr with the matching ibv_destroy/ibv_dealloc/ibv_dereg call,
// so a failed script tears down what it built in reverse order.
#pragma once

#include <infiniband/verbs.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace smctest::verbs {

template <auto Fn> struct Deleter {
	template <typename T> void operator()(T *p) const noexcept
	{
		if (p)
			Fn(p);
	}
};

using Context = std::unique_ptr<ibv_context, Deleter<ibv_close_device>>;
using Pd = std::unique_ptr<ibv_pd, Deleter<ibv_dealloc_pd>>;
using Cq = std::unique_ptr<ibv_cq, Deleter<ibv_destroy_cq>>;
using Qp = std::unique_ptr<ibv_qp, Deleter<ibv_destroy_qp>>;
using Mr = std::unique_ptr<ibv_mr, Deleter<ibv_dereg_mr>>;

using Gid = std::array<uint8_t, 16>;

// A RoCE port and the GID of one of its IP addresses.
struct Port {
	std::string dev;	// e.g. rxe0
	uint8_t port = 1;
	int gid_index = -1;
	Gid gid{};
	std::array<uint8_t, 6> mac{};
	ibv_mtu active_mtu = IBV_MTU_1024;
};

// Every RoCE v2 IPv4-mapped GID of this host's RDMA ports (their GID
// tables), with its port.
std::vector<Port> ports_ipv4();
// The one of ports for the IPv4 address addr (network order); throws
// Skip if there is none.
Port find_port_ipv4(const std::vector<Port> &ports, uint32_t addr);

// Memory owned by the process, page-aligned, zeroed; registered separately.
class Buffer {
public:
	explicit Buffer(size_t size);
	uint8_t *data() { return mem_.get(); }
	const uint8_t *data() const { return mem_.get(); }
	size_t size() const { return size_; }

private:
	struct Free {
		void operator()(uint8_t *p) const noexcept;
	};
	std::unique_ptr<uint8_t, Free> mem_;
	size_t size_;
};

// What RTR/RTS need from the other end (CLC Accept or Confirm).
struct Remote {
	Gid gid{};
	uint32_t qpn = 0;
	uint32_t psn = 0;
	ibv_mtu mtu = IBV_MTU_1024;
};

// One RC QP with its own PD and CQ (send and receive share the CQ).
class RcLink {
public:
	RcLink(const Port &port, unsigned send_depth, unsigned recv_depth);
	~RcLink();
	RcLink(const RcLink &) = delete;
	RcLink &operator=(const RcLink &) = delete;

	ibv_pd *pd() const { return pd_.get(); }
	uint32_t qpn() const { return qp_->qp_num; }
	uint32_t psn() const { return psn_; }
	const Port &port() const { return port_; }

	Mr reg(Buffer &b, int access);
	void to_init();
	void to_rtr(const Remote &r);
	void to_rts();
	// Moves the QP to the error state: every posted WR is flushed and the
	// peer's next packets find no QP (its transport retries run out).
	void to_error();

	// Posting; wr_id is returned in the completion. Throws on failure.
	void post_recv(uint64_t wr_id, const ibv_mr *mr, const void *addr, uint32_t len);
	void post_send(uint64_t wr_id, const ibv_mr *mr, const void *addr, uint32_t len, bool signaled = true);
	void post_send_imm(uint64_t wr_id, const ibv_mr *mr, const void *addr, uint32_t len, uint32_t imm);
	void post_write(uint64_t wr_id, const ibv_mr *mr, const void *addr, uint32_t len, uint64_t raddr,
			uint32_t rkey, bool signaled = true);
	void post_write_imm(uint64_t wr_id, const ibv_mr *mr, const void *addr, uint32_t len, uint64_t raddr,
			    uint32_t rkey, uint32_t imm);

	// Up to max completions, waiting at most timeout_ms for the first.
	std::vector<ibv_wc> poll(int timeout_ms, size_t max = 32);

private:
	void post(ibv_send_wr &wr);

	Port port_;
	Context ctx_;
	Pd pd_;
	std::unique_ptr<ibv_comp_channel, Deleter<ibv_destroy_comp_channel>> channel_;
	Cq cq_;
	Qp qp_;
	uint32_t psn_;
	ibv_mtu path_mtu_ = IBV_MTU_1024;
	unsigned unacked_events_ = 0;
};

std::string wc_status(ibv_wc_status s);
std::string gid_str(const Gid &g);

} // namespace smctest::verbs
