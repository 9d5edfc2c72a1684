// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the end of an SMC-R connection (RFC 7609 4.8), run by the close
 * state machine's table (close_sm.c).
 *
 * Everything that can end a connection is an event of that table:
 * shutdown() and close() of the application, the peer's D, C and A in
 * its CDC messages, a reset of the TCP connection, the close timer, the
 * loss of the link group. smc_close_feed() looks the event up in the
 * connection's state and records the new state and the actions; this
 * file carries out the actions and nothing else decides how a connection
 * ends.
 *
 * Where events come from decides when their actions run. An event of the
 * application or of the close timer runs them at once, under the socket
 * lock: sends are made under it, in cursor order. An event of the CDC
 * receive path, the clcsock's error report or the link group's end comes
 * in atomic context: what can be done there is (readers fail or see EOF
 * at once), the rest waits in conn->close_todo for conn->upd_work, which
 * takes the socket lock. The state itself changes with the event, under
 * conn->lock, so the next event already sees it.
 *
 * The RMBE goes back (FREE_RMBE) only once the application closed the
 * socket as well - until then the socket's state lives in the connection
 * - and no CDC message of ours is in flight: the RDMA writes before it
 * may still read the send buffer (a CDC completion follows theirs, RC).
 * SO_LINGER with a time makes close() wait for the peer's C or A (the
 * Closed state), at most that long; the close then goes on without the
 * application, as for any close().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/smc_diag.h>
#include <net/sock.h>
#include <smcr/cdc_wire.h>
#include <smcr/close_sm.h>

#include "cdc.h"
#include "close.h"
#include "conn.h"
#include "core.h"
#include "keepalive.h"
#include "lgr.h"
#include "rx.h"
#include "smcr.h"
#include "tx.h"

/* what atomic context can do itself; the rest is conn->close_todo's */
#define SMC_CLOSE_ACT_ATOMIC	(SMC_CLOSE_ACT_NOTIFY_EOF |	\
				 SMC_CLOSE_ACT_START_TIMER |	\
				 SMC_CLOSE_ACT_STOP_TIMER)

static void smc_close_timer_start(struct smc_sock *smc);
static void smc_close_timer_stop(struct smc_sock *smc);

/**
 * smc_close_feed() - an event happened to a connection: take its step
 * @conn: the connection, conn->lock held
 * @event: what happened
 *
 * Return: the actions of the step, still to be carried out. An event the
 * table calls invalid (the peer broke the protocol) changes nothing.
 */
u16 smc_close_feed(struct smc_conn *conn, enum smc_close_event event)
{
	struct smc_close_step step;

	lockdep_assert_held(&conn->lock);
	step = smc_close_sm_next(conn->close_state, event);
	if (step.invalid) {
		pr_debug("connection %u: close event %d invalid in %s\n",
			 conn->token, event,
			 smc_close_sm_state_name(conn->close_state));
		return 0;
	}
	WRITE_ONCE(conn->close_state, step.next);
	return step.actions;
}

/**
 * smc_close_feed_later() - smc_close_feed() in atomic context
 * @conn: the connection, conn->lock held
 * @event: what happened
 *
 * What needs the socket lock is left in conn->close_todo; pass the
 * return value to smc_close_atomic() once conn->lock is dropped.
 *
 * Return: the actions of the step.
 */
u16 smc_close_feed_later(struct smc_conn *conn, enum smc_close_event event)
{
	u16 act = smc_close_feed(conn, event);

	conn->close_todo |= act & ~SMC_CLOSE_ACT_ATOMIC;
	return act;
}

/*
 * NOTIFY_RESET's part that atomic context can do: readers and writers
 * fail at once. Only the first reset is the application's error; one the
 * clcsock reported (a keepalive timeout) stays.
 */
static void smc_close_tell_reset(struct sock *sk)
{
	cmpxchg(&sk->sk_err, 0, ECONNRESET);
	sk_error_report(sk);
}

