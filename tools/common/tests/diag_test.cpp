// Feeds synthetic smc_diag netlink replies to the parser.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/smc_diag.h>
#include <linux/sock_diag.h>

#include <cstring>
#include <system_error>
#include <vector>

#include "smcr/diag.hpp"

using namespace smcr;

namespace {

void put(std::vector<uint8_t> &b, const void *p, size_t n)
{
	auto *c = static_cast<const uint8_t *>(p);
	b.insert(b.end(), c, c + n);
	while (b.size() % 4)
		b.push_back(0);
}

std::vector<uint8_t> sock_msg(uint64_t inode, bool with_fb)
{
	std::vector<uint8_t> payload;
	smc_diag_msg m{};
	m.diag_family = AF_INET;
	m.diag_state = 1;
	m.diag_mode = SMC_DIAG_MODE_FALLBACK_TCP;
	m.id.idiag_sport = htons(1234);
	m.id.idiag_dport = htons(80);
	m.id.idiag_src[0] = htonl(0xc0000201);
	m.id.idiag_dst[0] = htonl(0xc0000202);
	m.diag_inode = inode;
	put(payload, &m, sizeof(m));
	if (with_fb) {
		nlattr a{};
		smc_diag_fallback fb{0x03010000, 0x03030002};
		a.nla_len = NLA_HDRLEN + sizeof(fb);
		a.nla_type = SMC_DIAG_FALLBACK;
		std::vector<uint8_t> attr;
		attr.resize(NLA_HDRLEN);
		std::memcpy(attr.data(), &a, sizeof(a));
		attr.insert(attr.end(), reinterpret_cast<uint8_t *>(&fb),
			    reinterpret_cast<uint8_t *>(&fb) + sizeof(fb));
		put(payload, attr.data(), attr.size());
	}
	nlmsghdr h{};
	h.nlmsg_len = NLMSG_HDRLEN + payload.size();
	h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	h.nlmsg_flags = NLM_F_MULTI;
	std::vector<uint8_t> out;
	put(out, &h, sizeof(h));
	out.insert(out.end(), payload.begin(), payload.end());
	return out;
}

std::vector<uint8_t> ctl_msg(uint16_t type, int err)
{
	std::vector<uint8_t> out;
	nlmsghdr h{};
	h.nlmsg_type = type;
	h.nlmsg_flags = NLM_F_MULTI;
	if (type == NLMSG_ERROR) {
		nlmsgerr e{};
		e.error = err;
		h.nlmsg_len = NLMSG_HDRLEN + sizeof(e);
		put(out, &h, sizeof(h));
		put(out, &e, sizeof(e));
	} else {
		int zero = 0;
		h.nlmsg_len = NLMSG_HDRLEN + sizeof(zero);
		put(out, &h, sizeof(h));
		put(out, &zero, sizeof(zero));
	}
	return out;
}

} // namespace

TEST(Diag, ParsesSocketsAndFallback)
{
	auto buf = sock_msg(77, true);
	auto b2 = sock_msg(78, false);
	buf.insert(buf.end(), b2.begin(), b2.end());
	std::vector<DiagEntry> out;
	EXPECT_EQ(diag_parse(buf, out), DiagParse::More);
	ASSERT_EQ(out.size(), 2u);
	EXPECT_EQ(out[0].inode, 77u);
	EXPECT_EQ(out[0].src, "192.0.2.1");
	EXPECT_EQ(out[0].dst, "192.0.2.2");
	EXPECT_EQ(out[0].sport, 1234);
	EXPECT_EQ(out[0].dport, 80);
	EXPECT_TRUE(out[0].has_fallback);
	EXPECT_EQ(out[0].reason, 0x03010000u);
	EXPECT_EQ(out[0].peer_diagnosis, 0x03030002u);
	EXPECT_FALSE(out[1].has_fallback);
	EXPECT_EQ(diag_mode_name(out[0].mode), "fallback");
	EXPECT_EQ(tcp_state_name(out[0].state), "ESTABLISHED");
}

TEST(Diag, Done)
{
	auto buf = ctl_msg(NLMSG_DONE, 0);
	std::vector<DiagEntry> out;
	EXPECT_EQ(diag_parse(buf, out), DiagParse::Done);
	EXPECT_TRUE(out.empty());
}

TEST(Diag, ErrorThrows)
{
	auto buf = ctl_msg(NLMSG_ERROR, -ENOENT);
	std::vector<DiagEntry> out;
	try {
		diag_parse(buf, out);
		FAIL() << "no throw";
	} catch (const std::system_error &e) {
		EXPECT_EQ(e.code().value(), ENOENT);
	}
}

TEST(Diag, Truncated)
{
	auto buf = sock_msg(1, true);
	buf.resize(buf.size() - 4);
	std::vector<DiagEntry> out;
	EXPECT_THROW(diag_parse(buf, out), std::runtime_error);
}
