/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: deleting one link (DELETE LINK of one link) (llc_del_link.c).
 */
#ifndef _SMCR_LLC_DEL_LINK_H
#define _SMCR_LLC_DEL_LINK_H

#include <linux/types.h>

struct smc_link;
struct smc_link_group;
struct smc_llc_msg_info;
struct work_struct;

void smc_llc_del_link_work(struct work_struct *work);
bool smc_llc_del_link_queue(struct smc_link_group *lgr);
void smc_llc_del_link_rx(struct smc_link *lnk,
			 const struct smc_llc_msg_info *req);

#endif /* _SMCR_LLC_DEL_LINK_H */
