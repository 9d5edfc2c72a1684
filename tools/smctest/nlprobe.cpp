// smctest nlprobe (see nlprobe.hpp). Plain AF_NETLINK sockets, no libnl:
// the probe must show exactly what the kernel sent (flags, error messages,
// attribute headers), not what a library makes of it.
#include "nlprobe.hpp"

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "smcr/fd.hpp"
#include "smcr/text.hpp"

namespace smctest {

namespace {

// Linux's numbers (include/uapi/linux/smc.h of 6.12), spelled out here so
// that the probe does not depend on the headers it is meant to check.
constexpr const char *kFamily = "SMC_GEN_NETLINK";
constexpr uint8_t kLastCmd = 18;	// SMC_NETLINK_DISABLE_HS_LIMITATION
constexpr uint8_t kDumpUeid = 9, kAddUeid = 10, kRemoveUeid = 11, kFlushUeid = 12;
constexpr uint8_t kDumpHs = 16, kEnableHs = 17, kDisableHs = 18;
constexpr uint16_t kEidEntry = 1;	// SMC_NLA_EID_TABLE_ENTRY
constexpr uint16_t kHsEnabled = 1;	// SMC_NLA_HS_LIMITATION_ENABLED
constexpr size_t kEidLen = 32;		// SMC_MAX_EID_LEN
// smcr's own numbers start here (uapi/linux/smc.h of smcr); --linux-only
// leaves them out.
constexpr uint16_t kSmcrCmdBase = 0xc0, kSmcrAttrBase = 0x100;

struct Msg {
	uint16_t type = 0;
	uint16_t flags = 0;
	uint8_t cmd = 0;
	uint8_t version = 0;
	std::vector<uint8_t> attrs;
};

struct Reply {
	int err = 0;		// positive errno, 0 for success
	std::vector<Msg> msgs;
};

void put_attr(std::vector<uint8_t> &b, uint16_t type, const void *data, size_t len)
{
	nlattr a{};
	a.nla_len = static_cast<uint16_t>(NLA_HDRLEN + len);
	a.nla_type = type;
	const auto *ah = reinterpret_cast<const uint8_t *>(&a);
	b.insert(b.end(), ah, ah + sizeof(a));
	const auto *d = static_cast<const uint8_t *>(data);
	b.insert(b.end(), d, d + len);
	b.resize(NLA_ALIGN(b.size()));
}

std::vector<uint8_t> attr_u32(uint16_t type, uint32_t v)
{
	std::vector<uint8_t> b;
	put_attr(b, type, &v, sizeof(v));
	return b;
}

// A UEID as smc-tools sends it: 32 characters, blank padded, then a NUL.
std::vector<uint8_t> attr_ueid(const std::string &eid)
{
	std::string s = eid;
	s.resize(kEidLen, ' ');
	std::vector<uint8_t> b;
	put_attr(b, kEidEntry, s.c_str(), kEidLen + 1);
	return b;
}

class GenlSock {
public:
	GenlSock()
	{
		fd_.reset(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC));
		if (!fd_)
			throw std::system_error(errno, std::generic_category(), "socket(NETLINK_GENERIC)");
		sockaddr_nl nl{};
		nl.nl_family = AF_NETLINK;
		if (::bind(fd_.get(), reinterpret_cast<sockaddr *>(&nl), sizeof(nl)) < 0)
			throw std::system_error(errno, std::generic_category(), "bind(netlink)");
	}

