// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: passive open: listen() and accept().
 *
 * The listening clcsock is a plain TCP listener with the SMC option in its
 * SYN-ACKs. A wait-queue entry on it schedules accept_work whenever TCP
 * completes a connection; accept_work takes the connection off TCP's
 * queue and wraps it in a child AF_SMC socket. A child whose client did
 * not offer SMC is ready at once; the others run the CLC exchange in their
 * own hs_work, in parallel, so a slow or silent client delays nobody else.
 * Decided children wait on accept_q for accept().
 *
 * Backlog: children on accept_q or in their handshake count against the
 * listen backlog; when it is full accept_work leaves connections in TCP's
 * own queue, where TCP's backlog applies.
 *
 * Handshake limit: at most hs_limit children of a listener run their CLC
 * exchange at once. Beyond that TCP is told (smc_hs_congested) to leave
 * the SMC option out of its SYN-ACKs, so new clients fall back with
 * PEERNOSMC before any CLC byte, instead of queueing behind slow peers.
 * Only for a listener created while net.smc.limit_smc_hs of its namespace
 * was 1 (@limit_hs), as Linux's; with 0 its handshakes are bounded by the
 * backlog alone.
 *
 * References: a child holds one on its listener while it is queued or in
 * its handshake; a queued accept_work holds one on the listener. A
 * listener is freed after an RCU grace period, as TCP may look at it from
 * smc_hs_congested() until the listening clcsock is closed.
 */
#include <linux/tcp.h>
#include <linux/smcr.h>
#include <net/sock.h>

#include "close.h"
#include "compat.h"
#include "core.h"
#include "smcr.h"

/* TCP, for each SYN on the listening clcsock (softirq, RCU). */
static bool smc_hs_congested(const struct sock *clcsk)
{
	struct smc_sock *lsmc;

	lsmc = __rcu_dereference_sk_user_data_with_flags(clcsk,
							 SK_USER_DATA_NOCOPY);
	return lsmc && lsmc->limit_hs &&
	       READ_ONCE(lsmc->hs_inflight) >= READ_ONCE(smc_hs_limit);
}

/* Let TCP ask the listener before offering SMC in a SYN-ACK. */
static void smc_hs_limit_attach(struct smc_sock *lsmc)
{
	struct sock *clcsk = lsmc->clcsock->sk;

	sock_set_flag(&lsmc->sk, SOCK_RCU_FREE);
	write_lock_bh(&clcsk->sk_callback_lock);
	__rcu_assign_sk_user_data_with_flags(clcsk, lsmc, SK_USER_DATA_NOCOPY);
	tcp_sk(clcsk)->smc_hs_congested = smc_hs_congested;
	write_unlock_bh(&clcsk->sk_callback_lock);
}

static void smc_hs_limit_detach(struct smc_sock *lsmc)
{
	struct sock *clcsk = lsmc->clcsock->sk;

	write_lock_bh(&clcsk->sk_callback_lock);
	tcp_sk(clcsk)->smc_hs_congested = NULL;
	rcu_assign_sk_user_data(clcsk, NULL);
	write_unlock_bh(&clcsk->sk_callback_lock);
}

static void smc_accept_kick(struct smc_sock *lsmc)
{
	sock_hold(&lsmc->sk);
	if (!queue_work(smc_listen_wq, &lsmc->accept_work))
		sock_put(&lsmc->sk);
}

/* Wait-queue callback of the listening clcsock; softirq context. */
static int smc_listen_wake(struct wait_queue_entry *wait, unsigned int mode,
			   int sync, void *key)
{
	smc_accept_kick(container_of(wait, struct smc_sock, listen_wait));
	return 0;
}

/* A child nobody will accept: reset its connection and free it. */
static void smc_child_dispose(struct smc_sock *child)
{
	struct smc_sock *lsmc = child->listener;

	child->listener = NULL;
	smc_sock_unlist(child);
	if (READ_ONCE(child->hs) == SMC_HS_DONE && !child->use_fallback) {
		/* an SMC-R connection: abnormal close, as TCP's RST. The
		 * listener's lock may be held (listen_stop); not
		 * sock_no_linger(), which takes the socket lock itself.
		 */
		lock_sock_nested(&child->sk, SINGLE_DEPTH_NESTING);
		sock_set_flag(&child->sk, SOCK_LINGER);
		WRITE_ONCE(child->sk.sk_lingertime, 0);
		smc_close_release(child);
		release_sock(&child->sk);
	}
	sock_no_linger(child->clcsock->sk);	/* as TCP: RST */
	smc_clcsock_release(child);
	child->sk.sk_state = SMC_CLOSED;
	sock_set_flag(&child->sk, SOCK_DEAD);
	sock_put(&child->sk);
	sock_put(&lsmc->sk);
}

