#include <gtest/gtest.h>

#include <linux/netlink.h>

#include <cstring>
#include <vector>

#include "cli.hpp"
#include "nlprobe.hpp"

using namespace smctest;

namespace {

void put(std::vector<uint8_t> &b, uint16_t type, const std::vector<uint8_t> &data)
{
	nlattr a{};
	a.nla_len = static_cast<uint16_t>(NLA_HDRLEN + data.size());
	a.nla_type = type;
	const auto *p = reinterpret_cast<const uint8_t *>(&a);
	b.insert(b.end(), p, p + sizeof(a));
	b.insert(b.end(), data.begin(), data.end());
	b.resize(NLA_ALIGN(b.size()));
}

} // namespace

TEST(NlProbe, LeavesSortedNestsMarked)
{
	std::vector<uint8_t> inner, top;
	put(inner, 4, std::vector<uint8_t>(33, 'x'));
	put(inner, 1, {1});
	put(inner, 0x100, {0, 0, 0, 0});
	put(top, 1 | NLA_F_NESTED, inner);
	put(top, 7 | NLA_F_NET_BYTEORDER, {0, 1});
	EXPECT_EQ(nl_describe_attrs(top), "{1{1:1 4:33 256:4} 7:2n}");
	// smcr's extension numbers left out
	EXPECT_EQ(nl_describe_attrs(top, 0x100), "{1{1:1 4:33} 7:2n}");
}

TEST(NlProbe, EmptyAndTruncated)
{
	EXPECT_EQ(nl_describe_attrs({}), "{}");
	std::vector<uint8_t> b;
	put(b, 2, {1, 2, 3, 4});
	b.push_back(0xff); // a header cut short
	EXPECT_EQ(nl_describe_attrs(b), "{2:4 !trunc}");
	std::vector<uint8_t> bad{8, 0, 1, 0}; // claims 8 bytes, has 4
	EXPECT_EQ(nl_describe_attrs(bad), "{!trunc}");
}

TEST(NlProbe, Cli)
{
	auto c = parse_cli({"nlprobe", "--linux-only"});
	EXPECT_EQ(c.cmd, Command::NlProbe);
	EXPECT_TRUE(c.nl_linux_only);
	EXPECT_FALSE(parse_cli({"nlprobe"}).nl_linux_only);
}
