// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the LLC engine (RFC 7609 3.5.5, 4.5.3) - sends and receives LLC
 * messages on a link and runs the exchanges built from them.
 *
 * Receiving (smc_llc_rx(), completion context, does not sleep):
 *   - a message that fails to parse, or that its sender may not send in
 *     the link's state (smc_llc_msg_check_sender()), is dropped;
 *   - TEST LINK requests are answered on the spot (they never collide,
 *     3.5.5.3), TEST LINK replies end the keepalive probe; so is a
 *     version 2 REQ ADD LINK (llc_v2_link.c);
 *   - a message a handshake waits for (CONFIRM LINK) goes to its waiter;
 *   - every other request is queued for the link group's ordered LLC
 *     workqueue, which handles them one at a time. Before handling one it
 *     consults the collision table (smc_llc_msg_collision_lookup()) with the
 *     flow of ours in progress (lgr->llc_flow): a request the table queues
 *     waits on lgr->llc_later until smc_llc_flow_end(), the others go on.
 *
 * Flows: first contact's CONFIRM LINK (server sends the request, client
 * replies, 3.5.1.5; the link group is pending, nobody else uses it),
 * adding a link (llc_link.c), the RKey exchanges (llc_rkey.c) and the
 * link group's end (DELETE LINK all). A CONFIRM RKEY CONTINUATION is
 * dropped: smcr takes no CONFIRM RKEY that announces one (at most three
 * links). A client's ADD LINK is no request but a hint that gets no reply
 * (3.5.5.1.2): the server tries to add a link if it may have another.
 * DELETE LINK of one link deletes it (llc_del_link.c), or ends the link
 * group if it was the only one.
 *
 * Keepalive (4.5.3): when nothing arrived on an active link for
 * keepalive_ms, a TEST LINK request goes out; without its reply within
 * llc_timeout_ms the link is down.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/slab.h>

#include "buf.h"
#include "conn.h"
#include "core.h"
#include "lgr.h"
#include "link.h"
#include "llc_del_link.h"
#include "llc_engine.h"
#include "llc_link.h"
#include "llc_rkey.h"
#include "llc_v2_link.h"
#include "smcr.h"
#include "test_hooks.h"
#include "wr.h"

static void smc_llc_test_delay(void)
{
	unsigned int delay = smc_test(llc_work_delay_ms);

	if (unlikely(delay))
		msleep(delay);
}

/*
 * Requests queued for the LLC work, at most. A peer runs one flow at a
 * time and waits for each reply (3.5.5.3; TEST LINK is answered on the
 * spot, never queued), so an honest one has a few at most: more is a
 * flood, dropped - the flooder's requests time out on its side.
 */
#define SMC_LLC_RX_MAX		16

/*
 * An exchange of ours waits llc_timeout_ms at most for each answer, and
 * this many times that in all: the longest (adding a link) waits for the
 * ADD LINK reply, the continuations and CONFIRM LINK, and an honest
 * peer's continuations come round trip after round trip. A peer that
 * answers each just in time holds the flow mutex (and a worker, and the
 * handshakes waiting for it) no longer than that.
 */
#define SMC_LLC_FLOW_WAITS	3

/**
 * struct smc_llc_qentry - a received request waiting for the LLC work
 * @list: entry on lgr->llc_rx
 * @lnk: the link it arrived on
 * @link_id: @lnk's number then: a slot the link left may hold another
 *	link by the time the request is handled
 * @info: the decoded message
 */
struct smc_llc_qentry {
	struct list_head	list;
	struct smc_link		*lnk;
	u8			link_id;
	struct smc_llc_msg_info	info;
};

/**
 * smc_llc_send() - build and send one LLC message on a link
 * @lnk: an ACTIVATING or ACTIVE link
 * @info: the message
 * @wait: may sleep for a free send buffer
 *
 * Return: 0 or a negative errno (see smc_wr_tx_get() and
 * smc_wr_tx_send(); -EINVAL if @info cannot be encoded).
 */
int smc_llc_send(struct smc_link *lnk, const struct smc_llc_msg_info *info,
		 bool wait)
{
	void *buf;
	int rc;

	rc = smc_wr_tx_get(lnk, wait, &buf);
	if (rc)
		return rc;
	rc = smc_llc_msg_build(buf, info);
	if (!rc && lnk->lgr->key.version == SMC_CLC_V2)
		rc = smc_llc_v2_wrap(buf);
	if (rc) {
		smc_wr_tx_put(lnk, buf);
		return rc;
	}
	return smc_wr_tx_send(lnk, buf);
}

