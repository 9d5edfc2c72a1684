// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the work-request layer of a link - fixed pools of 44-byte send and
 * receive buffers for LLC and CDC messages (RFC 7609 A.3, A.4).
 *
 * Send: a sender takes a free buffer (waiting, interruptibly and with the
 * LLC timeout, when all are in flight - or not at all from completion
 * context), fills it and posts it as a signaled SEND. The completion
 * frees the buffer. A send is only posted while the link is ACTIVATING or
 * ACTIVE: before CONFIRM LINK only LLC runs (RFC 6581's ready-to-receive
 * rule is kept by the callers: no CDC before ACTIVE).
 *
 * Receive: every buffer is posted before the QP leaves INIT, and reposted
 * as soon as its message was handed on. The message class is its first
 * byte: 0xFE is CDC (A.4), everything else LLC.
 *
 * SMC-R version 2 link groups have LLC messages of up to 8 KiB (llc_v2.c):
 * each receive WR has a second SGE, the link's tail buffer, for the bytes
 * past the first 44, and one long send buffer (slot SMC_WR_TX_LONG) sends
 * them, taken like any other.
 *
 * Errors: a completion with an error status means the QP went to the error
 * state; the link is taken down. Flushed completions are normally the drain
 * of a QP that teardown moved to the error state (the link is INACTIVE by
 * then) and only free the buffer; a flush that finds the link still
 * ACTIVATING or ACTIVE means the QP failed by itself, and is reported like
 * any other error.
 *
 * Local SGEs: rxe (and any device) takes the PD's local DMA lkey for any
 * address, so an SGE that strayed outside its buffer would read or write
 * unrelated memory without an error. Every post names the one buffer its
 * SGEs must lie in (a message buffer, or the connection's send-buffer
 * element); an SGE outside it is a bug of smcr: WARN, refuse the post and
 * take the link down.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/slab.h>
#include <smcr/cdc_wire.h>
#include <smcr/sge.h>

#include "cdc.h"
#include "core.h"
#include "link.h"
#include "llc_engine.h"
#include "wr.h"

#define SMC_WR_DRAIN_MS		10000
/* llc_timeout_ms periods a sender waits for a send buffer while others
 * get the ones that come free (smc_wr_tx_take())
 */
#define SMC_WR_TX_WAIT_ROUNDS	3

static inline u8 *smc_wr_tx_buf(struct smc_link *lnk, u32 idx)
{
	if (idx == SMC_WR_TX_LONG)
		return lnk->wr.long_tx;
	return lnk->wr.tx_bufs + idx * SMC_WR_BUF_SIZE;
}

/**
 * smc_wr_unpost() - a posted WR completed: drop its count
 * @lnk: the link
 * @cnt: &lnk->wr.tx_posted or &lnk->wr.rx_posted
 *
 * The last thing a completion handler does with the link: the decrement
 * and the wake-up happen under the wait queue's lock, which the drain takes
 * before it lets the teardown go on, so no handler touches the link after
 * the drain returned.
 */
void smc_wr_unpost(struct smc_link *lnk, atomic_t *cnt)
{
	unsigned long flags;

	spin_lock_irqsave(&lnk->wr.tx_wait.lock, flags);
	if (atomic_dec_and_test(cnt))
		wake_up_locked(&lnk->wr.tx_wait);
	spin_unlock_irqrestore(&lnk->wr.tx_wait.lock, flags);
}

static bool smc_wr_link_usable(const struct smc_link *lnk)
{
	int state = READ_ONCE(lnk->state);

	return state == SMC_LNK_ACTIVATING || state == SMC_LNK_ACTIVE;
}

/*
 * A completion with an error: the QP is in the error state. Every error
 * but a flush is logged; a flush only while the link is still usable (the
 * send and receive queues complete on different CQs, so the flush may be
 * seen before the error that caused it, which is logged too). Flushes
 * after smc_link_down() made the link INACTIVE are the drain: quiet.
 */
static void smc_wr_failed(struct smc_link *lnk, struct ib_wc *wc)
{
	if (wc->status == IB_WC_WR_FLUSH_ERR && !smc_wr_link_usable(lnk))
		return;
	pr_warn_ratelimited("link group %u link %u: work request failed: %s (vendor error %#x)\n",
			    lnk->lgr->id, lnk->link_id,
			    ib_wc_status_msg(wc->status), wc->vendor_err);
	smc_link_down(lnk);
}

