// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the tunables an administrator reaches for - timeouts, the
 * keepalive interval, the link group linger time, the close timer, the
 * handshake limit, buffer sizes, links per link group, autocorking.
 *
 * Each is one row, SMC_TUNABLE(), that states its name, scope, range,
 * default, unit and description once, and makes from them
 *
 * - its variable, the module-wide value, with the default;
 * - its struct smc_tunable, which the module parameter's setter and the
 *   sysctls check the range with;
 * - the module parameter smcr.NAME, whose modinfo description spells range
 *   and default out from the same literals.
 *
 * smc_tunables[] lists the rows; the sysctls net.smc.NAME are made from it
 * for each network namespace. A value outside the range is refused with
 * EINVAL by either, and the old one stays. selftest 106 checks the
 * descriptions against what the parameters and sysctls accept.
 *
 * Scope. A module-wide tunable (G) has one value, its module parameter's;
 * its sysctl exists in the initial network namespace only. A
 * per-namespace tunable (N: Linux's per-namespace sysctls, with their
 * names, units and ranges, and smcr's keepalive_ms) has a value in each
 * namespace: the initial namespace's is the module parameter's (a write
 * to either changes both), and a namespace created later starts from the
 * module parameter's value then, as Linux's start from their defaults. Its
 * sysctl exists in every namespace; readers take the value of their
 * socket's or link group's namespace with smc_tun().
 *
 * An alias (SMC_TUNABLE_ALIAS()) is a second sysctl of a per-namespace
 * tunable, with Linux's name and coarser unit: smcr_testlink_time in
 * seconds reads keepalive_ms / 1000 (rounded down), and writing N sets
 * keepalive_ms to N * 1000. It has no module parameter of its own.
 *
 * Readers take a value with READ_ONCE(); a write is one store of an
 * unsigned int, so a reader sees the old value or the new one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/tcp.h>
#include <smcr/clc.h>

#include "compat.h"
#include "core.h"
#include "smcr.h"

/**
 * struct smc_tunable - one tunable, or an alias of one
 * @name: module parameter and sysctl name
 * @var: the module-wide value; for a per-namespace tunable the initial
 *	namespace's and the one new namespaces start from
 * @min: smallest value accepted (in the alias's unit for an alias)
 * @max: largest value accepted (likewise)
 * @scale: stored value per unit written: 1, or an alias's factor
 * @id: the tunable whose value this is: its own, or an alias's tunable
 * @netns: a value per network namespace
 *
 * Constant after the module's init.
 */
struct smc_tunable {
	const char *name;
	unsigned int *var;
	unsigned int min;
	unsigned int max;
	unsigned int scale;
	enum smc_tun_id id;
	bool netns;
};

static int smc_tunable_set(const char *val, const struct kernel_param *kp)
{
	const struct smc_tunable *t = kp->arg;
	struct kernel_param one = *kp;

	one.arg = t->var;
	return param_set_uint_minmax(val, &one, t->min, t->max);
}

static int smc_tunable_get(char *buf, const struct kernel_param *kp)
{
	const struct smc_tunable *t = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(*t->var));
}

static const struct kernel_param_ops smc_tunable_ops = {
	.set = smc_tunable_set,
	.get = smc_tunable_get,
};

#define SMC_TUN_STORAGE_G
#define SMC_TUN_STORAGE_N	static
#define SMC_TUN_NETNS_G		false
#define SMC_TUN_NETNS_N		true

/*
 * SMC_TUNABLE(scope, name, min, max, default, unit, description): one
 * row. scope is G (module-wide) or N (per network namespace); min, max and
 * default are decimal literals, as the module parameter's description
 * spells them out; unit is ", in UNIT" or "". Makes the variable smc_NAME,
 * the row smc_tun_NAME and the module parameter with its description.
 */
#define SMC_TUNABLE(scope, name_, min_, max_, def_, unit, desc)		\
	SMC_TUN_STORAGE_##scope unsigned int smc_##name_ = def_;	\
	static struct smc_tunable smc_tun_##name_ __ro_after_init = {	\
		.name = #name_, .var = &smc_##name_,			\
		.min = min_, .max = max_, .scale = 1,			\
		.id = SMC_TUN_##name_, .netns = SMC_TUN_NETNS_##scope,	\
	};								\
	module_param_cb(name_, &smc_tunable_ops, &smc_tun_##name_, 0644); \
	MODULE_INFO(parm, #name_ ":" desc unit " (" __stringify(min_) "-" \
		    __stringify(max_) ", default " __stringify(def_) ")")

/*
 * SMC_TUNABLE_ALIAS(name, tunable, scale): the sysctl NAME shows a
 * per-namespace tunable divided by scale. Its range is the tunable's in
 * its unit (smc_tunables_init()).
 */
#define SMC_TUNABLE_ALIAS(name_, of, scale_)				\
	static struct smc_tunable smc_tun_##name_ __ro_after_init = {	\
		.name = #name_, .var = &smc_##of, .scale = scale_,	\
		.id = SMC_TUN_##of, .netns = true,			\
	}

