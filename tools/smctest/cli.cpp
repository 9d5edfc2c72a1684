#include "cli.hpp"

#include <cctype>

#include <sys/socket.h>

#include "smcr/addr.hpp"
#include "smcr/args.hpp"
#include "smcr/reasons.hpp"

namespace smctest {

using smcr::ArgError;

const char *family_name(Family f)
{
	switch (f) {
	case Family::Smc:
		return "smc";
	case Family::Tcp:
		return "tcp";
	case Family::IpprotoSmc:
		return "ipproto-smc";
	}
	return "?";
}

const char *mode_name(Mode m)
{
	switch (m) {
	case Mode::Sink: return "sink";
	case Mode::Echo: return "echo";
	case Mode::Source: return "source";
	case Mode::Duplex: return "duplex";
	}
	return "?";
}

std::string usage()
{
	return R"(usage: smctest COMMAND [OPTIONS]

commands:
  server   listen on --port, accept --conns connections and serve --mode
  client   connect to --addr/--port --conns times and drive --mode
  probe    NAME --role server|client ...   semantic probe (probe --list)
  diag     list AF_SMC sockets via sock_diag (like ss)
  hold     open an AF_SMC socket (listening on --port if given; else
           --conns sockets) and sleep
  clc-peer --role client|server --script NAME ...   hostile CLC peer over
           plain TCP (clc-peer --list); the smcr side needs the module
           parameter test_clc_without_option=1
  link-peer --addr ADDR --port P --script NAME ...   scripted SMC-R client
           below CLC: CLC, an RC QP on the local RoCE port, CONFIRM LINK,
           then CDC/LLC messages and RDMA writes as the script says
           (link-peer --list); the smcr server needs test_clc_without_option=1
  nlprobe  send every command of Linux's SMC_GEN_NETLINK family (dump and
           do; without, with attribute 1, with attribute 2; the UEID and
           handshake-limitation commands with their arguments) and describe
           each reply: error, messages, attribute types/lengths/nesting, no
           values (to diff two kernels). Flushes the UEID table and switches
           the handshake limitation, and puts both back at the end
  help

common options:
  --family smc|tcp|ipproto-smc
                       AF_SMC (default), plain AF_INET/AF_INET6 TCP, or
                       AF_INET/AF_INET6 with IPPROTO_SMC (Linux 6.11+)
  --ipv6               IPv6 (SMCPROTO_SMC6 for smc); implied by an IPv6 address
  --addr ADDR          peer address (client, probes)
  --bind ADDR          server bind address (default any); client: source address
  --port N
  --timeout DUR        watchdog: exit 1 if still running after DUR (e.g. 60s)
  --ready-file PATH    server/hold/probe server: create PATH once listening
  -v/--verbose, -q/--quiet

data (server and client must agree on --mode, --bytes, --seed):
  --mode sink|echo|source|duplex
        sink:   client sends --bytes, half-closes; server reads to EOF and
                replies "SMCTEST-SINK bytes=N fnv=HEX"; client compares
        echo:   server echoes; client compares what came back
        source: server sends --bytes (pattern of --seed) and closes
        duplex: both send --bytes at once (client seed S, server seed S+1)
                and both verify what they receive
  --bytes SIZE (default 1M; K/M/G suffixes)  --msgsize SIZE (default 64K)
  --seed N (default 1)
  --io block|poll      blocking I/O (helper thread for the send side) or a
                       nonblocking poll() loop
  --conns N            connections (client: concurrent threads; server: 0
                       serves until --ready-file is removed)
  --concurrent         server: handle connections in parallel threads

connection setup:
  --connect block|poll|epoll   client: blocking, or nonblocking connect with
                       EINPROGRESS + poll/epoll + SO_ERROR
  --retry DUR          client: retry ECONNREFUSED for up to DUR
  --hold DUR           client: stay connected and idle for DUR before the data
                       server: keep the listener open up to DUR after the last
                       connection (ends early when --ready-file is removed)
  --hold-file PATH     client: end the --hold early once PATH does not exist
  --peer-bytes SIZE    duplex: the peer sends SIZE (default: --bytes), so
                       one side can go on sending after the other is done
  --late-shutdown      duplex: shutdown(SHUT_WR) only once all the peer's
                       bytes were received as well as ours sent, so that no
                       side is in a closing state while data still flows
  --shutdown-hold-file PATH
                       with --late-shutdown: shutdown(SHUT_WR) also waits
                       until PATH does not exist (a test holds every close
                       past an event)
  --keepalive SEC      client: SO_KEEPALIVE, TCP_KEEPIDLE SEC, TCP_KEEPINTVL 1,
                       TCP_KEEPCNT 2 on each connection
  --sndbuf SIZE        SO_SNDBUF SIZE: client before connect, server and hold
                       on the listening socket before listen (accepted ones
                       inherit)
  --rcvbuf SIZE        SO_RCVBUF SIZE, likewise (smcr takes half the buffer,
                       as TCP's window, for the RMB element size class)
  --accept block|nonblock      server: blocking accept or nonblocking + poll
  --accept4-flags nonblock,cloexec   flags for accept4 (verified via fcntl)
  --backlog N

  --expect-connect-error any|ERRNO   client: connect must fail (e.g. ETIMEDOUT)
  --expect-data-error ERRNO    each connection's data exchange must fail
                       with ERRNO (e.g. ECONNRESET when the peer breaks the
                       link)

clc-peer options (plus --addr/--port/--bind, --bytes/--seed/--msgsize for
the duplex data after a fallback, --ready-file for --role server):
  --script NAME        what to send and what to expect (clc-peer --list)
  --decline-code CODE  diagnosis of the Declines the peer sends (default NOSMCRDEV)
  --expect-decline CODE  expect this Decline code instead of the script's
  --drop-wait DUR      wait this long for a reply or the drop (default 30s)
  --peer-id-tag N      the Proposal's peer ID ends in N (0-65535), so that
                       several clc-peers are several peers to the server
  --claim-peer-id HEX  the Proposal (client) or Accept (server) claims this
  --claim-gid HEX      peer ID (8 bytes), GID (16) and MAC (6): another
  --claim-mac HEX      peer's, as the server role logs them from a Proposal
  --claim-qpn N        the Accept's QP number (server role)

link-peer options (plus --addr/--port, --bytes/--seed for the duplex data
the scripts move: the smcr side runs `smctest server --mode duplex` with the
same --bytes/--seed):
  --script NAME        what to do and what to expect (link-peer --list)
  --count N            fuzz: messages to send (default 10000; seeded by --seed)
  --llc-timeout DUR    the smcr side's llc_timeout_ms (default 5s): how long
                       rkey-new-rmb-unanswered expects it to wait for a reply
  --clc-version 1|2    the SMC-R version proposed, the only one (default 1);
                       2: CLC version 2 and Linux's version 2 LLC framing
  --ueid NAME          version 2: the user EID proposed (the smcr side needs
                       it too: smcr ueid add NAME; default SMCR-LINK-PEER)

assertions on the AF_SMC socket (checked via sock_diag before close):
  --expect-mode fallback|smcr
  --expect-reason CODE     exact smc_diag_fallback.reason (hex or name)
  --expect-peer-diag CODE  exact smc_diag_fallback.peer_diagnosis
  --expect-fallback-any    fallback with any reason != 0

nlprobe options:
  --linux-only         leave out smcr's own commands (0xc0 on) and
                       attributes (0x100 on)

diag options:
  --kv                 key=value lines (for scripts)
  --summary            human summary of fallback reasons
  --port N             only sockets with this local or peer port

exit status: 0 ok, 1 failure (data mismatch, failed expectation, error),
             2 usage error, 4 skipped (probe not applicable)
)";
}

