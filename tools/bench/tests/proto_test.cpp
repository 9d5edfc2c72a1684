// smcr-bench hello and byte-count encoding and hello validation.
#include <gtest/gtest.h>

#include "proto.hpp"

using namespace bench;

TEST(BenchProto, HelloBytes)
{
	auto b = encode_hello(Hello{Mode::Rr, 0x01020304});
	const std::array<uint8_t, 16> want = {'S', 'M', 'B', 'N', 0, 0, 0, 2, 1, 2, 3, 4, 0, 0, 0, 0};
	EXPECT_EQ(b, want);
}

TEST(BenchProto, HelloRoundTrip)
{
	for (Mode m : {Mode::Stream, Mode::Rr, Mode::Crr, Mode::Many}) {
		for (uint32_t size : {1u, 65536u, kMaxMsgSize}) {
			auto b = encode_hello(Hello{m, size});
			std::string err;
			auto h = decode_hello(b, err);
			ASSERT_TRUE(h) << err;
			EXPECT_EQ(h->mode, m);
			EXPECT_EQ(h->msg_size, size);
		}
	}
}

TEST(BenchProto, HelloValidation)
{
	std::string err;
	auto b = encode_hello(Hello{Mode::Stream, 100});
	b[0] = 'X';
	EXPECT_FALSE(decode_hello(b, err));
	EXPECT_NE(err.find("magic"), std::string::npos);

	b = encode_hello(Hello{Mode::Stream, 100});
	b[7] = 0;
	EXPECT_FALSE(decode_hello(b, err));
	EXPECT_NE(err.find("mode"), std::string::npos);
	b[7] = 5;
	EXPECT_FALSE(decode_hello(b, err));

	EXPECT_FALSE(decode_hello(encode_hello(Hello{Mode::Rr, 0}), err));
	EXPECT_NE(err.find("msg_size"), std::string::npos);
	EXPECT_FALSE(decode_hello(encode_hello(Hello{Mode::Rr, kMaxMsgSize + 1}), err));

	// The reserved word is not checked.
	b = encode_hello(Hello{Mode::Many, 1});
	b[15] = 1;
	EXPECT_TRUE(decode_hello(b, err));
}

TEST(BenchProto, Count)
{
	auto b = encode_count(0x0102030405060708ull);
	const std::array<uint8_t, 8> want = {1, 2, 3, 4, 5, 6, 7, 8};
	EXPECT_EQ(b, want);
	EXPECT_EQ(decode_count(b), 0x0102030405060708ull);
	EXPECT_EQ(decode_count(encode_count(UINT64_MAX)), UINT64_MAX);
	EXPECT_EQ(decode_count(encode_count(0)), 0u);
}