/*
 * Do the @n SGEs at @sge lie in [@buf, @buf + @buf_len)? If not, say which
 * one did not: this is a bug of smcr, caught before the device touches the
 * memory. (WARN does not apply pr_fmt: the module's name is spelled out.)
 */
static bool smc_wr_sges_inside(struct smc_link *lnk, const struct ib_sge *sge,
			       int n, u64 buf, u64 buf_len)
{
	int i;

	for (i = 0; i < n; i++, sge++) {
		if (WARN_ONCE(!smc_sge_inside(sge->addr, sge->length, buf,
					      buf_len),
			      "smcr: link group %u link %u: SGE %d (%#llx, %u bytes) outside its buffer (%#llx, %llu bytes)\n",
			      lnk->lgr->id, lnk->link_id, i, sge->addr,
			      sge->length, buf, buf_len))
			return false;
	}
	return true;
}

static void smc_wr_tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smc_wr_tx_slot *slot = container_of(wc->wr_cqe,
						   struct smc_wr_tx_slot, cqe);
	struct smc_link *lnk = slot->lnk;
	struct smc_cdc_sent sent = slot->sent;
	bool cdc = slot->cdc;

	/* release: @cdc and @sent are read before the slot can be reused */
	clear_bit_unlock(slot->idx, &lnk->wr.tx_busy);
	/* one handler at a time per CQ: no lost increment */
	WRITE_ONCE(lnk->wr.tx_completed, lnk->wr.tx_completed + 1);
	wake_up(&lnk->wr.tx_wait);
	if (wc->status != IB_WC_SUCCESS)
		smc_wr_failed(lnk, wc);
	if (cdc)
		smc_cdc_tx_done(lnk, &sent, wc->status == IB_WC_SUCCESS);
	smc_wr_unpost(lnk, &lnk->wr.tx_posted);
}

static void smc_wr_rx_done(struct ib_cq *cq, struct ib_wc *wc);
static void smc_wr_write_done(struct ib_cq *cq, struct ib_wc *wc);

/* A receive WR completed or was never posted: the drain waits for 0 */
static void smc_wr_rx_gone(struct smc_link *lnk)
{
	smc_wr_unpost(lnk, &lnk->wr.rx_posted);
}

static int smc_wr_rx_post(struct smc_link *lnk, u32 idx)
{
	struct smc_wr_rx_slot *slot = &lnk->wr.rx_slots[idx];
	struct ib_sge sge[2] = {
		{
			.addr	= lnk->wr.rx_dma + idx * SMC_WR_BUF_SIZE,
			.length	= SMC_WR_BUF_SIZE,
			.lkey	= lnk->pd->local_dma_lkey,
		}, {
			.addr	= lnk->wr.rx_tail_dma,
			.length	= SMC_WR_RX_TAIL,
			.lkey	= lnk->pd->local_dma_lkey,
		},
	};
	struct ib_recv_wr wr = {
		.wr_cqe		= &slot->cqe,
		.sg_list	= sge,
		.num_sge	= lnk->wr.rx_tail ? 2 : 1,
	};
	int rc;

	if (!smc_wr_sges_inside(lnk, &sge[0], 1, lnk->wr.rx_dma,
				SMC_WR_RX_BUFS * SMC_WR_BUF_SIZE) ||
	    (lnk->wr.rx_tail &&
	     !smc_wr_sges_inside(lnk, &sge[1], 1, lnk->wr.rx_tail_dma,
				 SMC_WR_RX_TAIL)))
		return -ENOLINK;
	atomic_inc(&lnk->wr.rx_posted);
	rc = ib_post_recv(lnk->qp, &wr, NULL);
	if (rc)
		smc_wr_rx_gone(lnk);
	return rc;
}

static void smc_wr_rx_bad_len(struct smc_link *lnk, u32 len)
{
	pr_warn_ratelimited("link group %u link %u: the peer sent a CDC message of %u bytes, link down\n",
			    lnk->lgr->id, lnk->link_id, len);
	smc_link_down(lnk);
}

