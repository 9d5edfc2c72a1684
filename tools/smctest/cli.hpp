// smctest command line: one Config for every subcommand.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace smctest {

enum class Command { Help, Server, Client, Diag, Probe, Hold, ClcPeer, LinkPeer, NlProbe };
// AF_SMC; plain TCP; AF_INET/AF_INET6 with IPPROTO_SMC (Linux 6.11+)
enum class Family { Smc, Tcp, IpprotoSmc };
// Server behaviour; the client names the server mode it talks to.
enum class Mode { Sink, Echo, Source, Duplex };
enum class ConnectMode { Block, Poll, Epoll };
enum class AcceptMode { Block, Nonblock };
enum class IoMode { Block, Poll };
enum class Role { None, Server, Client };
enum class ExpectMode { Any, Fallback, Smcr };

struct Config {
	Command cmd = Command::Help;
	std::string probe;	// probe name (Command::Probe)
	bool list = false;	// probe/clc-peer --list
	std::string script;	// clc-peer/link-peer --script
	uint32_t decline_code = 0x03030002; // clc-peer: diagnosis of the Declines it sends
	std::optional<uint32_t> expect_decline; // clc-peer: override the script's expected code
	uint64_t drop_wait_ms = 30000;	// clc-peer: how long to wait for a reply or the drop
	std::optional<uint16_t> peer_id_tag; // clc-peer: last two bytes of its Proposal's peer ID
	// clc-peer: another peer's identity its Proposal or Accept claims
	std::vector<uint8_t> claim_peer_id; // 8 bytes, or empty
	std::vector<uint8_t> claim_gid;	    // 16 bytes, or empty
	std::vector<uint8_t> claim_mac;	    // 6 bytes, or empty
	std::optional<uint32_t> claim_qpn;  // Accept's QP number
	uint64_t count = 0;		// link-peer fuzz: messages to send
	uint64_t llc_timeout_ms = 5000;	// link-peer: the smcr side's llc_timeout_ms
	uint8_t clc_version = 1;	// link-peer: SMC-R version it proposes (only)
	std::string ueid = "SMCR-LINK-PEER"; // link-peer --clc-version 2: the user EID
	std::string expect_connect_error; // client: connect must fail ("any" or an errno name)
	std::string expect_data_error;	// each connection's data exchange must fail with this errno name

	Family family = Family::Smc;
	bool ipv6 = false;	// forced by --ipv6 or an IPv6 --addr/--bind
	std::string addr;	// client/probe peer address
	std::string bind;	// server bind address (default any)
	uint16_t port = 0;
	Role role = Role::None;

	Mode mode = Mode::Sink;
	uint64_t bytes = 1 << 20;
	std::optional<uint64_t> peer_bytes;	// duplex: what the peer sends, if not --bytes
	uint64_t msgsize = 64 * 1024;
	uint64_t seed = 1;
	unsigned conns = 1;
	bool concurrent = false;	// server: one thread per accepted connection
	bool late_shutdown = false;	// duplex: SHUT_WR only once all the peer's bytes came in too
	std::string shutdown_hold_file;	// duplex: ... and once this file is gone
	unsigned backlog = 1024;
	ConnectMode connect = ConnectMode::Block;
	AcceptMode accept = AcceptMode::Block;
	int accept4_flags = 0;		// SOCK_NONBLOCK | SOCK_CLOEXEC
	IoMode io = IoMode::Block;
	uint64_t retry_ms = 0;		// client: retry ECONNREFUSED this long
	uint64_t hold_ms = 0;		// client: keep connection idle this long after connect
	std::string hold_file;		// client: ... or until this file is gone
	unsigned keepalive_s = 0;	// client: SO_KEEPALIVE with TCP_KEEPIDLE this long
	uint64_t sndbuf = 0;		// SO_SNDBUF: client before connect, server on the listener (0: not set)
	uint64_t rcvbuf = 0;		// SO_RCVBUF: likewise (smcr sizes the RMB element by it)
	uint64_t timeout_ms = 0;	// whole-process watchdog (0 = none)
	std::string ready_file;		// server/hold: created once listening

	ExpectMode expect_mode = ExpectMode::Any;
	std::optional<uint32_t> expect_reason;
	std::optional<uint32_t> expect_peer_diag;
	bool expect_fallback_any = false;

	// diag
	bool diag_kv = false;		// key=value lines instead of a table
	bool diag_summary = false;	// add a human summary of fallback reasons
	std::optional<uint16_t> diag_port; // only sockets with this sport or dport

	// nlprobe
	bool nl_linux_only = false;	// leave smcr's own commands and attributes out

	bool verbose = false;
	bool quiet = false;

	bool has_expect() const
	{
		return expect_mode != ExpectMode::Any || expect_reason || expect_peer_diag ||
		       expect_fallback_any;
	}
};

// Throws smcr::ArgError on bad input.
Config parse_cli(const std::vector<std::string> &args);
std::string usage();

const char *mode_name(Mode m);
// "smc", "tcp", "ipproto-smc": as --family takes it
const char *family_name(Family f);

} // namespace smctest
