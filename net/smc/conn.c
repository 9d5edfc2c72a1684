// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: an SMC-R connection on a link group - its setup, its buffers and
 * the RMBE format, and its end (RFC 7609 4.1 - 4.4, 4.8). Its CDC messages
 * are cdc.c's, its sock_diag record diag.c's.
 *
 * Setup (from the CLC exchange): smc_conn_create() takes an RMB element
 * (at least the socket's receive buffer, 4.1) and an alert token;
 * smc_conn_peer() records the peer's RMBE from its Accept or Confirm and
 * takes a send buffer element of our socket's size (SO_SNDBUF or
 * net.smc.wmem), at most the peer's RMBE: the peer never sizes our memory
 * upwards. The send buffer is a ring of its own (tx.c).
 *
 * RMBE cursors start at 0 (Linux's format), or at 4 after the eye catcher
 * when the link group uses the RFC's format (4.2): the server's choice,
 * with the rmbe_eyecatcher parameter.
 *
 * End (close.c): the close state machine decides; our RMBE stays ours
 * until the peer said it will not write any more (its C or A), the link
 * group is gone, or the close timer gave up (4.4.2: an element is reused
 * only when both sides are done with it). Then smc_conn_end() gives the
 * elements back and drops the connection's references; a CDC message
 * still in smc_cdc_rx() touches them only while conn->lgr is set.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/xarray.h>

#include "buf.h"
#include "cdc.h"
#include "close.h"
#include "conn.h"
#include "core.h"
#include "keepalive.h"
#include "lgr.h"
#include "smcr.h"
#include "tx.h"

static bool smc_rmbe_eyec_on;
module_param_named(rmbe_eyecatcher, smc_rmbe_eyec_on, bool, 0644);
MODULE_PARM_DESC(rmbe_eyecatcher,
		 "Link groups this host serves use RMB elements with the 4-byte eye catcher of RFC 7609 4.2 (N: Linux's format without; Linux peers decline Y; default N)");

static const u8 smc_rmbe_eyecatcher[SMC_RMBE_EYECATCHER_LEN] =
	SMC_RMBE_EYECATCHER;

/**
 * smc_conn_rmbe_eyec() - do the link groups we serve use the RFC's RMBE
 *	format?
 *
 * The server chooses when it creates a link group (rmbe_eyecatcher); a
 * client learns the choice from CONFIRM LINK (smc_conn_format()).
 *
 * Return: true for RMB elements that start with the 4-byte eye catcher
 * (RFC 7609 4.2), false for Linux's format without one.
 */
bool smc_conn_rmbe_eyec(void)
{
	return READ_ONCE(smc_rmbe_eyec_on);
}

/*
 * Our RMBE's ring in the link group's format; with the eye catcher (RFC
 * 7609 4.4.1) write it first. Before the peer may write, or with
 * conn->lock held.
 */
static void smc_conn_rx_format(struct smc_conn *conn)
{
	bool eyec = conn->lgr->rmbe_eyec;

	smc_ring_init(&conn->rx_ring, conn->rmbe.buf->elem_size, eyec);
	conn->rx_prod = smc_curs_first(&conn->rx_ring);
	conn->rx_cons = conn->rx_prod;
	conn->rx_cons_sent = conn->rx_prod;
	if (!eyec)
		return;
	memcpy(smc_buf_elem_cpu(&conn->rmbe), smc_rmbe_eyecatcher,
	       SMC_RMBE_EYECATCHER_LEN);
	ib_dma_sync_single_for_device(conn->lnk->sdev->ibdev,
				      smc_buf_elem_dma(&conn->rmbe,
						       smc_link_slot(conn->lnk)),
				      SMC_RMBE_EYECATCHER_LEN, SMC_RMB_DMA_DIR);
}

/* The peer's RMBE's ring in the link group's format; conn->lock held */
static void smc_conn_tx_format(struct smc_conn *conn, u32 size)
{
	smc_ring_init(&conn->tx_ring, size, conn->lgr->rmbe_eyec);
	conn->tx_prod = smc_curs_first(&conn->tx_ring);
	conn->tx_staged = conn->tx_prod;
	conn->tx_peer_cons = conn->tx_prod;
	conn->tx_acked_prod = conn->tx_prod;
	conn->sb_prod = smc_curs_first(&conn->sb_ring);
}

/**
 * smc_conn_rmbe_sync() - make what the peer wrote into our RMBE visible
 * @conn: an SMC-R connection; its link group not gone (conn->lock held,
 *	or in the CDC receive path)
 * @off: offset into the RMBE
 * @len: bytes from there
 */
void smc_conn_rmbe_sync(struct smc_conn *conn, u32 off, u32 len)
{
	ib_dma_sync_single_for_cpu(conn->lnk->sdev->ibdev,
				   smc_buf_elem_dma(&conn->rmbe,
						    smc_link_slot(conn->lnk)) + off,
				   len,
				   SMC_RMB_DMA_DIR);
}

/**
 * smc_conn_rmbe_intact() - is our RMBE's eye catcher still there?
 * @conn: an SMC-R connection; its link group not gone
 *
 * RFC 7609 4.4.1: the owner checks it before each access to the RMBE.
 *
 * Return: true if intact, or without eye catcher.
 */
bool smc_conn_rmbe_intact(struct smc_conn *conn)
{
	if (!conn->rx_ring.start)
		return true;
	smc_conn_rmbe_sync(conn, 0, SMC_RMBE_EYECATCHER_LEN);
	return !memcmp(smc_buf_elem_cpu(&conn->rmbe), smc_rmbe_eyecatcher,
		       SMC_RMBE_EYECATCHER_LEN);
}

/**
 * smc_conn_format() - the client learnt the link group's RMBE format
 * @conn: the connection of a first contact, set up with smc_conn_create()
 *	and smc_conn_peer() before the server's CONFIRM LINK said which
 *	format the link group uses
 *
 * Called before the reply to that CONFIRM LINK, so before the peer writes
 * or sends a CDC message.
 */
void smc_conn_format(struct smc_conn *conn)
{
	spin_lock_bh(&conn->lock);
	smc_conn_rx_format(conn);
	smc_conn_tx_format(conn, conn->tx_ring.size);
	spin_unlock_bh(&conn->lock);
}

/* Count a connection on its link (or uncount it, @delta -1) */
static void smc_conn_link_count(struct smc_link *lnk, int delta)
{
	spin_lock_bh(&lnk->lgr->lock);
	lnk->conns += delta;
	spin_unlock_bh(&lnk->lgr->lock);
}

/*
 * A new connection may take a link that is ACTIVE, or ACTIVATING on a
 * first contact (its first link); never one down or a slot that has no
 * link (UNUSED: no device, nothing to format an element with). A
 * subsequent contact found its link ACTIVE: one ACTIVATING in that slot
 * now is another link, being added.
 */
static bool smc_conn_link_usable(int state, bool first)
{
	return state == SMC_LNK_ACTIVE ||
	       (first && state == SMC_LNK_ACTIVATING);
}

/**
 * smc_conn_create() - an SMC-R connection for @smc on @lnk
 * @smc: socket in its CLC exchange
 * @lnk: the link it uses, of a link group from smc_contact_find(),
 *	smc_contact_get() or smc_contact_create(); the connection takes over
 *	the caller's count on the link group (released by smc_conn_discard()
 *	or at the connection's end) and counts on the link
 * @first: a first contact (@lnk may still be ACTIVATING)
 *
 * Return: 0, or -ENOMEM/-ENOLINK (nothing held; the caller still owns
 * its count on the link group).
 */
int smc_conn_create(struct smc_sock *smc, struct smc_link *lnk, bool first)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_conn *conn = &smc->conn;
	/* as TCP's window: half the receive buffer the application set */
	u8 cls = smc_buf_class(smc->sk.sk_userlocks & SOCK_RCVBUF_LOCK ?
			       READ_ONCE(smc->sk.sk_rcvbuf) / 2 :
			       smc_tun(sock_net(&smc->sk), SMC_TUN_rmem));
	int rc;

	memset(conn, 0, sizeof(*conn));
	spin_lock_init(&conn->lock);
	INIT_WORK(&conn->upd_work, smc_cdc_upd_work);
	INIT_WORK(&conn->tx_work, smc_tx_work);
	INIT_DELAYED_WORK(&conn->close_work, smc_close_timeout);
	smc_keepalive_init(conn);
	/* first: concurrent handshakes choosing a link see it counted */
	smc_conn_link_count(lnk, 1);
	conn->lnk = lnk;
	rc = smc_buf_get(lgr, true, cls, smc->sk.sk_memcg, &conn->rmbe);
	if (rc)
		goto err_count;
	/* cyclic: a token is not reused soon, so a late CDC message of an
	 * ended connection finds no new one
	 */
	rc = xa_alloc_cyclic_bh(&lgr->conns_xa, &conn->token, smc,
				xa_limit_32b, &lgr->next_token, GFP_KERNEL);
	if (rc < 0) {
		smc_buf_put(lgr, &conn->rmbe);
		goto err_count;
	}
	sock_hold(&smc->sk);		/* the table's reference */
	conn->lgr = lgr;
	/* in the table before these checks: a link group's end either sees
	 * the connection (smc_close_lgr_gone()) or is seen here, and so does
	 * the deletion of its link (smc_failover_conns(), after the link
	 * went down)
	 */
	if (smc_lgr_terminating(lgr) ||
	    !smc_conn_link_usable(READ_ONCE(lnk->state), first)) {
		xa_erase_bh(&lgr->conns_xa, conn->token);
		smc_buf_put(lgr, &conn->rmbe);
		conn->lgr = NULL;
		__sock_put(&smc->sk);	/* the caller holds one too */
		rc = -ENOLINK;
		goto err_count;
	}
	conn->peer_rtok = -1;
	smc_conn_rx_format(conn);
	/* CDC messages find it from here: the peer's D may come early */
	spin_lock_bh(&conn->lock);
	smc_close_feed(conn, SMC_CLOSE_EV_ESTABLISHED);
	spin_unlock_bh(&conn->lock);
	return 0;

err_count:
	smc_conn_link_count(lnk, -1);
	return rc;
}