/* Hand @info to the waiting handshake if it waits for it. */
static bool smc_llc_to_waiter(struct smc_link_group *lgr,
			      const struct smc_llc_msg_info *info)
{
	struct smc_llc_waiter *w;
	bool taken = false;

	spin_lock_bh(&lgr->lock);
	w = lgr->waiter;
	if (w && !w->done && w->type == info->type &&
	    w->response == info->response) {
		w->info = *info;
		w->done = true;
		taken = true;
	}
	spin_unlock_bh(&lgr->lock);
	if (taken)
		wake_up_all(&lgr->wait);
	return taken;
}

static void smc_llc_answer_test_link(struct smc_link *lnk,
				     const struct smc_llc_msg_info *req)
{
	struct smc_llc_msg_info resp = *req;

	if (smc_test(ignore_test_link))
		return;
	resp.response = true;
	/* no free send buffer: the peer's probe times out and it retries */
	smc_llc_send(lnk, &resp, false);
}

static void smc_llc_enqueue(struct smc_link *lnk,
			    const struct smc_llc_msg_info *info)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_qentry *qe;
	bool full;

	qe = kmalloc(sizeof(*qe), GFP_ATOMIC);
	if (!qe)
		return;		/* as if lost: the peer's request times out */
	qe->lnk = lnk;
	qe->link_id = READ_ONCE(lnk->link_id);
	qe->info = *info;
	spin_lock_bh(&lgr->llc_rx_lock);
	full = lgr->llc_rx_len >= SMC_LLC_RX_MAX;
	if (!full && !lgr->llc_stopped) {
		list_add_tail(&qe->list, &lgr->llc_rx);
		lgr->llc_rx_len++;
		queue_work(lgr->llc_wq, &lgr->llc_work);
		qe = NULL;
	}
	spin_unlock_bh(&lgr->llc_rx_lock);
	if (full)
		pr_info_ratelimited("link group %u: LLC request queue full, dropped type %#x from the peer\n",
				    lgr->id, info->type);
	kfree(qe);	/* not queued: as if lost */
}

/**
 * smc_llc_rx() - an LLC message arrived on a link
 * @lnk: the link
 * @msg: the received bytes
 * @len: their number
 *
 * Context: receive completion (workqueue); does not sleep.
 */
void smc_llc_rx(struct smc_link *lnk, const void *msg, size_t len)
{
	struct smc_link_group *lgr = lnk->lgr;
	int state = READ_ONCE(lnk->state);
	struct smc_llc_v2_pairs *pairs;
	struct smc_llc_msg_info info;
	u8 v1[SMC_LLC_MSG_LEN];

	if (state != SMC_LNK_ACTIVATING && state != SMC_LNK_ACTIVE)
		return;
	if (lgr->key.version == SMC_CLC_V2) {	/* llc_v2*.c */
		if (smc_llc_v2_unwrap(msg, len, v1) ||
		    smc_llc_msg_parse_unwrapped(v1, sizeof(v1), &info))
			return;
	} else if (smc_llc_msg_parse(msg, len, &info)) {
		return;		/* malformed, optional or unsupported */
	}
	if (smc_llc_msg_check_sender(&info, !lgr->server,
				     state == SMC_LNK_ACTIVE ?
				     SMC_LLC_LINK_ACTIVE :
				     SMC_LLC_LINK_ACTIVATING)) {
		pr_info_ratelimited("link group %u: dropped LLC type %#x%s from the peer\n",
				    lgr->id, info.type,
				    info.response ? " reply" : "");
		return;
	}
	/* an ADD LINK's pairs for its flow; one without: none */
	if (lgr->key.version == SMC_CLC_V2 && info.type == SMC_LLC_ADD_LINK) {
		if (!smc_llc_v2_link_rx(lnk, msg, len, &pairs))
			return;
		smc_llc_v2_link_keep(lgr, pairs);
	}
	if (info.type == SMC_LLC_REQ_ADD_LINK && !info.response) {
		smc_llc_v2_link_req_add_link(lnk);	/* version 2 only */
		return;
	}
	if (info.type == SMC_LLC_TEST_LINK) {
		if (info.response)
			WRITE_ONCE(lnk->test_pending, false);
		else
			smc_llc_answer_test_link(lnk, &info);
		return;
	}
	if (smc_llc_to_waiter(lgr, &info))
		return;
	if (!info.response)
		smc_llc_enqueue(lnk, &info);
	/* a reply nobody waits for (any more) is dropped */
}

