/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: a link's RC QP and its state machine (link.c).
 */
#ifndef _SMCR_LINK_H
#define _SMCR_LINK_H

struct smc_clc_accept_info;
struct smc_ib_pick;
struct smc_link;
struct smc_link_group;

void smc_link_slots_init(struct smc_link_group *lgr);
int smc_link_init(struct smc_link *lnk, const struct smc_ib_pick *pick);
int smc_link_rtr(struct smc_link *lnk);
int smc_link_rts(struct smc_link *lnk);
void smc_link_set_peer(struct smc_link *lnk,
		       const struct smc_clc_accept_info *info);
void smc_link_down(struct smc_link *lnk);
void smc_link_trace_state(const struct smc_link *lnk, int state);
int smc_link_quiesce(struct smc_link *lnk);
int smc_link_teardown(struct smc_link *lnk);

#endif /* _SMCR_LINK_H */