/**
 * smc_close_atomic() - carry out what atomic context can of @actions
 * @smc: the socket
 * @actions: from smc_close_feed_later(), conn->lock dropped since
 *
 * Return: true if conn->close_todo needs conn->upd_work.
 */
bool smc_close_atomic(struct smc_sock *smc, u16 actions)
{
	if (actions & SMC_CLOSE_ACT_NOTIFY_RESET)
		smc_close_tell_reset(&smc->sk);
	/* Closed wakes too: close() may linger for it */
	if (actions & (SMC_CLOSE_ACT_NOTIFY_RESET | SMC_CLOSE_ACT_NOTIFY_EOF |
		       SMC_CLOSE_ACT_FREE_RMBE))
		smc_cdc_wake(&smc->sk);
	if (actions & SMC_CLOSE_ACT_START_TIMER)
		smc_close_timer_start(smc);
	if (actions & SMC_CLOSE_ACT_STOP_TIMER)
		smc_close_timer_stop(smc);
	return actions & ~SMC_CLOSE_ACT_ATOMIC;
}

/* (Re)start the close timer, which holds a socket reference while set;
 * any context
 */
static void smc_close_timer_start(struct smc_sock *smc)
{
	unsigned long t = msecs_to_jiffies(READ_ONCE(smc_close_timeout_ms));

	sock_hold(&smc->sk);
	if (mod_delayed_work(smc_lgr_wq, &smc->conn.close_work, t))
		sock_put(&smc->sk);	/* it had one already */
}

static void smc_close_timer_stop(struct smc_sock *smc)
{
	if (cancel_delayed_work(&smc->conn.close_work))
		sock_put(&smc->sk);
}

/* 4.8.2, 2A: what waited to be read or sent goes (socket lock held) */
static void smc_close_purge(struct smc_conn *conn)
{
	spin_lock_bh(&conn->lock);
	conn->rx_cons = conn->rx_prod;
	memset(&conn->rx_urg, 0, sizeof(conn->rx_urg));
	conn->tx_staged = conn->tx_prod;
	spin_unlock_bh(&conn->lock);
}

/*
 * FREE_RMBE, once the application closed too: the connection ends when
 * every CDC message of ours reached the peer (smc_cdc_tx_settled(); the
 * completion of the last queues upd_work, and one that failed waits for
 * the failover's resend), or at once when the link group is gone (no
 * queue left to read our buffers). Socket lock held.
 */
static void smc_close_end(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	bool now;

	spin_lock_bh(&conn->lock);
	now = conn->lgr && (smc_cdc_tx_settled(conn) || conn->lgr_gone);
	conn->end_pending = conn->lgr && !now;
	spin_unlock_bh(&conn->lock);
	if (now)
		smc_conn_end(smc);
}

/*
 * Carry out @act under the socket lock. @told: the step was taken in
 * atomic context, which told the application of a reset already.
 */
