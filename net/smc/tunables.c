// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the tunables an administrator reaches for - timeouts, the
 * keepalive interval, the link group linger time, the close timer, the
 * handshake limit, the default RMB element size.
 *
 * One table, smc_tunables[], gives each its name and range (its default is
 * the variable's initial value, next to it). The module parameters
 * (smcr.NAME) take their range from it through smc_tunable_ops, and the
 * sysctls (net.smc.NAME) are made from it: a value outside the range is
 * refused with EINVAL by either, and the old one stays. The descriptions
 * spell range and default out for modinfo; selftest 106 checks them
 * against what the parameters accept. They are the module's global
 * settings, so the sysctls exist in the initial network namespace only.
 *
 * Readers take a value with READ_ONCE(); a write is one store of an
 * unsigned int, so a reader sees the old value or the new one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <net/tcp.h>
#include <smcr/clc.h>

#include "core.h"
#include "smcr.h"

unsigned int smc_clc_timeout_ms = 6000;
unsigned int smc_hs_limit = 64;
unsigned int smc_llc_timeout_ms = 5000;
unsigned int smc_keepalive_ms = 30000;
/* TCP keepalive of SMC-R connections, for middleboxes only (4.5.3) */
unsigned int smc_tcp_keepidle_min_s = 60;
unsigned int smc_lgr_linger_ms = 600000;
unsigned int smc_close_timeout_ms = 60000;
/*
 * 128 KiB, not Linux's 64 KiB: measured on Soft-RoCE, a stream is bound by
 * the window (writer blocked, both hosts half idle); 128 KiB gave a third
 * more throughput, 256 KiB little beyond that (make bench).
 */
unsigned int smc_rmem = 128U << 10;
/* as rmem: a send buffer smaller than the peer's RMBE is also the window */
unsigned int smc_wmem = 128U << 10;
/*
 * Per namespace: a namespace's link groups (and the peers it serves)
 * cannot take every link a device has room for from the others. 64 was
 * the device-wide limit before CQs became per link.
 */
unsigned int smc_max_links_per_netns = 64;
/*
 * Links per link group smcr offers (CONFIRM LINK's max links); the
 * smaller of both sides' is the link group's maximum. Linux's name and
 * range; its default is 2, smcr's stays 1 until a link group survives
 * the loss of one of its links (failover).
 */
unsigned int smc_max_links_per_lgr = 1;

/**
 * struct smc_tunable - one tunable
 * @name: module parameter and sysctl name
 * @var: the value
 * @min: smallest value accepted
 * @max: largest value accepted
 */
struct smc_tunable {
	const char *name;
	unsigned int *var;
	unsigned int min;
	unsigned int max;
};

enum {
	SMC_TUNABLE_CLC_TIMEOUT,
	SMC_TUNABLE_HS_LIMIT,
	SMC_TUNABLE_LLC_TIMEOUT,
	SMC_TUNABLE_KEEPALIVE,
	SMC_TUNABLE_LGR_LINGER,
	SMC_TUNABLE_CLOSE_TIMEOUT,
	SMC_TUNABLE_RMEM,
	SMC_TUNABLE_WMEM,
	SMC_TUNABLE_MAX_LINKS_PER_NETNS,
	SMC_TUNABLE_TCP_KEEPIDLE_MIN,
	SMC_TUNABLE_MAX_LINKS_PER_LGR,
	SMC_TUNABLES_NR
};

static struct smc_tunable smc_tunables[SMC_TUNABLES_NR] = {
	[SMC_TUNABLE_CLC_TIMEOUT] = {
		"clc_timeout_ms", &smc_clc_timeout_ms, 100, 60000 },
	[SMC_TUNABLE_HS_LIMIT] = {
		"hs_limit", &smc_hs_limit, 1, 65535 },
	[SMC_TUNABLE_LLC_TIMEOUT] = {
		"llc_timeout_ms", &smc_llc_timeout_ms, 100, 60000 },
	[SMC_TUNABLE_KEEPALIVE] = {
		"keepalive_ms", &smc_keepalive_ms, 0, 3600000 },
	[SMC_TUNABLE_LGR_LINGER] = {
		"lgr_linger_ms", &smc_lgr_linger_ms, 0, 86400000 },
	[SMC_TUNABLE_CLOSE_TIMEOUT] = {
		"close_timeout_ms", &smc_close_timeout_ms, 100, 3600000 },
	[SMC_TUNABLE_RMEM] = {
		"rmem", &smc_rmem, SMC_CLC_RMBE_MIN_SIZE, SMC_BUF_MAX_ELEM },
	[SMC_TUNABLE_WMEM] = {
		"wmem", &smc_wmem, SMC_CLC_RMBE_MIN_SIZE, SMC_BUF_MAX_ELEM },
	[SMC_TUNABLE_MAX_LINKS_PER_NETNS] = {
		"max_links_per_netns", &smc_max_links_per_netns, 1, 65535 },
	[SMC_TUNABLE_TCP_KEEPIDLE_MIN] = {
		"tcp_keepidle_min_s", &smc_tcp_keepidle_min_s, 1,
		MAX_TCP_KEEPIDLE },
	[SMC_TUNABLE_MAX_LINKS_PER_LGR] = {
		"smcr_max_links_per_lgr", &smc_max_links_per_lgr, 1,
		SMC_LGR_MAX_LINKS },
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

module_param_cb(clc_timeout_ms, &smc_tunable_ops,
		&smc_tunables[SMC_TUNABLE_CLC_TIMEOUT], 0644);
MODULE_PARM_DESC(clc_timeout_ms,
		 "How long to wait for the peer's next CLC message, in ms (100-60000, default 6000)");
module_param_cb(hs_limit, &smc_tunable_ops,
		&smc_tunables[SMC_TUNABLE_HS_LIMIT], 0644);
MODULE_PARM_DESC(hs_limit,
		 "CLC handshakes one listener runs at once; more clients get plain TCP (1-65535, default 64)");
module_param_cb(llc_timeout_ms, &smc_tunable_ops,
		&smc_tunables[SMC_TUNABLE_LLC_TIMEOUT], 0644);
MODULE_PARM_DESC(llc_timeout_ms,
		 "Wait this long for an LLC reply or a free send buffer, in ms (100-60000, default 5000)");
module_param_cb(keepalive_ms, &smc_tunable_ops,
		&smc_tunables[SMC_TUNABLE_KEEPALIVE], 0644);
MODULE_PARM_DESC(keepalive_ms,
		 "Send TEST LINK after this much silence on a link, in ms, 0: never (0-3600000, default 30000)");
module_param_cb(lgr_linger_ms, &smc_tunable_ops,
		&smc_tunables[SMC_TUNABLE_LGR_LINGER], 0644);
MODULE_PARM_DESC(lgr_linger_ms,
		 "Keep an unused link group this long before deleting it, in ms (0-86400000, default 600000)");
module_param_cb(close_timeout_ms, &smc_tunable_ops,
		&smc_tunables[SMC_TUNABLE_CLOSE_TIMEOUT], 0644);
MODULE_PARM_DESC(close_timeout_ms,
		 "The close timer (RFC 7609 4.8.1): after close(), how long to wait for the peer's close or abort before resetting TCP and reusing the RMB element; after shutdown(SHUT_WR), how long the peer may stay silent before an abort, in ms (100-3600000, default 60000)");
module_param_cb(rmem, &smc_tunable_ops, &smc_tunables[SMC_TUNABLE_RMEM],
		0644);
MODULE_PARM_DESC(rmem,
		 "RMB element size of connections whose socket has no SO_RCVBUF set, in bytes (16384-524288, default 131072)");
module_param_cb(wmem, &smc_tunable_ops, &smc_tunables[SMC_TUNABLE_WMEM],
		0644);
MODULE_PARM_DESC(wmem,
		 "Send buffer size of connections whose socket has no SO_SNDBUF set, at most the peer's RMB element, in bytes (16384-524288, default 131072)");
module_param_cb(max_links_per_netns, &smc_tunable_ops,
		&smc_tunables[SMC_TUNABLE_MAX_LINKS_PER_NETNS], 0644);
MODULE_PARM_DESC(max_links_per_netns,
		 "Links the link groups of one network namespace may hold, on all RoCE devices; beyond it new link groups are declined (1-65535, default 64)");
module_param_cb(tcp_keepidle_min_s, &smc_tunable_ops,
		&smc_tunables[SMC_TUNABLE_TCP_KEEPIDLE_MIN], 0644);
MODULE_PARM_DESC(tcp_keepidle_min_s,
		 "Least TCP_KEEPIDLE of the TCP connection under an SMC-R connection with SO_KEEPALIVE; the application's smaller value still paces the TEST LINK probes, in s (1-32767, default 60)");
module_param_cb(smcr_max_links_per_lgr, &smc_tunable_ops,
		&smc_tunables[SMC_TUNABLE_MAX_LINKS_PER_LGR], 0644);
MODULE_PARM_DESC(smcr_max_links_per_lgr,
		 "Links smcr offers per link group; the peer's smaller maximum wins; applies to new link groups (1-2, default 1)");

/* before 6.6 an empty entry ends a sysctl table */
#ifdef register_net_sysctl
#define SMC_SYSCTL_END	0
#else
#define SMC_SYSCTL_END	1
#endif

static struct ctl_table smc_sysctl_table[SMC_TUNABLES_NR + SMC_SYSCTL_END];
static struct ctl_table_header *smc_sysctl_hdr;

/**
 * smc_sysctl_init() - register net.smc.* in the initial namespace
 *
 * One sysctl per entry of smc_tunables[], with its range. Not fatal:
 * without the directory (taken by another module) the module parameters
 * still work.
 */
void smc_sysctl_init(void)
{
	const struct smc_tunable *t;
	int i;

	for (i = 0; i < SMC_TUNABLES_NR; i++) {
		t = &smc_tunables[i];
		smc_sysctl_table[i] = (struct ctl_table) {
			.procname	= t->name,
			.data		= t->var,
			.maxlen		= sizeof(unsigned int),
			.mode		= 0644,
			.proc_handler	= proc_douintvec_minmax,
			.extra1		= (void *)&t->min,
			.extra2		= (void *)&t->max,
		};
	}
	smc_sysctl_hdr = register_net_sysctl(&init_net, "net/smc",
					     smc_sysctl_table);
	if (!smc_sysctl_hdr)
		pr_warn("net.smc sysctls not registered; use the module parameters\n");
}

/**
 * smc_sysctl_exit() - unregister net.smc.*
 */
void smc_sysctl_exit(void)
{
	if (smc_sysctl_hdr)
		unregister_net_sysctl_table(smc_sysctl_hdr);
	smc_sysctl_hdr = NULL;
}
