// smcr-bench option parsing and --help text.
#include "cli.hpp"

#include <algorithm>
#include <climits>
#include <set>

#include "smcr/addr.hpp"
#include "smcr/args.hpp"

namespace bench {

using smcr::ArgError;

const char *family_name(Family f)
{
	return f == Family::Smc ? "smc" : "inet";
}

std::string usage()
{
	return R"(usage: smcr-bench server [--family inet|smc] [--bind ADDR] [--port P] [--threads N] [--once]
       smcr-bench client --peer ADDR [--port P] [--family inet|smc] MODE [options]
       smcr-bench --help

Socket benchmark for plain TCP (--family inet, default) and AF_SMC
(--family smc). One JSON object per client run on stdout.

common options:
  --family inet|smc    AF_INET/AF_INET6 TCP, or AF_SMC (SMCPROTO_SMC/SMC6);
                       IPv6 follows from the address
  --port P             default 5300 (server: 0 picks a free port)
  --rcvbuf SIZE        SO_RCVBUF on every socket, before connect/listen
  --sndbuf SIZE        SO_SNDBUF on every socket, before connect/listen

server:
  --bind ADDR          default 0.0.0.0 (use :: for IPv6)
  --threads N          worker threads with one epoll each (default: online CPUs)
  --once               exit after the first stream or rr connection ends
  Prints "listening on ADDR:PORT family F" once listening; runs until
  SIGINT/SIGTERM (exit 0).

client (all modes):
  --peer ADDR          server address (numeric IPv4/IPv6)
  --label STR          copied into the JSON as "label"
  --timeout DUR        abort with exit 1 after DUR (default: the run's time
                       + 60s; many: hold + 60s + 10ms per connection)

client modes:
  stream [--msg-size S] [--conns N] [--time T] [--ready-file PATH]
        N connections (one thread each) write S-byte messages for T, then
        half-close; the server replies with the byte count it received.
        S 64..1M (default 64K), N 1..1024 (default 1), T default 5s. PATH
        is written (content: N) when all are connected and writing. Every
        pause of 10ms or more between two sends is reported (the first 256
        of each connection, CLOCK_REALTIME ns), the longest apart.
  rr [--msg-size S] [--time T] [--warmup W]
        one connection, ping-pong S bytes each way (default 1, max 16M);
        round trips after W (default 0.5s) are timed for T.
  crr [--time T]
        connect, 1-byte request and reply, close; repeated for T.
  many --conns N [--hold T] [--parallel K] [--ready-file PATH]
        open N connections (nonblocking connect, at most K (default 64)
        in flight), exchange one byte each, write PATH (content: number
        open), hold them T (default 5s), close all. Memory deltas come from
        /proc/meminfo (system-wide, after - before), each reading taken
        vm.stat_interval + 100ms after the connections settle.

Sizes take K/M/G suffixes (binary); durations "500ms", "2s", "1.5s", "2".
exit status: 0 ok, 1 failure, 64 usage error
)";
}

namespace {

Family parse_family(const std::string &v)
{
	if (v == "inet" || v == "tcp")
		return Family::Inet;
	if (v == "smc")
		return Family::Smc;
	throw ArgError("bad --family '" + v + "' (inet|smc)");
}

bool parse_mode(const std::string &v, Mode &m)
{
	if (v == "stream") m = Mode::Stream;
	else if (v == "rr") m = Mode::Rr;
	else if (v == "crr") m = Mode::Crr;
	else if (v == "many") m = Mode::Many;
	else return false;
	return true;
}

uint64_t ranged(const std::string &opt, uint64_t v, uint64_t lo, uint64_t hi)
{
	if (v < lo || v > hi)
		throw ArgError(opt + " must be " + std::to_string(lo) + ".." + std::to_string(hi));
	return v;
}

// Options each command / client mode accepts.
bool allowed(const Config &c, const std::string &opt)
{
	static const std::set<std::string> common = {"--family", "--port", "--rcvbuf", "--sndbuf"};
	if (common.contains(opt))
		return true;
	if (c.cmd == Command::Server)
		return opt == "--bind" || opt == "--threads" || opt == "--once";
	if (opt == "--peer" || opt == "--label" || opt == "--timeout")
		return true;
	switch (c.mode) {
	case Mode::Stream:
		return opt == "--msg-size" || opt == "--conns" || opt == "--time" || opt == "--ready-file";
	case Mode::Rr: return opt == "--msg-size" || opt == "--time" || opt == "--warmup";
	case Mode::Crr: return opt == "--time";
	case Mode::Many:
		return opt == "--conns" || opt == "--hold" || opt == "--parallel" || opt == "--ready-file";
	}
	return false;
}

} // namespace

