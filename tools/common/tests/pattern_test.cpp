#include <gtest/gtest.h>

#include <vector>

#include "smcr/pattern.hpp"

using namespace smcr;

TEST(Pattern, ChunkingInvariant)
{
	std::vector<uint8_t> whole(1000), parts(1000);
	pattern_fill(7, 3, whole);
	size_t off = 0;
	for (size_t step : {1, 7, 13, 64, 915}) {
		size_t n = std::min(step, parts.size() - off);
		pattern_fill(7, 3 + off, std::span<uint8_t>(parts.data() + off, n));
		off += n;
	}
	ASSERT_EQ(off, parts.size());
	EXPECT_EQ(whole, parts);
}

TEST(Pattern, SeedsDiffer)
{
	std::vector<uint8_t> a(64), b(64);
	pattern_fill(1, 0, a);
	pattern_fill(2, 0, b);
	EXPECT_NE(a, b);
}

TEST(Pattern, ChecksumMatchesFill)
{
	std::vector<uint8_t> d(100000);
	pattern_fill(42, 0, d);
	Checksum c;
	c.update(std::span<const uint8_t>(d.data(), 50001));
	c.update(std::span<const uint8_t>(d.data() + 50001, d.size() - 50001));
	Checksum p = pattern_checksum(42, d.size());
	EXPECT_EQ(c.value(), p.value());
	EXPECT_EQ(c.bytes(), 100000u);
	EXPECT_EQ(p.hex().size(), 16u);
}

TEST(Pattern, ChecksumKnownValues)
{
	Checksum empty;
	EXPECT_EQ(empty.hex(), "cbf29ce484222325");
	Checksum a;
	const uint8_t x[] = {'a'};
	a.update(x);
	EXPECT_EQ(a.value(), 0xaf63dc4c8601ec8cULL); // FNV-1a 64 of "a"
}

TEST(Pattern, Mismatch)
{
	std::vector<uint8_t> d(5000);
	pattern_fill(9, 100, d);
	EXPECT_EQ(pattern_mismatch(9, 100, d), d.size());
	d[4321] ^= 1;
	EXPECT_EQ(pattern_mismatch(9, 100, d), 4321u);
	EXPECT_EQ(pattern_mismatch(9, 101, d), 0u);
}
