// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: deleting one link of a link group (RFC 7609 3.5.5.1.3-4, A.3.4),
 * which goes on over its other links.
 *
 * A link is lost when it fails (a work request error, an unanswered TEST
 * LINK: smc_link_down()) or its device goes (smc_lgr_event_dev_removed()).
 * If the link group has another active link, the link alone goes:
 *
 *   - the link is quiesced (smc_link_quiesce(): nothing of it completes
 *     afterwards), and its connections fail over to the other link
 *     (failover.c: each resends what the peer may lack, 4.6). A
 *     connection then writes with the peer's RToken of its RMB on that
 *     link (from CONFIRM RKEY or ADD LINK CONTINUATION). A link group
 *     with a connection that cannot move (in its handshake, or without
 *     that RToken) ends;
 *   - the server tells the client with DELETE LINK (the link's number,
 *     orderly when its device was removed, else "lost path") and waits for
 *     the reply; a client tells the server with a DELETE LINK request of
 *     its own, and the server answers with its exchange (3.5.5.1.4);
 *   - the link is torn down, the peer's RTokens on it are forgotten, and
 *     the link group is single again.
 *
 * The client takes the server's DELETE LINK of one link in its LLC work:
 * it moves the connections, tears the link down and replies. Both sides
 * run this as a flow (3.5.5.3: no other configuration change meanwhile).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "core.h"
#include "failover.h"
#include "lgr.h"
#include "link.h"
#include "llc_del_link.h"
#include "llc_engine.h"
#include "llc_link.h"
#include "smcr.h"

/* Tear a deleted link down; the link group goes on */
static void smc_llc_link_remove(struct smc_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;
	u8 link_id = lnk->link_id;

	smc_link_teardown(lnk);
	spin_lock_bh(&lgr->rtok_lock);
	smc_rtoken_clear_slot(lgr->rtok, smc_link_slot(lnk));
	spin_unlock_bh(&lgr->rtok_lock);
	spin_lock_bh(&lgr->lock);
	lgr->type = smc_llc_link_active_count(lgr) ? SMC_LGR_SINGLE :
						     SMC_LGR_NONE;
	spin_unlock_bh(&lgr->lock);
	pr_info("link group %u (%s): link %u deleted\n", lgr->id,
		lgr->server ? "server" : "client", link_id);
}

/*
 * Our part of deleting @lnk, which is down, in a flow of ours: its
 * connections go to another active link. False if the link group cannot
 * go on without it (it is then terminated).
 */
static bool smc_llc_del_link_prepare(struct smc_link *lnk,
				     struct smc_link **to)
{
	struct smc_link_group *lgr = lnk->lgr;

	*to = smc_llc_link_ref(lgr);
	if (!*to) {
		smc_lgr_terminate(lgr, true, "last link down");
		return false;
	}
	/* nothing of it completes afterwards: what the peer has is known */
	if (smc_link_quiesce(lnk)) {
		smc_lgr_terminate(lgr, true, "lost link did not flush");
		return false;
	}
	if (smc_failover_conns(lgr, lnk, *to) < 0) {
		smc_lgr_terminate(lgr, true,
				  "link down with a connection that cannot move");
		return false;
	}
	return true;
}

/* The DELETE LINK of @lnk (gone or going) that we send on @to */
static void smc_llc_del_link_fill(const struct smc_link *lnk,
				  struct smc_llc_msg_info *info)
{
	memset(info, 0, sizeof(*info));
	info->type = SMC_LLC_DELETE_LINK;
	info->delete_link.link_num = lnk->link_id;
	info->delete_link.orderly = lnk->del_orderly;
	info->delete_link.reason = lnk->del_orderly ? SMC_LLC_DEL_OP_INIT_TERM :
						      SMC_LLC_DEL_LOST_PATH;
}

