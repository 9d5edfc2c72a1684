// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: receiving on an SMC-R connection (RFC 7609 4.3, 4.5.1, 4.7).
 *
 * The peer's data is in our RMBE between our consumer cursor and the
 * producer cursor of its last CDC message. recvmsg copies from there and
 * advances the consumer cursor; the peer learns the new cursor from a CDC
 * message when smc_curs_cons_update_needed() says the window grew enough
 * (4.5.1: no update per byte), or at once when the peer is blocked.
 *
 * End of stream: no data left and the peer sent D (done writing) or C; an
 * A (abnormal close) or the link group's end is ECONNRESET.
 *
 * Urgent data (4.7.5, 4.7.6): reads stop at the mark, recv(MSG_OOB)
 * returns the urgent byte, SIOCATMARK and EPOLLPRI report it, with TCP's
 * semantics; the rules are in urg.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/uio.h>
#include <net/sock.h>
#include <smcr/cdc_wire.h>

#include "cdc.h"
#include "close.h"
#include "conn.h"
#include "core.h"
#include "rx.h"
#include "smcr.h"
#include "tx.h"

#define SMC_CDC_PEER_EOF	(SMC_CDC_CONN_DONE_WRITING | SMC_CDC_CONN_CLOSED)

static int smc_rx_avail(struct smc_conn *conn, struct smc_cursor *cons)
{
	int n;

	spin_lock_bh(&conn->lock);
	n = smc_curs_readable(&conn->rx_ring, conn->rx_prod, conn->rx_cons);
	*cons = conn->rx_cons;
	spin_unlock_bh(&conn->lock);
	return max(n, 0);
}

/**
 * smc_rx_inq() - bytes waiting in the RMBE (SIOCINQ)
 * @smc: an SMC-R socket
 *
 * Return: the byte count.
 */
int smc_rx_inq(struct smc_sock *smc)
{
	struct smc_cursor cons;

	return smc_rx_avail(&smc->conn, &cons);
}

static bool smc_rx_peer_eof(struct smc_conn *conn)
{
	return READ_ONCE(conn->peer_flags) & SMC_CDC_PEER_EOF;
}

static bool smc_rx_reset(struct smc_conn *conn)
{
	return smc_conn_aborted(conn);
}

static bool smc_rx_oobinline(struct smc_sock *smc)
{
	return sock_flag(&smc->sk, SOCK_URGINLINE);
}

/*
 * Bytes a normal read may take now (0 at the mark when it returned data
 * already, @copied), and the consumer cursor to take them from.
 */
static u32 smc_rx_take(struct smc_sock *smc, struct smc_cursor *cons,
		       bool copied)
{
	struct smc_conn *conn = &smc->conn;
	u32 take;
	int n;

	spin_lock_bh(&conn->lock);
	smc_urg_rx_advance(&conn->rx_urg, &conn->rx_ring, &conn->rx_cons,
			   smc_rx_oobinline(smc));
	n = smc_curs_readable(&conn->rx_ring, conn->rx_prod, conn->rx_cons);
	*cons = conn->rx_cons;
	take = smc_urg_rx_take(&conn->rx_urg, &conn->rx_ring, *cons, max(n, 0),
			       smc_rx_oobinline(smc), copied);
	spin_unlock_bh(&conn->lock);
	return take;
}

/**
 * smc_rx_atmark() - SIOCATMARK of an SMC-R connection
 * @smc: the socket
 *
 * Return: 1 if the reader is at the urgent mark, else 0.
 */
int smc_rx_atmark(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	bool at;

	spin_lock_bh(&conn->lock);
	at = smc_urg_rx_atmark(&conn->rx_urg, &conn->rx_ring, conn->rx_cons,
			       smc_rx_oobinline(smc));
	spin_unlock_bh(&conn->lock);
	return at;
}