SMC_TUNABLE(G, clc_timeout_ms, 100, 60000, 6000, ", in ms",
	    "How long to wait for the peer's next CLC message");
SMC_TUNABLE(G, hs_limit, 1, 65535, 64, "",
	    "CLC handshakes one listener runs at once where net.smc.limit_smc_hs is 1; more clients get plain TCP");
SMC_TUNABLE(G, llc_timeout_ms, 100, 60000, 5000, ", in ms",
	    "Wait this long for an LLC reply or a free send buffer");
SMC_TUNABLE(N, keepalive_ms, 0, 3600000, 30000, ", in ms",
	    "Send TEST LINK after this much silence on a link (0: never)");
SMC_TUNABLE(G, lgr_linger_ms, 0, 86400000, 600000, ", in ms",
	    "Keep an unused link group this long before deleting it");
SMC_TUNABLE(G, close_timeout_ms, 100, 3600000, 60000, ", in ms",
	    "The close timer (RFC 7609 4.8.1): after close(), how long to wait for the peer's close or abort before resetting TCP and reusing the RMB element; after shutdown(SHUT_WR), how long the peer may stay silent before an abort");
/*
 * rmem and wmem: Linux's range (16384 to INT_MAX / 2), used up to the
 * largest element, 512 KiB (SMC_BUF_MAX_ELEM). 128 KiB, not Linux's 64 KiB:
 * measured on Soft-RoCE, a stream is bound by the window (writer blocked,
 * both hosts half idle); 128 KiB gave a third more throughput, 256 KiB
 * little beyond that (make bench). A send buffer smaller than the peer's
 * RMBE is also the window.
 */
SMC_TUNABLE(N, rmem, 16384, 1073741823, 131072, ", in bytes",
	    "RMB element size of connections whose socket has no SO_RCVBUF set (524288 at most are used)");
SMC_TUNABLE(N, wmem, 16384, 1073741823, 131072, ", in bytes",
	    "Send buffer size of connections whose socket has no SO_SNDBUF set, at most the peer's RMB element (524288 at most are used)");
/*
 * Per namespace, but one value for all: a namespace's link groups (and the
 * peers it serves) cannot take every link a device has room for from the
 * others. 64 was the device-wide limit before CQs became per link.
 */
SMC_TUNABLE(G, max_links_per_netns, 1, 65535, 64, "",
	    "Links the link groups of one network namespace may hold, on all RoCE devices; beyond it new link groups are declined");
/* TCP keepalive of SMC-R connections, for middleboxes only (4.5.3) */
SMC_TUNABLE(G, tcp_keepidle_min_s, 1, 32767, 60, ", in s",
	    "Least TCP_KEEPIDLE of the TCP connection under an SMC-R connection with SO_KEEPALIVE; the application's smaller value still paces the TEST LINK probes");
/*
 * Links per link group smcr offers (CONFIRM LINK's max links); the
 * smaller of both sides' is the link group's maximum. Linux's name,
 * range and default: with two, a link group survives the loss of one
 * (failover.c, RFC 7609 4.6).
 */
SMC_TUNABLE(N, smcr_max_links_per_lgr, 1, 2, 2, "",
	    "Links smcr offers per link group; the peer's smaller maximum wins; applies to new link groups");
/*
 * Linux's name, range and default: connections a release 1 SMC-R v2 link
 * group may take (clc_v2.c); the smaller of both sides' applies.
 */
SMC_TUNABLE(N, smcr_max_conns_per_lgr, 16, 255, 255, "",
	    "Connections smcr offers per SMC-R v2 link group; the peer's smaller maximum wins; applies to new link groups");
/* Linux's default is 0; smcr has limited handshakes from the start */
SMC_TUNABLE(N, limit_smc_hs, 0, 1, 1, "",
	    "Listening sockets created afterwards stop offering SMC while hs_limit of their handshakes run");
/* Linux's range (any unsigned int) and default */
SMC_TUNABLE(N, autocorking_size, 0, 4294967295, 65536, ", in bytes",
	    "Small sends held back while a CDC message is in flight, at most half the send buffer (0: none)");
/* Linux's name and unit for keepalive_ms */
SMC_TUNABLE_ALIAS(smcr_testlink_time, keepalive_ms, 1000);

