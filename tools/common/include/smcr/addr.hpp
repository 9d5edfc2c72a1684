// Socket addresses: parse numeric IPv4/IPv6 + port, format "ip:port".
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace smcr {

struct SockAddr {
	sockaddr_storage ss{};
	socklen_t len = 0;

	int family() const { return ss.ss_family; }
	const sockaddr *sa() const { return reinterpret_cast<const sockaddr *>(&ss); }
	sockaddr *sa() { return reinterpret_cast<sockaddr *>(&ss); }
	uint16_t port() const;
	std::string ip() const;
	std::string to_string() const; // "1.2.3.4:5" or "[::1]:5"

	// Numeric address only ("192.0.2.1", "2001:db8::1", "[::1]", "fe80::1%eth0").
	static std::optional<SockAddr> parse(std::string_view host, uint16_t port);
	static SockAddr any(bool ipv6, uint16_t port);
	static SockAddr from(const sockaddr *sa, socklen_t len);
};

bool looks_like_ipv6(std::string_view host);

// Formats raw inet_diag-style address words (network order) for a family.
std::string format_ip(int family, const void *addr);

} // namespace smcr
