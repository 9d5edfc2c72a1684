// libsmc-preload.so - run unmodified TCP programs over AF_SMC.
//
// Interposes socket() only:
//   socket(AF_INET,  SOCK_STREAM[|SOCK_NONBLOCK|SOCK_CLOEXEC], 0 or IPPROTO_TCP)
//     -> socket(AF_SMC, same type|flags, SMCPROTO_SMC)
//   socket(AF_INET6, ...) -> socket(AF_SMC, ..., SMCPROTO_SMC6)
// Everything else goes to the real socket() untouched. If AF_SMC is not
// available (EAFNOSUPPORT: smcr not loaded) the original call is made, so a
// preloaded program never breaks because of the shim.
//
// SMC_DEBUG=1 prints one line per converted socket to stderr.
//
// Limitation: LD_PRELOAD only affects dynamically linked programs that call
// socket() through libc's dynamic symbol. Statically linked binaries (e.g.
// most Go programs) and programs issuing the raw syscall are not converted.
#include <dlfcn.h>
#include <linux/smcr.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using socket_fn = int (*)(int, int, int);

std::atomic<socket_fn> real_socket{nullptr};
std::atomic<int> debug{-1}; // -1: not read yet

// dlsym() is thread-safe; a race between two first callers just stores
// the same pointer twice.
socket_fn resolve()
{
	socket_fn f = real_socket.load(std::memory_order_acquire);
	if (f)
		return f;
	f = reinterpret_cast<socket_fn>(dlsym(RTLD_NEXT, "socket"));
	if (f)
		real_socket.store(f, std::memory_order_release);
	return f;
}

bool debug_on()
{
	int d = debug.load(std::memory_order_relaxed);
	if (d < 0) {
		const char *e = std::getenv("SMC_DEBUG");
		d = (e && *e && std::strcmp(e, "0") != 0) ? 1 : 0;
		debug.store(d, std::memory_order_relaxed);
	}
	return d == 1;
}

int raw_socket(socket_fn f, int domain, int type, int protocol)
{
	if (f)
		return f(domain, type, protocol);
	return static_cast<int>(::syscall(SYS_socket, domain, type, protocol));
}

// One write(2) per line: no stdio locking inside socket().
void log_line(int domain, int type, int fd)
{
	char buf[160];
	int n;
	if (fd >= 0)
		n = std::snprintf(buf, sizeof(buf), "smc-preload[%d]: socket(%s, 0x%x) -> AF_SMC fd %d\n",
				  static_cast<int>(getpid()), domain == AF_INET6 ? "AF_INET6" : "AF_INET", type, fd);
	else
		n = std::snprintf(buf, sizeof(buf), "smc-preload[%d]: AF_SMC unavailable, socket(%s, 0x%x) stays TCP\n",
				  static_cast<int>(getpid()), domain == AF_INET6 ? "AF_INET6" : "AF_INET", type);
	if (n > 0) {
		size_t len = static_cast<size_t>(n) < sizeof(buf) ? static_cast<size_t>(n) : sizeof(buf) - 1;
		ssize_t w = ::write(2, buf, len);
		(void)w;
	}
}

__attribute__((constructor)) void init()
{
	resolve();
	debug_on();
}

} // namespace

extern "C" __attribute__((visibility("default"))) int socket(int domain, int type, int protocol)
{
	socket_fn f = resolve();
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
	if ((domain == AF_INET || domain == AF_INET6) && base == SOCK_STREAM &&
	    (protocol == 0 || protocol == IPPROTO_TCP)) {
		int saved = errno;
		int fd = raw_socket(f, AF_SMC, type, domain == AF_INET6 ? SMCPROTO_SMC6 : SMCPROTO_SMC);
		if (fd >= 0) {
			if (debug_on())
				log_line(domain, type, fd);
			return fd;
		}
		if (errno != EAFNOSUPPORT)
			return fd;
		if (debug_on())
			log_line(domain, type, -1);
		errno = saved;
	}
	return raw_socket(f, domain, type, protocol);
}
