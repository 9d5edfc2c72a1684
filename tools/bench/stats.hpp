// Latency statistics over samples in nanoseconds.
//
// Percentiles use the nearest-rank definition: for N sorted samples the
// p-th percentile is the sample at 1-based rank ceil(p/100 * N) (rank at
// least 1), so it is always an observed value; p = 100 is the maximum.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace bench {

// sorted must be ascending and non-empty; 0 < p <= 100 (p = 0 gives the min).
// p is taken to 1e-4 precision (99.9 and 99.99 are exact).
uint64_t percentile(std::span<const uint64_t> sorted, double p);

struct Summary {
	size_t count = 0;
	uint64_t min = 0, max = 0, p50 = 0, p99 = 0, p999 = 0;
	double mean = 0;
};

// Sorts samples in place; all zero for an empty vector.
Summary summarize(std::vector<uint64_t> &samples);

inline double ns_to_us(uint64_t ns) { return static_cast<double>(ns) / 1000.0; }
inline double ns_to_us(double ns) { return ns / 1000.0; }

} // namespace bench
