// Focused semantic probes: each checks one piece of socket behaviour that an
// AF_SMC socket must share with TCP. Probes needing a peer run as a server
// side (--role server: listens on --port, announces via --ready-file) and a
// client side (--role client: connects to --addr/--port).
#include <fcntl.h>
#include <linux/smcr.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <iostream>
#include <span>
#include <sstream>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "net.hpp"
#include "probes.hpp"
#include "smcr/args.hpp"
#include "smcr/pattern.hpp"

namespace smctest {

using smcr::UniqueFd;

namespace probe {

constexpr int kAcceptTimeoutMs = 60000;

void check(bool ok, const std::string &what)
{
	if (!ok)
		throw Failure(what);
}

void announce(const Config &c, int lfd)
{
	(void)lfd;
	write_ready_file(c.ready_file);
}

smcr::UniqueFd accept_blocking(int lfd)
{
	return accept_one(lfd, 0, kAcceptTimeoutMs);
}

// Drains until EOF; returns the byte count.
uint64_t drain(int fd)
{
	std::vector<uint8_t> buf(64 * 1024);
	uint64_t total = 0;
	for (;;) {
		ssize_t k = ::recv(fd, buf.data(), buf.size(), 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			throw_errno("recv", errno);
		if (k == 0)
			return total;
		total += static_cast<uint64_t>(k);
	}
}

// Expects a -1/errno result.
void expect_errno(long rc, int want, const std::string &what)
{
	if (rc >= 0)
		throw Failure(what + ": succeeded (returned " + std::to_string(rc) + "), expected " + errno_name(want));
	int e = errno;
	if (e != want)
		throw Failure(what + ": got " + errno_name(e) + ", expected " + errno_name(want));
}

} // namespace probe

namespace {

using namespace probe;

constexpr int kEventTimeoutMs = 10000;

void send_pattern(int fd, uint64_t seed, uint64_t n)
{
	std::vector<uint8_t> buf(64 * 1024);
	uint64_t off = 0;
	while (off < n) {
		size_t k = static_cast<size_t>(std::min<uint64_t>(buf.size(), n - off));
		smcr::pattern_fill(seed, off, std::span<uint8_t>(buf.data(), k));
		write_all(fd, buf.data(), k);
		off += k;
	}
}

// Reads until EOF and requires exactly pattern(seed)[0, n).
void recv_pattern_eof(int fd, uint64_t seed, uint64_t n, const std::string &what)
{
	std::vector<uint8_t> buf(64 * 1024);
	uint64_t got = 0;
	for (;;) {
		ssize_t k = ::recv(fd, buf.data(), buf.size(), 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			throw_errno(what + ": recv", errno);
		if (k == 0)
			break;
		size_t m = smcr::pattern_mismatch(seed, got, std::span<const uint8_t>(buf.data(), static_cast<size_t>(k)));
		if (m != static_cast<size_t>(k))
			throw Failure(what + ": data mismatch at offset " + std::to_string(got + m));
		got += static_cast<uint64_t>(k);
	}
	check(got == n, what + ": received " + std::to_string(got) + " bytes before EOF, expected " +
				std::to_string(n));
}

void verify_pattern(std::span<const uint8_t> d, uint64_t seed, uint64_t off, const std::string &what)
{
	size_t m = smcr::pattern_mismatch(seed, off, d);
	check(m == d.size(), what + ": data mismatch at offset " + std::to_string(off + m));
}

int ioctl_int(int fd, unsigned long req, const char *name)
{
	int v = -1;
	if (::ioctl(fd, req, &v) < 0)
		throw_errno(std::string("ioctl(") + name + ")", errno);
	return v;
}

// ---- bad-type ------------------------------------------------------------

void probe_bad_type(const Config &c)
{
	if (c.family != Family::Smc)
		throw Skip("bad-type checks AF_SMC argument validation (use --family smc)");
	struct Case {
		int type, proto, err;
		const char *desc;
	} cases[] = {
		{SOCK_DGRAM, 0, ESOCKTNOSUPPORT, "socket(AF_SMC, SOCK_DGRAM, 0)"},
		{SOCK_SEQPACKET, 0, ESOCKTNOSUPPORT, "socket(AF_SMC, SOCK_SEQPACKET, 0)"},
		{SOCK_STREAM, 7, EPROTONOSUPPORT, "socket(AF_SMC, SOCK_STREAM, 7)"},
		{SOCK_STREAM, 2, EPROTONOSUPPORT, "socket(AF_SMC, SOCK_STREAM, 2)"},
	};
	for (auto &k : cases) {
		UniqueFd fd(::socket(AF_SMC, k.type, k.proto));
		expect_errno(fd.get(), k.err, k.desc);
		say(std::string("ok: ") + k.desc + " -> " + errno_name(k.err));
	}
	for (int proto : {SMCPROTO_SMC, SMCPROTO_SMC6}) {
		UniqueFd fd(::socket(AF_SMC, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, proto));
		if (!fd)
			throw_errno("socket(AF_SMC, SOCK_STREAM|SOCK_NONBLOCK|SOCK_CLOEXEC, " + std::to_string(proto) + ")", errno);
		check(is_nonblock(fd.get()), "SOCK_NONBLOCK not applied to AF_SMC socket");
		check(is_cloexec(fd.get()), "SOCK_CLOEXEC not applied to AF_SMC socket");
		int type = 0;
		socklen_t len = sizeof(type);
		if (getsockopt(fd.get(), SOL_SOCKET, SO_TYPE, &type, &len) < 0)
			throw_errno("getsockopt(SO_TYPE)", errno);
		check(type == SOCK_STREAM, "SO_TYPE is " + std::to_string(type) + ", expected SOCK_STREAM");
		say("ok: socket(AF_SMC, SOCK_STREAM|NONBLOCK|CLOEXEC, " + std::to_string(proto) + ") works, flags applied");
	}
}

// ---- sockopts ------------------------------------------------------------

struct OptCase {
	int level, name;
	const char *desc;
	int set_value; // used for int options
	bool compare_default;
};

std::string get_opt_str(int fd, int level, int name)
{
	if (level == SOL_SOCKET && name == SO_LINGER) {
		linger l{};
		socklen_t len = sizeof(l);
		if (getsockopt(fd, level, name, &l, &len) < 0)
			return "error " + errno_name(errno);
		return "{" + std::to_string(l.l_onoff) + "," + std::to_string(l.l_linger) + "}";
	}
	if (level == SOL_SOCKET && name == SO_RCVTIMEO) {
		timeval tv{};
		socklen_t len = sizeof(tv);
		if (getsockopt(fd, level, name, &tv, &len) < 0)
			return "error " + errno_name(errno);
		return std::to_string(tv.tv_sec) + "." + std::to_string(tv.tv_usec);
	}
	int v = 0;
	socklen_t len = sizeof(v);
	if (getsockopt(fd, level, name, &v, &len) < 0)
		return "error " + errno_name(errno);
	return std::to_string(v);
}

std::string set_opt(int fd, const OptCase &o)
{
	int rc;
	if (o.level == SOL_SOCKET && o.name == SO_LINGER) {
		linger l{1, o.set_value};
		rc = setsockopt(fd, o.level, o.name, &l, sizeof(l));
	} else {
		int v = o.set_value;
		rc = setsockopt(fd, o.level, o.name, &v, sizeof(v));
	}
	return rc < 0 ? "error " + errno_name(errno) : "ok";
}

void probe_sockopts(const Config &c)
{
	const OptCase opts[] = {
		{IPPROTO_TCP, TCP_NODELAY, "TCP_NODELAY", 1, true},
		{IPPROTO_TCP, TCP_KEEPIDLE, "TCP_KEEPIDLE", 77, true},
		{IPPROTO_TCP, TCP_KEEPINTVL, "TCP_KEEPINTVL", 11, true},
		{IPPROTO_TCP, TCP_KEEPCNT, "TCP_KEEPCNT", 5, true},
		{IPPROTO_TCP, TCP_CORK, "TCP_CORK", 1, true},
		{SOL_SOCKET, SO_KEEPALIVE, "SO_KEEPALIVE", 1, true},
		{SOL_SOCKET, SO_RCVBUF, "SO_RCVBUF", 131072, false},
		{SOL_SOCKET, SO_SNDBUF, "SO_SNDBUF", 131072, false},
		{SOL_SOCKET, SO_LINGER, "SO_LINGER", 3, true},
		{SOL_SOCKET, SO_REUSEADDR, "SO_REUSEADDR", 1, true},
	};
	UniqueFd t = make_socket(c.family, c.ipv6);
	UniqueFd ref = make_socket(Family::Tcp, c.ipv6);
	const char *tname = c.family == Family::Smc ? "AF_SMC" : c.family == Family::Tcp ? "TCP" : "IPPROTO_SMC";
	unsigned bad = 0;
	for (auto &o : opts) {
		std::string d_t = get_opt_str(t.get(), o.level, o.name);
		std::string d_r = get_opt_str(ref.get(), o.level, o.name);
		std::string s_t = set_opt(t.get(), o);
		std::string s_r = set_opt(ref.get(), o);
		std::string g_t = get_opt_str(t.get(), o.level, o.name);
		std::string g_r = get_opt_str(ref.get(), o.level, o.name);
		bool ok = s_t == s_r && g_t == g_r && (!o.compare_default || d_t == d_r);
		std::ostringstream os;
		os << (ok ? "ok:   " : "FAIL: ") << o.desc << " default " << tname << "=" << d_t << " tcp=" << d_r
		   << "; set(" << o.set_value << ") " << tname << "=" << s_t << " tcp=" << s_r << "; readback "
		   << tname << "=" << g_t << " tcp=" << g_r;
		if (ok)
			say(os.str());
		else {
			complain(os.str());
			++bad;
		}
	}
	check(bad == 0, std::to_string(bad) + " socket option(s) behave differently from TCP");
}

// ---- refused -------------------------------------------------------------

void probe_refused(const Config &c)
{
	auto to = peer_addr(c);
	{
		UniqueFd fd = make_socket(c.family, to.family() == AF_INET6);
		long rc = ::connect(fd.get(), to.sa(), to.len);
		expect_errno(rc, ECONNREFUSED, "blocking connect to closed port " + to.to_string());
		say("ok: blocking connect -> ECONNREFUSED");
	}
	for (const char *how : {"poll", "epoll"}) {
		UniqueFd fd = make_socket(c.family, to.family() == AF_INET6, SOCK_NONBLOCK);
		long rc = ::connect(fd.get(), to.sa(), to.len);
		expect_errno(rc, EINPROGRESS, std::string("nonblocking connect (") + how + ")");
		short re = 0;
		if (std::string_view(how) == "poll") {
			re = wait_fd(fd.get(), POLLOUT, kEventTimeoutMs);
			check(re != 0, "poll: no event within 10s after refused nonblocking connect");
			check((re & POLLOUT) && (re & (POLLERR | POLLHUP)),
			      "poll revents " + std::to_string(re) + ", expected POLLOUT|POLLERR or POLLHUP");
		} else {
			UniqueFd ep(epoll_create1(EPOLL_CLOEXEC));
			epoll_event ev{};
			ev.events = EPOLLOUT;
			if (epoll_ctl(ep.get(), EPOLL_CTL_ADD, fd.get(), &ev) < 0)
				throw_errno("epoll_ctl", errno);
			epoll_event out{};
			int n = epoll_wait(ep.get(), &out, 1, kEventTimeoutMs);
			check(n == 1, "epoll: no event within 10s after refused nonblocking connect");
			check(out.events & (EPOLLERR | EPOLLHUP), "epoll events " + std::to_string(out.events) +
								  " lack EPOLLERR/EPOLLHUP");
			re = static_cast<short>(out.events);
		}
		int err = -1;
		socklen_t len = sizeof(err);
		if (getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len) < 0)
			throw_errno("getsockopt(SO_ERROR)", errno);
		check(err == ECONNREFUSED, "SO_ERROR is " + errno_name(err) + ", expected ECONNREFUSED");
		say(std::string("ok: nonblocking connect -> EINPROGRESS, ") + how + " revents=0x" +
		    [&] { std::ostringstream h; h << std::hex << re; return h.str(); }() + ", SO_ERROR=ECONNREFUSED");
	}
}

// ---- peek ----------------------------------------------------------------

constexpr uint64_t kPeekLen = 1000;

void peek_server(const Config &c, int lfd)
{
	announce(c, lfd);
	UniqueFd fd = accept_blocking(lfd);
	send_pattern(fd.get(), 11, kPeekLen);
	check(drain(fd.get()) == 0, "peek server: client sent data");
}

void peek_client(const Config &c)
{
	UniqueFd fd = dial(c, peer_addr(c));
	std::vector<uint8_t> a(kPeekLen), b(kPeekLen);
	uint64_t deadline = now_ms() + kEventTimeoutMs;
	ssize_t n = 0;
	while (true) {
		check(wait_fd(fd.get(), POLLIN, kEventTimeoutMs) & POLLIN, "peek: no POLLIN");
		n = ::recv(fd.get(), a.data(), a.size(), MSG_PEEK);
		if (n < 0)
			throw_errno("recv(MSG_PEEK)", errno);
		check(n > 0, "recv(MSG_PEEK) returned EOF");
		if (static_cast<uint64_t>(n) == kPeekLen)
			break;
		check(now_ms() < deadline, "peek: only " + std::to_string(n) + " bytes arrived in 10s");
		sleep_ms(10);
	}
	verify_pattern(a, 11, 0, "MSG_PEEK data");
	uint8_t small[10];
	for (int i = 0; i < 2; ++i) {
		ssize_t k = ::recv(fd.get(), small, sizeof(small), MSG_PEEK);
		check(k == 10 && std::memcmp(small, a.data(), 10) == 0, "repeated MSG_PEEK did not return the same 10 bytes");
	}
	read_exact(fd.get(), b.data(), b.size());
	check(a == b, "read after MSG_PEEK returned different bytes");
	ssize_t k = ::recv(fd.get(), small, sizeof(small), MSG_PEEK | MSG_DONTWAIT);
	expect_errno(k, EAGAIN, "recv(MSG_PEEK|MSG_DONTWAIT) after consuming everything");
	say("ok: MSG_PEEK returned 1000 bytes, repeat peek identical, read returned the same bytes");
}

// ---- waitall -------------------------------------------------------------

constexpr size_t kWaitallPiece = 4096, kWaitallPieces = 16;

void waitall_server(const Config &c, int lfd)
{
	announce(c, lfd);
	UniqueFd fd = accept_blocking(lfd);
	int one = 1;
	setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	std::vector<uint8_t> buf(kWaitallPiece);
	for (size_t i = 0; i < kWaitallPieces; ++i) {
		smcr::pattern_fill(12, i * kWaitallPiece, buf);
		write_all(fd.get(), buf.data(), buf.size());
		sleep_ms(30);
	}
	smcr::pattern_fill(12, kWaitallPieces * kWaitallPiece, std::span<uint8_t>(buf.data(), 100));
	write_all(fd.get(), buf.data(), 100);
	::shutdown(fd.get(), SHUT_WR);
	check(drain(fd.get()) == 0, "waitall server: client sent data");
}

void waitall_client(const Config &c)
{
	UniqueFd fd = dial(c, peer_addr(c));
	const size_t total = kWaitallPiece * kWaitallPieces;
	std::vector<uint8_t> buf(total);
	uint64_t t0 = now_ms();
	ssize_t n = ::recv(fd.get(), buf.data(), buf.size(), MSG_WAITALL);
	if (n < 0)
		throw_errno("recv(MSG_WAITALL)", errno);
	check(static_cast<size_t>(n) == total, "recv(MSG_WAITALL, " + std::to_string(total) + ") returned " +
						       std::to_string(n));
	verify_pattern(buf, 12, 0, "MSG_WAITALL data");
	uint64_t dt = now_ms() - t0;
	std::vector<uint8_t> tail(1000);
	n = ::recv(fd.get(), tail.data(), tail.size(), MSG_WAITALL);
	check(n == 100, "recv(MSG_WAITALL, 1000) at EOF returned " + std::to_string(n) + ", expected the 100 bytes left");
	verify_pattern(std::span<const uint8_t>(tail.data(), 100), 12, total, "MSG_WAITALL tail");
	n = ::recv(fd.get(), tail.data(), tail.size(), MSG_WAITALL);
	check(n == 0, "recv after EOF returned " + std::to_string(n));
	say("ok: MSG_WAITALL got all " + std::to_string(total) + " bytes from 16 delayed writes (" +
	    std::to_string(dt) + " ms), short read only at EOF");
}

// ---- dontwait ------------------------------------------------------------

void dontwait_server(const Config &c, int lfd)
{
	announce(c, lfd);
	UniqueFd fd = accept_blocking(lfd);
	char x;
	read_exact(fd.get(), &x, 1);
	check(x == 'x', "dontwait server: bad byte");
	write_all(fd.get(), "y", 1);
	check(drain(fd.get()) == 0, "dontwait server: extra data");
}

void dontwait_client(const Config &c)
{
	UniqueFd fd = dial(c, peer_addr(c));
	char b[16];
	uint64_t t0 = now_ms();
	expect_errno(::recv(fd.get(), b, sizeof(b), MSG_DONTWAIT), EAGAIN, "recv(MSG_DONTWAIT) on empty socket");
	check(now_ms() - t0 < 1000, "recv(MSG_DONTWAIT) blocked");
	set_nonblock(fd.get(), true);
	expect_errno(::recv(fd.get(), b, sizeof(b), 0), EAGAIN, "recv on empty O_NONBLOCK socket");
	set_nonblock(fd.get(), false);
	write_all(fd.get(), "x", 1);
	check(wait_fd(fd.get(), POLLIN, kEventTimeoutMs) & POLLIN, "dontwait: no reply within 10s");
	ssize_t n = ::recv(fd.get(), b, sizeof(b), MSG_DONTWAIT);
	check(n == 1 && b[0] == 'y', "recv(MSG_DONTWAIT) with data returned " + std::to_string(n));
	expect_errno(::recv(fd.get(), b, sizeof(b), MSG_DONTWAIT), EAGAIN, "recv(MSG_DONTWAIT) after draining");
	say("ok: MSG_DONTWAIT -> EAGAIN when empty, data when available; O_NONBLOCK -> EAGAIN");
}

// ---- inq / outq ----------------------------------------------------------

void inq_server(const Config &c, int lfd)
{
	announce(c, lfd);
	UniqueFd fd = accept_blocking(lfd);
	send_pattern(fd.get(), 13, 5000);
	// Do not read until the client has filled the path and says so by
	// opening a second connection (the first one is clogged by then).
	UniqueFd go = accept_blocking(lfd);
	uint64_t n = drain(fd.get());
	say("inq server: drained " + std::to_string(n) + " bytes");
}

bool wait_ioctl(int fd, unsigned long req, const char *name, int want, int ms, int &last)
{
	uint64_t deadline = now_ms() + static_cast<uint64_t>(ms);
	for (;;) {
		last = ioctl_int(fd, req, name);
		if (last == want)
			return true;
		if (now_ms() >= deadline)
			return false;
		sleep_ms(10);
	}
}

void inq_client(const Config &c)
{
	UniqueFd fd = dial(c, peer_addr(c));
	int v = 0;
	check(wait_ioctl(fd.get(), SIOCINQ, "SIOCINQ", 5000, kEventTimeoutMs, v),
	      "SIOCINQ is " + std::to_string(v) + ", expected 5000 (unread bytes)");
	check(ioctl_int(fd.get(), SIOCOUTQ, "SIOCOUTQ") == 0, "SIOCOUTQ != 0 before sending anything");
	std::vector<uint8_t> buf(4000);
	read_exact(fd.get(), buf.data(), 1000);
	v = ioctl_int(fd.get(), SIOCINQ, "SIOCINQ");
	check(v == 4000, "SIOCINQ after reading 1000 is " + std::to_string(v) + ", expected 4000");
	read_exact(fd.get(), buf.data(), 4000);
	v = ioctl_int(fd.get(), SIOCINQ, "SIOCINQ");
	check(v == 0, "SIOCINQ after reading all is " + std::to_string(v));
	say("ok: SIOCINQ 5000 -> 4000 -> 0");

	// Fill the path while the server is not reading.
	set_nonblock(fd.get(), true);
	std::vector<uint8_t> junk(64 * 1024, 0x5a);
	uint64_t sent = 0, t0 = now_ms();
	for (;;) {
		ssize_t n = ::send(fd.get(), junk.data(), junk.size(), MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n < 0)
			throw_errno("send", errno);
		sent += static_cast<uint64_t>(n);
		check(sent < (512ull << 20) && now_ms() - t0 < 30000, "send never returned EAGAIN");
	}
	int outq = ioctl_int(fd.get(), SIOCOUTQ, "SIOCOUTQ");
	check(outq > 0, "SIOCOUTQ is " + std::to_string(outq) + " with unacknowledged data");
	set_nonblock(fd.get(), false);
	UniqueFd go = dial(c, peer_addr(c)); // tells the server to start reading
	if (::shutdown(fd.get(), SHUT_WR) < 0)
		throw_errno("shutdown", errno);
	check(wait_ioctl(fd.get(), SIOCOUTQ, "SIOCOUTQ", 0, 30000, v),
	      "SIOCOUTQ still " + std::to_string(v) + " 30s after the peer started reading");
	check(drain(fd.get()) == 0, "unexpected data");
	say("ok: SIOCOUTQ " + std::to_string(outq) + " after filling " + std::to_string(sent) +
	    " bytes, 0 once the peer drained");
}

// ---- names ---------------------------------------------------------------

std::string read_line(int fd)
{
	std::string s;
	char ch;
	for (;;) {
		read_exact(fd, &ch, 1);
		if (ch == '\n')
			return s;
		s.push_back(ch);
		check(s.size() < 512, "line too long");
	}
}

void names_exchange(int fd, const std::string &who)
{
	std::string mine_l = local_name(fd), mine_p = peer_name(fd);
	std::string line = mine_l + " " + mine_p + "\n";
	write_all(fd, line.data(), line.size());
	std::string theirs = read_line(fd);
	auto sp = theirs.find(' ');
	check(sp != std::string::npos, "bad names line '" + theirs + "'");
	std::string their_l = theirs.substr(0, sp), their_p = theirs.substr(sp + 1);
	check(mine_l == their_p, who + ": getsockname " + mine_l + " != peer's getpeername " + their_p);
	check(mine_p == their_l, who + ": getpeername " + mine_p + " != peer's getsockname " + their_l);
	say("ok: " + who + " local " + mine_l + " peer " + mine_p + " match the peer's view");
}

void names_server(const Config &c, int lfd)
{
	std::string ln = local_name(lfd);
	check(ln.ends_with(":" + std::to_string(c.port)), "listener getsockname " + ln + " lacks port " + std::to_string(c.port));
	announce(c, lfd);
	sockaddr_storage ss{};
	socklen_t len = sizeof(ss);
	int afd;
	do
		afd = ::accept(lfd, reinterpret_cast<sockaddr *>(&ss), &len);
	while (afd < 0 && errno == EINTR);
	if (afd < 0)
		throw_errno("accept", errno);
	UniqueFd fd(afd);
	std::string from = smcr::SockAddr::from(reinterpret_cast<sockaddr *>(&ss), len).to_string();
	check(from == peer_name(fd.get()), "accept() address " + from + " != getpeername " + peer_name(fd.get()));
	names_exchange(fd.get(), "server");
	drain(fd.get());
}

void names_client(const Config &c)
{
	auto to = peer_addr(c);
	UniqueFd fd = dial(c, to);
	check(peer_name(fd.get()) == to.to_string(), "getpeername " + peer_name(fd.get()) + " != " + to.to_string());
	names_exchange(fd.get(), "client");
}

// ---- eintr / SO_RCVTIMEO -------------------------------------------------

volatile sig_atomic_t g_alarms = 0;
void on_alarm(int) { g_alarms = g_alarms + 1; }

void eintr_server(const Config &c, int lfd)
{
	announce(c, lfd);
	UniqueFd fd = accept_blocking(lfd);
	check(drain(fd.get()) == 0, "eintr server: unexpected data");
}

void eintr_client(const Config &c)
{
	UniqueFd fd = dial(c, peer_addr(c));
	struct sigaction sa{}, old{};
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; // no SA_RESTART
	if (sigaction(SIGALRM, &sa, &old) < 0)
		throw_errno("sigaction", errno);
	itimerval it{};
	it.it_value.tv_usec = 300 * 1000;
	setitimer(ITIMER_REAL, &it, nullptr);
	char b[16];
	uint64_t t0 = now_ms();
	ssize_t n = ::recv(fd.get(), b, sizeof(b), 0);
	int e = errno;
	uint64_t dt = now_ms() - t0;
	it = {};
	setitimer(ITIMER_REAL, &it, nullptr);
	sigaction(SIGALRM, &old, nullptr);
	errno = e;
	expect_errno(n, EINTR, "blocking recv interrupted by SIGALRM (no SA_RESTART)");
	check(g_alarms == 1, "signal handler ran " + std::to_string(g_alarms) + " times");
	check(dt >= 250, "recv returned after " + std::to_string(dt) + " ms, before the signal");
	say("ok: blocking recv -> EINTR after " + std::to_string(dt) + " ms");

	timeval tv{0, 500 * 1000};
	if (setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		throw_errno("setsockopt(SO_RCVTIMEO)", errno);
	timeval back{};
	socklen_t len = sizeof(back);
	if (getsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &back, &len) < 0)
		throw_errno("getsockopt(SO_RCVTIMEO)", errno);
	check(back.tv_sec == 0 && back.tv_usec >= 490000 && back.tv_usec <= 510000,
	      "SO_RCVTIMEO read back as " + std::to_string(back.tv_sec) + "." + std::to_string(back.tv_usec));
	t0 = now_ms();
	n = ::recv(fd.get(), b, sizeof(b), 0);
	dt = now_ms() - t0;
	if (n < 0 && errno == EWOULDBLOCK)
		errno = EAGAIN;
	expect_errno(n, EAGAIN, "recv with SO_RCVTIMEO=500ms on idle socket");
	check(dt >= 400 && dt <= 5000, "SO_RCVTIMEO recv returned after " + std::to_string(dt) + " ms, expected ~500");
	say("ok: SO_RCVTIMEO 500 ms -> EAGAIN after " + std::to_string(dt) + " ms");
}

// ---- epoll ---------------------------------------------------------------

void epoll_server(const Config &c, int lfd)
{
	set_nonblock(lfd, true);
	UniqueFd ep(epoll_create1(EPOLL_CLOEXEC));
	if (!ep)
		throw_errno("epoll_create1", errno);
	epoll_event ev{};
	ev.events = EPOLLIN | EPOLLET;
	ev.data.fd = lfd;
	if (epoll_ctl(ep.get(), EPOLL_CTL_ADD, lfd, &ev) < 0)
		throw_errno("epoll_ctl(listener)", errno);
	epoll_event out{};
	check(epoll_wait(ep.get(), &out, 1, 0) == 0, "listener reported an event before any connection");
	announce(c, lfd);
	int n = epoll_wait(ep.get(), &out, 1, kAcceptTimeoutMs);
	check(n == 1 && (out.events & EPOLLIN), "listener: no EPOLLIN for a pending connection");
	int afd = ::accept4(lfd, nullptr, nullptr, 0);
	if (afd < 0)
		throw_errno("accept4 after EPOLLIN", errno);
	UniqueFd fd(afd);
	expect_errno(::accept4(lfd, nullptr, nullptr, 0), EAGAIN, "second accept on drained listener");
	say("ok: listener EPOLLIN (edge-triggered) for pending connection");
	char b;
	read_exact(fd.get(), &b, 1);
	sleep_ms(100);
	send_pattern(fd.get(), 14, 100);
	read_exact(fd.get(), &b, 1);
	sleep_ms(100);
	if (::shutdown(fd.get(), SHUT_WR) < 0)
		throw_errno("shutdown", errno);
	check(drain(fd.get()) == 0, "epoll server: unexpected data");
}

void epoll_client(const Config &c)
{
	UniqueFd fd = dial(c, peer_addr(c));
	set_nonblock(fd.get(), true);
	UniqueFd ep(epoll_create1(EPOLL_CLOEXEC));
	epoll_event ev{};
	ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
	ev.data.fd = fd.get();
	if (epoll_ctl(ep.get(), EPOLL_CTL_ADD, fd.get(), &ev) < 0)
		throw_errno("epoll_ctl", errno);
	epoll_event out{};
	check(epoll_wait(ep.get(), &out, 1, 200) == 0, "event reported on idle connection");
	write_all(fd.get(), "r", 1);
	std::vector<uint8_t> buf(1000);
	size_t got = 0;
	uint64_t deadline = now_ms() + kEventTimeoutMs;
	while (got < 100) {
		int left = static_cast<int>(deadline > now_ms() ? deadline - now_ms() : 0);
		int n = epoll_wait(ep.get(), &out, 1, left);
		check(n == 1, "no EPOLLIN within 10s (have " + std::to_string(got) + " of 100 bytes)");
		check(out.events & EPOLLIN, "event without EPOLLIN: " + std::to_string(out.events));
		check(!(out.events & EPOLLRDHUP), "EPOLLRDHUP before the peer shut down");
		for (;;) { // edge-triggered: drain until EAGAIN
			ssize_t k = ::recv(fd.get(), buf.data() + got, buf.size() - got, 0);
			if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
				break;
			if (k < 0)
				throw_errno("recv", errno);
			check(k > 0, "unexpected EOF");
			got += static_cast<size_t>(k);
		}
	}
	check(got == 100, "received " + std::to_string(got) + " bytes, expected 100");
	verify_pattern(std::span<const uint8_t>(buf.data(), 100), 14, 0, "epoll data");
	check(epoll_wait(ep.get(), &out, 1, 200) == 0, "edge-triggered epoll repeated an event without new data");
	say("ok: EPOLLIN|EPOLLET on data, no repeat after draining");
	write_all(fd.get(), "s", 1);
	int n = epoll_wait(ep.get(), &out, 1, kEventTimeoutMs);
	check(n == 1 && (out.events & EPOLLRDHUP), "no EPOLLRDHUP after peer shutdown(SHUT_WR) (events " +
							   std::to_string(n == 1 ? out.events : 0) + ")");
	check(out.events & EPOLLIN, "peer half-close without EPOLLIN");
	ssize_t k = ::recv(fd.get(), buf.data(), buf.size(), 0);
	check(k == 0, "recv after EPOLLRDHUP returned " + std::to_string(k) + ", expected EOF");
	say("ok: EPOLLRDHUP|EPOLLIN on peer half-close, then EOF");
}

// ---- close-pending -------------------------------------------------------

constexpr uint64_t kClosePendingLen = 4ull << 20;

void close_pending_server(const Config &c, int lfd)
{
	announce(c, lfd);
	UniqueFd fd = accept_blocking(lfd);
	send_pattern(fd.get(), 21, kClosePendingLen);
	int outq = ioctl_int(fd.get(), SIOCOUTQ, "SIOCOUTQ");
	check(fd.reset() == 0, "close failed");
	say("close-pending server: closed with " + std::to_string(outq) + " bytes unacknowledged");
}

void close_pending_client(const Config &c)
{
	UniqueFd fd = dial(c, peer_addr(c));
	sleep_ms(1000); // the server's close happens while data is still queued
	recv_pattern_eof(fd.get(), 21, kClosePendingLen, "close-pending");
	say("ok: received all " + std::to_string(kClosePendingLen) + " bytes queued before the peer's close, then EOF");
}

// ---- half-close ----------------------------------------------------------

constexpr uint64_t kHalfLen = 256 * 1024;

void half_close_server(const Config &c, int lfd)
{
	announce(c, lfd);
	{ // connection 1: the client half-closes first
		UniqueFd fd = accept_blocking(lfd);
		recv_pattern_eof(fd.get(), 31, kHalfLen, "half-close conn1 (server side)");
		send_pattern(fd.get(), 32, kHalfLen);
		say("ok: server saw EOF after client SHUT_WR, then sent " + std::to_string(kHalfLen) + " bytes");
	}
	{ // connection 2: the server half-closes first
		UniqueFd fd = accept_blocking(lfd);
		send_pattern(fd.get(), 33, kHalfLen);
		if (::shutdown(fd.get(), SHUT_WR) < 0)
			throw_errno("shutdown(SHUT_WR)", errno);
		recv_pattern_eof(fd.get(), 34, kHalfLen, "half-close conn2 (server side)");
		say("ok: server half-closed, then received all " + std::to_string(kHalfLen) + " bytes");
	}
}

void half_close_client(const Config &c)
{
	auto to = peer_addr(c);
	{
		UniqueFd fd = dial(c, to);
		send_pattern(fd.get(), 31, kHalfLen);
		if (::shutdown(fd.get(), SHUT_WR) < 0)
			throw_errno("shutdown(SHUT_WR)", errno);
		expect_errno(::send(fd.get(), "x", 1, MSG_NOSIGNAL), EPIPE, "send after shutdown(SHUT_WR)");
		recv_pattern_eof(fd.get(), 32, kHalfLen, "half-close conn1 (client side)");
		say("ok: client SHUT_WR, send -> EPIPE, still received all " + std::to_string(kHalfLen) + " bytes");
	}
	{
		UniqueFd fd = dial(c, to);
		recv_pattern_eof(fd.get(), 33, kHalfLen, "half-close conn2 (client side)");
		send_pattern(fd.get(), 34, kHalfLen);
		say("ok: client saw EOF after server SHUT_WR, then sent " + std::to_string(kHalfLen) + " bytes");
	}
}

// ---- shutdown-rd ---------------------------------------------------------

void shutdown_rd_server(const Config &c, int lfd)
{
	announce(c, lfd);
	UniqueFd fd = accept_blocking(lfd);
	recv_pattern_eof(fd.get(), 41, 64 * 1024, "shutdown-rd (server side)");
}

void shutdown_rd_client(const Config &c)
{
	UniqueFd fd = dial(c, peer_addr(c));
	if (::shutdown(fd.get(), SHUT_RD) < 0)
		throw_errno("shutdown(SHUT_RD)", errno);
	short re = wait_fd(fd.get(), POLLIN, 1000);
	check(re & POLLIN, "no POLLIN after shutdown(SHUT_RD)");
	char b[8];
	ssize_t n = ::recv(fd.get(), b, sizeof(b), MSG_DONTWAIT);
	check(n == 0, "recv after shutdown(SHUT_RD) returned " + std::to_string(n) +
			      (n < 0 ? " (" + errno_name(errno) + ")" : "") + ", expected 0");
	send_pattern(fd.get(), 41, 64 * 1024);
	say("ok: SHUT_RD -> POLLIN + recv 0; sending still works");
}

// ---- accept --------------------------------------------------------------

// AF_SMC finishes handshakes in parallel, so the accept queue need not be
// in connect order: each connection names itself and any order is fine.
void accept_server(const Config &c, int lfd)
{
	set_nonblock(lfd, true);
	expect_errno(::accept4(lfd, nullptr, nullptr, 0), EAGAIN, "nonblocking accept on empty listener");
	check(wait_fd(lfd, POLLIN, 0) == 0, "idle listener polls readable");
	say("ok: nonblocking accept on empty listener -> EAGAIN");
	announce(c, lfd);
	std::vector<std::string> seen;
	auto name_of = [&](int fd) {
		char b[5];
		check(wait_fd(fd, POLLIN, kEventTimeoutMs) & POLLIN, "no data on accepted connection");
		ssize_t n = ::recv(fd, b, sizeof(b), MSG_WAITALL);
		check(n == 5, "short read on accepted connection: " + std::to_string(n));
		std::string name(b, 5);
		check(name == "conn1" || name == "conn2" || name == "conn3", "unexpected data '" + name + "'");
		check(std::find(seen.begin(), seen.end(), name) == seen.end(), name + " accepted twice");
		seen.push_back(name);
		return name;
	};
	{
		UniqueFd fd = accept_one(lfd, SOCK_NONBLOCK | SOCK_CLOEXEC, kAcceptTimeoutMs);
		check(is_nonblock(fd.get()), "accept4(SOCK_NONBLOCK): O_NONBLOCK not set");
		check(is_cloexec(fd.get()), "accept4(SOCK_CLOEXEC): FD_CLOEXEC not set");
		std::string n = name_of(fd.get());
		say("ok: accept4(SOCK_NONBLOCK|SOCK_CLOEXEC) -> both flags set (" + n + ")");
	}
	{
		UniqueFd fd = accept_one(lfd, 0, kAcceptTimeoutMs);
		check(!is_nonblock(fd.get()), "accept4(0): O_NONBLOCK set (inherited from listener?)");
		check(!is_cloexec(fd.get()), "accept4(0): FD_CLOEXEC set");
		std::string n = name_of(fd.get());
		say("ok: accept4(0) on nonblocking listener -> no flags (" + n + ")");
	}
	{
		set_nonblock(lfd, false);
		int afd;
		do
			afd = ::accept(lfd, nullptr, nullptr);
		while (afd < 0 && errno == EINTR);
		if (afd < 0)
			throw_errno("blocking accept", errno);
		UniqueFd fd(afd);
		check(!is_nonblock(fd.get()) && !is_cloexec(fd.get()), "accept(): unexpected flags");
		std::string n = name_of(fd.get());
		say("ok: blocking accept() (" + n + ")");
	}
}

void accept_client(const Config &c)
{
	auto to = peer_addr(c);
	std::vector<UniqueFd> fds;
	for (int i = 1; i <= 3; ++i) {
		fds.push_back(dial(c, to));
		std::string m = "conn" + std::to_string(i);
		write_all(fds.back().get(), m.data(), m.size());
	}
	for (auto &fd : fds)
		check(drain(fd.get()) == 0, "unexpected data from server");
	say("ok: 3 connections accepted and closed by the server");
}

// ---- oob ------------------------------------------------------------------
// Urgent data with TCP's semantics (RFC 7609 4.7.5/4.7.6 underneath): the
// last byte of send(MSG_OOB) is the urgent byte; the receiver gets
// POLLPRI and SIGURG, reads stop at the mark (SIOCATMARK), recv(MSG_OOB)
// returns the byte once; without SO_OOBINLINE it is not in the stream,
// with it, it is. Connection 4 sends the urgent byte into a full window.

volatile sig_atomic_t g_sigurg = 0;

void on_sigurg(int)
{
	g_sigurg = g_sigurg + 1;
}

std::string recv_once(int fd, size_t max, const std::string &what)
{
	std::string b(max, '\0');
	ssize_t n;
	do
		n = ::recv(fd, b.data(), b.size(), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		throw_errno(what, errno);
	b.resize(static_cast<size_t>(n));
	return b;
}

std::string recv_rest(int fd, const std::string &what)
{
	std::string all;
	for (;;) {
		std::string b = recv_once(fd, 4096, what);
		if (b.empty())
			return all;
		all += b;
	}
}

char recv_oob(int fd, const std::string &what)
{
	char b = 0;
	ssize_t n = ::recv(fd, &b, 1, MSG_OOB);
	if (n < 0)
		throw_errno(what + ": recv(MSG_OOB)", errno);
	check(n == 1, what + ": recv(MSG_OOB) returned " + std::to_string(n));
	return b;
}

UniqueFd oob_accept(int lfd, bool oobinline)
{
	UniqueFd fd = accept_blocking(lfd);
	int one = 1;
	if (oobinline && ::setsockopt(fd.get(), SOL_SOCKET, SO_OOBINLINE, &one, sizeof(one)) < 0)
		throw_errno("setsockopt(SO_OOBINLINE)", errno);
	if (::fcntl(fd.get(), F_SETOWN, ::getpid()) < 0)
		throw_errno("fcntl(F_SETOWN)", errno);
	write_all(fd.get(), "g", 1); // the client sends once the options are set
	return fd;
}

void oob_wait_pri(int fd, const std::string &what)
{
	check(wait_fd(fd, POLLPRI, kEventTimeoutMs) & POLLPRI, what + ": no POLLPRI");
}

constexpr uint64_t kOobFillSeed = 51;

void oob_server(const Config &c, int lfd)
{
	struct sigaction sa = {};
	sa.sa_handler = on_sigurg;
	::sigaction(SIGURG, &sa, nullptr);
	announce(c, lfd);
	{
		UniqueFd fd = oob_accept(lfd, false);
		oob_wait_pri(fd.get(), "conn1");
		std::string a = recv_once(fd.get(), 100, "conn1 recv");
		check(a == "abcdefgh", "conn1: read before the mark returned '" + a + "', expected 'abcdefgh'");
		check(ioctl_int(fd.get(), SIOCATMARK, "SIOCATMARK") == 1, "conn1: SIOCATMARK 0 at the mark");
		check(recv_oob(fd.get(), "conn1") == 'X', "conn1: wrong urgent byte");
		char b;
		expect_errno(::recv(fd.get(), &b, 1, MSG_OOB), EINVAL, "conn1: second recv(MSG_OOB)");
		std::string r = recv_rest(fd.get(), "conn1 recv");
		check(r == "ijkl", "conn1: after the mark '" + r + "', expected 'ijkl'");
		check(g_sigurg > 0, "conn1: no SIGURG");
		say("ok: POLLPRI + SIGURG, read stops at the mark, SIOCATMARK, recv(MSG_OOB) once, byte not in stream");
	}
	{
		UniqueFd fd = oob_accept(lfd, true);
		oob_wait_pri(fd.get(), "conn2");
		std::string a = recv_once(fd.get(), 100, "conn2 recv");
		check(a == "abcdefgh", "conn2: read before the mark returned '" + a + "', expected 'abcdefgh'");
		check(ioctl_int(fd.get(), SIOCATMARK, "SIOCATMARK") == 1, "conn2: SIOCATMARK 0 at the mark");
		char b;
		expect_errno(::recv(fd.get(), &b, 1, MSG_OOB), EINVAL, "conn2: recv(MSG_OOB) with SO_OOBINLINE");
		std::string r = recv_rest(fd.get(), "conn2 recv");
		check(r == "Xijkl", "conn2: from the mark '" + r + "', expected 'Xijkl'");
		check(ioctl_int(fd.get(), SIOCATMARK, "SIOCATMARK") == 0, "conn2: SIOCATMARK 1 past the mark");
		say("ok: SO_OOBINLINE: read stops at the mark, the urgent byte stays in the stream");
	}
	{
		UniqueFd fd = oob_accept(lfd, false);
		oob_wait_pri(fd.get(), "conn3");
		check(recv_oob(fd.get(), "conn3") == 'X', "conn3: wrong urgent byte");
		std::string r = recv_rest(fd.get(), "conn3 recv");
		check(r == "after", "conn3: stream '" + r + "', expected 'after'");
		say("ok: an urgent byte alone, then data: the data follows");
	}
	{
		UniqueFd fd = oob_accept(lfd, false);
		sleep_ms(1500); // the client fills the window, then sends the urgent byte
		char b;
		ssize_t k = ::recv(fd.get(), &b, 1, MSG_OOB | MSG_DONTWAIT);
		check(k < 0 && (errno == EAGAIN || errno == EINVAL),
		      "conn4: recv(MSG_OOB) before the window opened: " +
			      (k < 0 ? errno_name(errno) : std::to_string(k) + " bytes"));
		std::string early = errno_name(errno);
		std::vector<uint8_t> buf(64 * 1024);
		std::vector<uint8_t> stream;
		int urgent = 0;
		for (;;) {
			short re = wait_fd(fd.get(), POLLIN | POLLPRI, kEventTimeoutMs);
			check(re != 0, "conn4: no event in 10 s");
			if (re & POLLPRI) {
				check(recv_oob(fd.get(), "conn4") == 'X', "conn4: wrong urgent byte");
				++urgent;
				write_all(fd.get(), "2", 1); // the client sends its tail now
				continue;
			}
			ssize_t n = ::recv(fd.get(), buf.data(), buf.size(), 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				throw_errno("conn4: recv", errno);
			if (n == 0)
				break;
			stream.insert(stream.end(), buf.begin(), buf.begin() + n);
		}
		check(urgent == 1, "conn4: urgent byte read " + std::to_string(urgent) + " times");
		check(stream.size() >= 8, "conn4: short stream");
		uint64_t fill = 0;
		std::memcpy(&fill, stream.data() + stream.size() - 8, 8);
		check(fill + 8 == stream.size(), "conn4: " + std::to_string(stream.size()) + " bytes, the client sent " +
							 std::to_string(fill) + " + 8");
		verify_pattern(std::span<const uint8_t>(stream.data(), fill), kOobFillSeed, 0, "conn4 fill");
		say("ok: urgent byte into a full window (" + std::to_string(fill) + " bytes; before: " + early +
		    "), read once, stream intact");
	}
}

void oob_client(const Config &c)
{
	auto to = peer_addr(c);
	auto go = [](int fd) {
		char g = 0;
		read_exact(fd, &g, 1);
		check(g == 'g', "no go from the server");
	};
	auto send_oob = [](int fd, char b) {
		ssize_t n;
		do
			n = ::send(fd, &b, 1, MSG_OOB);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			throw_errno("send(MSG_OOB)", errno);
	};
	for (int i = 0; i < 2; ++i) {
		UniqueFd fd = dial(c, to);
		go(fd.get());
		write_all(fd.get(), "abcdefgh", 8);
		send_oob(fd.get(), 'X');
		write_all(fd.get(), "ijkl", 4);
	}
	{
		UniqueFd fd = dial(c, to);
		go(fd.get());
		send_oob(fd.get(), 'X');
		write_all(fd.get(), "after", 5);
	}
	{
		UniqueFd fd = dial(c, to);
		go(fd.get());
		set_nonblock(fd.get(), true);
		std::vector<uint8_t> buf(16 * 1024);
		uint64_t fill = 0;
		for (;;) {
			smcr::pattern_fill(kOobFillSeed, fill, std::span<uint8_t>(buf.data(), buf.size()));
			ssize_t n = ::send(fd.get(), buf.data(), buf.size(), MSG_NOSIGNAL);
			if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
				break;
			if (n < 0)
				throw_errno("fill: send", errno);
			fill += static_cast<uint64_t>(n);
		}
		set_nonblock(fd.get(), false);
		send_oob(fd.get(), 'X');
		char two = 0;
		read_exact(fd.get(), &two, 1);
		check(two == '2', "no confirmation of the urgent byte");
		write_all(fd.get(), &fill, sizeof(fill));
		say("client: filled " + std::to_string(fill) + " bytes before the urgent byte");
	}
	say("ok: 4 connections with urgent data sent");
}

// ---- registry ------------------------------------------------------------

struct Probe {
	const char *name;
	const char *help;
	std::function<void(const Config &)> local;	// no peer needed
	std::function<void(const Config &, int)> server;
	std::function<void(const Config &)> client;
};

const std::vector<Probe> &probes()
{
	static const std::vector<Probe> p = {
		{"bad-type", "socket(AF_SMC) rejects bad type/protocol (local)", probe_bad_type, {}, {}},
		{"sockopts", "socket options read back like on TCP (local)", probe_sockopts, {}, {}},
		{"refused", "connect to a closed --addr/--port: ECONNREFUSED, nonblocking SO_ERROR (client only)",
		 {}, {}, probe_refused},
		{"peek", "MSG_PEEK then read returns the same bytes", {}, peek_server, peek_client},
		{"waitall", "MSG_WAITALL collects delayed small writes", {}, waitall_server, waitall_client},
		{"dontwait", "MSG_DONTWAIT / O_NONBLOCK on empty socket -> EAGAIN", {}, dontwait_server, dontwait_client},
		{"inq", "SIOCINQ counts unread bytes, SIOCOUTQ unacked bytes", {}, inq_server, inq_client},
		{"names", "getsockname/getpeername match the peer's view", {}, names_server, names_client},
		{"eintr", "signal interrupts blocking recv (EINTR); SO_RCVTIMEO -> EAGAIN", {}, eintr_server, eintr_client},
		{"epoll", "edge-triggered epoll: listener, data, half-close", {}, epoll_server, epoll_client},
		{"close-pending", "peer closes with queued data; all of it arrives, then EOF", {}, close_pending_server,
		 close_pending_client},
		{"half-close", "shutdown(SHUT_WR) in each direction; the other direction keeps working", {},
		 half_close_server, half_close_client},
		{"shutdown-rd", "shutdown(SHUT_RD): recv returns 0, sending continues", {}, shutdown_rd_server,
		 shutdown_rd_client},
		{"accept", "nonblocking accept EAGAIN, accept4 flags via fcntl, blocking accept", {}, accept_server,
		 accept_client},
		{"oob", "urgent data: POLLPRI, SIGURG, SIOCATMARK, MSG_OOB, SO_OOBINLINE, into a full window", {},
		 oob_server, oob_client},
		{"no-tls", "TCP_ULP \"tls\" and SOL_TLS refused (EOPNOTSUPP) before and after the handshake", {},
		 no_tls_server, no_tls_client},
		{"tcp-hooks", "repair and zerocopy receive refused; MD5 keys and socket filters keep a connection "
			      "on TCP, and are refused over SMC-R", {}, tcp_hooks_server, tcp_hooks_client},
	};
	return p;
}

} // namespace

int run_probe(const Config &c)
{
	if (c.list) {
		for (auto &p : probes())
			std::cout << p.name << "\t" << p.help << "\n";
		return 0;
	}
	const Probe *p = nullptr;
	for (auto &q : probes())
		if (c.probe == q.name || (c.probe == "outq" && std::string_view(q.name) == "inq"))
			p = &q;
	if (!p)
		throw smcr::ArgError("unknown probe '" + c.probe + "' (see: smctest probe --list)");
	std::string tag = "probe " + c.probe;
	try {
		if (p->local) {
			p->local(c);
		} else if (c.role == Role::Server) {
			if (!p->server) {
				write_ready_file(c.ready_file);
				say(tag + ": nothing to do on the server side");
				return 0;
			}
			UniqueFd lfd = make_listener(c);
			p->server(c, lfd.get());
		} else if (c.role == Role::Client) {
			if (c.addr.empty() || !c.port)
				throw smcr::ArgError(tag + " --role client needs --addr and --port");
			p->client(c);
		} else {
			throw smcr::ArgError(tag + " needs --role server|client");
		}
	} catch (const Skip &s) {
		say(tag + ": SKIP: " + s.what());
		return 4;
	}
	say(tag + ": PASS");
	return 0;
}

} // namespace smctest
