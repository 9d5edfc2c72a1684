#include "net.hpp"

#include <fcntl.h>
#include <linux/smc_diag.h>
#include <linux/smcr.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include "smcr/diag.hpp"
#include "smcr/reasons.hpp"

namespace smctest {

using smcr::SockAddr;
using smcr::UniqueFd;

namespace {
std::mutex log_mu;
std::atomic<bool> quiet{false};
std::atomic<bool> tcp_note_done{false};
} // namespace

void throw_errno(const std::string &what, int err)
{
	throw Failure(what + ": " + errno_name(err) + " (" + std::strerror(err) + ")");
}

void say(const std::string &msg)
{
	if (quiet)
		return;
	std::lock_guard lk(log_mu);
	std::cout << msg << std::endl;
}

void complain(const std::string &msg)
{
	std::lock_guard lk(log_mu);
	std::cerr << "smctest: " << msg << std::endl;
}

void set_quiet(bool q)
{
	quiet = q;
}

uint64_t now_ms()
{
	using namespace std::chrono;
	return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

void sleep_ms(uint64_t ms)
{
	std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

int raw_socket(Family fam, bool ipv6, int extra_flags)
{
	if (fam == Family::Smc)
		return ::socket(AF_SMC, SOCK_STREAM | extra_flags, ipv6 ? SMCPROTO_SMC6 : SMCPROTO_SMC);
	return ::socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | extra_flags,
			fam == Family::IpprotoSmc ? ipproto_smc : 0);
}

UniqueFd make_socket(Family fam, bool ipv6, int extra_flags)
{
	UniqueFd fd(raw_socket(fam, ipv6, extra_flags));
	if (!fd) {
		int e = errno;
		if (fam == Family::Smc && e == EAFNOSUPPORT)
			throw Failure("socket(AF_SMC): EAFNOSUPPORT - is the smcr module loaded?");
		const char *in = ipv6 ? "AF_INET6" : "AF_INET";
		if (fam == Family::IpprotoSmc)
			throw_errno(std::string("socket(") + in + ", SOCK_STREAM, IPPROTO_SMC)", e);
		throw_errno(fam == Family::Smc ? "socket(AF_SMC)" : std::string("socket(") + in + ")", e);
	}
	return fd;
}

void set_nonblock(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		throw_errno("fcntl(F_GETFL)", errno);
	fl = on ? (fl | O_NONBLOCK) : (fl & ~O_NONBLOCK);
	if (fcntl(fd, F_SETFL, fl) < 0)
		throw_errno("fcntl(F_SETFL)", errno);
}

namespace {

// setsockopt of an int option; throws naming it on failure.
void set_int_opt(int fd, int level, int name, int value, const char *what)
{
	if (setsockopt(fd, level, name, &value, sizeof(value)) < 0)
		throw_errno(std::string("setsockopt(") + what + ")", errno);
}

} // namespace

int set_keepalive(int fd, unsigned idle_s)
{
	int idle = 0;
	socklen_t len = sizeof(idle);

	set_int_opt(fd, SOL_SOCKET, SO_KEEPALIVE, 1, "SO_KEEPALIVE");
	set_int_opt(fd, IPPROTO_TCP, TCP_KEEPIDLE, static_cast<int>(idle_s), "TCP_KEEPIDLE");
	set_int_opt(fd, IPPROTO_TCP, TCP_KEEPINTVL, 1, "TCP_KEEPINTVL");
	set_int_opt(fd, IPPROTO_TCP, TCP_KEEPCNT, 2, "TCP_KEEPCNT");
	if (getsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, &len) < 0)
		throw_errno("getsockopt(TCP_KEEPIDLE)", errno);
	return idle;
}

bool is_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		throw_errno("fcntl(F_GETFL)", errno);
	return fl & O_NONBLOCK;
}

bool is_cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);
	if (fl < 0)
		throw_errno("fcntl(F_GETFD)", errno);
	return fl & FD_CLOEXEC;
}

