#include <gtest/gtest.h>

#include <sys/socket.h>

#include "cli.hpp"
#include "smcr/args.hpp"

using namespace smctest;
using V = std::vector<std::string>;

TEST(Cli, ClientDefaultsAndOptions)
{
	auto c = parse_cli(V{"client", "--addr", "192.0.2.2", "--port=5000", "--bytes", "100M", "--conns", "200",
			     "--mode", "echo", "--connect", "epoll", "--io", "poll", "--retry", "5s"});
	EXPECT_EQ(c.cmd, Command::Client);
	EXPECT_EQ(c.family, Family::Smc);
	EXPECT_FALSE(c.ipv6);
	EXPECT_EQ(c.port, 5000);
	EXPECT_EQ(c.bytes, 100ull << 20);
	EXPECT_EQ(c.conns, 200u);
	EXPECT_EQ(c.mode, Mode::Echo);
	EXPECT_EQ(c.connect, ConnectMode::Epoll);
	EXPECT_EQ(c.io, IoMode::Poll);
	EXPECT_EQ(c.retry_ms, 5000u);
	EXPECT_FALSE(c.has_expect());
}

TEST(Cli, Ipv6Implied)
{
	auto c = parse_cli(V{"client", "--addr", "2001:db8::2", "--port", "1"});
	EXPECT_TRUE(c.ipv6);
	auto s = parse_cli(V{"server", "--bind", "::", "--port", "1"});
	EXPECT_TRUE(s.ipv6);
	auto t = parse_cli(V{"server", "--ipv6", "--port", "1", "--family", "tcp"});
	EXPECT_TRUE(t.ipv6);
	EXPECT_EQ(t.family, Family::Tcp);
}

TEST(Cli, FamilyIpprotoSmc)
{
	auto c = parse_cli(V{"client", "--addr", "2001:db8::2", "--port", "1", "--family", "ipproto-smc"});
	EXPECT_EQ(c.family, Family::IpprotoSmc);
	EXPECT_TRUE(c.ipv6);
	EXPECT_STREQ(family_name(c.family), "ipproto-smc");
	EXPECT_THROW(parse_cli(V{"clc-peer", "--role", "server", "--port", "1", "--script", "x", "--family",
				 "ipproto-smc"}),
		     smcr::ArgError);
}

TEST(Cli, ServerOptions)
{
	auto c = parse_cli(V{"server", "--port", "7", "--accept", "nonblock", "--accept4-flags", "nonblock,cloexec",
			     "--concurrent", "--ready-file", "/tmp/x"});
	EXPECT_EQ(c.accept, AcceptMode::Nonblock);
	EXPECT_EQ(c.accept4_flags, SOCK_NONBLOCK | SOCK_CLOEXEC);
	EXPECT_TRUE(c.concurrent);
	EXPECT_EQ(c.ready_file, "/tmp/x");
	EXPECT_THROW(parse_cli(V{"server", "--port", "7", "--accept4-flags", "bogus"}), smcr::ArgError);
}

TEST(Cli, LateShutdownDuplexOnly)
{
	auto c = parse_cli(V{"server", "--port", "7", "--mode", "duplex", "--late-shutdown"});
	EXPECT_TRUE(c.late_shutdown);
	EXPECT_THROW(parse_cli(V{"server", "--port", "7", "--mode", "sink", "--late-shutdown"}), smcr::ArgError);
}

TEST(Cli, ShutdownHoldFileNeedsLateShutdown)
{
	auto c = parse_cli(V{"server", "--port", "7", "--mode", "duplex", "--late-shutdown", "--shutdown-hold-file",
			     "/tmp/h"});
	EXPECT_EQ(c.shutdown_hold_file, "/tmp/h");
	EXPECT_THROW(parse_cli(V{"server", "--port", "7", "--mode", "duplex", "--shutdown-hold-file", "/tmp/h"}),
		     smcr::ArgError);
}

