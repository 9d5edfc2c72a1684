// smctest subcommands. Each returns the process exit status.
#pragma once

#include "cli.hpp"

namespace smctest {

int run_server(const Config &c);
int run_client(const Config &c);
int run_diag(const Config &c);
int run_hold(const Config &c);
int run_probe(const Config &c); // probes.cpp

} // namespace smctest
