#include "smcr/args.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace smcr {

std::optional<uint64_t> parse_u64(std::string_view s)
{
	int base = 10;
	if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s.remove_prefix(2);
		base = 16;
	}
	if (s.empty())
		return std::nullopt;
	uint64_t v = 0;
	auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
	if (ec != std::errc() || p != s.data() + s.size())
		return std::nullopt;
	return v;
}

std::optional<uint32_t> parse_u32(std::string_view s)
{
	auto v = parse_u64(s);
	if (!v || *v > std::numeric_limits<uint32_t>::max())
		return std::nullopt;
	return static_cast<uint32_t>(*v);
}

std::optional<uint64_t> parse_size(std::string_view s)
{
	if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_u64(s);
	size_t i = 0;
	while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
		++i;
	if (i == 0)
		return std::nullopt;
	auto num = parse_u64(s.substr(0, i));
	if (!num)
		return std::nullopt;
	std::string_view suf = s.substr(i);
	uint64_t mult = 1;
	if (suf.empty() || suf == "B") {
		mult = 1;
	} else {
		char u = static_cast<char>(std::toupper(static_cast<unsigned char>(suf[0])));
		std::string_view rest = suf.substr(1);
		if (!(rest.empty() || rest == "iB" || rest == "B"))
			return std::nullopt;
		switch (u) {
		case 'K': mult = 1ULL << 10; break;
		case 'M': mult = 1ULL << 20; break;
		case 'G': mult = 1ULL << 30; break;
		case 'T': mult = 1ULL << 40; break;
		default: return std::nullopt;
		}
	}
	if (*num > std::numeric_limits<uint64_t>::max() / mult)
		return std::nullopt;
	return *num * mult;
}

std::optional<uint64_t> parse_duration_ms(std::string_view s)
{
	uint64_t mult = 1000;
	if (s.ends_with("ms")) {
		mult = 1;
		s.remove_suffix(2);
	} else if (s.ends_with("s")) {
		s.remove_suffix(1);
	}
	if (s.empty())
		return std::nullopt;
	size_t dot = s.find('.');
	if (dot == std::string_view::npos) {
		auto v = parse_u64(s);
		if (!v || s.starts_with("0x") || *v > std::numeric_limits<uint64_t>::max() / mult)
			return std::nullopt;
		return *v * mult;
	}
	auto ip = dot == 0 ? std::optional<uint64_t>(0) : parse_u64(s.substr(0, dot));
	std::string_view frac = s.substr(dot + 1);
	if (!ip || frac.empty() || frac.size() > 3)
		return std::nullopt;
	auto fv = parse_u64(frac);
	if (!fv)
		return std::nullopt;
	uint64_t scale = 1;
	for (size_t k = 0; k < frac.size(); ++k)
		scale *= 10;
	return *ip * mult + (*fv * mult) / scale;
}

std::string ArgCursor::next()
{
	inline_.reset();
	cur_ = args_.at(pos_++);
	if (cur_.starts_with("--")) {
		auto eq = cur_.find('=');
		if (eq != std::string::npos) {
			inline_ = cur_.substr(eq + 1);
			cur_.resize(eq);
		}
	}
	return cur_;
}

std::string ArgCursor::value()
{
	if (inline_) {
		std::string v = *inline_;
		inline_.reset();
		return v;
	}
	if (pos_ >= args_.size())
		throw ArgError("option " + cur_ + " needs a value");
	return args_[pos_++];
}

uint64_t ArgCursor::value_u64()
{
	std::string v = value();
	auto n = parse_u64(v);
	if (!n)
		throw ArgError("option " + cur_ + ": bad number '" + v + "'");
	return *n;
}

uint64_t ArgCursor::value_size()
{
	std::string v = value();
	auto n = parse_size(v);
	if (!n)
		throw ArgError("option " + cur_ + ": bad size '" + v + "'");
	return *n;
}

uint64_t ArgCursor::value_ms()
{
	std::string v = value();
	auto n = parse_duration_ms(v);
	if (!n)
		throw ArgError("option " + cur_ + ": bad duration '" + v + "'");
	return *n;
}

} // namespace smcr