static void smc_close_act(struct smc_sock *smc, u16 act, bool told)
{
	struct smc_conn *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	bool end;

	while (act) {
		if (act & SMC_CLOSE_ACT_NOTIFY_RESET) {
			smc_close_purge(conn);
			if (!told)
				smc_close_tell_reset(sk);
		}
		if (act & SMC_CLOSE_ACT_SEND_D)
			smc_cdc_send(smc, SMC_CDC_CONN_DONE_WRITING);
		if (act & SMC_CLOSE_ACT_SEND_C)
			smc_cdc_send(smc, SMC_CDC_CONN_DONE_WRITING |
					  SMC_CDC_CONN_CLOSED);
		if (act & SMC_CLOSE_ACT_SEND_A)
			smc_cdc_send(smc, SMC_CDC_CONN_ABORT);
		if (act & (SMC_CLOSE_ACT_NOTIFY_RESET |
			   SMC_CLOSE_ACT_NOTIFY_EOF | SMC_CLOSE_ACT_FREE_RMBE))
			smc_cdc_wake(sk);
		/*
		 * SO_LINGER 0: the clcsock's release sends RST (4.8.2, 1).
		 * After the application's close() the clcsock is released:
		 * TCP closed then, with a FIN after our C (and a peer that
		 * got our C writes no more, so a timer's FREE_RMBE is safe
		 * without it), with RST after our A.
		 */
		if ((act & SMC_CLOSE_ACT_RESET_TCP) && !conn->released)
			sock_no_linger(smc->clcsock->sk);
		if (act & SMC_CLOSE_ACT_START_TIMER)
			smc_close_timer_start(smc);
		if (act & SMC_CLOSE_ACT_STOP_TIMER)
			smc_close_timer_stop(smc);
		spin_lock_bh(&conn->lock);
		end = (act & SMC_CLOSE_ACT_FREE_RMBE) && conn->released;
		/* 2B: sent, successfully or not (then the link is gone) */
		act = act & SMC_CLOSE_ACT_SEND_A ?
		      smc_close_feed(conn, SMC_CLOSE_EV_ABORT_SENT) : 0;
		spin_unlock_bh(&conn->lock);
		told = false;
		if (end)
			smc_close_end(smc);
	}
}

/**
 * smc_close_todo() - carry out what atomic context left to do
 * @smc: an SMC-R socket, socket lock held
 *
 * Not before the handshake is done: until then it owns the connection
 * (smc_sock_hs_finish() has upd_work run once it is).
 */
void smc_close_todo(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	bool end;
	u16 act;

	/* release() resets hs to NONE after setting released */
	if (!conn->released && smp_load_acquire(&smc->hs) != SMC_HS_DONE)
		return;
	spin_lock_bh(&conn->lock);
	act = conn->lgr ? conn->close_todo : 0;
	conn->close_todo = 0;
	end = conn->end_pending;
	spin_unlock_bh(&conn->lock);
	smc_close_act(smc, act, true);
	if (end)
		smc_close_end(smc);
}

/* An event of the application or the timer (socket lock held) */
static void smc_close_event(struct smc_sock *smc, enum smc_close_event ev)
{
	struct smc_conn *conn = &smc->conn;
	u16 act;

	smc_close_todo(smc);		/* what happened before, first */
	spin_lock_bh(&conn->lock);
	act = conn->lgr ? smc_close_feed(conn, ev) : 0;
	spin_unlock_bh(&conn->lock);
	smc_close_act(smc, act, false);
}

/* An event in atomic context: feed it, queue the rest for upd_work */
static void smc_close_event_atomic(struct smc_sock *smc,
				   enum smc_close_event ev)
{
	struct smc_conn *conn = &smc->conn;
	u16 act = 0;

	spin_lock_bh(&conn->lock);
	if (conn->lgr)
		act = smc_close_feed_later(conn, ev);
	spin_unlock_bh(&conn->lock);
	if (smc_close_atomic(smc, act))
		smc_cdc_upd_queue(smc);
}

/**
 * smc_close_abort() - the local side resets the connection (a protocol
 *	error of the peer's, a broken RMBE)
 * @smc: an SMC-R socket, socket lock held
 */
void smc_close_abort(struct smc_sock *smc)
{
	smc_close_event(smc, SMC_CLOSE_EV_ABORT);
}

/**
 * smc_close_tcp_error() - the clcsock of an SMC-R connection reported an
 *	error that ended the TCP connection (a reset, a keepalive timeout)
 * @smc: the socket, its handshake done with SMC-R
 *
 * Context: the clcsock's error report (softirq), or smc_sock_hs_finish() for
 * one that came during the handshake; the AF_SMC socket has the error
 * already. The SMC-R connection aborts (4.8.2: "If an SMC-R
 * peer receives a TCP RST ...") unless the peer's A came first.
 */
void smc_close_tcp_error(struct smc_sock *smc)
{
	smc_close_event_atomic(smc, SMC_CLOSE_EV_ABORT);
}

