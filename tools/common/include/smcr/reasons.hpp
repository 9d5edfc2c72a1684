// Names for SMC fallback reasons / CLC Decline diagnosis codes
// (uapi/linux/smcr.h), made from the list in uapi/linux/smcr_reasons.h.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace smcr {

struct ReasonInfo {
	uint32_t code;
	std::string_view name;	      // e.g. "PEERNOSMC"
	std::string_view description; // e.g. "peer did not offer SMC"
};

// All known codes, in ascending order.
std::span<const ReasonInfo> reason_table();
// Exact lookup; nullopt for unknown codes.
std::optional<ReasonInfo> reason_lookup(uint32_t code);
// "0x03010000 (PEERNOSMC)" or "0x12345678 (unknown)"; "0 (none)" for 0.
std::string reason_to_string(uint32_t code);
// Accepts "0x03010000", "03010000", a decimal number, "PEERNOSMC" or
// "SMC_CLC_DECL_PEERNOSMC" (case-insensitive).
std::optional<uint32_t> reason_parse(std::string_view text);

} // namespace smcr
