// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: adding a link to a link group (RFC 7609 2.2, 3.5.1.6, 3.5.5.1),
 * and choosing the link a new connection uses.
 *
 * After the first contact the server adds a link when both sides allow
 * more than one (smcr_max_links_per_lgr, CONFIRM LINK's max links) and it
 * has another active RoCE port (smc_ib_find_alt_port()). The exchange, as
 * a flow of both sides (3.5.5.3: nothing else changes the link group's
 * configuration meanwhile):
 *
 *   server                                   client
 *   new QP (INIT), buffers mapped on it
 *   ADD LINK (its GID, MAC, QP, PSN, MTU,   ->
 *     the new link's number), on the          port that reaches the
 *     existing link                            server's GID, new QP, RTR
 *                                      <-   ADD LINK reply (its values), or
 *                                             a reject: no alternate path
 *   RTR, RTS; RMBs registered on it
 *   ADD LINK CONTINUATION: per RMB the   ->
 *     rkey on the existing link, the rkey
 *     and address on the new one (A.3.3)
 *                                      <-   ADD LINK CONTINUATION reply,
 *                                             the same of the client's RMBs
 *   (continued while either has RMBs left, two per message)
 *   CONFIRM LINK, on the new link        ->   RTS, RMBs registered on it
 *                                      <-   CONFIRM LINK reply, new link
 *   the link is ACTIVE on both sides; the link group's type follows
 *
 * The RMBs named in the continuations are those the peer knows already
 * (confirmed). The client's CONFIRM RKEY exchange that crossed the
 * server's ADD LINK ends first (the server confirms it, llc_msg.c), so
 * its RMB is among them; one of ours refused with C meanwhile (by
 * another server) names the new link when it is redone (llc_rkey.c).
 * Every buffer is mapped on the new link before its QP can carry
 * anything, and every RMB registered on it before its CONFIRM LINK: no
 * write of the peer finds an rkey that is not valid yet.
 *
 * A failure on either side tears the new link down and leaves the link
 * group as it was: the side that waits in vain gives up after
 * llc_timeout_ms. A client's own ADD LINK (a hint, 3.5.5.1.2) starts the
 * server's flow when the link group has fewer active links than it may
 * have and no flow failed in the last SMC_LLC_ADD_LINK_BACKOFF_MS
 * (smc_llc_add_link_due()); else the server ignores it.
 *
 * When a RoCE device comes (back), servers offer their link groups a new
 * link, and clients hint at it with an ADD LINK request (3.5.5.1.2):
 * smc_llc_add_link_offer().
 *
 * New connections: the server gives each the active link with the fewest
 * connections; its Accept names that link's QP, which the client looks up
 * (smc_llc_link_find()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/slab.h>

#include "buf.h"
#include "core.h"
#include "lgr.h"
#include "link.h"
#include "llc_engine.h"
#include "llc_link.h"
#include "llc_v2_link.h"
#include "smcr.h"
#include "test_hooks.h"

/* After a failed ADD LINK flow, the client's hints wait this long */
#define SMC_LLC_ADD_LINK_BACKOFF_MS	1000

/* RMBs whose RTokens a continuation exchange carries at most */
#define SMC_LLC_ADD_LINK_RKEYS_MAX	255

/**
 * smc_llc_link_active_count() - how many links of a link group are ACTIVE
 * @lgr: the link group
 *
 * Return: the count.
 */
u8 smc_llc_link_active_count(struct smc_link_group *lgr)
{
	u8 n = 0;
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		n += READ_ONCE(lgr->lnk[i].state) == SMC_LNK_ACTIVE;
	return n;
}

/**
 * smc_llc_link_pick() - the link a new connection of the server uses
 * @lgr: the link group, counted for the connection
 *
 * Context: takes lgr->lock.
 * Return: the active link with the fewest connections, or NULL if none is
 * active.
 */
struct smc_link *smc_llc_link_pick(struct smc_link_group *lgr)
{
	struct smc_link *best = NULL;
	int i;

	spin_lock_bh(&lgr->lock);
	for (i = 0; i < SMC_LGR_LINKS; i++) {
		struct smc_link *lnk = &lgr->lnk[i];

		if (READ_ONCE(lnk->state) != SMC_LNK_ACTIVE)
			continue;
		if (!best || lnk->conns < best->conns)
			best = lnk;
	}
	spin_unlock_bh(&lgr->lock);
	return best;
}

/**
 * smc_llc_link_find() - the active link to the peer's QP @peer_qpn at
 *	@peer_gid
 * @lgr: the link group
 * @peer_gid: the GID the server's Accept names
 * @peer_qpn: and its QP (QP numbers are per device: links on two devices
 *	may have the same)
 *
 * Return: the link, or NULL.
 */
struct smc_link *smc_llc_link_find(struct smc_link_group *lgr,
				   const u8 *peer_gid, u32 peer_qpn)
{
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++) {
		struct smc_link *lnk = &lgr->lnk[i];

		/* the peer's values are set before the link turns ACTIVE */
		if (smp_load_acquire(&lnk->state) == SMC_LNK_ACTIVE &&
		    lnk->peer.qpn == peer_qpn &&
		    !memcmp(lnk->peer.gid, peer_gid, SMC_GID_LEN))
			return lnk;
	}
	return NULL;
}

/**
 * smc_llc_link_ref() - an active link of a link group, for a flow's
 *	messages
 * @lgr: the link group
 *
 * Return: the first active link, or NULL.
 */
struct smc_link *smc_llc_link_ref(struct smc_link_group *lgr)
{
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (READ_ONCE(lgr->lnk[i].state) == SMC_LNK_ACTIVE)
			return &lgr->lnk[i];
	return NULL;
}

/* A free link slot, or NULL */
static struct smc_link *smc_llc_free_slot(struct smc_link_group *lgr)
{
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (!lgr->lnk[i].sdev && !lgr->lnk[i].leaked &&
		    READ_ONCE(lgr->lnk[i].state) == SMC_LNK_UNUSED)
			return &lgr->lnk[i];
	return NULL;
}

/**
 * smc_llc_link_num_used() - does a link of a link group have this number?
 * @lgr: the link group
 * @link_num: the number
 * @except: a link not to count, or NULL
 *
 * Return: true if a link of @lgr other than @except (set up, or being set
 * up or torn down) has number @link_num.
 */
bool smc_llc_link_num_used(struct smc_link_group *lgr, u8 link_num,
			   const struct smc_link *except)
{
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (&lgr->lnk[i] != except && lgr->lnk[i].sdev &&
		    lgr->lnk[i].link_id == link_num)
			return true;
	return false;
}

/* The server numbers links: the lowest number no other link has */
static u8 smc_llc_next_link_num(struct smc_link_group *lgr,
				const struct smc_link *lnk)
{
	u8 used[SMC_LGR_LINKS];
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		used[i] = &lgr->lnk[i] != lnk && lgr->lnk[i].sdev ?
			  lgr->lnk[i].link_id : 0;
	return smc_llc_msg_link_num_next(used, SMC_LGR_LINKS);
}

static void smc_lgr_set_type(struct smc_link_group *lgr, u8 type)
{
	spin_lock_bh(&lgr->lock);
	lgr->type = type;
	spin_unlock_bh(&lgr->lock);
}

/* 2.2.2: the type a link group with @ref and the new @lnk has */
static u8 smc_llc_new_type(const struct smc_link *ref,
			   const struct smc_link *lnk)
{
	return smc_llc_msg_lgr_type(ref->sdev == lnk->sdev &&
				    ref->port == lnk->port,
				    !memcmp(ref->peer.gid, lnk->peer.gid,
					    SMC_GID_LEN));
}

static void smc_llc_add_link_fill(const struct smc_link *lnk,
				  struct smc_llc_msg_info *info, bool response)
{
	struct smc_llc_add_link_info *al = &info->add_link;

	memset(info, 0, sizeof(*info));
	info->type = SMC_LLC_ADD_LINK;
	info->response = response;
	memcpy(al->mac, lnk->local.mac, SMC_MAC_LEN);
	memcpy(al->gid, lnk->local.gid, SMC_GID_LEN);
	al->qpn = lnk->local.qpn;
	al->link_num = lnk->link_id;
	al->mtu = lnk->local.mtu;
	al->psn = lnk->local.psn;
}

/* Can the peer's end of a new link, from its ADD LINK, be used? */
static bool smc_llc_add_link_valid(const struct smc_llc_add_link_info *al)
{
	return al->mtu >= IB_MTU_256 && al->mtu <= IB_MTU_4096 && al->qpn &&
	       al->link_num;
}

/* The peer's end of the new link, from its ADD LINK; -EPROTO if unusable */
static int smc_llc_add_link_peer(struct smc_link *lnk,
				 const struct smc_llc_add_link_info *al)
{
	if (!smc_llc_add_link_valid(al))
		return -EPROTO;
	memcpy(lnk->peer.gid, al->gid, SMC_GID_LEN);
	memcpy(lnk->peer.mac, al->mac, SMC_MAC_LEN);
	lnk->peer.qpn = al->qpn;
	lnk->peer.psn = al->psn;
	lnk->peer.mtu = al->mtu;
	return 0;
}

/**
 * smc_llc_add_link_known_rmbs() - our RMBs the peer knows, for an ADD LINK flow
 * @lgr: the link group, whose ADD LINK flow we run or join
 * @n: set to their number
 *
 * Stable: RMBs are freed with the link group only, and the flow mutex
 * held keeps @confirmed as it is.
 *
 * Return: a NULL-terminated array (the caller frees it), or NULL: no
 * memory, or more than the exchange carries (the peer's RToken set takes
 * no more anyway).
 */
struct smc_buf **smc_llc_add_link_known_rmbs(struct smc_link_group *lgr, u8 *n)
{
	struct smc_buf **rmbs, *buf;
	bool over = false;
	int cls;

	*n = 0;
	rmbs = kcalloc(SMC_LLC_ADD_LINK_RKEYS_MAX + 1, sizeof(*rmbs),
		       GFP_KERNEL);
	if (!rmbs)
		return NULL;
	mutex_lock(&lgr->buf_lock);
	for (cls = 0; cls < SMC_BUF_CLASSES; cls++)
		list_for_each_entry(buf, &lgr->bufs[true][cls], list) {
			if (!READ_ONCE(buf->confirmed))
				continue;
			if (*n == SMC_LLC_ADD_LINK_RKEYS_MAX)
				over = true;
			else
				rmbs[(*n)++] = buf;
		}
	mutex_unlock(&lgr->buf_lock);
	if (over) {
		pr_info("link group %u: too many RMBs for a new link\n",
			lgr->id);
		kfree(rmbs);
		rmbs = NULL;
	}
	return rmbs;
}

/**
 * smc_llc_add_link_pairs_fill() - the RKey pairs of some of our RMBs
 * @ref: the link that carries them
 * @lnk: the new link
 * @rmbs: from smc_llc_add_link_known_rmbs()
 * @k: how many, from the first of @rmbs
 * @pairs: filled with @k pairs (A.3.3): the RKey on @ref, the RKey and
 *	address on @lnk
 */
void smc_llc_add_link_pairs_fill(struct smc_link *ref, struct smc_link *lnk,
				 struct smc_buf **rmbs, unsigned int k,
				 struct smc_llc_rkey_pair_info *pairs)
{
	u8 rs = smc_link_slot(ref), ns = smc_link_slot(lnk);
	unsigned int i;

	mutex_lock(&ref->lgr->buf_lock);
	for (i = 0; i < k; i++) {
		pairs[i].ref_rkey = rmbs[i]->map[rs].rkey;
		pairs[i].new_rkey = rmbs[i]->map[ns].rkey;
		pairs[i].new_vaddr = rmbs[i]->map[ns].dma;
	}
	mutex_unlock(&ref->lgr->buf_lock);
}

/**
 * smc_llc_add_link_pairs_take() - the peer's RKey pairs for a new link
 * @ref: the link they came on
 * @lnk: the new link
 * @pairs: the pairs
 * @k: how many
 *
 * Each names an RMB of the peer by its RKey on @ref; one we never learnt
 * is skipped (nothing of ours writes to it).
 *
 * Return: 0, or -EPROTO if a pair contradicts the RToken set.
 */
int smc_llc_add_link_pairs_take(struct smc_link *ref, struct smc_link *lnk,
				const struct smc_llc_rkey_pair_info *pairs,
				unsigned int k)
{
	struct smc_link_group *lgr = ref->lgr;
	unsigned int i;
	int rc = 0;

	spin_lock_bh(&lgr->rtok_lock);
	for (i = 0; i < k && !rc; i++) {
		struct smc_rtoken_spec rt = {
			.slot	= smc_link_slot(lnk),
			.rkey	= pairs[i].new_rkey,
			.vaddr	= pairs[i].new_vaddr,
		};

		rc = smc_rtoken_add_link(lgr->rtok, smc_link_slot(ref),
					 pairs[i].ref_rkey, &rt);
		if (rc >= 0 || rc == -ENOENT)
			rc = 0;
	}
	spin_unlock_bh(&lgr->rtok_lock);
	return rc ? -EPROTO : 0;
}

/* One continuation with the next (up to two) of @rmbs from *@pos */
static int smc_llc_add_link_cont_send(struct smc_link *ref,
				      struct smc_link *lnk,
				      struct smc_buf **rmbs, u8 n, u8 *pos)
{
	struct smc_llc_msg_info info = {
		.type		= SMC_LLC_ADD_LINK_CONT,
		.response	= !ref->lgr->server,
	};
	struct smc_llc_add_link_cont_info *c = &info.add_link_cont;
	unsigned int k = min_t(unsigned int, n - *pos,
			       SMC_LLC_ADD_LINK_CONT_PAIRS);

	c->link_num = lnk->link_id;
	c->num_rkeys = n - *pos;
	smc_llc_add_link_pairs_fill(ref, lnk, rmbs + *pos, k, c->pairs);
	*pos += k;
	return smc_llc_send(ref, &info, true);
}

/*
 * How many RMBs the peer's continuations can name: those we have an
 * RToken of on @ref, plus one per connection - Linux announces its count
 * of connections (each with an RMB of its own), of which a handshake may
 * not have told us the RMB yet. More is a lie that would keep the flow
 * going round after round.
 */
static unsigned int smc_llc_add_link_cont_max(struct smc_link *ref)
{
	struct smc_link_group *lgr = ref->lgr;
	unsigned int n;

	spin_lock_bh(&lgr->rtok_lock);
	n = smc_rtoken_count(lgr->rtok, smc_link_slot(ref));
	spin_unlock_bh(&lgr->rtok_lock);
	spin_lock_bh(&lgr->lock);
	n += lgr->conns;
	spin_unlock_bh(&lgr->lock);
	return n;
}

/*
 * The peer's pairs from one continuation; *@left: how many it has still
 * to send after these (-1 before its first). -EPROTO if the count is more
 * than it can have or grows, or a pair contradicts the RToken set.
 */
static int smc_llc_add_link_cont_take(struct smc_link *ref,
				      struct smc_link *lnk,
				      const struct smc_llc_add_link_cont_info *c,
				      int *left)
{
	u8 k = min_t(u8, c->num_rkeys, SMC_LLC_ADD_LINK_CONT_PAIRS);

	if (c->link_num != lnk->link_id ||
	    (*left >= 0 && c->num_rkeys > *left) ||
	    (*left < 0 && c->num_rkeys > smc_llc_add_link_cont_max(ref)))
		return -EPROTO;
	*left = c->num_rkeys - k;
	return smc_llc_add_link_pairs_take(ref, lnk, c->pairs, k);
}

/*
 * Server: the continuations of both sides, in rounds (A.3.3) - ours, then
 * the client's reply - while either side has RMBs left.
 */
static int smc_llc_add_link_rkeys_server(struct smc_link *ref,
					 struct smc_link *lnk)
{
	struct smc_link_group *lgr = ref->lgr;
	struct smc_llc_waiter w = {
		.type = SMC_LLC_ADD_LINK_CONT, .response = true,
	};
	int rc = 0, left = -1;
	struct smc_buf **rmbs;
	u8 n, pos = 0;

	rmbs = smc_llc_add_link_known_rmbs(lgr, &n);
	if (!rmbs)
		return -ENOMEM;
	do {
		rc = smc_llc_expect(lgr, &w);
		if (rc)
			break;
		rc = smc_llc_add_link_cont_send(ref, lnk, rmbs, n, &pos);
		if (rc) {
			smc_llc_cancel(lgr, &w);
			break;
		}
		rc = smc_llc_wait(ref, &w, NULL, NULL);
		if (!rc)
			rc = smc_llc_add_link_cont_take(ref, lnk,
							&w.info.add_link_cont,
							&left);
	} while (!rc && (pos < n || left > 0));
	kfree(rmbs);
	return rc;
}

/*
 * Client: the same rounds from the other end, @w registered for the
 * server's first continuation. Each reply goes out with the wait for what
 * comes next registered: another continuation, or at the end the
 * server's CONFIRM LINK on the new link (@w then waits for it).
 */
static int smc_llc_add_link_rkeys_client(struct smc_link *ref,
					 struct smc_link *lnk,
					 struct smc_llc_waiter *w)
{
	struct smc_link_group *lgr = ref->lgr;
	int rc = 0, left = -1;
	struct smc_buf **rmbs;
	u8 n, pos = 0;
	bool more;

	rmbs = smc_llc_add_link_known_rmbs(lgr, &n);
	if (!rmbs) {
		smc_llc_cancel(lgr, w);
		return -ENOMEM;
	}
	do {
		rc = smc_llc_wait(ref, w, NULL, NULL);
		if (!rc)
			rc = smc_llc_add_link_cont_take(ref, lnk,
							&w->info.add_link_cont,
							&left);
		if (rc)
			break;
		more = n - pos > SMC_LLC_ADD_LINK_CONT_PAIRS || left > 0;
		w->type = more ? SMC_LLC_ADD_LINK_CONT : SMC_LLC_CONFIRM_LINK;
		rc = smc_llc_expect(lgr, w);
		if (rc)
			break;
		rc = smc_llc_add_link_cont_send(ref, lnk, rmbs, n, &pos);
		if (rc)
			smc_llc_cancel(lgr, w);
	} while (!rc && more);
	kfree(rmbs);
	return rc;
}

/* Forget a new link that did not make it; the link group goes on */
static void smc_llc_add_link_undo(struct smc_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;

	smc_link_teardown(lnk);
	spin_lock_bh(&lgr->rtok_lock);
	smc_rtoken_clear_slot(lgr->rtok, smc_link_slot(lnk));
	spin_unlock_bh(&lgr->rtok_lock);
}

/*
 * Set up a new link on @pick's port with the link group's buffers mapped
 * on it. A device removal that ran meanwhile did not see the link: undo.
 */
static int smc_llc_add_link_init(struct smc_link *lnk,
				 const struct smc_ib_pick *pick)
{
	int rc = smc_link_init(lnk, pick);

	if (rc)
		return rc;
	rc = smc_ib_listed(pick->sdev) ? smc_buf_link_map(lnk) : -ENODEV;
	if (rc)
		smc_llc_add_link_undo(lnk);
	return rc;
}

/*
 * Server: a link the client accepted does not come up; tell it with
 * DELETE LINK (lost path), so it drops its end (the reply is not waited
 * for: the client answers it also for a link it dropped already).
 */
static void smc_llc_add_link_abandon(struct smc_link *ref,
				     struct smc_link *lnk)
{
	struct smc_llc_msg_info del = {
		.type = SMC_LLC_DELETE_LINK,
		.delete_link = {
			.link_num	= lnk->link_id,
			.reason		= SMC_LLC_DEL_LOST_PATH,
		},
	};

	smc_llc_send(ref, &del, true);
}

/* The new link is ACTIVE; the link group's type says how it is made up */
static int smc_llc_add_link_done(struct smc_link *ref, struct smc_link *lnk)
{
	int rc = smc_llc_activate_link(lnk);

	if (rc)
		return rc;
	smc_lgr_set_type(lnk->lgr, smc_llc_new_type(ref, lnk));
	pr_info("link group %u (%s): link %u added on %s port %u (%pI6)\n",
		lnk->lgr->id, lnk->lgr->server ? "server" : "client",
		lnk->link_id, dev_name(&lnk->sdev->ibdev->dev), lnk->port,
		lnk->local.gid);
	return 0;
}

/* Server: the ADD LINK flow for a new link on @pick's port */
static int smc_llc_add_link_server(struct smc_link *ref, struct smc_link *lnk,
				   const struct smc_ib_pick *pick)
{
	struct smc_link_group *lgr = ref->lgr;
	struct smc_llc_waiter w = {
		.type = SMC_LLC_ADD_LINK, .response = true,
	};
	bool v2 = lgr->key.version == SMC_CLC_V2;
	struct smc_llc_msg_info req;
	int rc;

	lnk->link_id = smc_llc_next_link_num(lgr, lnk);
	rc = smc_llc_add_link_init(lnk, pick);
	if (rc)
		return rc;
	rc = smc_llc_expect(lgr, &w);
	if (rc)
		goto undo;
	smc_llc_add_link_fill(lnk, &req, false);
	if (v2)
		rc = smc_llc_v2_link_send_add_link(ref, lnk, &req);
	else
		rc = smc_llc_send(ref, &req, true);
	if (rc) {
		smc_llc_cancel(lgr, &w);
		goto undo;
	}
	rc = smc_llc_wait(ref, &w, NULL, NULL);
	if (rc)
		goto undo;
	if (w.info.add_link.reject) {
		pr_info("link group %u: the client rejected link %u (reason %u)\n",
			lgr->id, lnk->link_id, w.info.add_link.reject_rsn);
		rc = -ENOLINK;
		goto undo;
	}
	rc = -EPROTO;
	if (w.info.add_link.link_num != lnk->link_id ||
	    smc_llc_add_link_peer(lnk, &w.info.add_link))
		goto undo;
	/*
	 * Is the client's end of the new link on @pick's LAN? A client with
	 * no second RNIC there answers with the RNIC of its first link (RFC
	 * 7609 3.5.1.6.1, an asymmetric link), which is on the first link's
	 * LAN and may not be on ours: Linux, for one, takes a second port
	 * only in the subnet of the connection's address. Such a link never
	 * comes up; the CONFIRM LINK exchange would hold the link group's
	 * LLC flow (and every handshake and RKey flow behind it) for
	 * llc_timeout_ms to find that out.
	 */
	if (!smc_ib_pick_reaches(smc_lgr_net(lgr), pick, lnk->peer.gid)) {
		pr_info("link group %u: the client's end of link %u (%pI6) is not on the LAN of %s port %u\n",
			lgr->id, lnk->link_id, lnk->peer.gid,
			dev_name(&pick->sdev->ibdev->dev), pick->port);
		rc = -ENETUNREACH;
		goto abandon;
	}
	/* version 2: the client's RKey pairs came with its reply */
	rc = v2 ? smc_llc_v2_link_take_pairs(ref, lnk, true) : 0;
	if (!rc)
		rc = smc_link_rtr(lnk);
	if (!rc)
		rc = smc_link_rts(lnk);
	if (!rc)
		rc = smc_buf_link_register(lnk);
	if (!rc && !v2)
		rc = smc_llc_add_link_rkeys_server(ref, lnk);
	if (!rc)
		rc = smc_llc_confirm_link_request(lnk);
	if (!rc)
		rc = smc_llc_add_link_done(ref, lnk);
	if (!rc)
		return 0;
abandon:
	/* the client took it, and may have it ACTIVE already */
	smc_llc_add_link_abandon(ref, lnk);
undo:
	smc_llc_add_link_undo(lnk);
	return rc;
}

/**
 * smc_llc_add_link_work() - the server adds a link to its link group
 * @work: lgr->add_link_work
 *
 * Runs the ADD LINK flow if the link group may have another link and we
 * have another active RoCE port; else, or if it fails, the link group
 * goes on as it is.
 */
void smc_llc_add_link_work(struct work_struct *work)
{
	struct smc_link_group *lgr = container_of(work, struct smc_link_group,
						  add_link_work);
	struct smc_link *ref, *lnk;
	struct smc_ib_pick pick;
	unsigned int hold;
	int rc = -ENOLINK;

	smc_llc_flow_start(lgr, SMC_LLC_FLOW_ADD_LINK);
	ref = smc_llc_link_ref(lgr);
	lnk = smc_llc_free_slot(lgr);
	if (!ref || !lnk || smc_lgr_terminating(lgr) ||
	    smc_llc_link_active_count(lgr) >= lgr->max_links)
		goto out;
	rc = smc_ib_find_alt_port(smc_lgr_net(lgr), ref->sdev, ref->port,
				  ref->roce_v2, NULL, &pick);
	if (rc)
		goto out;	/* one port: the link group stays single */
	hold = smc_test(add_link_hold_ms);
	if (unlikely(hold))
		msleep(hold);
	rc = smc_llc_add_link_server(ref, lnk, &pick);
	if (rc) {
		pr_info("link group %u: no second link: %d\n", lgr->id, rc);
		/* a client's hint does not make us try again at once */
		WRITE_ONCE(lgr->add_link_next,
			   jiffies + msecs_to_jiffies(SMC_LLC_ADD_LINK_BACKOFF_MS));
	}
out:
	/* a version 2 client that asked for a link hears of it either way */
	smc_llc_v2_link_req_done(lgr, ref);
	smc_llc_flow_end(lgr);
}

/**
 * smc_llc_add_link_due() - may a client's request start our ADD LINK flow?
 * @lgr: a link group of the server
 *
 * Not more often than the server tries on its own after a failure.
 *
 * Context: any; does not sleep.
 * Return: true if it has fewer active links than it may have, and no
 * failed flow makes it wait.
 */
bool smc_llc_add_link_due(struct smc_link_group *lgr)
{
	return smc_llc_link_active_count(lgr) < READ_ONCE(lgr->max_links) &&
	       time_after_eq(jiffies, READ_ONCE(lgr->add_link_next));
}

/**
 * smc_llc_add_link_offer() - a RoCE device came: offer more links
 * @lgr: a link group
 *
 * A server tries to add a link; a client hints the server at its new port
 * with an ADD LINK request (3.5.5.1.2), which the server answers with its
 * ADD LINK exchange.
 *
 * Context: process; does not sleep but for smc_ib_lock.
 */
void smc_llc_add_link_offer(struct smc_link_group *lgr)
{
	struct smc_llc_msg_info hint = { .type = SMC_LLC_ADD_LINK };
	struct smc_link *ref = smc_llc_link_ref(lgr);
	struct smc_ib_pick pick;

	if (!ref || smc_llc_link_active_count(lgr) >= lgr->max_links)
		return;
	if (lgr->server) {
		smc_llc_add_link_queue(lgr);
		return;
	}
	if (smc_ib_find_alt_port(smc_lgr_net(lgr), ref->sdev, ref->port,
				 ref->roce_v2, NULL, &pick))
		return;
	memcpy(hint.add_link.mac, pick.mac, SMC_MAC_LEN);
	memcpy(hint.add_link.gid, pick.gid, SMC_GID_LEN);
	hint.add_link.mtu = pick.mtu;
	smc_llc_send(ref, &hint, false);
}

/**
 * smc_llc_add_link_queue() - let the server try to add a link
 * @lgr: a link group whose first contact is done, of the server
 *
 * Context: any.
 */
void smc_llc_add_link_queue(struct smc_link_group *lgr)
{
	spin_lock_bh(&lgr->lock);
	/* the teardown cancels it once the link group is terminating */
	if (!smc_lgr_terminating(lgr) && lgr->max_links > 1)
		queue_work(smc_lgr_wq, &lgr->add_link_work);
	spin_unlock_bh(&lgr->lock);
}

/* TEST ONLY: -EIO test_add_link_fail_ms after the client's reply */
static int smc_llc_test_add_link_fail(void)
{
	unsigned int ms = smc_test(add_link_fail_ms);

	if (likely(!ms))
		return 0;
	msleep(ms);
	return -EIO;
}

/*
 * Client: the server's CONFIRM LINK on the new link, RTS, our reply. The
 * link is ACTIVE before the reply goes: the server may name it in an
 * Accept as soon as the reply arrives, and our handshakes must find it.
 * So a failure from then on may find connections on it: the link is lost
 * as any active one (smc_link_down(): its deletion moves them to the other
 * link or ends the link group), not undone by the flow.
 */
static int smc_llc_add_link_confirm_client(struct smc_link *ref,
					   struct smc_link *lnk,
					   struct smc_llc_waiter *w)
{
	struct smc_llc_msg_info resp;
	int rc;

	rc = smc_llc_wait(lnk, w, NULL, NULL);
	if (rc)
		return rc;
	if (w->info.confirm_link.link_num != lnk->link_id)
		return -EPROTO;
	rc = smc_llc_confirm_link_check(lnk, &w->info.confirm_link);
	if (!rc)
		rc = smc_link_rts(lnk);
	if (!rc)
		rc = smc_buf_link_register(lnk);
	if (!rc)
		rc = smc_llc_add_link_done(ref, lnk);
	if (rc)
		return rc;
	smc_llc_confirm_link_fill(lnk, &resp, true);
	rc = smc_llc_send(lnk, &resp, true);
	if (!rc)
		rc = smc_llc_test_add_link_fail();
	if (rc)
		smc_link_down(lnk);
	return rc;
}

/* Client: our part of the server's ADD LINK flow; 0 or why not */
static int smc_llc_add_link_join(struct smc_link *ref, struct smc_link *lnk,
				 const struct smc_llc_add_link_info *al,
				 u8 *rsn)
{
	struct smc_link_group *lgr = ref->lgr;
	bool v2 = lgr->key.version == SMC_CLC_V2;
	/* version 2: no continuations, the CONFIRM LINK comes next */
	struct smc_llc_waiter w = {
		.type = v2 ? SMC_LLC_CONFIRM_LINK : SMC_LLC_ADD_LINK_CONT,
		.response = false,
	};
	struct smc_llc_msg_info resp;
	struct smc_ib_pick pick;
	int rc;

	*rsn = SMC_LLC_REJ_RSN_NO_ALT_PATH;
	if (smc_llc_link_active_count(lgr) >= lgr->max_links ||
	    smc_llc_link_num_used(lgr, al->link_num, NULL))
		return -EBUSY;
	if (!smc_llc_add_link_valid(al)) {
		if (al->mtu < IB_MTU_256 || al->mtu > IB_MTU_4096)
			*rsn = SMC_LLC_REJ_RSN_INVALID_MTU;
		return -EPROTO;
	}
	rc = smc_ib_find_alt_port(smc_lgr_net(lgr), ref->sdev, ref->port,
				  ref->roce_v2, al->gid, &pick);
	if (rc)
		return rc;
	lnk->link_id = al->link_num;
	rc = smc_llc_add_link_init(lnk, &pick);
	if (rc)
		return rc;
	rc = smc_llc_add_link_peer(lnk, al);
	/* version 2: the server's RKey pairs came with its request */
	if (!rc && v2)
		rc = smc_llc_v2_link_take_pairs(ref, lnk, false);
	if (!rc)
		rc = smc_link_rtr(lnk);
	if (!rc)
		rc = smc_llc_expect(lgr, &w);
	if (rc)
		goto undo;
	smc_llc_add_link_fill(lnk, &resp, true);
	if (v2)
		rc = smc_llc_v2_link_send_add_link(ref, lnk, &resp);
	else
		rc = smc_llc_send(ref, &resp, true);
	if (rc) {
		smc_llc_cancel(lgr, &w);
		goto undo;
	}
	*rsn = 0;	/* accepted: from here a failure is a timeout there */
	rc = v2 ? 0 : smc_llc_add_link_rkeys_client(ref, lnk, &w);
	if (!rc)
		rc = smc_llc_add_link_confirm_client(ref, lnk, &w);
	/* a link that was ACTIVE goes as a lost one (llc_del_link.c) */
	if (!rc || lnk->confirmed)
		return rc;
undo:
	smc_llc_add_link_undo(lnk);
	return rc;
}

/**
 * smc_llc_add_link_client() - the server's ADD LINK request
 * @lnk: the link it came on
 * @req: the request
 *
 * Joins the server's flow with a port of ours that reaches the server's
 * new GID, or rejects it.
 *
 * Context: the LLC work; sleeps.
 */
void smc_llc_add_link_client(struct smc_link *lnk,
			     const struct smc_llc_msg_info *req)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_msg_info resp;
	struct smc_link *ref, *new;
	u8 rsn = SMC_LLC_REJ_RSN_NO_ALT_PATH;
	int rc = -ENOLINK;

	smc_llc_flow_join(lgr, SMC_LLC_FLOW_ADD_LINK);
	ref = READ_ONCE(lnk->state) == SMC_LNK_ACTIVE ? lnk : NULL;
	new = smc_llc_free_slot(lgr);
	if (ref && new)
		rc = smc_llc_add_link_join(ref, new, &req->add_link, &rsn);
	smc_llc_flow_end(lgr);
	if (!rc || !rsn) {
		if (rc)
			pr_info("link group %u: link %u not added: %d\n",
				lgr->id, req->add_link.link_num, rc);
		return;
	}
	resp = *req;
	resp.response = true;
	resp.add_link.reject = true;
	resp.add_link.reject_rsn = rsn;
	smc_llc_send(lnk, &resp, false);
}
