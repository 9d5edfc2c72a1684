// Reading CLC messages from a TCP socket, for smctest's scripted peers
// (clc-peer, link-peer): exactly to the length a header announces, with a
// deadline, and a description of whatever came instead.
#pragma once

#include <cstdint>
#include <string>

#include "clc.hpp"

namespace smctest {

struct ReadResult {
	clc::Bytes data;
	bool eof = false;
	int err = 0; // errno of a failed recv, e.g. ECONNRESET
	bool timed_out = false;
};

// Reads up to len bytes until deadline (now_ms() clock); stops at EOF.
ReadResult read_some(int fd, size_t len, uint64_t deadline);

// One CLC message, read exactly to its announced length within wait_ms;
// throws Failure naming what was expected and what came.
clc::Bytes read_clc(int fd, uint64_t wait_ms, const std::string &what);

} // namespace smctest
