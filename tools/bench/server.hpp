// smcr-bench server: one listening socket, N epoll worker threads.
#pragma once

#include "cli.hpp"

namespace bench {

// Serves until SIGINT/SIGTERM (or the first stream/rr connection with
// --once). Returns the exit status; throws Error on setup failures.
int run_server(const Config &c);

} // namespace bench
