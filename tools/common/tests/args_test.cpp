#include <gtest/gtest.h>

#include "smcr/args.hpp"

using namespace smcr;

TEST(Args, ParseU64)
{
	EXPECT_EQ(parse_u64("0"), 0u);
	EXPECT_EQ(parse_u64("12345"), 12345u);
	EXPECT_EQ(parse_u64("0x03010000"), 0x03010000u);
	EXPECT_EQ(parse_u64("0XfF"), 255u);
	EXPECT_FALSE(parse_u64(""));
	EXPECT_FALSE(parse_u64("0x"));
	EXPECT_FALSE(parse_u64("12a"));
	EXPECT_FALSE(parse_u64("-1"));
	EXPECT_FALSE(parse_u64("99999999999999999999999"));
	EXPECT_FALSE(parse_u32("0x100000000"));
	EXPECT_EQ(parse_u32("0xffffffff"), 0xffffffffu);
}

TEST(Args, ParseSize)
{
	EXPECT_EQ(parse_size("4096"), 4096u);
	EXPECT_EQ(parse_size("64K"), 65536u);
	EXPECT_EQ(parse_size("64k"), 65536u);
	EXPECT_EQ(parse_size("64KiB"), 65536u);
	EXPECT_EQ(parse_size("100M"), 100ull << 20);
	EXPECT_EQ(parse_size("100MiB"), 100ull << 20);
	EXPECT_EQ(parse_size("1G"), 1ull << 30);
	EXPECT_EQ(parse_size("0x10"), 16u);
	EXPECT_FALSE(parse_size("M"));
	EXPECT_FALSE(parse_size("10X"));
	EXPECT_FALSE(parse_size("10Mb"));
	EXPECT_FALSE(parse_size("99999999999999999T"));
}

TEST(Args, ParseDuration)
{
	EXPECT_EQ(parse_duration_ms("500ms"), 500u);
	EXPECT_EQ(parse_duration_ms("2s"), 2000u);
	EXPECT_EQ(parse_duration_ms("3"), 3000u);
	EXPECT_EQ(parse_duration_ms("1.5s"), 1500u);
	EXPECT_EQ(parse_duration_ms(".25"), 250u);
	EXPECT_FALSE(parse_duration_ms("s"));
	EXPECT_FALSE(parse_duration_ms("1.s"));
	EXPECT_FALSE(parse_duration_ms("abc"));
}

TEST(Args, Cursor)
{
	ArgCursor c({"--port", "80", "--bytes=1M", "--flag", "pos"});
	EXPECT_EQ(c.next(), "--port");
	EXPECT_EQ(c.value_u64(), 80u);
	EXPECT_EQ(c.next(), "--bytes");
	EXPECT_EQ(c.value_size(), 1u << 20);
	EXPECT_EQ(c.next(), "--flag");
	EXPECT_EQ(c.next(), "pos");
	EXPECT_TRUE(c.done());
}

TEST(Args, CursorMissingValue)
{
	ArgCursor c({"--port"});
	c.next();
	EXPECT_THROW(c.value(), ArgError);
	ArgCursor d({"--port", "x"});
	d.next();
	EXPECT_THROW(d.value_u64(), ArgError);
}