/*
 * 3.5.5.1.2: a client's ADD LINK request tells the server that the client
 * has a new RNIC; the server answers with an ADD LINK exchange of its own
 * or not at all, and the client waits for no reply. With the negotiated
 * maximum of links in use the server "must ignore" it.
 */
static void smc_llc_add_link_hint(struct smc_link *lnk,
				  const struct smc_llc_msg_info *req)
{
	struct smc_link_group *lgr = lnk->lgr;

	if (smc_llc_add_link_due(lgr)) {
		smc_llc_add_link_queue(lgr);
		return;
	}
	pr_info_ratelimited("link group %u: the client's ADD LINK (GID %pI6) ignored: it has its links\n",
			    lgr->id, req->add_link.gid);
}

/* Has @lgr an active link other than number @link_num? */
static bool smc_llc_other_active(struct smc_link_group *lgr, u8 link_num)
{
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (READ_ONCE(lgr->lnk[i].state) == SMC_LNK_ACTIVE &&
		    lgr->lnk[i].link_id != link_num)
			return true;
	return false;
}

static void smc_llc_delete_link(struct smc_link *lnk,
				const struct smc_llc_msg_info *req)
{
	struct smc_llc_msg_info resp = *req;

	if (!req->delete_link.all &&
	    !smc_llc_link_num_used(lnk->lgr, req->delete_link.link_num,
				   NULL)) {
		pr_info_ratelimited("link group %u: DELETE LINK of link %u, which it does not have%s\n",
				    lnk->lgr->id, req->delete_link.link_num,
				    lnk->lgr->server ? ": ignored" : "");
		/* a client that deleted it already: the server waits - also
		 * behind busy connections' CDC messages for a send buffer
		 */
		if (!lnk->lgr->server) {
			resp.response = true;
			smc_llc_send(lnk, &resp, true);
		}
		return;
	}
	if (!req->delete_link.all &&
	    smc_llc_other_active(lnk->lgr, req->delete_link.link_num)) {
		smc_llc_del_link_rx(lnk, req);	/* the others go on */
		return;
	}
	if (!req->delete_link.all) {
		/* our only link: reply, then end it all */
		resp.response = true;
		smc_llc_send(lnk, &resp, true);
	}
	smc_lgr_terminate(lnk->lgr, false, "peer sent DELETE LINK");
}

/*
 * Handle one request of the peer, as the collision table says for the
 * flow of ours in progress. Return: false if it waits until that flow is
 * complete: it is on lgr->llc_later then, and smc_llc_flow_end() puts it
 * back and runs the work again. It joins llc_later in the decision's
 * critical section (llc_rx_lock inside lgr->lock): a flow's end, which
 * clears llc_flow under lgr->lock before it puts llc_later back, then
 * finds it there, behind the ones held before it.
 */
static bool smc_llc_handle(struct smc_llc_qentry *qe)
{
	const struct smc_llc_msg_info *info = &qe->info;
	struct smc_link *lnk = qe->lnk;
	struct smc_link_group *lgr = lnk->lgr;
	const struct smc_llc_collision *col;
	u8 action;
	int ev;

	ev = smc_llc_msg_event_of(info, !lgr->server);
	if (ev < 0)
		return true;	/* a continuation of no flow of ours */
	spin_lock_bh(&lgr->lock);
	col = smc_llc_msg_collision_lookup(lgr->llc_flow, ev);
	/* every flow's row is complete (KUnit: llc_collision_complete) */
	if (WARN_ON_ONCE(!col)) {
		spin_unlock_bh(&lgr->lock);
		smc_lgr_terminate(lgr, false,
				  "LLC collision table has no cell for a request");
		return true;
	}
	action = col->action;
	if (action == SMC_LLC_ACT_PROCESS_KNOWN)
		action = smc_llc_rkey_names_active(lnk, info) ?
			 SMC_LLC_ACT_PROCESS : SMC_LLC_ACT_QUEUE;
	if (action == SMC_LLC_ACT_QUEUE) {
		lgr->llc_held = true;
		spin_lock(&lgr->llc_rx_lock);
		list_add_tail(&qe->list, &lgr->llc_later);
		lgr->llc_rx_len++;
		spin_unlock(&lgr->llc_rx_lock);
	}
	spin_unlock_bh(&lgr->lock);
	switch (action) {
	case SMC_LLC_ACT_QUEUE:
		return false;
	case SMC_LLC_ACT_IGNORE:
		return true;
	case SMC_LLC_ACT_REJECT:
		if (info->type == SMC_LLC_CONFIRM_RKEY)
			smc_llc_rkey_rx_busy(lnk, info);
		return true;
	case SMC_LLC_ACT_TERMINATE:
		smc_lgr_terminate(lgr, false,
				  info->type == SMC_LLC_DELETE_LINK ?
				  "peer sent DELETE LINK" : "LLC collision");
		return true;
	default:	/* PROCESS, REPLY; YIELD: the peer answers ours */
		break;
	}
	if (ev == SMC_LLC_EV_ADD_LINK_CLNT)
		smc_llc_add_link_hint(lnk, info);
	else if (ev == SMC_LLC_EV_ADD_LINK_SERV)
		smc_llc_add_link_client(lnk, info);
	else if (info->type == SMC_LLC_DELETE_LINK)
		smc_llc_delete_link(lnk, info);
	else if (info->type == SMC_LLC_CONFIRM_RKEY)
		smc_llc_rkey_rx_confirm(lnk, info);
	else if (info->type == SMC_LLC_DELETE_RKEY)
		smc_llc_rkey_rx_delete(lnk, info);
	/* else a CONFIRM LINK nobody waits for: no reply defined */
	return true;
}

