#include "smcr/pattern.hpp"

#include <array>
#include <cstdio>
#include <vector>

namespace smcr {
namespace {

uint64_t splitmix64(uint64_t x) noexcept
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint8_t pattern_byte(uint64_t seed, uint64_t i) noexcept
{
	uint64_t w = splitmix64(seed * 0x100000001b3ULL ^ (i / 8));
	return static_cast<uint8_t>(w >> ((i % 8) * 8));
}

} // namespace

void pattern_fill(uint64_t seed, uint64_t offset, std::span<uint8_t> out)
{
	size_t k = 0;
	// Unaligned head.
	while (k < out.size() && (offset + k) % 8 != 0) {
		out[k] = pattern_byte(seed, offset + k);
		++k;
	}
	// Whole 8-byte words.
	while (k + 8 <= out.size()) {
		uint64_t w = splitmix64(seed * 0x100000001b3ULL ^ ((offset + k) / 8));
		for (int b = 0; b < 8; ++b)
			out[k + b] = static_cast<uint8_t>(w >> (b * 8));
		k += 8;
	}
	while (k < out.size()) {
		out[k] = pattern_byte(seed, offset + k);
		++k;
	}
}

void Checksum::update(std::span<const uint8_t> data) noexcept
{
	uint64_t h = h_;
	for (uint8_t c : data) {
		h ^= c;
		h *= 0x100000001b3ULL;
	}
	h_ = h;
	n_ += data.size();
}

std::string Checksum::hex() const
{
	char buf[20];
	std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(h_));
	return buf;
}

Checksum pattern_checksum(uint64_t seed, uint64_t length)
{
	Checksum c;
	std::vector<uint8_t> buf(1 << 16);
	uint64_t off = 0;
	while (off < length) {
		size_t n = static_cast<size_t>(std::min<uint64_t>(buf.size(), length - off));
		std::span<uint8_t> s(buf.data(), n);
		pattern_fill(seed, off, s);
		c.update(s);
		off += n;
	}
	return c;
}

size_t pattern_mismatch(uint64_t seed, uint64_t offset, std::span<const uint8_t> data)
{
	std::array<uint8_t, 4096> exp;
	size_t done = 0;
	while (done < data.size()) {
		size_t n = std::min(exp.size(), data.size() - done);
		pattern_fill(seed, offset + done, std::span<uint8_t>(exp.data(), n));
		for (size_t i = 0; i < n; ++i)
			if (exp[i] != data[done + i])
				return done + i;
		done += n;
	}
	return data.size();
}

} // namespace smcr
