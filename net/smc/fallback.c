// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: socket operations that act on the clcsock.
 *
 * Until connection establishment has decided, the clcsock carries CLC
 * messages the application must not see, so data operations wait for the
 * decision (or fail with EAGAIN when non-blocking). After a fallback, they
 * pass straight through to TCP, which gives every TCP semantic (blocking,
 * signals, timeouts, MSG_* flags, errors) for free. Operations that only
 * touch addresses or options pass through at any time.
 */
#include <asm/ioctls.h>
#include <linux/ipv6.h>
#include <linux/poll.h>
#include <linux/sockios.h>
#include <net/dst.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "close.h"
#include "core.h"
#include "keepalive.h"
#include "rx.h"
#include "smcr.h"
#include "tx.h"

/* Established over SMC-R: data moves by RDMA (tx.c, rx.c), not TCP */
static bool smc_use_smcr(const struct smc_sock *smc)
{
	return READ_ONCE(smc->hs) == SMC_HS_DONE && !smc->use_fallback;
}

/* Wait until establishment decided; 0 or -EAGAIN / signal errno. */
static int smc_wait_decided(struct smc_sock *smc, bool nonblock, bool rcv)
{
	struct sock *sk = &smc->sk;
	long timeo;

	smc_clcsock_sockopt_sync(smc);
	if (!smc_hs_pending(smc))
		return 0;
	timeo = rcv ? sock_rcvtimeo(sk, nonblock) : sock_sndtimeo(sk, nonblock);
	return smc_connect_wait_hs(smc, &timeo);
}

/**
 * smc_sendmsg() - proto_ops.sendmsg
 * @sock: the socket
 * @msg: data and flags
 * @len: bytes in @msg
 *
 * Return: bytes sent or a negative errno.
 */
int smc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	int rc;

	if (msg->msg_flags & MSG_FASTOPEN)
		return -EOPNOTSUPP;
	rc = smc_wait_decided(smc, msg->msg_flags & MSG_DONTWAIT, false);
	if (rc)
		return rc;
	/* an error TCP reported asynchronously, moved to the AF_SMC socket */
	if (smc_use_smcr(smc))
		return smc_tx_sendmsg(smc, msg, len);
	rc = sock_error(sock->sk);
	if (rc)
		return rc;
	return smc->clcsock->ops->sendmsg(smc->clcsock, msg, len);
}

/**
 * smc_recvmsg() - proto_ops.recvmsg
 * @sock: the socket
 * @msg: buffer
 * @len: its size
 * @flags: MSG_* flags
 *
 * Return: bytes received, 0 at end of stream, or a negative errno.
 */
int smc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		int flags)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	int rc;

	/* TCP's error queue is the application's only after a fallback;
	 * else it is empty, as on TCP without timestamps or zerocopy
	 */
	if ((flags & MSG_ERRQUEUE) &&
	    !(READ_ONCE(smc->hs) == SMC_HS_DONE && smc->use_fallback))
		return -EAGAIN;
	rc = smc_wait_decided(smc, flags & MSG_DONTWAIT, true);
	if (rc)
		return rc;
	if (smc_use_smcr(smc))
		return smc_rx_recvmsg(smc, msg, len, flags);
	rc = smc->clcsock->ops->recvmsg(smc->clcsock, msg, len, flags);
	/*
	 * A reset ends the TCP stream with an error that was moved to the
	 * AF_SMC socket: after the data, report it instead of end of stream.
	 */
	if (rc == 0 && len && READ_ONCE(sock->sk->sk_err))
		rc = sock_error(sock->sk);
	return rc;
}

/*
 * The TCP connect failed and hs_work has not yet recorded it: report what
 * TCP reports for a failed connect (writable, hang-up, error) right away.
 */
static bool smc_connect_failing(struct smc_sock *smc)
{
	return READ_ONCE(smc->hs) == SMC_HS_TCP &&
	       READ_ONCE(smc->clcsock->sk->sk_state) == TCP_CLOSE;
}

