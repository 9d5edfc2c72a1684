/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the long messages of a version 2 ADD LINK flow (llc_v2_link.c).
 */
#ifndef _SMCR_LLC_V2_LINK_H
#define _SMCR_LLC_V2_LINK_H

#include <linux/types.h>

struct smc_link;
struct smc_link_group;
struct smc_llc_msg_info;
struct smc_llc_v2_pairs;

bool smc_llc_v2_link_rx(struct smc_link *lnk, const void *msg, size_t len,
			struct smc_llc_v2_pairs **pairs);
void smc_llc_v2_link_keep(struct smc_link_group *lgr,
			  struct smc_llc_v2_pairs *p);
void smc_llc_v2_link_req_add_link(struct smc_link *lnk);
int smc_llc_v2_link_send_add_link(struct smc_link *ref, struct smc_link *lnk,
				  const struct smc_llc_msg_info *info);
int smc_llc_v2_link_take_pairs(struct smc_link *ref, struct smc_link *lnk,
			       bool response);
void smc_llc_v2_link_req_done(struct smc_link_group *lgr, struct smc_link *ref);
void smc_llc_v2_link_purge(struct smc_link_group *lgr);

#endif /* _SMCR_LLC_V2_LINK_H */
