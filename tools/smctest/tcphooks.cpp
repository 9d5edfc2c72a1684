// Probes of the socket options that hook TCP's data path, which SMC-R data
// never passes (Documentation/architecture.rst, "TCP options that hook the
// data path"): kTLS is refused; the repair options and TCP_ZEROCOPY_RECEIVE
// are refused; MD5 keys and socket filters keep a connection on TCP when
// set before the handshake, and are refused once it runs over SMC-R.
#include <linux/filter.h>
#include <linux/smc_diag.h>
#include <linux/smcr.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "net.hpp"
#include "probes.hpp"
#include "smcr/reasons.hpp"

namespace smctest::probe {

using smcr::UniqueFd;

// ---- no kTLS -------------------------------------------------------------
//
// kTLS hooks TCP's data path; SMC-R data does not pass through TCP, so an
// AF_SMC socket that accepted TCP_ULP "tls" would send plaintext over RoCE
// while the application believes it encrypts. It must refuse the ULP and
// every SOL_TLS option (EOPNOTSUPP), before the handshake and after it.

#ifndef SOL_TLS
#define SOL_TLS 282
#endif
#ifndef TCP_ULP
#define TCP_ULP 31
#endif
constexpr int kTlsTx = 1;	// TLS_TX in <linux/tls.h>

static void expect_no_tls(int fd, const std::string &when)
{
	static const char ulp[] = "tls";
	unsigned char info[56] = {};	// tls12_crypto_info_aes_gcm_128's size
	socklen_t len = sizeof(info);

	errno = 0;
	int rc = ::setsockopt(fd, SOL_TCP, TCP_ULP, ulp, sizeof(ulp) - 1);
	check(rc < 0 && errno == EOPNOTSUPP, when + ": setsockopt(TCP_ULP, \"tls\") returned " +
	      std::to_string(rc) + " (" + std::strerror(errno) + "), expected EOPNOTSUPP");
	errno = 0;
	rc = ::setsockopt(fd, SOL_TLS, kTlsTx, info, sizeof(info));
	check(rc < 0 && errno == EOPNOTSUPP, when + ": setsockopt(SOL_TLS, TLS_TX) returned " +
	      std::to_string(rc) + " (" + std::strerror(errno) + "), expected EOPNOTSUPP");
	errno = 0;
	rc = ::getsockopt(fd, SOL_TLS, kTlsTx, info, &len);
	check(rc < 0 && errno == EOPNOTSUPP, when + ": getsockopt(SOL_TLS, TLS_TX) returned " +
	      std::to_string(rc) + " (" + std::strerror(errno) + "), expected EOPNOTSUPP");
	// reading TCP_ULP stays TCP's answer: no ULP, an empty name
	char name[16] = {};
	socklen_t nlen = sizeof(name);
	rc = ::getsockopt(fd, SOL_TCP, TCP_ULP, name, &nlen);
	check(rc == 0 && nlen == 0, when + ": getsockopt(TCP_ULP) returned " + std::to_string(rc) +
	      " with " + std::to_string(nlen) + " bytes, expected 0 and none (no ULP)");
}

// One byte each way: the refusals left the connection working.
// One byte each way (the client writes first): the connection works.
static void exchange_byte(int fd, bool client, char b, const std::string &probe)
{
	char got = 0;
	if (client)
		write_all(fd, &b, 1);
	check(::recv(fd, &got, 1, MSG_WAITALL) == 1 && got == b, probe + ": byte not echoed");
	if (!client)
		write_all(fd, &b, 1);
}

// These probes check AF_SMC sockets; TCP takes the options.
static void only_smc(const Config &c, const std::string &probe)
{
	if (c.family != Family::Smc)
		throw Skip(probe + " checks AF_SMC sockets; TCP takes these options (use --family smc)");
}

void no_tls_server(const Config &c, int lfd)
{
	only_smc(c, "no-tls");
	expect_no_tls(lfd, "listening socket");
	announce(c, lfd);
	UniqueFd fd = accept_blocking(lfd);
	check_expect(c, fd.get(), "no-tls server");
	expect_no_tls(fd.get(), "accepted socket");
	exchange_byte(fd.get(), false, 'k', "no-tls");
	drain(fd.get());
}

void no_tls_client(const Config &c)
{
	only_smc(c, "no-tls");
	auto to = peer_addr(c);
	UniqueFd fresh = make_socket(c.family, to.family() == AF_INET6);
	expect_no_tls(fresh.get(), "socket before connect");
	UniqueFd fd = dial(c, to);
	check_expect(c, fd.get(), "no-tls client");
	expect_no_tls(fd.get(), "connected socket");
	exchange_byte(fd.get(), true, 'k', "no-tls");
}

// ---- tcp-hooks -----------------------------------------------------------

#ifndef TCP_ZEROCOPY_RECEIVE
#define TCP_ZEROCOPY_RECEIVE 35
#endif

// Refused on an AF_SMC socket in every state.
static void expect_refused_always(int fd, const std::string &when)
{
	int one = 1;
	expect_errno(::setsockopt(fd, SOL_TCP, TCP_REPAIR, &one, sizeof(one)), EOPNOTSUPP,
		     when + ": setsockopt(TCP_REPAIR)");
	expect_errno(::setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)), EOPNOTSUPP,
		     when + ": setsockopt(SO_ZEROCOPY)");
	tcp_repair_window w{};
	socklen_t len = sizeof(w);
	expect_errno(::getsockopt(fd, SOL_TCP, TCP_REPAIR_WINDOW, &w, &len), EOPNOTSUPP,
		     when + ": getsockopt(TCP_REPAIR_WINDOW)");
	unsigned char zc[64] = {};	// struct tcp_zerocopy_receive, any version
	len = sizeof(zc);
	expect_errno(::getsockopt(fd, SOL_TCP, TCP_ZEROCOPY_RECEIVE, zc, &len), EOPNOTSUPP,
		     when + ": getsockopt(TCP_ZEROCOPY_RECEIVE)");
}

