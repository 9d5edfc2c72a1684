// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: a link's RC QP and its state machine (RFC 7609 2.3, 3.5.1;
 * RFC 6581); a new link group's link slots (smc_link_slots_init()).
 *
 *   smc_link_init()   create the QP, RESET -> INIT, post every receive
 *                     buffer; the link is ACTIVATING. Our QPN and PSN go
 *                     into our Accept (server) or Confirm (client).
 *   smc_link_rtr()    INIT -> RTR with the peer's QPN, PSN, GID, MAC and
 *                     the smaller MTU: we can receive.
 *   smc_link_rts()    RTR -> RTS: we can send.
 *   CONFIRM LINK      (llc.c) both ways; then the link is ACTIVE.
 *
 * The client reaches RTR before it sends its Confirm and RTS only when the
 * server's CONFIRM LINK arrived; the server goes to RTR and RTS when the
 * Confirm arrived and then sends CONFIRM LINK. So no message is sent to a
 * QP that cannot receive it (RFC 6581: no data before the peer is ready),
 * and nothing but CONFIRM LINK moves before both sides confirmed the link:
 * CDC and RDMA writes require ACTIVE.
 *
 * The QP's state is tracked here, never read back with ib_query_qp()
 * (6.1's rxe does not report cur_qp_state).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>
#include <rdma/ib_verbs.h>

#include "core.h"
#include "buf.h"
#include "lgr.h"
#include "lgr_event.h"
#include "link.h"
#include "llc_engine.h"
#include "wr.h"
#include "trace.h"
#include "smcr.h"

static void smc_link_qp_event(struct ib_event *ev, void *ctx)
{
	struct smc_link *lnk = ctx;

	switch (ev->event) {
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
	case IB_EVENT_PATH_MIG_ERR:
		pr_info_ratelimited("link group %u link %u: %s\n",
				    lnk->lgr->id, lnk->link_id,
				    ib_event_msg(ev->event));
		smc_link_down(lnk);
		break;
	default:
		break;
	}
}

/*
 * The link's own CQs, polled in a workqueue (never in the hard interrupt)
 * and armed for every completion, never IB_CQ_SOLICITED only (6.1's rxe
 * does not signal that mode).
 */
static int smc_link_alloc_cqs(struct smc_link *lnk)
{
	struct ib_device *ibdev = lnk->sdev->ibdev;
	struct ib_cq *cq;

	cq = ib_alloc_cq_any(ibdev, lnk, SMC_WR_SQ_DEPTH, IB_POLL_WORKQUEUE);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	lnk->send_cq = cq;
	cq = ib_alloc_cq_any(ibdev, lnk, SMC_WR_RQ_DEPTH, IB_POLL_WORKQUEUE);
	if (IS_ERR(cq)) {
		ib_free_cq(lnk->send_cq);
		lnk->send_cq = NULL;
		return PTR_ERR(cq);
	}
	lnk->recv_cq = cq;
	return 0;
}

/* After the QP: nothing of the link's completes any more */
static void smc_link_free_cqs(struct smc_link *lnk)
{
	ib_free_cq(lnk->recv_cq);
	lnk->recv_cq = NULL;
	ib_free_cq(lnk->send_cq);
	lnk->send_cq = NULL;
}

static int smc_link_create_qp(struct smc_link *lnk)
{
	struct ib_qp_init_attr init = {
		.event_handler	= smc_link_qp_event,
		.qp_context	= lnk,
		.send_cq	= lnk->send_cq,
		.recv_cq	= lnk->recv_cq,
		.sq_sig_type	= IB_SIGNAL_REQ_WR,
		.qp_type	= IB_QPT_RC,
		.cap = {
			.max_send_wr	= SMC_WR_SQ_DEPTH,
			.max_recv_wr	= SMC_WR_RQ_DEPTH,
			.max_send_sge	= 2,	/* a write's source wraps in the send buffer */
			.max_recv_sge	= 2,	/* v2: the tail of a long LLC message */
		},
	};
	struct ib_qp_attr attr = {
		.qp_state	 = IB_QPS_INIT,
		.pkey_index	 = 0,
		.port_num	 = lnk->port,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE |
				   IB_ACCESS_REMOTE_WRITE,
	};
	struct ib_qp *qp;
	int rc;

	qp = ib_create_qp(lnk->pd, &init);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	rc = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			  IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (rc) {
		ib_destroy_qp(qp);
		return rc;
	}
	lnk->qp = qp;
	return 0;
}

/**
 * smc_link_trace_state() - report a link's new state (tracepoint)
 * @lnk: the link
 * @state: its new SMC_LNK_* state
 */
void smc_link_trace_state(const struct smc_link *lnk, int state)
{
	trace_smcr_link_state(lnk->lgr->id, lnk->link_id, lnk->lgr->server,
			      state);
}

/**
 * smc_link_slots_init() - set up the link slots of a new link group
 * @lgr: the link group, zeroed, not listed yet
 *
 * Every slot stays UNUSED, with its locks, completion and work ready:
 * smc_link_init() brings one up.
 */
void smc_link_slots_init(struct smc_link_group *lgr)
{
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++) {
		lgr->lnk[i].lgr = lgr;
		init_completion(&lgr->lnk[i].reg_done);
		rwlock_init(&lgr->lnk[i].post_lock);
		mutex_init(&lgr->lnk[i].qp_mutex);
		INIT_WORK(&lgr->lnk[i].down_work, smc_lgr_event_link_down);
		INIT_DELAYED_WORK(&lgr->lnk[i].keepalive, smc_llc_keepalive);
	}
}