/*
 * A request that waited while its link went down or was deleted (its
 * slot may hold a new link by now): link requests (ADD LINK, DELETE LINK
 * name their links) are handled on an active link; RKey requests, whose
 * RTokens are the gone link's, are dropped as if lost. False if dropped.
 */
static bool smc_llc_link_alive(struct smc_llc_qentry *qe)
{
	struct smc_link_group *lgr = qe->lnk->lgr;
	struct smc_link *ref;
	int state = READ_ONCE(qe->lnk->state);

	if ((state == SMC_LNK_ACTIVE || state == SMC_LNK_ACTIVATING) &&
	    READ_ONCE(qe->lnk->link_id) == qe->link_id)
		return true;
	ref = smc_llc_link_ref(lgr);
	if (ref && (qe->info.type == SMC_LLC_ADD_LINK ||
		    qe->info.type == SMC_LLC_DELETE_LINK)) {
		qe->lnk = ref;
		return true;
	}
	pr_info_ratelimited("link group %u: %s request of a link that is gone: dropped\n",
			    lgr->id, smc_llc_msg_type_desc(qe->info.type)->name);
	return false;
}

/**
 * smc_llc_work() - handle the queued requests of a link group, in order
 * @work: lgr->llc_work
 */
void smc_llc_work(struct work_struct *work)
{
	struct smc_link_group *lgr = container_of(work, struct smc_link_group,
						  llc_work);
	struct smc_llc_qentry *qe;

	for (;;) {
		smc_llc_test_delay();
		spin_lock_bh(&lgr->llc_rx_lock);
		/* the teardown stopped us: its purge frees what is left */
		qe = lgr->llc_stopped ? NULL :
		     list_first_entry_or_null(&lgr->llc_rx,
					      struct smc_llc_qentry, list);
		if (qe) {
			list_del(&qe->list);
			lgr->llc_rx_len--;
		}
		spin_unlock_bh(&lgr->llc_rx_lock);
		if (!qe)
			return;
		if (!smc_llc_link_alive(qe)) {
			kfree(qe);
			continue;
		}
		/* held for our flow (on llc_later): the ones behind go on */
		if (smc_llc_handle(qe))
			kfree(qe);
	}
}

/* The flow mutex is ours: @flow runs; the peer's requests meet it */
static void smc_llc_flow_set(struct smc_link_group *lgr,
			     enum smc_llc_flow flow)
{
	unsigned long budget = msecs_to_jiffies(SMC_LLC_FLOW_WAITS *
						READ_ONCE(smc_llc_timeout_ms));

	spin_lock_bh(&lgr->lock);
	lgr->llc_flow = flow;
	lgr->llc_flow_deadline = jiffies + budget;
	spin_unlock_bh(&lgr->lock);
}

/**
 * smc_llc_flow_start() - start an exchange of ours that changes the link
 *	group's configuration (RFC 7609 3.5.5.3: one at a time)
 * @lgr: the link group
 * @flow: enum smc_llc_flow of the exchange
 *
 * Waits for one of ours in progress to end, and lets a join of a flow of
 * the peer's that waits for the mutex go first (smc_llc_flow_join()):
 * once, so that a peer starting flows without end delays ours by one of
 * them each, not for ever. The peer's requests meet @flow in the
 * collision table until smc_llc_flow_end().
 *
 * Context: process; sleeps.
 */
