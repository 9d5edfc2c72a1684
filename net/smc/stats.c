// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: per network namespace statistics.
 *
 * Two kinds of counters, both reported over generic netlink (netlink.c):
 *
 * - Fallbacks, per reason and role, in a small table like the one Linux
 *   exposes with SMC_NETLINK_GET_FBACK_STATS: one entry per distinct reason
 *   code, the first SMC_STATS_FBACK_SLOTS codes seen. Fallback is the slow
 *   path, so a spinlock (smc_net.lock) is enough here.
 *
 * - Everything SMC_NETLINK_GET_STATS reports (handshakes, payload and
 *   buffer histograms, buffer events): per-cpu counters, so the data path
 *   only does this_cpu_inc()/this_cpu_add() on its own CPU's copy. A reader
 *   sums all CPUs. A reset does not write other CPUs' counters (that would
 *   race with them): it records the current sums as a base that readers
 *   subtract (smc_net.base, under smc_net.base_lock). The buffer usage
 *   gauges are not reset.
 *
 * Counters are u64. On 64-bit kernels each one is read atomically; a sum
 * taken while the counters move is not a snapshot across counters.
 */
#include <linux/percpu.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "../../uapi/linux/smc.h"
#include "smcr.h"

/* Histogram buckets: up to 8K, 16K, ... 1024K, above */
#define SMC_STATS_BUCKETS	9

/**
 * struct smc_stats_bufev - buffer events of one direction
 * @small_peer: the peer's receive buffer was too small for a send
 * @small: our buffer was too small
 * @full_peer: the peer's receive buffer was full
 * @full: our buffer was full
 * @reuse: a buffer was reused
 * @alloc: a buffer was allocated
 * @dgrade: a smaller buffer than wanted was allocated
 */
struct smc_stats_bufev {
	u64	small_peer;
	u64	small;
	u64	full_peer;
	u64	full;
	u64	reuse;
	u64	alloc;
	u64	dgrade;
};

/**
 * struct smc_stats_tech - counters of one SMC technology (SMC-R here)
 * @buf_size: [tx, rx] sizes of buffers taken into use
 * @pload: [tx, rx] sizes of send and receive calls
 * @bufev: [tx, rx] buffer events
 * @succ: [client, server][v1, v2] handshakes that ended in SMC
 * @splice: splice_read calls
 * @cork: TCP_CORK set on an SMC connection
 * @ndly: TCP_NODELAY set on an SMC connection
 * @urg: urgent data sent or received
 * @bytes: [tx, rx] payload bytes
 * @calls: [tx, rx] send and receive calls
 * @usage: [tx, rx] bytes of buffers in use (gauges)
 */
struct smc_stats_tech {
	u64			buf_size[2][SMC_STATS_BUCKETS];
	u64			pload[2][SMC_STATS_BUCKETS];
	struct smc_stats_bufev	bufev[2];
	u64			succ[2][2];
	u64			splice;
	u64			cork;
	u64			ndly;
	u64			urg;
	u64			bytes[2];
	u64			calls[2];
	u64			usage[2];
};

/**
 * struct smc_stats - one CPU's counters in a namespace
 * @r: SMC-R
 * @hs_err: [client, server] handshakes that failed without fallback
 */
struct smc_stats {
	struct smc_stats_tech	r;
	u64			hs_err[2];
};

#define SMC_STATS_WORDS	(sizeof(struct smc_stats) / sizeof(u64))

/**
 * struct smc_net - smcr's statistics in a network namespace
 * @lock: protects @fback and @fback_gen
 * @fback: fallback counters: [0] client, [1] server
 * @fback_gen: incremented when @fback is reset
 * @pcpu: per-cpu counters; allocated with the namespace
 * @base_lock: protects @base
 * @base: sums of @pcpu at the last reset
 */
struct smc_net {
	spinlock_t		lock;		/* protects fback, fback_gen */
	struct smc_stats_fback	fback[2];
	u32			fback_gen;
	struct smc_stats __percpu *pcpu;
	struct mutex		base_lock;	/* protects base */
	struct smc_stats	base;
};

static unsigned int smc_net_id __read_mostly;

static struct smc_net *smc_net(const struct net *net)
{
	return net_generic(net, smc_net_id);
}

static struct smc_stats __percpu *smc_pcpu(const struct net *net)
{
	return smc_net(net)->pcpu;
}