/**
 * smc_conn_fill_clc() - our buffer fields of an Accept or Confirm
 * @smc: socket after smc_conn_create()
 * @info: RMB rkey, RMBE index, alert token, size code and RMB address
 */
void smc_conn_fill_clc(const struct smc_sock *smc,
		       struct smc_clc_accept_info *info)
{
	const struct smc_conn *conn = &smc->conn;
	const struct smc_buf *buf = conn->rmbe.buf;

	const struct smc_buf_map *m = &buf->map[smc_link_slot(conn->lnk)];

	info->rmb_rkey = m->rkey;
	info->rmbe_idx = conn->rmbe.idx + 1;
	info->rmbe_alert_token = conn->token;
	info->rmbe_size_code = buf->cls;
	info->rmb_vaddr = m->dma;
}

/*
 * The peer's RMB named in its Accept or Confirm, in the RToken set: known
 * from its CONFIRM RKEY (3.5.5.2.1), else - the first contact's RMB - it
 * is added here for the connection's link. Held until smc_conn_end(): the
 * peer's DELETE RKEY meanwhile takes its RTokens, the entry goes with the
 * last connection that holds it. Writes use the rkey and address taken
 * here from CLC.
 */
static int smc_conn_peer_rtoken(struct smc_conn *conn,
				const struct smc_clc_accept_info *peer)
{
	struct smc_link_group *lgr = conn->lgr;
	struct smc_rtoken_spec rt = {
		.slot	= smc_link_slot(conn->lnk),
		.rkey	= peer->rmb_rkey,
		.vaddr	= peer->rmb_vaddr,
	};
	int idx;

	spin_lock_bh(&lgr->rtok_lock);
	idx = smc_rtoken_confirm(lgr->rtok, &rt, 1);
	if (idx >= 0)
		smc_rtoken_hold(lgr->rtok, idx);
	spin_unlock_bh(&lgr->rtok_lock);
	if (idx < 0)		/* another address for a known rkey, or full */
		return -EPROTO;
	conn->peer_rtok = idx;
	return 0;
}

