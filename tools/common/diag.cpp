#include "smcr/diag.hpp"

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/smc_diag.h>
#include <linux/smcr.h>
#include <linux/sock_diag.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "smcr/addr.hpp"
#include "smcr/fd.hpp"

namespace smcr {

DiagParse diag_parse(std::span<const uint8_t> buf, std::vector<DiagEntry> &out)
{
	size_t off = 0;
	while (off + sizeof(nlmsghdr) <= buf.size()) {
		nlmsghdr h;
		std::memcpy(&h, buf.data() + off, sizeof(h));
		if (h.nlmsg_len < sizeof(nlmsghdr) || off + h.nlmsg_len > buf.size())
			throw std::runtime_error("sock_diag: truncated netlink message");
		const uint8_t *payload = buf.data() + off + NLMSG_HDRLEN;
		size_t plen = h.nlmsg_len - NLMSG_HDRLEN;
		if (h.nlmsg_type == NLMSG_DONE)
			return DiagParse::Done;
		if (h.nlmsg_type == NLMSG_ERROR) {
			nlmsgerr e{};
			std::memcpy(&e, payload, std::min(plen, sizeof(e)));
			if (e.error == 0)
				return DiagParse::Done;
			throw std::system_error(-e.error, std::generic_category(), "sock_diag AF_SMC");
		}
		if (h.nlmsg_type == SOCK_DIAG_BY_FAMILY) {
			if (plen < sizeof(smc_diag_msg))
				throw std::runtime_error("sock_diag: short smc_diag_msg");
			smc_diag_msg m;
			std::memcpy(&m, payload, sizeof(m));
			DiagEntry e;
			e.family = m.diag_family;
			e.state = m.diag_state;
			e.mode = m.diag_mode;
			e.shutdown = m.diag_shutdown;
			int fam = m.diag_family == AF_INET6 ? AF_INET6 : AF_INET;
			e.src = format_ip(fam, m.id.idiag_src);
			e.dst = format_ip(fam, m.id.idiag_dst);
			e.sport = ntohs(m.id.idiag_sport);
			e.dport = ntohs(m.id.idiag_dport);
			e.uid = m.diag_uid;
			e.inode = m.diag_inode;
			size_t aoff = NLMSG_ALIGN(sizeof(smc_diag_msg));
			while (aoff + sizeof(nlattr) <= plen) {
				nlattr a;
				std::memcpy(&a, payload + aoff, sizeof(a));
				if (a.nla_len < sizeof(nlattr) || aoff + a.nla_len > plen)
					break;
				const uint8_t *data = payload + aoff + NLA_HDRLEN;
				size_t dlen = a.nla_len - NLA_HDRLEN;
				switch (a.nla_type & NLA_TYPE_MASK) {
				case SMC_DIAG_FALLBACK:
					if (dlen >= sizeof(smc_diag_fallback)) {
						smc_diag_fallback fb;
						std::memcpy(&fb, data, sizeof(fb));
						e.has_fallback = true;
						e.reason = fb.reason;
						e.peer_diagnosis = fb.peer_diagnosis;
					}
					break;
				case SMC_DIAG_CONNINFO:
					if (dlen >= sizeof(smc_diag_conninfo)) {
						smc_diag_conninfo ci;
						std::memcpy(&ci, data, sizeof(ci));
						e.has_conn = true;
						e.token = ci.token;
						e.sndbuf_size = ci.sndbuf_size;
						e.rmbe_size = ci.rmbe_size;
						e.peer_rmbe_size = ci.peer_rmbe_size;
						e.rx_prod_wrap = ci.rx_prod.wrap;
						e.rx_prod_count = ci.rx_prod.count;
						e.tx_prod_wrap = ci.tx_prod.wrap;
						e.tx_prod_count = ci.tx_prod.count;
						e.rx_cons = {ci.rx_cons.wrap, ci.rx_cons.count};
						e.tx_cons = {ci.tx_cons.wrap, ci.tx_cons.count};
						e.tx_prep = {ci.tx_prep.wrap, ci.tx_prep.count};
						e.tx_sent = {ci.tx_sent.wrap, ci.tx_sent.count};
						e.tx_fin = {ci.tx_fin.wrap, ci.tx_fin.count};
						e.rx_prod_flags = ci.rx_prod_flags;
						e.rx_conn_flags = ci.rx_conn_state_flags;
						e.tx_prod_flags = ci.tx_prod_flags;
						e.tx_conn_flags = ci.tx_conn_state_flags;
					}
					break;
				case SMC_DIAG_LGRINFO:
					if (dlen >= sizeof(smc_diag_lgrinfo)) {
						smc_diag_lgrinfo li;
						std::memcpy(&li, data, sizeof(li));
						e.has_lgr = true;
						e.lgr_role = li.role;
						e.link_id = li.lnk[0].link_id;
						e.ibname.assign(reinterpret_cast<const char *>(li.lnk[0].ibname),
								strnlen(reinterpret_cast<const char *>(li.lnk[0].ibname),
									sizeof(li.lnk[0].ibname)));
					}
					break;
				case SMC_DIAG_SHUTDOWN:
					if (dlen >= 1)
						e.shutdown = data[0];
					break;
				default:
					break;
				}
				aoff += NLA_ALIGN(a.nla_len);
			}
			out.push_back(std::move(e));
		}
		off += NLMSG_ALIGN(h.nlmsg_len);
	}
	return DiagParse::More;
}

std::vector<DiagEntry> diag_dump_smc()
{
	UniqueFd fd(::socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG));
	if (!fd)
		throw std::system_error(errno, std::generic_category(), "socket(NETLINK_SOCK_DIAG)");
	struct {
		nlmsghdr nlh;
		smc_diag_req req;
	} msg{};
	msg.nlh.nlmsg_len = sizeof(msg);
	msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	msg.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	msg.nlh.nlmsg_seq = 1;
	msg.req.diag_family = AF_SMC;
	msg.req.diag_ext = (1 << (SMC_DIAG_CONNINFO - 1)) | (1 << (SMC_DIAG_LGRINFO - 1)) |
			   (1 << (SMC_DIAG_FALLBACK - 1));
	sockaddr_nl nl{};
	nl.nl_family = AF_NETLINK;
	if (::sendto(fd.get(), &msg, sizeof(msg), 0, reinterpret_cast<sockaddr *>(&nl),
		     sizeof(nl)) < 0)
		throw std::system_error(errno, std::generic_category(), "sendto(sock_diag)");
	std::vector<DiagEntry> out;
	std::vector<uint8_t> buf(64 * 1024);
	for (;;) {
		ssize_t n = ::recv(fd.get(), buf.data(), buf.size(), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw std::system_error(errno, std::generic_category(), "recv(sock_diag)");
		}
		if (n == 0)
			break;
		if (diag_parse(std::span<const uint8_t>(buf.data(), static_cast<size_t>(n)), out) ==
		    DiagParse::Done)
			break;
	}
	return out;
}

