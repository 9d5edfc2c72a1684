// smcr-bench server.
//
// The main thread owns the single listening socket (nonblocking, in its own
// epoll with a signalfd for SIGINT/SIGTERM and an eventfd for --once) and
// hands each accepted connection round-robin to a worker: a mutex-protected
// queue plus an eventfd wakeup. Each worker runs a level-triggered epoll over
// its nonblocking connections, each a small state machine (Conn). Only rr
// connections own a buffer (msg_size bytes); stream data and anything read
// while waiting for EOF go to one 256 KiB scratch buffer per worker.
#include "server.hpp"

#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <unordered_map>
#include <vector>

#include "net.hpp"
#include "proto.hpp"

namespace bench {
namespace {

using smcr::UniqueFd;

constexpr size_t kScratch = 256 * 1024;
constexpr int kBurst = 64; // socket calls per event before serving others
constexpr int kBacklog = 4096;

std::mutex log_mu;

void complain(const std::string &msg)
{
	std::lock_guard lk(log_mu);
	std::fprintf(stderr, "smcr-bench: %s\n", msg.c_str());
}

std::string peer_of(int fd)
{
	sockaddr_storage ss{};
	socklen_t len = sizeof(ss);
	if (getpeername(fd, reinterpret_cast<sockaddr *>(&ss), &len) < 0)
		return "?";
	return smcr::SockAddr::from(reinterpret_cast<sockaddr *>(&ss), len).to_string();
}

void add_fd(int ep, int fd, uint32_t events)
{
	epoll_event e{};
	e.events = events;
	e.data.fd = fd;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e) < 0)
		throw_errno("epoll_ctl(ADD)", errno);
}