/* The literals above, where they are limits defined elsewhere */
static_assert(SMC_CLC_RMBE_MIN_SIZE == 16384);	/* rmem, wmem */
static_assert(SMC_BUF_MAX_ELEM == 524288);	/* their descriptions */
static_assert(INT_MAX / 2 == 1073741823);	/* Linux's rmem/wmem max */
static_assert(MAX_TCP_KEEPIDLE == 32767);	/* tcp_keepidle_min_s */
static_assert(SMC_LGR_MAX_LINKS == 2);		/* smcr_max_links_per_lgr */
static_assert(SMC_CLC_MAX_CONNS_MIN == 16);	/* smcr_max_conns_per_lgr */
static_assert(SMC_CLC_MAX_CONNS == 255);
static_assert(UINT_MAX == 4294967295);		/* autocorking_size */

/* All rows, by enum smc_tun_id: the sysctls, in this order */
static struct smc_tunable *const smc_tunables[SMC_TUNABLES_NR] = {
	[SMC_TUN_clc_timeout_ms]	= &smc_tun_clc_timeout_ms,
	[SMC_TUN_hs_limit]		= &smc_tun_hs_limit,
	[SMC_TUN_llc_timeout_ms]	= &smc_tun_llc_timeout_ms,
	[SMC_TUN_keepalive_ms]		= &smc_tun_keepalive_ms,
	[SMC_TUN_lgr_linger_ms]		= &smc_tun_lgr_linger_ms,
	[SMC_TUN_close_timeout_ms]	= &smc_tun_close_timeout_ms,
	[SMC_TUN_rmem]			= &smc_tun_rmem,
	[SMC_TUN_wmem]			= &smc_tun_wmem,
	[SMC_TUN_max_links_per_netns]	= &smc_tun_max_links_per_netns,
	[SMC_TUN_tcp_keepidle_min_s]	= &smc_tun_tcp_keepidle_min_s,
	[SMC_TUN_smcr_max_links_per_lgr] = &smc_tun_smcr_max_links_per_lgr,
	[SMC_TUN_smcr_max_conns_per_lgr] = &smc_tun_smcr_max_conns_per_lgr,
	[SMC_TUN_limit_smc_hs]		= &smc_tun_limit_smc_hs,
	[SMC_TUN_autocorking_size]	= &smc_tun_autocorking_size,
	[SMC_TUN_smcr_testlink_time]	= &smc_tun_smcr_testlink_time,
};

/**
 * struct smc_tun_net - the tunables of one network namespace
 * @val: the per-namespace values, by enum smc_tun_id (aliases and
 *	module-wide ones unused); in the initial namespace unused too, its
 *	values are the module parameters. Written by the sysctls, read with
 *	READ_ONCE().
 * @table: the namespace's net.smc sysctls, or NULL; owned, freed at exit
 * @hdr: their registration, or NULL
 */
struct smc_tun_net {
	unsigned int		val[SMC_TUNABLES_NR];
	struct ctl_table	*table;
	struct ctl_table_header	*hdr;
};

static unsigned int smc_tun_net_id __read_mostly;

static struct smc_tun_net *smc_tun_net(const struct net *net)
{
	return net_generic(net, smc_tun_net_id);
}

/**
 * smc_tun() - a per-namespace tunable's value in a namespace
 * @net: the socket's or the link group's namespace
 * @id: a per-namespace tunable (not an alias)
 *
 * Return: its value there.
 */
unsigned int smc_tun(const struct net *net, enum smc_tun_id id)
{
	const struct smc_tunable *t = smc_tunables[id];

	if (net_eq(net, &init_net))
		return READ_ONCE(*t->var);
	return READ_ONCE(smc_tun_net(net)->val[id]);
}

/**
 * smc_tun_set() - set a per-namespace tunable as its sysctl would
 * @net: the namespace
 * @id: a per-namespace tunable
 * @v: the value, within the tunable's range (the caller's duty)
 *
 * For Linux's netlink switches of the same values
 * (SMC_NETLINK_{ENABLE,DISABLE}_HS_LIMITATION).
 */
void smc_tun_set(const struct net *net, enum smc_tun_id id, unsigned int v)
{
	const struct smc_tunable *t = smc_tunables[id];

	if (WARN_ON_ONCE(!t->netns))
		return;
	if (net_eq(net, &init_net))
		WRITE_ONCE(*t->var, v);
	else
		WRITE_ONCE(smc_tun_net(net)->val[id], v);
}

/*
 * The value (the initial namespace's variable, or another namespace's
 * slot) is in ctl->data, the row in ctl->extra1. The row's range applies
 * to the value written, in the row's unit.
 */