// A classic BPF filter that accepts every packet whole.
static int attach_accept_all(int fd)
{
	static sock_filter code[] = {{BPF_RET | BPF_K, 0, 0, 0xffffffffU}};
	sock_fprog prog{1, code};
	return ::setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
}

// A TCP MD5 key for the peer's address; -1 with ENOPROTOOPT on a kernel
// without CONFIG_TCP_MD5SIG.
static int set_md5_key(int fd, const sockaddr_storage &peer, socklen_t plen)
{
	tcp_md5sig m{};
	std::memcpy(&m.tcpm_addr, &peer, plen);
	static const char key[] = "smcr-selftest-key";
	m.tcpm_keylen = sizeof(key) - 1;
	std::memcpy(m.tcpm_key, key, m.tcpm_keylen);
	return ::setsockopt(fd, SOL_TCP, TCP_MD5SIG, &m, sizeof(m));
}

static sockaddr_storage peer_of(int fd, socklen_t &len)
{
	sockaddr_storage ss{};
	len = sizeof(ss);
	if (getpeername(fd, reinterpret_cast<sockaddr *>(&ss), &len) < 0)
		throw_errno("getpeername", errno);
	return ss;
}

// Over SMC-R the TCP-only options are refused; after a fallback TCP takes
// them.
static void expect_tcp_only(int fd, const std::string &when)
{
	smcr::DiagEntry e = diag_entry(fd, when);
	socklen_t plen;
	sockaddr_storage peer = peer_of(fd, plen);
	if (e.mode == SMC_DIAG_MODE_SMCR) {
		expect_errno(attach_accept_all(fd), EOPNOTSUPP, when + " (SMC-R): SO_ATTACH_FILTER");
		expect_errno(set_md5_key(fd, peer, plen), EOPNOTSUPP, when + " (SMC-R): TCP_MD5SIG");
		int ttl = 255;
		expect_errno(::setsockopt(fd, SOL_IP, IP_MINTTL, &ttl, sizeof(ttl)), EOPNOTSUPP,
			     when + " (SMC-R): IP_MINTTL");
		// an empty error queue; the stream's bytes stay (the exchange after)
		char b;
		expect_errno(::recv(fd, &b, 1, MSG_ERRQUEUE), EAGAIN, when + " (SMC-R): recv(MSG_ERRQUEUE)");
		say(when + ": SMC-R, socket filter, MD5 key and minimum TTL refused, no error queue");
	} else {
		check(attach_accept_all(fd) == 0, when + " (TCP): SO_ATTACH_FILTER failed: " + std::strerror(errno));
		say(when + ": TCP, socket filter taken");
	}
	expect_refused_always(fd, when);
}

static void expect_fallback(int fd, const std::string &when, uint32_t reason, uint32_t peer_diag)
{
	smcr::DiagEntry e = diag_entry(fd, when);
	check(e.mode == SMC_DIAG_MODE_FALLBACK_TCP && e.reason == reason && e.peer_diagnosis == peer_diag,
	      when + ": expected a fallback with reason " + smcr::reason_to_string(reason) + " and peer diagnosis " +
		      smcr::reason_to_string(peer_diag) + ", got mode " + smcr::diag_mode_name(e.mode) +
		      " reason " + smcr::reason_to_string(e.reason) + " peer diagnosis " +
		      smcr::reason_to_string(e.peer_diagnosis));
	say(when + ": TCP (" + smcr::reason_to_string(reason) + ")");
}