/**
 * smc_link_init() - bring a link slot up to ACTIVATING on a chosen port
 * @lnk: unused slot of a link group
 * @pick: the RoCE port and GID to use
 *
 * Counts the link against its namespace's quota, takes a user reference
 * on the device, creates the link's PD, message buffers, CQs and the QP
 * in INIT with every receive buffer posted.
 *
 * Return: 0, or a negative errno (the slot is left UNUSED, nothing held):
 * -EBUSY if the namespace or the device has no room for another link.
 */
int smc_link_init(struct smc_link *lnk, const struct smc_ib_pick *pick)
{
	struct net *net = smc_lgr_net(lnk->lgr);
	int rc;

	rc = smc_lgr_net_link_get(net);
	if (rc)
		return rc;
	lnk->port = pick->port;
	rc = smc_ib_get(pick->sdev, lnk);
	if (rc) {
		smc_lgr_net_link_put(net);
		return rc;
	}
	lnk->sdev = pick->sdev;
	lnk->gid_index = pick->gid_index;
	lnk->roce_v2 = pick->roce_v2;
	lnk->ndev_ifindex = pick->ifindex;
	memcpy(lnk->local.gid, pick->gid, SMC_GID_LEN);
	memcpy(lnk->local.mac, pick->mac, SMC_MAC_LEN);
	lnk->local.mtu = pick->mtu;
	lnk->local.psn = get_random_u32() & SMC_QP_NUM_MASK;
	get_random_bytes(lnk->uid, sizeof(lnk->uid));
	lnk->last_rx = jiffies;
	lnk->confirmed = false;
	lnk->del_orderly = false;
	INIT_DELAYED_WORK(&lnk->keepalive, smc_llc_keepalive);

	lnk->pd = ib_alloc_pd(lnk->sdev->ibdev, 0);
	if (IS_ERR(lnk->pd)) {
		rc = PTR_ERR(lnk->pd);
		lnk->pd = NULL;
		goto err_put;
	}
	rc = smc_wr_alloc(lnk);
	if (rc)
		goto err_pd;
	rc = smc_link_alloc_cqs(lnk);
	if (rc)
		goto err_wr;
	rc = smc_link_create_qp(lnk);
	if (rc)
		goto err_cqs;
	lnk->local.qpn = lnk->qp->qp_num;
	WRITE_ONCE(lnk->state, SMC_LNK_ACTIVATING);
	smc_link_trace_state(lnk, SMC_LNK_ACTIVATING);
	rc = smc_wr_rx_post_all(lnk);
	if (rc) {
		smc_link_teardown(lnk);
		return rc;
	}
	return 0;

err_cqs:
	smc_link_free_cqs(lnk);
err_wr:
	smc_wr_free(lnk);
err_pd:
	ib_dealloc_pd(lnk->pd);
	lnk->pd = NULL;
err_put:
	/* under lgr->lock: the netlink dump reads the device through it */
	spin_lock_bh(&lnk->lgr->lock);
	lnk->sdev = NULL;
	spin_unlock_bh(&lnk->lgr->lock);
	smc_ib_put(pick->sdev, lnk);
	smc_lgr_net_link_put(net);
	return rc;
}

