// Tiny command-line helpers: number/size/duration parsing and a
// long-option cursor ("--name value" and "--name=value").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace smcr {

// Unsigned integers: decimal or 0x-hex, full string, no overflow.
std::optional<uint64_t> parse_u64(std::string_view s);
std::optional<uint32_t> parse_u32(std::string_view s);
// Sizes: "4096", "64K"/"64KiB"/"64k", "100M"/"100MiB", "1G" (binary units).
std::optional<uint64_t> parse_size(std::string_view s);
// Durations in milliseconds: "500ms", "2s", "2" (seconds), "1.5s".
std::optional<uint64_t> parse_duration_ms(std::string_view s);

class ArgError : public std::exception {
public:
	explicit ArgError(std::string msg) : msg_(std::move(msg)) {}
	const char *what() const noexcept override { return msg_.c_str(); }

private:
	std::string msg_;
};

// Walks argv. For "--opt=value" the value is split off; value() consumes the
// inline value or the next argument.
class ArgCursor {
public:
	explicit ArgCursor(std::vector<std::string> args) : args_(std::move(args)) {}
	bool done() const { return pos_ >= args_.size(); }
	// Next token; for "--x=y" returns "--x" and remembers "y".
	std::string next();
	std::string value();		// throws ArgError when missing
	uint64_t value_u64();		// throws on bad number
	uint64_t value_size();
	uint64_t value_ms();
	const std::string &current() const { return cur_; }

private:
	std::vector<std::string> args_;
	size_t pos_ = 0;
	std::string cur_;
	std::optional<std::string> inline_;
};

} // namespace smcr
