// Small text helpers shared by the tools: JSON string escaping and errno
// names.
#pragma once

#include <string>
#include <string_view>

namespace smcr {

// JSON string body (no quotes): escapes '"', '\\' and control characters
// (\b \f \n \r \t, else \u00XX); other bytes (UTF-8) pass through.
std::string json_escape(std::string_view s);

// "ECONNREFUSED"; "errno N" when the number has no name.
std::string errno_name(int err);

} // namespace smcr
