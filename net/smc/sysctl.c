// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: net.smc.* sysctls.
 *
 * The tunables an administrator reaches for - timeouts, the keepalive
 * interval, the link group linger time, the close timer, the handshake
 * limit, the default RMB element size - with their ranges: a value outside is rejected
 * (EINVAL) and the old one stays. They are the module's global settings
 * (the module parameters of the same names change the same values), so
 * they exist in the initial network namespace only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <smcr/clc.h>

#include "core.h"
#include "smcr.h"

static unsigned int smc_sysctl_0;
static unsigned int smc_sysctl_1 = 1;
static unsigned int smc_sysctl_100 = 100;
static unsigned int smc_sysctl_60000 = 60000;
static unsigned int smc_sysctl_65535 = 65535;
static unsigned int smc_sysctl_1h = 3600000;
static unsigned int smc_sysctl_1d = 86400000;
static unsigned int smc_sysctl_rmem_min = SMC_CLC_RMBE_MIN_SIZE;
static unsigned int smc_sysctl_rmem_max = SMC_BUF_MAX_ELEM;

#define SMC_SYSCTL(name, var, min, max) {		\
	.procname	= name,				\
	.data		= &(var),			\
	.maxlen		= sizeof(unsigned int),		\
	.mode		= 0644,				\
	.proc_handler	= proc_douintvec_minmax,	\
	.extra1		= &(min),			\
	.extra2		= &(max),			\
}

static struct ctl_table smc_sysctl_table[] = {
	SMC_SYSCTL("clc_timeout_ms", smc_clc_timeout_ms, smc_sysctl_100,
		   smc_sysctl_60000),
	SMC_SYSCTL("hs_limit", smc_hs_limit, smc_sysctl_1, smc_sysctl_65535),
	SMC_SYSCTL("llc_timeout_ms", smc_llc_timeout_ms, smc_sysctl_100,
		   smc_sysctl_60000),
	SMC_SYSCTL("keepalive_ms", smc_keepalive_ms, smc_sysctl_0,
		   smc_sysctl_1h),
	SMC_SYSCTL("lgr_linger_ms", smc_lgr_linger_ms, smc_sysctl_0,
		   smc_sysctl_1d),
	SMC_SYSCTL("close_timeout_ms", smc_close_timeout_ms, smc_sysctl_100,
		   smc_sysctl_1h),
	SMC_SYSCTL("rmem", smc_rmem, smc_sysctl_rmem_min, smc_sysctl_rmem_max),
#ifndef register_net_sysctl	/* before 6.6: an empty entry ends the table */
	{ }
#endif
};

static struct ctl_table_header *smc_sysctl_hdr;

/**
 * smc_sysctl_init() - register net.smc.* in the initial namespace
 *
 * Not fatal: without the directory (taken by another module) the module
 * parameters still work.
 */
void smc_sysctl_init(void)
{
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
