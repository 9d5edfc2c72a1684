// smctest subcommands. Each returns the process exit status.
#pragma once

#include <string>
#include <vector>

#include "cli.hpp"
#include "smcr/diag.hpp"

namespace smctest {

int run_server(const Config &c);
int run_client(const Config &c);
int run_diag(const Config &c);
// The listing run_diag prints (table or --kv, optional --summary, --port filter).
std::string format_diag(const Config &c, const std::vector<smcr::DiagEntry> &entries);
int run_hold(const Config &c);
int run_probe(const Config &c); // probes.cpp
int run_clc_peer(const Config &c); // clcpeer.cpp
std::vector<std::string> clc_peer_script_names();
int run_link_peer(const Config &c); // linkpeer.cpp

} // namespace smctest
