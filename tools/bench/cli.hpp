// smcr-bench command line: one Config for the server and every client mode.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "proto.hpp"

namespace bench {

enum class Command { Help, Server, Client };
enum class Family { Inet, Smc };

// Exit status for usage errors (sysexits.h EX_USAGE).
inline constexpr int kExitUsage = 64;

struct Config {
	Command cmd = Command::Help;
	Family family = Family::Inet;
	bool ipv6 = false;	// implied by an IPv6 --peer / --bind
	uint16_t port = 5300;
	uint64_t rcvbuf = 0;	// SO_RCVBUF on every socket (0: leave alone)
	uint64_t sndbuf = 0;	// SO_SNDBUF on every socket (0: leave alone)

	// server
	std::string bind;	// default: any (IPv4)
	unsigned threads = 0;	// 0: number of online CPUs
	bool once = false;	// exit after the first stream/rr connection

	// client
	std::string peer;
	Mode mode = Mode::Stream;
	uint32_t msg_size = 0;	// filled per mode (stream 64K, rr 1, crr/many 1)
	unsigned conns = 1;	// stream: connections (threads); many: connections
	uint64_t time_ms = 5000;
	uint64_t warmup_ms = 500;
	uint64_t hold_ms = 5000;
	unsigned parallel = 64;	// many: connects in flight
	std::string ready_file;	// many
	std::string label;
	uint64_t timeout_ms = 0; // whole-client watchdog; filled per mode if not given
};

// Throws smcr::ArgError on bad input (exit kExitUsage).
Config parse_cli(const std::vector<std::string> &args);
std::string usage();

const char *family_name(Family f);

} // namespace bench