/**
 * smc_poll() - proto_ops.poll
 * @file: the socket's file
 * @sock: the socket
 * @wait: poll table
 *
 * Waiters always queue on the AF_SMC socket; the clcsock callbacks wake
 * it (clcsock.c), so poll/epoll registrations made before a fallback keep
 * working after it.
 *
 * Return: the event mask.
 */
__poll_t smc_poll(struct file *file, struct socket *sock, poll_table *wait)
{
	struct sock *sk = sock->sk;
	struct smc_sock *smc = smc_sk(sk);
	__poll_t mask = 0;

	sock_poll_wait(file, sock, wait);
	if (READ_ONCE(sk->sk_state) == SMC_LISTEN)
		mask = smc_accept_poll(smc);
	else if (smc_use_smcr(smc))
		mask = smc_rx_poll(smc);
	else if (!smc_hs_pending(smc) || smc_connect_failing(smc))
		mask = smc->clcsock->ops->poll(file, smc->clcsock, NULL);
	if (READ_ONCE(sk->sk_err))
		mask |= EPOLLERR;
	return mask;
}

/**
 * smc_ioctl() - proto_ops.ioctl
 * @sock: the socket
 * @cmd: request
 * @arg: argument
 *
 * Return: 0 or a negative errno.
 */
int smc_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct smc_sock *smc = smc_sk(sock->sk);

	if (smc_hs_pending(smc)) {
		switch (cmd) {
		case SIOCINQ:
		case SIOCOUTQ:
		case SIOCOUTQNSD:
			/* CLC bytes are not the application's */
			return put_user(0, (int __user *)arg);
		default:
			break;
		}
	}
	if (smc_use_smcr(smc)) {
		switch (cmd) {
		case SIOCINQ:
			return put_user(smc_rx_inq(smc), (int __user *)arg);
		case SIOCOUTQ:
			return put_user(smc_tx_outq(smc), (int __user *)arg);
		case SIOCOUTQNSD:	/* staged, not yet written */
			return put_user(smc_tx_unsent(&smc->conn),
					(int __user *)arg);
		case SIOCATMARK:
			return put_user(smc_rx_atmark(smc), (int __user *)arg);
		default:
			break;
		}
	}
	return smc->clcsock->ops->ioctl(smc->clcsock, cmd, arg);
}

/*
 * SOL_SOCKET options that make no sense on the AF_SMC socket itself
 * (attaching a filter is TCP-only: smc_setsockopt_tcp_only()).
 */
static bool smc_sockopt_clcsock_only(int optname)
{
	switch (optname) {
	case SO_DETACH_FILTER:
	case SO_LOCK_FILTER:
	case SO_ATTACH_REUSEPORT_CBPF:
	case SO_ATTACH_REUSEPORT_EBPF:
	case SO_DETACH_REUSEPORT_BPF:
		return true;
	default:
		return false;
	}
}

/*
 * Options that hook TCP's data path, which SMC-R data never passes (the
 * table "TCP options that hook the data path" in architecture.rst):
 *
 * Refused in every state (EOPNOTSUPP). kTLS - installing the "tls" ULP
 * and its SOL_TLS options - would leave the application sending plaintext
 * over RoCE while it believes it encrypts (Linux's SMC refuses TCP_ULP
 * too); reading TCP_ULP (no ULP: an empty name) stays TCP's. The repair
 * options would checkpoint and restore the clcsock, not the connection.
 * TCP_ZEROCOPY_RECEIVE maps TCP's receive queue, which SMC-R never fills;
 * SO_ZEROCOPY's completions would never come. TCP_FASTOPEN_CONNECT defers
 * the SYN to the first write, which the handshake waits for.
 *
 * TCP only: MD5 and AO signatures, per-socket IPsec policies, the minimum
 * TTL / hop count (GTSM) and socket filters act on TCP segments. Set
 * before the handshake they make it fall back (OPTUNSUPP, see
 * smc_sockopt_tcp_only()), so they keep their meaning; once SMC-R was
 * chosen, or while the handshake runs, they are refused.
 */