/*
 * A long LLC message: its first 44 bytes in @head, the rest in the tail.
 * One copy in one piece for the LLC; without memory it is lost, and the
 * peer's flow times out.
 */
static void smc_wr_rx_long(struct smc_link *lnk, const u8 *head, u32 len)
{
	struct ib_device *ibdev = lnk->sdev->ibdev;
	u8 *msg;

	ib_dma_sync_single_for_cpu(ibdev, lnk->wr.rx_tail_dma, SMC_WR_RX_TAIL,
				   DMA_FROM_DEVICE);
	msg = kmalloc(len, GFP_ATOMIC);
	if (msg) {
		memcpy(msg, head, SMC_WR_BUF_SIZE);
		memcpy(msg + SMC_WR_BUF_SIZE, lnk->wr.rx_tail,
		       len - SMC_WR_BUF_SIZE);
	}
	ib_dma_sync_single_for_device(ibdev, lnk->wr.rx_tail_dma,
				      SMC_WR_RX_TAIL, DMA_FROM_DEVICE);
	if (!msg)
		return;
	smc_llc_rx(lnk, msg, len);
	kfree(msg);
}

static void smc_wr_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smc_wr_rx_slot *slot = container_of(wc->wr_cqe,
						   struct smc_wr_rx_slot, cqe);
	struct smc_link *lnk = slot->lnk;
	u64 dma = lnk->wr.rx_dma + slot->idx * SMC_WR_BUF_SIZE;
	u8 *buf = lnk->wr.rx_bufs + slot->idx * SMC_WR_BUF_SIZE;

	if (wc->status != IB_WC_SUCCESS) {
		smc_wr_failed(lnk, wc);
		smc_wr_rx_gone(lnk);
		return;
	}
	/*
	 * Every LLC and CDC message is a plain SEND of 44 bytes (A.3, A.4),
	 * or up to 8 KiB for LLC in version 2 link groups. Anything else -
	 * SEND with immediate data, an RDMA write with immediate data (which
	 * consumes a receive buffer but fills none), a short SEND - breaks
	 * the protocol; the buffer may hold an old message, which must not
	 * be handled twice.
	 */
	if (wc->opcode != IB_WC_RECV || (wc->wc_flags & IB_WC_WITH_IMM) ||
	    wc->byte_len < SMC_WR_BUF_SIZE ||
	    (wc->byte_len > SMC_WR_BUF_SIZE && !lnk->wr.rx_tail)) {
		pr_warn_ratelimited("link group %u link %u: the peer sent a %u-byte message (opcode %d%s), link down\n",
				    lnk->lgr->id, lnk->link_id, wc->byte_len,
				    wc->opcode,
				    wc->wc_flags & IB_WC_WITH_IMM ?
				    ", immediate data" : "");
		smc_link_down(lnk);
		smc_wr_rx_gone(lnk);
		return;
	}
	ib_dma_sync_single_for_cpu(lnk->sdev->ibdev, dma, SMC_WR_BUF_SIZE,
				   DMA_FROM_DEVICE);
	lnk->last_rx = jiffies;
	if (buf[0] == SMC_CDC_MSG_TYPE && wc->byte_len == SMC_WR_BUF_SIZE)
		smc_cdc_rx(lnk, buf, wc->byte_len);
	else if (wc->byte_len == SMC_WR_BUF_SIZE)
		smc_llc_rx(lnk, buf, wc->byte_len);
	else if (buf[0] != SMC_CDC_MSG_TYPE)
		smc_wr_rx_long(lnk, buf, wc->byte_len);
	else		/* a CDC message is 44 bytes, in any version */
		smc_wr_rx_bad_len(lnk, wc->byte_len);
	ib_dma_sync_single_for_device(lnk->sdev->ibdev, dma, SMC_WR_BUF_SIZE,
				      DMA_FROM_DEVICE);
	if (READ_ONCE(lnk->state) != SMC_LNK_INACTIVE &&
	    smc_wr_rx_post(lnk, slot->idx)) {
		pr_info_ratelimited("link group %u link %u: receive repost failed\n",
				    lnk->lgr->id, lnk->link_id);
		smc_link_down(lnk);
	}
	smc_wr_rx_gone(lnk);		/* last: see smc_wr_unpost() */
}