void smc_llc_flow_start(struct smc_link_group *lgr, enum smc_llc_flow flow)
{
	u32 seen;

	mutex_lock(&lgr->llc_flow_mutex);
	if (READ_ONCE(lgr->llc_joining) && !smc_lgr_terminating(lgr)) {
		/* under the mutex: that join has not counted itself yet */
		seen = READ_ONCE(lgr->llc_joins);
		mutex_unlock(&lgr->llc_flow_mutex);
		/* its smc_llc_flow_end() wakes us, as does the teardown */
		wait_event(lgr->wait,
			   READ_ONCE(lgr->llc_joins) != seen ||
			   smc_lgr_terminating(lgr));
		mutex_lock(&lgr->llc_flow_mutex);
	}
	smc_llc_flow_set(lgr, flow);
}

/**
 * smc_llc_flow_join() - take part in an exchange the peer started that
 *	changes the link group's configuration (the server's ADD LINK, the
 *	server's DELETE LINK on the client)
 * @lgr: the link group
 * @flow: enum smc_llc_flow of the exchange
 *
 * As smc_llc_flow_start(), but as a rule behind the flow of ours in
 * progress only, not behind those that wait for the flow mutex: a burst
 * of subsequent contacts queues an RKey exchange each (llc_rkey.c), one
 * round trip and the peer's LLC handling each, while the peer waits
 * llc_timeout_ms for our answer (Linux 2 s, failing its ADD LINK) and its
 * next requests wait in our LLC work behind this one. A flow of ours that
 * yielded to a join before, or started while the link group terminates,
 * and smc_llc_rkey_announced() may still come first.
 *
 * Context: the LLC work (ordered: one join at a time); sleeps.
 */
void smc_llc_flow_join(struct smc_link_group *lgr, enum smc_llc_flow flow)
{
	WARN_ON_ONCE(lgr->llc_joining);
	WRITE_ONCE(lgr->llc_joining, true);
	mutex_lock(&lgr->llc_flow_mutex);
	WRITE_ONCE(lgr->llc_joins, lgr->llc_joins + 1);
	WRITE_ONCE(lgr->llc_joining, false);
	smc_llc_flow_set(lgr, flow);
}

/**
 * smc_llc_flow_end() - the exchange of smc_llc_flow_start() or
 *	smc_llc_flow_join() is complete
 * @lgr: the link group
 *
 * Requests of the peer that waited for it are handled now.
 */
void smc_llc_flow_end(struct smc_link_group *lgr)
{
	bool held;

	spin_lock_bh(&lgr->lock);
	if (lgr->llc_flow == SMC_LLC_FLOW_ADD_LINK ||
	    lgr->llc_flow == SMC_LLC_FLOW_DEL_LINK)
		lgr->llc_link_flows++;
	lgr->llc_flow = SMC_LLC_FLOW_NONE;
	held = lgr->llc_held;
	lgr->llc_held = false;
	spin_unlock_bh(&lgr->lock);
	wake_up_all(&lgr->wait);
	if (held) {
		/* first, in the order they came */
		spin_lock_bh(&lgr->llc_rx_lock);
		list_splice_init(&lgr->llc_later, &lgr->llc_rx);
		if (!lgr->llc_stopped)
			queue_work(lgr->llc_wq, &lgr->llc_work);
		spin_unlock_bh(&lgr->llc_rx_lock);
	}
	mutex_unlock(&lgr->llc_flow_mutex);
}

/**
 * smc_llc_purge() - free requests nobody will handle
 * @lgr: a terminated link group whose LLC workqueue is gone
 */
void smc_llc_purge(struct smc_link_group *lgr)
{
	struct smc_llc_qentry *qe, *tmp;
	LIST_HEAD(gone);

	/* a flow of a handshake may still end (and splice) meanwhile */
	spin_lock_bh(&lgr->llc_rx_lock);
	list_splice_init(&lgr->llc_later, &gone);
	list_splice_init(&lgr->llc_rx, &gone);
	lgr->llc_rx_len = 0;
	spin_unlock_bh(&lgr->llc_rx_lock);
	list_for_each_entry_safe(qe, tmp, &gone, list) {
		list_del(&qe->list);
		kfree(qe);
	}
	smc_llc_v2_link_purge(lgr);
}

/**
 * smc_llc_expect() - register what a handshake is about to wait for
 * @lgr: the link group
 * @w: the waiter; its @type and @response say what it waits for
 *
 * Register before sending whatever provokes the message, so it cannot
 * arrive unnoticed in between. End with smc_llc_wait() or
 * smc_llc_cancel().
 *
 * Return: 0, or -EBUSY if another handshake waits (cannot happen: only
 * the first contact's handshake waits for LLC messages, and connections
 * with the same peer wait until it ended).
 */
