// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: failover - the connections of a lost link go on over another
 * link of their link group, and not one byte is lost (RFC 7609 2.3, 4.6).
 *
 * llc_del_link.c calls smc_failover_conns() when it deletes a link that
 * went down, before the DELETE LINK exchange (2.3: move the connections
 * first). By then the lost link is quiesced (smc_link_quiesce()): its
 * QP is in the error state and every WR of it completed and was handled,
 * so nothing of it moves a cursor or counts a completion any more, and
 * what the peer acknowledged is known: each connection's SS, the
 * sequence number and producer cursor of its last CDC message that
 * completed successfully (smc_cdc_tx_done()).
 *
 * Each connection of the lost link then, under its socket lock (so no
 * send of it is under way: sends hold it from taking a send buffer to the
 * post) and conn->lock:
 *
 *   - moves to the target link: conn->lnk and the peer's RMB address and
 *     rkey on it (the RToken from CONFIRM RKEY or ADD LINK);
 *   - sends the failover validation message with SS (4.6.1);
 *   - resends what the peer may lack and re-asserts its flags in one CDC
 *     message with a new sequence number (smc_tx_failover(), 4.6.2).
 *
 * Until then the connection's senders see no error: their bytes stay
 * staged (tx.c), a CDC message that could not go is owed (tx_owed) and
 * goes with the resend, and a closing connection waits for it before it
 * ends (smc_cdc_tx_settled()).
 *
 * A connection that is not established yet (its handshake named the lost
 * link) or whose peer RMB has no RToken on the target cannot move: the
 * caller then ends the link group, which resets every connection of it.
 * A target link that goes down during the move stops it; its own down
 * work finds no other link and ends the link group. A connection with
 * nothing to resend (aborted or Closed) gives up what the lost link did
 * not deliver, so that its end does not wait for it.
 *
 * Which SS: RFC 7609's, the last completed message's sequence number.
 * Linux's smc.ko sends one less (it records the number before the
 * increment); a receiver that compares as 4.6.1 says accepts both, and
 * smcr's own does (cdc.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/sock.h>
#include <smcr/cdc_wire.h>

#include "cdc.h"
#include "core.h"
#include "failover.h"
#include "smcr.h"
#include "tx.h"

/*
 * Why @conn cannot move to link slot @slot, or NULL; rtok_lock and
 * conn->lock held. (A send buffer held, tx_hold, is no reason: its holder
 * has the socket lock and lets go of it without a link.)
 */
static const char *smc_failover_blocker(struct smc_link_group *lgr,
					const struct smc_conn *conn, u8 slot)
{
	if (!conn->active)
		return "in its handshake";	/* CLC named the old link */
	if (conn->peer_rtok < 0 ||
	    !(lgr->rtok->tok[conn->peer_rtok].valid & BIT(slot)))
		return "no RToken of the peer's RMB there";
	return NULL;
}

/*
 * Is there anything to send after the move? Not once the connection is
 * over for us (our C or A reached the peer), for the peer (its A: its
 * RMBE may be given to another connection already), or Closed (also
 * after an RMBE conflict, close.c) - but for our C, held or owed when
 * the peer's C came (cdc.c): the peer waits for it, and a message with
 * the C alone writes nothing. conn->lock held.
 */
static bool smc_failover_resend(const struct smc_conn *conn)
{
	if (conn->peer_flags & SMC_CDC_CONN_ABORT)
		return false;
	if (READ_ONCE(conn->close_state) == SMC_CLOSE_CLOSED)
		return (conn->tx_owed_flags & SMC_CDC_CONN_CLOSED) &&
		       (conn->peer_flags & SMC_CDC_CONN_CLOSED);
	return !(conn->sent_flags &
		 (SMC_CDC_CONN_CLOSED | SMC_CDC_CONN_ABORT)) ||
	       !smc_cdc_tx_settled(conn);
}

/*
 * Nothing of @conn will be resent: what the lost link did not deliver
 * is given up, so that the connection's end does not wait for it
 * (smc_cdc_tx_settled()). conn->lock held. Return: its end waits.
 */
static bool smc_failover_settle(struct smc_conn *conn)
{
	conn->tx_owed = false;
	conn->tx_owed_flags = 0;
	conn->tx_acked_seq = conn->tx_seq;
	return conn->end_pending;
}

/*
 * Move one connection of @from to @to and resend. Return: 1 if it moved,
 * 0 if it was not on @from (any more), -EBUSY if it cannot move,
 * -ENOLINK if it moved but @to went down in its resend.
 */
