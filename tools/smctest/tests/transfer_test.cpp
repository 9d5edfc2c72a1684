// Transfer helpers over a local socketpair (no network needed).
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/socket.h>

#include <thread>
#include <vector>

#include "smcr/fd.hpp"
#include "transfer.hpp"

using namespace smctest;

TEST(SinkReport, RoundTrip)
{
	smcr::Checksum c = smcr::pattern_checksum(3, 12345);
	auto r = parse_sink_report(sink_report(c));
	ASSERT_TRUE(r);
	EXPECT_EQ(r->bytes, 12345u);
	EXPECT_EQ(r->fnv, c.value());
	EXPECT_FALSE(parse_sink_report("SMCTEST-SINK bytes=1 fnv=00\n"));
	EXPECT_FALSE(parse_sink_report("SMCTEST-SINK bytes=x fnv=0000000000000000\n"));
	EXPECT_FALSE(parse_sink_report("SMCTEST-SINK bytes=1 fnv=0000000000000000"));
	EXPECT_FALSE(parse_sink_report(""));
}

class TransferP : public ::testing::TestWithParam<IoMode> {};

TEST_P(TransferP, DuplexOverSocketpair)
{
	int sv[2];
	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	smcr::UniqueFd a(sv[0]), b(sv[1]);
	const uint64_t n = 3 * 1000 * 1000 + 7;
	TransferSpec sa, sb;
	sa.send_bytes = sb.send_bytes = n;
	sa.send_seed = 5;
	sb.send_seed = 6;
	sa.verify_seed = 6;
	sb.verify_seed = 5;
	sa.msgsize = 1000;
	TransferResult rb;
	std::thread t([&] { rb = transfer(b.get(), sb, GetParam()); });
	TransferResult ra = transfer(a.get(), sa, GetParam());
	t.join();
	EXPECT_EQ(ra.sent.bytes(), n);
	EXPECT_EQ(ra.received.bytes(), n);
	EXPECT_FALSE(ra.mismatch_at);
	EXPECT_FALSE(rb.mismatch_at);
	EXPECT_EQ(ra.received.value(), rb.sent.value());
	EXPECT_EQ(rb.received.value(), ra.sent.value());
	EXPECT_EQ(ra.sent.value(), smcr::pattern_checksum(5, n).value());
}

// b's receive timeout: a transfer that never shuts down fails the test
// instead of hanging it
static void recv_timeout(int fd)
{
	timeval tv{5, 0};
	ASSERT_EQ(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
}

// shutdown_after_recv: the EOF comes only after the peer's bytes arrived
TEST_P(TransferP, LateShutdownWaitsForThePeersBytes)
{
	int sv[2];
	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	smcr::UniqueFd a(sv[0]), b(sv[1]);
	recv_timeout(b.get());
	const uint64_t n = 100 * 1000, m = 5000;
	TransferSpec sa;
	sa.send_bytes = n;
	sa.send_seed = 5;
	sa.shutdown_after_recv = m;
	TransferResult ra;
	std::jthread t([&] { ra = transfer(a.get(), sa, GetParam()); });
	std::vector<uint8_t> buf(n);
	uint64_t got = 0;
	while (got < n) {
		ssize_t r = ::recv(b.get(), buf.data(), buf.size(), 0);
		if (r <= 0)
			break;
		got += static_cast<uint64_t>(r);
	}
	EXPECT_EQ(got, n);
	pollfd p{b.get(), POLLIN, 0};
	EXPECT_EQ(::poll(&p, 1, 200), 0) << "EOF before the peer's bytes came";
	std::vector<uint8_t> out(m, 0x5a);
	EXPECT_EQ(::send(b.get(), out.data(), out.size(), 0), static_cast<ssize_t>(m));
	EXPECT_EQ(::recv(b.get(), buf.data(), buf.size(), 0), 0);
	::shutdown(b.get(), SHUT_WR);
	t.join();
	EXPECT_EQ(ra.sent.bytes(), n);
	EXPECT_EQ(ra.received.bytes(), m);
}

// ... and the peer's EOF before that many bytes releases the shutdown too
TEST_P(TransferP, LateShutdownEndsOnThePeersEof)
{
	int sv[2];
	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	smcr::UniqueFd a(sv[0]), b(sv[1]);
	recv_timeout(b.get());
	const uint64_t n = 20 * 1000;
	TransferSpec sa;
	sa.send_bytes = n;
	sa.send_seed = 5;
	sa.shutdown_after_recv = 1000 * 1000;
	TransferResult ra;
	std::jthread t([&] { ra = transfer(a.get(), sa, GetParam()); });
	ASSERT_EQ(::send(b.get(), "x", 1, 0), 1);
	::shutdown(b.get(), SHUT_WR);
	std::vector<uint8_t> buf(n);
	uint64_t got = 0;
	ssize_t r;
	while ((r = ::recv(b.get(), buf.data(), buf.size(), 0)) > 0)
		got += static_cast<uint64_t>(r);
	EXPECT_EQ(r, 0) << "no EOF from the side whose peer ended";
	EXPECT_EQ(got, n);
	t.join();
	EXPECT_EQ(ra.received.bytes(), 1u);
}

TEST_P(TransferP, EchoOverSocketpair)
{
	int sv[2];
	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	smcr::UniqueFd a(sv[0]), b(sv[1]);
	smcr::Checksum echoed;
	std::thread t([&] { echoed = echo_loop(b.get(), 4096, GetParam()); });
	TransferSpec s;
	s.send_bytes = 2 << 20;
	s.send_seed = 9;
	s.verify_seed = 9;
	auto r = transfer(a.get(), s, GetParam());
	t.join();
	EXPECT_EQ(r.received.bytes(), 2u << 20);
	EXPECT_EQ(r.received.value(), r.sent.value());
	EXPECT_EQ(echoed.value(), r.sent.value());
	EXPECT_FALSE(r.mismatch_at);
}

TEST(Transfer, DetectsMismatch)
{
	int sv[2];
	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	smcr::UniqueFd a(sv[0]), b(sv[1]);
	TransferSpec s;
	s.send_bytes = 10000;
	s.send_seed = 1;
	s.recv = false;
	std::thread t([&] { transfer(b.get(), s, IoMode::Block); });
	TransferSpec r;
	r.shutdown_after_send = false;
	r.verify_seed = 2;
	auto res = transfer(a.get(), r, IoMode::Block);
	t.join();
	ASSERT_TRUE(res.mismatch_at);
	EXPECT_LT(*res.mismatch_at, 10u);
}

INSTANTIATE_TEST_SUITE_P(Io, TransferP, ::testing::Values(IoMode::Block, IoMode::Poll));
