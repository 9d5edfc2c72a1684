// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the CDC messages of an SMC-R connection, sent and received (RFC
 * 7609 4.3 - 4.7, A.4). Their wire format is cdc_msg.c's; the connection
 * they belong to is set up and ended in conn.c.
 *
 * Every message carries a sequence number, our producer cursor in the
 * peer's RMBE and our consumer cursor in ours (4.4, A.4), the
 * writer-blocked, update-requested and urgent-data flags (4.5.1, 4.7.3 -
 * 4.7.6), and the connection flags sent so far (D, C, A: sticky, and
 * nothing goes after our C or A). Our C waits until the peer has every
 * byte we wrote (smc_cdc_close_may_go()).
 *
 * Send, socket lock held: smc_cdc_get_buf() takes a send buffer (waiting
 * at most llc_timeout_ms, wr.c) and counts the connection as sending
 * (tx_hold), so the RDMA writes before the message and the message go to
 * one link; smc_cdc_send_buf() fills in the cursors under conn->lock and
 * posts it; smc_cdc_send() does both. smc_cdc_tx_done() (completion
 * context) counts the message done; what waited for it goes on: bytes
 * autocorking held back (tx.c's tx_work, 4.5.2), the connection's end
 * (close.c).
 *
 * Receive: smc_cdc_rx() (receive completion, a workqueue; it does not
 * sleep but for test_cdc_rx_delay_ms) finds the connection by alert
 * token, validates both cursors against the rings, takes them only
 * forward and never past what this side made available, feeds a new
 * connection flag to the close state machine (close.c) and wakes the
 * socket. What needs the socket lock - the close machine's actions, our
 * consumer cursor when the peer asked for it (4.5.1) or an urgent byte
 * was skipped (4.7.5) - smc_cdc_upd_queue() hands to smc_cdc_upd_work().
 * A message whose number is not after the last one taken is dropped (A.4),
 * also one late on a link the peer failed over from. A failover
 * validation message (F, 4.6.1) moves nothing: its number is compared with
 * the last one taken, and a gap that cannot be another link's receive lag
 * resets the connection (smc_cdc_rx_failover()).
 *
 * Locking: conn->lock guards the cursors and flags (core.h). The
 * connection's elements are touched only under it and while conn->lgr is
 * set: smc_conn_end() clears it after taking the token out of the table,
 * so a message that found the connection before that does nothing after.
 *
 * The test-only parameters test_cdc_rx_delay_ms and test_tx_hold_ms hold
 * a received message or a send buffer, to widen races with a connection's
 * or a link's end.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/xarray.h>
#include <smcr/cdc_wire.h>

#include "cdc.h"
#include "close.h"
#include "conn.h"
#include "core.h"
#include "lgr.h"
#include "smcr.h"
#include "test_hooks.h"
#include "wr.h"

#define SMC_CDC_CONN_DONE	(SMC_CDC_CONN_CLOSED | SMC_CDC_CONN_ABORT)

/*
 * May our C go? Only once the peer has every byte we wrote: our last
 * completed CDC message announced them, or the peer consumed them
 * (smc_curs_replay_from()). A C that reached the peer lets it give its
 * RMBE to another connection once it closed too, so after a C nothing
 * may be written there again; had a failover to resend bytes after a C
 * whose fate the lost link took with it, it could neither write them
 * (the RMBE may be another's) nor leave them out (the peer may lack
 * them). Until then the C is held (@tx_owed_flags), the messages before
 * it go without it, and the completion of the one that brings the peer
 * every byte has tx_work send it (smc_cdc_tx_done()) - or the peer's own
 * C, after which no byte is written (upd_work). conn->lock held.
 */
static bool smc_cdc_close_may_go(const struct smc_conn *conn)
{
	struct smc_cursor from;

	/* after the peer's C or A nothing is written there again (tx.c) */
	if (conn->peer_flags & (SMC_CDC_CONN_CLOSED | SMC_CDC_CONN_ABORT))
		return true;
	from = smc_curs_replay_from(&conn->tx_ring, conn->tx_acked_prod,
				    conn->tx_peer_cons, conn->tx_prod);
	/* staged bytes too: those a link that went down did not take */
	return !smc_curs_cmp(&conn->tx_ring, from, conn->tx_staged);
}

/* A held C (above) that may go now, not after an A; conn->lock held */
static bool smc_cdc_close_due(const struct smc_conn *conn)
{
	return (conn->tx_owed_flags & SMC_CDC_CONN_CLOSED) &&
	       !(conn->sent_flags & SMC_CDC_CONN_DONE) &&
	       !(conn->peer_flags & SMC_CDC_CONN_ABORT) &&
	       smc_cdc_close_may_go(conn);
}

/**
 * smc_cdc_send() - send a CDC message with the current cursors
 * @smc: an SMC-R socket, socket lock held
 * @conn_flags: SMC_CDC_CONN_* to add to what was sent before
 *
 * Waits (boundedly) for a free send buffer.
 *
 * Return: 0 or a negative errno (-ENOLINK when the link is gone).
 */
int smc_cdc_send(struct smc_sock *smc, u8 conn_flags)
{
	struct smc_conn *conn = &smc->conn;
	void *buf;
	int rc;

	rc = smc_cdc_get_buf(smc, &buf);
	if (rc) {
		/* the link is down: the failover's CDC message says it */
		spin_lock_bh(&conn->lock);
		conn->tx_owed_flags |= conn_flags;
		conn->tx_owed = true;
		spin_unlock_bh(&conn->lock);
		return rc;
	}
	return smc_cdc_send_buf(smc, buf, conn_flags);
}

/**
 * smc_cdc_get_buf() - a send buffer for a CDC message of @smc
 * @smc: an SMC-R socket, socket lock held
 * @buf: set on success; pass to smc_cdc_send_buf() or smc_cdc_put_buf()
 *
 * From here until the message is posted (or the buffer given back) the
 * connection counts as sending (@tx_hold): it stays on its link, so the
 * buffer, the RDMA writes before the message and the message itself all
 * go to conn->lnk.
 *
 * Return: 0 or -ENOLINK (see smc_wr_tx_get()).
 */
int smc_cdc_get_buf(struct smc_sock *smc, void **buf)
{
	struct smc_conn *conn = &smc->conn;
	struct smc_link *lnk;
	int rc = -ENOLINK;

	spin_lock_bh(&conn->lock);
	conn->tx_hold++;
	lnk = conn->lnk;
	spin_unlock_bh(&conn->lock);
	if (READ_ONCE(lnk->state) == SMC_LNK_ACTIVE)
		rc = smc_wr_tx_get(lnk, true, buf);
	if (rc) {
		spin_lock_bh(&conn->lock);
		conn->tx_hold--;
		spin_unlock_bh(&conn->lock);
	}
	return rc;
}

/**
 * smc_cdc_put_buf() - give back a buffer of smc_cdc_get_buf() unsent
 * @smc: the socket, socket lock held
 * @buf: the buffer
 */
void smc_cdc_put_buf(struct smc_sock *smc, void *buf)
{
	struct smc_conn *conn = &smc->conn;

	smc_wr_tx_put(conn->lnk, buf);
	spin_lock_bh(&conn->lock);
	conn->tx_hold--;
	spin_unlock_bh(&conn->lock);
}

/*
 * Fill @buf with our cursors and flags plus @conn_flags and post it.
 * @again: a failover's resend (smc_cdc_send_again()).
 */
static int smc_cdc_post(struct smc_sock *smc, void *buf, u8 conn_flags,
			bool again)
{
	struct smc_conn *conn = &smc->conn;
	struct smc_cdc_info info = {};
	struct smc_cdc_sent sent;
	unsigned int hold;
	u8 flags;
	int rc;

	hold = smc_test(tx_hold_ms);
	if (unlikely(hold))
		msleep(hold);
	spin_lock_bh(&conn->lock);
	/*
	 * A.4: nothing after our C or A (callers check; this is the last
	 * word), but the failover's resend of the message that carried it.
	 * The close state machine never sends both.
	 */
	if (!again &&
	    (conn->sent_flags & (SMC_CDC_CONN_CLOSED | SMC_CDC_CONN_ABORT))) {
		spin_unlock_bh(&conn->lock);
		smc_cdc_put_buf(smc, buf);
		return -ECONNRESET;
	}
	info.seqno = ++conn->tx_seq;
	info.token = conn->peer_token;
	info.prod = conn->tx_prod;
	info.cons = conn->rx_cons;
	if (conn->tx_blocked)
		info.prod_flags |= SMC_CDC_PROD_WRITE_BLOCKED;
	if (conn->tx_upd_req)
		info.prod_flags |= SMC_CDC_PROD_CONS_UPD_REQ;
	conn->tx_upd_req = false;
	info.prod_flags |= conn->tx_urg;
	/* "present" goes out once, with the cursor just past the byte */
	if (conn->tx_urg & SMC_CDC_PROD_URG_PRESENT)
		conn->tx_urg = 0;
	flags = conn_flags | conn->tx_owed_flags;
	conn->tx_owed_flags = 0;
	if ((flags & SMC_CDC_CONN_CLOSED) && !(flags & SMC_CDC_CONN_ABORT) &&
	    !smc_cdc_close_may_go(conn)) {
		flags &= ~SMC_CDC_CONN_CLOSED;
		conn->tx_owed_flags = SMC_CDC_CONN_CLOSED;
	}
	conn->sent_flags |= flags;
	info.conn_flags = conn->sent_flags;
	conn->rx_cons_sent = conn->rx_cons;
	conn->rx_urg.ack = false;
	conn->rx_upd_req = false;
	conn->cdc_pend++;	/* takes over from @tx_hold */
	conn->tx_hold--;
	conn->tx_owed = !!conn->tx_owed_flags;	/* else this says it all */
	spin_unlock_bh(&conn->lock);
	smc_cdc_msg_build(buf, &info);
	sent.token = conn->token;
	sent.seqno = info.seqno;
	sent.prod = info.prod;
	smc_wr_tx_set_cdc(conn->lnk, buf, &sent);
	rc = smc_wr_tx_send(conn->lnk, buf);
	if (rc) {
		spin_lock_bh(&conn->lock);
		conn->cdc_pend--;
		conn->tx_owed = true;	/* after writes that went, maybe */
		spin_unlock_bh(&conn->lock);
	}
	return rc;
}

/**
 * smc_cdc_send_buf() - send a CDC message with the current cursors
 * @smc: an SMC-R socket, socket lock held
 * @buf: from smc_cdc_get_buf(); consumed
 * @conn_flags: SMC_CDC_CONN_* to add to what was sent before
 *
 * Return: 0 or a negative errno (the link is then down).
 */
int smc_cdc_send_buf(struct smc_sock *smc, void *buf, u8 conn_flags)
{
	return smc_cdc_post(smc, buf, conn_flags, false);
}

/**
 * smc_cdc_send_again() - the CDC message of a failover (RFC 7609 4.6.2)
 * @smc: an SMC-R socket, socket lock held
 * @buf: from smc_cdc_get_buf(), on the new link; consumed
 *
 * Our current cursors and every sticky flag, with a new sequence number,
 * also after our C or A: the message that carried them may be lost.
 *
 * Return: 0 or a negative errno (the new link is then down).
 */
int smc_cdc_send_again(struct smc_sock *smc, void *buf)
{
	return smc_cdc_post(smc, buf, 0, true);
}

/**
 * smc_cdc_send_failover() - the failover validation message (RFC 7609
 *	4.6.1, A.4's F flag)
 * @smc: an SMC-R socket that just moved to another link, socket lock held
 *
 * Its sequence number is SS, the one of our last CDC message that
 * completed successfully; it consumes none, and carries no cursor. Its
 * completion is not reported: it says nothing the peer could lack.
 *
 * Return: 0 or a negative errno (the new link is then down).
 */
int smc_cdc_send_failover(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	struct smc_cdc_info info = {
		.prod_flags = SMC_CDC_PROD_FAILOVER,
	};
	void *buf;
	int rc;

	rc = smc_cdc_get_buf(smc, &buf);
	if (rc)
		return rc;
	spin_lock_bh(&conn->lock);
	info.seqno = conn->tx_acked_seq;
	info.token = conn->peer_token;
	conn->tx_hold--;
	spin_unlock_bh(&conn->lock);
	smc_cdc_msg_build(buf, &info);
	return smc_wr_tx_send(conn->lnk, buf);
}

/**
 * smc_cdc_send_held() - send our C if it was held and may go now
 * @smc: an SMC-R socket, socket lock held
 *
 * See smc_cdc_close_may_go(); tx_work calls this.
 *
 * Return: 0 or a negative errno (the link is then down).
 */
int smc_cdc_send_held(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	bool due;

	spin_lock_bh(&conn->lock);
	due = smc_cdc_close_due(conn);
	spin_unlock_bh(&conn->lock);
	return due ? smc_cdc_send(smc, 0) : 0;
}

/**
 * smc_cdc_tx_settled() - every CDC message of ours reached the peer
 * @conn: an SMC-R connection, conn->lock held
 *
 * None is in flight, none failed, none is owed or held (our C), or the
 * peer's A made what is owed moot: nothing is left for a failover to
 * resend (close.c ends the connection only then).
 *
 * Return: true if settled.
 */
bool smc_cdc_tx_settled(const struct smc_conn *conn)
{
	return !conn->cdc_pend && conn->tx_acked_seq == conn->tx_seq &&
	       (!conn->tx_owed || (conn->peer_flags & SMC_CDC_CONN_ABORT));
}

/**
 * smc_cdc_tx_done() - a CDC message we sent completed (completion context)
 * @lnk: the link it went over
 * @sent: what it said
 * @ok: it reached the peer: SS moves to it (RFC 7609 4.6.1). Else it was
 *	flushed or failed: it and the writes before it may be lost, and the
 *	connection's failover resends them (failover.c)
 *
 * Bytes autocorking held back while the message was in flight go now,
 * and a C held for this message's bytes (smc_cdc_close_may_go()).
 */
void smc_cdc_tx_done(struct smc_link *lnk, const struct smc_cdc_sent *sent,
		     bool ok)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_conn *conn;
	struct smc_sock *smc;
	bool push, end;

	xa_lock_bh(&lgr->conns_xa);
	smc = xa_load(&lgr->conns_xa, sent->token);
	if (smc)
		sock_hold(&smc->sk);
	xa_unlock_bh(&lgr->conns_xa);
	if (!smc)
		return;		/* the connection ended meanwhile */
	conn = &smc->conn;
	spin_lock_bh(&conn->lock);
	if (conn->cdc_pend)
		conn->cdc_pend--;
	/* completions of one link come in order; a later link's are later */
	if (ok && smc_cdc_seq_after(sent->seqno, conn->tx_acked_seq)) {
		conn->tx_acked_seq = sent->seqno;
		conn->tx_acked_prod = sent->prod;
	}
	push = (!conn->cdc_pend &&
		smc_curs_cmp(&conn->tx_ring, conn->tx_staged, conn->tx_prod)) ||
	       smc_cdc_close_due(conn);
	/* the connection's end waited for its last send (close.c) */
	end = conn->end_pending && smc_cdc_tx_settled(conn);
	spin_unlock_bh(&conn->lock);
	if (end)
		smc_cdc_upd_queue(smc);
	if (push && queue_work(smc_lgr_wq, &conn->tx_work))
		return;		/* the work has our reference */
	sock_put(&smc->sk);
}