/**
 * smc_link_set_peer() - record the peer's end of a link from CLC
 * @lnk: link in ACTIVATING
 * @info: the peer's Accept or Confirm
 */
void smc_link_set_peer(struct smc_link *lnk,
		       const struct smc_clc_accept_info *info)
{
	memcpy(lnk->peer.gid, info->gid, SMC_GID_LEN);
	memcpy(lnk->peer.mac, info->mac, SMC_MAC_LEN);
	lnk->peer.qpn = info->qpn;
	lnk->peer.psn = info->psn;
	lnk->peer.mtu = info->mtu_code;
}

/**
 * smc_link_rtr() - INIT -> RTR towards the peer set by smc_link_set_peer()
 * @lnk: link in ACTIVATING
 *
 * Under lnk->qp_mutex, as the teardown destroys the QP.
 *
 * Return: 0, -ENOLINK if the link is no longer ACTIVATING, -EINVAL if
 * the peer's values are unusable, or the errno of ib_modify_qp().
 */
int smc_link_rtr(struct smc_link *lnk)
{
	struct smc_qp_attrs *a = &lnk->attrs;
	struct ib_qp_attr attr = {};
	int rc;

	mutex_lock(&lnk->qp_mutex);
	if (!lnk->qp || READ_ONCE(lnk->state) != SMC_LNK_ACTIVATING) {
		mutex_unlock(&lnk->qp_mutex);
		return -ENOLINK;
	}
	rc = smc_qp_attrs_compute(&lnk->local, &lnk->peer, lnk->roce_v2, a);
	if (rc) {
		mutex_unlock(&lnk->qp_mutex);
		return rc;
	}
	/* routed SMC-R v2 (hs_v2.c): the frames go to the router */
	if (lnk->lgr->key.version == SMC_CLC_V2 && !lnk->lgr->v2.direct)
		memcpy(a->dmac, lnk->lgr->v2.nexthop_mac, ETH_ALEN);
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = a->path_mtu;
	attr.dest_qp_num = a->dest_qpn;
	attr.rq_psn = a->rq_psn;
	attr.max_dest_rd_atomic = a->max_dest_rd_atomic;
	attr.min_rnr_timer = a->min_rnr_timer;
	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&attr.ah_attr, lnk->port);
	rdma_ah_set_grh(&attr.ah_attr, NULL, 0, lnk->gid_index, a->hop_limit,
			0);
	rdma_ah_set_dgid_raw(&attr.ah_attr, a->dgid);
	memcpy(attr.ah_attr.roce.dmac, a->dmac, ETH_ALEN);
	rc = ib_modify_qp(lnk->qp, &attr,
			  IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			  IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	mutex_unlock(&lnk->qp_mutex);
	return rc;
}

/**
 * smc_link_rts() - RTR -> RTS
 * @lnk: link after smc_link_rtr()
 *
 * Return: 0, -ENOLINK if the link is no longer ACTIVATING, or the errno
 * of ib_modify_qp().
 */
int smc_link_rts(struct smc_link *lnk)
{
	const struct smc_qp_attrs *a = &lnk->attrs;
	struct ib_qp_attr attr = {
		.qp_state	= IB_QPS_RTS,
		.timeout	= a->timeout,
		.retry_cnt	= a->retry_cnt,
		.rnr_retry	= a->rnr_retry,
		.sq_psn		= a->sq_psn,
		.max_rd_atomic	= a->max_rd_atomic,
	};
	int rc = -ENOLINK;

	mutex_lock(&lnk->qp_mutex);
	if (lnk->qp && READ_ONCE(lnk->state) == SMC_LNK_ACTIVATING)
		rc = ib_modify_qp(lnk->qp, &attr,
				  IB_QP_STATE | IB_QP_TIMEOUT |
				  IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
				  IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC);
	mutex_unlock(&lnk->qp_mutex);
	return rc;
}

/**
 * smc_link_down() - a link failed: stop using it and end its link group
 * @lnk: the link
 *
 * Context: any (completion handlers, QP events); does not sleep and takes
 * no lock: the state changes by cmpxchg, so a concurrent ACTIVATING ->
 * ACTIVE (also by cmpxchg) cannot overwrite it. The work, in process
 * context, deletes the link if the link group has another active one
 * (llc_del_link.c), else ends the link group.
 */
