// Socket and process helpers for smcr-bench.
#include "net.hpp"

#include <linux/smcr.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace bench {

void throw_errno(const std::string &what, int err)
{
	throw Error(what + ": " + std::strerror(err));
}

int apply_bufs(int fd, const Config &c)
{
	if (c.rcvbuf) {
		int v = static_cast<int>(c.rcvbuf);
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) < 0)
			return errno;
	}
	if (c.sndbuf) {
		int v = static_cast<int>(c.sndbuf);
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) < 0)
			return errno;
	}
	return 0;
}

int raw_socket(const Config &c, bool ipv6, int extra_flags)
{
	int fd;
	if (c.family == Family::Smc)
		fd = ::socket(AF_SMC, SOCK_STREAM | extra_flags, ipv6 ? SMCPROTO_SMC6 : SMCPROTO_SMC);
	else
		fd = ::socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | extra_flags, 0);
	if (fd < 0)
		return -1;
	// Client sockets too: their TIME_WAIT remnants (the client closes first)
	// then do not keep a later SO_REUSEADDR listener off the port. Best effort.
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (int e = apply_bufs(fd, c)) {
		::close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

smcr::UniqueFd open_socket(const Config &c, bool ipv6, int extra_flags)
{
	smcr::UniqueFd fd(raw_socket(c, ipv6, extra_flags));
	if (!fd) {
		int e = errno;
		if (c.family == Family::Smc && e == EAFNOSUPPORT)
			throw Error("socket(AF_SMC): address family not supported - is the smcr module loaded?");
		throw_errno(c.family == Family::Smc ? "socket(AF_SMC)" : "socket", e);
	}
	return fd;
}

// AF_SMC takes TCP_NODELAY too (it also turns SMC-R's corking of small
// sends off); there it is best effort.
void set_nodelay(int fd, const Config &c)
{
	int one = 1;
	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0 &&
	    c.family == Family::Inet)
		throw_errno("setsockopt(TCP_NODELAY)", errno);
}

void write_all(int fd, const void *buf, size_t len, const char *what)
{
	const auto *p = static_cast<const uint8_t *>(buf);
	while (len) {
		ssize_t n = ::send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw_errno(what, errno);
		}
		p += n;
		len -= static_cast<size_t>(n);
	}
}

void read_exact(int fd, void *buf, size_t len, const char *what)
{
	auto *p = static_cast<uint8_t *>(buf);
	while (len) {
		ssize_t n = ::recv(fd, p, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw_errno(what, errno);
		}
		if (n == 0)
			throw Error(std::string(what) + ": connection closed by the server");
		p += n;
		len -= static_cast<size_t>(n);
	}
}

uint64_t now_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

void sleep_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	timespec ts{static_cast<time_t>(end / 1000000000ull), static_cast<long>(end % 1000000000ull)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR)
		;
}

uint64_t raise_nofile()
{
	rlimit rl{};
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 0;
	if (rl.rlim_cur < rl.rlim_max) {
		rlimit want = rl;
		want.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &want) < 0) {
			// An unlimited hard limit is still capped by fs.nr_open.
			unsigned long nr_open = 0;
			if (FILE *f = std::fopen("/proc/sys/fs/nr_open", "r")) {
				if (std::fscanf(f, "%lu", &nr_open) != 1)
					nr_open = 0;
				std::fclose(f);
			}
			if (nr_open > rl.rlim_cur && nr_open < rl.rlim_max) {
				want.rlim_cur = nr_open;
				setrlimit(RLIMIT_NOFILE, &want);
			}
		}
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	return rl.rlim_cur;
}

} // namespace bench
