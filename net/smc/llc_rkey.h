/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the RKey exchanges: CONFIRM RKEY and DELETE RKEY (llc_rkey.c).
 */
#ifndef _SMCR_LLC_RKEY_H
#define _SMCR_LLC_RKEY_H

struct smc_buf;
struct smc_link;
struct smc_link_group;
struct smc_llc_msg_info;

void smc_llc_rkey_rx_confirm(struct smc_link *lnk,
			     const struct smc_llc_msg_info *req);
bool smc_llc_rkey_names_active(const struct smc_link *lnk,
			       const struct smc_llc_msg_info *req);
void smc_llc_rkey_rx_busy(struct smc_link *lnk,
			  const struct smc_llc_msg_info *req);
void smc_llc_rkey_rx_delete(struct smc_link *lnk,
			    const struct smc_llc_msg_info *req);
int smc_llc_rkey_confirm(struct smc_link *lnk, struct smc_buf *buf);
void smc_llc_rkey_announced(struct smc_link_group *lgr, struct smc_buf *buf);

#endif /* _SMCR_LLC_RKEY_H */
