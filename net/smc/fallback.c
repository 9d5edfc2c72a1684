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
#include <linux/poll.h>
#include <linux/sockios.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "core.h"
#include "smcr.h"

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

	smc_sockopt_sync(smc);
	if (!smc_hs_pending(smc))
		return 0;
	timeo = rcv ? sock_rcvtimeo(sk, nonblock) : sock_sndtimeo(sk, nonblock);
	return smc_wait_hs(smc, &timeo);
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

/* SOL_SOCKET options that make no sense on the AF_SMC socket itself. */
static bool smc_sockopt_clcsock_only(int optname)
{
	switch (optname) {
	case SO_ATTACH_FILTER:
	case SO_DETACH_FILTER:
	case SO_LOCK_FILTER:
	case SO_ATTACH_BPF:
	case SO_ATTACH_REUSEPORT_CBPF:
	case SO_ATTACH_REUSEPORT_EBPF:
	case SO_DETACH_REUSEPORT_BPF:
		return true;
	default:
		return false;
	}
}

/*
 * Options that hook TCP's data path, which SMC-R data never passes: kTLS
 * (installing the "tls" ULP, and its SOL_TLS options) would leave the
 * application sending plaintext over RoCE while it believes it encrypts.
 * Refused in every state, as Linux's SMC refuses TCP_ULP: before the
 * handshake decided it is not known whether data will pass through TCP.
 * Reading TCP_ULP (no ULP: an empty name) stays TCP's.
 */
static bool smc_sockopt_refused(int level, int optname, bool set)
{
	return level == SOL_TLS || (set && level == SOL_TCP &&
				    optname == TCP_ULP);
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
 * smc_sockopt_refused() names.
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

	if (smc_sockopt_refused(level, optname, true))
		return -EOPNOTSUPP;
	if (level != SOL_SOCKET) {
		rc = clcsock->ops->setsockopt(clcsock, level, optname, optval,
					      optlen);
		if (!rc && level == SOL_TCP && optname == TCP_KEEPIDLE)
			smc_keepalive_retime(smc);
		return rc;
	}
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

	if (smc_sockopt_refused(level, optname, false))
		return -EOPNOTSUPP;
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
	smc_sockopt_sync(smc);
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
		rc = smc_conn_shutdown(smc, how);
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

	smc_sockopt_sync(smc);		/* SO_REUSEADDR, SO_REUSEPORT */
	return kernel_bind(smc->clcsock, addr, alen);
}
