// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: sending on an SMC-R connection (RFC 7609 4.3, 4.5, 4.7).
 *
 * sendmsg copies into the send buffer, and smc_tx_push() RDMA-writes the
 * staged range into the peer's RMBE (two writes when it wraps there, each
 * from one or two ranges of the send buffer, which wraps on its own), then
 * sends a CDC message with the new producer cursor. RC ordering makes the
 * data arrive before the CDC message that announces it. Nothing is written
 * once we sent D, C or A, or the peer sent C or A (4.8: the peer may reuse
 * its RMBE then).
 *
 * The send buffer is ours to size (conn.c: SO_SNDBUF or net.smc.wmem, at
 * most the peer's RMBE) and keeps every byte the peer has not consumed, as
 * TCP keeps what is not yet acknowledged: the bytes in flight are at most
 * the smaller of the two buffers.
 *
 * Flow control (4.7.3, 4.7.4): we never write past the peer's consumer
 * cursor. With no room, the writer-blocked flag goes out in a CDC message,
 * with "consumer cursor update requested" (R) so the peer answers at once,
 * and the sender sleeps until the peer's consumer cursor moves (its CDC
 * message wakes us). We answer the peer's R the same way (cdc.c). A full
 * send buffer (smaller than the peer's RMBE) blocks the same way: only the
 * peer's consumer cursor frees it.
 *
 * Why R, which 4.5.1 recommends for diagnostics only: the writer-blocked
 * flag alone makes the peer report its cursor at its next consumption. A
 * peer that consumed everything before our message arrived, and held its
 * update back by the window rule, would not consume again - we would wait
 * for ever. R asks for the cursor now; it goes out once per blocking.
 *
 * Urgent data (4.7.5, 4.7.6): the last byte of a send(MSG_OOB) is the
 * urgent byte. Every CDC message from the start of that send carries
 * "urgent data pending" (also the writer-blocked one: the peer learns of
 * the urgent data while the window is closed), the one announcing the
 * byte "pending" and "present". After it no further byte is written until
 * the peer's consumer cursor has reached the mark, as 4.7.5 step 3 asks:
 * a peer may rely on the producer cursor staying at the mark until it
 * acknowledged it. A send(MSG_OOB) that returns early (signal, timeout,
 * non-blocking) puts the mark after the last byte it sent, as TCP does.
 *
 * Autocorking (4.5.2, small data sends): sendmsg copies into the send
 * buffer at tx_staged, and the bytes from tx_prod to tx_staged go out (RDMA
 * writes and one CDC message) at once - unless a CDC message of the
 * connection is still in flight and less than half the send buffer (and
 * less than net.smc.autocorking_size of the socket's namespace) is
 * staged. Then they wait for that message's completion, which queues
 * tx_work to send them, together with whatever followed: many small
 * sends become one write. The completion is the
 * timer the RFC asks for: it comes as surely as the link lives. Nothing is
 * held back with TCP_NODELAY on the socket (the RFC's opt-out), for urgent
 * data, before the writer blocks (the peer can only make room for bytes it
 * was told of), or at shutdown(SHUT_WR) and close(); an abortive close
 * drops it. A push that finds no free send buffer in llc_timeout_ms finds
 * the link taken down (smc_wr_tx_get()): the connection fails over to
 * another link of its link group, or is reset with the link group.
 */
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <smcr/cdc_wire.h>

#include "cdc.h"
#include "core.h"
#include "smcr.h"
#include "tx.h"
#include "wr.h"

/* Room in the peer's RMBE and our send buffer; conn->lock held */
static int smc_tx_room_locked(struct smc_conn *conn)
{
	int unconsumed;

	if (conn->tx_urg_hold) {
		if (smc_curs_cmp(&conn->tx_ring, conn->tx_peer_cons,
				 conn->tx_urg_mark) < 0)
			return 0;
		conn->tx_urg_hold = false;
	}
	unconsumed = smc_curs_diff(&conn->tx_ring, conn->tx_peer_cons,
				   conn->tx_staged);
	if (unconsumed < 0)
		return unconsumed;
	return min_t(int, smc_ring_capacity(&conn->tx_ring),
		     conn->sb_ring.size) - unconsumed;
}

/*
 * Where in the send buffer the byte at @c is: @c is a cursor in the
 * peer's RMBE from tx_prod up to tx_staged. Socket lock held (tx_prod and
 * sb_prod move only under it).
 */
static struct smc_cursor smc_tx_sb_pos(const struct smc_conn *conn,
				       struct smc_cursor c)
{
	return smc_curs_add(&conn->sb_ring, conn->sb_prod,
			    smc_curs_diff(&conn->tx_ring, conn->tx_prod, c));
}

/* Room after what is staged, and where the next bytes go */
static int smc_tx_room(struct smc_conn *conn, struct smc_cursor *staged)
{
	int room;

	spin_lock_bh(&conn->lock);
	room = smc_tx_room_locked(conn);
	*staged = conn->tx_staged;
	spin_unlock_bh(&conn->lock);
	return room;
}

/* Count a blocked writer: our send buffer full, else the peer's RMBE */
static void smc_tx_count_full(struct smc_sock *smc)
{
	bool ours = smc_tx_outq(smc) >= (int)smc->conn.sb_ring.size;

	smc_stats_buf(sock_net(&smc->sk), true,
		      ours ? SMC_STATS_BUF_FULL : SMC_STATS_BUF_FULL_PEER, 0);
}

/**
 * smc_tx_space() - room for the next write (EPOLLOUT)
 * @conn: an SMC-R connection
 *
 * Return: bytes, 0 while the peer's RMBE or our send buffer is full or our
 * urgent byte is not yet acknowledged; negative if the cursors are
 * inconsistent.
 */
int smc_tx_space(struct smc_conn *conn)
{
	struct smc_cursor prod;

	return smc_tx_room(conn, &prod);
}

/* What ends a wait for room, or makes sending fail */
static int smc_tx_error(struct smc_sock *smc)
{
	struct sock *sk = &smc->sk;
	struct smc_conn *conn = &smc->conn;

	if (READ_ONCE(sk->sk_err))
		return sock_error(sk) ?: -ECONNRESET;
	if (sk->sk_shutdown & SEND_SHUTDOWN)
		return -EPIPE;
	/* not a link that is down: the connection fails over (failover.c)
	 * or its link group ends, and lgr_gone says so
	 */
	if (READ_ONCE(conn->lgr_gone))
		return -ECONNRESET;
	/* the peer's A sets sk_err just after its flag; ours sets none */
	if (smc_conn_aborted(conn))
		return -ECONNRESET;
	if (READ_ONCE(conn->peer_flags) & SMC_CDC_CONN_CLOSED)
		return -EPIPE;
	return 0;
}

static bool smc_tx_can_go(struct smc_sock *smc)
{
	struct smc_cursor prod;

	return smc_tx_error(smc) || smc_tx_room(&smc->conn, &prod) > 0;
}

/* The urgent byte is the one before @end: mark it; conn->lock held */
static void smc_tx_urg_mark(struct smc_conn *conn, struct smc_cursor end)
{
	conn->tx_urg |= SMC_CDC_PROD_URG_PRESENT;
	conn->tx_urg_hold = true;
	conn->tx_urg_mark = end;
}

/* End of a send(MSG_OOB) that did not write its last byte */
static void smc_tx_urg_end(struct smc_sock *smc, size_t sent, bool told)
{
	struct smc_conn *conn = &smc->conn;

	spin_lock_bh(&conn->lock);
	if (sent)	/* TCP: after the last byte sent (staged, if the
			 * link is down: see smc_tx_push())
			 */
		smc_tx_urg_mark(conn, conn->tx_staged);
	else
		conn->tx_urg = 0;	/* withdraws an announcement */
	spin_unlock_bh(&conn->lock);
	if (sent || told)
		smc_cdc_send(smc, 0);
}

/* Copy @n bytes from @msg into the send buffer at @staged and stage them */
static int smc_tx_copy(struct smc_conn *conn, struct msghdr *msg,
		       struct smc_cursor staged, u32 n)
{
	u8 *cpu = smc_buf_elem_cpu(&conn->sndbuf);
	struct smc_span span;
	int i, rc;

	rc = smc_curs_split(&conn->sb_ring, smc_tx_sb_pos(conn, staged), n,
			    &span);
	if (rc < 0)
		return rc;
	for (i = 0; i < 2 && span.len[i]; i++)
		if (copy_from_iter(cpu + span.off[i], span.len[i],
				   &msg->msg_iter) != span.len[i])
			return -EFAULT;
	spin_lock_bh(&conn->lock);
	conn->tx_staged = smc_curs_add(&conn->tx_ring, staged, n);
	spin_unlock_bh(&conn->lock);
	return 0;
}

/*
 * RDMA-write the @n bytes from tx_prod on (in the peer's RMBE) and move
 * tx_prod past them; @cdc: the held buffer of the CDC message that will
 * announce them. Socket lock held. Return: 0 or -ENOLINK (@cdc is then
 * given back).
 */
static int smc_tx_write(struct smc_sock *smc, void *cdc, int n, bool urg_last)
{
	struct smc_conn *conn = &smc->conn;
	struct smc_cursor src = conn->sb_prod;
	struct smc_span span, from;
	int i, rc;

	rc = smc_curs_split(&conn->tx_ring, conn->tx_prod, n, &span);
	for (i = 0; rc >= 0 && i < 2 && span.len[i]; i++) {
		rc = smc_curs_split(&conn->sb_ring, src, span.len[i], &from);
		if (rc >= 0)
			rc = smc_wr_rdma_write(conn->lnk, &conn->sndbuf, &from,
					       conn->peer_addr + span.off[i],
					       conn->peer_rkey);
		src = smc_curs_add(&conn->sb_ring, src, span.len[i]);
	}
	if (rc < 0) {	/* the link is down (the splits cannot fail) */
		smc_cdc_put_buf(smc, cdc);
		return -ENOLINK;
	}
	spin_lock_bh(&conn->lock);
	conn->tx_prod = smc_curs_add(&conn->tx_ring, conn->tx_prod, n);
	conn->sb_prod = src;
	conn->tx_blocked = false;
	if (urg_last)
		smc_tx_urg_mark(conn, conn->tx_prod);
	spin_unlock_bh(&conn->lock);
	return 0;
}

/**
 * smc_tx_push() - write the staged bytes to the peer and announce them
 * @smc: an SMC-R socket, socket lock held
 * @urg_last: the last staged byte is urgent: mark it
 *
 * The CDC message's send buffer is taken first, so at most two writes per
 * held buffer are in the send queue (SMC_WR_SQ_DEPTH), and nothing is
 * written that could not be announced. Once written, the bytes count as
 * sent: the next CDC message announces them in any case.
 *
 * A link that is down is no error: the bytes stay staged (and written
 * ones are written again) until the connection has failed over to
 * another link, or its link group ends (failover.c).
 *
 * Return: 0 (also with nothing staged, and while the link is down), or a
 * negative errno: with bytes staged, -ECONNRESET after the peer's A,
 * -EPIPE after its C or our D, C or A (they are not written).
 */
int smc_tx_push(struct smc_sock *smc, bool urg_last)
{
	struct smc_conn *conn = &smc->conn;
	u8 sent, peer;
	void *cdc;
	int n;

	spin_lock_bh(&conn->lock);
	n = smc_curs_diff(&conn->tx_ring, conn->tx_prod, conn->tx_staged);
	sent = conn->sent_flags;
	peer = conn->peer_flags;
	spin_unlock_bh(&conn->lock);
	if (n <= 0)
		return n;
	if (peer & SMC_CDC_CONN_ABORT)
		return -ECONNRESET;
	if ((peer & SMC_CDC_CONN_CLOSED) ||
	    (sent & (SMC_CDC_CONN_DONE_WRITING | SMC_CDC_CONN_CLOSED |
		     SMC_CDC_CONN_ABORT)))
		return -EPIPE;
	if (smc_cdc_get_buf(smc, &cdc) ||
	    smc_tx_write(smc, cdc, n, urg_last)) {
		/* the link is down (see above): the mark waits with them */
		if (urg_last) {
			spin_lock_bh(&conn->lock);
			smc_tx_urg_mark(conn, conn->tx_staged);
			spin_unlock_bh(&conn->lock);
		}
		return 0;
	}
	smc_cdc_send_buf(smc, cdc, 0);	/* fails only with the link */
	return 0;
}

/**
 * smc_tx_failover() - resend on the connection's new link what the peer
 *	may lack (RFC 7609 4.6.1, 4.6.2)
 * @smc: an SMC-R socket, socket lock held, that failover.c just moved to
 *	another link after its old one was quiesced
 *
 * First the failover validation message. Then the bytes from the replay
 * point (smc_curs_replay_from(): the later of what our last completed CDC
 * message announced and what the peer consumed) up to what is staged, and
 * one CDC message with a new sequence number that announces them and
 * re-asserts every sticky flag: D, C or A, writer-blocked (with R, so the
 * peer answers), urgent data pending and present. It goes even with no
 * byte to resend: a lost window update or close flag lives only in it
 * (4.6.2's second option, combining the failed messages into one). No
 * byte is written, and our producer cursor is not rewound, once the
 * connection is aborted or closed on either side. Our C is never posted
 * while the peer may lack a byte (cdc.c holds it): a C that was owed or
 * held goes after the resent bytes, once they completed.
 *
 * Return: 0 or a negative errno (the new link went down too).
 */
int smc_tx_failover(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	struct smc_cursor from;
	bool write, blocked;
	void *cdc;
	int n, rc;

	rc = smc_cdc_send_failover(smc);
	if (!rc)
		rc = smc_cdc_get_buf(smc, &cdc);
	if (rc)
		return rc;
	/* with the buffer: no sleep between the rewind and the write */
	spin_lock_bh(&conn->lock);
	from = smc_curs_replay_from(&conn->tx_ring, conn->tx_acked_prod,
				    conn->tx_peer_cons, conn->tx_prod);
	n = smc_curs_diff(&conn->tx_ring, from, conn->tx_staged);
	/*
	 * Our C posted, after bytes the peer may lack, before its C or A:
	 * cannot be, cdc.c holds it until the peer has them all (after its
	 * C or A nothing is written, below). Were it so, the peer might
	 * have had the bytes and our C, closed too and given its RMBE to
	 * another connection, or lack them: abort (4.6.1: the connection
	 * cannot resume intact).
	 */
	if (WARN_ON_ONCE(n > 0 && (conn->sent_flags & SMC_CDC_CONN_CLOSED) &&
			 !(conn->peer_flags &
			   (SMC_CDC_CONN_CLOSED | SMC_CDC_CONN_ABORT))))
		conn->sent_flags |= SMC_CDC_CONN_ABORT;
	/* nothing into an RMBE the peer may have given away (aborted,
	 * closed by either side, or an RMBE conflict: close.c)
	 */
	write = n > 0 && !smc_conn_aborted(conn) &&
		!(conn->tx_owed_flags & SMC_CDC_CONN_ABORT) &&
		!(conn->peer_flags & SMC_CDC_CONN_CLOSED);
	if (write) {
		/* rewind: the send buffer keeps every byte not consumed */
		conn->sb_prod = smc_curs_sub(&conn->sb_ring, conn->sb_prod,
					     smc_curs_diff(&conn->tx_ring, from,
							   conn->tx_prod));
		conn->tx_prod = from;
		if (conn->tx_urg_hold &&
		    smc_curs_cmp(&conn->tx_ring, from, conn->tx_urg_mark) < 0)
			conn->tx_urg |= SMC_CDC_PROD_URG_PENDING |
					SMC_CDC_PROD_URG_PRESENT;
	}
	blocked = conn->tx_blocked;
	conn->tx_upd_req = blocked;
	spin_unlock_bh(&conn->lock);
	if (write) {
		rc = smc_tx_write(smc, cdc, n, false);
		if (rc)
			return rc;
		spin_lock_bh(&conn->lock);
		conn->tx_blocked = blocked;	/* no new room came */
		spin_unlock_bh(&conn->lock);
	}
	return smc_cdc_send_again(smc, cdc);
}

/* Hold the staged bytes back for now (autocorking)? */
static bool smc_tx_cork(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	unsigned int max;
	bool cork;
	int n;

	/* TCP_NODELAY, set on the clcsock without our lock */
	if (data_race(tcp_sk(smc->clcsock->sk)->nonagle & TCP_NAGLE_OFF))
		return false;
	max = smc_tun(sock_net(&smc->sk), SMC_TUN_autocorking_size);
	spin_lock_bh(&conn->lock);
	n = smc_curs_diff(&conn->tx_ring, conn->tx_prod, conn->tx_staged);
	cork = conn->cdc_pend &&
	       n < min(conn->sb_ring.size / 2, max);
	spin_unlock_bh(&conn->lock);
	return cork;
}

/**
 * smc_tx_work() - send what autocorking held back, and a C held until
 *	the peer had every byte (conn->tx_work)
 * @work: the connection's tx_work
 */
void smc_tx_work(struct work_struct *work)
{
	struct smc_conn *conn = container_of(work, struct smc_conn, tx_work);
	struct smc_sock *smc = container_of(conn, struct smc_sock, conn);

	lock_sock(&smc->sk);
	if (conn->lgr && !READ_ONCE(conn->lgr_gone)) {
		smc_tx_push(smc, false);
		smc_cdc_send_held(smc);
	}
	release_sock(&smc->sk);
	sock_put(&smc->sk);		/* queued with a reference */
}

/**
 * smc_tx_discard() - drop what is staged and not written (abortive close)
 * @conn: an SMC-R connection, socket lock held
 */
void smc_tx_discard(struct smc_conn *conn)
{
	spin_lock_bh(&conn->lock);
	conn->tx_staged = conn->tx_prod;
	spin_unlock_bh(&conn->lock);
}

/**
 * smc_tx_unsent() - bytes staged and not yet written (SIOCOUTQNSD)
 * @conn: an SMC-R connection
 *
 * Return: the byte count.
 */
int smc_tx_unsent(struct smc_conn *conn)
{
	int n;

	spin_lock_bh(&conn->lock);
	n = smc_curs_diff(&conn->tx_ring, conn->tx_prod, conn->tx_staged);
	spin_unlock_bh(&conn->lock);
	return max(n, 0);
}

/**
 * smc_tx_outq() - bytes the peer has not consumed yet, staged ones
 *	included (SIOCOUTQ)
 * @smc: an SMC-R socket
 *
 * Return: the byte count.
 */
int smc_tx_outq(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	int n;

	spin_lock_bh(&conn->lock);
	n = smc_curs_diff(&conn->tx_ring, conn->tx_peer_cons, conn->tx_staged);
	spin_unlock_bh(&conn->lock);
	return max(n, 0);
}

/**
 * smc_tx_sendmsg() - sendmsg of an SMC-R connection
 * @smc: the socket
 * @msg: data and flags
 * @len: bytes in @msg
 *
 * Bytes count as sent once they are in the send buffer: autocorking may
 * write them a little later. A send(MSG_OOB) pushes earlier staged bytes
 * first, and a failed push takes back its own bytes, so that its urgent
 * mark stays right after the last byte written.
 *
 * Return: bytes sent, or a negative errno if none were.
 */
int smc_tx_sendmsg(struct smc_sock *smc, struct msghdr *msg, size_t len)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &smc->sk;
	struct smc_conn *conn = &smc->conn;
	bool oob = msg->msg_flags & MSG_OOB, told = false;
	struct smc_cursor staged;
	size_t sent = 0;
	long timeo;
	int room, rc = 0;

	lock_sock(sk);
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	if (oob && len) {
		/* the mark goes after this call's last byte written */
		rc = smc_tx_push(smc, false);
		if (rc)
			goto out;
		smc_stats_event(sock_net(sk), SMC_STATS_EV_URG);
		spin_lock_bh(&conn->lock);
		conn->tx_urg = SMC_CDC_PROD_URG_PENDING;
		spin_unlock_bh(&conn->lock);
	}
	while (sent < len) {
		rc = smc_tx_error(smc);
		if (rc)
			break;
		room = smc_tx_room(conn, &staged);
		if (room <= 0) {
			/* the peer makes room only for what it was told of */
			rc = smc_tx_push(smc, false);
			if (rc)
				break;
			if (!conn->tx_blocked)	/* writer blocked */
				smc_tx_count_full(smc);
			/* 4.7.6: the peer learns of urgent data at once. With
			 * R it answers with its consumer cursor at once,
			 * whatever its window rules.
			 */
			if (!conn->tx_blocked || (oob && !told)) {
				conn->tx_blocked = true;
				conn->tx_upd_req = true;
				told = oob;
				smc_cdc_send(smc, 0);
			}
			rc = -EAGAIN;
			if (!timeo)
				break;
			rc = sock_intr_errno(timeo);
			if (signal_pending(current))
				break;
			add_wait_queue(sk_sleep(sk), &wait);
			sk_wait_event(sk, &timeo, smc_tx_can_go(smc), &wait);
			remove_wait_queue(sk_sleep(sk), &wait);
			rc = 0;
			continue;
		}
		room = min_t(size_t, room, len - sent);
		rc = smc_tx_copy(conn, msg, staged, room);
		if (rc)
			break;
		sent += room;
		if (!oob && smc_tx_cork(smc))
			continue;
		rc = smc_tx_push(smc, oob && sent == len);
		if (rc && oob) {	/* only this chunk was staged */
			smc_tx_discard(conn);
			sent -= room;
		}
		if (rc)
			break;
	}
	if (oob && sent < len)
		smc_tx_urg_end(smc, sent, told);
out:
	release_sock(sk);
	if (sent) {
		smc_stats_payload(sock_net(sk), true, len, sent);
		return sent;
	}
	if (rc == -EPIPE && !(msg->msg_flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
	return rc;
}
