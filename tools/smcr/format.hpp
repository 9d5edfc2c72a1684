// Output of the smcr admin tool: tables like ip(8) prints, or JSON (--json).
// Pure functions of the data, so the unit tests check them with fake data.
#pragma once

#include <string>
#include <vector>

#include "model.hpp"

namespace smcr::admin {

std::string format_info(const SysInfo &info, bool json);
std::string format_lgrs(const std::vector<LinkGroup> &lgrs, bool json);
std::string format_links(const std::vector<LinkGroup> &lgrs, bool json);
std::string format_devices(const std::vector<Device> &devs, bool json);
std::string format_stats(const Stats &st, const FallbackStats &fb, bool json);
std::string format_ueids(const std::vector<std::string> &ueids, bool json);

// Names used in both outputs.
std::string lgr_type_name(uint8_t type);
std::string link_state_name(uint32_t state);
std::string bucket_name(size_t i); // "8K" ... "1024K", ">1024K"

// Minimal JSON writer: one line, keys in insertion order.
class Json {
public:
	Json &begin_object();
	Json &end_object();
	Json &begin_array();
	Json &end_array();
	Json &key(std::string_view k);
	Json &value(std::string_view s);
	Json &value(const char *s) { return value(std::string_view(s)); }
	Json &value(uint64_t v);
	Json &value(bool b);
	std::string str() const { return out_ + "\n"; }

	static std::string escape(std::string_view s);

private:
	void sep();
	std::string out_;
	std::vector<bool> first_; // per open container: nothing written yet
	bool after_key_ = false;
};

} // namespace smcr::admin