static int smc_tun_proc(smcr_ctl_table *ctl, int write, void *buf,
			size_t *lenp, loff_t *ppos)
{
	const struct smc_tunable *t = ctl->extra1;
	unsigned int *var = ctl->data;
	unsigned int v = READ_ONCE(*var) / t->scale;
	struct ctl_table one = {
		.procname	= ctl->procname,
		.data		= &v,
		.maxlen		= sizeof(v),
		.mode		= ctl->mode,
		.extra1		= (void *)&t->min,
		.extra2		= (void *)&t->max,
	};
	int rc;

	/*
	 * A write that does not start at offset 0 is ignored, as the kernel's
	 * own handlers do (sysctl_writes_strict): without parsing anything,
	 * so storing v would put back the value read above.
	 */
	if (write && *ppos) {
		*ppos += *lenp;
		return 0;
	}
	rc = proc_douintvec_minmax(&one, write, buf, lenp, ppos);
	if (!rc && write)
		WRITE_ONCE(*var, v * t->scale);
	return rc;
}

/* before 6.6 an empty entry ends a sysctl table */
#ifdef register_net_sysctl
#define SMC_SYSCTL_END	0
static struct ctl_table_header *smc_register_sysctl(struct net *net,
						    struct ctl_table *table,
						    size_t n)
{
	return register_net_sysctl_sz(net, "net/smc", table, n);
}
#else
#define SMC_SYSCTL_END	1
static struct ctl_table_header *smc_register_sysctl(struct net *net,
						    struct ctl_table *table,
						    size_t n)
{
	return register_net_sysctl(net, "net/smc", table);
}
#endif

/*
 * net.smc.* of @net: every tunable in the initial namespace, the
 * per-namespace ones elsewhere. Not fatal: without them (no memory, or the
 * directory taken by another module) the values still apply.
 */
static void smc_tun_sysctl_register(struct net *net, struct smc_tun_net *tn)
{
	bool init = net_eq(net, &init_net);
	const struct smc_tunable *t;
	struct ctl_table *table;
	int i, n = 0;

	table = kcalloc(SMC_TUNABLES_NR + SMC_SYSCTL_END, sizeof(*table),
			GFP_KERNEL);
	if (!table)
		goto fail;
	for (i = 0; i < SMC_TUNABLES_NR; i++) {
		t = smc_tunables[i];
		if (!init && !t->netns)
			continue;
		table[n++] = (struct ctl_table) {
			.procname	= t->name,
			.data		= init ? t->var : &tn->val[t->id],
			.maxlen		= sizeof(unsigned int),
			.mode		= 0644,
			.proc_handler	= smc_tun_proc,
			.extra1		= (void *)t,
		};
	}
	tn->hdr = smc_register_sysctl(net, table, n);
	if (tn->hdr) {
		tn->table = table;
		return;
	}
	kfree(table);
fail:
	pr_warn("net.smc sysctls of a network namespace not registered\n");
}

static int __net_init smc_tun_net_init(struct net *net)
{
	struct smc_tun_net *tn = smc_tun_net(net);
	int i;

	for (i = 0; i < SMC_TUNABLES_NR; i++)
		if (smc_tunables[i]->netns && smc_tunables[i]->id == i)
			tn->val[i] = READ_ONCE(*smc_tunables[i]->var);
	smc_tun_sysctl_register(net, tn);
	return 0;
}

static void __net_exit smc_tun_net_exit(struct net *net)
{
	struct smc_tun_net *tn = smc_tun_net(net);

	if (tn->hdr)
		unregister_net_sysctl_table(tn->hdr);
	kfree(tn->table);
}

static struct pernet_operations smc_tun_net_ops = {
	.init	= smc_tun_net_init,
	.exit	= smc_tun_net_exit,
	.id	= &smc_tun_net_id,
	.size	= sizeof(struct smc_tun_net),
};

/**
 * smc_tunables_init() - per-namespace values and net.smc.* sysctls
 *
 * Before the first socket: smc_tun() needs it.
 * Return: 0 or a negative errno.
 */
int __init smc_tunables_init(void)
{
	const struct smc_tunable *of;
	struct smc_tunable *t;
	int i;

	/* every row listed, every default (or insmod's value) in its range */
	for (i = 0; i < SMC_TUNABLES_NR; i++) {
		t = smc_tunables[i];
		if (WARN_ON(!t))
			return -EINVAL;
		of = smc_tunables[t->id];
		if (t->scale != 1) {
			/* an alias: its tunable's range, in its unit */
			if (WARN_ON(!of || of->scale != 1 || !of->netns))
				return -EINVAL;
			t->min = DIV_ROUND_UP(of->min, t->scale);
			t->max = of->max / t->scale;
		} else if (WARN_ON(t->id != i)) {
			return -EINVAL;
		}
		if (WARN_ON(*t->var < t->min * t->scale ||
			    *t->var / t->scale > t->max))
			return -EINVAL;
	}
	return register_pernet_subsys(&smc_tun_net_ops);
}

/**
 * smc_tunables_exit() - unregister them in every namespace
 */
void smc_tunables_exit(void)
{
	unregister_pernet_subsys(&smc_tun_net_ops);
}