/* The long send buffer and the receive tail of a version 2 link group */
static int smc_wr_alloc_long(struct smc_link *lnk)
{
	struct ib_device *ibdev = lnk->sdev->ibdev;
	struct smc_wr *wr = &lnk->wr;
	u64 dma;

	wr->long_tx = kzalloc(SMC_LLC_V2_MSG_MAX, GFP_KERNEL);
	if (!wr->long_tx)
		return -ENOMEM;
	dma = ib_dma_map_single(ibdev, wr->long_tx, SMC_LLC_V2_MSG_MAX,
				DMA_TO_DEVICE);
	if (ib_dma_mapping_error(ibdev, dma))
		goto err_tx;
	wr->long_tx_dma = dma;
	wr->rx_tail = kzalloc(SMC_WR_RX_TAIL, GFP_KERNEL);
	if (!wr->rx_tail)
		goto err_tx_map;
	dma = ib_dma_map_single(ibdev, wr->rx_tail, SMC_WR_RX_TAIL,
				DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(ibdev, dma))
		goto err_rx;
	wr->rx_tail_dma = dma;
	return 0;

err_rx:
	kfree(wr->rx_tail);
	wr->rx_tail = NULL;
err_tx_map:
	ib_dma_unmap_single(ibdev, wr->long_tx_dma, SMC_LLC_V2_MSG_MAX,
			    DMA_TO_DEVICE);
err_tx:
	kfree(wr->long_tx);
	wr->long_tx = NULL;
	return -ENOMEM;
}

/**
 * smc_wr_alloc() - allocate and DMA-map a link's message buffers
 * @lnk: link whose device is set
 *
 * Return: 0 or -ENOMEM.
 */
int smc_wr_alloc(struct smc_link *lnk)
{
	struct ib_device *ibdev = lnk->sdev->ibdev;
	struct smc_wr *wr = &lnk->wr;
	size_t txlen = SMC_WR_TX_SLOTS * SMC_WR_BUF_SIZE;
	size_t rxlen = SMC_WR_RX_BUFS * SMC_WR_BUF_SIZE;
	u32 i;

	init_waitqueue_head(&wr->tx_wait);
	wr->tx_bufs = kzalloc(txlen, GFP_KERNEL);
	wr->rx_bufs = kzalloc(rxlen, GFP_KERNEL);
	if (!wr->tx_bufs || !wr->rx_bufs)
		goto err_free;
	wr->tx_dma = ib_dma_map_single(ibdev, wr->tx_bufs, txlen,
				       DMA_TO_DEVICE);
	if (ib_dma_mapping_error(ibdev, wr->tx_dma))
		goto err_free;
	wr->rx_dma = ib_dma_map_single(ibdev, wr->rx_bufs, rxlen,
				       DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(ibdev, wr->rx_dma)) {
		ib_dma_unmap_single(ibdev, wr->tx_dma, txlen, DMA_TO_DEVICE);
		goto err_free;
	}
	wr->mapped = true;
	if (lnk->lgr->key.version == SMC_CLC_V2 && smc_wr_alloc_long(lnk)) {
		smc_wr_free(lnk);
		return -ENOMEM;
	}
	lnk->write_cqe.done = smc_wr_write_done;
	for (i = 0; i <= SMC_WR_TX_LONG; i++) {
		wr->tx_slots[i].cqe.done = smc_wr_tx_done;
		wr->tx_slots[i].lnk = lnk;
		wr->tx_slots[i].idx = i;
	}
	for (i = 0; i < SMC_WR_RX_BUFS; i++) {
		wr->rx_slots[i].cqe.done = smc_wr_rx_done;
		wr->rx_slots[i].lnk = lnk;
		wr->rx_slots[i].idx = i;
	}
	wr->tx_busy = 0;
	atomic_set(&wr->tx_posted, 0);
	atomic_set(&wr->rx_posted, 0);
	return 0;

err_free:
	kfree(wr->tx_bufs);
	kfree(wr->rx_bufs);
	wr->tx_bufs = NULL;
	wr->rx_bufs = NULL;
	return -ENOMEM;
}