/* recv(MSG_OOB): the urgent byte, as TCP returns it */
static int smc_rx_recv_urg(struct smc_sock *smc, struct msghdr *msg,
			   size_t len, int flags)
{
	struct smc_conn *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	bool notyet;
	u8 state, byte;
	int rc;

	if (smc_rx_oobinline(smc))
		return -EINVAL;
	lock_sock(sk);
	spin_lock_bh(&conn->lock);
	notyet = conn->rx_urg.notyet;
	state = notyet ? SMC_URG_NONE : conn->rx_urg.state;
	byte = conn->rx_urg.byte;
	if (state == SMC_URG_VALID && !(flags & MSG_PEEK))
		conn->rx_urg.state = SMC_URG_READ;
	spin_unlock_bh(&conn->lock);
	if (!notyet && state != SMC_URG_VALID) {
		rc = -EINVAL;
	} else if (state == SMC_URG_VALID) {
		smc_stats_event(sock_net(sk), SMC_STATS_EV_URG);
		msg->msg_flags |= MSG_OOB;
		rc = 0;
		if (!len)
			msg->msg_flags |= MSG_TRUNC;
		else if (!(flags & MSG_TRUNC) && memcpy_to_msg(msg, &byte, 1))
			rc = -EFAULT;
		else
			rc = 1;
	} else if ((sk->sk_shutdown & RCV_SHUTDOWN) || smc_rx_peer_eof(conn) ||
		   smc_rx_reset(conn)) {
		rc = 0;
	} else {
		rc = -EAGAIN;	/* announced, not yet written (4.7.6) */
	}
	release_sock(sk);
	return rc;
}

static bool smc_rx_can_go(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	struct smc_cursor cons;

	return smc_rx_avail(conn, &cons) || smc_rx_peer_eof(conn) ||
	       smc_rx_reset(conn) || READ_ONCE(smc->sk.sk_err) ||
	       (smc->sk.sk_shutdown & RCV_SHUTDOWN);
}

/* After consuming: tell the peer when the window grew enough */
static void smc_rx_update_cons(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	bool send;

	spin_lock_bh(&conn->lock);
	send = conn->peer_blocked || conn->rx_urg.ack ||
	       smc_curs_cons_update_needed(&conn->rx_ring, conn->rx_prod,
					   conn->rx_cons_sent, conn->rx_cons);
	spin_unlock_bh(&conn->lock);
	if (send && !smc_rx_peer_eof(conn) && !smc_conn_aborted(conn))
		smc_cdc_send(smc, 0);
}

/*
 * RFC 7609 4.4.1: with the eye catcher, check it before reading; an
 * overwritten one resets the connection.
 */
static int smc_rx_check_rmbe(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	bool ok = true;

	if (!conn->rx_ring.start)
		return 0;
	spin_lock_bh(&conn->lock);
	if (!conn->lgr_gone)	/* the device is still there */
		ok = smc_conn_rmbe_intact(conn);
	spin_unlock_bh(&conn->lock);
	if (ok)
		return 0;
	if (!smc_conn_aborted(conn)) {
		pr_warn_ratelimited("link group %u connection %u: RMBE eye catcher overwritten, connection reset\n",
				    conn->lgr->id, conn->token);
		smc_tx_discard(conn);
		smc_close_abort(smc);
	}
	return -ECONNRESET;
}

/* Copy @n bytes at @cons out of the RMBE */
static int smc_rx_copy(struct smc_sock *smc, struct msghdr *msg,
		       struct smc_cursor cons, u32 n)
{
	struct smc_conn *conn = &smc->conn;
	u8 *cpu = smc_buf_elem_cpu(&conn->rmbe);
	struct smc_span span;
	int i, rc;

	rc = smc_curs_split(&conn->rx_ring, cons, n, &span);
	if (rc < 0)
		return rc;
	for (i = 0; i < 2 && span.len[i]; i++) {
		/* the link group's end sets lgr_gone before the device may go */
		spin_lock_bh(&conn->lock);
		if (!conn->lgr_gone)
			smc_conn_rmbe_sync(conn, span.off[i], span.len[i]);
		spin_unlock_bh(&conn->lock);
		if (copy_to_iter(cpu + span.off[i], span.len[i],
				 &msg->msg_iter) != span.len[i])
			return -EFAULT;
	}
	return 0;
}

/**
 * smc_rx_recvmsg() - recvmsg of an SMC-R connection
 * @smc: the socket
 * @msg: buffer
 * @len: its size
 * @flags: MSG_* flags (MSG_PEEK, MSG_WAITALL, MSG_DONTWAIT, MSG_TRUNC)
 *
 * Return: bytes received, 0 at end of stream, or a negative errno.
 */