int smc_llc_expect(struct smc_link_group *lgr, struct smc_llc_waiter *w)
{
	int rc = 0;

	w->done = false;
	spin_lock_bh(&lgr->lock);
	if (lgr->waiter)
		rc = -EBUSY;
	else
		lgr->waiter = w;
	spin_unlock_bh(&lgr->lock);
	return rc;
}

/**
 * smc_llc_cancel() - give up a wait registered with smc_llc_expect()
 * @lgr: the link group
 * @w: the waiter, not waited for with smc_llc_wait()
 */
void smc_llc_cancel(struct smc_link_group *lgr, struct smc_llc_waiter *w)
{
	spin_lock_bh(&lgr->lock);
	if (lgr->waiter == w)
		lgr->waiter = NULL;
	spin_unlock_bh(&lgr->lock);
}

/**
 * smc_llc_wait() - wait for the message smc_llc_expect() registered
 * @lnk: the link it arrives on
 * @w: the waiter
 * @abort: called now and then; true ends the wait (may be NULL)
 * @arg: for @abort
 *
 * Return: 0 with the message in @w->info; -ENOLINK if the link went down
 * or the link group ended; -ECONNABORTED if @abort said so; -ETIMEDOUT
 * after llc_timeout_ms, or at the deadline of the exchange of ours that
 * runs (smc_llc_flow_start(): the one waiter is its own).
 */
int smc_llc_wait(struct smc_link *lnk, struct smc_llc_waiter *w,
		 bool (*abort)(void *arg), void *arg)
{
	struct smc_link_group *lgr = lnk->lgr;
	unsigned long deadline;
	int rc = -ETIMEDOUT;

	deadline = jiffies + msecs_to_jiffies(READ_ONCE(smc_llc_timeout_ms));
	spin_lock_bh(&lgr->lock);
	if (lgr->llc_flow != SMC_LLC_FLOW_NONE &&
	    time_before(lgr->llc_flow_deadline, deadline))
		deadline = lgr->llc_flow_deadline;
	spin_unlock_bh(&lgr->lock);
	for (;;) {
		long slice = min_t(long, (long)(deadline - jiffies), HZ / 10);

		wait_event_timeout(lgr->wait,
				   READ_ONCE(w->done) ||
				   smc_lgr_terminating(lgr) ||
				   READ_ONCE(lnk->state) == SMC_LNK_INACTIVE,
				   max(slice, 1L));
		spin_lock_bh(&lgr->lock);
		if (w->done)
			rc = 0;
		else if (smc_lgr_terminating(lgr) ||
			 READ_ONCE(lnk->state) == SMC_LNK_INACTIVE)
			rc = -ENOLINK;
		else if (abort && abort(arg))
			rc = -ECONNABORTED;
		else if (time_after_eq(jiffies, deadline))
			rc = -ETIMEDOUT;
		else
			rc = 1;
		if (rc <= 0)
			lgr->waiter = NULL;
		spin_unlock_bh(&lgr->lock);
		if (rc <= 0)
			return rc;
	}
}

/**
 * smc_llc_confirm_link_fill() - our CONFIRM LINK for a link
 * @lnk: the link being confirmed
 * @info: filled
 * @response: the client's reply (else the server's request)
 */
void smc_llc_confirm_link_fill(const struct smc_link *lnk,
			       struct smc_llc_msg_info *info, bool response)
{
	struct smc_llc_confirm_link_info *cl = &info->confirm_link;

	memset(info, 0, sizeof(*info));
	info->type = SMC_LLC_CONFIRM_LINK;
	info->response = response;
	memcpy(cl->mac, lnk->local.mac, SMC_MAC_LEN);
	memcpy(cl->gid, lnk->local.gid, SMC_GID_LEN);
	cl->qpn = lnk->local.qpn;
	cl->link_num = lnk->link_id;
	memcpy(cl->link_uid, lnk->uid, SMC_LLC_LINK_UID_LEN);
	cl->max_links = lnk->lgr->max_links;
	cl->no_rmbe_eyec = !lnk->lgr->rmbe_eyec;
}

/**
 * smc_llc_confirm_link_check() - take the peer's CONFIRM LINK for a link
 * @lnk: the link being confirmed
 * @cl: the peer's message
 *
 * It must name the QP the peer announced for the link (in CLC, or in its
 * ADD LINK). The link group's maximum of links becomes the smaller of
 * both sides' (a peer announcing 0 allows one).
 *
 * Return: 0, or -EPROTO.
 */