namespace {

Mode parse_mode(const std::string &v)
{
	if (v == "sink") return Mode::Sink;
	if (v == "echo") return Mode::Echo;
	if (v == "source") return Mode::Source;
	if (v == "duplex") return Mode::Duplex;
	throw ArgError("bad --mode '" + v + "' (sink|echo|source|duplex)");
}

int parse_accept4_flags(const std::string &v)
{
	int flags = 0;
	size_t start = 0;
	while (start <= v.size()) {
		size_t end = v.find(',', start);
		std::string tok = v.substr(start, end == std::string::npos ? std::string::npos : end - start);
		if (tok == "nonblock")
			flags |= SOCK_NONBLOCK;
		else if (tok == "cloexec")
			flags |= SOCK_CLOEXEC;
		else if (tok == "none" || tok == "0")
			;
		else
			throw ArgError("bad --accept4-flags token '" + tok + "' (nonblock,cloexec,none)");
		if (end == std::string::npos)
			break;
		start = end + 1;
	}
	return flags;
}

uint32_t parse_reason(const std::string &opt, const std::string &v)
{
	auto r = smcr::reason_parse(v);
	if (!r)
		throw ArgError(opt + ": bad reason code '" + v + "'");
	return *r;
}

// HEX (colons allowed, as in a MAC) of exactly @n bytes
std::vector<uint8_t> parse_hex_bytes(const std::string &opt, const std::string &v, size_t n)
{
	std::string h;
	for (char ch : v)
		if (ch != ':')
			h += ch;
	std::vector<uint8_t> out;
	for (size_t i = 0; i + 1 < h.size(); i += 2) {
		auto hi = std::string("0123456789abcdef").find(static_cast<char>(std::tolower(h[i])));
		auto lo = std::string("0123456789abcdef").find(static_cast<char>(std::tolower(h[i + 1])));
		if (hi == std::string::npos || lo == std::string::npos)
			break;
		out.push_back(static_cast<uint8_t>(hi << 4 | lo));
	}
	if (h.size() != 2 * n || out.size() != n)
		throw ArgError(opt + " takes " + std::to_string(n) + " bytes in hex, got '" + v + "'");
	return out;
}

} // namespace