SockAddr peer_addr(const Config &c)
{
	auto a = SockAddr::parse(c.addr, c.port);
	if (!a)
		throw Failure("bad address '" + c.addr + "' (numeric IPv4/IPv6 only)");
	return *a;
}

SockAddr bind_addr(const Config &c)
{
	if (c.bind.empty())
		return SockAddr::any(c.ipv6, c.port);
	auto a = SockAddr::parse(c.bind, c.port);
	if (!a)
		throw Failure("bad bind address '" + c.bind + "'");
	return *a;
}

void write_ready_file(const std::string &path)
{
	if (path.empty())
		return;
	std::string tmp = path + ".tmp";
	{
		std::ofstream f(tmp);
		f << getpid() << "\n";
		if (!f)
			throw Failure("cannot write " + tmp);
	}
	if (std::rename(tmp.c_str(), path.c_str()) != 0)
		throw_errno("rename " + path, errno);
}

UniqueFd make_listener(const Config &c, int extra_flags)
{
	SockAddr a = bind_addr(c);
	UniqueFd fd = make_socket(c.family, a.family() == AF_INET6, extra_flags);
	set_int_opt(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
	// before listen: accepted sockets inherit the listener's buffers
	const bool listener = c.cmd == Command::Server || c.cmd == Command::Hold;
	if (listener && c.sndbuf)
		set_int_opt(fd.get(), SOL_SOCKET, SO_SNDBUF, static_cast<int>(c.sndbuf), "SO_SNDBUF");
	if (listener && c.rcvbuf)
		set_int_opt(fd.get(), SOL_SOCKET, SO_RCVBUF, static_cast<int>(c.rcvbuf), "SO_RCVBUF");
	if (::bind(fd.get(), a.sa(), a.len) < 0)
		throw_errno("bind " + a.to_string(), errno);
	if (::listen(fd.get(), static_cast<int>(c.backlog)) < 0)
		throw_errno("listen", errno);
	return fd;
}

short wait_fd(int fd, short events, int timeout_ms)
{
	pollfd p{fd, events, 0};
	for (;;) {
		int n = ::poll(&p, 1, timeout_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			throw_errno("poll", errno);
		return n == 0 ? 0 : p.revents;
	}
}

namespace {

int so_error(int fd)
{
	int err = 0;
	socklen_t len = sizeof(err);
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		throw_errno("getsockopt(SO_ERROR)", errno);
	return err;
}

// One connect attempt; returns 0 or the errno of the failure.
int try_connect(const Config &c, int fd, const SockAddr &to)
{
	if (c.connect == ConnectMode::Block) {
		if (::connect(fd, to.sa(), to.len) == 0)
			return 0;
		return errno;
	}
	set_nonblock(fd, true);
	if (::connect(fd, to.sa(), to.len) == 0) {
		set_nonblock(fd, false);
		return 0; // immediate success is allowed
	}
	if (errno != EINPROGRESS)
		return errno;
	if (c.connect == ConnectMode::Poll) {
		short re = wait_fd(fd, POLLOUT, 60000);
		if (re == 0)
			throw Failure("nonblocking connect: no POLLOUT within 60s");
	} else {
		UniqueFd ep(epoll_create1(EPOLL_CLOEXEC));
		if (!ep)
			throw_errno("epoll_create1", errno);
		epoll_event ev{};
		ev.events = EPOLLOUT;
		ev.data.fd = fd;
		if (epoll_ctl(ep.get(), EPOLL_CTL_ADD, fd, &ev) < 0)
			throw_errno("epoll_ctl(ADD)", errno);
		epoll_event out{};
		int n;
		do
			n = epoll_wait(ep.get(), &out, 1, 60000);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			throw_errno("epoll_wait", errno);
		if (n == 0)
			throw Failure("nonblocking connect: no EPOLLOUT within 60s");
	}
	int err = so_error(fd);
	if (err == 0)
		set_nonblock(fd, false);
	return err;
}

} // namespace

UniqueFd dial(const Config &c, const SockAddr &to)
{
	uint64_t deadline = now_ms() + c.retry_ms;
	for (;;) {
		UniqueFd fd = make_socket(c.family, to.family() == AF_INET6);
		if ((c.cmd == Command::Client || c.cmd == Command::ClcPeer) && !c.bind.empty()) {
			// client or clc-peer --bind ADDR: source address (any port)
			auto src = SockAddr::parse(c.bind, 0);
			if (!src)
				throw Failure("bad bind address '" + c.bind + "'");
			if (::bind(fd.get(), src->sa(), src->len) < 0)
				throw_errno("bind " + src->to_string(), errno);
		}
		if (c.cmd == Command::Client && c.sndbuf)
			set_int_opt(fd.get(), SOL_SOCKET, SO_SNDBUF, static_cast<int>(c.sndbuf), "SO_SNDBUF");
		if (c.cmd == Command::Client && c.rcvbuf)
			set_int_opt(fd.get(), SOL_SOCKET, SO_RCVBUF, static_cast<int>(c.rcvbuf), "SO_RCVBUF");
		int err = try_connect(c, fd.get(), to);
		if (err == 0)
			return fd;
		if ((err == ECONNREFUSED || err == ETIMEDOUT || err == EHOSTUNREACH) &&
		    now_ms() < deadline) {
			sleep_ms(100);
			continue;
		}
		throw_errno("connect " + to.to_string(), err);
	}
}

UniqueFd accept_one(int lfd, int flags, int timeout_ms)
{
	uint64_t deadline = timeout_ms < 0 ? 0 : now_ms() + static_cast<uint64_t>(timeout_ms);
	for (;;) {
		int left = -1;
		if (timeout_ms >= 0) {
			uint64_t now = now_ms();
			if (now >= deadline)
				throw Failure("accept: no connection within " + std::to_string(timeout_ms) + " ms");
			left = static_cast<int>(deadline - now);
		}
		short re = wait_fd(lfd, POLLIN, left);
		if (re == 0)
			continue;
		int fd = ::accept4(lfd, nullptr, nullptr, flags);
		if (fd >= 0)
			return UniqueFd(fd);
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED)
			continue;
		throw_errno("accept4", errno);
	}
}

void write_all(int fd, const void *buf, size_t len)
{
	auto *p = static_cast<const uint8_t *>(buf);
	while (len) {
		ssize_t n = ::send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw_errno("send", errno);
		}
		p += n;
		len -= static_cast<size_t>(n);
	}
}

