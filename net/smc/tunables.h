/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the tunables (tunables.c defines them, one row each).
 */
#ifndef _SMCR_TUNABLES_H
#define _SMCR_TUNABLES_H

struct net;

/**
 * enum smc_tun_id - the tunables, by name: SMC_TUN_<name>
 * @SMC_TUN_clc_timeout_ms: module-wide
 * @SMC_TUN_hs_limit: module-wide
 * @SMC_TUN_llc_timeout_ms: module-wide
 * @SMC_TUN_keepalive_ms: per network namespace
 * @SMC_TUN_lgr_linger_ms: module-wide
 * @SMC_TUN_close_timeout_ms: module-wide
 * @SMC_TUN_rmem: per network namespace
 * @SMC_TUN_wmem: per network namespace
 * @SMC_TUN_max_links_per_netns: module-wide
 * @SMC_TUN_tcp_keepidle_min_s: module-wide
 * @SMC_TUN_smcr_max_links_per_lgr: per network namespace
 * @SMC_TUN_smcr_max_conns_per_lgr: per network namespace
 * @SMC_TUN_limit_smc_hs: per network namespace
 * @SMC_TUN_autocorking_size: per network namespace
 * @SMC_TUN_smcr_testlink_time: keepalive_ms in seconds (a sysctl only)
 * @SMC_TUNABLES_NR: their number
 *
 * Also the order of the sysctls in net.smc.
 */
enum smc_tun_id {
	SMC_TUN_clc_timeout_ms,
	SMC_TUN_hs_limit,
	SMC_TUN_llc_timeout_ms,
	SMC_TUN_keepalive_ms,
	SMC_TUN_lgr_linger_ms,
	SMC_TUN_close_timeout_ms,
	SMC_TUN_rmem,
	SMC_TUN_wmem,
	SMC_TUN_max_links_per_netns,
	SMC_TUN_tcp_keepidle_min_s,
	SMC_TUN_smcr_max_links_per_lgr,
	SMC_TUN_smcr_max_conns_per_lgr,
	SMC_TUN_limit_smc_hs,
	SMC_TUN_autocorking_size,
	SMC_TUN_smcr_testlink_time,
	SMC_TUNABLES_NR
};

/* The module-wide values; read with READ_ONCE() */
extern unsigned int smc_clc_timeout_ms;
extern unsigned int smc_hs_limit;
extern unsigned int smc_llc_timeout_ms;
extern unsigned int smc_lgr_linger_ms;
extern unsigned int smc_close_timeout_ms;
extern unsigned int smc_max_links_per_netns;
extern unsigned int smc_tcp_keepidle_min_s;

unsigned int smc_tun(const struct net *net, enum smc_tun_id id);
void smc_tun_set(const struct net *net, enum smc_tun_id id, unsigned int v);
int smc_tunables_init(void);
void smc_tunables_exit(void);

#endif /* _SMCR_TUNABLES_H */
