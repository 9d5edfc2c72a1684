// JSON escaping and number formatting for smcr-bench output.
#include "json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "smcr/text.hpp"

namespace bench {

using smcr::json_escape;

std::string json_number(double v, int decimals)
{
	if (!std::isfinite(v))
		return "null";
	char b[64];
	std::snprintf(b, sizeof(b), "%.*f", std::clamp(decimals, 0, 9), v);
	std::string s(b);
	if (s.find('.') != std::string::npos) {
		while (s.back() == '0')
			s.pop_back();
		if (s.back() == '.')
			s.pop_back();
	}
	if (s == "-0")
		s = "0";
	return s;
}

JsonObject &JsonObject::add(std::string_view key, std::string_view v)
{
	return raw(key, "\"" + json_escape(v) + "\"");
}

JsonObject &JsonObject::raw(std::string_view key, std::string_view json)
{
	if (!body_.empty())
		body_ += ',';
	body_ += '"';
	body_ += json_escape(key);
	body_ += "\":";
	body_ += json;
	return *this;
}

} // namespace bench
