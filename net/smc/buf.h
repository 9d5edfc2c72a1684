/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: RMBs and send buffers of a link group, RMB registration (buf.c).
 */
#ifndef _SMCR_BUF_H
#define _SMCR_BUF_H

#include <linux/types.h>

struct mem_cgroup;
struct smc_buf;
struct smc_buf_elem;
struct smc_link;
struct smc_link_group;

u8 smc_buf_class(u32 size);
int smc_buf_get(struct smc_link_group *lgr, bool rmb, u8 cls,
		struct mem_cgroup *memcg, struct smc_buf_elem *out);
void smc_buf_put(struct smc_link_group *lgr, struct smc_buf_elem *e);
bool smc_buf_abandon(struct smc_link_group *lgr, struct smc_buf_elem *e);
int smc_buf_register(struct smc_link *lnk, struct smc_buf *buf);
int smc_buf_link_map(struct smc_link *lnk);
int smc_buf_link_register(struct smc_link *lnk);
void smc_buf_link_unmap(struct smc_link *lnk, bool unmap);
void smc_buf_free_all(struct smc_link_group *lgr);
void smc_buf_init(struct smc_link_group *lgr);
u64 smc_buf_bytes(struct smc_link_group *lgr, bool rmb);

#endif /* _SMCR_BUF_H */
