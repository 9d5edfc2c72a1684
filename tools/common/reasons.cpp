#include "smcr/reasons.hpp"

#include <linux/smcr.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

#include "smcr/args.hpp"

namespace smcr {
namespace {

// <linux/smcr_reasons.h> is the one list of the codes and their texts.
constexpr std::array kReasons = {
#define SMC_CLC_DECL_REASON(name, text) ReasonInfo{SMC_CLC_DECL_##name, #name, text},
#include <linux/smcr_reasons.h>
};

static_assert(std::is_sorted(kReasons.begin(), kReasons.end(),
			     [](const ReasonInfo &a, const ReasonInfo &b) { return a.code < b.code; }),
	      "reason table must be sorted");

bool iequals(std::string_view a, std::string_view b)
{
	return a.size() == b.size() &&
	       std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
		       return std::tolower(static_cast<unsigned char>(x)) ==
			      std::tolower(static_cast<unsigned char>(y));
	       });
}

} // namespace

std::span<const ReasonInfo> reason_table()
{
	return kReasons;
}

std::optional<ReasonInfo> reason_lookup(uint32_t code)
{
	for (const auto &r : kReasons)
		if (r.code == code)
			return r;
	return std::nullopt;
}

std::string reason_to_string(uint32_t code)
{
	if (code == 0)
		return "0 (none)";
	char buf[16];
	std::snprintf(buf, sizeof(buf), "0x%08x", code);
	auto r = reason_lookup(code);
	return std::string(buf) + " (" + std::string(r ? r->name : "unknown") + ")";
}

std::optional<uint32_t> reason_parse(std::string_view text)
{
	std::string_view t = text;
	if (t.size() > 13 && iequals(t.substr(0, 13), "SMC_CLC_DECL_"))
		t.remove_prefix(13);
	for (const auto &r : kReasons)
		if (iequals(t, r.name))
			return r.code;
	// Bare hex without 0x is accepted when it has 8 digits (as printed).
	if (t.size() == 8 && std::all_of(t.begin(), t.end(), [](char c) {
		    return std::isxdigit(static_cast<unsigned char>(c));
	    }))
		return parse_u32(std::string("0x") + std::string(t));
	return parse_u32(t);
}

} // namespace smcr
