// smcr-bench: socket benchmark for plain TCP and AF_SMC (smcr).
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "cli.hpp"
#include "client.hpp"
#include "net.hpp"
#include "server.hpp"
#include "smcr/args.hpp"

using namespace bench;

namespace {

char timeout_msg[128];

void on_alarm(int)
{
	ssize_t n = ::write(STDERR_FILENO, timeout_msg, std::strlen(timeout_msg));
	(void)n;
	_exit(1);
}

// --timeout: SIGALRM ends the process with status 1, whatever it is stuck in.
void arm_watchdog(uint64_t ms)
{
	std::snprintf(timeout_msg, sizeof(timeout_msg), "smcr-bench: timeout after %llu ms (--timeout)\n",
		      static_cast<unsigned long long>(ms));
	struct sigaction sa{};
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, nullptr);
	itimerval it{};
	it.it_value.tv_sec = static_cast<time_t>(ms / 1000);
	it.it_value.tv_usec = static_cast<suseconds_t>((ms % 1000) * 1000);
	setitimer(ITIMER_REAL, &it, nullptr);
}

} // namespace

int main(int argc, char **argv)
{
	std::vector<std::string> args(argv + 1, argv + argc);
	Config c;
	try {
		c = parse_cli(args);
	} catch (const smcr::ArgError &e) {
		std::fprintf(stderr, "smcr-bench: %s\n(see: smcr-bench --help)\n", e.what());
		return kExitUsage;
	}
	if (c.cmd == Command::Help) {
		std::fputs(usage().c_str(), stdout);
		return 0;
	}
	signal(SIGPIPE, SIG_IGN);
	try {
		if (c.cmd == Command::Server)
			return run_server(c);
		arm_watchdog(c.timeout_ms);
		return run_client(c);
	} catch (const std::exception &e) {
		std::fflush(stdout);
		std::fprintf(stderr, "smcr-bench: %s\n", e.what());
		return 1;
	}
}
