// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the internal TCP socket ("clcsock") behind every AF_SMC socket.
 *
 * The clcsock carries the TCP handshake with the SMC option, the CLC
 * messages and, after a fallback, the application's data. The application
 * only ever waits on the AF_SMC socket, so the clcsock's callbacks are
 * replaced by ones that run the original and then wake the AF_SMC socket.
 *
 * Errors: TCP reports an asynchronous error (reset, ICMP, timeout) by
 * setting sk_err and calling sk_error_report. The replacement moves the
 * error to the AF_SMC socket, where SO_ERROR (always read from the AF_SMC
 * socket by the socket layer) and poll find it; the data-path wrappers in
 * fallback.c return it once, as TCP would. On an SMC-R connection an
 * error that ended the TCP connection also aborts the SMC-R one (close.c).
 */
#include <linux/poll.h>
#include <linux/tcp.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "close.h"
#include "compat.h"
#include "core.h"
#include "smcr.h"

/* Caller holds rcu_read_lock() or the clcsock's sk_callback_lock. */
static struct smc_sock *smc_clcsk_owner(const struct sock *clcsk)
{
	return (struct smc_sock *)rcu_dereference_sk_user_data(clcsk);
}

static void smc_wake(struct smc_sock *smc, __poll_t key)
{
	struct socket_wq *wq;

	rcu_read_lock();
	wq = rcu_dereference(smc->sk.sk_wq);
	if (skwq_has_sleeper(wq)) {
		if (key)
			wake_up_interruptible_sync_poll(&wq->wait, key);
		else
			wake_up_interruptible_all(&wq->wait);
	}
	rcu_read_unlock();
}

static void smc_clcsk_data_ready(struct sock *clcsk)
{
	struct smc_sock *smc;

	read_lock_bh(&clcsk->sk_callback_lock);
	rcu_read_lock();
	smc = smc_clcsk_owner(clcsk);
	if (smc) {
		smc->clc_cb.data_ready(clcsk);
		smc_wake(smc, EPOLLIN | EPOLLPRI | EPOLLRDNORM | EPOLLRDBAND);
		sk_wake_async(&smc->sk, SOCK_WAKE_WAITD, POLL_IN);
	}
	rcu_read_unlock();
	read_unlock_bh(&clcsk->sk_callback_lock);
}

static void smc_clcsk_write_space(struct sock *clcsk)
{
	struct smc_sock *smc;

	read_lock_bh(&clcsk->sk_callback_lock);
	rcu_read_lock();
	smc = smc_clcsk_owner(clcsk);
	if (smc) {
		smc->clc_cb.write_space(clcsk);
		smc_wake(smc, EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND);
		sk_wake_async(&smc->sk, SOCK_WAKE_IO, POLL_OUT);
	}
	rcu_read_unlock();
	read_unlock_bh(&clcsk->sk_callback_lock);
}

static void smc_clcsk_state_change(struct sock *clcsk)
{
	struct smc_sock *smc;

	read_lock_bh(&clcsk->sk_callback_lock);
	rcu_read_lock();
	smc = smc_clcsk_owner(clcsk);
	if (smc) {
		smc->clc_cb.state_change(clcsk);
		if (READ_ONCE(smc->hs) == SMC_HS_TCP &&
		    READ_ONCE(clcsk->sk_state) != TCP_SYN_SENT)
			smc_connect_kick(smc);
		smc_wake(smc, 0);
	}
	rcu_read_unlock();
	read_unlock_bh(&clcsk->sk_callback_lock);
}

static void smc_clcsk_error_report(struct sock *clcsk)
{
	struct smc_sock *smc;
	bool gone;
	int err;

	read_lock_bh(&clcsk->sk_callback_lock);
	rcu_read_lock();
	smc = smc_clcsk_owner(clcsk);
	if (smc) {
		err = xchg(&clcsk->sk_err, 0);
		smc->clc_cb.error_report(clcsk);
		if (err) {
			WRITE_ONCE(smc->sk.sk_err, err);
			sk_error_report(&smc->sk);
			/*
			 * The TCP connection is gone (a reset, a timeout; not
			 * an ICMP error it survives): so is an SMC-R one.
			 * smc_sock_hs_finish() checks the other way round.
			 */
			gone = READ_ONCE(clcsk->sk_state) == TCP_CLOSE;
			/* acquire (the xchg() above orders it after TCP's
			 * state): DONE means the connection is set up
			 */
			if (gone && smp_load_acquire(&smc->hs) == SMC_HS_DONE &&
			    !smc->use_fallback)
				smc_close_tcp_error(smc);
		}
	}
	rcu_read_unlock();
	read_unlock_bh(&clcsk->sk_callback_lock);
}

/**
 * smc_clcsock_hook() - route the clcsock's wake-ups to the AF_SMC socket
 * @smc: socket whose @clcsock is a connecting or connected TCP socket
 *
 * Never used on a listening clcsock: TCP copies a listener's callbacks and
 * user data into every new connection.
 */
