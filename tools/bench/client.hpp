// smcr-bench client: stream, rr, crr and many modes; one JSON line each.
#pragma once

#include <cstdint>
#include <string_view>

#include "cli.hpp"

namespace bench {

// Runs the configured mode and prints the JSON result. Returns the exit
// status; throws Error on failures that leave no result.
int run_client(const Config &c);

// The /proc/meminfo fields smcr-bench reports, in KiB (0 when missing).
struct MemInfo {
	uint64_t total = 0, free = 0, avail = 0, slab = 0;
};
MemInfo parse_meminfo(std::string_view text);
MemInfo read_meminfo();

} // namespace bench