/**
 * smc_wr_drain() - wait until every posted WR of a link completed and
 *	every send buffer is back
 * @lnk: link whose QP was moved to the error state (all WRs flush) and
 *	which is INACTIVE (no post succeeds)
 *
 * A send buffer taken but not yet posted is written by its holder and
 * indexes the slot table: the buffers may only go when it came back. Its
 * holder does not sleep while it has it (but for the test-only
 * test_tx_hold_ms) and gives it back when its post fails on the inactive
 * link.
 *
 * Return: 0, or -ETIMEDOUT if the device did not flush the WRs in time.
 */
int smc_wr_drain(struct smc_link *lnk)
{
	struct smc_wr *wr = &lnk->wr;

	if (!wait_event_timeout(wr->tx_wait,
				!atomic_read(&wr->tx_posted) &&
				!atomic_read(&wr->rx_posted) &&
				!READ_ONCE(wr->tx_busy),
				msecs_to_jiffies(SMC_WR_DRAIN_MS)))
		return -ETIMEDOUT;
	/* a handler that dropped the last count, or a holder that gave
	 * back the last buffer, may still hold the lock
	 */
	spin_lock_irq(&wr->tx_wait.lock);
	spin_unlock_irq(&wr->tx_wait.lock);
	return 0;
}

/**
 * smc_wr_free() - unmap and free a link's message buffers
 * @lnk: link whose QP is destroyed (no WR can complete any more)
 */
void smc_wr_free(struct smc_link *lnk)
{
	struct ib_device *ibdev = lnk->sdev->ibdev;
	struct smc_wr *wr = &lnk->wr;

	if (!wr->mapped)
		return;
	ib_dma_unmap_single(ibdev, wr->tx_dma,
			    SMC_WR_TX_SLOTS * SMC_WR_BUF_SIZE, DMA_TO_DEVICE);
	ib_dma_unmap_single(ibdev, wr->rx_dma,
			    SMC_WR_RX_BUFS * SMC_WR_BUF_SIZE, DMA_FROM_DEVICE);
	if (wr->long_tx) {
		ib_dma_unmap_single(ibdev, wr->long_tx_dma, SMC_LLC_V2_MSG_MAX,
				    DMA_TO_DEVICE);
		ib_dma_unmap_single(ibdev, wr->rx_tail_dma, SMC_WR_RX_TAIL,
				    DMA_FROM_DEVICE);
		kfree(wr->long_tx);
		kfree(wr->rx_tail);
		wr->long_tx = NULL;
		wr->rx_tail = NULL;
	}
	kfree(wr->tx_bufs);
	kfree(wr->rx_bufs);
	wr->tx_bufs = NULL;
	wr->rx_bufs = NULL;
	wr->mapped = false;
}

/**
 * smc_wr_rx_post_all() - post every receive buffer of a link
 * @lnk: link whose QP is in INIT
 *
 * Return: 0 or the errno of ib_post_recv().
 */
int smc_wr_rx_post_all(struct smc_link *lnk)
{
	u32 i;
	int rc;

	for (i = 0; i < SMC_WR_RX_BUFS; i++) {
		rc = smc_wr_rx_post(lnk, i);
		if (rc)
			return rc;
	}
	return 0;
}

/* Take a free slot of @first up to @end; the long one is @first = @end - 1 */
static bool smc_wr_tx_try(struct smc_link *lnk, u32 first, u32 end, u32 *idx)
{
	u32 i;

	for (i = first; i < end; i++) {
		if (!test_and_set_bit(i, &lnk->wr.tx_busy)) {
			*idx = i;
			return true;
		}
	}
	return false;
}

/**
 * smc_wr_post() - post a send-queue WR if the link may send
 * @lnk: the link
 * @wr: the WR; its SGEs get the PD's local DMA lkey
 * @active_only: only on an ACTIVE link (data and CDC, RFC 6581), else
 *	also on an ACTIVATING one (LLC, registrations)
 * @buf: DMA address of the buffer every SGE of @wr must lie in; the SGEs
 *	are synced for the device
 * @buf_len: its size (0 with a WR without SGEs)
 *
 * Under lnk->post_lock, so teardown (which takes it for writing when it
 * stops the link) never destroys the QP under a post, and the device
 * pointers stay valid while they are used here.
 *
 * Return: 0, -ENOLINK (also when an SGE lies outside @buf: a bug of
 * smcr, the link is taken down), or the errno of ib_post_send() (link
 * taken down).
 */