enum smc_sockopt_kind {
	SMC_SOCKOPT_FORWARD,
	SMC_SOCKOPT_REFUSED,
	SMC_SOCKOPT_TCP_ONLY,
};

static enum smc_sockopt_kind smc_sockopt_kind_set(int level, int optname)
{
	switch (level) {
	case SOL_SOCKET:
		if (optname == SO_ZEROCOPY)
			return SMC_SOCKOPT_REFUSED;
		if (optname == SO_ATTACH_FILTER || optname == SO_ATTACH_BPF)
			return SMC_SOCKOPT_TCP_ONLY;
		return SMC_SOCKOPT_FORWARD;
	case SOL_IP:
		if (optname == IP_IPSEC_POLICY || optname == IP_XFRM_POLICY ||
		    optname == IP_MINTTL)
			return SMC_SOCKOPT_TCP_ONLY;
		return SMC_SOCKOPT_FORWARD;
	case SOL_IPV6:
		if (optname == IPV6_IPSEC_POLICY ||
		    optname == IPV6_XFRM_POLICY ||
		    optname == IPV6_MINHOPCOUNT)
			return SMC_SOCKOPT_TCP_ONLY;
		return SMC_SOCKOPT_FORWARD;
	case SOL_TCP:
		break;
	default:
		return SMC_SOCKOPT_FORWARD;
	}
	switch (optname) {
	case TCP_ULP:
	case TCP_FASTOPEN_CONNECT:
		return SMC_SOCKOPT_REFUSED;
	case TCP_MD5SIG:
	case TCP_MD5SIG_EXT:
#ifdef TCP_AO_ADD_KEY
	case TCP_AO_ADD_KEY:
	case TCP_AO_DEL_KEY:
	case TCP_AO_INFO:
#endif
		return SMC_SOCKOPT_TCP_ONLY;
	default:
		return SMC_SOCKOPT_FORWARD;
	}
}

static enum smc_sockopt_kind smc_sockopt_kind(int level, int optname,
					      bool set)
{
	if (level == SOL_TLS)
		return SMC_SOCKOPT_REFUSED;
	if (level == SOL_TCP) {
		switch (optname) {
		case TCP_REPAIR:
		case TCP_REPAIR_QUEUE:
		case TCP_QUEUE_SEQ:
		case TCP_REPAIR_OPTIONS:
		case TCP_REPAIR_WINDOW:
#ifdef TCP_AO_REPAIR
		case TCP_AO_REPAIR:
#endif
		case TCP_ZEROCOPY_RECEIVE:
			return SMC_SOCKOPT_REFUSED;
		default:
			break;
		}
	}
	return set ? smc_sockopt_kind_set(level, optname) :
		     SMC_SOCKOPT_FORWARD;
}

/* The clcsock's route or socket asks for IPsec */
static bool smc_clcsock_xfrm(struct sock *clcsk)
{
#ifdef CONFIG_XFRM
	struct dst_entry *dst;
	bool xfrm;

	if (rcu_access_pointer(clcsk->sk_policy[0]) ||
	    rcu_access_pointer(clcsk->sk_policy[1]))
		return true;
	dst = sk_dst_get(clcsk);
	xfrm = dst && dst_xfrm(dst);
	dst_release(dst);
	return xfrm;
#else
	return false;
#endif
}

/**
 * smc_sockopt_tcp_only() - does the connection carry an option only TCP
 *	honours?
 * @smc: socket before its CLC exchange; its clcsock is connected
 *
 * Deliberately strict: MD5 keys count even if none is for this peer (the
 * key table stays once created).
 *
 * Return: true if it has MD5 or AO keys, an IPsec policy or route, a
 * minimum TTL or hop count, or a socket filter (on the clcsock, or on the
 * AF_SMC socket where SOL_SOCKET options stay before 6.5), which SMC-R
 * data would bypass: the connection must stay TCP.
 */
