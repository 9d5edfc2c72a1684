// Tiny one-line JSON object writer for smcr-bench results: keys in insertion
// order, strings escaped, doubles with up to 3 (or given) decimals.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

namespace bench {

// "%.<decimals>f" without trailing zeros ("1.5", "2", "0.001" for 3);
// NaN/inf -> "null".
std::string json_number(double v, int decimals = 3);

class JsonObject {
public:
	JsonObject &add(std::string_view key, std::string_view v);
	JsonObject &add(std::string_view key, const char *v) { return add(key, std::string_view(v)); }
	JsonObject &add(std::string_view key, const std::string &v) { return add(key, std::string_view(v)); }
	JsonObject &add(std::string_view key, bool v) { return raw(key, v ? "true" : "false"); }
	JsonObject &add(std::string_view key, double v, int decimals = 3) { return raw(key, json_number(v, decimals)); }
	template <std::integral T>
		requires(!std::same_as<T, bool>)
	JsonObject &add(std::string_view key, T v)
	{
		return raw(key, std::to_string(v));
	}
	JsonObject &add(std::string_view key, const JsonObject &nested) { return raw(key, nested.str()); }
	// Adds an already encoded JSON value.
	JsonObject &raw(std::string_view key, std::string_view json);

	std::string str() const { return "{" + body_ + "}"; }

private:
	std::string body_;
};

} // namespace bench
