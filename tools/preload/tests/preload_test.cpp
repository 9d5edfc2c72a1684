// Runs under LD_PRELOAD=libsmc-preload.so (see CMakeLists.txt). On a host
// without AF_SMC the shim must fall back to the real TCP socket; with smcr
// loaded the socket must be AF_SMC. Either way it must stay usable and
// thread-safe.
#include <gtest/gtest.h>

#include <linux/smcr.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

namespace {

int domain_of(int fd)
{
	int d = -1;
	socklen_t len = sizeof(d);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &d, &len) < 0)
		return -1;
	return d;
}

bool smc_available()
{
	int fd = static_cast<int>(syscall(SYS_socket, AF_SMC, SOCK_STREAM, SMCPROTO_SMC));
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

} // namespace

TEST(Preload, TcpStreamConvertedOrFallsBack)
{
	for (int dom : {AF_INET, AF_INET6}) {
		int fd = socket(dom, SOCK_STREAM | SOCK_CLOEXEC, 0);
		ASSERT_GE(fd, 0);
		EXPECT_EQ(domain_of(fd), smc_available() ? AF_SMC : dom);
		close(fd);
	}
}

TEST(Preload, OthersUntouched)
{
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	ASSERT_GE(u, 0);
	EXPECT_EQ(domain_of(u), AF_INET);
	close(u);
	int x = socket(AF_UNIX, SOCK_STREAM, 0);
	ASSERT_GE(x, 0);
	EXPECT_EQ(domain_of(x), AF_UNIX);
	close(x);
	int s = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP); // may fail; must not become AF_SMC
	if (s >= 0) {
		EXPECT_EQ(domain_of(s), AF_INET);
		close(s);
	}
}

TEST(Preload, ConcurrentCallers)
{
	std::atomic<int> bad{0};
	std::vector<std::thread> ts;
	for (int t = 0; t < 16; ++t)
		ts.emplace_back([&] {
			for (int i = 0; i < 200; ++i) {
				int fd = socket(AF_INET, SOCK_STREAM, 0);
				if (fd < 0)
					++bad;
				else
					close(fd);
			}
		});
	for (auto &t : ts)
		t.join();
	EXPECT_EQ(bad.load(), 0);
}