/**
 * smc_stats_fallback() - count a fallback
 * @net: namespace of the connection
 * @server: the connection is the server side
 * @reason: SMC_CLC_DECL_* code
 */
void smc_stats_fallback(const struct net *net, bool server, u32 reason)
{
	struct smc_net *sn = smc_net(net);
	struct smc_stats_fback *fb = &sn->fback[server];
	int i;

	spin_lock_bh(&sn->lock);
	fb->total++;
	for (i = 0; i < SMC_STATS_FBACK_SLOTS; i++) {
		if (fb->rsn[i].count && fb->rsn[i].code != reason)
			continue;
		fb->rsn[i].code = reason;
		fb->rsn[i].count++;
		break;
	}
	spin_unlock_bh(&sn->lock);
}

/**
 * smc_stats_fallback_read() - copy the fallback counters of a namespace
 * @net: the namespace
 * @server: server (true) or client (false) side
 * @out: filled with a consistent snapshot
 */
void smc_stats_fallback_read(const struct net *net, bool server,
			     struct smc_stats_fback *out)
{
	struct smc_net *sn = smc_net(net);

	spin_lock_bh(&sn->lock);
	*out = sn->fback[server];
	spin_unlock_bh(&sn->lock);
}

/**
 * smc_stats_fallback_snapshot() - copy both fallback tables of a namespace
 * @net: the namespace
 * @out: [0] client, [1] server, taken together
 *
 * Return: the reset generation of the tables, for dump consistency checks.
 */
u32 smc_stats_fallback_snapshot(const struct net *net,
				struct smc_stats_fback out[2])
{
	struct smc_net *sn = smc_net(net);
	u32 gen;

	spin_lock_bh(&sn->lock);
	out[0] = sn->fback[0];
	out[1] = sn->fback[1];
	gen = sn->fback_gen;
	spin_unlock_bh(&sn->lock);
	return gen;
}

/**
 * smc_stats_hs_done() - count a handshake that ended in SMC-R
 * @net: namespace of the connection
 * @server: server side
 * @version: SMC version negotiated (1 or 2)
 */
void smc_stats_hs_done(const struct net *net, bool server, u8 version)
{
	this_cpu_inc(smc_pcpu(net)->r.succ[server][version >= 2]);
}

/**
 * smc_stats_hs_error() - count a handshake that failed without a fallback
 * @net: namespace of the connection
 * @server: server side
 *
 * For connections that were dropped (reset, error to the application)
 * rather than continued over TCP.
 */
void smc_stats_hs_error(const struct net *net, bool server)
{
	this_cpu_inc(smc_pcpu(net)->hs_err[server]);
}

static unsigned int smc_stats_bucket(u64 len)
{
	unsigned int b = fls64((len - 1) >> 13);

	return min_t(unsigned int, b, SMC_STATS_BUCKETS - 1);
}

/**
 * smc_stats_payload() - count a send or receive call on an SMC connection
 * @net: namespace of the connection
 * @tx: send (true) or receive call
 * @len: bytes the application asked for
 * @done: the call's result: bytes moved or a negative errno
 *
 * Not for connections that fell back to TCP.
 */
void smc_stats_payload(const struct net *net, bool tx, size_t len,
		       ssize_t done)
{
	struct smc_stats __percpu *s = smc_pcpu(net);

	this_cpu_inc(s->r.calls[tx ? 0 : 1]);
	if (done <= 0 || !len)
		return;
	this_cpu_inc(s->r.pload[tx ? 0 : 1][smc_stats_bucket(len)]);
	this_cpu_add(s->r.bytes[tx ? 0 : 1], done);
}

/**
 * smc_stats_buf() - count a buffer event of an SMC connection
 * @net: namespace of the connection
 * @tx: send buffer (true) or receive buffer (RMB)
 * @ev: what happened
 * @size: buffer size, for SMC_STATS_BUF_ALLOC, _REUSE and _FREE
 */
