// Helpers shared by the probe files, and the probes that live outside
// probes.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "cli.hpp"
#include "smcr/fd.hpp"

namespace smctest::probe {

// Throws Failure(what) unless ok.
void check(bool ok, const std::string &what);
// Writes --ready-file: the listener lfd is listening.
void announce(const Config &c, int lfd);
// Blocking accept with the probes' timeout.
smcr::UniqueFd accept_blocking(int lfd);
// Drains until EOF; returns the byte count.
uint64_t drain(int fd);
// Expects a -1/errno result.
void expect_errno(long rc, int want, const std::string &what);

// tcphooks.cpp: the options that hook TCP's data path
void no_tls_server(const Config &c, int lfd);
void no_tls_client(const Config &c);
void tcp_hooks_server(const Config &c, int lfd);
void tcp_hooks_client(const Config &c);

} // namespace smctest::probe
