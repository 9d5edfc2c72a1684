#include "transfer.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "net.hpp"
#include "smcr/args.hpp"

namespace smctest {
namespace {

struct Receiver {
	const TransferSpec &spec;
	TransferResult &res;

	void on_data(std::span<const uint8_t> d)
	{
		if (spec.verify_seed && !res.mismatch_at) {
			size_t m = smcr::pattern_mismatch(*spec.verify_seed, res.received.bytes(), d);
			if (m != d.size())
				res.mismatch_at = res.received.bytes() + m;
		}
		if (res.captured.size() < spec.capture_limit) {
			size_t n = std::min(d.size(), spec.capture_limit - res.captured.size());
			res.captured.append(reinterpret_cast<const char *>(d.data()), n);
		}
		res.received.update(d);
	}
};

// What the receiving thread has seen, for a sender whose shutdown waits
// for it (TransferSpec::shutdown_after_recv).
class RecvGate {
public:
	void add(uint64_t n)
	{
		std::lock_guard l(m_);
		got_ += n;
		cv_.notify_all();
	}
	// the receiver returned (EOF) or failed: nothing more will come
	void finish()
	{
		std::lock_guard l(m_);
		done_ = true;
		cv_.notify_all();
	}
	void wait(uint64_t want)
	{
		std::unique_lock l(m_);
		cv_.wait(l, [&] { return done_ || got_ >= want; });
	}

private:
	std::mutex m_;
	std::condition_variable cv_;
	uint64_t got_ = 0;
	bool done_ = false;
};

void send_blocking(int fd, const TransferSpec &spec, smcr::Checksum &sent, RecvGate *gate = nullptr)
{
	std::vector<uint8_t> buf(spec.msgsize);
	uint64_t off = 0;
	while (off < spec.send_bytes) {
		size_t n = static_cast<size_t>(std::min<uint64_t>(buf.size(), spec.send_bytes - off));
		std::span<uint8_t> s(buf.data(), n);
		smcr::pattern_fill(spec.send_seed, off, s);
		write_all(fd, s.data(), s.size());
		sent.update(s);
		off += n;
	}
	if (gate)
		gate->wait(spec.shutdown_after_recv);
	if (!spec.shutdown_after_send)
		return;
	if (spec.before_shutdown)
		spec.before_shutdown();
	if (::shutdown(fd, SHUT_WR) < 0)
		throw_errno("shutdown(SHUT_WR)", errno);
}

void recv_blocking(int fd, const TransferSpec &spec, TransferResult &res, RecvGate *gate = nullptr)
{
	std::vector<uint8_t> buf(spec.msgsize);
	Receiver r{spec, res};
	struct Finish {
		RecvGate *g;
		~Finish()
		{
			if (g)
				g->finish();
		}
	} finish{gate};
	for (;;) {
		ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw_errno("recv", errno);
		}
		if (n == 0)
			return;
		r.on_data(std::span<const uint8_t>(buf.data(), static_cast<size_t>(n)));
		if (gate)
			gate->add(static_cast<uint64_t>(n));
	}
}

TransferResult transfer_blocking(int fd, const TransferSpec &spec)
{
	set_nonblock(fd, false);
	TransferResult res;
	if (!spec.recv) {
		send_blocking(fd, spec, res.sent);
		return res;
	}
	if (spec.send_bytes == 0 && !spec.shutdown_after_send) {
		recv_blocking(fd, spec, res);
		return res;
	}
	std::exception_ptr send_err;
	RecvGate gate;
	RecvGate *g = spec.shutdown_after_recv ? &gate : nullptr;
	{
		std::jthread sender([&] {
			try {
				send_blocking(fd, spec, res.sent, g);
			} catch (...) {
				send_err = std::current_exception();
			}
		});
		try {
			recv_blocking(fd, spec, res, g);
		} catch (...) {
			// Unblock the sender before the jthread joins.
			::shutdown(fd, SHUT_RDWR);
			sender.join();
			throw;
		}
	}
	if (send_err)
		std::rethrow_exception(send_err);
	return res;
}

TransferResult transfer_poll(int fd, const TransferSpec &spec)
{
	set_nonblock(fd, true);
	TransferResult res;
	Receiver r{spec, res};
	std::vector<uint8_t> sbuf(spec.msgsize), rbuf(spec.msgsize);
	uint64_t off = 0;
	size_t pending = 0, pending_pos = 0; // filled but unsent part of sbuf
	bool send_done = false, recv_done = !spec.recv, sent_all = spec.send_bytes == 0;
	auto finish_send = [&] {
		if (spec.shutdown_after_send) {
			if (spec.before_shutdown)
				spec.before_shutdown();
			if (::shutdown(fd, SHUT_WR) < 0)
				throw_errno("shutdown(SHUT_WR)", errno);
		}
		send_done = true;
	};
	while (!send_done || !recv_done) {
		if (sent_all && !send_done &&
		    (recv_done || res.received.bytes() >= spec.shutdown_after_recv))
			finish_send();
		if (send_done && recv_done)
			break;
		short ev = (sent_all ? 0 : POLLOUT) | (recv_done ? 0 : POLLIN);
		short re = wait_fd(fd, ev, 1000);
		if (re == 0)
			continue;
		if (!recv_done && (re & (POLLIN | POLLHUP | POLLERR))) {
			ssize_t n = ::recv(fd, rbuf.data(), rbuf.size(), 0);
			if (n > 0)
				r.on_data(std::span<const uint8_t>(rbuf.data(), static_cast<size_t>(n)));
			else if (n == 0)
				recv_done = true;
			else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
				throw_errno("recv", errno);
		}
		// POLLERR/POLLHUP: let send() report the error instead of spinning.
		if (!sent_all && (re & (POLLOUT | POLLERR | POLLHUP))) {
			if (pending == 0) {
				size_t n = static_cast<size_t>(
					std::min<uint64_t>(sbuf.size(), spec.send_bytes - off));
				smcr::pattern_fill(spec.send_seed, off, std::span<uint8_t>(sbuf.data(), n));
				pending = n;
				pending_pos = 0;
			}
			ssize_t n = ::send(fd, sbuf.data() + pending_pos, pending - pending_pos, MSG_NOSIGNAL);
			if (n > 0) {
				res.sent.update(std::span<const uint8_t>(sbuf.data() + pending_pos,
									 static_cast<size_t>(n)));
				pending_pos += static_cast<size_t>(n);
				off += static_cast<uint64_t>(n);
				if (pending_pos == pending)
					pending = 0;
				if (off == spec.send_bytes)
					sent_all = true;
			} else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
				throw_errno("send", errno);
			}
		}
	}
	set_nonblock(fd, false);
	return res;
}

} // namespace

