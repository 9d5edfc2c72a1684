// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the RKey exchanges of the LLC (RFC 7609 3.5.5.2, A.3.5 - A.3.7).
 *
 * Ours: a new RMB of an existing link group is announced with CONFIRM
 * RKEY before a CLC message names it (3.5.5.2.1, Figure 13: the server
 * before its Accept, the client before its Confirm), on the link the
 * connection uses: that link's RToken, and as the others those of the
 * other active links (at most two: smcr never announces a CONFIRM RKEY
 * CONTINUATION). A connection that finds a free element in an RMB the
 * peer knows needs no LLC exchange at all. The first contact's RMB needs
 * none either: the CLC messages carry its only RToken, that of the first
 * link; a link added later gets the RTokens of the RMBs the peer knows in
 * its ADD LINK CONTINUATIONs (llc_link.c).
 * A negative reply fails the connection's handshake (the server declines
 * in place of its Accept, the client in place of its Confirm, both with
 * ERR_RTOK); the RMB stays unconfirmed, so the next connection that takes
 * an element of it tries again (the C flag's "natural stimulus"). No
 * reply within llc_timeout_ms is a broken link, as for TEST LINK: the
 * link goes down, so the handshakes waiting for their own exchange fail
 * at once instead of waiting their turn for another timeout each. smcr
 * frees RMBs only with their link group, so it never sends DELETE RKEY.
 *
 * The peer's: its RTokens go into the link group's RToken set (struct
 * smc_rtoken_table) and the request is echoed with R, or with Z where
 * the table cannot take it: an RToken that contradicts a known one (an
 * rkey of the link with another address, 3.5.2.2-3), a link the link
 * group does not have, more RTokens than it has other links, a full
 * table. An identical repeat is confirmed again: Linux's smc.ko sends
 * CONFIRM RKEY on every subsequent contact, for old RMBs too. DELETE RKEY
 * deletes each named RMB; rkeys the link does not know are named in the
 * reply's error mask (A.3.7). Linux deletes its RMB when its own
 * connection ended, which may be before ours did: our connection goes on
 * with the rkey and address it took from CLC (it writes nothing more
 * after the peer's close anyway), and the table frees the entry when the
 * connection ends (smc_rtoken_release()).
 *
 * Both run on the LLC work, so one at a time; lgr->rtok_lock protects
 * the table against connections starting and ending, and against the
 * ADD LINK flow that runs meanwhile (llc_link.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "buf.h"
#include "core.h"
#include "link.h"
#include "llc_engine.h"
#include "llc_link.h"
#include "llc_rkey.h"

/* The slot of the active link with number @link_num, or -1 */
static int smc_llc_rkey_slot(struct smc_link_group *lgr, u8 link_num)
{
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (READ_ONCE(lgr->lnk[i].state) == SMC_LNK_ACTIVE &&
		    lgr->lnk[i].link_id == link_num)
			return i;
	return -1;
}

/*
 * The RTokens of a CONFIRM RKEY request arriving on @lnk as table specs:
 * the carrying link's first. Return: their number, or 0 if @lnk is not
 * active or they name a link the link group does not have active, or
 * more than its other links.
 */
static unsigned int smc_llc_rkey_specs(const struct smc_link *lnk,
				       const struct smc_llc_confirm_rkey_info *cr,
				       struct smc_rtoken_spec *spec)
{
	struct smc_link_group *lgr = lnk->lgr;
	unsigned int i;
	int slot;

	if (READ_ONCE(lnk->state) != SMC_LNK_ACTIVE ||
	    cr->num_tkns >= smc_llc_link_active_count(lgr) ||
	    cr->num_tkns > SMC_LLC_CONFIRM_RKEY_OTHERS)
		return 0;
	spec[0].slot = smc_link_slot(lnk);
	spec[0].rkey = cr->rkey;
	spec[0].vaddr = cr->vaddr;
	for (i = 0; i < cr->num_tkns; i++) {
		slot = smc_llc_rkey_slot(lgr, cr->others[i].link_num);
		if (slot < 0)
			return 0;
		spec[i + 1].slot = slot;
		spec[i + 1].rkey = cr->others[i].rkey;
		spec[i + 1].vaddr = cr->others[i].vaddr;
	}
	return cr->num_tkns + 1;
}

/**
 * smc_llc_rkey_names_active() - does the peer's CONFIRM RKEY name only
 *	links active here?
 * @lnk: the link it arrived on
 * @req: the request
 *
 * During our ADD LINK flow a client that is done with its part has the
 * new link active and names it, before our end of the flow has made it
 * active: such a request waits for the flow's end (collision table:
 * PROCESS_KNOWN). Any context; the answer may change right after.
 *
 * Return: true if it came on an active link and every link it names is
 * active, within the link group's count.
 */
bool smc_llc_rkey_names_active(const struct smc_link *lnk,
			       const struct smc_llc_msg_info *req)
{
	struct smc_rtoken_spec spec[SMC_LGR_LINKS];

	return smc_llc_rkey_specs(lnk, &req->confirm_rkey, spec) != 0;
}

/*
 * Our reply waits for a free send buffer: with every buffer taken by CDC
 * messages of busy connections it would be lost, and a peer whose
 * exchange goes unanswered takes the link down (as smcr does). The wait
 * is bounded (smc_wr_tx_get()) and holds up only this link group's LLC
 * work.
 */
static void smc_llc_rkey_reply(struct smc_link *lnk,
			       const struct smc_llc_msg_info *resp)
{
	int rc = smc_llc_send(lnk, resp, true);

	if (rc)
		pr_info_ratelimited("link group %u: no reply to the peer's %s: %d\n",
				    lnk->lgr->id,
				    resp->type == SMC_LLC_CONFIRM_RKEY ?
				    "CONFIRM RKEY" : "DELETE RKEY", rc);
}

/**
 * smc_llc_rkey_rx_confirm() - the peer's CONFIRM RKEY request
 * @lnk: the link it arrived on
 * @req: the request
 *
 * Context: the link group's LLC work.
 */
void smc_llc_rkey_rx_confirm(struct smc_link *lnk,
			     const struct smc_llc_msg_info *req)
{
	struct smc_rtoken_spec spec[SMC_LGR_LINKS];
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_msg_info resp = *req;
	unsigned int n;
	int idx = -EINVAL;

	n = smc_llc_rkey_specs(lnk, &req->confirm_rkey, spec);
	if (n) {
		spin_lock_bh(&lgr->rtok_lock);
		idx = smc_rtoken_confirm(lgr->rtok, spec, n);
		spin_unlock_bh(&lgr->rtok_lock);
	}
	if (idx < 0) {
		pr_info_ratelimited("link group %u: the peer's CONFIRM RKEY (rkey %#x, %u other links) refused: %d\n",
				    lgr->id, req->confirm_rkey.rkey,
				    req->confirm_rkey.num_tkns, idx);
		resp.confirm_rkey.negative = true;
	}
	resp.response = true;
	resp.confirm_rkey.retry = false;
	smc_llc_rkey_reply(lnk, &resp);
}

/**
 * smc_llc_rkey_rx_delete() - the peer's DELETE RKEY request
 * @lnk: the link it arrived on
 * @req: the request; its rkeys are those of @lnk
 *
 * Context: the link group's LLC work.
 */
void smc_llc_rkey_rx_delete(struct smc_link *lnk,
			    const struct smc_llc_msg_info *req)
{
	const struct smc_llc_delete_rkey_info *dr = &req->delete_rkey;
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_msg_info resp = *req;
	u8 slot = smc_link_slot(lnk), err = 0;
	unsigned int i;

	spin_lock_bh(&lgr->rtok_lock);
	for (i = 0; i < dr->count; i++)
		if (smc_rtoken_delete(lgr->rtok, slot, dr->rkeys[i]))
			err |= 0x80 >> i;	/* A.3.7: first RKey, high bit */
	spin_unlock_bh(&lgr->rtok_lock);
	if (err)
		pr_info_ratelimited("link group %u: the peer's DELETE RKEY of %u rkeys: error mask %#x (unknown rkeys)\n",
				    lgr->id, dr->count, err);
	resp.response = true;
	resp.delete_rkey.negative = err;
	resp.delete_rkey.err_mask = err;
	smc_llc_rkey_reply(lnk, &resp);
}

/**
 * smc_llc_rkey_rx_busy() - the peer's CONFIRM RKEY while a link is being
 *	deleted: a negative reply with C, retry when that is done
 *	(3.5.5.3.2: redone with the RKey set of the links left)
 * @lnk: the link it arrived on
 * @req: the request
 *
 * Context: the link group's LLC work.
 */
void smc_llc_rkey_rx_busy(struct smc_link *lnk,
			  const struct smc_llc_msg_info *req)
{
	struct smc_llc_msg_info resp = *req;

	resp.response = true;
	resp.confirm_rkey.negative = true;
	resp.confirm_rkey.retry = true;
	smc_llc_rkey_reply(lnk, &resp);
}

/*
 * Our CONFIRM RKEY for @buf on @lnk: its RToken there, and those of the
 * other active links as the others (A.3.5). The flow mutex held, no link
 * comes or goes meanwhile.
 */
static void smc_llc_rkey_fill(struct smc_link *lnk, const struct smc_buf *buf,
			      struct smc_llc_confirm_rkey_info *cr)
{
	struct smc_link_group *lgr = lnk->lgr;
	u8 slot = smc_link_slot(lnk);
	int i;

	cr->rkey = buf->map[slot].rkey;
	cr->vaddr = buf->map[slot].dma;
	for (i = 0; i < SMC_LGR_LINKS; i++) {
		const struct smc_buf_map *m = &buf->map[i];
		struct smc_llc_rtoken_info *rt;

		if (i == slot || cr->num_tkns == SMC_LLC_CONFIRM_RKEY_OTHERS ||
		    READ_ONCE(lgr->lnk[i].state) != SMC_LNK_ACTIVE ||
		    !m->registered)
			continue;
		rt = &cr->others[cr->num_tkns++];
		rt->link_num = lgr->lnk[i].link_id;
		rt->rkey = m->rkey;
		rt->vaddr = m->dma;
	}
}

/* Our CONFIRM RKEY exchange for @buf on @lnk, in a flow of ours */
static int smc_llc_rkey_exchange(struct smc_link *lnk, struct smc_buf *buf)
{
	struct smc_llc_waiter w = {
		.type = SMC_LLC_CONFIRM_RKEY, .response = true,
	};
	struct smc_llc_msg_info req = { .type = SMC_LLC_CONFIRM_RKEY };
	const struct smc_llc_confirm_rkey_info *r = &w.info.confirm_rkey;
	int rc;

	/* on the links added since the handshake registered it */
	rc = smc_buf_register(lnk, buf);
	if (rc)
		return rc;
	smc_llc_rkey_fill(lnk, buf, &req.confirm_rkey);
	rc = smc_llc_expect(lnk->lgr, &w);
	if (rc)
		return rc;
	rc = smc_llc_send(lnk, &req, true);
	if (rc) {
		smc_llc_cancel(lnk->lgr, &w);
		return rc;
	}
	rc = smc_llc_wait(lnk, &w, NULL, NULL);
	if (rc == -ETIMEDOUT)
		smc_link_down(lnk);	/* a peer that answers no LLC */
	if (rc)
		return rc;
	if (r->negative)
		return r->retry ? -EAGAIN : -EREMOTEIO;
	/* the echo of another request is no reply to ours */
	if (r->rkey != req.confirm_rkey.rkey ||
	    r->vaddr != req.confirm_rkey.vaddr ||
	    r->num_tkns != req.confirm_rkey.num_tkns)
		return -EPROTO;
	return 0;
}

/* Pause before our CONFIRM RKEY again, after a C, unless a flow ends */
#define SMC_LLC_RKEY_RETRY_MS	50

/**
 * smc_llc_rkey_confirm() - make sure the peer knows an RMB's RTokens
 *	before a CLC message names it (RFC 7609 3.5.5.2.1)
 * @lnk: the link of the connection that uses the RMB, ACTIVE
 * @buf: the RMB, registered
 *
 * Runs our CONFIRM RKEY exchange unless the RMB is confirmed already; a
 * connection that takes an element of a confirmed RMB sends nothing. A
 * negative reply with C (the peer adds or deletes a link, 3.5.5.3.1-2) is
 * retried once that flow is done, with the RTokens of the links then,
 * for at most llc_timeout_ms.
 *
 * Context: process; sleeps (at most llc_timeout_ms for each reply, plus
 * the wait for another exchange of ours, which takes as long at most: a
 * timeout takes the link down, and for one of the peer's that our LLC
 * work joins, smc_llc_flow_start()).
 * Return: 0; -EREMOTEIO if the peer refused it; -EPROTO for a reply that
 * does not echo the request; -ETIMEDOUT (the link is down then), -ENOLINK
 * or another negative errno if the exchange failed.
 */
int smc_llc_rkey_confirm(struct smc_link *lnk, struct smc_buf *buf)
{
	unsigned long deadline = jiffies +
		msecs_to_jiffies(READ_ONCE(smc_llc_timeout_ms));
	struct smc_link_group *lgr = lnk->lgr;
	u32 seen = 0;
	int rc = 0;

	if (READ_ONCE(buf->confirmed))
		return 0;	/* no wait behind another exchange */
	for (;;) {
		rc = 0;	/* confirmed by another handshake meanwhile */
		smc_llc_flow_start(lgr, SMC_LLC_FLOW_RKEY);
		if (!buf->confirmed) {
			seen = READ_ONCE(lgr->llc_link_flows);
			rc = smc_llc_rkey_exchange(lnk, buf);
			if (!rc)
				WRITE_ONCE(buf->confirmed, true);
		}
		smc_llc_flow_end(lgr);
		if (rc != -EAGAIN || time_after(jiffies, deadline))
			break;
		/* we join the peer's flow in the LLC work; it ends there
		 * (or on the peer's side a little later)
		 */
		wait_event_timeout(lgr->wait,
				   READ_ONCE(lgr->llc_link_flows) != seen ||
				   smc_lgr_terminating(lgr),
				   msecs_to_jiffies(SMC_LLC_RKEY_RETRY_MS));
	}
	if (rc == -EAGAIN)
		rc = -EREMOTEIO;
	if (rc)
		pr_info_ratelimited("link group %u: CONFIRM RKEY of rkey %#x failed: %d\n",
				    lgr->id, buf->map[smc_link_slot(lnk)].rkey,
				    rc);
	return rc;
}

/**
 * smc_llc_rkey_announced() - the first contact's CLC message told the
 *	peer an RMB's only RToken
 * @lgr: the link group, of one link
 * @buf: the RMB
 *
 * Context: process; sleeps.
 */
void smc_llc_rkey_announced(struct smc_link_group *lgr, struct smc_buf *buf)
{
	mutex_lock(&lgr->llc_flow_mutex);
	WRITE_ONCE(buf->confirmed, true);
	mutex_unlock(&lgr->llc_flow_mutex);
}
