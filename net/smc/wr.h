/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: a link's work requests: message buffers, RDMA writes, drain (wr.c).
 */
#ifndef _SMCR_WR_H
#define _SMCR_WR_H

#include <linux/types.h>

struct ib_send_wr;
struct smc_buf_elem;
struct smc_link;
struct smc_span;

int smc_wr_alloc(struct smc_link *lnk);
void smc_wr_free(struct smc_link *lnk);
int smc_wr_rx_post_all(struct smc_link *lnk);
int smc_wr_drain(struct smc_link *lnk);
void smc_wr_unpost(struct smc_link *lnk, atomic_t *cnt);
int smc_wr_tx_get(struct smc_link *lnk, bool wait, void **buf);
int smc_wr_tx_send(struct smc_link *lnk, void *buf);
int smc_wr_tx_get_long(struct smc_link *lnk, void **buf);
int smc_wr_tx_send_long(struct smc_link *lnk, void *buf, u32 len);
int smc_wr_rdma_write(struct smc_link *lnk, const struct smc_buf_elem *elem,
		      const struct smc_span *src, u64 remote, u32 rkey);
int smc_wr_post(struct smc_link *lnk, struct ib_send_wr *wr,
		bool active_only, u64 buf, u64 buf_len);
void smc_wr_tx_put(struct smc_link *lnk, void *buf);
void smc_wr_tx_set_cdc(struct smc_link *lnk, void *buf,
		       const struct smc_cdc_sent *sent);

#endif /* _SMCR_WR_H */