static int smc_failover_one(struct smc_link_group *lgr, struct smc_sock *smc,
			    struct smc_link *from, struct smc_link *to)
{
	struct smc_conn *conn = &smc->conn;
	u8 slot = smc_link_slot(to);
	const struct smc_rtoken *rt;
	bool resend = false, end = false;
	const char *why;
	bool on_from;
	int rc = 0;

	/* only its own link's: another's handshake may hold its lock long */
	spin_lock_bh(&conn->lock);
	on_from = conn->lnk == from;
	spin_unlock_bh(&conn->lock);
	if (!on_from)
		return 0;
	lock_sock(&smc->sk);
	spin_lock_bh(&lgr->rtok_lock);
	spin_lock(&conn->lock);
	if (conn->lgr != lgr || conn->lnk != from)
		goto unlock;
	why = smc_failover_blocker(lgr, conn, slot);
	if (!why && WARN_ON_ONCE(conn->tx_hold))	/* sends hold our lock */
		why = "sending";
	if (why) {
		pr_info_ratelimited("link group %u: connection %u cannot move to link %u: %s\n",
				    lgr->id, conn->token, to->link_id, why);
		rc = -EBUSY;
		goto unlock;
	}
	rt = &lgr->rtok->tok[conn->peer_rtok];
	conn->lnk = to;
	conn->peer_rkey = rt->rkey[slot];
	conn->peer_addr = rt->vaddr[slot] + conn->peer_off;
	resend = smc_failover_resend(conn);
	if (!resend)
		end = smc_failover_settle(conn);
	rc = 1;
unlock:
	spin_unlock(&conn->lock);
	spin_unlock_bh(&lgr->rtok_lock);
	if (rc == 1) {
		spin_lock_bh(&lgr->lock);
		from->conns--;
		to->conns++;
		spin_unlock_bh(&lgr->lock);
	}
	/* an error here is @to's: its down work ends the link group */
	if (resend && smc_tx_failover(smc))
		rc = -ENOLINK;
	release_sock(&smc->sk);
	if (end)
		smc_cdc_upd_queue(smc);	/* close.c ends it now */
	return rc;
}

/**
 * smc_failover_conns() - move every connection of a lost link to another
 *	link and resend what the peer may lack (RFC 7609 4.6)
 * @lgr: the link group
 * @from: its link that went down, quiesced (smc_link_quiesce())
 * @to: an ACTIVE link of it
 *
 * Context: process, in an LLC flow of @lgr (no other configuration change
 * meanwhile); takes the connections' socket locks, one at a time.
 * Return: the number of connections moved, or -EBUSY if one cannot move
 * (the caller ends the link group).
 */
int smc_failover_conns(struct smc_link_group *lgr, struct smc_link *from,
		       struct smc_link *to)
{
	unsigned long token;
	const char *why = NULL;
	struct smc_sock *smc;
	int rc, n = 0;

	/* first without socket locks: a handshake may hold one for long */
	spin_lock_bh(&lgr->rtok_lock);
	xa_lock(&lgr->conns_xa);
	xa_for_each(&lgr->conns_xa, token, smc) {
		spin_lock(&smc->conn.lock);
		why = smc->conn.lnk == from ?
		      smc_failover_blocker(lgr, &smc->conn,
					   smc_link_slot(to)) : NULL;
		spin_unlock(&smc->conn.lock);
		if (why)
			break;
	}
	xa_unlock(&lgr->conns_xa);
	spin_unlock_bh(&lgr->rtok_lock);
	if (why) {
		pr_info_ratelimited("link group %u: connection %lu cannot move to link %u: %s\n",
				    lgr->id, token, to->link_id, why);
		return -EBUSY;
	}
	for (token = 0;;) {
		xa_lock_bh(&lgr->conns_xa);
		smc = xa_find(&lgr->conns_xa, &token, ULONG_MAX, XA_PRESENT);
		if (smc)
			sock_hold(&smc->sk);
		xa_unlock_bh(&lgr->conns_xa);
		if (!smc)
			return n;
		rc = smc_failover_one(lgr, smc, from, to);
		sock_put(&smc->sk);
		/* @to down too: its down work ends the link group */
		if (rc == -ENOLINK)
			return n + 1;
		if (rc < 0)
			return rc;
		n += rc;
		if (token == ULONG_MAX)
			return n;
		token++;
	}
}