int smc_wr_post(struct smc_link *lnk, struct ib_send_wr *wr,
		bool active_only, u64 buf, u64 buf_len)
{
	int state, i, rc;

	if (!smc_wr_sges_inside(lnk, wr->sg_list, wr->num_sge, buf, buf_len)) {
		smc_link_down(lnk);
		return -ENOLINK;
	}
	read_lock_bh(&lnk->post_lock);
	state = READ_ONCE(lnk->state);
	if (state != SMC_LNK_ACTIVE &&
	    (active_only || state != SMC_LNK_ACTIVATING)) {
		read_unlock_bh(&lnk->post_lock);
		return -ENOLINK;
	}
	for (i = 0; i < wr->num_sge; i++) {
		wr->sg_list[i].lkey = lnk->pd->local_dma_lkey;
		if (wr->sg_list[i].length)
			ib_dma_sync_single_for_device(lnk->sdev->ibdev,
						      wr->sg_list[i].addr,
						      wr->sg_list[i].length,
						      DMA_TO_DEVICE);
	}
	atomic_inc(&lnk->wr.tx_posted);
	rc = ib_post_send(lnk->qp, wr, NULL);
	if (rc)
		atomic_dec(&lnk->wr.tx_posted);
	read_unlock_bh(&lnk->post_lock);
	if (rc) {
		pr_info_ratelimited("link group %u link %u: post failed: %d\n",
				    lnk->lgr->id, lnk->link_id, rc);
		smc_link_down(lnk);
	}
	return rc;
}

static int smc_wr_tx_take(struct smc_link *lnk, bool wait, u32 first,
			  u32 end, void **buf)
{
	long timeout = msecs_to_jiffies(READ_ONCE(smc_llc_timeout_ms));
	unsigned long give_up = jiffies + SMC_WR_TX_WAIT_ROUNDS * timeout;
	bool took = false;
	u32 idx = 0, seen;

	if (!smc_wr_link_usable(lnk))
		return -ENOLINK;
	while (!smc_wr_tx_try(lnk, first, end, &idx)) {
		if (!wait)
			return -EBUSY;
		/* not interruptible: a signal must not cost a CDC message
		 * (a window update, a close); the wait is bounded: below
		 */
		seen = READ_ONCE(lnk->wr.tx_completed);
		wait_event_timeout(lnk->wr.tx_wait,
				   !smc_wr_link_usable(lnk) ||
				   (took = smc_wr_tx_try(lnk, first, end,
							 &idx)),
				   timeout);
		if (took)
			break;
		if (!smc_wr_link_usable(lnk))
			return -ENOLINK;
		/* buffers came free, for other senders: the link works -
		 * for SMC_WR_TX_WAIT_ROUNDS timeouts at most: a peer that
		 * frees one now and then does not hold us for ever
		 */
		if (READ_ONCE(lnk->wr.tx_completed) != seen &&
		    time_before(jiffies, give_up))
			continue;
		pr_warn_ratelimited("link group %u link %u: no send buffer free for %u ms, link down\n",
				    lnk->lgr->id, lnk->link_id,
				    READ_ONCE(smc_llc_timeout_ms));
		smc_link_down(lnk);
		return -ENOLINK;
	}
	/*
	 * Again with the buffer taken: the teardown makes the link unusable
	 * before it waits for every taken buffer (smc_wr_drain()), so a link
	 * still usable now keeps its buffers until this one is given back
	 */
	if (!smc_wr_link_usable(lnk)) {
		clear_bit_unlock(idx, &lnk->wr.tx_busy);
		wake_up(&lnk->wr.tx_wait);
		return -ENOLINK;
	}
	lnk->wr.tx_slots[idx].cdc = false;
	*buf = smc_wr_tx_buf(lnk, idx);
	memset(*buf, 0, idx == SMC_WR_TX_LONG ? SMC_LLC_V2_MSG_MAX :
						SMC_WR_BUF_SIZE);
	return 0;
}