void smc_stats_buf(const struct net *net, bool tx, enum smc_stats_buf_ev ev,
		   size_t size)
{
	struct smc_stats __percpu *s = smc_pcpu(net);
	int d = tx ? 0 : 1;

	switch (ev) {
	case SMC_STATS_BUF_ALLOC:
	case SMC_STATS_BUF_REUSE:
		if (ev == SMC_STATS_BUF_ALLOC)
			this_cpu_inc(s->r.bufev[d].alloc);
		else
			this_cpu_inc(s->r.bufev[d].reuse);
		if (!size)
			break;
		this_cpu_inc(s->r.buf_size[d][smc_stats_bucket(size)]);
		this_cpu_add(s->r.usage[d], size);
		break;
	case SMC_STATS_BUF_FREE:
		this_cpu_sub(s->r.usage[d], size);
		break;
	case SMC_STATS_BUF_DGRADE:
		this_cpu_inc(s->r.bufev[d].dgrade);
		break;
	case SMC_STATS_BUF_FULL:
		this_cpu_inc(s->r.bufev[d].full);
		break;
	case SMC_STATS_BUF_FULL_PEER:
		this_cpu_inc(s->r.bufev[d].full_peer);
		break;
	case SMC_STATS_BUF_SMALL:
		this_cpu_inc(s->r.bufev[d].small);
		break;
	case SMC_STATS_BUF_SMALL_PEER:
		this_cpu_inc(s->r.bufev[d].small_peer);
		break;
	}
}

/**
 * smc_stats_event() - count a socket event of an SMC connection
 * @net: namespace of the connection
 * @ev: what happened
 */
void smc_stats_event(const struct net *net, enum smc_stats_ev ev)
{
	struct smc_stats __percpu *s = smc_pcpu(net);

	switch (ev) {
	case SMC_STATS_EV_SPLICE:
		this_cpu_inc(s->r.splice);
		break;
	case SMC_STATS_EV_CORK:
		this_cpu_inc(s->r.cork);
		break;
	case SMC_STATS_EV_NODELAY:
		this_cpu_inc(s->r.ndly);
		break;
	case SMC_STATS_EV_URG:
		this_cpu_inc(s->r.urg);
		break;
	}
}

/* Sum of all CPUs' counters. Caller holds sn->base_lock or needs no base. */
static void smc_stats_sum(struct smc_net *sn, struct smc_stats *sum)
{
	int cpu, i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const u64 *src = (const u64 *)per_cpu_ptr(sn->pcpu, cpu);
		u64 *dst = (u64 *)sum;

		for (i = 0; i < SMC_STATS_WORDS; i++)
			dst[i] += READ_ONCE(src[i]);
	}
}

/* Counters since the last reset. */
static void smc_stats_read(struct smc_net *sn, struct smc_stats *out)
{
	const u64 *base = (const u64 *)&sn->base;
	u64 *dst = (u64 *)out;
	int i;

	mutex_lock(&sn->base_lock);
	smc_stats_sum(sn, out);
	for (i = 0; i < SMC_STATS_WORDS; i++)
		dst[i] -= base[i];
	mutex_unlock(&sn->base_lock);
}

/**
 * smc_stats_reset() - set the counters of a namespace back to zero
 * @net: the namespace
 *
 * Resets the fallback table and the per-cpu counters, except the buffer
 * usage gauges.
 */
void smc_stats_reset(const struct net *net)
{
	struct smc_net *sn = smc_net(net);

	spin_lock_bh(&sn->lock);
	memset(sn->fback, 0, sizeof(sn->fback));
	sn->fback_gen++;
	spin_unlock_bh(&sn->lock);

	mutex_lock(&sn->base_lock);
	smc_stats_sum(sn, &sn->base);
	sn->base.r.usage[0] = 0;
	sn->base.r.usage[1] = 0;
	mutex_unlock(&sn->base_lock);
}

static int smc_stats_put_u64(struct sk_buff *skb, int type, u64 val)
{
	return nla_put_u64_64bit(skb, type, val, 0);
}

/* A histogram nest (SMC_NLA_STATS_PLOAD_*) */
static int smc_stats_put_hist(struct sk_buff *skb, int type, const u64 *b)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < SMC_STATS_BUCKETS; i++)
		if (smc_stats_put_u64(skb, SMC_NLA_STATS_PLOAD_8K + i, b[i]))
			goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* A buffer event nest (SMC_NLA_STATS_RMB_*) */
static int smc_stats_put_bufev(struct sk_buff *skb, int type,
			       const struct smc_stats_bufev *ev)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (smc_stats_put_u64(skb, SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT,
			      ev->small_peer) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_RMB_SIZE_SM_CNT, ev->small) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_RMB_FULL_PEER_CNT,
			      ev->full_peer) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_RMB_FULL_CNT, ev->full) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_RMB_REUSE_CNT, ev->reuse) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_RMB_ALLOC_CNT, ev->alloc) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_RMB_DGRADE_CNT, ev->dgrade)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* One SMC_NLA_STATS_SMC?_TECH nest */