/**
 * smc_close_lgr_gone() - abort every connection of a terminated link group
 * @lgr: the link group, its links torn down (no CDC arrives any more)
 *
 * 4.8.3: without RDMA the connections cannot close in order. One still in
 * its handshake is only marked: the handshake fails or falls back.
 */
void smc_close_lgr_gone(struct smc_link_group *lgr)
{
	struct smc_sock *smc;
	unsigned long token;
	u16 act;

	/* under the table's lock: an entry is a live socket */
	xa_lock_bh(&lgr->conns_xa);
	xa_for_each(&lgr->conns_xa, token, smc) {
		struct smc_conn *conn = &smc->conn;
		bool queue;

		spin_lock(&conn->lock);
		conn->lgr_gone = true;
		/*
		 * One in its handshake is the handshake's: its activation
		 * fails (smc_conn_activate()), or it went on over TCP and
		 * must not be reset for a link group it never used
		 */
		act = conn->active ?
		      smc_close_feed_later(conn, SMC_CLOSE_EV_RDMA_LOST) : 0;
		queue = conn->end_pending;	/* no completion to wait for */
		spin_unlock(&conn->lock);
		if (smc_close_atomic(smc, act) || queue)
			smc_cdc_upd_queue(smc);
	}
	xa_unlock_bh(&lgr->conns_xa);
}

/**
 * smc_close_rmbe_conflict() - a connection whose peer RMBE is new ends
 *	the connections that wrote into it (RFC 7609 4.4.2, 3.5.2.2-3)
 * @smc: the new connection, after smc_conn_peer()
 *
 * The peer offered the element of an existing connection of the link
 * group: it reused it, so it is done with that connection, whatever it
 * told us. That one loses its RDMA to the peer at once: no write of its
 * may reach the element now the new connection's; its application gets
 * ECONNRESET and what waited to be read is dropped.
 */
void smc_close_rmbe_conflict(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	struct smc_link_group *lgr = conn->lgr;
	struct smc_sock *other;
	unsigned long token;
	int rtok;
	u64 lo, hi;
	u16 act;

	/* the peer's RMB is its entry in the RToken set: on every link */
	spin_lock_bh(&conn->lock);
	rtok = conn->peer_rtok;
	lo = conn->peer_off;
	hi = lo + conn->tx_ring.size;
	spin_unlock_bh(&conn->lock);
	xa_lock_bh(&lgr->conns_xa);
	xa_for_each(&lgr->conns_xa, token, other) {
		struct smc_conn *oc = &other->conn;
		bool hit;

		if (other == smc)
			continue;
		spin_lock(&oc->lock);
		/* an overlap is a conflict too: the peer's sizes are its word */
		hit = oc->tx_ring.size && oc->peer_rtok == rtok &&
		      oc->peer_off < hi && lo < oc->peer_off + oc->tx_ring.size;
		act = hit ? smc_close_feed_later(oc, SMC_CLOSE_EV_RDMA_LOST) : 0;
		spin_unlock(&oc->lock);
		if (!hit)
			continue;
		pr_info_ratelimited("link group %u: the peer reused the RMB element of connection %u for connection %u: %u reset\n",
				    lgr->id, oc->token, conn->token, oc->token);
		if (smc_close_atomic(other, act))
			smc_cdc_upd_queue(other);
	}
	xa_unlock_bh(&lgr->conns_xa);
}

/**
 * smc_close_shutdown() - shutdown() of an SMC-R connection
 * @smc: the socket, socket lock held
 * @how: SHUT_RD, SHUT_WR or SHUT_RDWR
 *
 * SHUT_WR writes what autocorking held back, then D goes out (4.8.1, 3A).
 * SHUT_RDWR does the same: the socket stays the application's, so C waits
 * for its close().
 *
 * Return: 0 or a negative errno.
 */
