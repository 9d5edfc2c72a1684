// What the smcr admin tool reads from the SMC_GEN_NETLINK family, as plain
// data: filled by the netlink client (nl.cpp), printed by format.cpp, and
// built by hand in the unit tests.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace smcr::admin {

struct SysInfo {
	uint8_t version = 0;
	uint8_t release = 0;
	bool ism_v2 = false;
	bool smcr_v2 = false;
	std::string hostname;		  // trailing blanks removed
	std::optional<std::string> seid;  // only when the kernel reports one
	std::optional<uint32_t> ueid_cnt; // smcr extension; absent on Linux's SMC
};

struct Link {
	uint32_t lgr_id = 0;
	uint8_t id = 0;
	uint32_t state = 0;
	uint32_t conn_cnt = 0;
	uint8_t ibport = 0;
	uint32_t ifindex = 0;
	std::string ibdev;
	uint32_t uid = 0, peer_uid = 0;
	std::string gid, peer_gid;
};

struct LinkGroup {
	uint32_t id = 0;
	uint8_t role = 0; // 0 client, 1 server
	uint8_t type = 0;
	uint8_t vlan = 0;
	uint32_t conns = 0;
	std::string pnetid;
	uint64_t net_cookie = 0;
	uint64_t sndbuf_alloc = 0, rmb_alloc = 0;
	std::optional<uint8_t> v2_version; // set for SMC-R v2 link groups
	uint8_t v2_release = 0;
	std::optional<bool> v2_direct; // v2: the peer's GID is reached without a router
	std::string peer_host, neg_eid;
	std::vector<Link> links; // filled by the link dump only
};

struct Port {
	uint8_t number = 0; // 1 or 2
	bool pnet_usr = false;
	std::string pnetid;
	uint32_t ifindex = 0;
	uint8_t state = 0;
	uint32_t lnk_cnt = 0;
};

struct Device {
	std::string ibname;
	bool is_crit = false;
	std::string pci_id;
	uint16_t pci_vendor = 0, pci_device = 0;
	std::vector<Port> ports;
};

inline constexpr size_t kBuckets = 9; // 8K, 16K, ..., 1024K, >1024K

struct BufEvents {
	uint64_t small_peer = 0, small = 0, full_peer = 0, full = 0;
	uint64_t reuse = 0, alloc = 0, dgrade = 0;
};

// One direction of SMC-R traffic.
struct Dir {
	uint64_t calls = 0, bytes = 0;
	std::array<uint64_t, kBuckets> payload{};  // call sizes
	std::array<uint64_t, kBuckets> buf_size{}; // buffer sizes
	BufEvents buf;
	uint64_t buf_usage = 0; // bytes of buffers in use
};

struct TechStats {
	uint64_t clnt_v1 = 0, clnt_v2 = 0, srv_v1 = 0, srv_v2 = 0;
	uint64_t sendpage = 0, splice = 0, cork = 0, nodelay = 0, urg = 0;
	Dir tx, rx;
};

struct Stats {
	TechStats smcr;
	uint64_t clnt_hs_err = 0, srv_hs_err = 0;
};

struct FallbackEntry {
	bool server = false;
	uint32_t code = 0;
	uint64_t count = 0;
};

struct FallbackStats {
	uint64_t clnt_total = 0, srv_total = 0;
	std::vector<FallbackEntry> entries;
};

} // namespace smcr::admin