/**
 * smc_cdc_upd_work() - conn->upd_work: what the CDC receive path, the
 *	clcsock or the link group's end left to do
 * @work: the connection's upd_work, queued by smc_cdc_upd_queue() with a
 *	reference on the socket, which it drops
 *
 * The close state machine's actions (close.c), and our consumer cursor
 * when the peer asked for it or an urgent byte was skipped. Under the
 * socket lock, so no reader is between taking bytes and moving the
 * consumer cursor, and sends go in order.
 */
void smc_cdc_upd_work(struct work_struct *work)
{
	struct smc_conn *conn = container_of(work, struct smc_conn, upd_work);
	struct smc_sock *smc = container_of(conn, struct smc_sock, conn);
	bool send, held;

	lock_sock(&smc->sk);
	smc_close_todo(smc);
	spin_lock_bh(&conn->lock);
	send = conn->lgr && !conn->released &&
	       (conn->rx_urg.ack || conn->rx_upd_req) &&
	       !(conn->peer_flags & (SMC_CDC_CONN_DONE_WRITING |
				     SMC_CDC_CONN_DONE));
	/* the peer's C lets a held C of ours go (smc_cdc_close_may_go()) */
	held = conn->lgr && !READ_ONCE(conn->lgr_gone) &&
	       smc_cdc_close_due(conn);
	spin_unlock_bh(&conn->lock);
	/* one message: it carries the held C with the cursors */
	if (held || (send && !smc_conn_aborted(conn)))
		smc_cdc_send(smc, 0);
	release_sock(&smc->sk);
	sock_put(&smc->sk);		/* the work's reference */
}