std::optional<DiagEntry> diag_find_inode(uint64_t inode)
{
	for (auto &e : diag_dump_smc())
		if (e.inode == inode)
			return e;
	return std::nullopt;
}

std::string tcp_state_name(uint8_t state)
{
	static constexpr std::array<const char *, 13> names = {
		"UNKNOWN", "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1", "FIN_WAIT2", "TIME_WAIT",
		"CLOSE", "CLOSE_WAIT", "LAST_ACK", "LISTEN", "CLOSING", "NEW_SYN_RECV",
	};
	if (state < names.size())
		return names[state];
	// Linux smc's private close states.
	switch (state) {
	case 20: return "PEERCLOSEWAIT1";
	case 21: return "PEERCLOSEWAIT2";
	case 22: return "APPCLOSEWAIT1";
	case 23: return "APPCLOSEWAIT2";
	case 24: return "APPFINCLOSEWAIT";
	case 25: return "PEERFINCLOSEWAIT";
	case 26: return "PEERABORTWAIT";
	case 27: return "PROCESSABORT";
	default: break;
	}
	return "STATE_" + std::to_string(state);
}

std::string diag_mode_name(uint8_t mode)
{
	switch (mode) {
	case SMC_DIAG_MODE_SMCR: return "smcr";
	case SMC_DIAG_MODE_FALLBACK_TCP: return "fallback";
	case SMC_DIAG_MODE_SMCD: return "smcd";
	default: return "mode" + std::to_string(mode);
	}
}

} // namespace smcr