/**
 * smc_conn_peer() - the peer's RMBE, from its Accept or Confirm
 * @smc: socket after smc_conn_create()
 * @peer: the peer's message
 *
 * The send buffer is sized as TCP's by our socket (half of SO_SNDBUF if
 * the application set it, else net.smc.wmem), and never larger than the
 * peer's RMBE, which it could not fill: what the peer announces bounds our
 * memory only downwards.
 *
 * Return: 0, -EPROTO if the peer's RMBE is unusable (index 0, a size
 * beyond the classes smcr knows, an RMB that contradicts its RToken set
 * or finds it full), or -ENOMEM.
 */
int smc_conn_peer(struct smc_sock *smc,
		  const struct smc_clc_accept_info *peer)
{
	struct smc_conn *conn = &smc->conn;
	u32 size = smc_clc_rmbe_size(peer->rmbe_size_code);
	u8 cls = smc_buf_class(smc->sk.sk_userlocks & SOCK_SNDBUF_LOCK ?
			       READ_ONCE(smc->sk.sk_sndbuf) / 2 :
			       smc_tun(sock_net(&smc->sk), SMC_TUN_wmem));
	int rc;

	if (!peer->rmbe_idx || peer->rmbe_size_code >= SMC_BUF_CLASSES ||
	    !size)
		return -EPROTO;
	cls = min(cls, peer->rmbe_size_code);
	rc = smc_conn_peer_rtoken(conn, peer);
	if (rc)
		return rc;
	rc = smc_buf_get(conn->lgr, false, cls, smc->sk.sk_memcg,
			 &conn->sndbuf);
	if (rc)
		return rc;
	smc_ring_init(&conn->sb_ring, conn->sndbuf.buf->elem_size, false);
	/* a client on subsequent contact may send before the server got
	 * here: smc_cdc_rx() reads the ring under the lock, and so does
	 * smc_close_rmbe_conflict() the peer's element
	 */
	spin_lock_bh(&conn->lock);
	conn->peer_token = peer->rmbe_alert_token;
	conn->peer_rkey = peer->rmb_rkey;
	conn->peer_off = (u64)(peer->rmbe_idx - 1) * size;
	conn->peer_addr = peer->rmb_vaddr + conn->peer_off;
	smc_conn_tx_format(conn, size);
	spin_unlock_bh(&conn->lock);
	smc_close_rmbe_conflict(smc);
	return 0;
}