int smc_close_shutdown(struct smc_sock *smc, int how)
{
	struct sock *sk = &smc->sk;
	int rc = 0;

	if (how != SHUT_WR)
		sk->sk_shutdown |= RCV_SHUTDOWN;
	if (how != SHUT_RD && !(sk->sk_shutdown & SEND_SHUTDOWN)) {
		sk->sk_shutdown |= SEND_SHUTDOWN;
		/* the peer takes nothing more after its C or A */
		if (!smc_conn_aborted(&smc->conn) &&
		    !(READ_ONCE(smc->conn.peer_flags) & SMC_CDC_CONN_CLOSED))
			rc = smc_tx_push(smc, false);
		if (!rc)
			smc_close_event(smc, SMC_CLOSE_EV_SHUT_WR);
	}
	smc_cdc_wake(sk);
	return rc;
}

/* SO_LINGER with a time: wait for Closed, or the time, or a signal */
static void smc_close_linger(struct smc_sock *smc)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct smc_conn *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	long timeo;

	if (!sock_flag(sk, SOCK_LINGER) || (current->flags & PF_EXITING))
		return;
	timeo = READ_ONCE(sk->sk_lingertime);
	add_wait_queue(sk_sleep(sk), &wait);
	while (timeo && !signal_pending(current) &&
	       READ_ONCE(conn->close_state) != SMC_CLOSE_CLOSED)
		sk_wait_event(sk, &timeo,
			      READ_ONCE(conn->close_state) ==
			      SMC_CLOSE_CLOSED, &wait);
	remove_wait_queue(sk_sleep(sk), &wait);
	smc_close_todo(smc);		/* what came while we slept */
}

/**
 * smc_close_release() - the application closed an SMC-R socket
 * @smc: the socket, socket lock held
 *
 * Writes what autocorking staged, then tells the peer: C, or A as TCP
 * would reset - SO_LINGER 0, unread data (4.8.1, 3A), staged bytes that
 * cannot be written (4A: the peer closed) - and what the table does
 * after. The connection ends once the table says the RMBE is free: at
 * once if the peer is done, else at its C or A, or when the close timer
 * runs out.
 */
void smc_close_release(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	enum smc_close_event ev = SMC_CLOSE_EV_CLOSE;
	bool end;

	if (!conn->lgr)
		return;
	smc_keepalive_stop(smc);	/* nobody to keep it alive for */
	if ((sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime) ||
	    smc_rx_inq(smc) || smc_tx_push(smc, false))
		ev = SMC_CLOSE_EV_ABORT;
	if (ev == SMC_CLOSE_EV_ABORT)
		smc_tx_discard(conn);
	smc_close_event(smc, ev);
	if (ev == SMC_CLOSE_EV_CLOSE)
		smc_close_linger(smc);
	spin_lock_bh(&conn->lock);
	conn->released = true;
	end = conn->lgr && conn->close_state == SMC_CLOSE_CLOSED;
	spin_unlock_bh(&conn->lock);
	if (end)
		smc_close_end(smc);
}

/**
 * smc_close_timeout() - the close timer ran out (conn->close_work)
 * @work: the connection's close_work; holds a socket reference
 */
void smc_close_timeout(struct work_struct *work)
{
	struct smc_conn *conn = container_of(to_delayed_work(work),
					     struct smc_conn, close_work);
	struct smc_sock *smc = container_of(conn, struct smc_sock, conn);

	lock_sock(&smc->sk);
	smc_close_event(smc, READ_ONCE(conn->peer_blocked) ?
			SMC_CLOSE_EV_TIMEOUT_BLOCKED : SMC_CLOSE_EV_TIMEOUT);
	release_sock(&smc->sk);
	sock_put(&smc->sk);		/* the timer's reference */
}

/**
 * smc_close_diag_state() - the connection's close state for sock_diag
 * @conn: an SMC-R connection
 *
 * Return: the sk_state value Linux's SMC reports in that state.
 */
int smc_close_diag_state(const struct smc_conn *conn)
{
	return smc_close_sm_sk_state(READ_ONCE(conn->close_state));
}
