#include <gtest/gtest.h>

#include "cli.hpp"

using namespace smcr::admin;
using V = std::vector<std::string>;

TEST(SmcrCli, Objects)
{
	EXPECT_EQ(parse_cli(V{"info"}).cmd, Cmd::Info);
	EXPECT_EQ(parse_cli(V{"linkgroup"}).cmd, Cmd::LinkGroupShow);
	EXPECT_EQ(parse_cli(V{"lgr", "show"}).cmd, Cmd::LinkGroupShow);
	EXPECT_EQ(parse_cli(V{"link", "show"}).cmd, Cmd::LinkShow);
	EXPECT_EQ(parse_cli(V{"dev"}).cmd, Cmd::DeviceShow);
	EXPECT_EQ(parse_cli(V{"device", "list"}).cmd, Cmd::DeviceShow);
	EXPECT_EQ(parse_cli(V{"stats"}).cmd, Cmd::StatsShow);
	EXPECT_EQ(parse_cli(V{"stats", "show"}).cmd, Cmd::StatsShow);
	EXPECT_EQ(parse_cli(V{"stats", "reset"}).cmd, Cmd::StatsReset);
	EXPECT_EQ(parse_cli(V{"ueid"}).cmd, Cmd::UeidShow);
	EXPECT_EQ(parse_cli(V{"ueid", "show"}).cmd, Cmd::UeidShow);
	EXPECT_EQ(parse_cli(V{"ueid", "flush"}).cmd, Cmd::UeidFlush);
	EXPECT_EQ(parse_cli(V{"help"}).cmd, Cmd::Help);
}

TEST(SmcrCli, JsonAnywhere)
{
	auto o = parse_cli(V{"--json", "stats"});
	EXPECT_TRUE(o.json);
	EXPECT_EQ(o.cmd, Cmd::StatsShow);
	o = parse_cli(V{"stats", "-j"});
	EXPECT_TRUE(o.json);
	EXPECT_FALSE(parse_cli(V{"info"}).json);
}

TEST(SmcrCli, HelpAndVersionWin)
{
	EXPECT_EQ(parse_cli(V{"stats", "--help"}).cmd, Cmd::Help);
	EXPECT_EQ(parse_cli(V{"-h"}).cmd, Cmd::Help);
	EXPECT_EQ(parse_cli(V{"-V"}).cmd, Cmd::Version);
}

TEST(SmcrCli, Ueid)
{
	auto o = parse_cli(V{"ueid", "add", "my-eid.1"});
	EXPECT_EQ(o.cmd, Cmd::UeidAdd);
	EXPECT_EQ(o.ueid, "MY-EID.1");
	o = parse_cli(V{"ueid", "del", "ABC"});
	EXPECT_EQ(o.cmd, Cmd::UeidDel);
	EXPECT_EQ(o.ueid, "ABC");
	EXPECT_EQ(parse_cli(V{"ueid", "delete", "ABC"}).cmd, Cmd::UeidDel);
	EXPECT_EQ(parse_cli(V{"ueid", "remove", "ABC"}).cmd, Cmd::UeidDel);
}

TEST(SmcrCli, Errors)
{
	EXPECT_THROW(parse_cli(V{}), UsageError);
	EXPECT_THROW(parse_cli(V{"bogus"}), UsageError);
	EXPECT_THROW(parse_cli(V{"--bogus", "info"}), UsageError);
	EXPECT_THROW(parse_cli(V{"info", "extra"}), UsageError);
	EXPECT_THROW(parse_cli(V{"stats", "frobnicate"}), UsageError);
	EXPECT_THROW(parse_cli(V{"stats", "reset", "now"}), UsageError);
	EXPECT_THROW(parse_cli(V{"link", "add"}), UsageError);
	EXPECT_THROW(parse_cli(V{"ueid", "add"}), UsageError);
	EXPECT_THROW(parse_cli(V{"ueid", "add", "A", "B"}), UsageError);
	EXPECT_THROW(parse_cli(V{"ueid", "add", "-ABC"}), UsageError); // option-like
	EXPECT_THROW(parse_cli(V{"ueid", "add", ".ABC"}), UsageError);
	EXPECT_THROW(parse_cli(V{"ueid", "add", "A B"}), UsageError);
	EXPECT_THROW(parse_cli(V{"ueid", "add", std::string(33, 'A')}), UsageError);
}

TEST(SmcrCli, UeidNormalize)
{
	EXPECT_EQ(ueid_normalize("abc-1.x"), "ABC-1.X");
	EXPECT_EQ(ueid_normalize(std::string(32, 'Z')), std::string(32, 'Z'));
	EXPECT_EQ(ueid_normalize("9"), "9");
	EXPECT_FALSE(ueid_normalize(""));
	EXPECT_FALSE(ueid_normalize(std::string(33, 'Z')));
	EXPECT_FALSE(ueid_normalize("-A"));
	EXPECT_FALSE(ueid_normalize("A_B"));
	EXPECT_FALSE(ueid_normalize("A B"));
	EXPECT_FALSE(ueid_normalize(std::string("A\0B", 3)));
	EXPECT_FALSE(ueid_normalize("\xc3\x84"));
}

TEST(SmcrCli, UeidPadAndTrim)
{
	EXPECT_EQ(ueid_pad("AB"), "AB" + std::string(30, ' '));
	EXPECT_EQ(ueid_pad(std::string(32, 'X')).size(), 32u);
	EXPECT_EQ(trim_right("AB   "), "AB");
	EXPECT_EQ(trim_right("   "), "");
	EXPECT_EQ(trim_right(ueid_pad("Q.1")), "Q.1");
}