void read_exact(int fd, void *buf, size_t len)
{
	auto *p = static_cast<uint8_t *>(buf);
	size_t got = 0;
	while (got < len) {
		ssize_t n = ::recv(fd, p + got, len - got, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw_errno("recv", errno);
		}
		if (n == 0)
			throw Failure("recv: EOF after " + std::to_string(got) + " of " +
				      std::to_string(len) + " bytes");
		got += static_cast<size_t>(n);
	}
}

std::string local_name(int fd)
{
	sockaddr_storage ss{};
	socklen_t len = sizeof(ss);
	if (getsockname(fd, reinterpret_cast<sockaddr *>(&ss), &len) < 0)
		throw_errno("getsockname", errno);
	return SockAddr::from(reinterpret_cast<sockaddr *>(&ss), len).to_string();
}

std::string peer_name(int fd)
{
	sockaddr_storage ss{};
	socklen_t len = sizeof(ss);
	if (getpeername(fd, reinterpret_cast<sockaddr *>(&ss), &len) < 0)
		throw_errno("getpeername", errno);
	return SockAddr::from(reinterpret_cast<sockaddr *>(&ss), len).to_string();
}

smcr::DiagEntry diag_entry(int fd, const std::string &label)
{
	struct stat st{};
	if (fstat(fd, &st) < 0)
		throw_errno("fstat", errno);
	for (int i = 0; i < 5; ++i) {
		if (i)
			sleep_ms(100);
		try {
			if (auto e = smcr::diag_find_inode(st.st_ino))
				return *e;
		} catch (const std::exception &ex) {
			throw Failure(label + ": sock_diag dump failed: " + ex.what());
		}
	}
	throw Failure(label + ": inode " + std::to_string(st.st_ino) + " not in the AF_SMC sock_diag dump");
}