/**
 * smc_cdc_upd_queue() - have conn->upd_work run (any context)
 * @smc: an SMC-R socket
 */
void smc_cdc_upd_queue(struct smc_sock *smc)
{
	sock_hold(&smc->sk);
	if (!queue_work(smc_lgr_wq, &smc->conn.upd_work))
		sock_put(&smc->sk);	/* queued already, with one */
}

/* Read the urgent byte just before the new mark (CDC receive path) */
static void smc_cdc_urg_byte(struct smc_conn *conn)
{
	u32 off = smc_urg_byte_offset(&conn->rx_ring, conn->rx_urg.mark);

	smc_conn_rmbe_sync(conn, off, 1);
	conn->rx_urg.byte = ((u8 *)smc_buf_elem_cpu(&conn->rmbe))[off];
}

/**
 * smc_cdc_wake() - wake who waits on an SMC-R socket (any context)
 * @sk: the socket
 */
void smc_cdc_wake(struct sock *sk)
{
	struct socket_wq *wq;

	rcu_read_lock();
	wq = rcu_dereference(sk->sk_wq);
	if (skwq_has_sleeper(wq))
		wake_up_interruptible_all(&wq->wait);
	rcu_read_unlock();
	sk_wake_async(sk, SOCK_WAKE_WAITD, POLL_IN);
}

