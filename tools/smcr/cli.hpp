// Command line of the smcr admin tool (see smcr.8).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace smcr::admin {

// Exit codes (documented in smcr.8 and Documentation/tools.rst).
enum Exit : int {
	kExitOk = 0,
	kExitFailed = 1,     // the kernel refused or an error occurred
	kExitUsage = 2,      // bad command line
	kExitNoFamily = 3,   // SMC_GEN_NETLINK not registered (module not loaded)
	kExitPermission = 4, // EPERM/EACCES: needs CAP_NET_ADMIN
};

enum class Cmd {
	Help,
	Version,
	Info,
	LinkGroupShow,
	LinkShow,
	DeviceShow,
	StatsShow,
	StatsReset,
	UeidShow,
	UeidAdd,
	UeidDel,
	UeidFlush,
};

struct Options {
	Cmd cmd = Cmd::Help;
	bool json = false;
	std::string ueid; // UeidAdd/UeidDel: normalized (upper case, no padding)
};

class UsageError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

// Parses argv[1..]. Throws UsageError with a one-line message.
Options parse_cli(const std::vector<std::string> &args);

// User EIDs: up to 32 characters A-Z 0-9 . -, starting with A-Z or 0-9.
// Lower case letters are turned into upper case. nullopt if invalid.
std::optional<std::string> ueid_normalize(std::string_view in);
// The 32-character blank-padded form the kernel takes (without the NUL).
std::string ueid_pad(std::string_view ueid);
// Trailing blanks removed.
std::string trim_right(std::string_view s);

std::string usage_text();

} // namespace smcr::admin
