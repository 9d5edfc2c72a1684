// smcr-bench JSON writer: escaping, numbers, nesting.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "json.hpp"

using namespace bench;

TEST(BenchJson, Numbers)
{
	EXPECT_EQ(json_number(0), "0");
	EXPECT_EQ(json_number(1.5), "1.5");
	EXPECT_EQ(json_number(2.0), "2");
	EXPECT_EQ(json_number(12345.6789), "12345.679");
	EXPECT_EQ(json_number(0.001), "0.001");
	EXPECT_EQ(json_number(0.0004), "0");
	EXPECT_EQ(json_number(-0.0001), "0");
	EXPECT_EQ(json_number(-2.25), "-2.25");
	EXPECT_EQ(json_number(1e15), "1000000000000000");
	EXPECT_EQ(json_number(100, 0), "100");
	EXPECT_EQ(json_number(99.6, 0), "100");
	EXPECT_EQ(json_number(1.0000016, 6), "1.000002");
	EXPECT_EQ(json_number(0.25, 6), "0.25");
	EXPECT_EQ(json_number(std::nan("")), "null");
	EXPECT_EQ(json_number(std::numeric_limits<double>::infinity()), "null");
}

TEST(BenchJson, Object)
{
	JsonObject errs;
	errs.add("ECONNREFUSED", 3);
	JsonObject j;
	j.add("mode", "stream")
		.add("label", std::string("a \"b\""))
		.add("bytes", uint64_t{18446744073709551615ull})
		.add("delta", int64_t{-12})
		.add("secs", 5.01)
		.add("ok", true)
		.add("errors", errs)
		.add("empty", JsonObject());
	EXPECT_EQ(j.str(), "{\"mode\":\"stream\",\"label\":\"a \\\"b\\\"\",\"bytes\":18446744073709551615,"
			   "\"delta\":-12,\"secs\":5.01,\"ok\":true,\"errors\":{\"ECONNREFUSED\":3},\"empty\":{}}");
	EXPECT_EQ(JsonObject().str(), "{}");
	JsonObject k;
	k.add("we\"ird\nkey", 1);
	EXPECT_EQ(k.str(), "{\"we\\\"ird\\nkey\":1}");
}
