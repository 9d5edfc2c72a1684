// Client of the SMC_GEN_NETLINK generic netlink family (libnl-3/genl-3).
// Every libnl object is owned by a std::unique_ptr with its free function.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "model.hpp"

struct nl_sock;
struct nlattr;

namespace smcr::admin {

class NlError : public std::runtime_error {
public:
	enum class Kind {
		NoFamily, // family not registered
		Kernel,   // the kernel answered with an errno (errno())
		Local,    // libnl or socket failure
	};
	NlError(Kind kind, int err, const std::string &msg)
		: std::runtime_error(msg), kind_(kind), err_(err)
	{
	}
	Kind kind() const { return kind_; }
	int error() const { return err_; } // positive errno (Kernel) or libnl code
	// The kernel's extended ack message, if it sent one.
	std::string extack;

private:
	Kind kind_;
	int err_;
};

struct NlSockDeleter {
	void operator()(nl_sock *sk) const noexcept;
};
using NlSockPtr = std::unique_ptr<nl_sock, NlSockDeleter>;

class Client {
public:
	// Connects and resolves the family; throws NlError.
	Client();

	SysInfo sys_info();
	// Link groups; with_links: via the link dump, each with its links.
	std::vector<LinkGroup> link_groups(bool with_links);
	std::vector<Device> devices();
	Stats stats();
	FallbackStats fallback_stats();
	std::vector<std::string> ueids();
	void ueid_add(const std::string &ueid);
	void ueid_del(const std::string &ueid);
	void ueid_flush();
	void stats_reset();

private:
	// Runs a dump; fn gets each message's top-level attribute of type
	// `top` (messages without it are skipped). Retried from scratch when the
	// kernel flags the dump as interrupted (NLM_F_DUMP_INTR); reset() is
	// called before each attempt.
	void dump(uint8_t cmd, const std::function<void()> &reset,
		  const std::function<void(uint8_t cmd, const nlattr *nest)> &fn);
	// A do-command with an optional UEID attribute, waiting for the ACK.
	void request(uint8_t cmd, const std::string *ueid);

	NlSockPtr sk_;
	int family_ = -1;
};

} // namespace smcr::admin