/*
 * Whether a link of @lnk's link group other than @lnk may still hand a CDC
 * message to smc_cdc_rx() (see smc_cdc_rx_failover()).
 *
 * Every link has its own receive CQ, polled in a workqueue
 * (IB_POLL_WORKQUEUE, link.c), and the works of two CQs run in no order
 * relative to each other: one can be behind by a poll budget, a
 * preemption, another CPU's backlog. Within one link, completions come in
 * order. A slot is UNUSED only after smc_link_teardown() moved its QP to
 * the error state and waited until every receive completed, successful
 * ones handed to smc_cdc_rx() (which takes a message of an INACTIVE link
 * while the link group goes on); a slot whose drain timed out lost its CQs
 * before it went UNUSED. Any other state may still have completions
 * queued. Called under conn->lock: a message the drain handed on took that
 * lock before the slot went UNUSED, so a slot seen UNUSED here left its
 * last conn->rx_seq visible.
 */
static bool smc_cdc_rx_lag(const struct smc_link *lnk)
{
	const struct smc_link_group *lgr = lnk->lgr;
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (&lgr->lnk[i] != lnk &&
		    READ_ONCE(lgr->lnk[i].state) != SMC_LNK_UNUSED)
			return true;
	return false;
}

/*
 * A failover validation message (F) of the peer's, RFC 7609 4.6.1, A.4:
 * it moved the connection to @lnk and tells in its sequence number, SS, the
 * last CDC message it believes we received. Only that number and the token
 * mean anything (cdc_msg.c leaves the rest 0); it consumes no number, moves
 * no cursor and is no close event.
 *
 * Honoured only for a connection of @lnk's link group (the token table is
 * the link group's) whose handshake ended in SMC-R (@active), and, on a
 * link still being added, only for the connection that uses it - as any
 * CDC message.
 *
 * SS not after SR (conn->rx_seq; smc_cdc_msg_failover_gap()) - the RFC's
 * SS when nothing is missing, Linux's one behind it - changes nothing. SS
 * after SR is a gap, and the connection is reset as for any protocol
 * error of the peer's (SMC_CLOSE_EV_ABORT: A sent, ECONNRESET for the
 * application), but only if it cannot be lag: the peer's RNIC counted the
 * message delivered, so with RC it is in a receive queue of ours, and
 * once placed its completion comes to smc_cdc_rx() - on another link's
 * CQ, which may be behind @lnk's (smc_cdc_rx_lag()). While any other link
 * of the group may still deliver, the decision is not taken: the missing
 * message then either arrives and is taken, or is dropped as stale behind
 * the peer's next message on @lnk, whose cursors and sticky flags
 * supersede it (A.4). A peer that names a number it never sent is not
 * caught then; it could reset the connection anyway, and nothing of an F
 * is trusted beyond that number. Once the other links are gone (UNUSED:
 * drained), a gap is real. Holding the decision until the other link's
 * teardown would need state in the connection; not done.
 */
