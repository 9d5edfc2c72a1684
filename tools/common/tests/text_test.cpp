// smcr/text.hpp: JSON escaping and errno names.
#include <gtest/gtest.h>

#include <cerrno>

#include "smcr/text.hpp"

using namespace smcr;

TEST(Text, JsonEscape)
{
	EXPECT_EQ(json_escape("plain"), "plain");
	EXPECT_EQ(json_escape("a\"b\\c"), "a\\\"b\\\\c");
	EXPECT_EQ(json_escape("l1\nl2\r\t"), "l1\\nl2\\r\\t");
	EXPECT_EQ(json_escape(std::string_view("\x01\x1f\b\f", 4)), "\\u0001\\u001f\\b\\f");
	EXPECT_EQ(json_escape(std::string_view("a\0b", 3)), "a\\u0000b");
	EXPECT_EQ(json_escape("caf\xc3\xa9 /"), "caf\xc3\xa9 /"); // UTF-8 and '/' pass through
}

TEST(Text, ErrnoName)
{
	EXPECT_EQ(errno_name(ECONNREFUSED), "ECONNREFUSED");
	EXPECT_EQ(errno_name(EPIPE), "EPIPE");
	EXPECT_EQ(errno_name(100000), "errno 100000");
}
