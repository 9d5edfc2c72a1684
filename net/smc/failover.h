/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: moving the connections of a lost link (failover.c).
 */
#ifndef _SMCR_FAILOVER_H
#define _SMCR_FAILOVER_H

struct smc_link;
struct smc_link_group;

int smc_failover_conns(struct smc_link_group *lgr, struct smc_link *from,
		       struct smc_link *to);

#endif /* _SMCR_FAILOVER_H */