void poke(int efd)
{
	uint64_t one = 1;
	while (::write(efd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
}

void drain(int efd)
{
	uint64_t v;
	while (::read(efd, &v, sizeof(v)) < 0 && errno == EINTR)
		;
}

UniqueFd make_eventfd()
{
	UniqueFd fd(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
	if (!fd)
		throw_errno("eventfd", errno);
	return fd;
}

UniqueFd make_epoll()
{
	UniqueFd fd(epoll_create1(EPOLL_CLOEXEC));
	if (!fd)
		throw_errno("epoll_create1", errno);
	return fd;
}

enum class St : uint8_t { Hello, StreamRead, StreamReply, RrRead, RrWrite, OneRead, OneWrite, WaitEof };

bool writing(St st)
{
	return st == St::StreamReply || st == St::RrWrite || st == St::OneWrite;
}

struct Conn {
	UniqueFd fd;
	St st = St::Hello;
	bool out = false;	 // registered for EPOLLOUT (else EPOLLIN)
	bool counts = false;	 // stream/rr: ends a --once server
	uint32_t msg_size = 0;
	uint32_t pos = 0;	 // progress in small (hello, replies) or buf
	uint64_t bytes = 0;	 // stream: bytes received after the hello
	std::array<uint8_t, kHelloSize> small{};
	std::vector<uint8_t> buf; // rr only
};

struct Shared {
	const Config &cfg;
	std::atomic<bool> stop{false};
	std::atomic<bool> once_hit{false};
	std::atomic<bool> failed{false};
	UniqueFd notify = make_eventfd(); // wakes the main thread
};

class Worker {
public:
	explicit Worker(Shared &sh) : sh_(sh)
	{
		add_fd(ep_.get(), wake_.get(), EPOLLIN);
	}
	~Worker() { join(); }

	void start() { th_ = std::thread([this] { run(); }); }
	void join()
	{
		if (th_.joinable())
			th_.join();
	}
	void wake() { poke(wake_.get()); }
	void hand(UniqueFd fd)
	{
		{
			std::lock_guard lk(mu_);
			pending_.push_back(std::move(fd));
		}
		wake();
	}

private:
	void run()
	{
		try {
			loop();
		} catch (const std::exception &e) {
			complain(std::string("worker: ") + e.what());
			sh_.failed = true;
			poke(sh_.notify.get());
		}
		conns_.clear();
	}

	void loop()
	{
		std::array<epoll_event, 256> evs;
		while (!sh_.stop) {
			int n = epoll_wait(ep_.get(), evs.data(), static_cast<int>(evs.size()), -1);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				throw_errno("epoll_wait", errno);
			}
			for (int i = 0; i < n; ++i) {
				int fd = evs[static_cast<size_t>(i)].data.fd;
				if (fd == wake_.get()) {
					drain(fd);
					adopt();
					continue;
				}
				auto it = conns_.find(fd);
				if (it == conns_.end())
					continue;
				Conn &c = *it->second;
				bool keep;
				try {
					keep = step(c);
				} catch (const std::bad_alloc &) {
					complain("drop " + peer_of(fd) + ": out of memory");
					keep = false;
				}
				if (keep)
					rearm(c);
				else
					finish(it);
			}
		}
	}

	void adopt()
	{
		std::vector<UniqueFd> fds;
		{
			std::lock_guard lk(mu_);
			fds.swap(pending_);
		}
		for (auto &f : fds) {
			int fd = f.get();
			epoll_event e{};
			e.events = EPOLLIN;
			e.data.fd = fd;
			if (epoll_ctl(ep_.get(), EPOLL_CTL_ADD, fd, &e) < 0) {
				complain("drop " + peer_of(fd) + ": epoll_ctl: " + std::strerror(errno));
				continue;
			}
			auto c = std::make_unique<Conn>();
			c->fd = std::move(f);
			conns_[fd] = std::move(c);
		}
	}

	void rearm(Conn &c)
	{
		bool out = writing(c.st);
		if (out == c.out)
			return;
		epoll_event e{};
		e.events = out ? EPOLLOUT : EPOLLIN;
		e.data.fd = c.fd.get();
		if (epoll_ctl(ep_.get(), EPOLL_CTL_MOD, c.fd.get(), &e) < 0)
			throw_errno("epoll_ctl(MOD)", errno);
		c.out = out;
	}

	void finish(std::unordered_map<int, std::unique_ptr<Conn>>::iterator it)
	{
		bool counts = it->second->counts;
		conns_.erase(it); // closes the fd, which leaves the epoll
		if (counts && sh_.cfg.once && !sh_.once_hit.exchange(true))
			poke(sh_.notify.get());
	}

	// n <= 0 from recv/send: true to wait for the next event, false to drop
	// (with a message unless it is a clean EOF where one may come).
	bool io_end(Conn &c, ssize_t n, const char *what, bool eof_ok)
	{
		if (n == 0) {
			if (!eof_ok)
				complain("drop " + peer_of(c.fd.get()) + ": connection closed " + what);
			return false;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return true;
		complain("drop " + peer_of(c.fd.get()) + ": " + what + ": " + std::strerror(errno));
		return false;
	}

	// Moves c on as far as its socket allows; false when c is finished.
	bool step(Conn &c)
	{
		int fd = c.fd.get();
		for (int burst = 0; burst < kBurst; ++burst) {
			ssize_t n;
			switch (c.st) {
			case St::Hello:
				n = ::recv(fd, c.small.data() + c.pos, kHelloSize - c.pos, 0);
				if (n <= 0)
					return io_end(c, n, "before the hello", false);
				c.pos += static_cast<uint32_t>(n);
				if (c.pos == kHelloSize && !start(c))
					return false;
				break;
			case St::StreamRead:
				n = ::recv(fd, scratch_.data(), scratch_.size(), 0);
				if (n > 0) {
					c.bytes += static_cast<uint64_t>(n);
				} else if (n == 0) {
					auto b = encode_count(c.bytes);
					std::copy(b.begin(), b.end(), c.small.begin());
					c.pos = 0;
					c.st = St::StreamReply;
				} else {
					return io_end(c, n, "recv", false);
				}
				break;
			case St::StreamReply:
				n = ::send(fd, c.small.data() + c.pos, 8 - c.pos, MSG_NOSIGNAL);
				if (n < 0)
					return io_end(c, n, "send", false);
				c.pos += static_cast<uint32_t>(n);
				if (c.pos == 8)
					return false; // done
				break;
			case St::RrRead:
				n = ::recv(fd, c.buf.data() + c.pos, c.msg_size - c.pos, 0);
				if (n <= 0)
					return io_end(c, n, "in the middle of a message", c.pos == 0);
				c.pos += static_cast<uint32_t>(n);
				if (c.pos == c.msg_size) {
					c.pos = 0;
					c.st = St::RrWrite;
				}
				break;
			case St::RrWrite:
				n = ::send(fd, c.buf.data() + c.pos, c.msg_size - c.pos, MSG_NOSIGNAL);
				if (n < 0)
					return io_end(c, n, "send", false);
				c.pos += static_cast<uint32_t>(n);
				if (c.pos == c.msg_size) {
					c.pos = 0;
					c.st = St::RrRead;
				}
				break;
			case St::OneRead:
				n = ::recv(fd, c.small.data(), 1, 0);
				if (n <= 0)
					return io_end(c, n, "before the request byte", false);
				c.st = St::OneWrite;
				break;
			case St::OneWrite:
				n = ::send(fd, c.small.data(), 1, MSG_NOSIGNAL);
				if (n < 0)
					return io_end(c, n, "send", false);
				c.st = St::WaitEof;
				break;
			case St::WaitEof:
				// Anything the client sends now is ignored; EOF ends it.
				n = ::recv(fd, scratch_.data(), scratch_.size(), 0);
				if (n <= 0)
					return io_end(c, n, "recv", true);
				break;
			}
		}
		return true; // level-triggered: the rest comes with the next event
	}

	// The hello is complete: validate it and pick the next state.
	bool start(Conn &c)
	{
		std::string err;
		auto h = decode_hello(c.small, err);
		if (!h) {
			complain("drop " + peer_of(c.fd.get()) + ": " + err);
			return false;
		}
		c.pos = 0;
		c.msg_size = h->msg_size;
		switch (h->mode) {
		case Mode::Stream:
			c.st = St::StreamRead;
			c.counts = true;
			break;
		case Mode::Rr:
			c.buf.resize(h->msg_size);
			c.st = St::RrRead;
			c.counts = true;
			break;
		case Mode::Crr:
		case Mode::Many:
			c.st = St::OneRead;
			break;
		}
		return true;
	}

	Shared &sh_;
	UniqueFd ep_ = make_epoll();
	UniqueFd wake_ = make_eventfd();
	std::mutex mu_;
	std::vector<UniqueFd> pending_;
	std::unordered_map<int, std::unique_ptr<Conn>> conns_;
	std::vector<uint8_t> scratch_ = std::vector<uint8_t>(kScratch);
	std::thread th_;
};

// Stops and joins the workers however run_server() is left.
struct WorkerPool {
	Shared &sh;
	std::vector<std::unique_ptr<Worker>> w;
	~WorkerPool() { shutdown(); }
	void shutdown()
	{
		sh.stop = true;
		for (auto &x : w)
			x->wake();
		for (auto &x : w)
			x->join();
		w.clear();
	}
};

bool accept_retryable(int e)
{
	// Errors of one pending connection, not of the listener (accept(2)).
	return e == EINTR || e == ECONNABORTED || e == EPROTO || e == ENETDOWN || e == ENOPROTOOPT ||
	       e == EHOSTDOWN || e == ENONET || e == EHOSTUNREACH || e == EOPNOTSUPP || e == ENETUNREACH ||
	       e == ETIMEDOUT || e == ECONNRESET || e == EPERM;
}

} // namespace

int run_server(const Config &c)
{
	raise_nofile();

	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	if (pthread_sigmask(SIG_BLOCK, &sigs, nullptr) != 0)
		throw Error("pthread_sigmask failed");
	UniqueFd sfd(signalfd(-1, &sigs, SFD_NONBLOCK | SFD_CLOEXEC));
	if (!sfd)
		throw_errno("signalfd", errno);

	auto addr = c.bind.empty() ? smcr::SockAddr::any(false, c.port) : smcr::SockAddr::parse(c.bind, c.port);
	if (!addr)
		throw Error("bad --bind address '" + c.bind + "'");
	UniqueFd lfd = open_socket(c, addr->family() == AF_INET6, SOCK_NONBLOCK | SOCK_CLOEXEC);
	int one = 1;
	if (setsockopt(lfd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0)
		throw_errno("setsockopt(SO_REUSEADDR)", errno);
	if (::bind(lfd.get(), addr->sa(), addr->len) < 0)
		throw_errno("bind " + addr->to_string(), errno);
	if (::listen(lfd.get(), kBacklog) < 0)
		throw_errno("listen " + addr->to_string(), errno);
	sockaddr_storage ss{};
	socklen_t sl = sizeof(ss);
	if (getsockname(lfd.get(), reinterpret_cast<sockaddr *>(&ss), &sl) < 0)
		throw_errno("getsockname", errno);
	auto bound = smcr::SockAddr::from(reinterpret_cast<sockaddr *>(&ss), sl);

	Shared sh{c};
	unsigned nthreads = c.threads;
	if (!nthreads) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		nthreads = n > 0 ? static_cast<unsigned>(n) : 1;
	}
	WorkerPool pool{sh, {}};
	for (unsigned i = 0; i < nthreads; ++i)
		pool.w.push_back(std::make_unique<Worker>(sh));
	for (auto &w : pool.w)
		w->start();

	UniqueFd ep = make_epoll();
	add_fd(ep.get(), lfd.get(), EPOLLIN);
	add_fd(ep.get(), sfd.get(), EPOLLIN);
	add_fd(ep.get(), sh.notify.get(), EPOLLIN);

	std::printf("listening on %s family %s\n", bound.to_string().c_str(), family_name(c.family));
	std::fflush(stdout);

	size_t next = 0;
	uint64_t accepted = 0, last_complaint = 0;
	bool paused = false; // out of fds: listener off for a moment
	while (!sh.stop) {
		std::array<epoll_event, 16> evs;
		int n = epoll_wait(ep.get(), evs.data(), static_cast<int>(evs.size()), paused ? 50 : -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw_errno("epoll_wait", errno);
		}
		if (n == 0 && paused) {
			add_fd(ep.get(), lfd.get(), EPOLLIN);
			paused = false;
		}
		for (int i = 0; i < n; ++i) {
			int fd = evs[static_cast<size_t>(i)].data.fd;
			if (fd == sfd.get()) {
				signalfd_siginfo si;
				while (::read(sfd.get(), &si, sizeof(si)) < 0 && errno == EINTR)
					;
				sh.stop = true;
			} else if (fd == sh.notify.get()) {
				drain(fd);
				if (sh.once_hit || sh.failed)
					sh.stop = true;
			} else if (fd == lfd.get() && !paused) {
				for (int k = 0; k < 256; ++k) {
					int cfd = accept4(lfd.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
					if (cfd < 0) {
						int e = errno;
						if (e == EAGAIN || e == EWOULDBLOCK)
							break;
						if (accept_retryable(e))
							continue;
						uint64_t now = now_ns();
						if (now - last_complaint > 1000000000ull) {
							complain(std::string("accept: ") + std::strerror(e));
							last_complaint = now;
						}
						// EMFILE, ENOBUFS, ...: give it a rest (level-triggered
						// would spin on the pending connection).
						epoll_ctl(ep.get(), EPOLL_CTL_DEL, lfd.get(), nullptr);
						paused = true;
						break;
					}
					UniqueFd cf(cfd);
					try {
						set_nodelay(cfd, c);
					} catch (const Error &) {
						// not fatal for the benchmark
					}
					pool.w[next++ % pool.w.size()]->hand(std::move(cf));
					++accepted;
				}
			}
		}
	}
	bool failed = sh.failed;
	pool.shutdown();
	std::printf("server exit: accepted %llu connections\n", static_cast<unsigned long long>(accepted));
	std::fflush(stdout);
	return failed ? 1 : 0;
}

} // namespace bench
