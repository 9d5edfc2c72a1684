// smctest: end-to-end test helper for smcr (AF_SMC) and plain TCP.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <iostream>
#include <thread>

#include "cli.hpp"
#include "commands.hpp"
#include "net.hpp"
#include "nlprobe.hpp"
#include "smcr/args.hpp"

using namespace smctest;

namespace {

// Exits the whole process with status 1 after ms (runs with all signals
// blocked so it never steals a signal meant for the probes).
void start_watchdog(uint64_t ms)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	std::thread([ms] {
		sleep_ms(ms);
		std::fprintf(stderr, "smctest: timeout after %llu ms\n", static_cast<unsigned long long>(ms));
		std::fflush(nullptr);
		_exit(1);
	}).detach();
	pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

} // namespace

int main(int argc, char **argv)
{
	std::vector<std::string> args(argv + 1, argv + argc);
	Config c;
	try {
		c = parse_cli(args);
	} catch (const smcr::ArgError &e) {
		std::cerr << "smctest: " << e.what() << "\n(see: smctest help)\n";
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	set_quiet(c.quiet);
	if (c.timeout_ms)
		start_watchdog(c.timeout_ms);
	try {
		switch (c.cmd) {
		case Command::Help: std::cout << usage(); return 0;
		case Command::Server: return run_server(c);
		case Command::Client: return run_client(c);
		case Command::Diag: return run_diag(c);
		case Command::Probe: return run_probe(c);
		case Command::Hold: return run_hold(c);
		case Command::ClcPeer: return run_clc_peer(c);
		case Command::LinkPeer: return run_link_peer(c);
		case Command::NlProbe: return run_nlprobe(c);
		}
	} catch (const smcr::ArgError &e) {
		std::cerr << "smctest: " << e.what() << "\n";
		return 2;
	} catch (const Skip &e) {
		std::cout << "SKIP: " << e.what() << std::endl;
		return 4;
	} catch (const std::exception &e) {
		std::cerr << "smctest: FAIL: " << e.what() << std::endl;
		return 1;
	}
	return 1;
}