namespace {

int sock_int_opt(int fd, int name, const char *what)
{
	int v = 0;
	socklen_t len = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, name, &v, &len) < 0)
		throw_errno(std::string("getsockopt(") + what + ")", errno);
	return v;
}

// The socket is of the kind --family creates (see check_expect()).
void check_family(const Config &c, int fd, const std::string &label)
{
	if (c.family == Family::Tcp)
		return;
	int domain = sock_int_opt(fd, SO_DOMAIN, "SO_DOMAIN");
	int proto = sock_int_opt(fd, SO_PROTOCOL, "SO_PROTOCOL");
	sockaddr_storage ss{};
	socklen_t slen = sizeof(ss);
	if (getsockname(fd, reinterpret_cast<sockaddr *>(&ss), &slen) < 0)
		throw_errno("getsockname", errno);
	bool ok = c.family == Family::Smc ? domain == AF_SMC
					  : domain == ss.ss_family && proto == ipproto_smc;
	// Linux's smc.ko puts its TCP socket into the file of a socket that
	// fell back (af_smc.c, smc_switch_to_fallback()): AF_INET/AF_INET6 TCP
	// then, and sock_diag still lists the SMC socket as a fallback.
	if (!ok && c.family == Family::Smc && (domain == AF_INET || domain == AF_INET6) &&
	    proto == IPPROTO_TCP)
		ok = diag_entry(fd, label).mode == SMC_DIAG_MODE_FALLBACK_TCP;
	if (!ok)
		throw Failure(label + ": SO_DOMAIN " + std::to_string(domain) + " SO_PROTOCOL " +
			      std::to_string(proto) + " (address family " + std::to_string(ss.ss_family) +
			      "), not a --family " + family_name(c.family) + " socket");
}

} // namespace

void check_expect(const Config &c, int fd, const std::string &label)
{
	check_family(c, fd, label);
	if (!c.has_expect())
		return;
	if (c.family == Family::Tcp && sock_int_opt(fd, SO_DOMAIN, "SO_DOMAIN") != AF_SMC) {
		if (!tcp_note_done.exchange(true))
			say("note: --expect-* ignored for --family tcp");
		return;
	}
	// --family tcp under smc_run: the preload library made it AF_SMC
	const smcr::DiagEntry e = diag_entry(fd, label);
	std::string got = "mode=" + smcr::diag_mode_name(e.mode) +
			  " reason=" + smcr::reason_to_string(e.reason) +
			  " peer_diag=" + smcr::reason_to_string(e.peer_diagnosis);
	if (c.verbose)
		say(label + ": " + got);
	auto bad = [&](const std::string &what) {
		throw Failure(label + ": expected " + what + ", got " + got);
	};
	bool fb = e.mode == SMC_DIAG_MODE_FALLBACK_TCP;
	if (c.expect_mode == ExpectMode::Fallback && !fb)
		bad("mode=fallback");
	if (c.expect_mode == ExpectMode::Smcr && e.mode != SMC_DIAG_MODE_SMCR)
		bad("mode=smcr");
	if (c.expect_fallback_any && (!fb || e.reason == 0))
		bad("fallback with a reason != 0");
	if (c.expect_reason && (!fb || e.reason != *c.expect_reason))
		bad("reason=" + smcr::reason_to_string(*c.expect_reason));
	if (c.expect_peer_diag && e.peer_diagnosis != *c.expect_peer_diag)
		bad("peer_diag=" + smcr::reason_to_string(*c.expect_peer_diag));
}

} // namespace smctest