/* The child's handshake ended with @rc: queue it for accept() or drop it. */
static void smc_child_decided(struct smc_sock *child, int rc)
{
	struct smc_sock *lsmc = child->listener;
	struct sock *lsk = &lsmc->sk;
	bool queued = false;

	if (!rc)
		smc_sock_hs_finish(child);
	else
		smc_stats_hs_error(sock_net(&child->sk), true);
	spin_lock(&lsmc->accept_lock);
	list_del(&child->accept_node);
	WRITE_ONCE(lsmc->hs_inflight, lsmc->hs_inflight - 1);
	if (!rc && !lsmc->listen_closed) {
		list_add_tail(&child->accept_node, &lsmc->accept_q);
		sk_acceptq_added(lsk);
		queued = true;
	}
	spin_unlock(&lsmc->accept_lock);
	if (queued) {
		lsk->sk_data_ready(lsk);
		return;
	}
	smc_accept_kick(lsmc);		/* the backlog has room again */
	smc_child_dispose(child);
}

static void smc_child_hs_work(struct work_struct *work)
{
	struct smc_sock *child = container_of(work, struct smc_sock, hs_work);

	smc_child_decided(child, smc_hs_server(child));
}

/**
 * smc_listen_hs_aborted() - must a running server handshake give up?
 * @smc: child socket
 *
 * Return: true once the child's listener was closed.
 */
bool smc_listen_hs_aborted(const struct smc_sock *smc)
{
	return smc->listener && READ_ONCE(smc->listener->listen_closed);
}

static struct smc_sock *smc_child_new(struct smc_sock *lsmc,
				      struct socket *clcsock)
{
	struct sock *lsk = &lsmc->sk;
	struct smc_sock *child;

	child = smc_sock_alloc_child(lsmc);
	if (!child)
		return NULL;
	smc_clcsock_copy_settings(&child->sk, clcsock->sk);
	tcp_sk(clcsock->sk)->smc_hs_congested = NULL;	/* the listener's */
	smc_clcsock_adopt(child, clcsock);
	INIT_WORK(&child->hs_work, smc_child_hs_work);
	sock_hold(lsk);
	child->listener = lsmc;
	return child;
}

static void smc_child_start(struct smc_sock *lsmc, struct smc_sock *child)
{
	bool clc;

	spin_lock(&lsmc->accept_lock);
	/*
	 * The test-only override of smc_hs_wanted() must not apply where this
	 * listener itself left the option out of its SYN-ACK (handshake limit
	 * reached): that client falls back and sends data, not CLC. Whether
	 * the limit was reached is judged now, not at the SYN; close enough
	 * for a test knob.
	 */
	clc = smc_clcsock_peer_smc(child) ||
	      (smc_hs_wanted(child) &&
	       (!lsmc->limit_hs ||
		lsmc->hs_inflight < READ_ONCE(smc_hs_limit)));
	list_add_tail(&child->accept_node, &lsmc->hs_q);
	WRITE_ONCE(lsmc->hs_inflight, lsmc->hs_inflight + 1);
	spin_unlock(&lsmc->accept_lock);

	if (!clc) {
		smc_sock_set_fallback(child, SMC_CLC_DECL_PEERNOSMC, 0);
		smc_child_decided(child, 0);
		return;
	}
	WRITE_ONCE(child->hs, SMC_HS_CLC);
	queue_work(smc_hs_wq, &child->hs_work);
}

static bool smc_accept_full(struct smc_sock *lsmc)
{
	struct sock *lsk = &lsmc->sk;
	bool full;

	spin_lock(&lsmc->accept_lock);
	full = lsmc->hs_inflight + READ_ONCE(lsk->sk_ack_backlog) >
	       READ_ONCE(lsk->sk_max_ack_backlog);
	spin_unlock(&lsmc->accept_lock);
	return full;
}

static void smc_accept_work(struct work_struct *work)
{
	struct smc_sock *lsmc = container_of(work, struct smc_sock,
					     accept_work);
	struct sock *lsk = &lsmc->sk;
	struct smc_sock *child;
	struct socket *clcsock;

	lock_sock(lsk);
	while (lsk->sk_state == SMC_LISTEN && !smc_accept_full(lsmc)) {
		if (kernel_accept(lsmc->clcsock, &clcsock, O_NONBLOCK))
			break;
		child = smc_child_new(lsmc, clcsock);
		if (!child) {
			sock_release(clcsock);
			continue;
		}
		smc_child_start(lsmc, child);
	}
	release_sock(lsk);
	sock_put(lsk);
}

/**
 * smc_listen() - proto_ops.listen
 * @sock: the socket
 * @backlog: accept backlog (already clamped to somaxconn)
 *
 * Return: 0 or a negative errno.
 */
int smc_listen(struct socket *sock, int backlog)
{
	struct sock *sk = sock->sk;
	struct smc_sock *smc = smc_sk(sk);
	int rc = -EINVAL;

	smc_clcsock_sockopt_sync(smc);
	lock_sock(sk);
	if (sock->state != SS_UNCONNECTED || READ_ONCE(smc->hs) != SMC_HS_NONE)
		goto out;
	if (sk->sk_state == SMC_LISTEN) {
		rc = kernel_listen(smc->clcsock, backlog);
		if (!rc)
			WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
		goto out;
	}
	if (sk->sk_state != SMC_INIT)
		goto out;

	/* TCP would copy hooked callbacks into every accepted connection */
	smc_clcsock_unhook(smc);
	smc_clcsock_want_smc(smc, true);
	rc = kernel_listen(smc->clcsock, backlog);
	if (rc) {
		smc_clcsock_hook(smc);
		goto out;
	}
	WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
	smc->listen_closed = false;
	smc_hs_limit_attach(smc);
	add_wait_queue(&smc->clcsock->wq.wait, &smc->listen_wait);
	sk->sk_state = SMC_LISTEN;
	/* connections TCP completed before the wait entry existed */
	smc_accept_kick(smc);
out:
	release_sock(sk);
	return rc;
}

