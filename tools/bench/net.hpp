// Socket and process helpers for smcr-bench: sockets per --family with the
// buffer options applied, EINTR-safe blocking I/O, clocks, fd limit.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "cli.hpp"
#include "smcr/addr.hpp"
#include "smcr/fd.hpp"
#include "smcr/text.hpp"

namespace bench {

// A run-time failure (exit 1); the message is printed after "smcr-bench: ".
struct Error : std::runtime_error {
	using std::runtime_error::runtime_error;
};

// "what: strerror(err)" as an Error.
[[noreturn]] void throw_errno(const std::string &what, int err);
using smcr::errno_name;

// socket() for the family (AF_SMC with SMCPROTO_SMC/SMC6, or AF_INET/6 TCP)
// with SO_REUSEADDR and SO_RCVBUF/SO_SNDBUF from the config. Returns -1
// with errno set.
int raw_socket(const Config &c, bool ipv6, int extra_flags);
// Same, throwing an Error.
smcr::UniqueFd open_socket(const Config &c, bool ipv6, int extra_flags);
// SO_RCVBUF/SO_SNDBUF if configured; returns 0 or an errno.
int apply_bufs(int fd, const Config &c);
// TCP_NODELAY; throws on failure for inet, best effort for AF_SMC.
void set_nodelay(int fd, const Config &c);

// Blocking I/O, restarting on EINTR; MSG_NOSIGNAL. read_exact throws on EOF.
void write_all(int fd, const void *buf, size_t len, const char *what);
void read_exact(int fd, void *buf, size_t len, const char *what);

uint64_t now_ns(); // CLOCK_MONOTONIC
void sleep_ns(uint64_t ns); // restarts after signals

// Raises RLIMIT_NOFILE's soft limit to the hard limit; returns the new one.
uint64_t raise_nofile();

} // namespace bench
