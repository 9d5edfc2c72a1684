// Data movement with byte-exact accounting.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cli.hpp"
#include "smcr/pattern.hpp"

namespace smctest {

struct TransferSpec {
	uint64_t send_bytes = 0;	// pattern(send_seed) bytes to send
	uint64_t send_seed = 0;
	uint64_t msgsize = 64 * 1024;	// max bytes per send()/recv()
	bool shutdown_after_send = true; // shutdown(SHUT_WR) once all is sent
	uint64_t shutdown_after_recv = 0; // ... and this many bytes received (or EOF)
	std::function<void()> before_shutdown; // called once before SHUT_WR; may block
	bool recv = true;		// read until EOF
	size_t capture_limit = 0;	// keep the first N received bytes
	std::optional<uint64_t> verify_seed; // compare received bytes to pattern
};

struct TransferResult {
	smcr::Checksum sent;
	smcr::Checksum received;
	std::string captured;
	std::optional<uint64_t> mismatch_at; // first offset differing from pattern
};

// Sends and receives concurrently until both sides are done. Throws Failure
// on socket errors.
TransferResult transfer(int fd, const TransferSpec &spec, IoMode io);

// Echoes everything until EOF, then shuts down the write side. Returns the
// checksum of the echoed stream.
smcr::Checksum echo_loop(int fd, uint64_t msgsize, IoMode io);

// "SMCTEST-SINK bytes=N fnv=HEX\n" and its parser.
std::string sink_report(const smcr::Checksum &c);
struct SinkReport {
	uint64_t bytes;
	uint64_t fnv;
};
std::optional<SinkReport> parse_sink_report(const std::string &text);

} // namespace smctest
