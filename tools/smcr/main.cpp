// smcr: administration of SMC-R over the SMC_GEN_NETLINK generic netlink
// family (smcr.ko or Linux's smc.ko). See smcr.8.
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "format.hpp"
#include "nl.hpp"

using namespace smcr::admin;

namespace {

const char *op_name(Cmd c)
{
	switch (c) {
	case Cmd::Info: return "info";
	case Cmd::LinkGroupShow: return "linkgroup show";
	case Cmd::LinkShow: return "link show";
	case Cmd::DeviceShow: return "device show";
	case Cmd::StatsShow: return "stats";
	case Cmd::StatsReset: return "stats reset";
	case Cmd::UeidShow: return "ueid show";
	case Cmd::UeidAdd: return "ueid add";
	case Cmd::UeidDel: return "ueid del";
	case Cmd::UeidFlush: return "ueid flush";
	default: return "smcr";
	}
}

std::string run(const Options &o)
{
	Client c;
	switch (o.cmd) {
	case Cmd::Info:
		return format_info(c.sys_info(), o.json);
	case Cmd::LinkGroupShow:
		return format_lgrs(c.link_groups(false), o.json);
	case Cmd::LinkShow:
		return format_links(c.link_groups(true), o.json);
	case Cmd::DeviceShow:
		return format_devices(c.devices(), o.json);
	case Cmd::StatsShow: {
		Stats st = c.stats();
		return format_stats(st, c.fallback_stats(), o.json);
	}
	case Cmd::StatsReset:
		c.stats_reset();
		return {};
	case Cmd::UeidShow:
		return format_ueids(c.ueids(), o.json);
	case Cmd::UeidAdd:
		c.ueid_add(o.ueid);
		return {};
	case Cmd::UeidDel:
		c.ueid_del(o.ueid);
		return {};
	case Cmd::UeidFlush:
		c.ueid_flush();
		return {};
	default:
		return {};
	}
}

// What to tell the user for an errno the kernel returned.
std::string explain(Cmd cmd, int err)
{
	switch (err) {
	case EEXIST: return "UEID already in the table";
	case ENOENT: return cmd == Cmd::UeidDel ? "no such UEID" : "not found";
	case ERANGE: return "UEID table full (at most 4 entries)";
	case EINVAL: return "invalid argument";
	case EOPNOTSUPP:
		return cmd == Cmd::StatsReset
			       ? "not supported by this kernel's SMC (Linux's smc.ko has no reset)"
			       : "not supported by this kernel's SMC";
	}
	return {};
}

} // namespace

int main(int argc, char **argv)
{
	Options o;
	try {
		o = parse_cli(std::vector<std::string>(argv + 1, argv + argc));
	} catch (const UsageError &e) {
		std::cerr << "smcr: " << e.what() << " (try 'smcr --help')\n";
		return kExitUsage;
	}
	if (o.cmd == Cmd::Help) {
		std::cout << usage_text();
		return kExitOk;
	}
	if (o.cmd == Cmd::Version) {
		std::cout << "smcr (smcr tools) " SMCR_TOOL_VERSION "\n";
		return kExitOk;
	}
	try {
		std::cout << run(o) << std::flush;
		return kExitOk;
	} catch (const NlError &e) {
		switch (e.kind()) {
		case NlError::Kind::NoFamily:
			std::cerr << "smcr: " << e.what() << "\n";
			return kExitNoFamily;
		case NlError::Kind::Kernel:
			if (e.error() == EPERM || e.error() == EACCES) {
				std::cerr << "smcr: " << op_name(o.cmd)
					  << ": permission denied: needs CAP_NET_ADMIN (run as root)\n";
				return kExitPermission;
			}
			std::cerr << "smcr: " << op_name(o.cmd) << ": " << e.what();
			if (auto x = explain(o.cmd, e.error()); !x.empty())
				std::cerr << ": " << x;
			if (!e.extack.empty())
				std::cerr << " (kernel: " << e.extack << ")";
			std::cerr << "\n";
			return kExitFailed;
		case NlError::Kind::Local:
			std::cerr << "smcr: " << op_name(o.cmd) << ": " << e.what() << "\n";
			return kExitFailed;
		}
	} catch (const std::exception &e) {
		std::cerr << "smcr: " << op_name(o.cmd) << ": " << e.what() << "\n";
	}
	return kExitFailed;
}
