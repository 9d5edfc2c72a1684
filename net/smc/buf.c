// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: RMBs and send buffers of a link group (RFC 7609 2.1, 4.1, 4.2).
 *
 * Both kinds are physically contiguous buffers of SMC_BUF_SIZE bytes (or
 * one element, if that is larger), DMA-mapped on the device of each link
 * of the link group (struct smc_buf_map: links may sit on different
 * devices) and split into equal elements of a size class (16 KiB ... 512 KiB). A
 * connection takes one element of each: an RMBE the peer writes into, and
 * a send buffer it stages its RDMA writes in. Elements of one buffer serve
 * any connection of the link group, of any process - this is how many
 * connections share one registered RMB.
 *
 * An RMB is registered once per link: ib_alloc_mr() on the link's PD fixes
 * its rkey there, which the CLC Accept or Confirm (for the connection's
 * link) or the LLC (for the others) announces; the fast-registration work
 * request that makes the rkey valid (smc_buf_register()) is posted once
 * the link can send (RTS), always before the peer may write. A link added
 * later maps every buffer there is (smc_buf_link_map()) and registers
 * every RMB (smc_buf_link_register()) before its CONFIRM LINK. A connection that finds a
 * free element in an existing RMB the peer knows needs no LLC exchange at
 * all; a new RMB of an existing link group is announced with CONFIRM RKEY
 * first (llc_rkey.c, 3.5.5.2.1).
 *
 * An RMB's memory region is on the PD of the link that registers it, which
 * is that link's alone (struct smc_link): its rkey means nothing to the QP
 * of any other link group.
 *
 * Send buffers are not registered: RDMA writes read them with the link's
 * PD's local DMA lkey.
 *
 * An RMB element the peer may write into although no connection owns it
 * any more - a subsequent contact that failed after the server's Accept
 * (3.5.2.4: the client writes as soon as its Confirm is out; C.3: the
 * server can then only break the connection) - is abandoned
 * (smc_buf_abandon()): it stays taken until the link group ends, when the
 * peer's QP and the rkey go with it.
 *
 * Teardown: the memory registrations and DMA mappings go with each link
 * (smc_buf_link_unmap(), the device is still there); the
 * memory itself only when the link group is freed (smc_buf_free_all()),
 * since a reader may still copy from an RMBE of a connection that the
 * link group's end just aborted.
 *
 * Accounting: a buffer's memory is charged to the memory cgroup of the
 * socket whose connection allocated it (its sk_memcg: the creator's for a
 * client, the listener's for an accepted child, af_smc.c), also when other
 * connections of the link group - of any process, any cgroup - use its
 * other elements later, and until the link group frees it, which can be
 * lgr_linger_ms after that connection and process are gone. A socket
 * without a memory cgroup (root, or cgroup v1 without socket accounting,
 * as for TCP) charges nobody. Both the client's and the server's buffers
 * are allocated in a handshake worker (smc_hs_wq), whose own memory cgroup
 * is the root: the allocation names the socket's with set_active_memcg()
 * (task context, current->active_memcg), and a memory cgroup at its limit
 * fails it (-ENOMEM: the handshake declines with MEM, or falls back). It
 * runs outside lgr->buf_lock, so that the cgroup's reclaim or throttling
 * stalls only the handshake that allocates.
 * Not charged: the struct smc_buf, the DMA mappings and memory regions
 * (the device's), and each link's own message buffers.
 *
 * Locking: lgr->buf_lock (a mutex) protects the buffer lists and element
 * bitmaps, and serializes registration.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/gfp.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <smcr/clc.h>

#include "buf.h"
#include "core.h"
#include "link.h"
#include "wr.h"

#define SMC_BUF_SIZE		(256U << 10)	/* per buffer, at least */

/*
 * Abandoned RMB elements a link group may hold: each is memory nobody can
 * use until the link group ends, and a peer that fails its subsequent
 * contacts on purpose must not make that unbounded.
 */
#define SMC_BUF_ABANDONED_MAX	16

static u32 smc_buf_elem_size(u8 cls)
{
	return smc_clc_rmbe_size(cls);
}

static enum dma_data_direction smc_buf_dir(const struct smc_buf *buf)
{
	return buf->rmb ? SMC_RMB_DMA_DIR : DMA_TO_DEVICE;
}

/* Drop @buf's mapping and memory region on @lnk's device */
static void smc_buf_unmap_one(struct smc_link *lnk, struct smc_buf *buf)
{
	struct smc_buf_map *m = &buf->map[smc_link_slot(lnk)];

	if (!m->mapped)
		return;
	if (m->mr)
		ib_dereg_mr(m->mr);
	m->mr = NULL;
	m->registered = false;
	/*
	 * No sync back: the memory stays in use through the other links,
	 * and a bounce buffer's stale copy must not overwrite what they
	 * wrote; every CPU access syncs explicitly
	 */
	ib_dma_unmap_sg_attrs(lnk->sdev->ibdev, &m->sg, 1, smc_buf_dir(buf),
			      DMA_ATTR_SKIP_CPU_SYNC);
	m->mapped = false;
}

/*
 * Map @buf on @lnk's device; an RMB also gets a memory region on the
 * link's PD, its rkey fixed now and made valid by smc_buf_register().
 */
static int smc_buf_map_one(struct smc_link *lnk, struct smc_buf *buf)
{
	struct smc_buf_map *m = &buf->map[smc_link_slot(lnk)];
	int n;

	sg_init_one(&m->sg, buf->cpu, buf->size);
	n = ib_dma_map_sg(lnk->sdev->ibdev, &m->sg, 1, smc_buf_dir(buf));
	if (n != 1)
		return -ENOMEM;
	m->mapped = true;
	m->dma = sg_dma_address(&m->sg);
	if (!buf->rmb)
		return 0;
	m->mr = ib_alloc_mr(lnk->pd, IB_MR_TYPE_MEM_REG,
			    buf->size >> PAGE_SHIFT);
	if (IS_ERR(m->mr)) {
		m->mr = NULL;
		smc_buf_unmap_one(lnk, buf);
		return -ENOMEM;
	}
	n = ib_map_mr_sg(m->mr, &m->sg, 1, NULL, PAGE_SIZE);
	if (n != 1) {
		smc_buf_unmap_one(lnk, buf);
		return -ENOMEM;
	}
	m->rkey = m->mr->rkey;
	return 0;
}

static void smc_buf_release(struct smc_buf *buf)
{
	free_pages((unsigned long)buf->cpu, get_order(buf->size));
	kfree(buf);
}

/*
 * The memory of a new buffer, charged to @memcg (if not NULL; the caller
 * holds a reference on it, its socket's).
 */
static void *smc_buf_alloc_pages(u32 size, struct mem_cgroup *memcg)
{
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN;
	struct mem_cgroup *old;
	void *cpu;

	if (!memcg)
		return (void *)__get_free_pages(gfp, get_order(size));
	old = set_active_memcg(memcg);
	cpu = (void *)__get_free_pages(gfp | __GFP_ACCOUNT, get_order(size));
	set_active_memcg(old);
	return cpu;
}

/* Bytes of a buffer of size class @cls */
static u32 smc_buf_size(u8 cls)
{
	return max(smc_buf_elem_size(cls), SMC_BUF_SIZE);
}

/*
 * A new buffer on the memory @cpu (smc_buf_alloc_pages(), which it takes
 * over, also on failure), mapped on every link of lgr->bufs_mapped;
 * buf_lock held
 */
static struct smc_buf *smc_buf_new(struct smc_link_group *lgr, bool rmb,
				   u8 cls, void *cpu)
{
	u32 elem = smc_buf_elem_size(cls);
	struct smc_buf *buf;
	int i;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf) {
		free_pages((unsigned long)cpu, get_order(smc_buf_size(cls)));
		return NULL;
	}
	buf->rmb = rmb;
	buf->cls = cls;
	buf->elem_size = elem;
	buf->size = smc_buf_size(cls);
	buf->nelem = buf->size / elem;
	buf->cpu = cpu;
	for (i = 0; i < SMC_LGR_LINKS; i++) {
		if (!(lgr->bufs_mapped & BIT(i)))
			continue;
		if (smc_buf_map_one(&lgr->lnk[i], buf))
			goto err;
	}
	return buf;

err:
	while (i--)
		if (lgr->bufs_mapped & BIT(i))
			smc_buf_unmap_one(&lgr->lnk[i], buf);
	smc_buf_release(buf);
	return NULL;
}

/**
 * smc_buf_class() - size class of an element of at least @size bytes
 * @size: wanted size; clamped to the classes smcr offers
 *
 * Return: the class, the RMBE size code of A.2.3 (0 = 16 KiB ... 5 =
 * 512 KiB).
 */
u8 smc_buf_class(u32 size)
{
	int code = smc_clc_rmbe_code(clamp_t(u32, size, SMC_CLC_RMBE_MIN_SIZE,
					     smc_clc_rmbe_size(SMC_BUF_CLASSES - 1)));

	return code < 0 ? 0 : code;
}

/*
 * Take a free element of an existing buffer of @head into @out: 0; -ENOENT
 * if there is none, -ENOLINK if the link group's buffers are going.
 * buf_lock held.
 */
static int smc_buf_take_free(struct smc_link_group *lgr,
			     struct list_head *head, struct smc_buf_elem *out)
{
	struct smc_buf *buf;
	u32 idx;

	if (lgr->bufs_unmapped)
		return -ENOLINK;
	list_for_each_entry(buf, head, list) {
		idx = find_first_zero_bit(&buf->used, buf->nelem);
		if (idx < buf->nelem) {
			set_bit(idx, &buf->used);
			out->buf = buf;
			out->idx = idx;
			return 0;
		}
	}
	return -ENOENT;
}

/**
 * smc_buf_get() - take a free element of a size class
 * @lgr: the link group
 * @rmb: an RMB element (else a send buffer element)
 * @cls: size class, below SMC_BUF_CLASSES
 * @memcg: memory cgroup a new buffer is charged to (the connection's
 *	socket's sk_memcg, referenced by it), or NULL
 * @out: filled on success (@out->fresh: a new buffer)
 *
 * Uses a free element of an existing buffer, else allocates (and for an
 * RMB prepares the registration of) a new buffer, charged to @memcg for
 * as long as the link group keeps it (see "Accounting" above).
 *
 * Context: process (task context: set_active_memcg()); takes
 * lgr->buf_lock.
 * Return: 0, -ENOLINK if the link group is gone, or -ENOMEM.
 */
int smc_buf_get(struct smc_link_group *lgr, bool rmb, u8 cls,
		struct mem_cgroup *memcg, struct smc_buf_elem *out)
{
	struct list_head *head = &lgr->bufs[rmb][cls];
	struct smc_buf *buf;
	void *cpu;
	int rc;

	out->fresh = false;
	mutex_lock(&lgr->buf_lock);
	rc = smc_buf_take_free(lgr, head, out);
	mutex_unlock(&lgr->buf_lock);
	if (rc != -ENOENT)
		return rc;
	/*
	 * The memory outside buf_lock: the memory cgroup's reclaim or
	 * throttling (memory.max, memory.high) stalls this handshake only,
	 * not every connection of the link group, of any cgroup, that wants
	 * an element meanwhile.
	 */
	cpu = smc_buf_alloc_pages(smc_buf_size(cls), memcg);
	if (!cpu)
		return -ENOMEM;
	mutex_lock(&lgr->buf_lock);
	rc = smc_buf_take_free(lgr, head, out);
	if (rc == -ENOENT) {
		/* still none: ours becomes the class's next buffer */
		buf = smc_buf_new(lgr, rmb, cls, cpu);
		cpu = NULL;
		rc = -ENOMEM;
		if (buf) {
			list_add_tail(&buf->list, head);
			atomic64_add(buf->size, &lgr->buf_bytes[rmb]);
			set_bit(0, &buf->used);
			out->buf = buf;
			out->idx = 0;
			out->fresh = true;
			rc = 0;
		}
	}
	mutex_unlock(&lgr->buf_lock);
	/* another connection's new buffer came first, or the group is going */
	if (cpu)
		free_pages((unsigned long)cpu, get_order(smc_buf_size(cls)));
	return rc;
}

/**
 * smc_buf_put() - give an element back to its link group
 * @lgr: the link group
 * @e: from smc_buf_get(); cleared
 *
 * The element is zeroed before reuse (a new connection must not read an
 * old one's data); an abandoned one stays taken (smc_buf_abandon()).
 */
void smc_buf_put(struct smc_link_group *lgr, struct smc_buf_elem *e)
{
	if (!e->buf)
		return;
	mutex_lock(&lgr->buf_lock);
	if (!test_bit(e->idx, &e->buf->abandoned)) {
		memset(smc_buf_elem_cpu(e), 0, e->buf->elem_size);
		clear_bit(e->idx, &e->buf->used);
	}
	mutex_unlock(&lgr->buf_lock);
	e->buf = NULL;
}

/**
 * smc_buf_abandon() - keep an RMB element out of use until its link group
 *	ends
 * @lgr: the link group
 * @e: an RMB element from smc_buf_get(), still held
 *
 * For an element whose rkey and index the peer learnt and may still write
 * into, though its connection failed before the peer could be told to
 * stop: on a subsequent contact after the server's Accept (RFC 7609
 * 3.5.2.4, C.3). The owner releases it as usual (smc_buf_put()); the
 * element then stays taken, never zeroed for another connection, until
 * the link group's buffers are freed.
 *
 * Context: process; takes lgr->buf_lock.
 * Return: true if @lgr now holds SMC_BUF_ABANDONED_MAX abandoned elements:
 * the caller should retire it (smc_lgr_retire()); its end frees them.
 */
bool smc_buf_abandon(struct smc_link_group *lgr, struct smc_buf_elem *e)
{
	struct smc_buf *buf;
	unsigned int n = 0;
	int cls;

	if (!e->buf)
		return false;
	mutex_lock(&lgr->buf_lock);
	set_bit(e->idx, &e->buf->abandoned);
	for (cls = 0; cls < SMC_BUF_CLASSES; cls++)
		list_for_each_entry(buf, &lgr->bufs[true][cls], list)
			n += hweight_long(buf->abandoned);
	mutex_unlock(&lgr->buf_lock);
	return n >= SMC_BUF_ABANDONED_MAX;
}

static void smc_buf_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smc_link *lnk = container_of(wc->wr_cqe, struct smc_link,
					    reg_cqe);

	lnk->reg_status = wc->status;
	complete(&lnk->reg_done);
	smc_wr_unpost(lnk, &lnk->wr.tx_posted);
}