static struct smc_sock *smc_accept_dequeue(struct smc_sock *lsmc)
{
	struct smc_sock *child;

	spin_lock(&lsmc->accept_lock);
	child = list_first_entry_or_null(&lsmc->accept_q, struct smc_sock,
					 accept_node);
	if (child) {
		list_del_init(&child->accept_node);
		sk_acceptq_removed(&lsmc->sk);
	}
	spin_unlock(&lsmc->accept_lock);
	if (child) {
		child->listener = NULL;
		sock_put(&lsmc->sk);	/* the caller's file keeps it alive */
	}
	return child;
}

/**
 * smc_accept_impl() - accept() on an AF_SMC listener
 * @sock: the listening socket
 * @newsock: the socket to attach the connection to
 * @flags: file flags of the listener (O_NONBLOCK)
 *
 * Return: 0 or a negative errno, as accept(2) on TCP.
 */
int smc_accept_impl(struct socket *sock, struct socket *newsock, int flags)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *lsk = sock->sk;
	struct smc_sock *lsmc = smc_sk(lsk);
	struct smc_sock *child;
	long timeo;
	int rc = 0;

	lock_sock(lsk);
	if (lsk->sk_state != SMC_LISTEN) {
		release_sock(lsk);
		return -EINVAL;
	}
	timeo = sock_rcvtimeo(lsk, flags & O_NONBLOCK);
	add_wait_queue_exclusive(sk_sleep(lsk), &wait);
	while (!(child = smc_accept_dequeue(lsmc))) {
		if (lsk->sk_state != SMC_LISTEN) {
			rc = -EINVAL;
			break;
		}
		if (!timeo) {
			rc = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			rc = sock_intr_errno(timeo);
			break;
		}
		release_sock(lsk);
		timeo = wait_woken(&wait, TASK_INTERRUPTIBLE, timeo);
		lock_sock(lsk);
	}
	remove_wait_queue(sk_sleep(lsk), &wait);
	release_sock(lsk);
	if (!child)
		return rc;

	sock_graft(&child->sk, newsock);
	newsock->state = SS_CONNECTED;
	smcr_want_custom_sockopt(newsock);
	smc_accept_kick(lsmc);		/* the backlog has room again */
	return 0;
}

/**
 * smc_accept_poll() - poll mask of a listener
 * @smc: the listening socket
 *
 * Return: EPOLLIN when accept() would not block.
 */
__poll_t smc_accept_poll(struct smc_sock *smc)
{
	return READ_ONCE(smc->sk.sk_ack_backlog) ? EPOLLIN | EPOLLRDNORM : 0;
}

/**
 * smc_listen_stop() - stop a listener (close, or shutdown(SHUT_RD))
 * @lsmc: listening socket; its lock is held
 *
 * Drops the connections nobody accepted yet (with RST, as TCP does) and
 * makes running handshakes give up; their workers drop their children.
 * accept_work is not waited for here (it takes the socket lock): it finds
 * the socket no longer listening.
 */
void smc_listen_stop(struct smc_sock *lsmc)
{
	struct sock *lsk = &lsmc->sk;
	struct smc_sock *child, *tmp;
	LIST_HEAD(ready);

	remove_wait_queue(&lsmc->clcsock->wq.wait, &lsmc->listen_wait);
	smc_hs_limit_detach(lsmc);
	spin_lock(&lsmc->accept_lock);
	WRITE_ONCE(lsmc->listen_closed, true);
	list_splice_init(&lsmc->accept_q, &ready);
	list_for_each_entry(child, &lsmc->hs_q, accept_node)
		wake_up_interruptible_all(&child->clcsock->wq.wait);
	spin_unlock(&lsmc->accept_lock);

	list_for_each_entry_safe(child, tmp, &ready, accept_node) {
		list_del_init(&child->accept_node);
		sk_acceptq_removed(lsk);
		smc_child_dispose(child);
	}
	lsk->sk_state = SMC_CLOSED;
}

/**
 * smc_listen_init() - prepare a new socket for listen()
 * @smc: the socket
 */
void smc_listen_init(struct smc_sock *smc)
{
	smc->limit_hs = smc_tun(sock_net(&smc->sk), SMC_TUN_limit_smc_hs);
	init_waitqueue_func_entry(&smc->listen_wait, smc_listen_wake);
	INIT_WORK(&smc->accept_work, smc_accept_work);
	spin_lock_init(&smc->accept_lock);
	INIT_LIST_HEAD(&smc->accept_q);
	INIT_LIST_HEAD(&smc->hs_q);
	INIT_LIST_HEAD(&smc->accept_node);
}