void smc_clcsock_hook(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;

	write_lock_bh(&clcsk->sk_callback_lock);
	if (!rcu_access_pointer(__sk_user_data(clcsk))) {
		smc->clc_cb.data_ready = clcsk->sk_data_ready;
		smc->clc_cb.write_space = clcsk->sk_write_space;
		smc->clc_cb.state_change = clcsk->sk_state_change;
		smc->clc_cb.error_report = clcsk->sk_error_report;
		clcsk->sk_data_ready = smc_clcsk_data_ready;
		clcsk->sk_write_space = smc_clcsk_write_space;
		clcsk->sk_state_change = smc_clcsk_state_change;
		clcsk->sk_error_report = smc_clcsk_error_report;
		rcu_assign_sk_user_data(clcsk, smc);
	}
	write_unlock_bh(&clcsk->sk_callback_lock);
}

/**
 * smc_clcsock_unhook() - give the clcsock its own callbacks back
 * @smc: socket whose clcsock was hooked (no-op otherwise)
 *
 * On return no replacement runs or will run for @smc.
 */
void smc_clcsock_unhook(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;

	write_lock_bh(&clcsk->sk_callback_lock);
	if (rcu_access_pointer(__sk_user_data(clcsk)) == smc) {
		clcsk->sk_data_ready = smc->clc_cb.data_ready;
		clcsk->sk_write_space = smc->clc_cb.write_space;
		clcsk->sk_state_change = smc->clc_cb.state_change;
		clcsk->sk_error_report = smc->clc_cb.error_report;
		rcu_assign_sk_user_data(clcsk, NULL);
	}
	write_unlock_bh(&clcsk->sk_callback_lock);
}

/**
 * smc_clcsock_create() - create the clcsock of a new AF_SMC socket
 * @smc: the new socket
 * @family: AF_INET or AF_INET6
 *
 * The clcsock is created as a user socket (kern = 0): it is subject to the
 * same security hooks as a TCP socket the application would have opened,
 * and it holds its network namespace, which TCP needs for timers that run
 * after close.
 *
 * Return: 0 or a negative errno.
 */
int smc_clcsock_create(struct smc_sock *smc, int family)
{
	struct socket *clcsock;
	int rc;

	rc = __sock_create(sock_net(&smc->sk), family, SOCK_STREAM,
			   IPPROTO_TCP, &clcsock, 0);
	if (rc)
		return rc;
	smc->clcsock = clcsock;
	smc_clcsock_hook(smc);
	return 0;
}

/**
 * smc_clcsock_adopt() - make an accepted TCP socket a child's clcsock
 * @smc: the new child socket
 * @clcsock: the TCP socket kernel_accept() returned
 */
void smc_clcsock_adopt(struct smc_sock *smc, struct socket *clcsock)
{
	smc->clcsock = clcsock;
	smc_clcsock_hook(smc);
}

/**
 * smc_clcsock_release() - close the clcsock
 * @smc: socket being released; its workers have finished
 *
 * TCP closes as for any TCP socket: pending data is sent and SO_LINGER
 * (forwarded to the clcsock by setsockopt) is honoured.
 */
void smc_clcsock_release(struct smc_sock *smc)
{
	struct socket *clcsock = smc->clcsock;

	if (!clcsock)
		return;
	smc_clcsock_unhook(smc);
	smc->clcsock = NULL;
	sock_release(clcsock);
}

/**
 * smc_clcsock_want_smc() - offer (or not) the SMC TCP option
 * @smc: socket before connect() or listen()
 * @on: whether SYN / SYN-ACK carry the option (kind 254, ExID "SMCR")
 *
 * TCP clears syn_smc after the handshake if the peer's SYN or SYN-ACK
 * lacked the option, so smc_clcsock_peer_smc() tells whether both sides
 * offered SMC.
 */
void smc_clcsock_want_smc(struct smc_sock *smc, bool on)
{
	tcp_sk(smc->clcsock->sk)->syn_smc = on;
}

/**
 * smc_clcsock_peer_smc() - did both sides of the TCP handshake offer SMC?
 * @smc: socket whose clcsock is connected
 *
 * Return: true if the SMC option was exchanged in both directions.
 */
bool smc_clcsock_peer_smc(const struct smc_sock *smc)
{
	return READ_ONCE(tcp_sk(smc->clcsock->sk)->syn_smc);
}

#define SMC_SK_FLAGS_COPIED	(BIT(SOCK_URGINLINE) | BIT(SOCK_KEEPOPEN) | \
				 BIT(SOCK_LINGER) | BIT(SOCK_BROADCAST) | \
				 BIT(SOCK_TIMESTAMP) | BIT(SOCK_DBG) | \
				 BIT(SOCK_RCVTSTAMP) | BIT(SOCK_RCVTSTAMPNS) | \
				 BIT(SOCK_LOCALROUTE) | BIT(SOCK_TXTIME) | \
				 BIT(SOCK_RCVMARK))

/**
 * smc_clcsock_copy_settings() - copy SOL_SOCKET settings between sockets
 * @dst: socket to update
 * @src: socket to copy from
 *
 * getsockopt(SOL_SOCKET) always reads the AF_SMC socket, so an accepted
 * child takes over what TCP gave its clcsock (inherited from the listener).
 */