// The client's byte, then the server's answer (a letter that says what
// comes next).
static char hooks_turn(int fd, bool client, char answer)
{
	char b = 0;
	if (client)
		write_all(fd, "x", 1);
	check(::recv(fd, &b, 1, MSG_WAITALL) == 1, "tcp-hooks: the peer said nothing");
	if (!client)
		write_all(fd, &answer, 1);
	return b;
}

// Connection 1 plain (SMC-R where the VMs have RoCE); 2 with a socket
// filter on the client; 4 with one on the listener (the server declines);
// 3 with MD5 keys on both sides, if the kernel has TCP_MD5SIG (the server
// says so on connection 4).
void tcp_hooks_server(const Config &c, int lfd)
{
	only_smc(c, "tcp-hooks");
	expect_refused_always(lfd, "listening socket");
	announce(c, lfd);

	UniqueFd c1 = accept_blocking(lfd);
	check_expect(c, c1.get(), "tcp-hooks server, connection 1");
	expect_tcp_only(c1.get(), "server, connection 1");
	exchange_byte(c1.get(), false, '1', "tcp-hooks");

	UniqueFd c2 = accept_blocking(lfd);
	expect_fallback(c2.get(), "server, connection 2 (client filter)", SMC_CLC_DECL_PEERDECL,
			SMC_CLC_DECL_OPTUNSUPP);
	check(attach_accept_all(lfd) == 0,
	      std::string("SO_ATTACH_FILTER on the listener failed: ") + std::strerror(errno));
	hooks_turn(c2.get(), false, 'f');

	UniqueFd c4 = accept_blocking(lfd);
	expect_fallback(c4.get(), "server, connection 4 (listener filter)", SMC_CLC_DECL_OPTUNSUPP, 0);
	socklen_t plen;
	sockaddr_storage client = peer_of(c4.get(), plen);
	bool md5 = set_md5_key(lfd, client, plen) == 0;
	if (!md5 && errno != ENOPROTOOPT)
		throw_errno("setsockopt(TCP_MD5SIG) on the listener", errno);
	hooks_turn(c4.get(), false, md5 ? 'm' : 'n');
	if (!md5) {
		say("tcp-hooks: this kernel has no TCP_MD5SIG; MD5 case left out");
		return;
	}
	UniqueFd c3 = accept_blocking(lfd);
	expect_fallback(c3.get(), "server, connection 3 (MD5)", SMC_CLC_DECL_PEERDECL, SMC_CLC_DECL_OPTUNSUPP);
	exchange_byte(c3.get(), false, '3', "tcp-hooks");
}

void tcp_hooks_client(const Config &c)
{
	only_smc(c, "tcp-hooks");
	auto to = peer_addr(c);
	bool v6 = to.family() == AF_INET6;
	{
		UniqueFd fresh = make_socket(c.family, v6);
		expect_refused_always(fresh.get(), "socket before connect");
		int one = 1;
		expect_errno(::setsockopt(fresh.get(), SOL_TCP, TCP_FASTOPEN_CONNECT, &one, sizeof(one)),
			     EOPNOTSUPP, "socket before connect: setsockopt(TCP_FASTOPEN_CONNECT)");
	}
	UniqueFd c1 = dial(c, to);
	check_expect(c, c1.get(), "tcp-hooks client, connection 1");
	expect_tcp_only(c1.get(), "client, connection 1");
	exchange_byte(c1.get(), true, '1', "tcp-hooks");

	UniqueFd s2 = make_socket(c.family, v6);
	check(attach_accept_all(s2.get()) == 0,
	      std::string("SO_ATTACH_FILTER before connect failed: ") + std::strerror(errno));
	if (::connect(s2.get(), to.sa(), to.len) < 0)
		throw_errno("connect (connection 2)", errno);
	expect_fallback(s2.get(), "client, connection 2 (filter)", SMC_CLC_DECL_OPTUNSUPP, 0);
	hooks_turn(s2.get(), true, 0);

	UniqueFd s4 = make_socket(c.family, v6);
	if (::connect(s4.get(), to.sa(), to.len) < 0)
		throw_errno("connect (connection 4)", errno);
	expect_fallback(s4.get(), "client, connection 4 (listener filter)", SMC_CLC_DECL_PEERDECL,
			SMC_CLC_DECL_OPTUNSUPP);
	if (hooks_turn(s4.get(), true, 0) != 'm')
		return;

	UniqueFd s3 = make_socket(c.family, v6);
	check(set_md5_key(s3.get(), to.ss, to.len) == 0,
	      std::string("TCP_MD5SIG before connect failed: ") + std::strerror(errno));
	if (::connect(s3.get(), to.sa(), to.len) < 0)
		throw_errno("connect (connection 3, MD5)", errno);
	expect_fallback(s3.get(), "client, connection 3 (MD5)", SMC_CLC_DECL_OPTUNSUPP, 0);
	exchange_byte(s3.get(), true, '3', "tcp-hooks");
}

} // namespace smctest::probe