static void smc_cdc_rx_failover(struct smc_sock *smc, struct smc_link *lnk,
				int state, u16 ss)
{
	struct smc_conn *conn = &smc->conn;
	bool gap = false;
	u16 act = 0;
	u16 sr;

	spin_lock_bh(&conn->lock);
	sr = conn->rx_seq;
	if (conn->lgr == lnk->lgr && conn->active &&
	    (state != SMC_LNK_ACTIVATING || conn->lnk == lnk) &&
	    smc_cdc_msg_failover_gap(ss, sr, conn->rx_seq_valid) &&
	    !smc_cdc_rx_lag(lnk)) {
		gap = true;
		act = smc_close_feed_later(conn, SMC_CLOSE_EV_ABORT);
	}
	spin_unlock_bh(&conn->lock);
	if (!gap)
		return;
	pr_warn_ratelimited("link group %u connection %u: failover validation names CDC %u, last received %u: connection reset\n",
			    lnk->lgr->id, conn->token, ss, sr);
	if (smc_close_atomic(smc, act))
		smc_cdc_upd_queue(smc);
}

/**
 * smc_cdc_rx() - a CDC message arrived on a link
 * @lnk: the link
 * @msg: the received bytes
 * @len: their number
 *
 * Context: receive completion (workqueue); does not sleep, but for the
 * test-only test_cdc_rx_delay_ms.
 */