static int smc_stats_put_tech(struct sk_buff *skb, int type,
			      const struct smc_stats_tech *t)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (smc_stats_put_bufev(skb, SMC_NLA_STATS_T_TX_RMB_STATS,
				&t->bufev[0]) ||
	    smc_stats_put_bufev(skb, SMC_NLA_STATS_T_RX_RMB_STATS,
				&t->bufev[1]) ||
	    smc_stats_put_hist(skb, SMC_NLA_STATS_T_TXPLOAD_SIZE, t->pload[0]) ||
	    smc_stats_put_hist(skb, SMC_NLA_STATS_T_RXPLOAD_SIZE, t->pload[1]) ||
	    smc_stats_put_hist(skb, SMC_NLA_STATS_T_TX_RMB_SIZE,
			       t->buf_size[0]) ||
	    smc_stats_put_hist(skb, SMC_NLA_STATS_T_RX_RMB_SIZE,
			       t->buf_size[1]) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_CLNT_V1_SUCC,
			      t->succ[0][0]) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_CLNT_V2_SUCC,
			      t->succ[0][1]) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_SRV_V1_SUCC,
			      t->succ[1][0]) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_SRV_V2_SUCC,
			      t->succ[1][1]) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_SENDPAGE_CNT, 0) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_SPLICE_CNT, t->splice) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_CORK_CNT, t->cork) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_NDLY_CNT, t->ndly) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_URG_DATA_CNT, t->urg) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_RX_BYTES, t->bytes[1]) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_TX_BYTES, t->bytes[0]) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_RX_CNT, t->calls[1]) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_T_TX_CNT, t->calls[0]) ||
	    smc_nl_put_uint(skb, SMC_NLA_STATS_T_RX_RMB_USAGE, t->usage[1]) ||
	    smc_nl_put_uint(skb, SMC_NLA_STATS_T_TX_RMB_USAGE, t->usage[0])) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * smc_stats_nl_put() - add the SMC_GEN_STATS nest of a namespace
 * @skb: message being built
 * @net: the namespace
 *
 * Context: process context (sleeps on the base lock and allocates).
 * Return: 0, -ENOMEM, or -EMSGSIZE if @skb is too small (nothing added).
 */
int smc_stats_nl_put(struct sk_buff *skb, const struct net *net)
{
	struct smc_stats *st, *zero;
	struct nlattr *nest;
	int rc = -EMSGSIZE;

	st = kzalloc(2 * sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	zero = st + 1;		/* SMC-D: smcr has none */
	smc_stats_read(smc_net(net), st);

	nest = nla_nest_start(skb, SMC_GEN_STATS);
	if (!nest)
		goto out;
	if (smc_stats_put_tech(skb, SMC_NLA_STATS_SMCD_TECH, &zero->r) ||
	    smc_stats_put_tech(skb, SMC_NLA_STATS_SMCR_TECH, &st->r) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_CLNT_HS_ERR_CNT,
			      st->hs_err[0]) ||
	    smc_stats_put_u64(skb, SMC_NLA_STATS_SRV_HS_ERR_CNT,
			      st->hs_err[1])) {
		nla_nest_cancel(skb, nest);
		goto out;
	}
	nla_nest_end(skb, nest);
	rc = 0;
out:
	kfree(st);
	return rc;
}

static int __net_init smc_net_init(struct net *net)
{
	struct smc_net *sn = smc_net(net);

	spin_lock_init(&sn->lock);
	mutex_init(&sn->base_lock);
	sn->pcpu = alloc_percpu(struct smc_stats);
	return sn->pcpu ? 0 : -ENOMEM;
}

static void __net_exit smc_net_exit(struct net *net)
{
	free_percpu(smc_net(net)->pcpu);
}

static struct pernet_operations smc_net_ops = {
	.init	= smc_net_init,
	.exit	= smc_net_exit,
	.id	= &smc_net_id,
	.size	= sizeof(struct smc_net),
};

/**
 * smc_stats_init() - set up per-namespace state
 *
 * Return: 0 or a negative errno.
 */
int smc_stats_init(void)
{
	return register_pernet_subsys(&smc_net_ops);
}

/**
 * smc_stats_exit() - tear down per-namespace state
 */
void smc_stats_exit(void)
{
	unregister_pernet_subsys(&smc_net_ops);
}
