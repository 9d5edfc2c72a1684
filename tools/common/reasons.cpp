#include "smcr/reasons.hpp"

#include <linux/smcr.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

#include "smcr/args.hpp"

namespace smcr {
namespace {

constexpr std::array kReasons = {
	ReasonInfo{SMC_CLC_DECL_MEM, "MEM", "insufficient memory"},
	ReasonInfo{SMC_CLC_DECL_TIMEOUT_CL, "TIMEOUT_CL", "timeout waiting for CONFIRM LINK"},
	ReasonInfo{SMC_CLC_DECL_TIMEOUT_AL, "TIMEOUT_AL", "timeout waiting for ADD LINK"},
	ReasonInfo{SMC_CLC_DECL_CNFERR, "CNFERR", "configuration error"},
	ReasonInfo{SMC_CLC_DECL_PEERNOSMC, "PEERNOSMC", "peer is plain TCP (no SMC option in its SYN)"},
	ReasonInfo{SMC_CLC_DECL_IPSEC, "IPSEC", "IPsec in use"},
	ReasonInfo{SMC_CLC_DECL_NOSMCDEV, "NOSMCDEV", "no SMC device"},
	ReasonInfo{SMC_CLC_DECL_NOSMCRDEV, "NOSMCRDEV", "no SMC-R device"},
	ReasonInfo{SMC_CLC_DECL_NOV2EXT, "NOV2EXT", "peer sent no CLC v2 extension"},
	ReasonInfo{SMC_CLC_DECL_NOUEID, "NOUEID", "no common user EID (SMC-R v2)"},
	ReasonInfo{SMC_CLC_DECL_RELEASEERR, "RELEASEERR", "SMC release negotiation failed"},
	ReasonInfo{SMC_CLC_DECL_MAXCONNERR, "MAXCONNERR", "max connections negotiation failed"},
	ReasonInfo{SMC_CLC_DECL_MAXLINKERR, "MAXLINKERR", "max links negotiation failed"},
	ReasonInfo{SMC_CLC_DECL_MODEUNSUPP, "MODEUNSUPP", "no common SMC mode"},
	ReasonInfo{SMC_CLC_DECL_RMBE_EC, "RMBE_EC", "peer uses an RMBE eye catcher"},
	ReasonInfo{SMC_CLC_DECL_OPTUNSUPP, "OPTUNSUPP", "socket option not supported"},
	ReasonInfo{SMC_CLC_DECL_DIFFPREFIX, "DIFFPREFIX", "IP subnet/prefix mismatch"},
	ReasonInfo{SMC_CLC_DECL_GETVLANERR, "GETVLANERR", "VLAN of the IP device unknown"},
	ReasonInfo{SMC_CLC_DECL_NOACTLINK, "NOACTLINK", "no active link in link group"},
	ReasonInfo{SMC_CLC_DECL_NOSRVLINK, "NOSRVLINK", "server's link not found"},
	ReasonInfo{SMC_CLC_DECL_VERSMISMAT, "VERSMISMAT", "SMC version mismatch"},
	ReasonInfo{SMC_CLC_DECL_NOROUTE, "NOROUTE", "no route to the peer's RoCE GID (SMC-R v2)"},
	ReasonInfo{SMC_CLC_DECL_NOINDIRECT, "NOINDIRECT", "peer's direct/indirect route claim is wrong"},
	ReasonInfo{SMC_CLC_DECL_SYNCERR, "SYNCERR", "CLC synchronization error"},
	ReasonInfo{SMC_CLC_DECL_PEERDECL, "PEERDECL", "peer sent a CLC Decline"},
	ReasonInfo{SMC_CLC_DECL_INTERR, "INTERR", "internal error"},
	ReasonInfo{SMC_CLC_DECL_ERR_RTOK, "ERR_RTOK", "remote token handling failed"},
	ReasonInfo{SMC_CLC_DECL_ERR_RDYLNK, "ERR_RDYLNK", "link not ready"},
	ReasonInfo{SMC_CLC_DECL_ERR_REGBUF, "ERR_REGBUF", "buffer registration failed"},
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
