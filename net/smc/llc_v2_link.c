// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: adding a link to an SMC-R version 2 link group - the long LLC
 * messages of the ADD LINK flow (llc_link.c runs the flow itself).
 *
 * A version 2 ADD LINK, request and reply, carries the sender's RKey pairs
 * of every RMB the peer knows (llc_v2.c), where version 1 exchanges ADD
 * LINK CONTINUATIONs after it (RFC 7609 A.3.3):
 *
 *   server                                   client
 *   ADD LINK + pairs of its RMBs         ->   takes the pairs, new QP, RTR
 *                                      <-   ADD LINK reply + pairs of its
 *                                             RMBs (or a reject, 44 bytes)
 *   takes the pairs, RTR, RTS
 *   CONFIRM LINK, on the new link        ->   ...as in version 1
 *
 * Once the message passed the checks of its type, the receive path takes
 * the pairs out of it (smc_llc_v2_link_rx()) and keeps them for the flow
 * (smc_llc_v2_link_keep()); the message itself goes on in its version 1
 * form (44 bytes) to the waiting flow, which takes the pairs when it has
 * the message (smc_llc_v2_link_take_pairs()). One ADD LINK flow runs at a
 * time (3.5.5.3), so one set is kept; a newer ADD LINK replaces it, and
 * the flow takes it only if it names the flow's link and direction.
 *
 * A client asks a server for a link with a REQ ADD LINK (Linux sends one
 * when it has a new RoCE port or lost a link). The server answers with an
 * ADD LINK flow, or - when none comes of it - with a REQ ADD LINK reply:
 * Linux's client starts nothing else until one of them came. A routed
 * link group has one link (hs_v2.c), so it answers with the reply.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "core.h"
#include "llc_link.h"
#include "llc_v2_link.h"
#include "smcr.h"
#include "wr.h"

/**
 * struct smc_llc_v2_pairs - the RKey pairs of one received ADD LINK
 * @link_num: the link the ADD LINK adds
 * @response: it was the client's reply
 * @n: pairs in @pairs
 * @pairs: per RMB of the sender, its RKey on the link the message came
 *	on and its RKey and address on the new link
 */
struct smc_llc_v2_pairs {
	u8				link_num;
	bool				response;
	u16				n;
	struct smc_llc_rkey_pair_info	pairs[SMC_LLC_V2_RKEYS_MAX];
};

/**
 * smc_llc_v2_link_keep() - keep an ADD LINK's pairs for the flow
 * @lgr: the link group
 * @p: from smc_llc_v2_link_rx() for an ADD LINK that passed the checks of its
 *	type, or NULL for one without pairs: forget what was kept
 *
 * Context: any; does not sleep.
 */
void smc_llc_v2_link_keep(struct smc_link_group *lgr,
			  struct smc_llc_v2_pairs *p)
{
	spin_lock_bh(&lgr->llc_rx_lock);
	swap(lgr->llc_v2_pairs, p);
	spin_unlock_bh(&lgr->llc_rx_lock);
	kfree(p);
}

/*
 * The pairs of an ADD LINK longer than 44 bytes. An extension that does
 * not parse drops the whole message: the flow it belongs to times out, as
 * with a message lost. Return: false to drop.
 */
static bool smc_llc_v2_rx_add_link(struct smc_link *lnk, const u8 *msg,
				   size_t len, struct smc_llc_v2_pairs **pairs)
{
	const struct smc_llc_add_link *al = (const void *)msg;
	struct smc_llc_v2_pairs *p;
	int n;

	p = kmalloc(sizeof(*p), GFP_ATOMIC);
	if (!p)
		return false;		/* as if lost */
	n = smc_llc_v2_add_link_rkeys(msg, len, p->pairs);
	if (n < 0) {
		pr_info_ratelimited("link group %u: dropped an ADD LINK of %zu bytes with a malformed RKey extension\n",
				    lnk->lgr->id, len);
		kfree(p);
		return false;
	}
	p->link_num = al->link_num;
	p->response = al->hdr.flags & SMC_LLC_FLAG_RESP;
	p->n = n;
	*pairs = p;
	return true;
}

/*
 * The server's REQ ADD LINK reply on @lnk: no link came of the request.
 * Linux's client starts no other flow before it came: from the receive
 * path (@wait false) without a free send buffer, the ADD LINK work
 * answers instead.
 */
static int smc_llc_v2_req_reply(struct smc_link *lnk, bool wait)
{
	void *buf;
	int rc;

	rc = smc_wr_tx_get(lnk, wait, &buf);
	if (rc)
		return rc;
	smc_llc_v2_req_add_link_reply(buf);
	return smc_wr_tx_send(lnk, buf);
}

/* Take the mark of a REQ ADD LINK waiting for its answer */
static bool smc_llc_v2_req_take(struct smc_link_group *lgr)
{
	bool req;

	spin_lock_bh(&lgr->llc_rx_lock);
	req = lgr->llc_v2_req;
	lgr->llc_v2_req = false;
	spin_unlock_bh(&lgr->llc_rx_lock);
	return req;
}

/**
 * smc_llc_v2_link_req_add_link() - a client's REQ ADD LINK arrived
 * @lnk: the link it came on
 *
 * smc_llc_rx() took it through the type table: a request of the client,
 * on an ACTIVE link, its GIDs all there. On a link group whose first
 * contact is done the ADD LINK flow, if one may come of it, answers it;
 * else the REQ ADD LINK reply, at once: nothing is queued.
 *
 * Context: receive completion; does not sleep.
 */
