/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: adding a link (ADD LINK) and the link a new connection uses (llc_link.c).
 */
#ifndef _SMCR_LLC_LINK_H
#define _SMCR_LLC_LINK_H

#include <linux/types.h>

struct smc_buf;
struct smc_link;
struct smc_link_group;
struct smc_llc_msg_info;
struct smc_llc_rkey_pair_info;
struct work_struct;

void smc_llc_add_link_queue(struct smc_link_group *lgr);
bool smc_llc_add_link_due(struct smc_link_group *lgr);
void smc_llc_add_link_offer(struct smc_link_group *lgr);
struct smc_buf **smc_llc_add_link_known_rmbs(struct smc_link_group *lgr, u8 *n);
void smc_llc_add_link_pairs_fill(struct smc_link *ref, struct smc_link *lnk,
				 struct smc_buf **rmbs, unsigned int k,
				 struct smc_llc_rkey_pair_info *pairs);
int smc_llc_add_link_pairs_take(struct smc_link *ref, struct smc_link *lnk,
				const struct smc_llc_rkey_pair_info *pairs,
				unsigned int k);
void smc_llc_add_link_work(struct work_struct *work);
void smc_llc_add_link_client(struct smc_link *lnk,
			     const struct smc_llc_msg_info *req);
struct smc_link *smc_llc_link_pick(struct smc_link_group *lgr);
struct smc_link *smc_llc_link_find(struct smc_link_group *lgr,
				   const u8 *peer_gid, u32 peer_qpn);
u8 smc_llc_link_active_count(struct smc_link_group *lgr);
struct smc_link *smc_llc_link_ref(struct smc_link_group *lgr);
bool smc_llc_link_num_used(struct smc_link_group *lgr, u8 link_num,
			   const struct smc_link *except);

#endif /* _SMCR_LLC_LINK_H */