	// One request; collects the replies up to NLMSG_DONE or NLMSG_ERROR
	// (a do-request is sent with NLM_F_ACK, so it ends with one too).
	Reply request(uint16_t family, uint8_t cmd, bool dump, const std::vector<uint8_t> &attrs = {})
	{
		std::vector<uint8_t> b(NLMSG_HDRLEN + GENL_HDRLEN);
		b.insert(b.end(), attrs.begin(), attrs.end());
		nlmsghdr h{};
		h.nlmsg_len = static_cast<uint32_t>(b.size());
		h.nlmsg_type = family;
		h.nlmsg_flags = NLM_F_REQUEST | (dump ? NLM_F_DUMP : NLM_F_ACK);
		h.nlmsg_seq = ++seq_;
		std::memcpy(b.data(), &h, sizeof(h));
		genlmsghdr g{};
		g.cmd = cmd;
		g.version = 1;
		std::memcpy(b.data() + NLMSG_HDRLEN, &g, sizeof(g));
		if (::send(fd_.get(), b.data(), b.size(), 0) < 0)
			throw std::system_error(errno, std::generic_category(), "send(netlink)");

		Reply r;
		std::vector<uint8_t> buf(64 * 1024);
		for (;;) {
			ssize_t n = ::recv(fd_.get(), buf.data(), buf.size(), MSG_TRUNC);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				throw std::system_error(errno, std::generic_category(), "recv(netlink)");
			}
			if (static_cast<size_t>(n) > buf.size())
				throw std::runtime_error("netlink message larger than 64 KiB");
			size_t off = 0, len = static_cast<size_t>(n);
			while (off + NLMSG_HDRLEN <= len) {
				nlmsghdr m;
				std::memcpy(&m, buf.data() + off, sizeof(m));
				if (m.nlmsg_len < NLMSG_HDRLEN || off + m.nlmsg_len > len)
					throw std::runtime_error("truncated netlink message");
				const uint8_t *p = buf.data() + off + NLMSG_HDRLEN;
				size_t plen = m.nlmsg_len - NLMSG_HDRLEN;
				off += NLMSG_ALIGN(m.nlmsg_len);
				if (m.nlmsg_seq != seq_)
					continue;
				if (m.nlmsg_type == NLMSG_DONE || m.nlmsg_type == NLMSG_ERROR) {
					int e = 0;
					if (plen >= sizeof(e))
						std::memcpy(&e, p, sizeof(e));
					r.err = -e;
					return r;
				}
				Msg msg;
				msg.type = m.nlmsg_type;
				msg.flags = m.nlmsg_flags;
				if (plen >= GENL_HDRLEN) {
					msg.cmd = p[0];
					msg.version = p[1];
					msg.attrs.assign(p + GENL_HDRLEN, p + plen);
				}
				r.msgs.push_back(std::move(msg));
			}
		}
	}

private:
	smcr::UniqueFd fd_;
	uint32_t seq_ = 0;
};

std::string err_text(int err)
{
	return err ? smcr::errno_name(err) : "0";
}

std::string flags_text(uint16_t f)
{
	std::string s;
	if (f & NLM_F_MULTI)
		s += " multi";
	if (f & NLM_F_DUMP_INTR)
		s += " intr";
	if (uint16_t rest = f & ~(NLM_F_MULTI | NLM_F_DUMP_INTR)) {
		std::ostringstream o;
		o << " flags=0x" << std::hex << rest;
		s += o.str();
	}
	return s;
}

struct Attr {
	uint16_t type;		// without the flag bits
	uint16_t flags;		// NLA_F_NESTED, NLA_F_NET_BYTEORDER
	std::span<const uint8_t> data;
};

// Splits data into attributes; ok = false if it ends in a malformed one.
std::vector<Attr> split_attrs(std::span<const uint8_t> data, bool &ok)
{
	std::vector<Attr> v;
	ok = true;
	size_t off = 0;
	while (off < data.size()) {
		nlattr a;
		if (data.size() - off < sizeof(a)) {
			ok = false;
			break;
		}
		std::memcpy(&a, data.data() + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > data.size() - off) {
			ok = false;
			break;
		}
		v.push_back({static_cast<uint16_t>(a.nla_type & NLA_TYPE_MASK),
			     static_cast<uint16_t>(a.nla_type & ~NLA_TYPE_MASK),
			     data.subspan(off + NLA_HDRLEN, a.nla_len - NLA_HDRLEN)});
		off += NLA_ALIGN(a.nla_len);
	}
	return v;
}

// Attributes by type: the first one of a type (nla_parse keeps the last, but
// neither kernel sends a type twice; both would be listed).
const Attr *find_attr(const std::vector<Attr> &v, uint16_t type)
{
	for (const Attr &a : v)
		if (a.type == type)
			return &a;
	return nullptr;
}

uint32_t attr_u32_value(const Attr *a)
{
	uint32_t v = 0;
	if (a && a->data.size() >= sizeof(v))
		std::memcpy(&v, a->data.data(), sizeof(v));
	else if (a && a->data.size() == 2) {
		uint16_t w;
		std::memcpy(&w, a->data.data(), sizeof(w));
		v = w;
	} else if (a && a->data.size() == 1)
		v = a->data[0];
	return v;
}

struct GenlFamily {
	uint16_t id = 0;
	std::vector<std::string> lines;	// its description
};