bool smc_sockopt_tcp_only(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;

	if (rcu_access_pointer(smc->sk.sk_filter) ||
	    rcu_access_pointer(clcsk->sk_filter))
		return true;
#ifdef CONFIG_TCP_MD5SIG
	if (rcu_access_pointer(tcp_sk(clcsk)->md5sig_info))
		return true;
#endif
#ifdef CONFIG_TCP_AO
	if (rcu_access_pointer(tcp_sk(clcsk)->ao_info))
		return true;
#endif
	if (READ_ONCE(inet_sk(clcsk)->min_ttl))
		return true;
#if IS_ENABLED(CONFIG_IPV6)
	if (clcsk->sk_family == AF_INET6 && inet6_sk(clcsk) &&
	    READ_ONCE(inet6_sk(clcsk)->min_hopcount))
		return true;
#endif
	return smc_clcsock_xfrm(clcsk);
}

/* TCP-only options may be set before the handshake and after a fallback */
static int smc_setsockopt_tcp_only(struct smc_sock *smc, int level,
				   int optname, sockptr_t optval,
				   unsigned int optlen)
{
	struct socket *clcsock = smc->clcsock;
	int hs, rc = -EOPNOTSUPP;

	/* against connect(): the handshake sees the option or we see it */
	lock_sock(&smc->sk);
	hs = READ_ONCE(smc->hs);
	if (hs == SMC_HS_NONE || (hs == SMC_HS_DONE && smc->use_fallback)) {
		if (level == SOL_SOCKET)
			rc = sock_setsockopt(clcsock, level, optname, optval,
					     optlen);
		else
			rc = clcsock->ops->setsockopt(clcsock, level, optname,
						      optval, optlen);
	}
	release_sock(&smc->sk);
	return rc;
}

/**
 * smc_setsockopt() - proto_ops.setsockopt
 * @sock: the socket
 * @level: SOL_SOCKET, SOL_TCP, SOL_IP, ...
 * @optname: option
 * @optval: value
 * @optlen: its length
 *
 * The AF_SMC socket sets SOCK_CUSTOM_SOCKOPT, so SOL_SOCKET options come
 * here too. They apply to the clcsock (the transport) and to the AF_SMC
 * socket (which getsockopt(SOL_SOCKET) reads), from one copy of the value.
 * Everything else belongs to TCP/IP and goes to the clcsock, except what
 * smc_sockopt_kind() refuses or keeps for TCP.
 *
 * Return: 0 or a negative errno (-EOPNOTSUPP for a refused option).
 */
int smc_setsockopt(struct socket *sock, int level, int optname,
		   sockptr_t optval, unsigned int optlen)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc->clcsock;
	void *val;
	int rc;

	switch (smc_sockopt_kind(level, optname, true)) {
	case SMC_SOCKOPT_REFUSED:
		return -EOPNOTSUPP;
	case SMC_SOCKOPT_TCP_ONLY:
		return smc_setsockopt_tcp_only(smc, level, optname, optval,
					       optlen);
	default:
		break;
	}
	if (level == SOL_TCP && optname == TCP_KEEPIDLE) {
		/* the application's value and the clcsock's change together */
		lock_sock(&smc->sk);
		rc = clcsock->ops->setsockopt(clcsock, level, optname, optval,
					      optlen);
		if (!rc)
			smc_keepalive_retime(smc);
		release_sock(&smc->sk);
		return rc;
	}
	if (level != SOL_SOCKET)
		return clcsock->ops->setsockopt(clcsock, level, optname, optval,
						optlen);
	if (optlen > PAGE_SIZE)
		return -EINVAL;
	val = memdup_sockptr(optval, optlen);
	if (IS_ERR(val))
		return PTR_ERR(val);
	rc = sock_setsockopt(clcsock, level, optname, KERNEL_SOCKPTR(val),
			     optlen);
	if (!rc && !smc_sockopt_clcsock_only(optname))
		/* TCP accepted it; mirror what the AF_SMC socket can hold */
		sock_setsockopt(sock, level, optname, KERNEL_SOCKPTR(val),
				optlen);
	kfree(val);
	return rc;
}