void smc_cdc_rx(struct smc_link *lnk, const void *msg, size_t len)
{
	const struct smc_cdc_msg_wire *wire = msg;
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_ring rx_ring, tx_ring;
	struct smc_cdc_info info;
	struct smc_conn *conn;
	struct smc_sock *smc;
	enum smc_close_event ev;
	bool upd, stale;
	unsigned int delay;
	int urg, state;
	u16 act;
	u8 news;

	if (len < sizeof(*wire))
		return;
	/*
	 * Also while ACTIVATING: the server's first link turns ACTIVE when
	 * its handshake thread has seen the CONFIRM LINK response, which the
	 * LLC path delivers; the client's first CDC message, sent right
	 * after that response, can be here before. And on a link that went
	 * down while its link group goes on: what arrived intact counts, the
	 * peer's hardware saw it delivered and the peer moves on without it
	 * (llc_del_link.c).
	 */
	state = READ_ONCE(lnk->state);
	if (state == SMC_LNK_UNUSED ||
	    (state == SMC_LNK_INACTIVE && smc_lgr_terminating(lgr)))
		return;
	xa_lock_bh(&lgr->conns_xa);
	smc = xa_load(&lgr->conns_xa, be32_to_cpu(wire->token));
	if (smc)
		sock_hold(&smc->sk);
	xa_unlock_bh(&lgr->conns_xa);
	if (!smc)
		return;
	delay = smc_test(cdc_rx_delay_ms);
	if (unlikely(delay))		/* receive completions run in a work */
		msleep(delay);
	conn = &smc->conn;
	spin_lock_bh(&conn->lock);
	rx_ring = conn->rx_ring;
	tx_ring = conn->tx_ring;
	spin_unlock_bh(&conn->lock);
	/* before smc_conn_peer() (server, racing the client's first CDC)
	 * the peer's consumer cursor can only be its first one
	 */
	if (!tx_ring.size)
		tx_ring = rx_ring;
	if (smc_cdc_msg_parse(msg, len, &rx_ring, &tx_ring, &info))
		goto out;
	if (info.prod_flags & SMC_CDC_PROD_FAILOVER) {
		smc_cdc_rx_failover(smc, lnk, state, info.seqno);
		goto out;
	}
	spin_lock_bh(&conn->lock);
	/* ended meanwhile (smc_conn_end()): the elements may be gone; a
	 * link still being added carries nothing of other links' connections
	 */
	if (!conn->lgr ||
	    (state == SMC_LNK_ACTIVATING && conn->lnk != lnk) ||
	    (conn->rx_seq_valid &&
	     !smc_cdc_seq_after(info.seqno, conn->rx_seq))) {
		spin_unlock_bh(&conn->lock);
		/* also a lower number late on a link the peer failed over
		 * from, after newer ones on the new link (4.6)
		 */
		goto out;	/* ended, or old or duplicate */
	}
	conn->rx_seq = info.seqno;
	conn->rx_seq_valid = true;
	/*
	 * Cursors only move forward, and never past what the other side
	 * made available. The peer's bytes end at the latest with the
	 * message that first carries its C or A (A.4: no update of our RMBE
	 * after them; the element may be reused once we closed too), so a
	 * later producer cursor is a lie. Not so after D alone: Linux's
	 * close() sends D after waiting at most 2 s (or the linger time) for
	 * a closed window and writes the rest later - those bytes are taken,
	 * and if the application is gone they make close() abort (unread
	 * data), so nothing is lost silently. Once we sent A, nothing new is
	 * taken either (4.8.2, 1A: PeerAbortWait ignores incoming data).
	 */
	stale = (conn->peer_flags & SMC_CDC_CONN_DONE) ||
		smc_conn_aborted(conn);
	if (!stale &&
	    smc_curs_readable(&conn->rx_ring, info.prod, conn->rx_cons) >= 0 &&
	    smc_curs_cmp(&conn->rx_ring, info.prod, conn->rx_prod) >= 0)
		conn->rx_prod = info.prod;
	if (conn->tx_ring.size &&
	    smc_curs_free(&conn->tx_ring, conn->tx_prod, info.cons) >= 0 &&
	    smc_curs_cmp(&conn->tx_ring, info.cons, conn->tx_peer_cons) >= 0)
		conn->tx_peer_cons = info.cons;
	conn->peer_prod_flags = info.prod_flags;
	conn->peer_blocked = info.prod_flags & SMC_CDC_PROD_WRITE_BLOCKED;
	/* the flags are sticky: only a new one is a close event */
	news = info.conn_flags & ~conn->peer_flags;
	conn->peer_flags |= info.conn_flags;
	if (!smc_close_sm_cdc_event(news, &ev))
		ev = SMC_CLOSE_EV_PEER_ALIVE;
	act = smc_close_feed_later(conn, ev);
	/* urgent data and update requests mean nothing past the end */
	urg = 0;
	if (!stale) {
		urg = smc_urg_rx_flags(&conn->rx_urg, &conn->rx_ring,
				       conn->rx_cons, conn->rx_prod,
				       info.prod_flags);
		if (urg & SMC_URG_EV_NEW_MARK)
			smc_cdc_urg_byte(conn);
		smc_urg_rx_advance(&conn->rx_urg, &conn->rx_ring,
				   &conn->rx_cons,
				   sock_flag(&smc->sk, SOCK_URGINLINE));
		if (info.prod_flags & SMC_CDC_PROD_CONS_UPD_REQ)
			conn->rx_upd_req = true;
	}
	upd = (conn->rx_urg.ack || conn->rx_upd_req) && !conn->released;
	spin_unlock_bh(&conn->lock);
	upd |= smc_close_atomic(smc, act);
	if (urg & SMC_URG_EV_SIGNAL) {
		/* sk_socket and its file stay while not orphaned */
		read_lock_bh(&smc->sk.sk_callback_lock);
		if (!sock_flag(&smc->sk, SOCK_DEAD))
			sk_send_sigurg(&smc->sk);
		read_unlock_bh(&smc->sk.sk_callback_lock);
	}
	smc_cdc_wake(&smc->sk);
	if (upd)
		smc_cdc_upd_queue(smc);
out:
	sock_put(&smc->sk);
}