GenlFamily resolve(GenlSock &s, bool linux_only)
{
	std::vector<uint8_t> name;
	put_attr(name, CTRL_ATTR_FAMILY_NAME, kFamily, std::strlen(kFamily) + 1);
	Reply r = s.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, false, name);
	if (r.err)
		throw std::runtime_error(std::string(kFamily) + ": " + smcr::errno_name(r.err) +
					 (r.err == ENOENT ? " (family not registered)" : ""));
	if (r.msgs.empty())
		throw std::runtime_error("controller sent no family description");
	bool ok;
	auto top = split_attrs(r.msgs[0].attrs, ok);
	GenlFamily f;
	f.id = static_cast<uint16_t>(attr_u32_value(find_attr(top, CTRL_ATTR_FAMILY_ID)));
	std::ostringstream o;
	o << "family version=" << attr_u32_value(find_attr(top, CTRL_ATTR_VERSION))
	  << " hdrsize=" << attr_u32_value(find_attr(top, CTRL_ATTR_HDRSIZE))
	  << " maxattr=" << attr_u32_value(find_attr(top, CTRL_ATTR_MAXATTR));
	f.lines.push_back(o.str());
	if (const Attr *ops = find_attr(top, CTRL_ATTR_OPS)) {
		for (const Attr &op : split_attrs(ops->data, ok)) {
			auto oa = split_attrs(op.data, ok);
			uint32_t id = attr_u32_value(find_attr(oa, CTRL_ATTR_OP_ID));
			uint32_t fl = attr_u32_value(find_attr(oa, CTRL_ATTR_OP_FLAGS));
			if (linux_only && id >= kSmcrCmdBase)
				continue;
			std::ostringstream l;
			l << "op " << id;
			if (fl & GENL_CMD_CAP_DO)
				l << " do";
			if (fl & GENL_CMD_CAP_DUMP)
				l << " dump";
			if (fl & GENL_CMD_CAP_HASPOL)
				l << " policy";
			if (fl & GENL_ADMIN_PERM)
				l << " admin";
			if (fl & GENL_UNS_ADMIN_PERM)
				l << " uns-admin";
			if (uint32_t rest = fl & ~(GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP | GENL_CMD_CAP_HASPOL |
						   GENL_ADMIN_PERM | GENL_UNS_ADMIN_PERM))
				l << " flags=0x" << std::hex << rest;
			f.lines.push_back(l.str());
		}
	}
	size_t groups = 0;
	if (const Attr *g = find_attr(top, CTRL_ATTR_MCAST_GROUPS))
		groups = split_attrs(g->data, ok).size();
	f.lines.push_back("multicast groups " + std::to_string(groups));
	return f;
}

class Prober {
public:
	Prober(GenlSock &s, uint16_t family, bool linux_only)
		: s_(s), family_(family), hide_(linux_only ? kSmcrAttrBase : 0)
	{
	}

	// Sends one request and prints "LABEL: err=E msgs=N" and one line
	// per message. Returns the reply.
	Reply show(const std::string &label, uint8_t cmd, bool dump,
		   const std::vector<uint8_t> &attrs = {})
	{
		Reply r = s_.request(family_, cmd, dump, attrs);
		std::cout << label << ": err=" << err_text(r.err) << " msgs=" << r.msgs.size() << "\n";
		for (const Msg &m : r.msgs) {
			std::cout << "  msg cmd=" << unsigned(m.cmd) << " v" << unsigned(m.version);
			if (m.type != family_)
				std::cout << " type=" << m.type;
			std::cout << flags_text(m.flags) << " " << nl_describe_attrs(m.attrs, hide_) << "\n";
		}
		return r;
	}

	Reply quiet(uint8_t cmd, bool dump, const std::vector<uint8_t> &attrs = {})
	{
		return s_.request(family_, cmd, dump, attrs);
	}

private:
	GenlSock &s_;
	uint16_t family_;
	uint16_t hide_;
};

// The value of a u8 attribute of a one-message dump, -1 if absent.
int dumped_u8(const Reply &r, uint16_t type)
{
	if (r.err || r.msgs.size() != 1)
		return -1;
	bool ok;
	auto v = split_attrs(r.msgs[0].attrs, ok);
	const Attr *a = find_attr(v, type);
	return a && a->data.size() == 1 ? a->data[0] : -1;
}

} // namespace