void smc_link_down(struct smc_link *lnk)
{
	int old = READ_ONCE(lnk->state);

	do {
		if (old != SMC_LNK_ACTIVATING && old != SMC_LNK_ACTIVE)
			return;
	} while (!try_cmpxchg(&lnk->state, &old, SMC_LNK_INACTIVE));
	smc_link_trace_state(lnk, SMC_LNK_INACTIVE);
	wake_up(&lnk->wr.tx_wait);
	wake_up(&lnk->lgr->wait);
	queue_work(smc_lgr_wq, &lnk->down_work);
}

/**
 * smc_link_quiesce() - make sure nothing of a link completes any more
 * @lnk: a link that is down (or going)
 *
 * The link turns INACTIVE under its post lock (no post is in progress
 * after that, and none starts), its QP goes to the error state and every
 * posted WR completes, flushed, and has been handled: the CDC messages
 * that completed successfully before have been counted
 * (smc_cdc_tx_done()), the ones received were delivered, and nothing of
 * the link moves a cursor afterwards. A failover starts from there
 * (failover.c). The QP stays, in the error state, until the teardown.
 *
 * Context: process; sleeps up to SMC_WR_DRAIN_MS (wr.c).
 * Return: 0, or -ETIMEDOUT if the device did not flush the WRs in time.
 */
int smc_link_quiesce(struct smc_link *lnk)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	int old, rc = 0;

	write_lock_bh(&lnk->post_lock);
	old = READ_ONCE(lnk->state);
	WRITE_ONCE(lnk->state, SMC_LNK_INACTIVE);
	write_unlock_bh(&lnk->post_lock);
	if (old != SMC_LNK_INACTIVE)
		smc_link_trace_state(lnk, SMC_LNK_INACTIVE);
	wake_up(&lnk->wr.tx_wait);
	mutex_lock(&lnk->qp_mutex);
	if (lnk->qp) {
		ib_modify_qp(lnk->qp, &attr, IB_QP_STATE);
		rc = smc_wr_drain(lnk);
	}
	mutex_unlock(&lnk->qp_mutex);
	return rc;
}

/**
 * smc_link_teardown() - release everything a link holds
 * @lnk: link slot; UNUSED slots are left alone
 *
 * Moves the QP to the error state, waits until every posted WR completed
 * (flushed), destroys the QP and then its CQs (nothing completes after
 * that, and ib_free_cq() waits for a running poll), frees the buffers and
 * the PD and drops the device reference and the namespace's count. Not
 * ib_drain_qp(): that waits without a time limit.
 *
 * Context: process; the link group is terminated (no new users).
 * Return: 0, or -ETIMEDOUT if the device never flushed the WRs: the QP and
 * the CQs are gone, but the buffers, the PD (the RMBs' MRs stay on it) and
 * the link's memory are left allocated, in case the device still touches
 * them, and stay counted against the namespace; the slot is marked
 * @leaked and never used again.
 */
int smc_link_teardown(struct smc_link *lnk)
{
	struct smc_ib_device *sdev;
	int rc;

	if (!lnk->sdev)
		return 0;
	rc = smc_link_quiesce(lnk);
	cancel_delayed_work_sync(&lnk->keepalive);
	mutex_lock(&lnk->qp_mutex);
	if (lnk->qp) {
		if (rc)
			pr_warn("link %u/%u: QP %u did not flush its WRs; leaking its buffers\n",
				lnk->lgr->id, lnk->link_id, lnk->qp->qp_num);
		ib_destroy_qp(lnk->qp);
		lnk->qp = NULL;
	}
	mutex_unlock(&lnk->qp_mutex);
	if (lnk->send_cq)
		smc_link_free_cqs(lnk);
	cancel_work_sync(&lnk->down_work);
	/* after a failed drain the buffers stay mapped (leaked) */
	smc_buf_link_unmap(lnk, !rc);
	if (!rc) {
		smc_wr_free(lnk);
		/* after its QP and the RMBs' MRs (smc_buf_link_unmap()) */
		ib_dealloc_pd(lnk->pd);
		smc_lgr_net_link_put(smc_lgr_net(lnk->lgr));
	}
	lnk->pd = NULL;
	lnk->leaked = rc;
	/* under lgr->lock: the netlink dump reads the device through it */
	spin_lock_bh(&lnk->lgr->lock);
	sdev = lnk->sdev;
	lnk->sdev = NULL;
	spin_unlock_bh(&lnk->lgr->lock);
	smc_ib_put(sdev, lnk);
	WRITE_ONCE(lnk->state, SMC_LNK_UNUSED);
	return rc;
}