int smc_llc_confirm_link_check(struct smc_link *lnk,
			       const struct smc_llc_confirm_link_info *cl)
{
	struct smc_link_group *lgr = lnk->lgr;

	if (memcmp(cl->mac, lnk->peer.mac, SMC_MAC_LEN) ||
	    memcmp(cl->gid, lnk->peer.gid, SMC_GID_LEN) ||
	    cl->qpn != lnk->peer.qpn || !cl->link_num)
		return -EPROTO;
	memcpy(lnk->peer_uid, cl->link_uid, SMC_LLC_LINK_UID_LEN);
	/* the netlink dump reads it locklessly */
	WRITE_ONCE(lgr->max_links,
		   clamp_t(u8, cl->max_links, 1, lgr->max_links));
	if (!lnk->lgr->server)		/* the server chooses the RMBE format */
		lnk->lgr->rmbe_eyec = !cl->no_rmbe_eyec;
	else if (cl->no_rmbe_eyec == lnk->lgr->rmbe_eyec)
		return -EPROTO;		/* the client did not follow */
	return 0;
}

/**
 * smc_llc_activate_link() - a link is confirmed both ways: ACTIVE
 * @lnk: the link, ACTIVATING
 *
 * Return: 0, or -ENOLINK if it went down meanwhile.
 */
int smc_llc_activate_link(struct smc_link *lnk)
{
	int old = SMC_LNK_ACTIVATING;

	lnk->confirmed = true;
	/* full barrier: smc_llc_link_find() reads the peer's values after */
	if (!try_cmpxchg(&lnk->state, &old, SMC_LNK_ACTIVE)) {
		lnk->confirmed = false;
		return -ENOLINK;	/* went down meanwhile */
	}
	smc_link_trace_state(lnk, SMC_LNK_ACTIVE);
	smc_llc_keepalive_start(lnk);
	return 0;
}

/**
 * smc_llc_confirm_link_request() - the server's CONFIRM LINK on a link and
 *	the client's reply (RFC 7609 3.5.1.5, 3.5.1.6.1)
 * @lnk: the link, in RTS
 *
 * Return: 0 if the client confirmed the link (it is not ACTIVE yet), or
 * a negative errno.
 */
int smc_llc_confirm_link_request(struct smc_link *lnk)
{
	struct smc_llc_waiter w = {
		.type = SMC_LLC_CONFIRM_LINK, .response = true,
	};
	struct smc_llc_msg_info req;
	int rc;

	rc = smc_llc_expect(lnk->lgr, &w);
	if (rc)
		return rc;
	smc_llc_confirm_link_fill(lnk, &req, false);
	rc = smc_llc_send(lnk, &req, true);
	if (rc) {
		smc_llc_cancel(lnk->lgr, &w);
		return rc;
	}
	rc = smc_llc_wait(lnk, &w, NULL, NULL);
	if (rc)
		return rc;
	if (w.info.confirm_link.link_num != lnk->link_id)
		return -EPROTO;
	return smc_llc_confirm_link_check(lnk, &w.info.confirm_link);
}

/**
 * smc_llc_confirm_link_server() - server side of first contact's CONFIRM
 *	LINK (RFC 7609 3.5.1.5)
 * @lnk: the new link, in RTS
 *
 * Sends CONFIRM LINK and waits for the client's reply; the link is then
 * ACTIVE.
 *
 * Return: 0, or a negative errno: the link could not be confirmed.
 */
int smc_llc_confirm_link_server(struct smc_link *lnk)
{
	int rc = smc_llc_confirm_link_request(lnk);

	return rc ? rc : smc_llc_activate_link(lnk);
}

/**
 * smc_llc_confirm_link_client() - client side of first contact's CONFIRM
 *	LINK
 * @lnk: the new link, in RTR
 * @w: registered with smc_llc_expect() for the CONFIRM LINK request
 *	before the CLC Confirm went out
 * @conn: the connection of the handshake (NULL: none): its rings take the
 *	RMBE format the server chose, and its RMB is registered once the QP
 *	can send, both before the reply lets the server write
 * @abort: see smc_llc_wait()
 * @arg: for @abort
 *
 * Waits for the server's CONFIRM LINK, moves the QP to RTS, prepares
 * @conn and replies; the link is then ACTIVE.
 *
 * Return: 0, or a negative errno: the link could not be confirmed.
 */
