// smctest nlprobe: every command of Linux's SMC_GEN_NETLINK family, sent as
// raw generic netlink requests, and a structural description of each reply
// (error code, messages, attribute types, lengths and nesting; no values),
// so that two kernels' answers can be compared with diff. Selftest 109
// compares Linux's smc.ko with smcr this way.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "cli.hpp"

namespace smctest {

// Attributes of a message or nest, sorted by type (netlink consumers parse
// attributes into a table by type: their order is not part of the ABI):
// "T:LEN" for a leaf, "T{...}" for a nest (NLA_F_NESTED set), an "n" after
// LEN for NLA_F_NET_BYTEORDER. Attributes of type >= hide_from are left out
// (0: none). Malformed data ends the list with "!trunc".
std::string nl_describe_attrs(std::span<const uint8_t> data, uint16_t hide_from = 0);

int run_nlprobe(const Config &c);

} // namespace smctest