/**
 * smc_wr_tx_get() - take a free send buffer of a link
 * @lnk: the link
 * @wait: sleep (not interruptibly) until one is free: up to
 *	llc_timeout_ms while none comes free, SMC_WR_TX_WAIT_ROUNDS times
 *	that while other senders take the ones that do; false in atomic or
 *	completion context
 * @buf: set to the zeroed buffer of SMC_WR_BUF_SIZE bytes
 *
 * Send buffers free as the peer acknowledges our messages, within
 * milliseconds on a working link. When none frees for llc_timeout_ms the
 * peer takes none of our messages (it withholds its receive buffers, or
 * is gone): like a TEST LINK without a reply (4.5.3), that makes the link
 * unusable, and it is taken down - rather than have every sender give up
 * on its own while the peer may still write into our RMBs. So is a link
 * whose buffers this sender did not get in SMC_WR_TX_WAIT_ROUNDS times
 * that, although some came free: a peer that frees one now and then.
 *
 * Return: 0; -ENOLINK if the link is down, also when it was taken down
 * for want of a buffer; -EBUSY (no wait) if none is free.
 */
int smc_wr_tx_get(struct smc_link *lnk, bool wait, void **buf)
{
	return smc_wr_tx_take(lnk, wait, 0, SMC_WR_TX_SLOTS, buf);
}

/**
 * smc_wr_tx_get_long() - take the long send buffer of a version 2 link
 * @lnk: the link
 * @buf: set to the zeroed buffer of SMC_LLC_V2_MSG_MAX bytes
 *
 * Waits like smc_wr_tx_get() while the last long message is in flight.
 *
 * Return: 0; -ENOLINK if the link is down; -EOPNOTSUPP on a version 1
 * link.
 */
int smc_wr_tx_get_long(struct smc_link *lnk, void **buf)
{
	if (!lnk->wr.long_tx)
		return -EOPNOTSUPP;
	return smc_wr_tx_take(lnk, true, SMC_WR_TX_LONG, SMC_WR_TX_LONG + 1,
			      buf);
}

/* CDC messages need an ACTIVE link (RFC 6581); LLC also an ACTIVATING one */
static bool buf_is_cdc(const void *buf)
{
	return *(const u8 *)buf == SMC_CDC_MSG_TYPE;
}

static u32 smc_wr_tx_idx(struct smc_link *lnk, void *buf)
{
	if (buf == lnk->wr.long_tx)
		return SMC_WR_TX_LONG;
	return ((u8 *)buf - lnk->wr.tx_bufs) / SMC_WR_BUF_SIZE;
}

/**
 * smc_wr_tx_set_cdc() - report the completion of this buffer's send
 * @lnk: the link
 * @buf: from smc_wr_tx_get(), not yet posted
 * @sent: what the CDC message in it says, passed to smc_cdc_tx_done()
 */
void smc_wr_tx_set_cdc(struct smc_link *lnk, void *buf,
		       const struct smc_cdc_sent *sent)
{
	struct smc_wr_tx_slot *slot = &lnk->wr.tx_slots[smc_wr_tx_idx(lnk, buf)];

	slot->cdc = true;
	slot->sent = *sent;
}

/**
 * smc_wr_tx_put() - give back a send buffer that was not sent
 * @lnk: the link
 * @buf: from smc_wr_tx_get()
 */
void smc_wr_tx_put(struct smc_link *lnk, void *buf)
{
	clear_bit_unlock(smc_wr_tx_idx(lnk, buf), &lnk->wr.tx_busy);
	wake_up(&lnk->wr.tx_wait);
}

static void smc_wr_write_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smc_link *lnk = container_of(wc->wr_cqe, struct smc_link,
					    write_cqe);

	if (wc->status != IB_WC_SUCCESS)
		smc_wr_failed(lnk, wc);
	smc_wr_unpost(lnk, &lnk->wr.tx_posted);
}