TEST(Cli, PeerBytesDuplexOnly)
{
	auto c = parse_cli(V{"client", "--addr", "1.2.3.4", "--port", "7", "--mode", "duplex", "--bytes", "4M",
			     "--peer-bytes", "1M"});
	EXPECT_EQ(c.bytes, 4u << 20);
	ASSERT_TRUE(c.peer_bytes);
	EXPECT_EQ(*c.peer_bytes, 1u << 20);
	EXPECT_FALSE(parse_cli(V{"server", "--port", "7", "--mode", "duplex"}).peer_bytes);
	EXPECT_THROW(parse_cli(V{"server", "--port", "7", "--mode", "sink", "--peer-bytes", "1M"}), smcr::ArgError);
}

TEST(Cli, SocketBuffers)
{
	auto s = parse_cli(V{"server", "--port", "7", "--rcvbuf", "32K", "--sndbuf", "64K"});
	EXPECT_EQ(s.rcvbuf, 32u << 10);
	EXPECT_EQ(s.sndbuf, 64u << 10);
	auto c = parse_cli(V{"client", "--addr", "1.2.3.4", "--port", "1", "--rcvbuf", "200K"});
	EXPECT_EQ(c.rcvbuf, 200u << 10);
	EXPECT_EQ(c.sndbuf, 0u);
	EXPECT_THROW(parse_cli(V{"server", "--port", "7", "--rcvbuf", "0"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "--port", "7", "--rcvbuf", "65M"}), smcr::ArgError);
}

TEST(Cli, Expectations)
{
	auto c = parse_cli(V{"client", "--addr", "1.2.3.4", "--port", "1", "--expect-mode", "fallback",
			     "--expect-reason", "0x03010000"});
	EXPECT_TRUE(c.has_expect());
	EXPECT_EQ(c.expect_mode, ExpectMode::Fallback);
	EXPECT_EQ(c.expect_reason, 0x03010000u);
	auto n = parse_cli(V{"client", "--addr", "1.2.3.4", "--port", "1", "--expect-reason", "PEERNOSMC"});
	EXPECT_EQ(n.expect_reason, 0x03010000u);
	EXPECT_THROW(parse_cli(V{"client", "--addr", "1.2.3.4", "--port", "1", "--expect-mode", "smcr",
				 "--expect-fallback-any"}),
		     smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--addr", "1.2.3.4", "--port", "1", "--expect-reason", "nope"}),
		     smcr::ArgError);
}

TEST(Cli, Errors)
{
	EXPECT_THROW(parse_cli(V{}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"frobnicate"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"client", "--port", "1"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "--port", "70000"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "--port", "1", "--family", "udp"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "--port", "1", "--conns", "0"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "--port", "1", "--msgsize", "0"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"server", "--port", "1", "--wat"}), smcr::ArgError);
	EXPECT_THROW(parse_cli(V{"probe"}), smcr::ArgError);
}

TEST(Cli, ProbeAndDiag)
{
	auto p = parse_cli(V{"probe", "peek", "--role", "client", "--addr", "127.0.0.1", "--port", "9"});
	EXPECT_EQ(p.cmd, Command::Probe);
	EXPECT_EQ(p.probe, "peek");
	EXPECT_EQ(p.role, Role::Client);
	auto l = parse_cli(V{"probe", "--list"});
	EXPECT_TRUE(l.list);
	auto d = parse_cli(V{"diag", "--kv", "--port", "80", "--summary"});
	EXPECT_EQ(d.cmd, Command::Diag);
	EXPECT_TRUE(d.diag_kv);
	EXPECT_TRUE(d.diag_summary);
	EXPECT_EQ(d.diag_port, 80);
	EXPECT_EQ(parse_cli(V{"help"}).cmd, Command::Help);
	EXPECT_EQ(parse_cli(V{"server", "--help"}).cmd, Command::Help);
}