/*
 * Buffer statistics as Linux keeps them: an element taken into use is an
 * allocation (a new buffer) or a reuse and adds its size to the usage
 * gauge; its release subtracts it.
 */
static void smc_conn_stats_buf(struct smc_sock *smc,
			       const struct smc_buf_elem *e, bool tx, bool use)
{
	enum smc_stats_buf_ev ev = !use ? SMC_STATS_BUF_FREE :
				   e->fresh ? SMC_STATS_BUF_ALLOC :
				   SMC_STATS_BUF_REUSE;

	if (e->buf)
		smc_stats_buf(sock_net(&smc->sk), tx, ev, e->buf->elem_size);
}

/**
 * smc_conn_activate() - the connection moves its data over SMC-R now
 * @smc: socket at the end of a successful CLC exchange
 * @server: our role
 *
 * Until now the connection was its handshake's: the end of its link group
 * did not abort it (smc_close_lgr_gone()), the handshake learns of it here.
 *
 * Return: true, or false if the link group ended meanwhile (the caller
 * resets the connection).
 */
bool smc_conn_activate(struct smc_sock *smc, bool server)
{
	struct smc_conn *conn = &smc->conn;
	bool gone;

	spin_lock_bh(&conn->lock);
	gone = conn->lgr_gone;
	if (!gone)
		conn->active = true;
	spin_unlock_bh(&conn->lock);
	if (gone)
		return false;
	smc_stats_hs_done(sock_net(&smc->sk), server, 1);
	smc_conn_stats_buf(smc, &conn->rmbe, false, true);
	smc_conn_stats_buf(smc, &conn->sndbuf, true, true);
	conn->stats_buf = true;
	return true;
}

/**
 * smc_conn_end() - give everything back: the connection no longer exists
 *	on the wire
 * @smc: the socket, socket lock held (or never visible to the peer)
 */
void smc_conn_end(struct smc_sock *smc)
{
	struct smc_conn *conn = &smc->conn;
	struct smc_link_group *lgr = conn->lgr;

	if (!lgr)
		return;
	smc_keepalive_stop(smc);
	if (cancel_delayed_work(&conn->close_work))
		sock_put(&smc->sk);	/* the timer's reference */
	xa_erase_bh(&lgr->conns_xa, conn->token);
	/*
	 * A CDC message that found the connection before the erase may still
	 * be in smc_cdc_rx(): it touches the elements only under conn->lock
	 * and while conn->lgr is set, so they go back after this.
	 */
	spin_lock_bh(&conn->lock);
	conn->lgr = NULL;
	spin_unlock_bh(&conn->lock);
	if (conn->stats_buf) {
		smc_conn_stats_buf(smc, &conn->rmbe, false, false);
		smc_conn_stats_buf(smc, &conn->sndbuf, true, false);
	}
	smc_buf_put(lgr, &conn->rmbe);
	smc_buf_put(lgr, &conn->sndbuf);
	if (conn->peer_rtok >= 0) {
		spin_lock_bh(&lgr->rtok_lock);
		smc_rtoken_release(lgr->rtok, conn->peer_rtok);
		spin_unlock_bh(&lgr->rtok_lock);
		conn->peer_rtok = -1;
	}
	smc_conn_link_count(conn->lnk, -1);
	smc_lgr_conn_put(lgr);
	sock_put(&smc->sk);		/* the table's reference */
}

/**
 * smc_conn_discard() - undo smc_conn_create() of a connection that never
 *	went into use (the handshake failed or fell back)
 * @smc: the socket
 */
void smc_conn_discard(struct smc_sock *smc)
{
	smc_conn_end(smc);
}