/**
 * smc_getsockopt() - proto_ops.getsockopt (never SOL_SOCKET)
 * @sock: the socket
 * @level: option level
 * @optname: option
 * @optval: user buffer
 * @optlen: user length
 *
 * Return: 0 or a negative errno (-EOPNOTSUPP for a refused option).
 */
int smc_getsockopt(struct socket *sock, int level, int optname,
		   char __user *optval, int __user *optlen)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc->clcsock;
	int val, len;

	if (smc_sockopt_kind(level, optname, false) == SMC_SOCKOPT_REFUSED)
		return -EOPNOTSUPP;
	/* the application's value, not the clcsock's raised one */
	if (level == SOL_TCP && optname == TCP_KEEPIDLE &&
	    smc_keepalive_idle_get(smc, &val)) {
		if (get_user(len, optlen))
			return -EFAULT;
		if (len < 0)
			return -EINVAL;
		len = min_t(int, len, sizeof(val));
		if (put_user(len, optlen) || copy_to_user(optval, &val, len))
			return -EFAULT;
		return 0;
	}
	return clcsock->ops->getsockopt(clcsock, level, optname, optval,
					optlen);
}

/**
 * smc_shutdown() - proto_ops.shutdown
 * @sock: the socket
 * @how: SHUT_RD, SHUT_WR or SHUT_RDWR
 *
 * Return: 0 or a negative errno.
 */
int smc_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk;
	struct smc_sock *smc = smc_sk(sk);
	int rc;

	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	smc_clcsock_sockopt_sync(smc);
	lock_sock(sk);
	if (sk->sk_state == SMC_LISTEN) {
		/* as TCP: only shutting down reception stops a listener */
		rc = 0;
		if (how != SHUT_WR) {
			smc_listen_stop(smc);
			rc = kernel_sock_shutdown(smc->clcsock, how);
			sk->sk_state = SMC_CLOSED;
			sk->sk_state_change(sk);
		}
		goto out;
	}
	if (smc_hs_pending(smc)) {
		rc = -ENOTCONN;
		goto out;
	}
	if (smc_use_smcr(smc)) {
		rc = smc_close_shutdown(smc, how);
		sk->sk_state_change(sk);
		goto out;
	}
	rc = kernel_sock_shutdown(smc->clcsock, how);
	if (!rc) {
		sk->sk_shutdown |= how + 1;	/* SHUT_RD -> RCV_SHUTDOWN ... */
		sk->sk_state_change(sk);
	}
out:
	release_sock(sk);
	return rc;
}

/**
 * smc_getname() - proto_ops.getname
 * @sock: the socket
 * @addr: buffer for the address
 * @peer: 0 for the local address, else the peer's
 *
 * Return: address length or a negative errno.
 */
int smc_getname(struct socket *sock, struct sockaddr *addr, int peer)
{
	struct smc_sock *smc = smc_sk(sock->sk);

	if (peer && smc_hs_pending(smc))
		return -ENOTCONN;
	return smc->clcsock->ops->getname(smc->clcsock, addr, peer);
}

/**
 * smc_bind() - proto_ops.bind
 * @sock: the socket
 * @addr: local address
 * @alen: its length
 *
 * Return: 0 or a negative errno.
 */
int smc_bind(struct socket *sock, struct sockaddr *addr, int alen)
{
	struct smc_sock *smc = smc_sk(sock->sk);

	smc_clcsock_sockopt_sync(smc);	/* SO_REUSEADDR, SO_REUSEPORT */
	return kernel_bind(smc->clcsock, addr, alen);
}