TransferResult transfer(int fd, const TransferSpec &spec, IoMode io)
{
	return io == IoMode::Block ? transfer_blocking(fd, spec) : transfer_poll(fd, spec);
}

smcr::Checksum echo_loop(int fd, uint64_t msgsize, IoMode io)
{
	smcr::Checksum c;
	std::vector<uint8_t> buf(msgsize);
	if (io == IoMode::Block) {
		set_nonblock(fd, false);
		for (;;) {
			ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				throw_errno("recv", errno);
			if (n == 0)
				break;
			write_all(fd, buf.data(), static_cast<size_t>(n));
			c.update(std::span<const uint8_t>(buf.data(), static_cast<size_t>(n)));
		}
	} else {
		set_nonblock(fd, true);
		size_t have = 0, pos = 0;
		bool eof = false;
		while (!eof || pos < have) {
			short ev = pos < have ? POLLOUT : POLLIN;
			if (wait_fd(fd, ev, 1000) == 0)
				continue;
			if (pos < have) {
				ssize_t n = ::send(fd, buf.data() + pos, have - pos, MSG_NOSIGNAL);
				if (n < 0 && errno != EAGAIN && errno != EINTR)
					throw_errno("send", errno);
				if (n > 0) {
					c.update(std::span<const uint8_t>(buf.data() + pos, static_cast<size_t>(n)));
					pos += static_cast<size_t>(n);
				}
				continue;
			}
			ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				throw_errno("recv", errno);
			if (n == 0)
				eof = true;
			if (n > 0) {
				have = static_cast<size_t>(n);
				pos = 0;
			}
		}
		set_nonblock(fd, false);
	}
	if (::shutdown(fd, SHUT_WR) < 0)
		throw_errno("shutdown(SHUT_WR)", errno);
	return c;
}

std::string sink_report(const smcr::Checksum &c)
{
	return "SMCTEST-SINK bytes=" + std::to_string(c.bytes()) + " fnv=" + c.hex() + "\n";
}

std::optional<SinkReport> parse_sink_report(const std::string &text)
{
	const std::string head = "SMCTEST-SINK bytes=";
	if (!text.starts_with(head) || text.empty() || text.back() != '\n')
		return std::nullopt;
	size_t sp = text.find(" fnv=", head.size());
	if (sp == std::string::npos)
		return std::nullopt;
	auto bytes = smcr::parse_u64(std::string_view(text).substr(head.size(), sp - head.size()));
	std::string hex = text.substr(sp + 5, text.size() - 1 - (sp + 5));
	if (hex.size() != 16)
		return std::nullopt;
	auto fnv = smcr::parse_u64("0x" + hex);
	if (!bytes || !fnv)
		return std::nullopt;
	return SinkReport{*bytes, *fnv};
}

} // namespace smctest
