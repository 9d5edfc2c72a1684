// Nearest-rank percentiles and latency summaries; /proc/meminfo parsing.
#include <gtest/gtest.h>

#include <numeric>

#include "client.hpp"
#include "stats.hpp"

using namespace bench;

TEST(BenchStats, NearestRank)
{
	std::vector<uint64_t> v(100);
	std::iota(v.begin(), v.end(), 1); // 1..100
	EXPECT_EQ(percentile(v, 50), 50u);
	EXPECT_EQ(percentile(v, 99), 99u);
	EXPECT_EQ(percentile(v, 99.9), 100u); // ceil(99.9) = 100
	EXPECT_EQ(percentile(v, 100), 100u);
	EXPECT_EQ(percentile(v, 1), 1u);
	EXPECT_EQ(percentile(v, 0), 1u);
	EXPECT_EQ(percentile(v, 0.5), 1u);
	EXPECT_EQ(percentile(v, 50.5), 51u);
}

TEST(BenchStats, NoFloatingPointOffByOne)
{
	std::vector<uint64_t> v(1000);
	std::iota(v.begin(), v.end(), 1);
	EXPECT_EQ(percentile(v, 99.9), 999u);
	EXPECT_EQ(percentile(v, 99), 990u);
	EXPECT_EQ(percentile(v, 50), 500u);
	std::vector<uint64_t> w(10000);
	std::iota(w.begin(), w.end(), 1);
	EXPECT_EQ(percentile(w, 99.99), 9999u);
	EXPECT_EQ(percentile(w, 99.9), 9990u);
}

TEST(BenchStats, SmallSets)
{
	std::vector<uint64_t> one{7};
	EXPECT_EQ(percentile(one, 50), 7u);
	EXPECT_EQ(percentile(one, 99.9), 7u);
	std::vector<uint64_t> two{1, 9};
	EXPECT_EQ(percentile(two, 50), 1u); // ceil(1.0) = rank 1
	EXPECT_EQ(percentile(two, 50.1), 9u);
	EXPECT_EQ(percentile(std::vector<uint64_t>{}, 50), 0u);
}

TEST(BenchStats, Summary)
{
	std::vector<uint64_t> v{5000, 1000, 3000, 2000, 4000};
	Summary s = summarize(v);
	EXPECT_EQ(s.count, 5u);
	EXPECT_EQ(s.min, 1000u);
	EXPECT_EQ(s.max, 5000u);
	EXPECT_EQ(s.p50, 3000u);
	EXPECT_EQ(s.p99, 5000u);
	EXPECT_EQ(s.p999, 5000u);
	EXPECT_DOUBLE_EQ(s.mean, 3000.0);
	EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
	EXPECT_DOUBLE_EQ(ns_to_us(s.p50), 3.0);

	std::vector<uint64_t> empty;
	Summary e = summarize(empty);
	EXPECT_EQ(e.count, 0u);
	EXPECT_EQ(e.max, 0u);
}

TEST(BenchStats, Meminfo)
{
	auto m = parse_meminfo("MemTotal:        8000000 kB\n"
			       "MemFree:         1000000 kB\n"
			       "MemAvailable:    5000000 kB\n"
			       "Buffers:           10000 kB\n"
			       "Slab:             300000 kB\n"
			       "HugePages_Total:       0\n");
	EXPECT_EQ(m.total, 8000000u);
	EXPECT_EQ(m.free, 1000000u);
	EXPECT_EQ(m.avail, 5000000u);
	EXPECT_EQ(m.slab, 300000u);
	auto z = parse_meminfo("garbage\n");
	EXPECT_EQ(z.avail, 0u);
	auto r = read_meminfo();
	EXPECT_GT(r.total, 0u);
	EXPECT_GT(r.avail, 0u);
}