Config parse_cli(const std::vector<std::string> &args)
{
	Config c;
	if (args.empty())
		throw ArgError("missing command (server or client)");
	const std::string &cmd = args[0];
	if (cmd == "server")
		c.cmd = Command::Server;
	else if (cmd == "client")
		c.cmd = Command::Client;
	else if (cmd == "help" || cmd == "--help" || cmd == "-h")
		return c;
	else
		throw ArgError("unknown command '" + cmd + "'");

	smcr::ArgCursor a(std::vector<std::string>(args.begin() + 1, args.end()));
	std::set<std::string> seen;
	bool mode_given = false;
	uint64_t msg_size = 0;
	while (!a.done()) {
		std::string o = a.next();
		if (o == "--help" || o == "-h") {
			c.cmd = Command::Help;
			return c;
		}
		if (!o.starts_with("-")) {
			if (c.cmd != Command::Client || mode_given || !parse_mode(o, c.mode))
				throw ArgError("unexpected argument '" + o + "'");
			mode_given = true;
			continue;
		}
		seen.insert(o);
		if (o == "--family") c.family = parse_family(a.value());
		else if (o == "--port") c.port = static_cast<uint16_t>(ranged(o, a.value_u64(), 0, 65535));
		else if (o == "--rcvbuf") c.rcvbuf = ranged(o, a.value_size(), 1, INT_MAX);
		else if (o == "--sndbuf") c.sndbuf = ranged(o, a.value_size(), 1, INT_MAX);
		else if (o == "--bind") c.bind = a.value();
		else if (o == "--threads") c.threads = static_cast<unsigned>(ranged(o, a.value_u64(), 1, 1024));
		else if (o == "--once") c.once = true;
		else if (o == "--peer") c.peer = a.value();
		else if (o == "--label") c.label = a.value();
		else if (o == "--timeout") c.timeout_ms = ranged(o, a.value_ms(), 1, UINT64_MAX);
		else if (o == "--msg-size") msg_size = a.value_size();
		else if (o == "--conns") c.conns = static_cast<unsigned>(ranged(o, a.value_u64(), 1, 1000000));
		else if (o == "--time") c.time_ms = ranged(o, a.value_ms(), 1, UINT64_MAX / 2);
		else if (o == "--warmup") c.warmup_ms = ranged(o, a.value_ms(), 0, UINT64_MAX / 4);
		else if (o == "--hold") c.hold_ms = ranged(o, a.value_ms(), 0, UINT64_MAX / 4);
		else if (o == "--parallel") c.parallel = static_cast<unsigned>(ranged(o, a.value_u64(), 1, 100000));
		else if (o == "--ready-file") c.ready_file = a.value();
		else
			throw ArgError("unknown option '" + o + "'");
	}

	if (c.cmd == Command::Client && !mode_given)
		throw ArgError("client needs a MODE (stream|rr|crr|many)");
	for (const auto &o : seen) {
		if (!allowed(c, o)) {
			if (c.cmd == Command::Server)
				throw ArgError("option " + o + " is for the client");
			throw ArgError("option " + o + " does not apply to mode " + mode_name(c.mode));
		}
	}

	if (c.cmd == Command::Server) {
		if (!c.bind.empty()) {
			if (!smcr::SockAddr::parse(c.bind, c.port))
				throw ArgError("bad --bind address '" + c.bind + "'");
			c.ipv6 = smcr::looks_like_ipv6(c.bind);
		}
		return c;
	}

	if (c.peer.empty())
		throw ArgError("client needs --peer ADDR");
	if (!smcr::SockAddr::parse(c.peer, c.port))
		throw ArgError("bad --peer address '" + c.peer + "' (numeric IPv4/IPv6)");
	c.ipv6 = smcr::looks_like_ipv6(c.peer);
	if (c.port == 0)
		throw ArgError("client needs a --port other than 0");

	uint64_t run_ms = 0;
	switch (c.mode) {
	case Mode::Stream:
		c.msg_size = static_cast<uint32_t>(
			seen.contains("--msg-size") ? ranged("--msg-size", msg_size, 64, 1u << 20) : 64 * 1024);
		ranged("--conns", c.conns, 1, 1024);
		run_ms = c.time_ms;
		break;
	case Mode::Rr:
		c.msg_size = static_cast<uint32_t>(
			seen.contains("--msg-size") ? ranged("--msg-size", msg_size, 1, kMaxMsgSize) : 1);
		run_ms = c.warmup_ms + c.time_ms;
		break;
	case Mode::Crr:
		c.msg_size = 1;
		run_ms = c.time_ms;
		break;
	case Mode::Many:
		if (!seen.contains("--conns"))
			throw ArgError("many needs --conns N");
		c.msg_size = 1;
		run_ms = c.hold_ms + 10ull * c.conns;
		break;
	}
	if (!c.timeout_ms)
		c.timeout_ms = run_ms + 60000;
	return c;
}

} // namespace bench