std::string nl_describe_attrs(std::span<const uint8_t> data, uint16_t hide_from)
{
	bool ok;
	auto v = split_attrs(data, ok);
	std::stable_sort(v.begin(), v.end(), [](const Attr &a, const Attr &b) { return a.type < b.type; });
	std::string s = "{";
	bool first = true;
	for (const Attr &a : v) {
		if (hide_from && a.type >= hide_from)
			continue;
		if (!first)
			s += ' ';
		first = false;
		s += std::to_string(a.type);
		if (a.flags & NLA_F_NESTED) {
			s += nl_describe_attrs(a.data, hide_from);
		} else {
			s += ':' + std::to_string(a.data.size());
		}
		if (a.flags & NLA_F_NET_BYTEORDER)
			s += 'n';
	}
	if (!ok)
		s += first ? "!trunc" : " !trunc";
	return s + "}";
}

int run_nlprobe(const Config &c)
{
	GenlSock s;
	GenlFamily fam = resolve(s, c.nl_linux_only);
	for (const auto &l : fam.lines)
		std::cout << l << "\n";
	Prober p(s, fam.id, c.nl_linux_only);

	// What the probe changes, to put back at the end.
	Reply ueids = p.quiet(kDumpUeid, true);
	int hs = dumped_u8(p.quiet(kDumpHs, true), kHsEnabled);

	std::cout << "# every command: dump and do, without attributes, with attribute 1, with attribute 2\n";
	for (uint8_t cmd = 1; cmd <= kLastCmd; ++cmd) {
		std::string n = "cmd " + std::to_string(cmd);
		p.show(n + " dump", cmd, true);
		p.show(n + " do", cmd, false);
		for (uint16_t t : {1, 2}) {
			std::string a = " attr" + std::to_string(t);
			p.show(n + " dump" + a, cmd, true, attr_u32(t, 0));
			p.show(n + " do" + a, cmd, false, attr_u32(t, 0));
		}
	}
	std::cout << "# unknown commands\n";
	for (uint8_t cmd : {uint8_t(0), uint8_t(kLastCmd + 1)}) {
		std::string n = "cmd " + std::to_string(cmd);
		p.show(n + " dump", cmd, true);
		p.show(n + " do", cmd, false);
	}

	std::cout << "# user EID table\n";
	p.show("ueid add", kAddUeid, false, attr_ueid("NLPROBE-1"));
	p.show("ueid add again", kAddUeid, false, attr_ueid("NLPROBE-1"));
	p.show("ueid add lower case", kAddUeid, false, attr_ueid("nlprobe"));
	p.show("ueid add without NUL", kAddUeid, false, [] {
		std::vector<uint8_t> b;
		std::string s(kEidLen + 1, 'X');
		put_attr(b, kEidEntry, s.data(), s.size());
		return b;
	}());
	p.show("ueid dump", kDumpUeid, true);
	p.show("ueid remove", kRemoveUeid, false, attr_ueid("NLPROBE-1"));
	p.show("ueid remove again", kRemoveUeid, false, attr_ueid("NLPROBE-1"));

	std::cout << "# handshake limitation\n";
	// The value only after a successful switch: the defaults differ
	// (Linux: off, smcr: on).
	if (!p.show("hs enable", kEnableHs, false).err)
		std::cout << "hs enabled after enable: " << dumped_u8(p.quiet(kDumpHs, true), kHsEnabled) << "\n";
	if (!p.show("hs disable", kDisableHs, false).err)
		std::cout << "hs enabled after disable: " << dumped_u8(p.quiet(kDumpHs, true), kHsEnabled) << "\n";

	// Put back what the probe changed (fails harmlessly without privilege:
	// then nothing was changed).
	if (hs >= 0)
		p.quiet(hs ? kEnableHs : kDisableHs, false);
	p.quiet(kFlushUeid, false);
	for (const Msg &m : ueids.msgs) {
		bool ok;
		auto v = split_attrs(m.attrs, ok);
		if (const Attr *a = find_attr(v, kEidEntry)) {
			std::vector<uint8_t> b;
			put_attr(b, kEidEntry, a->data.data(), a->data.size());
			if (int err = p.quiet(kAddUeid, false, b).err)
				std::cerr << "nlprobe: cannot restore a UEID: " << smcr::errno_name(err) << "\n";
		}
	}
	return 0;
}

} // namespace smctest
