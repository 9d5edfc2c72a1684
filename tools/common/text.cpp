// JSON string escaping and errno names (smcr/text.hpp).
#include "smcr/text.hpp"

#include <cstdio>
#include <cstring>

namespace smcr {

std::string json_escape(std::string_view s)
{
	std::string o;
	o.reserve(s.size());
	for (unsigned char c : s) {
		switch (c) {
		case '"': o += "\\\""; break;
		case '\\': o += "\\\\"; break;
		case '\b': o += "\\b"; break;
		case '\f': o += "\\f"; break;
		case '\n': o += "\\n"; break;
		case '\r': o += "\\r"; break;
		case '\t': o += "\\t"; break;
		default:
			if (c < 0x20) {
				char b[8];
				std::snprintf(b, sizeof(b), "\\u%04x", c);
				o += b;
			} else {
				o += static_cast<char>(c);
			}
		}
	}
	return o;
}

std::string errno_name(int err)
{
	const char *n = strerrorname_np(err);
	return n ? n : ("errno " + std::to_string(err));
}

} // namespace smcr
