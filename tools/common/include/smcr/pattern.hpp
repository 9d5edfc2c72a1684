// Deterministic data pattern and a byte-exact checksum.
//
// Byte i of the stream for seed s depends only on (s, i), so any chunking of
// a transfer produces the same bytes, and a receiver that knows (s, length)
// can compute the expected checksum without the data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace smcr {

// Fills out with stream bytes [offset, offset + out.size()) for seed.
void pattern_fill(uint64_t seed, uint64_t offset, std::span<uint8_t> out);

// FNV-1a 64-bit over a byte stream, plus a byte count.
class Checksum {
public:
	void update(std::span<const uint8_t> data) noexcept;
	uint64_t value() const noexcept { return h_; }
	uint64_t bytes() const noexcept { return n_; }
	std::string hex() const;

private:
	uint64_t h_ = 0xcbf29ce484222325ULL;
	uint64_t n_ = 0;
};

// Checksum of pattern(seed) bytes [0, length).
Checksum pattern_checksum(uint64_t seed, uint64_t length);

// Index of the first byte of data that differs from pattern(seed) at
// offset, or data.size() when all match.
size_t pattern_mismatch(uint64_t seed, uint64_t offset, std::span<const uint8_t> data);

} // namespace smcr
