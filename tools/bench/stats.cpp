// Nearest-rank percentiles and a summary of latency samples.
#include "stats.hpp"

#include <algorithm>
#include <cmath>

namespace bench {

uint64_t percentile(std::span<const uint64_t> sorted, double p)
{
	if (sorted.empty())
		return 0;
	// rank = ceil(p/100 * N) in integer math on p in millionths of 100%, so
	// 99.9% of 1000 samples is rank 999, not 1000 by a rounding error.
	uint64_t ppm = static_cast<uint64_t>(std::llround(std::clamp(p, 0.0, 100.0) * 10000.0));
	unsigned __int128 n = sorted.size();
	uint64_t rank = static_cast<uint64_t>((n * ppm + 999999) / 1000000);
	rank = std::clamp<uint64_t>(rank, 1, sorted.size());
	return sorted[rank - 1];
}

Summary summarize(std::vector<uint64_t> &samples)
{
	Summary s;
	if (samples.empty())
		return s;
	std::sort(samples.begin(), samples.end());
	s.count = samples.size();
	s.min = samples.front();
	s.max = samples.back();
	s.p50 = percentile(samples, 50);
	s.p99 = percentile(samples, 99);
	s.p999 = percentile(samples, 99.9);
	long double sum = 0;
	for (uint64_t v : samples)
		sum += v;
	s.mean = static_cast<double>(sum / samples.size());
	return s;
}

} // namespace bench