int smc_llc_confirm_link_client(struct smc_link *lnk,
				struct smc_llc_waiter *w, struct smc_conn *conn,
				bool (*abort)(void *arg), void *arg)
{
	struct smc_llc_msg_info resp;
	int rc;

	rc = smc_llc_wait(lnk, w, abort, arg);
	if (rc)
		return rc;
	rc = smc_llc_confirm_link_check(lnk, &w->info.confirm_link);
	if (rc)
		return rc;
	lnk->link_id = w->info.confirm_link.link_num;
	rc = smc_link_rts(lnk);
	if (rc)
		return rc;
	if (conn) {
		smc_conn_format(conn);
		rc = smc_buf_register(lnk, conn->rmbe.buf);
		if (rc)
			return rc;
		smc_llc_rkey_announced(lnk->lgr, conn->rmbe.buf);
	}
	smc_llc_confirm_link_fill(lnk, &resp, true);
	rc = smc_llc_send(lnk, &resp, true);
	if (rc)
		return rc;
	return smc_llc_activate_link(lnk);
}

/**
 * smc_llc_keepalive_start() - start TEST LINK keepalive on an active link
 * @lnk: the link
 */
void smc_llc_keepalive_start(struct smc_link *lnk)
{
	unsigned int ms = smc_tun(smc_lgr_net(lnk->lgr), SMC_TUN_keepalive_ms);

	lnk->last_rx = jiffies;
	WRITE_ONCE(lnk->test_pending, false);
	/* not after the teardown stopped the link and cancelled the work */
	read_lock_bh(&lnk->post_lock);
	if (READ_ONCE(lnk->state) == SMC_LNK_ACTIVE)
		queue_delayed_work(smc_lgr_wq, &lnk->keepalive,
				   msecs_to_jiffies(ms ? min(ms, 1000U) : 1000));
	read_unlock_bh(&lnk->post_lock);
}

/**
 * smc_llc_test_link() - send TEST LINK now, unless one is pending
 * @lnk: the link; a socket's SO_KEEPALIVE found it quiet (keepalive.c)
 *
 * The keepalive work sends it and takes the link down if no reply comes
 * within llc_timeout_ms.
 */
void smc_llc_test_link(struct smc_link *lnk)
{
	/* not after the teardown stopped the link and cancelled the work */
	read_lock_bh(&lnk->post_lock);
	if (READ_ONCE(lnk->state) == SMC_LNK_ACTIVE &&
	    !READ_ONCE(lnk->test_pending)) {
		WRITE_ONCE(lnk->test_now, true);
		mod_delayed_work(smc_lgr_wq, &lnk->keepalive, 0);
	}
	read_unlock_bh(&lnk->post_lock);
}

/**
 * smc_llc_keepalive() - TEST LINK keepalive of one link (RFC 7609 4.5.3)
 * @work: lnk->keepalive
 */
void smc_llc_keepalive(struct work_struct *work)
{
	struct smc_link *lnk = container_of(to_delayed_work(work),
					    struct smc_link, keepalive);
	unsigned long ivl = msecs_to_jiffies(smc_tun(smc_lgr_net(lnk->lgr),
						     SMC_TUN_keepalive_ms));
	unsigned long tmo = msecs_to_jiffies(READ_ONCE(smc_llc_timeout_ms));
	unsigned long idle = jiffies - READ_ONCE(lnk->last_rx);
	struct smc_llc_msg_info req = { .type = SMC_LLC_TEST_LINK };

	if (READ_ONCE(lnk->state) != SMC_LNK_ACTIVE)
		return;
	if (READ_ONCE(lnk->test_pending)) {
		/* run early (smc_llc_test_link()): the reply may still come */
		if (time_before(jiffies, lnk->test_sent + tmo)) {
			queue_delayed_work(smc_lgr_wq, &lnk->keepalive,
					   lnk->test_sent + tmo - jiffies);
			return;
		}
		pr_info("link group %u link %u: no reply to TEST LINK, link down\n",
			lnk->lgr->id, lnk->link_id);
		smc_link_down(lnk);
		return;
	}
	if (READ_ONCE(lnk->test_now)) {
		WRITE_ONCE(lnk->test_now, false);
	} else if (!ivl) {	/* keepalive off: look again later */
		queue_delayed_work(smc_lgr_wq, &lnk->keepalive, HZ);
		return;
	} else if (idle < ivl) {
		/* at least every second: a new keepalive_ms applies soon */
		queue_delayed_work(smc_lgr_wq, &lnk->keepalive,
				   min(ivl - idle, (unsigned long)HZ));
		return;
	}
	WRITE_ONCE(lnk->test_pending, true);
	lnk->test_sent = jiffies;
	if (smc_llc_send(lnk, &req, false))
		WRITE_ONCE(lnk->test_pending, false);	/* try again soon */
	queue_delayed_work(smc_lgr_wq, &lnk->keepalive, tmo);
}
