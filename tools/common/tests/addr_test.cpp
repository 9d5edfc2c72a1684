#include <gtest/gtest.h>

#include "smcr/addr.hpp"

using namespace smcr;

TEST(Addr, ParseV4)
{
	auto a = SockAddr::parse("192.0.2.1", 8080);
	ASSERT_TRUE(a);
	EXPECT_EQ(a->family(), AF_INET);
	EXPECT_EQ(a->port(), 8080);
	EXPECT_EQ(a->to_string(), "192.0.2.1:8080");
}

TEST(Addr, ParseV6)
{
	auto a = SockAddr::parse("2001:db8::1", 1);
	ASSERT_TRUE(a);
	EXPECT_EQ(a->family(), AF_INET6);
	EXPECT_EQ(a->to_string(), "[2001:db8::1]:1");
	auto b = SockAddr::parse("[::1]", 2);
	ASSERT_TRUE(b);
	EXPECT_EQ(b->ip(), "::1");
}

TEST(Addr, Reject)
{
	EXPECT_FALSE(SockAddr::parse("example.com", 1));
	EXPECT_FALSE(SockAddr::parse("1.2.3.4.5", 1));
	EXPECT_FALSE(SockAddr::parse("", 1));
}

TEST(Addr, Any)
{
	EXPECT_EQ(SockAddr::any(false, 5).to_string(), "0.0.0.0:5");
	EXPECT_EQ(SockAddr::any(true, 5).to_string(), "[::]:5");
	EXPECT_TRUE(looks_like_ipv6("::1"));
	EXPECT_FALSE(looks_like_ipv6("127.0.0.1"));
}