void smc_llc_v2_link_req_add_link(struct smc_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;
	bool flow;

	if (READ_ONCE(lgr->state) == SMC_LGR_ST_PENDING) {
		pr_info_ratelimited("link group %u: dropped a REQ ADD LINK before the first contact is done\n",
				    lgr->id);
		return;
	}
	flow = READ_ONCE(lgr->max_links) > 1 && smc_llc_add_link_due(lgr);
	if (!flow && !smc_llc_v2_req_reply(lnk, false))
		return;
	spin_lock_bh(&lgr->llc_rx_lock);
	lgr->llc_v2_req = true;
	spin_unlock_bh(&lgr->llc_rx_lock);
	smc_llc_add_link_queue(lgr);
}

/**
 * smc_llc_v2_link_rx() - the RKey pairs of a version 2 ADD LINK
 * @lnk: the link it came on
 * @msg: the message, whose first 44 bytes passed the checks of its type
 *	(smc_llc_msg_parse_unwrapped(), smc_llc_msg_check_sender())
 * @len: its length
 * @pairs: set to its RKey pairs for smc_llc_v2_link_keep(); NULL for an
 *	ADD LINK of 44 bytes
 *
 * Context: receive completion; does not sleep.
 * Return: false to drop the message (a malformed extension; no memory).
 */
bool smc_llc_v2_link_rx(struct smc_link *lnk, const void *msg, size_t len,
			struct smc_llc_v2_pairs **pairs)
{
	*pairs = NULL;
	if (len > SMC_LLC_MSG_LEN)
		return smc_llc_v2_rx_add_link(lnk, msg, len, pairs);
	return true;
}

/**
 * smc_llc_v2_link_take_pairs() - take the peer's RKey pairs for a new link
 * @ref: the link its ADD LINK came on
 * @lnk: the new link, numbered
 * @response: from the client's reply (the server's flow); else from the
 *	server's request
 *
 * An ADD LINK without pairs (the peer knows none of our RMBs, or its
 * message had no extension) takes none.
 *
 * Return: 0, or -EPROTO if a pair contradicts the RToken set.
 */
int smc_llc_v2_link_take_pairs(struct smc_link *ref, struct smc_link *lnk,
			       bool response)
{
	struct smc_link_group *lgr = ref->lgr;
	struct smc_llc_v2_pairs *p;
	int rc = 0;

	spin_lock_bh(&lgr->llc_rx_lock);
	p = lgr->llc_v2_pairs;
	lgr->llc_v2_pairs = NULL;
	spin_unlock_bh(&lgr->llc_rx_lock);
	if (p && p->link_num == lnk->link_id && p->response == response)
		rc = smc_llc_add_link_pairs_take(ref, lnk, p->pairs, p->n);
	kfree(p);
	return rc;
}

/**
 * smc_llc_v2_link_send_add_link() - send a version 2 ADD LINK with our pairs
 * @ref: the link that carries it
 * @lnk: the new link, its buffers mapped
 * @info: the ADD LINK, request or reply
 *
 * Context: the ADD LINK flow; sleeps.
 * Return: 0 or a negative errno.
 */
int smc_llc_v2_link_send_add_link(struct smc_link *ref, struct smc_link *lnk,
				  const struct smc_llc_msg_info *info)
{
	struct smc_link_group *lgr = ref->lgr;
	struct smc_llc_rkey_pair_info *pairs;
	struct smc_buf **rmbs;
	void *buf;
	int rc, len;
	u8 n;

	rmbs = smc_llc_add_link_known_rmbs(lgr, &n);
	pairs = kcalloc(SMC_LLC_V2_RKEYS_MAX, sizeof(*pairs), GFP_KERNEL);
	rc = -ENOMEM;
	if (!rmbs || !pairs)
		goto out;
	smc_llc_add_link_pairs_fill(ref, lnk, rmbs, n, pairs);
	rc = smc_wr_tx_get_long(ref, &buf);
	if (rc)
		goto out;
	rc = smc_llc_msg_build(buf, info);
	if (!rc)
		rc = smc_llc_v2_wrap(buf);
	len = rc ? rc : smc_llc_v2_add_link_ext_build(buf, lgr->v2.direct,
						      pairs, n);
	if (len < 0) {
		smc_wr_tx_put(ref, buf);
		rc = len;
		goto out;
	}
	rc = smc_wr_tx_send_long(ref, buf, len);
	if (!rc && lgr->server)		/* it answers a REQ ADD LINK */
		smc_llc_v2_req_take(lgr);
out:
	kfree(pairs);
	kfree(rmbs);
	return rc;
}

/**
 * smc_llc_v2_link_req_done() - the ADD LINK flow a REQ ADD LINK started ended
 * @lgr: the link group, of the server
 * @ref: a link to answer on, or NULL
 *
 * If the flow sent no ADD LINK (which answers the request, whatever
 * becomes of it), the REQ ADD LINK reply goes now.
 *
 * Context: the ADD LINK flow's end; sleeps.
 */
void smc_llc_v2_link_req_done(struct smc_link_group *lgr, struct smc_link *ref)
{
	if (smc_llc_v2_req_take(lgr) && ref)
		smc_llc_v2_req_reply(ref, true);
}

/**
 * smc_llc_v2_link_purge() - forget the pairs kept for a flow
 * @lgr: a link group whose LLC is stopped
 */
void smc_llc_v2_link_purge(struct smc_link_group *lgr)
{
	smc_llc_v2_link_keep(lgr, NULL);
}
