/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: a namespace's user EID table (eid.c).
 */
#ifndef _SMCR_EID_H
#define _SMCR_EID_H

#include <linux/mutex.h>
#include <linux/types.h>

#include "../../uapi/linux/smc.h"

/**
 * struct smc_eid_table - the user EIDs of a network namespace
 * @lock: protects @ueid, @cnt and @gen
 * @ueid: user EIDs, blank padded, in the order they were added
 * @cnt: valid entries in @ueid; written under @lock, read without it by
 *	smc_eid_count()
 * @gen: incremented on every change of the table
 *
 * Embedded in the netlink family's per-namespace state (netlink.c), which
 * lives and dies with its namespace.
 */
struct smc_eid_table {
	struct mutex	lock;	/* protects ueid, cnt and gen */
	u8		ueid[SMC_MAX_UEID][SMC_MAX_EID_LEN];
	int		cnt;
	u32		gen;
};

void smc_eid_init(struct smc_eid_table *t);
bool smc_eid_valid(const u8 *eid);
int smc_eid_add(struct smc_eid_table *t, const u8 *eid);
int smc_eid_del(struct smc_eid_table *t, const u8 *eid);
void smc_eid_flush(struct smc_eid_table *t);
int smc_eid_copy(struct smc_eid_table *t, u8 out[][SMC_MAX_EID_LEN],
		 u32 *gen);

/* the table's size now, for the system information dump */
static inline int smc_eid_count(const struct smc_eid_table *t)
{
	return READ_ONCE(t->cnt);
}

#endif /* _SMCR_EID_H */