/**
 * smc_wr_rdma_write() - post an RDMA WRITE from a send-buffer element
 * @lnk: an ACTIVE link
 * @elem: the connection's send-buffer element (mapped for the device)
 * @src: one or two ranges of @elem (the second when the bytes wrap in
 *	it), written one after the other; each must lie in the element
 * @remote: address in the peer's RMB of the first byte
 * @rkey: the peer RMB's rkey
 *
 * Signaled, like every WR of smcr, so the drain at teardown can count it.
 * The CDC message posted after it reaches the peer only after the data
 * (RC ordering).
 *
 * Return: 0, -ENOLINK, or a negative errno with the link taken down (see
 * smc_wr_post()).
 */
int smc_wr_rdma_write(struct smc_link *lnk, const struct smc_buf_elem *elem,
		      const struct smc_span *src, u64 remote, u32 rkey)
{
	u64 base = smc_buf_elem_dma(elem, smc_link_slot(lnk));
	struct ib_sge sge[2] = {
		{ .addr = base + src->off[0], .length = src->len[0] },
		{ .addr = base + src->off[1], .length = src->len[1] },
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe		= &lnk->write_cqe,
			.sg_list	= sge,
			.num_sge	= src->len[1] ? 2 : 1,
			.opcode		= IB_WR_RDMA_WRITE,
			.send_flags	= IB_SEND_SIGNALED,
		},
		.remote_addr	= remote,
		.rkey		= rkey,
	};

	return smc_wr_post(lnk, &wr.wr, true, base, elem->buf->elem_size);
}

/*
 * Post @len bytes at @dma, the buffer of send slot @idx, as a signaled
 * SEND; @pool/@pool_len: the mapping the SGE must lie in. The slot is
 * given back if the post fails.
 */
static int smc_wr_tx_post_send(struct smc_link *lnk, u32 idx, u64 dma,
			       u32 len, bool cdc, u64 pool, u64 pool_len)
{
	struct ib_sge sge = {
		.addr	= dma,
		.length	= len,
	};
	struct ib_send_wr wr = {
		.wr_cqe		= &lnk->wr.tx_slots[idx].cqe,
		.sg_list	= &sge,
		.num_sge	= 1,
		.opcode		= IB_WR_SEND,
		.send_flags	= IB_SEND_SIGNALED,
	};
	int rc;

	rc = smc_wr_post(lnk, &wr, cdc, pool, pool_len);
	if (rc)
		smc_wr_tx_put(lnk, smc_wr_tx_buf(lnk, idx));
	return rc;
}

/**
 * smc_wr_tx_send() - post a filled send buffer as a SEND
 * @lnk: the link
 * @buf: from smc_wr_tx_get(); owned by the send from here on, also on
 *	error
 *
 * Return: 0, -ENOLINK if the link went down, or the errno of
 * ib_post_send() (the link is then taken down).
 */
int smc_wr_tx_send(struct smc_link *lnk, void *buf)
{
	u32 idx = smc_wr_tx_idx(lnk, buf);

	/* the pool, not the slot: the SGE is made from the slot's index, so
	 * what can go wrong is an index past the pool
	 */
	return smc_wr_tx_post_send(lnk, idx, lnk->wr.tx_dma +
				   idx * SMC_WR_BUF_SIZE, SMC_WR_BUF_SIZE,
				   buf_is_cdc(buf), lnk->wr.tx_dma,
				   SMC_WR_TX_SLOTS * SMC_WR_BUF_SIZE);
}

/**
 * smc_wr_tx_send_long() - post the filled long send buffer as a SEND
 * @lnk: the link
 * @buf: from smc_wr_tx_get_long(); owned by the send from here on, also
 *	on error
 * @len: the message's length, SMC_WR_BUF_SIZE to SMC_LLC_V2_MSG_MAX
 *
 * Return: as smc_wr_tx_send(); -EINVAL for a length out of range.
 */
int smc_wr_tx_send_long(struct smc_link *lnk, void *buf, u32 len)
{
	if (buf != lnk->wr.long_tx || len < SMC_WR_BUF_SIZE ||
	    len > SMC_LLC_V2_MSG_MAX) {
		smc_wr_tx_put(lnk, buf);
		return -EINVAL;
	}
	return smc_wr_tx_post_send(lnk, SMC_WR_TX_LONG, lnk->wr.long_tx_dma,
				   len, false, lnk->wr.long_tx_dma,
				   SMC_LLC_V2_MSG_MAX);
}
