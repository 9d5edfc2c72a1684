#include "commands.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "net.hpp"
#include "smcr/diag.hpp"
#include "smcr/reasons.hpp"
#include "transfer.hpp"

namespace smctest {

using smcr::UniqueFd;

namespace {

std::string hex64(uint64_t v)
{
	char b[20];
	std::snprintf(b, sizeof(b), "%016llx", static_cast<unsigned long long>(v));
	return b;
}

void check_accept_flags(const Config &c, int fd, const std::string &label)
{
	bool nb = is_nonblock(fd), ce = is_cloexec(fd);
	bool want_nb = c.accept4_flags & SOCK_NONBLOCK, want_ce = c.accept4_flags & SOCK_CLOEXEC;
	if (nb != want_nb)
		throw Failure(label + ": accept4 O_NONBLOCK is " + (nb ? "set" : "clear") + ", expected " +
			      (want_nb ? "set" : "clear"));
	if (ce != want_ce)
		throw Failure(label + ": accept4 FD_CLOEXEC is " + (ce ? "set" : "clear") + ", expected " +
			      (want_ce ? "set" : "clear"));
}

bool file_exists(const std::string &path)
{
	return ::access(path.c_str(), F_OK) == 0;
}

// Sleeps ms, or less once path (if not empty) no longer exists.
void hold(uint64_t ms, const std::string &path)
{
	const uint64_t until = now_ms() + ms;
	for (uint64_t now = now_ms(); now < until && (path.empty() || file_exists(path)); now = now_ms())
		sleep_ms(std::min<uint64_t>(50, until - now));
}

// --shutdown-hold-file: what a duplex connection's SHUT_WR waits for
std::function<void()> shutdown_hold(const Config &c)
{
	if (c.shutdown_hold_file.empty())
		return {};
	return [&path = c.shutdown_hold_file] {
		while (file_exists(path))
			sleep_ms(50);
	};
}

// Serves one accepted connection per --mode; throws Failure.
void serve_conn(const Config &c, UniqueFd fd, unsigned idx)
{
	std::string label = "server conn " + std::to_string(idx);
	bool chatty = c.verbose || c.conns == 1;
	check_accept_flags(c, fd.get(), label);
	if (c.verbose)
		say(label + ": accepted " + peer_name(fd.get()) + " -> " + local_name(fd.get()));
	check_expect(c, fd.get(), label);
	switch (c.mode) {
	case Mode::Sink: {
		TransferSpec s;
		s.msgsize = c.msgsize;
		s.shutdown_after_send = false;
		auto r = transfer(fd.get(), s, c.io);
		std::string rep = sink_report(r.received);
		write_all(fd.get(), rep.data(), rep.size());
		::shutdown(fd.get(), SHUT_WR);
		if (chatty)
			say(label + ": sink bytes=" + std::to_string(r.received.bytes()) + " fnv=" + r.received.hex());
		break;
	}
	case Mode::Echo: {
		auto ck = echo_loop(fd.get(), c.msgsize, c.io);
		if (chatty)
			say(label + ": echo bytes=" + std::to_string(ck.bytes()) + " fnv=" + ck.hex());
		break;
	}
	case Mode::Source: {
		TransferSpec s;
		s.msgsize = c.msgsize;
		s.send_bytes = c.bytes;
		s.send_seed = c.seed;
		auto r = transfer(fd.get(), s, c.io);
		if (r.received.bytes() != 0)
			throw Failure(label + ": source: peer unexpectedly sent " +
				      std::to_string(r.received.bytes()) + " bytes");
		if (chatty)
			say(label + ": source sent bytes=" + std::to_string(r.sent.bytes()) + " fnv=" + r.sent.hex());
		break;
	}
	case Mode::Duplex: {
		TransferSpec s;
		s.msgsize = c.msgsize;
		const uint64_t want = c.peer_bytes.value_or(c.bytes);
		s.send_bytes = c.bytes;
		s.send_seed = c.seed + 1;
		s.verify_seed = c.seed;
		if (c.late_shutdown)
			s.shutdown_after_recv = want;
		s.before_shutdown = shutdown_hold(c);
		auto r = transfer(fd.get(), s, c.io);
		if (chatty)
			say(label + ": duplex sent bytes=" + std::to_string(r.sent.bytes()) + " fnv=" + r.sent.hex() +
		    " received bytes=" + std::to_string(r.received.bytes()) + " fnv=" + r.received.hex());
		if (r.mismatch_at)
			throw Failure(label + ": received data differs from pattern at offset " +
				      std::to_string(*r.mismatch_at));
		if (r.received.bytes() != want)
			throw Failure(label + ": received " + std::to_string(r.received.bytes()) +
				      " bytes, expected " + std::to_string(want));
		break;
	}
	}
}

// Drives one client connection per --mode; throws Failure.
void client_conn(const Config &c, unsigned idx)
{
	std::string label = "client conn " + std::to_string(idx);
	if (!c.expect_connect_error.empty()) {
		// The connection must fail during setup (e.g. the peer broke CLC).
		try {
			UniqueFd fd = dial(c, peer_addr(c));
		} catch (const Failure &e) {
			std::string what = e.what();
			if (c.expect_connect_error != "any" &&
			    what.find(": " + c.expect_connect_error + " (") == std::string::npos)
				throw Failure(label + ": connect failed, but not with " + c.expect_connect_error + ": " + what);
			say(label + ": connect failed as expected: " + what);
			return;
		}
		throw Failure(label + ": connect succeeded, expected it to fail (" + c.expect_connect_error + ")");
	}
	UniqueFd fd = dial(c, peer_addr(c));
	if (c.verbose)
		say(label + ": connected " + local_name(fd.get()) + " -> " + peer_name(fd.get()));
	check_expect(c, fd.get(), label);
	if (c.keepalive_s)
		say(label + ": SO_KEEPALIVE, TCP_KEEPIDLE reads " +
		    std::to_string(set_keepalive(fd.get(), c.keepalive_s)));
	if (c.hold_ms)
		hold(c.hold_ms, c.hold_file);
	TransferSpec s;
	s.msgsize = c.msgsize;
	// Sink and echo only compare against what this connection sent, so each
	// connection uses its own seed: a cross-wired stream cannot match.
	const uint64_t own_seed = c.seed + idx;
	switch (c.mode) {
	case Mode::Sink: {
		s.send_bytes = c.bytes;
		s.send_seed = own_seed;
		s.capture_limit = 256;
		auto r = transfer(fd.get(), s, c.io);
		auto rep = parse_sink_report(r.captured);
		if (!rep || r.received.bytes() != r.captured.size())
			throw Failure(label + ": bad sink report from server: '" + r.captured + "'");
		if (rep->bytes != r.sent.bytes() || rep->fnv != r.sent.value())
			throw Failure(label + ": CHECKSUM MISMATCH: sent bytes=" + std::to_string(r.sent.bytes()) +
				      " fnv=" + r.sent.hex() + ", server got bytes=" +
				      std::to_string(rep->bytes) + " fnv=" + hex64(rep->fnv));
		if (c.verbose || c.conns == 1)
			say(label + ": sink ok bytes=" + std::to_string(r.sent.bytes()) + " fnv=" + r.sent.hex());
		break;
	}
	case Mode::Echo: {
		s.send_bytes = c.bytes;
		s.send_seed = own_seed;
		s.verify_seed = own_seed;
		auto r = transfer(fd.get(), s, c.io);
		if (r.received.bytes() != r.sent.bytes() || r.received.value() != r.sent.value())
			throw Failure(label + ": ECHO MISMATCH: sent bytes=" + std::to_string(r.sent.bytes()) +
				      " fnv=" + r.sent.hex() + ", got back bytes=" +
				      std::to_string(r.received.bytes()) + " fnv=" + r.received.hex());
		if (c.verbose || c.conns == 1)
			say(label + ": echo ok bytes=" + std::to_string(r.sent.bytes()) + " fnv=" + r.sent.hex());
		break;
	}
	case Mode::Source:
	case Mode::Duplex: {
		bool duplex = c.mode == Mode::Duplex;
		s.send_bytes = duplex ? c.bytes : 0;
		s.send_seed = c.seed;
		s.shutdown_after_send = duplex;
		s.verify_seed = duplex ? c.seed + 1 : c.seed;
		const uint64_t want = duplex ? c.peer_bytes.value_or(c.bytes) : c.bytes;
		if (duplex && c.late_shutdown)
			s.shutdown_after_recv = want;
		if (duplex)
			s.before_shutdown = shutdown_hold(c);
		auto r = transfer(fd.get(), s, c.io);
		auto expect = smcr::pattern_checksum(*s.verify_seed, want);
		if (r.mismatch_at || r.received.bytes() != want || r.received.value() != expect.value())
			throw Failure(label + ": RECEIVE MISMATCH: got bytes=" + std::to_string(r.received.bytes()) +
				      " fnv=" + r.received.hex() + ", expected bytes=" + std::to_string(want) +
				      " fnv=" + expect.hex() +
				      (r.mismatch_at ? " (first bad offset " + std::to_string(*r.mismatch_at) + ")" : ""));
		if (c.verbose || c.conns == 1)
			say(label + ": " + mode_name(c.mode) + " ok received bytes=" +
			    std::to_string(r.received.bytes()) + " fnv=" + r.received.hex() +
			    (duplex ? " sent bytes=" + std::to_string(r.sent.bytes()) + " fnv=" + r.sent.hex() : ""));
		break;
	}
	}
}

// Runs one connection; complains unless it went as --expect-data-error
// says (success without it, failure with that errno with it).
bool expect_outcome(const Config &c, const std::string &label, const std::function<void()> &conn)
{
	const std::string &want = c.expect_data_error;
	try {
		conn();
	} catch (const std::exception &e) {
		const std::string what = e.what();
		if (!want.empty() && what.find(": " + want + " (") != std::string::npos) {
			say(label + ": failed with " + want + " as expected: " + what);
			return true;
		}
		complain(what);
		return false;
	}
	if (!want.empty()) {
		complain(label + ": data exchange succeeded, expected " + want);
		return false;
	}
	return true;
}

} // namespace

int run_server(const Config &c)
{
	UniqueFd lfd = make_listener(c, c.accept == AcceptMode::Nonblock ? SOCK_NONBLOCK : 0);
	if (c.accept == AcceptMode::Nonblock) {
		// Nothing can be pending before the ready file exists.
		UniqueFd fd(::accept4(lfd.get(), nullptr, nullptr, c.accept4_flags));
		if (fd)
			throw Failure("nonblocking accept on an idle listener returned a socket");
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			throw_errno("nonblocking accept on an idle listener: expected EAGAIN", errno);
	}
	say("server: listening on " + local_name(lfd.get()) + " family=" +
	    family_name(c.family) + " mode=" + mode_name(c.mode) +
	    " conns=" + std::to_string(c.conns));
	write_ready_file(c.ready_file);

	std::atomic<unsigned> failed{0};
	auto handle = [&](UniqueFd fd, unsigned i) {
		if (!expect_outcome(c, "server conn " + std::to_string(i), [&] { serve_conn(c, std::move(fd), i); }))
			++failed;
	};
	// --conns 0: until the ready file is removed
	auto ready_gone = [&] { return !file_exists(c.ready_file); };
	unsigned served = 0;
	{
		std::vector<std::jthread> workers;
		for (unsigned i = 0; c.conns == 0 || i < c.conns; ++i) {
			if (c.conns == 0) {
				while (!(wait_fd(lfd.get(), POLLIN, 100) & POLLIN) && !ready_gone())
					;
				if (ready_gone())
					break;
			}
			UniqueFd fd;
			if (c.accept == AcceptMode::Nonblock) {
				fd = accept_one(lfd.get(), c.accept4_flags, -1);
			} else {
				int r;
				do
					r = ::accept4(lfd.get(), nullptr, nullptr, c.accept4_flags);
				while (r < 0 && (errno == EINTR || errno == ECONNABORTED));
				if (r < 0)
					throw_errno("accept4", errno);
				fd = UniqueFd(r);
			}
			++served;
			if (c.concurrent)
				workers.emplace_back(handle, std::move(fd), i);
			else
				handle(std::move(fd), i);
		}
	}
	unsigned ok = served - failed;
	say("server: " + std::to_string(ok) + "/" + std::to_string(served) + " connections ok");
	if (c.hold_ms) {
		// Keep the listener (and handshakes still pending on it) open; the
		// hold ends early when the ready file is removed.
		say("server: holding the listener for up to " + std::to_string(c.hold_ms) + " ms");
		hold(c.hold_ms, c.ready_file);
	}
	return failed ? 1 : 0;
}

int run_client(const Config &c)
{
	std::atomic<unsigned> failed{0};
	auto one = [&](unsigned i) {
		if (!expect_outcome(c, "client conn " + std::to_string(i), [&] { client_conn(c, i); }))
			++failed;
	};
	uint64_t t0 = now_ms();
	if (c.conns == 1) {
		one(0);
	} else {
		std::vector<std::jthread> threads;
		threads.reserve(c.conns);
		for (unsigned i = 0; i < c.conns; ++i)
			threads.emplace_back(one, i);
	}
	uint64_t dt = now_ms() - t0;
	unsigned ok = c.conns - failed;
	std::ostringstream os;
	os << "client: " << ok << "/" << c.conns << " connections ok, mode=" << mode_name(c.mode)
	   << " bytes/conn=" << c.bytes << " in " << dt << " ms";
	if (dt > 0 && c.mode != Mode::Echo && c.hold_ms == 0)
		os << " (" << std::fixed << std::setprecision(1)
		   << (static_cast<double>(c.bytes) * c.conns * 8 / 1e6) / (static_cast<double>(dt) / 1000.0)
		   << " Mbit/s)";
	say(os.str());
	return failed ? 1 : 0;
}

std::string format_diag(const Config &c, const std::vector<smcr::DiagEntry> &all)
{
	std::vector<smcr::DiagEntry> v;
	for (auto &e : all)
		if (!c.diag_port || e.sport == *c.diag_port || e.dport == *c.diag_port)
			v.push_back(e);
	auto addr = [](const std::string &ip, uint16_t port, uint8_t fam) {
		return fam == AF_INET6 ? "[" + ip + "]:" + std::to_string(port) : ip + ":" + std::to_string(port);
	};
	auto hex = [](uint32_t x) {
		char b[12];
		std::snprintf(b, sizeof(b), "0x%08x", x);
		return std::string(b);
	};
	auto curs = [](const smcr::DiagEntry::Cursor &k) {
		return std::to_string(k.wrap) + ":" + std::to_string(k.count);
	};
	auto hex2 = [](uint8_t x) {
		char b[4];
		std::snprintf(b, sizeof(b), "%02x", x);
		return std::string(b);
	};
	std::ostringstream os;
	if (c.diag_kv) {
		for (auto &e : v) {
			os << "family=" << (e.family == AF_INET6 ? "inet6" : "inet")
			   << " state=" << smcr::tcp_state_name(e.state) << " mode=" << smcr::diag_mode_name(e.mode)
			   << " local=" << addr(e.src, e.sport, e.family) << " peer=" << addr(e.dst, e.dport, e.family)
			   << " reason=" << hex(e.reason) << " peer_diag=" << hex(e.peer_diagnosis)
			   << " inode=" << e.inode << " uid=" << e.uid;
			if (e.has_conn)
				os << " token=" << hex(e.token) << " rmbe=" << e.rmbe_size
				   << " peer_rmbe=" << e.peer_rmbe_size << " sndbuf=" << e.sndbuf_size << " rx_prod=" << e.rx_prod_wrap << ":"
				   << e.rx_prod_count << " tx_prod=" << e.tx_prod_wrap << ":" << e.tx_prod_count
				   << " rx_cons=" << curs(e.rx_cons) << " tx_cons=" << curs(e.tx_cons)
				   << " tx_prep=" << curs(e.tx_prep) << " tx_sent=" << curs(e.tx_sent)
				   << " tx_fin=" << curs(e.tx_fin) << " flags=" << hex2(e.rx_prod_flags)
				   << hex2(e.rx_conn_flags) << "/" << hex2(e.tx_prod_flags) << hex2(e.tx_conn_flags);
			if (e.has_lgr)
				os << " dev=" << (e.ibname.empty() ? "-" : e.ibname) << " link=" << int(e.link_id)
				   << " role=" << (e.lgr_role ? "server" : "client");
			os << "\n";
		}
	} else {
		os << std::left << std::setw(13) << "State" << std::setw(9) << "Mode" << std::setw(28) << "Local"
		   << std::setw(28) << "Peer" << std::setw(24) << "Reason" << std::setw(24) << "PeerDiag"
		   << "Inode\n";
		for (auto &e : v) {
			auto r = [&](uint32_t x) {
				auto i = smcr::reason_lookup(x);
				return x == 0 ? std::string("-") : hex(x) + " " + std::string(i ? i->name : "?");
			};
			os << std::left << std::setw(13) << smcr::tcp_state_name(e.state) << std::setw(9)
			   << smcr::diag_mode_name(e.mode) << std::setw(28) << addr(e.src, e.sport, e.family)
			   << std::setw(28) << addr(e.dst, e.dport, e.family) << std::setw(24) << r(e.reason)
			   << std::setw(24) << r(e.peer_diagnosis) << e.inode << "\n";
		}
		os << v.size() << " AF_SMC socket(s)\n";
	}
	if (c.diag_summary) {
		std::map<std::pair<uint32_t, uint32_t>, unsigned> fb;
		unsigned smcr_n = 0, conn_n = 0;
		for (auto &e : v) {
			if (e.state == 10 /* LISTEN */)
				continue;
			++conn_n;
			if (e.mode == 0)
				++smcr_n;
			else
				++fb[{e.reason, e.peer_diagnosis}];
		}
		if (conn_n == 0)
			os << "summary: no AF_SMC connections\n";
		if (smcr_n)
			os << "summary: " << smcr_n << " connection(s) use the SMC-R data path\n";
		for (auto &[k, n] : fb) {
			auto info = smcr::reason_lookup(k.first);
			os << "summary: " << n << " connection(s) used TCP fallback, reason " << hex(k.first) << " ("
			   << (info ? info->description : "unknown reason") << ")";
			if (k.second) {
				auto pi = smcr::reason_lookup(k.second);
				os << ", peer diagnosis " << hex(k.second) << " ("
				   << (pi ? pi->description : "unknown") << ")";
			}
			os << "\n";
		}
	}
	return os.str();
}

int run_diag(const Config &c)
{
	std::vector<smcr::DiagEntry> all;
	try {
		all = smcr::diag_dump_smc();
	} catch (const std::system_error &e) {
		if (e.code().value() == ENOENT)
			throw Failure("sock_diag has no AF_SMC handler (is smcr loaded?): " + std::string(e.what()));
		throw Failure(e.what());
	}
	std::cout << format_diag(c, all) << std::flush;
	return 0;
}

int run_hold(const Config &c)
{
	UniqueFd fd;
	std::vector<UniqueFd> more; // --conns N: N unconnected sockets in all
	if (c.port) {
		fd = make_listener(c);
		say("hold: listening on " + local_name(fd.get()));
	} else {
		fd = make_socket(c.family, c.ipv6);
		for (unsigned i = 1; i < c.conns; ++i)
			more.push_back(make_socket(c.family, c.ipv6));
		say("hold: " + std::to_string(c.conns) + " socket(s) open");
	}
	write_ready_file(c.ready_file);
	uint64_t until = c.hold_ms ? now_ms() + c.hold_ms : 0;
	while (!until || now_ms() < until)
		sleep_ms(100);
	return 0;
}

} // namespace smctest
