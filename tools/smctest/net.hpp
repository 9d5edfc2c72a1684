// Socket helpers shared by smctest's client, server and probes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "cli.hpp"
#include "smcr/text.hpp"
#include "smcr/addr.hpp"
#include "smcr/diag.hpp"
#include "smcr/fd.hpp"

namespace smctest {

// A test failure (exit 1) with a message for the log.
struct Failure : std::runtime_error {
	using std::runtime_error::runtime_error;
};
// The check does not apply here (exit 4).
struct Skip : std::runtime_error {
	using std::runtime_error::runtime_error;
};

// "what: strerror(errno)" as a Failure.
[[noreturn]] void throw_errno(const std::string &what, int err);
using smcr::errno_name;

// Thread-safe logging to stdout (info) and stderr (errors).
void say(const std::string &msg);
void complain(const std::string &msg);
void set_quiet(bool q);

uint64_t now_ms();
void sleep_ms(uint64_t ms);

// IPPROTO_SMC of Linux 6.11's <linux/in.h>, which Debian 12's headers lack
inline constexpr int ipproto_smc = 256;

// socket() for the configured family: AF_SMC with SMCPROTO_SMC/SMC6,
// AF_INET/AF_INET6 TCP, or AF_INET/AF_INET6 with IPPROTO_SMC. extra_flags
// may hold SOCK_NONBLOCK|SOCK_CLOEXEC.
// Returns the fd or -1 with errno set (no throw, for probes).
int raw_socket(Family fam, bool ipv6, int extra_flags = 0);
smcr::UniqueFd make_socket(Family fam, bool ipv6, int extra_flags = 0);

void set_nonblock(int fd, bool on);
// SO_KEEPALIVE with TCP_KEEPIDLE idle_s (TCP_KEEPINTVL 1, TCP_KEEPCNT 2);
// returns TCP_KEEPIDLE as getsockopt reads it back.
int set_keepalive(int fd, unsigned idle_s);
bool is_nonblock(int fd);
bool is_cloexec(int fd);

smcr::SockAddr peer_addr(const Config &c);	// --addr/--port
smcr::SockAddr bind_addr(const Config &c);	// --bind or any, --port

// Listening socket for the config (SO_REUSEADDR, backlog); writes
// --ready-file when listening.
smcr::UniqueFd make_listener(const Config &c, int extra_flags = 0);
void write_ready_file(const std::string &path);

// Connects per --connect (block / nonblocking + poll / + epoll, with
// EINPROGRESS and SO_ERROR handling) and --retry. Returns a connected fd in
// blocking mode.
smcr::UniqueFd dial(const Config &c, const smcr::SockAddr &to);

// Waits for the listener to become readable (timeout_ms, -1 = forever) and
// accepts with accept4(flags). Throws on timeout.
smcr::UniqueFd accept_one(int lfd, int flags, int timeout_ms);

// Waits for events on fd; returns revents (0 on timeout).
short wait_fd(int fd, short events, int timeout_ms);

// Reads/writes everything (blocking fd); read_exact throws on early EOF.
void write_all(int fd, const void *buf, size_t len);
void read_exact(int fd, void *buf, size_t len);

std::string local_name(int fd);
std::string peer_name(int fd);

// The sock_diag entry of an AF_SMC socket (found by its inode; a few
// tries, the dump may lag). Throws Failure.
smcr::DiagEntry diag_entry(int fd, const std::string &label);

// Checks that a connected or accepted socket is of --family (SO_DOMAIN,
// SO_PROTOCOL: an IPPROTO_SMC listener's connections are AF_INET/AF_INET6
// with IPPROTO_SMC, too), then --expect-* on an SMC socket by finding
// fstat(fd).st_ino in the sock_diag dump. --expect-* are ignored (with a
// note) for --family tcp. Throws Failure.
void check_expect(const Config &c, int fd, const std::string &label);

} // namespace smctest