int smc_rx_recvmsg(struct smc_sock *smc, struct msghdr *msg, size_t len,
		   int flags)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &smc->sk;
	struct smc_conn *conn = &smc->conn;
	size_t copied = 0, target;
	struct smc_cursor cons;
	long timeo;
	u32 avail;
	int rc = 0;

	if (flags & MSG_OOB)
		return smc_rx_recv_urg(smc, msg, len, flags);
	lock_sock(sk);
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	target = sock_rcvlowat(sk, flags & MSG_WAITALL, len);
	while (copied < len) {
		avail = smc_rx_take(smc, &cons, copied);
		if (!avail && copied && smc_rx_avail(conn, &cons))
			break;		/* at the urgent mark */
		if (avail && !(sk->sk_shutdown & RCV_SHUTDOWN)) {
			u32 n = min_t(size_t, avail, len - copied);

			rc = smc_rx_check_rmbe(smc);
			if (rc)
				break;
			if (!(flags & MSG_TRUNC)) {
				rc = smc_rx_copy(smc, msg, cons, n);
				if (rc)
					break;
			}
			copied += n;
			if (flags & MSG_PEEK)
				break;
			spin_lock_bh(&conn->lock);
			conn->rx_cons = smc_curs_add(&conn->rx_ring, cons, n);
			smc_urg_rx_advance(&conn->rx_urg, &conn->rx_ring,
					   &conn->rx_cons,
					   smc_rx_oobinline(smc));
			spin_unlock_bh(&conn->lock);
			smc_rx_update_cons(smc);
			continue;
		}
		if (copied >= target)
			break;
		if (sk->sk_shutdown & RCV_SHUTDOWN)
			break;
		/* the error first: a keepalive timeout's ETIMEDOUT, once */
		if (READ_ONCE(sk->sk_err)) {
			rc = sock_error(sk);
			break;
		}
		if (smc_rx_reset(conn)) {
			rc = -ECONNRESET;
			break;
		}
		if (smc_rx_peer_eof(conn))
			break;
		rc = -EAGAIN;
		if (!timeo)
			break;
		rc = sock_intr_errno(timeo);
		if (signal_pending(current))
			break;
		add_wait_queue(sk_sleep(sk), &wait);
		sk_wait_event(sk, &timeo, smc_rx_can_go(smc), &wait);
		remove_wait_queue(sk_sleep(sk), &wait);
		rc = 0;
	}
	release_sock(sk);
	if (copied) {
		smc_stats_payload(sock_net(sk), false, len, copied);
		return copied;
	}
	return rc;
}

/**
 * smc_rx_poll() - poll mask of an SMC-R connection
 * @smc: the socket
 *
 * Return: EPOLLIN with data or at end of stream, EPOLLOUT with room in the
 * peer's RMBE, EPOLLHUP/EPOLLRDHUP as TCP reports them.
 */
__poll_t smc_rx_poll(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	struct smc_cursor c;
	__poll_t mask = 0;
	bool reset = smc_rx_reset(conn);

	if (smc_rx_avail(conn, &c) || smc_rx_peer_eof(conn) || reset ||
	    (sk->sk_shutdown & RCV_SHUTDOWN))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(conn->rx_urg.state) == SMC_URG_VALID &&
	    !READ_ONCE(conn->rx_urg.notyet))
		mask |= EPOLLPRI;
	if (smc_rx_peer_eof(conn) || reset)
		mask |= EPOLLRDHUP;
	if (smc_tx_space(conn) > 0)
		mask |= EPOLLOUT | EPOLLWRNORM;
	if (reset || sk->sk_shutdown == SHUTDOWN_MASK ||
	    ((sk->sk_shutdown & SEND_SHUTDOWN) && smc_rx_peer_eof(conn)))
		mask |= EPOLLHUP;
	if (reset || (READ_ONCE(conn->peer_flags) & SMC_CDC_CONN_CLOSED))
		mask |= EPOLLOUT | EPOLLWRNORM;	/* writes fail at once */
	return mask;
}
