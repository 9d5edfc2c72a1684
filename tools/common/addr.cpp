#include "smcr/addr.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <cstring>

namespace smcr {

uint16_t SockAddr::port() const
{
	if (ss.ss_family == AF_INET)
		return ntohs(reinterpret_cast<const sockaddr_in *>(&ss)->sin_port);
	if (ss.ss_family == AF_INET6)
		return ntohs(reinterpret_cast<const sockaddr_in6 *>(&ss)->sin6_port);
	return 0;
}

std::string SockAddr::ip() const
{
	if (ss.ss_family == AF_INET)
		return format_ip(AF_INET, &reinterpret_cast<const sockaddr_in *>(&ss)->sin_addr);
	if (ss.ss_family == AF_INET6)
		return format_ip(AF_INET6, &reinterpret_cast<const sockaddr_in6 *>(&ss)->sin6_addr);
	return "?";
}

std::string SockAddr::to_string() const
{
	if (ss.ss_family == AF_INET6)
		return "[" + ip() + "]:" + std::to_string(port());
	return ip() + ":" + std::to_string(port());
}

std::optional<SockAddr> SockAddr::parse(std::string_view host, uint16_t port)
{
	std::string h(host);
	if (h.size() >= 2 && h.front() == '[' && h.back() == ']')
		h = h.substr(1, h.size() - 2);
	addrinfo hints{};
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	hints.ai_socktype = SOCK_STREAM;
	addrinfo *res = nullptr;
	std::string p = std::to_string(port);
	if (getaddrinfo(h.c_str(), p.c_str(), &hints, &res) != 0 || !res)
		return std::nullopt;
	SockAddr a;
	std::memcpy(&a.ss, res->ai_addr, res->ai_addrlen);
	a.len = res->ai_addrlen;
	freeaddrinfo(res);
	return a;
}

SockAddr SockAddr::any(bool ipv6, uint16_t port)
{
	SockAddr a;
	if (ipv6) {
		auto *s6 = reinterpret_cast<sockaddr_in6 *>(&a.ss);
		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_any;
		s6->sin6_port = htons(port);
		a.len = sizeof(*s6);
	} else {
		auto *s4 = reinterpret_cast<sockaddr_in *>(&a.ss);
		s4->sin_family = AF_INET;
		s4->sin_addr.s_addr = htonl(INADDR_ANY);
		s4->sin_port = htons(port);
		a.len = sizeof(*s4);
	}
	return a;
}

SockAddr SockAddr::from(const sockaddr *sa, socklen_t len)
{
	SockAddr a;
	if (len > sizeof(a.ss))
		len = sizeof(a.ss);
	std::memcpy(&a.ss, sa, len);
	a.len = len;
	return a;
}

bool looks_like_ipv6(std::string_view host)
{
	return host.find(':') != std::string_view::npos;
}

std::string format_ip(int family, const void *addr)
{
	char buf[INET6_ADDRSTRLEN] = "?";
	if (!inet_ntop(family, addr, buf, sizeof(buf)))
		return "?";
	return buf;
}

} // namespace smcr
