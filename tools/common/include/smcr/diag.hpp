// sock_diag client for AF_SMC sockets (smc_diag ABI).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace smcr {

struct DiagEntry {
	uint8_t family = 0;   // AF_INET / AF_INET6 of the internal TCP socket
	uint8_t state = 0;    // TCP_* state
	uint8_t mode = 0;     // SMC_DIAG_MODE_*
	uint8_t shutdown = 0; // SEND_SHUTDOWN / RCV_SHUTDOWN bits
	std::string src, dst;
	uint16_t sport = 0, dport = 0;
	uint32_t uid = 0;
	uint64_t inode = 0;
	bool has_fallback = false;
	uint32_t reason = 0;
	uint32_t peer_diagnosis = 0;
	// SMC_DIAG_CONNINFO (SMC-R connections)
	bool has_conn = false;
	uint32_t token = 0;	      // our alert token
	uint32_t sndbuf_size = 0;     // our send buffer
	uint32_t rmbe_size = 0;	      // our RMB element
	uint32_t peer_rmbe_size = 0;  // the peer's
	uint16_t rx_prod_wrap = 0;    // the peer's producer cursor in our RMBE
	uint32_t rx_prod_count = 0;
	uint16_t tx_prod_wrap = 0;    // ours in the peer's RMBE
	uint32_t tx_prod_count = 0;
	// the other cursors and the flags, for a stalled connection's dump
	// (smctest diag --kv)
	struct Cursor {
		uint16_t wrap = 0;
		uint32_t count = 0;
	};
	Cursor rx_cons, tx_cons, tx_prep, tx_sent, tx_fin;
	uint8_t rx_prod_flags = 0, rx_conn_flags = 0, tx_prod_flags = 0, tx_conn_flags = 0;
	// SMC_DIAG_LGRINFO
	bool has_lgr = false;
	uint8_t lgr_role = 0; // 0 client, 1 server
	uint8_t link_id = 0;
	std::string ibname;
};

enum class DiagParse { More, Done };

// Parses one recv() worth of netlink messages, appending sockets to out.
// Returns Done on NLMSG_DONE; throws std::system_error on NLMSG_ERROR and
// std::runtime_error on malformed data.
DiagParse diag_parse(std::span<const uint8_t> buf, std::vector<DiagEntry> &out);

// Dumps all AF_SMC sockets. Throws std::system_error (e.g. ENOENT when no
// module serves AF_SMC diag).
std::vector<DiagEntry> diag_dump_smc();

// Looks up the socket with this inode; nullopt if not listed.
std::optional<DiagEntry> diag_find_inode(uint64_t inode);

std::string tcp_state_name(uint8_t state);
std::string diag_mode_name(uint8_t mode); // "smcr", "fallback", "smcd"

} // namespace smcr