Config parse_cli(const std::vector<std::string> &args)
{
	Config c;
	if (args.empty())
		throw ArgError("missing command");
	const std::string &cmd = args[0];
	std::vector<std::string> rest(args.begin() + 1, args.end());
	if (cmd == "server") c.cmd = Command::Server;
	else if (cmd == "client") c.cmd = Command::Client;
	else if (cmd == "diag") c.cmd = Command::Diag;
	else if (cmd == "hold") c.cmd = Command::Hold;
	else if (cmd == "clc-peer") c.cmd = Command::ClcPeer;
	else if (cmd == "link-peer") c.cmd = Command::LinkPeer;
	else if (cmd == "nlprobe") c.cmd = Command::NlProbe;
	else if (cmd == "help" || cmd == "--help" || cmd == "-h") { c.cmd = Command::Help; return c; }
	else if (cmd == "probe") {
		c.cmd = Command::Probe;
		if (!rest.empty() && !rest[0].starts_with("-")) {
			c.probe = rest[0];
			rest.erase(rest.begin());
		}
	} else
		throw ArgError("unknown command '" + cmd + "'");

	smcr::ArgCursor a(rest);
	bool port_set = false;
	bool args_family_smc_given = false;
	while (!a.done()) {
		std::string o = a.next();
		if (o == "--family") {
			std::string v = a.value();
			if (v == "smc") { c.family = Family::Smc; args_family_smc_given = true; }
			else if (v == "tcp") c.family = Family::Tcp;
			else if (v == "ipproto-smc") c.family = Family::IpprotoSmc;
			else throw ArgError("bad --family '" + v + "' (smc|tcp|ipproto-smc)");
		} else if (o == "--ipv6" || o == "-6") c.ipv6 = true;
		else if (o == "--addr") c.addr = a.value();
		else if (o == "--bind") c.bind = a.value();
		else if (o == "--port") {
			uint64_t p = a.value_u64();
			if (p > 65535) throw ArgError("--port out of range");
			c.port = static_cast<uint16_t>(p);
			port_set = true;
		} else if (o == "--role") {
			std::string v = a.value();
			if (v == "server") c.role = Role::Server;
			else if (v == "client") c.role = Role::Client;
			else throw ArgError("bad --role '" + v + "' (server|client)");
		} else if (o == "--mode") c.mode = parse_mode(a.value());
		else if (o == "--bytes") c.bytes = a.value_size();
		else if (o == "--peer-bytes") c.peer_bytes = a.value_size();
		else if (o == "--msgsize") {
			c.msgsize = a.value_size();
			if (c.msgsize == 0 || c.msgsize > (64u << 20)) throw ArgError("--msgsize must be 1..64M");
		} else if (o == "--seed") c.seed = a.value_u64();
		else if (o == "--conns") {
			uint64_t n = a.value_u64();
			if (n > 10000) throw ArgError("--conns must be 0..10000");
			c.conns = static_cast<unsigned>(n);
		} else if (o == "--concurrent") c.concurrent = true;
		else if (o == "--backlog") c.backlog = static_cast<unsigned>(a.value_u64());
		else if (o == "--connect") {
			std::string v = a.value();
			if (v == "block") c.connect = ConnectMode::Block;
			else if (v == "poll") c.connect = ConnectMode::Poll;
			else if (v == "epoll") c.connect = ConnectMode::Epoll;
			else throw ArgError("bad --connect '" + v + "' (block|poll|epoll)");
		} else if (o == "--accept") {
			std::string v = a.value();
			if (v == "block") c.accept = AcceptMode::Block;
			else if (v == "nonblock") c.accept = AcceptMode::Nonblock;
			else throw ArgError("bad --accept '" + v + "' (block|nonblock)");
		} else if (o == "--accept4-flags") c.accept4_flags = parse_accept4_flags(a.value());
		else if (o == "--io") {
			std::string v = a.value();
			if (v == "block") c.io = IoMode::Block;
			else if (v == "poll") c.io = IoMode::Poll;
			else throw ArgError("bad --io '" + v + "' (block|poll)");
		} else if (o == "--retry") c.retry_ms = a.value_ms();
		else if (o == "--hold") c.hold_ms = a.value_ms();
		else if (o == "--hold-file") c.hold_file = a.value();
		else if (o == "--late-shutdown") c.late_shutdown = true;
		else if (o == "--shutdown-hold-file") c.shutdown_hold_file = a.value();
		else if (o == "--keepalive") {
			uint64_t n = a.value_u64();
			if (n == 0 || n > 32767) throw ArgError("--keepalive must be 1..32767 (seconds)");
			c.keepalive_s = static_cast<unsigned>(n);
		}
		else if (o == "--sndbuf") {
			c.sndbuf = a.value_size();
			if (c.sndbuf == 0 || c.sndbuf > (64u << 20)) throw ArgError("--sndbuf must be 1..64M");
		} else if (o == "--rcvbuf") {
			c.rcvbuf = a.value_size();
			if (c.rcvbuf == 0 || c.rcvbuf > (64u << 20)) throw ArgError("--rcvbuf must be 1..64M");
		} else if (o == "--timeout") c.timeout_ms = a.value_ms();
		else if (o == "--ready-file") c.ready_file = a.value();
		else if (o == "--expect-mode") {
			std::string v = a.value();
			if (v == "fallback") c.expect_mode = ExpectMode::Fallback;
			else if (v == "smcr") c.expect_mode = ExpectMode::Smcr;
			else throw ArgError("bad --expect-mode '" + v + "' (fallback|smcr)");
		} else if (o == "--expect-reason") c.expect_reason = parse_reason(o, a.value());
		else if (o == "--expect-peer-diag") c.expect_peer_diag = parse_reason(o, a.value());
		else if (o == "--expect-fallback-any") c.expect_fallback_any = true;
		else if (o == "--script") c.script = a.value();
		else if (o == "--decline-code") c.decline_code = parse_reason(o, a.value());
		else if (o == "--expect-decline") c.expect_decline = parse_reason(o, a.value());
		else if (o == "--drop-wait") c.drop_wait_ms = a.value_ms();
		else if (o == "--count") c.count = a.value_u64();
		else if (o == "--clc-version") {
			const uint64_t v = a.value_u64();
			if (v != 1 && v != 2) throw ArgError("--clc-version must be 1 or 2");
			c.clc_version = static_cast<uint8_t>(v);
		} else if (o == "--ueid") {
			c.ueid = a.value();
			if (c.ueid.empty() || c.ueid.size() > 32) throw ArgError("--ueid: 1 to 32 characters");
		} else if (o == "--llc-timeout") {
			c.llc_timeout_ms = a.value_ms();
			if (c.llc_timeout_ms == 0) throw ArgError("--llc-timeout must be above 0");
		}
		else if (o == "--peer-id-tag") {
			uint64_t n = a.value_u64();
			if (n > 65535) throw ArgError("--peer-id-tag must be 0..65535");
			c.peer_id_tag = static_cast<uint16_t>(n);
		}
		else if (o == "--claim-peer-id") c.claim_peer_id = parse_hex_bytes(o, a.value(), 8);
		else if (o == "--claim-gid") c.claim_gid = parse_hex_bytes(o, a.value(), 16);
		else if (o == "--claim-mac") c.claim_mac = parse_hex_bytes(o, a.value(), 6);
		else if (o == "--claim-qpn") {
			uint64_t n = a.value_u64();
			if (n > 0xffffff) throw ArgError("--claim-qpn must fit 24 bits");
			c.claim_qpn = static_cast<uint32_t>(n);
		}
		else if (o == "--expect-connect-error") c.expect_connect_error = a.value();
		else if (o == "--expect-data-error") c.expect_data_error = a.value();
		else if (o == "--kv") c.diag_kv = true;
		else if (o == "--summary") c.diag_summary = true;
		else if (o == "--list") c.list = true;
		else if (o == "--linux-only") c.nl_linux_only = true;
		else if (o == "-v" || o == "--verbose") c.verbose = true;
		else if (o == "-q" || o == "--quiet") c.quiet = true;
		else if (o == "--help" || o == "-h") { c.cmd = Command::Help; return c; }
		else
			throw ArgError("unknown option '" + o + "'");
	}

	if (!c.addr.empty() && smcr::looks_like_ipv6(c.addr)) c.ipv6 = true;
	if (!c.bind.empty() && smcr::looks_like_ipv6(c.bind)) c.ipv6 = true;
	if (c.cmd == Command::Diag && port_set) c.diag_port = c.port;
	if (c.expect_fallback_any && c.expect_mode == ExpectMode::Smcr)
		throw ArgError("--expect-fallback-any contradicts --expect-mode smcr");
	if ((c.expect_reason || c.expect_peer_diag) && c.expect_mode == ExpectMode::Smcr)
		throw ArgError("--expect-reason applies to fallback sockets only");
	if (c.late_shutdown && c.mode != Mode::Duplex)
		throw ArgError("--late-shutdown applies to --mode duplex only");
	if (!c.shutdown_hold_file.empty() && !c.late_shutdown)
		throw ArgError("--shutdown-hold-file applies with --late-shutdown only");
	if (c.peer_bytes && c.mode != Mode::Duplex)
		throw ArgError("--peer-bytes applies to --mode duplex only");

	switch (c.cmd) {
	case Command::Server:
		if (!port_set) throw ArgError("server needs --port");
		if (!c.conns && c.ready_file.empty()) throw ArgError("server --conns 0 needs --ready-file");
		break;
	case Command::Client:
		if (!port_set || c.addr.empty()) throw ArgError("client needs --addr and --port");
		if (!c.conns) throw ArgError("client needs --conns 1 or more");
		break;
	case Command::Probe:
		if (c.probe.empty() && !c.list) throw ArgError("probe needs a NAME (or --list)");
		break;
	case Command::ClcPeer:
		if (c.list)
			break;
		if (c.script.empty()) throw ArgError("clc-peer needs --script NAME (or --list)");
		if (c.role == Role::None) throw ArgError("clc-peer needs --role client|server");
		if (!port_set) throw ArgError("clc-peer needs --port");
		if (c.role == Role::Client && c.addr.empty()) throw ArgError("clc-peer --role client needs --addr");
		if ((c.family == Family::Smc && args_family_smc_given) || c.family == Family::IpprotoSmc)
			throw ArgError("clc-peer is plain TCP (--family tcp)");
		break;
	case Command::LinkPeer:
		if (c.list)
			break;
		if (c.script.empty()) throw ArgError("link-peer needs --script NAME (or --list)");
		if (!port_set || c.addr.empty()) throw ArgError("link-peer needs --addr and --port");
		if (c.ipv6) throw ArgError("link-peer speaks SMC-R over IPv4 only");
		break;
	default:
		break;
	}
	return c;
}

} // namespace smctest