/* Make @buf's rkey valid on @lnk (once), which can send; buf_lock held */
static int smc_buf_register_one(struct smc_link *lnk, struct smc_buf *buf)
{
	struct smc_buf_map *m = &buf->map[smc_link_slot(lnk)];
	struct smc_link_group *lgr = lnk->lgr;
	struct ib_reg_wr wr = {
		.wr = {
			.wr_cqe		= &lnk->reg_cqe,
			.opcode		= IB_WR_REG_MR,
			.send_flags	= IB_SEND_SIGNALED,
		},
		.mr	= m->mr,
		.key	= m->rkey,
		.access	= IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	long left;
	int rc;

	if (m->registered)
		return 0;
	if (!m->mr)
		return -ENOLINK;
	/*
	 * Soft-RoCE was seen running a registration twice when it was queued
	 * behind unacknowledged writes and the link retransmitted (6.1:
	 * "rxe_reg_fast_mr: ... not free"; the QP then fails): post it on an
	 * idle send queue. Bounded; other posts may still come in between.
	 */
	wait_event_timeout(lnk->wr.tx_wait, !atomic_read(&lnk->wr.tx_posted),
			   msecs_to_jiffies(READ_ONCE(smc_llc_timeout_ms)));
	lnk->reg_cqe.done = smc_buf_reg_done;
	reinit_completion(&lnk->reg_done);
	rc = smc_wr_post(lnk, &wr.wr, false, 0, 0);
	if (rc)
		return rc;
	left = wait_for_completion_timeout(&lnk->reg_done,
					   msecs_to_jiffies(READ_ONCE(smc_llc_timeout_ms)));
	if (!left) {
		/* the completion still comes (the drain flushes it) */
		pr_info_ratelimited("link group %u link %u: RMB registration timed out\n",
				    lgr->id, lnk->link_id);
		smc_link_down(lnk);
		return -ETIMEDOUT;
	}
	if (lnk->reg_status != IB_WC_SUCCESS) {
		pr_info_ratelimited("link group %u link %u: RMB registration failed: %s\n",
				    lgr->id, lnk->link_id,
				    ib_wc_status_msg(lnk->reg_status));
		smc_link_down(lnk);
		return -EIO;
	}
	m->registered = true;
	return 0;
}

/**
 * smc_buf_register() - make an RMB's rkeys valid on the link group's links
 * @lnk: the link the caller's connection uses
 * @buf: an RMB from smc_buf_get()
 *
 * Posts the fast-registration work request once per RMB and link, on
 * every link that registers RMBs (smc_buf_link_register()), and waits for
 * each. Call before the peer may write. A failure on another link than
 * @lnk is that link's (it is taken down, or is going already), not the
 * caller's: the RMB then has no RToken there, which CONFIRM RKEY and ADD
 * LINK CONTINUATION leave out.
 *
 * Context: process; takes lgr->buf_lock.
 * Return: 0, or a negative errno if the registration on @lnk failed (the
 * link is then taken down).
 */
int smc_buf_register(struct smc_link *lnk, struct smc_buf *buf)
{
	struct smc_link_group *lgr = lnk->lgr;
	int i, rc = -ENOLINK;

	mutex_lock(&lgr->buf_lock);
	for (i = 0; !lgr->bufs_unmapped && i < SMC_LGR_LINKS; i++) {
		if (!(lgr->bufs_reg & BIT(i)))
			continue;
		if (&lgr->lnk[i] == lnk)
			rc = smc_buf_register_one(lnk, buf);
		else
			smc_buf_register_one(&lgr->lnk[i], buf);
	}
	mutex_unlock(&lgr->buf_lock);
	return rc;
}

/**
 * smc_buf_link_map() - map the link group's buffers on a new link
 * @lnk: a link whose PD exists (smc_link_init())
 *
 * Every buffer of the link group, and every one it creates from now on,
 * is mapped on @lnk's device; RMBs get a memory region on its PD.
 *
 * Context: process; takes lgr->buf_lock.
 * Return: 0, -ENOLINK if the link group is gone, or -ENOMEM (nothing is
 * left mapped on @lnk then).
 */
int smc_buf_link_map(struct smc_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_buf *buf;
	int rmb, cls, rc = 0;

	mutex_lock(&lgr->buf_lock);
	if (lgr->bufs_unmapped) {
		rc = -ENOLINK;
		goto out;
	}
	for (rmb = 0; rmb < 2; rmb++)
		for (cls = 0; cls < SMC_BUF_CLASSES; cls++)
			list_for_each_entry(buf, &lgr->bufs[rmb][cls], list) {
				rc = smc_buf_map_one(lnk, buf);
				if (rc)
					goto undo;
			}
	lgr->bufs_mapped |= BIT(smc_link_slot(lnk));
	goto out;
undo:
	for (rmb = 0; rmb < 2; rmb++)
		for (cls = 0; cls < SMC_BUF_CLASSES; cls++)
			list_for_each_entry(buf, &lgr->bufs[rmb][cls], list)
				smc_buf_unmap_one(lnk, buf);
out:
	mutex_unlock(&lgr->buf_lock);
	return rc;
}

/**
 * smc_buf_link_register() - register the link group's RMBs on a link
 * @lnk: a link after smc_buf_link_map() that can send (RTS)
 *
 * Registers every RMB there is on @lnk, and from now on
 * smc_buf_register() registers new ones on it too.
 *
 * Context: process; takes lgr->buf_lock.
 * Return: 0, or a negative errno (see smc_buf_register()).
 */
int smc_buf_link_register(struct smc_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_buf *buf;
	int cls, rc = 0;

	mutex_lock(&lgr->buf_lock);
	lgr->bufs_reg |= BIT(smc_link_slot(lnk));
	for (cls = 0; !rc && cls < SMC_BUF_CLASSES; cls++)
		list_for_each_entry(buf, &lgr->bufs[true][cls], list) {
			rc = smc_buf_register_one(lnk, buf);
			if (rc)
				break;
		}
	mutex_unlock(&lgr->buf_lock);
	return rc;
}

/**
 * smc_buf_link_unmap() - drop a link's registrations and DMA mappings
 * @lnk: a link whose QP is destroyed
 * @unmap: false after a failed drain: the device may still touch the
 *	buffers, so their mappings stay (leaked); only stop using them
 *
 * When no link maps the buffers any more, no element can be taken any
 * more; the memory stays until smc_buf_free_all().
 *
 * Context: process; takes lgr->buf_lock.
 */
void smc_buf_link_unmap(struct smc_link *lnk, bool unmap)
{
	struct smc_link_group *lgr = lnk->lgr;
	u8 bit = BIT(smc_link_slot(lnk));
	struct smc_buf *buf;
	int rmb, cls;

	mutex_lock(&lgr->buf_lock);
	lgr->bufs_mapped &= ~bit;
	lgr->bufs_reg &= ~bit;
	if (!lgr->bufs_mapped)
		lgr->bufs_unmapped = true;
	for (rmb = 0; unmap && rmb < 2; rmb++)
		for (cls = 0; cls < SMC_BUF_CLASSES; cls++)
			list_for_each_entry(buf, &lgr->bufs[rmb][cls], list)
				smc_buf_unmap_one(lnk, buf);
	mutex_unlock(&lgr->buf_lock);
}

/**
 * smc_buf_free_all() - free every buffer of a link group
 * @lgr: a link group being freed (no connection refers to it)
 */
void smc_buf_free_all(struct smc_link_group *lgr)
{
	struct smc_buf *buf, *tmp;
	int rmb, cls;

	for (rmb = 0; rmb < 2; rmb++)
		for (cls = 0; cls < SMC_BUF_CLASSES; cls++)
			list_for_each_entry_safe(buf, tmp,
						 &lgr->bufs[rmb][cls], list) {
				list_del(&buf->list);
				smc_buf_release(buf);
			}
}

/**
 * smc_buf_bytes() - memory of a link group's buffers, for reports
 * @lgr: the link group
 * @rmb: RMBs (else send buffers)
 *
 * Takes no lock: a report (the netlink dump, under smc_lgr_mutex) must not
 * wait for buf_lock, which a registration holds while it waits on the
 * peer (smc_buf_register()).
 *
 * Return: bytes allocated.
 */
u64 smc_buf_bytes(struct smc_link_group *lgr, bool rmb)
{
	return atomic64_read(&lgr->buf_bytes[rmb]);
}

/**
 * smc_buf_init() - set up the buffer lists of a new link group
 * @lgr: the link group
 */
void smc_buf_init(struct smc_link_group *lgr)
{
	int rmb, cls;

	mutex_init(&lgr->buf_lock);
	for (rmb = 0; rmb < 2; rmb++)
		for (cls = 0; cls < SMC_BUF_CLASSES; cls++)
			INIT_LIST_HEAD(&lgr->bufs[rmb][cls]);
}
