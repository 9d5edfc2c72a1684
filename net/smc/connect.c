// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: client connection establishment.
 *
 * connect() starts a non-blocking TCP connect on the clcsock with the SMC
 * option in the SYN. When TCP leaves SYN_SENT, the clcsock's state-change
 * callback queues hs_work, which decides between SMC-R and TCP (with the
 * CLC exchange if the peer offered SMC too) and then marks the socket
 * connected. A blocking connect() just waits for that, so blocking and
 * non-blocking connects share one path, and a signal or SO_SNDTIMEO ends
 * the wait exactly as for TCP while establishment goes on.
 */
#include <linux/tcp.h>
#include <linux/smcr.h>
#include <net/sock.h>
#include <net/tcp_states.h>

#include "close.h"
#include "core.h"
#include "smcr.h"

/**
 * smc_connect_kick() - queue the client's establishment work, once
 * @smc: socket whose TCP connect left SYN_SENT
 *
 * Called from the clcsock state-change callback (softirq) and from
 * connect().
 */
void smc_connect_kick(struct smc_sock *smc)
{
	if (test_and_set_bit(SMC_F_HS_QUEUED, &smc->flags))
		return;
	sock_hold(&smc->sk);
	if (!queue_work(smc_hs_wq, &smc->hs_work))
		sock_put(&smc->sk);
}

/**
 * smc_connect_wait_hs() - wait until connection establishment is no longer
 *	pending
 * @smc: the socket
 * @timeo: in: how long to wait; out: what is left
 *
 * Return: 0 when establishment ended (either way), -EAGAIN when @timeo ran
 * out, or the signal errno.
 */
int smc_connect_wait_hs(struct smc_sock *smc, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &smc->sk;
	int rc = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (smc_hs_pending(smc)) {
		if (!*timeo) {
			rc = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			rc = sock_intr_errno(*timeo);
			break;
		}
		*timeo = wait_woken(&wait, TASK_INTERRUPTIBLE, *timeo);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return rc;
}

/* Establishment failed: report like TCP, allow another connect(). */
static void smc_connect_failed(struct smc_sock *smc, int err)
{
	struct sock *sk = &smc->sk;

	if (!READ_ONCE(sk->sk_err))
		WRITE_ONCE(sk->sk_err, err);
	WRITE_ONCE(smc->hs, SMC_HS_NONE);
	if (sk->sk_socket)
		sk->sk_socket->state = SS_UNCONNECTED;
	sk_error_report(sk);
}

static void smc_connect_work(struct work_struct *work)
{
	struct smc_sock *smc = container_of(work, struct smc_sock, hs_work);
	struct sock *sk = &smc->sk;
	struct sock *clcsk;
	int state, err, rc;

	lock_sock(sk);
	if (READ_ONCE(smc->hs) != SMC_HS_TCP)
		goto out;
	clcsk = smc->clcsock->sk;
	state = READ_ONCE(clcsk->sk_state);
	if (state == TCP_CLOSE) {
		err = xchg(&clcsk->sk_err, 0);
		smc_connect_failed(smc, err ?: ECONNABORTED);
		goto out;
	}

	if (!smc_hs_wanted(smc)) {
		smc_sock_set_fallback(smc, SMC_CLC_DECL_PEERNOSMC, 0);
		smc_sock_hs_finish(smc);
		goto out;
	}

	WRITE_ONCE(smc->hs, SMC_HS_CLC);
	release_sock(sk);
	rc = smc_hs_client(smc);
	lock_sock(sk);
	if (READ_ONCE(smc->hs) != SMC_HS_CLC) {
		/* released meanwhile: an SMC-R connection the handshake set
		 * up would never be closed otherwise
		 */
		if (!rc && !smc->use_fallback && smc->conn.lgr) {
			/* not sock_no_linger(): it takes the lock we hold */
			sock_set_flag(sk, SOCK_LINGER);
			WRITE_ONCE(sk->sk_lingertime, 0);
			smc_close_release(smc);
		}
		goto out;
	}
	if (rc) {
		smc_stats_hs_error(sock_net(sk), false);
		kernel_sock_shutdown(smc->clcsock, SHUT_RDWR);
		smc_connect_failed(smc, -rc);
		goto out;
	}
	smc_sock_hs_finish(smc);
out:
	release_sock(sk);
	sock_put(sk);
}

/**
 * smc_connect() - proto_ops.connect for AF_SMC
 * @sock: the socket
 * @addr: peer address (AF_INET or AF_INET6, as the protocol says)
 * @alen: length of @addr
 * @flags: file flags (O_NONBLOCK)
 *
 * Return: 0, -EINPROGRESS, or a negative errno as connect(2) on TCP.
 */
int smc_connect(struct socket *sock, struct sockaddr *addr, int alen,
		int flags)
{
	struct sock *sk = sock->sk;
	struct smc_sock *smc = smc_sk(sk);
	long timeo;
	int rc;

	if (alen < (int)offsetofend(struct sockaddr, sa_family))
		return -EINVAL;
	if (addr->sa_family == AF_UNSPEC)
		return -EOPNOTSUPP;	/* no disconnect; see Documentation */
	smc_clcsock_sockopt_sync(smc);

	lock_sock(sk);
	switch (READ_ONCE(smc->hs)) {
	case SMC_HS_DONE:
		release_sock(sk);
		/* TCP gives the answer for a connected socket (EISCONN) */
		return kernel_connect(smc->clcsock, addr, alen, flags);
	case SMC_HS_TCP:
	case SMC_HS_CLC:
		rc = -EALREADY;
		if (flags & O_NONBLOCK)
			goto out;
		goto wait;
	default:
		break;
	}
	if (sk->sk_state == SMC_LISTEN || sk->sk_state == SMC_CLOSED) {
		rc = sk->sk_state == SMC_LISTEN ? -EISCONN : -EINVAL;
		goto out;
	}
	/* The error of an earlier non-blocking attempt nobody collected */
	rc = sock_error(sk);
	if (rc)
		goto out;

	smc_clcsock_want_smc(smc, true);
	clear_bit(SMC_F_HS_QUEUED, &smc->flags);
	WRITE_ONCE(smc->hs, SMC_HS_TCP);
	sock->state = SS_CONNECTING;
	release_sock(sk);

	rc = kernel_connect(smc->clcsock, addr, alen, O_NONBLOCK);

	lock_sock(sk);
	if (rc && rc != -EINPROGRESS) {
		if (READ_ONCE(smc->hs) == SMC_HS_TCP) {
			WRITE_ONCE(smc->hs, SMC_HS_NONE);
			sock->state = SS_UNCONNECTED;
		}
		goto out;
	}
	if (READ_ONCE(smc->clcsock->sk->sk_state) != TCP_SYN_SENT)
		smc_connect_kick(smc);
	rc = -EINPROGRESS;
	if (flags & O_NONBLOCK)
		goto out;
wait:
	timeo = sock_sndtimeo(sk, flags & O_NONBLOCK);
	release_sock(sk);
	rc = smc_connect_wait_hs(smc, &timeo);
	if (rc)
		return rc == -EAGAIN ? -EINPROGRESS : rc;
	lock_sock(sk);
	if (READ_ONCE(smc->hs) == SMC_HS_DONE)
		rc = 0;
	else
		rc = sock_error(sk) ?: -ECONNABORTED;
out:
	release_sock(sk);
	return rc;
}

/**
 * smc_connect_init() - prepare a new socket for connect()
 * @smc: the socket
 */
void smc_connect_init(struct smc_sock *smc)
{
	INIT_WORK(&smc->hs_work, smc_connect_work);
}
