#include "clcio.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

#include "net.hpp"

namespace smctest {

ReadResult read_some(int fd, size_t len, uint64_t deadline)
{
	ReadResult r;
	while (r.data.size() < len) {
		uint64_t now = now_ms();
		if (now >= deadline) {
			r.timed_out = true;
			break;
		}
		short re = wait_fd(fd, POLLIN, static_cast<int>(std::min<uint64_t>(deadline - now, 1000)));
		if (re == 0)
			continue;
		uint8_t buf[2048];
		ssize_t n = ::recv(fd, buf, std::min(sizeof(buf), len - r.data.size()), MSG_DONTWAIT);
		if (n > 0) {
			r.data.insert(r.data.end(), buf, buf + n);
		} else if (n == 0) {
			r.eof = true;
			break;
		} else if (errno != EAGAIN && errno != EINTR) {
			r.err = errno;
			break;
		}
	}
	return r;
}

clc::Bytes read_clc(int fd, uint64_t wait_ms, const std::string &what)
{
	uint64_t deadline = now_ms() + wait_ms;
	auto h = read_some(fd, clc::kHdrLen, deadline);
	auto describe = [&](const ReadResult &r) {
		std::string s = std::to_string(r.data.size()) + " byte(s)";
		if (r.eof) s += ", then EOF";
		if (r.err) s += ", then " + errno_name(r.err);
		if (r.timed_out) s += ", then nothing for " + std::to_string(wait_ms) + " ms";
		if (!r.data.empty()) s += ": " + clc::hex(r.data);
		return s;
	};
	if (h.data.size() < clc::kHdrLen)
		throw Failure("expected " + what + ", got " + describe(h));
	auto hdr = clc::parse_header(h.data.data());
	if (!hdr.eye_ok || hdr.length < clc::kHdrLen + clc::kTrailerLen || hdr.length > clc::kMaxLen)
		throw Failure("expected " + what + ", got a bad CLC header: " + clc::hex(h.data));
	auto rest = read_some(fd, hdr.length - clc::kHdrLen, deadline);
	clc::Bytes m = h.data;
	m.insert(m.end(), rest.data.begin(), rest.data.end());
	if (m.size() != hdr.length)
		throw Failure("expected " + what + ", got a truncated " + clc::type_name(hdr.type) + ": " +
			      describe(rest));
	if (!clc::trailer_ok(m))
		throw Failure("expected " + what + ", got a " + clc::type_name(hdr.type) + " with a bad trailer: " +
			      clc::hex(m));
	return m;
}

} // namespace smctest
