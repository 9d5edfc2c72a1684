// smcr-bench client modes.
//
// stream: N blocking connections, one thread each, write until --time, then
//         half-close and compare the server's byte count with what was sent.
//         Each connection also keeps its longest pause between two messages
//         sent (a stall: a link lost under it, until the failover frees
//         send buffer again); the longest of all is reported with its start
//         and end in CLOCK_REALTIME, to set against a link-down time taken
//         by `date +%s%N` on the same machine (make bench's failover case).
// rr:     one blocking connection, timed ping-pong after a warmup.
// crr:    connect + 1-byte request/reply + close in a loop, timed.
// many:   N nonblocking connects through one epoll (at most --parallel in
//         flight), one byte each way, hold, close; /proc/meminfo deltas
//         (each reading after a settle of vm.stat_interval + 100 ms).
#include "client.hpp"

#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <vector>

#include "json.hpp"
#include "net.hpp"
#include "proto.hpp"
#include "stats.hpp"

namespace bench {
namespace {

using smcr::SockAddr;
using smcr::UniqueFd;

constexpr int kEof = -1; // "errno" for a connection closed too early

std::string err_name(int e)
{
	return e == kEof ? "EOF" : errno_name(e);
}

std::string err_text(int e)
{
	return e == kEof ? "connection closed by the server" : std::strerror(e);
}

double secs_between(uint64_t a_ns, uint64_t b_ns)
{
	return b_ns > a_ns ? static_cast<double>(b_ns - a_ns) / 1e9 : 0.0;
}

// Blocking connect; a connect interrupted by a signal completes in the
// background, so wait for it. Returns 0 or an errno.
int connect_blocking(int fd, const SockAddr &to)
{
	if (::connect(fd, to.sa(), to.len) == 0)
		return 0;
	if (errno != EINTR)
		return errno;
	pollfd p{fd, POLLOUT, 0};
	while (::poll(&p, 1, -1) < 0)
		if (errno != EINTR)
			return errno;
	int err = 0;
	socklen_t len = sizeof(err);
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		return errno;
	return err;
}

UniqueFd dial(const Config &c, const SockAddr &to)
{
	UniqueFd fd = open_socket(c, to.family() == AF_INET6, SOCK_CLOEXEC);
	if (int e = connect_blocking(fd.get(), to))
		throw_errno("connect " + to.to_string(), e);
	return fd;
}

void send_hello(int fd, Mode m, uint32_t msg_size)
{
	auto h = encode_hello(Hello{m, msg_size});
	write_all(fd, h.data(), h.size(), "send hello");
}

JsonObject base_json(const Config &c, const SockAddr &to)
{
	JsonObject j;
	j.add("mode", mode_name(c.mode))
		.add("family", family_name(c.family))
		.add("peer", to.ip())
		.add("port", to.port())
		.add("label", c.label)
		.add("msg_size", c.msg_size)
		.add("rcvbuf", c.rcvbuf)
		.add("sndbuf", c.sndbuf);
	return j;
}

void print(const JsonObject &j)
{
	std::printf("%s\n", j.str().c_str());
	std::fflush(stdout);
}

JsonObject error_counts(const std::map<std::string, uint64_t> &errs)
{
	JsonObject j;
	for (const auto &[name, n] : errs)
		j.add(name, n);
	return j;
}

// ---- stream ----------------------------------------------------------------

struct StreamConn {
	UniqueFd fd;
	uint64_t sent = 0;
	uint64_t first_ns = 0, end_ns = 0;
	uint64_t stop_ns = 0; // the last send's end
	uint64_t gap_start_ns = 0, gap_end_ns = 0; // the longest pause between sends
	std::vector<std::pair<uint64_t, uint64_t>> pauses; // >= kPauseNs, the first kMaxPauses
	std::string err;
};

constexpr uint64_t kPauseNs = 10'000'000;
constexpr size_t kMaxPauses = 256;

void write_ready_file(const std::string &path, uint64_t open);

// CLOCK_REALTIME - CLOCK_MONOTONIC now, in ns: converts a now_ns() time
// into one comparable with `date +%s%N`.
int64_t realtime_offset_ns()
{
	timespec rt{};
	clock_gettime(CLOCK_REALTIME, &rt);
	uint64_t mono = now_ns();
	uint64_t real = static_cast<uint64_t>(rt.tv_sec) * 1000000000ull + static_cast<uint64_t>(rt.tv_nsec);
	return static_cast<int64_t>(real - mono);
}

int run_stream(const Config &c, const SockAddr &to)
{
	std::vector<StreamConn> conns(c.conns);
	for (auto &sc : conns) {
		sc.fd = dial(c, to);
		send_hello(sc.fd.get(), Mode::Stream, c.msg_size);
	}
	std::vector<uint8_t> buf(c.msg_size, 0x5a);
	uint64_t deadline = now_ns() + c.time_ms * 1000000ull;
	{
		std::vector<std::jthread> threads;
		threads.reserve(conns.size());
		for (auto &sc : conns) {
			threads.emplace_back([&sc, &buf, deadline] {
				try {
					int fd = sc.fd.get();
					sc.first_ns = now_ns();
					uint64_t last = sc.first_ns, t = last;
					do {
						write_all(fd, buf.data(), buf.size(), "send");
						sc.sent += buf.size();
						t = now_ns();
						if (t - last > sc.gap_end_ns - sc.gap_start_ns) {
							sc.gap_start_ns = last;
							sc.gap_end_ns = t;
						}
						if (t - last >= kPauseNs && sc.pauses.size() < kMaxPauses)
							sc.pauses.emplace_back(last, t);
						last = t;
					} while (t < deadline);
					sc.stop_ns = t;
					if (::shutdown(fd, SHUT_WR) < 0)
						throw_errno("shutdown(SHUT_WR)", errno);
					std::array<uint8_t, 8> b;
					read_exact(fd, b.data(), b.size(), "read the byte count");
					sc.end_ns = now_ns();
					uint64_t got = decode_count(b);
					if (got != sc.sent)
						sc.err = "server received " + std::to_string(got) + " bytes, we sent " +
							 std::to_string(sc.sent);
				} catch (const std::exception &e) {
					sc.err = e.what();
				}
			});
		}
		if (!c.ready_file.empty())
			write_ready_file(c.ready_file, conns.size());
	}
	uint64_t t0 = UINT64_MAX, t1 = 0, bytes = 0, stop = UINT64_MAX;
	size_t gap_conn = 0;
	for (size_t i = 0; i < conns.size(); ++i) {
		if (!conns[i].err.empty())
			throw Error("stream connection " + std::to_string(i) + " to " + to.to_string() + ": " +
				    conns[i].err);
		t0 = std::min(t0, conns[i].first_ns);
		t1 = std::max(t1, conns[i].end_ns);
		bytes += conns[i].sent;
		stop = std::min(stop, conns[i].stop_ns);
		const StreamConn &g = conns[gap_conn];
		if (conns[i].gap_end_ns - conns[i].gap_start_ns > g.gap_end_ns - g.gap_start_ns)
			gap_conn = i;
	}
	const StreamConn &g = conns[gap_conn];
	int64_t rt = realtime_offset_ns();
	auto real = [rt](uint64_t mono) { return std::to_string(static_cast<int64_t>(mono) + rt); };
	std::string pauses = "[";
	for (size_t i = 0; i < conns.size(); ++i)
		for (const auto &[from, to_ns] : conns[i].pauses)
			pauses += (pauses.size() > 1 ? ",[" : "[") + std::to_string(i) + "," + real(from) + "," +
				  real(to_ns) + "]";
	pauses += "]";
	double secs = secs_between(t0, t1);
	auto j = base_json(c, to);
	j.add("conns", c.conns)
		.add("secs", secs, 6)
		.add("bytes", bytes)
		.add("mbit_s", secs > 0 ? static_cast<double>(bytes) * 8 / secs / 1e6 : 0.0)
		.add("max_gap_ms", static_cast<double>(g.gap_end_ns - g.gap_start_ns) / 1e6, 3)
		.add("max_gap_conn", gap_conn)
		.add("max_gap_start_realtime_ns", static_cast<uint64_t>(static_cast<int64_t>(g.gap_start_ns) + rt))
		.add("max_gap_end_realtime_ns", static_cast<uint64_t>(static_cast<int64_t>(g.gap_end_ns) + rt))
		.raw("start_realtime_ns", real(t0))
		.raw("sends_end_realtime_ns", real(stop))
		.raw("pauses", pauses);
	print(j);
	return 0;
}

// ---- rr ----------------------------------------------------------------------

int run_rr(const Config &c, const SockAddr &to)
{
	UniqueFd fd = dial(c, to);
	set_nodelay(fd.get(), c);
	send_hello(fd.get(), Mode::Rr, c.msg_size);
	std::vector<uint8_t> buf(c.msg_size, 0x5a);
	auto round_trip = [&] {
		write_all(fd.get(), buf.data(), buf.size(), "send");
		read_exact(fd.get(), buf.data(), buf.size(), "recv");
	};

	uint64_t warm_end = now_ns() + c.warmup_ms * 1000000ull;
	while (now_ns() < warm_end)
		round_trip();

	std::vector<uint64_t> rtt;
	rtt.reserve(1 << 16);
	uint64_t start = now_ns(), deadline = start + c.time_ms * 1000000ull, t1 = start;
	do {
		uint64_t t0 = now_ns();
		round_trip();
		t1 = now_ns();
		rtt.push_back(t1 - t0);
	} while (t1 < deadline);

	// Half-close; the server closes after our EOF and sends nothing more.
	if (::shutdown(fd.get(), SHUT_WR) < 0)
		throw_errno("shutdown(SHUT_WR)", errno);
	uint8_t extra;
	for (;;) {
		ssize_t n = ::recv(fd.get(), &extra, 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			throw_errno("recv", errno);
		if (n > 0)
			throw Error("rr: unexpected data from the server after the last reply");
		break;
	}

	double secs = secs_between(start, t1);
	Summary s = summarize(rtt);
	auto j = base_json(c, to);
	j.add("count", s.count)
		.add("secs", secs, 6)
		.add("warmup_secs", static_cast<double>(c.warmup_ms) / 1000.0)
		.add("transactions_per_s", secs > 0 ? static_cast<double>(s.count) / secs : 0.0)
		.add("rtt_p50_us", ns_to_us(s.p50))
		.add("rtt_p99_us", ns_to_us(s.p99))
		.add("rtt_p999_us", ns_to_us(s.p999))
		.add("rtt_mean_us", ns_to_us(s.mean))
		.add("rtt_min_us", ns_to_us(s.min))
		.add("rtt_max_us", ns_to_us(s.max))
		.add("one_way_p50_us", ns_to_us(s.p50) / 2);
	print(j);
	return 0;
}

// ---- crr ---------------------------------------------------------------------

// One connect/request/reply/close. Returns 0 or an errno (kEof); what names
// the failed step.
int one_crr(const Config &c, const SockAddr &to, uint64_t &lat_ns, const char *&what)
{
	what = "socket";
	UniqueFd fd(raw_socket(c, to.family() == AF_INET6, SOCK_CLOEXEC));
	if (!fd)
		return errno;
	uint64_t t0 = now_ns();
	what = "connect";
	if (int e = connect_blocking(fd.get(), to))
		return e;
	std::array<uint8_t, kHelloSize + 1> msg{};
	auto h = encode_hello(Hello{Mode::Crr, 1});
	std::copy(h.begin(), h.end(), msg.begin());
	msg[kHelloSize] = 'x';
	what = "send";
	for (size_t off = 0; off < msg.size();) {
		ssize_t n = ::send(fd.get(), msg.data() + off, msg.size() - off, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		off += static_cast<size_t>(n);
	}
	what = "recv";
	for (;;) {
		uint8_t b;
		ssize_t n = ::recv(fd.get(), &b, 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return kEof;
		break;
	}
	lat_ns = now_ns() - t0;
	return 0;
}

int run_crr(const Config &c, const SockAddr &to)
{
	std::vector<uint64_t> lat;
	lat.reserve(1 << 14);
	std::map<std::string, uint64_t> errs;
	uint64_t attempts = 0, failed = 0;
	std::string first_err;
	bool gave_up = false;
	uint64_t start = now_ns(), deadline = start + c.time_ms * 1000000ull, end = start;
	while ((end = now_ns()) < deadline) {
		++attempts;
		uint64_t ns = 0;
		const char *what = "";
		int e = one_crr(c, to, ns, what);
		if (e == 0) {
			lat.push_back(ns);
			continue;
		}
		++failed;
		++errs[err_name(e)];
		if (first_err.empty())
			first_err = std::string(what) + " " + to.to_string() + ": " + err_text(e);
		if (attempts >= 10 && failed * 10 > attempts) {
			gave_up = true;
			end = now_ns();
			break;
		}
	}
	double secs = secs_between(start, end);
	Summary s = summarize(lat);
	auto j = base_json(c, to);
	j.add("conns", s.count)
		.add("attempts", attempts)
		.add("failed", failed)
		.add("errors", error_counts(errs))
		.add("secs", secs, 6)
		.add("conns_per_s", secs > 0 ? static_cast<double>(s.count) / secs : 0.0)
		.add("lat_p50_us", ns_to_us(s.p50))
		.add("lat_p99_us", ns_to_us(s.p99))
		.add("lat_mean_us", ns_to_us(s.mean))
		.add("lat_max_us", ns_to_us(s.max));
	print(j);
	if (failed)
		std::fprintf(stderr, "smcr-bench: crr: %llu of %llu connections failed%s; first: %s\n",
			     static_cast<unsigned long long>(failed), static_cast<unsigned long long>(attempts),
			     gave_up ? " (more than 10%, stopped)" : "", first_err.c_str());
	if (gave_up || failed * 10 > attempts || s.count == 0)
		return 1;
	return 0;
}

// ---- many --------------------------------------------------------------------

enum class MSt : uint8_t { Idle, Connecting, Sending, Reading, Open, Failed };

struct ManyConn {
	UniqueFd fd;
	MSt st = MSt::Idle;
	uint8_t sent = 0;
};

void write_ready_file(const std::string &path, uint64_t open)
{
	std::string tmp = path + ".tmp";
	{
		std::ofstream f(tmp, std::ios::trunc);
		f << open << "\n";
		if (!f.flush())
			throw Error("cannot write " + tmp);
	}
	if (std::rename(tmp.c_str(), path.c_str()) < 0)
		throw_errno("rename " + tmp + " " + path, errno);
}

// /proc/meminfo lags per-CPU page counters by up to vm.stat_interval
// seconds; waiting that long (+100 ms) before a reading makes it current.
uint64_t meminfo_settle_ms()
{
	unsigned long secs = 1;
	if (FILE *f = std::fopen("/proc/sys/vm/stat_interval", "r")) {
		if (std::fscanf(f, "%lu", &secs) != 1 || secs > 10)
			secs = 1;
		std::fclose(f);
	}
	return secs * 1000 + 100;
}

int run_many(const Config &c, const SockAddr &to, uint64_t nofile)
{
	if (nofile && c.conns + 32 > nofile)
		std::fprintf(stderr, "smcr-bench: warning: %u connections but the fd limit is %llu\n", c.conns,
			     static_cast<unsigned long long>(nofile));
	const bool v6 = to.family() == AF_INET6;
	std::array<uint8_t, kHelloSize + 1> msg{};
	{
		auto h = encode_hello(Hello{Mode::Many, 1});
		std::copy(h.begin(), h.end(), msg.begin());
		msg[kHelloSize] = 'x';
	}
	std::vector<ManyConn> conns(c.conns);
	UniqueFd ep(epoll_create1(EPOLL_CLOEXEC));
	if (!ep)
		throw_errno("epoll_create1", errno);

	std::map<std::string, uint64_t> errs;
	std::string first_err;
	uint64_t opened = 0, failed = 0, inflight = 0;
	size_t next = 0;
	auto fail = [&](ManyConn &m, int e, const char *what) {
		if (m.st != MSt::Idle)
			--inflight;
		m.fd.reset(); // also leaves the epoll
		m.st = MSt::Failed;
		++failed;
		++errs[err_name(e)];
		if (first_err.empty())
			first_err = std::string(what) + " " + to.to_string() + ": " + err_text(e);
	};
	auto watch = [&](size_t i, uint32_t events, int op) {
		epoll_event e{};
		e.events = events;
		e.data.u64 = i;
		if (epoll_ctl(ep.get(), op, conns[i].fd.get(), &e) < 0)
			throw_errno("epoll_ctl", errno);
	};
	// Sends the rest of hello + request byte; then waits for the reply.
	auto send_more = [&](size_t i) {
		ManyConn &m = conns[i];
		while (m.sent < msg.size()) {
			ssize_t n = ::send(m.fd.get(), msg.data() + m.sent, msg.size() - m.sent, MSG_NOSIGNAL);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
				return;
			if (n < 0)
				return fail(m, errno, "send");
			m.sent = static_cast<uint8_t>(m.sent + n);
		}
		m.st = MSt::Reading;
		watch(i, EPOLLIN, EPOLL_CTL_MOD);
	};

	const uint64_t settle_ns = meminfo_settle_ms() * 1000000ull;
	sleep_ns(settle_ns);
	MemInfo before = read_meminfo();
	uint64_t t_start = now_ns();
	std::array<epoll_event, 256> evs;
	while (opened + failed < c.conns) {
		while (inflight < c.parallel && next < conns.size()) {
			size_t i = next++;
			ManyConn &m = conns[i];
			m.fd.reset(raw_socket(c, v6, SOCK_NONBLOCK | SOCK_CLOEXEC));
			if (!m.fd) {
				fail(m, errno, "socket");
				continue;
			}
			m.st = MSt::Connecting;
			++inflight;
			if (::connect(m.fd.get(), to.sa(), to.len) < 0 && errno != EINPROGRESS && errno != EINTR) {
				fail(m, errno, "connect");
				continue;
			}
			watch(i, EPOLLOUT, EPOLL_CTL_ADD);
		}
		if (!inflight)
			continue;
		int n = epoll_wait(ep.get(), evs.data(), static_cast<int>(evs.size()), 1000);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw_errno("epoll_wait", errno);
		}
		for (int k = 0; k < n; ++k) {
			size_t i = evs[static_cast<size_t>(k)].data.u64;
			ManyConn &m = conns[i];
			if (m.st == MSt::Connecting) {
				int err = 0;
				socklen_t len = sizeof(err);
				if (getsockopt(m.fd.get(), SOL_SOCKET, SO_ERROR, &err, &len) < 0)
					err = errno;
				if (err) {
					fail(m, err, "connect");
					continue;
				}
				m.st = MSt::Sending;
			}
			if (m.st == MSt::Sending) {
				send_more(i);
			} else if (m.st == MSt::Reading) {
				uint8_t b;
				ssize_t r = ::recv(m.fd.get(), &b, 1, 0);
				if (r == 1) {
					m.st = MSt::Open;
					--inflight;
					++opened;
					if (epoll_ctl(ep.get(), EPOLL_CTL_DEL, m.fd.get(), nullptr) < 0)
						throw_errno("epoll_ctl(DEL)", errno);
				} else if (r == 0) {
					fail(m, kEof, "recv");
				} else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
					fail(m, errno, "recv");
				}
			}
		}
	}
	uint64_t t_open = now_ns();
	sleep_ns(settle_ns);
	MemInfo after = read_meminfo();
	if (!c.ready_file.empty())
		write_ready_file(c.ready_file, opened);
	sleep_ns(c.hold_ms * 1000000ull);
	uint64_t t_close = now_ns();
	conns.clear();
	uint64_t t_closed = now_ns();

	auto delta = [](uint64_t b, uint64_t a) { return static_cast<int64_t>(a) - static_cast<int64_t>(b); };
	int64_t avail_delta = delta(before.avail, after.avail);
	double secs = secs_between(t_start, t_open);
	auto j = base_json(c, to);
	j.add("conns", c.conns)
		.add("parallel", c.parallel)
		.add("opened", opened)
		.add("failed", failed)
		.add("errors", error_counts(errs))
		.add("secs_to_open", secs, 6)
		.add("conns_per_s", secs > 0 ? static_cast<double>(opened) / secs : 0.0)
		.add("hold_secs", static_cast<double>(c.hold_ms) / 1000.0)
		.add("secs_to_close", secs_between(t_close, t_closed), 6)
		.add("mem_total_kib", after.total)
		.add("mem_avail_before_kib", before.avail)
		.add("mem_avail_after_kib", after.avail)
		.add("mem_avail_delta_kib", avail_delta)
		.add("mem_free_delta_kib", delta(before.free, after.free))
		.add("slab_delta_kib", delta(before.slab, after.slab))
		.add("kib_per_conn", opened ? -static_cast<double>(avail_delta) / static_cast<double>(opened) : 0.0);
	print(j);
	if (failed) {
		std::fprintf(stderr, "smcr-bench: many: %llu of %u connections failed; first: %s\n",
			     static_cast<unsigned long long>(failed), c.conns, first_err.c_str());
		return 1;
	}
	return 0;
}

} // namespace

MemInfo parse_meminfo(std::string_view text)
{
	MemInfo m;
	std::istringstream in{std::string(text)};
	std::string key;
	uint64_t v;
	std::string line;
	while (std::getline(in, line)) {
		std::istringstream ls(line);
		if (!(ls >> key >> v))
			continue;
		if (key == "MemTotal:") m.total = v;
		else if (key == "MemFree:") m.free = v;
		else if (key == "MemAvailable:") m.avail = v;
		else if (key == "Slab:") m.slab = v;
	}
	return m;
}

MemInfo read_meminfo()
{
	std::ifstream f("/proc/meminfo");
	std::stringstream ss;
	ss << f.rdbuf();
	return parse_meminfo(ss.str());
}

int run_client(const Config &c)
{
	uint64_t nofile = raise_nofile();
	auto to = SockAddr::parse(c.peer, c.port);
	if (!to)
		throw Error("bad --peer address '" + c.peer + "'");
	switch (c.mode) {
	case Mode::Stream: return run_stream(c, *to);
	case Mode::Rr: return run_rr(c, *to);
	case Mode::Crr: return run_crr(c, *to);
	case Mode::Many: return run_many(c, *to, nofile);
	}
	return 1;
}

} // namespace bench
