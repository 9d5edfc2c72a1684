// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: per network namespace statistics.
 *
 * Fallbacks are counted per reason and role, in a small table like the one
 * Linux exposes with SMC_NETLINK_GET_FBACK_STATS: one entry per distinct
 * reason code, the first SMC_STATS_FBACK_SLOTS codes seen. Fallback is the
 * slow path, so a spinlock is enough here.
 */
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "smcr.h"

/**
 * struct smc_net - smcr's state in a network namespace
 * @lock: protects @fback
 * @fback: fallback counters: [0] client, [1] server
 */
struct smc_net {
	spinlock_t		lock;		/* protects fback */
	struct smc_stats_fback	fback[2];
};

static unsigned int smc_net_id __read_mostly;

static struct smc_net *smc_net(const struct net *net)
{
	return net_generic(net, smc_net_id);
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

static int __net_init smc_net_init(struct net *net)
{
	spin_lock_init(&smc_net(net)->lock);
	return 0;
}

static struct pernet_operations smc_net_ops = {
	.init	= smc_net_init,
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