/* Delete one lost link of ours (3.5.5.1.3 server, 3.5.5.1.4 client) */
static void smc_llc_del_link_one(struct smc_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_waiter w = {
		.type = SMC_LLC_DELETE_LINK, .response = true,
	};
	struct smc_llc_msg_info req;
	struct smc_link *to;
	int rc;

	if (!smc_llc_del_link_prepare(lnk, &to))
		return;
	smc_llc_del_link_fill(lnk, &req);
	if (!lgr->server) {
		/* a notification: the server answers with its own request */
		smc_llc_send(to, &req, true);
		smc_llc_link_remove(lnk);
		return;
	}
	rc = smc_llc_expect(lgr, &w);
	if (!rc) {
		rc = smc_llc_send(to, &req, true);
		if (rc)
			smc_llc_cancel(lgr, &w);
		else
			rc = smc_llc_wait(to, &w, NULL, NULL);
	}
	if (!rc && w.info.delete_link.link_num != lnk->link_id)
		rc = -EPROTO;	/* a stray reply */
	if (rc)		/* the client deletes it when it notices */
		pr_info("link group %u: no reply to DELETE LINK of link %u: %d\n",
			lgr->id, lnk->link_id, rc);
	smc_llc_link_remove(lnk);
}

/**
 * smc_llc_del_link_work() - delete the links of a link group that went
 *	down, if it goes on without them
 * @work: lgr->del_link_work
 */
void smc_llc_del_link_work(struct work_struct *work)
{
	struct smc_link_group *lgr = container_of(work, struct smc_link_group,
						  del_link_work);
	int i;

	smc_llc_flow_start(lgr, SMC_LLC_FLOW_DEL_LINK);
	for (i = 0; i < SMC_LGR_LINKS && !smc_lgr_terminating(lgr); i++) {
		struct smc_link *lnk = &lgr->lnk[i];

		if (lnk->sdev && lnk->confirmed &&
		    READ_ONCE(lnk->state) == SMC_LNK_INACTIVE)
			smc_llc_del_link_one(lnk);
	}
	smc_llc_flow_end(lgr);
}

/**
 * smc_llc_del_link_queue() - a confirmed link of @lgr went down
 * @lgr: the link group
 *
 * Return: true if the link group deletes the link and goes on (it has
 * another active link), false if it must end.
 */
bool smc_llc_del_link_queue(struct smc_link_group *lgr)
{
	bool goes_on;

	spin_lock_bh(&lgr->lock);
	/* the teardown cancels it once the link group is terminating */
	goes_on = !smc_lgr_terminating(lgr) && smc_llc_link_active_count(lgr);
	if (goes_on)
		queue_work(smc_lgr_wq, &lgr->del_link_work);
	spin_unlock_bh(&lgr->lock);
	return goes_on;
}

/**
 * smc_llc_del_link_rx() - the peer's DELETE LINK of one link
 * @lnk: the link it arrived on
 * @req: the request
 *
 * The server's request (client side): delete the link now and reply. The
 * client's (server side): it lost the link; take it down, which deletes
 * it with our exchange.
 *
 * Context: the LLC work; sleeps.
 */
void smc_llc_del_link_rx(struct smc_link *lnk,
			 const struct smc_llc_msg_info *req)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_msg_info resp = *req;
	struct smc_link *del = NULL, *to;
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (lgr->lnk[i].sdev && lgr->lnk[i].confirmed &&
		    lgr->lnk[i].link_id == req->delete_link.link_num)
			del = &lgr->lnk[i];
	if (lgr->server) {
		if (del)
			smc_link_down(del);
		return;
	}
	if (del) {
		smc_link_down(del);
		smc_llc_flow_join(lgr, SMC_LLC_FLOW_DEL_LINK);
		if (READ_ONCE(del->state) == SMC_LNK_INACTIVE && del->sdev) {
			if (!smc_llc_del_link_prepare(del, &to)) {
				smc_llc_flow_end(lgr);
				return;
			}
			smc_llc_link_remove(del);
		}
		smc_llc_flow_end(lgr);
	}
	/* also for a link we deleted already: the server waits for it */
	to = smc_llc_link_ref(lgr);
	resp.response = true;
	if (to)
		smc_llc_send(to, &resp, true);
}