void smc_clcsock_copy_settings(struct sock *dst, const struct sock *src)
{
	dst->sk_type = src->sk_type;
	dst->sk_rcvbuf = READ_ONCE(src->sk_rcvbuf);
	dst->sk_sndbuf = READ_ONCE(src->sk_sndbuf);
	dst->sk_userlocks = src->sk_userlocks;
	dst->sk_rcvlowat = READ_ONCE(src->sk_rcvlowat);
	dst->sk_rcvtimeo = READ_ONCE(src->sk_rcvtimeo);
	dst->sk_sndtimeo = READ_ONCE(src->sk_sndtimeo);
	dst->sk_lingertime = READ_ONCE(src->sk_lingertime);
	dst->sk_mark = READ_ONCE(src->sk_mark);
	dst->sk_priority = READ_ONCE(src->sk_priority);
	dst->sk_bound_dev_if = READ_ONCE(src->sk_bound_dev_if);
	dst->sk_flags = (dst->sk_flags & ~SMC_SK_FLAGS_COPIED) |
			(src->sk_flags & SMC_SK_FLAGS_COPIED);
}

static void smc_sockopt_set_int(struct socket *clcsock, int optname, int val)
{
	sock_setsockopt(clcsock, SOL_SOCKET, optname, KERNEL_SOCKPTR(&val),
			sizeof(val));
}

/**
 * smc_clcsock_sockopt_sync() - apply SOL_SOCKET settings to the clcsock
 * @smc: the socket
 *
 * Only where the kernel cannot pass SOL_SOCKET options to smcr as they are
 * set (see compat.h): copies what the application set on the AF_SMC socket
 * to the clcsock, through sock_setsockopt() so TCP reacts as it would to
 * the option (keepalive timer, receive low-water mark, buffer locks).
 * Cheap when nothing changed: a few compares.
 */
void smc_clcsock_sockopt_sync(struct smc_sock *smc)
{
	struct socket *clcsock = smc->clcsock;
	struct sock *sk = &smc->sk;
	struct sock *clcsk;

	if (!SMCR_SOCKOPT_SYNC || !clcsock)
		return;
	clcsk = clcsock->sk;
	WRITE_ONCE(clcsk->sk_rcvtimeo, READ_ONCE(sk->sk_rcvtimeo));
	WRITE_ONCE(clcsk->sk_sndtimeo, READ_ONCE(sk->sk_sndtimeo));
	WRITE_ONCE(clcsk->sk_priority, READ_ONCE(sk->sk_priority));
	WRITE_ONCE(clcsk->sk_mark, READ_ONCE(sk->sk_mark));
	clcsk->sk_reuse = sk->sk_reuse;
	clcsk->sk_reuseport = sk->sk_reuseport;
	sock_valbool_flag(clcsk, SOCK_URGINLINE, sock_flag(sk, SOCK_URGINLINE));
	/*
	 * Over SMC-R keepalive.c sets SO_KEEPALIVE, with the link's probe,
	 * and close.c SO_LINGER: the application's lingers for the SMC-R
	 * close, and an SMC-R abort resets TCP.
	 */
	if (READ_ONCE(smc->hs) != SMC_HS_DONE || smc->use_fallback) {
		WRITE_ONCE(clcsk->sk_lingertime, READ_ONCE(sk->sk_lingertime));
		sock_valbool_flag(clcsk, SOCK_LINGER,
				  sock_flag(sk, SOCK_LINGER));
		if (sock_flag(sk, SOCK_KEEPOPEN) !=
		    sock_flag(clcsk, SOCK_KEEPOPEN))
			smc_sockopt_set_int(clcsock, SO_KEEPALIVE,
					    sock_flag(sk, SOCK_KEEPOPEN));
	}
	if (READ_ONCE(sk->sk_rcvlowat) != READ_ONCE(clcsk->sk_rcvlowat))
		smc_sockopt_set_int(clcsock, SO_RCVLOWAT,
				    READ_ONCE(sk->sk_rcvlowat));
	if ((sk->sk_userlocks & SOCK_RCVBUF_LOCK) &&
	    READ_ONCE(sk->sk_rcvbuf) != READ_ONCE(clcsk->sk_rcvbuf))
		smc_sockopt_set_int(clcsock, SO_RCVBUF,
				    READ_ONCE(sk->sk_rcvbuf) / 2);
	if ((sk->sk_userlocks & SOCK_SNDBUF_LOCK) &&
	    READ_ONCE(sk->sk_sndbuf) != READ_ONCE(clcsk->sk_sndbuf))
		smc_sockopt_set_int(clcsock, SO_SNDBUF,
				    READ_ONCE(sk->sk_sndbuf) / 2);
	if (READ_ONCE(sk->sk_bound_dev_if) != READ_ONCE(clcsk->sk_bound_dev_if))
		smc_sockopt_set_int(clcsock, SO_BINDTOIFINDEX,
				    READ_ONCE(sk->sk_bound_dev_if));
}
