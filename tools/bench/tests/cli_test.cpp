// smcr-bench option parsing: defaults, per-mode options and ranges, errors.
#include <gtest/gtest.h>

#include "cli.hpp"
#include "smcr/args.hpp"

using namespace bench;
using V = std::vector<std::string>;

TEST(BenchCli, ServerDefaults)
{
	auto c = parse_cli(V{"server"});
	EXPECT_EQ(c.cmd, Command::Server);
	EXPECT_EQ(c.family, Family::Inet);
	EXPECT_EQ(c.port, 5300);
	EXPECT_EQ(c.threads, 0u);
	EXPECT_FALSE(c.once);
	EXPECT_TRUE(c.bind.empty());
	EXPECT_FALSE(c.ipv6);
}

TEST(BenchCli, ServerOptions)
{
	auto c = parse_cli(V{"server", "--family", "smc", "--bind", "::", "--port=0", "--threads", "4", "--once",
			     "--rcvbuf", "1M", "--sndbuf=256K"});
	EXPECT_EQ(c.family, Family::Smc);
	EXPECT_TRUE(c.ipv6);
	EXPECT_EQ(c.port, 0);
	EXPECT_EQ(c.threads, 4u);
	EXPECT_TRUE(c.once);
	EXPECT_EQ(c.rcvbuf, 1u << 20);
	EXPECT_EQ(c.sndbuf, 256u << 10);
}

TEST(BenchCli, StreamDefaults)
{
	auto c = parse_cli(V{"client", "--peer", "192.0.2.2", "stream"});
	EXPECT_EQ(c.cmd, Command::Client);
	EXPECT_EQ(c.mode, Mode::Stream);
	EXPECT_EQ(c.msg_size, 64u * 1024);
	EXPECT_EQ(c.conns, 1u);
	EXPECT_EQ(c.time_ms, 5000u);
	EXPECT_EQ(c.timeout_ms, 65000u);
	EXPECT_EQ(c.port, 5300);
}

TEST(BenchCli, StreamOptionsAnyOrder)
{
	auto c = parse_cli(V{"client", "stream", "--msg-size", "1M", "--peer", "2001:db8::2", "--conns", "8",
			     "--time", "1.5s", "--family", "smc", "--label", "x y", "--port", "6000"});
	EXPECT_EQ(c.msg_size, 1u << 20);
	EXPECT_EQ(c.conns, 8u);
	EXPECT_EQ(c.time_ms, 1500u);
	EXPECT_EQ(c.timeout_ms, 61500u);
	EXPECT_TRUE(c.ipv6);
	EXPECT_EQ(c.family, Family::Smc);
	EXPECT_EQ(c.label, "x y");
	EXPECT_EQ(c.port, 6000);
}

TEST(BenchCli, MsgSizeRanges)
{
	EXPECT_EQ(parse_cli(V{"client", "--peer", "1.2.3.4", "stream", "--msg-size", "64"}).msg_size, 64u);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "stream", "--msg-size", "63"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "stream", "--msg-size", "1025K"}), smcr::ArgError);
	EXPECT_EQ(parse_cli(V{"client", "--peer", "1.2.3.4", "rr"}).msg_size, 1u);
	EXPECT_EQ(parse_cli(V{"client", "--peer", "1.2.3.4", "rr", "--msg-size", "16M"}).msg_size, 16u << 20);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "rr", "--msg-size", "0"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "rr", "--msg-size", "17M"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "rr", "--msg-size", "1x"}), smcr::ArgError);
}

TEST(BenchCli, RrCrrMany)
{
	auto r = parse_cli(V{"client", "--peer", "1.2.3.4", "rr", "--time", "2s", "--warmup", "0"});
	EXPECT_EQ(r.mode, Mode::Rr);
	EXPECT_EQ(r.warmup_ms, 0u);
	EXPECT_EQ(r.timeout_ms, 62000u);
	auto r2 = parse_cli(V{"client", "--peer", "1.2.3.4", "rr"});
	EXPECT_EQ(r2.warmup_ms, 500u);
	EXPECT_EQ(r2.timeout_ms, 65500u);

	auto c = parse_cli(V{"client", "--peer", "1.2.3.4", "crr", "--time", "1", "--timeout", "10s"});
	EXPECT_EQ(c.mode, Mode::Crr);
	EXPECT_EQ(c.msg_size, 1u);
	EXPECT_EQ(c.time_ms, 1000u);
	EXPECT_EQ(c.timeout_ms, 10000u);

	auto m = parse_cli(V{"client", "--peer", "1.2.3.4", "many", "--conns", "10000", "--hold", "200ms",
			     "--parallel", "128", "--ready-file", "/tmp/r"});
	EXPECT_EQ(m.mode, Mode::Many);
	EXPECT_EQ(m.conns, 10000u);
	EXPECT_EQ(m.hold_ms, 200u);
	EXPECT_EQ(m.parallel, 128u);
	EXPECT_EQ(m.ready_file, "/tmp/r");
	EXPECT_EQ(m.timeout_ms, 200u + 100000u + 60000u);
	EXPECT_EQ(parse_cli(V{"client", "--peer", "1.2.3.4", "many", "--conns", "5"}).hold_ms, 5000u);
}

TEST(BenchCli, Errors)
{
	EXPECT_THROW(parse_cli(V{}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"frob"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "stream"}), smcr::ArgError);			     // no peer
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4"}), smcr::ArgError);		     // no mode
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "udp"}), smcr::ArgError);	     // bad mode
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "rr", "crr"}), smcr::ArgError);     // two modes
	EXPECT_THROW(parse_cli(V{"client", "--peer", "host.example", "rr"}), smcr::ArgError);	     // not numeric
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "--port", "0", "rr"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "--port", "65536", "rr"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "--family", "udp", "rr"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "many"}), smcr::ArgError);	     // --conns needed
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "many", "--conns", "0"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "stream", "--conns", "1025"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "stream", "--time", "0"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "stream", "--time", "soon"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "stream", "--time"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "rr", "--wat"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "many", "--conns", "1", "--parallel", "0"}),
		     smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "--bind", "nope"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "--threads", "0"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "stream"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "--rcvbuf", "0"}), smcr::ArgError);
}

TEST(BenchCli, OptionsMustFitTheMode)
{
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "crr", "--msg-size", "1"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "rr", "--conns", "2"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "rr", "--ready-file", "/tmp/r"}), smcr::ArgError);
	EXPECT_EQ(parse_cli(V{"client", "--peer", "1.2.3.4", "stream", "--ready-file", "/tmp/r"}).ready_file, "/tmp/r");
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "stream", "--hold", "1s"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "many", "--conns", "2", "--time", "1s"}),
		     smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "stream", "--warmup", "1s"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "--peer", "1.2.3.4"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "--timeout", "1s"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--peer", "1.2.3.4", "rr", "--once"}), smcr::ArgError);
}

TEST(BenchCli, Help)
{
	EXPECT_EQ(parse_cli(V{"--help"}).cmd, Command::Help);
	EXPECT_EQ(parse_cli(V{"help"}).cmd, Command::Help);
	EXPECT_EQ(parse_cli(V{"client", "--help"}).cmd, Command::Help);
	EXPECT_EQ(parse_cli(V{"server", "-h"}).cmd, Command::Help);
	EXPECT_NE(usage().find("many --conns N"), std::string::npos);
}
