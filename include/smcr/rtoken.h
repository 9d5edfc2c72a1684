/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the peer's RMBs as we may write into them - its RToken set (RFC
 * 7609 3.5.5.2). An RToken is an RMB's <rkey, virtual address> on one
 * link; an RMB has one per link of the link group, since links may sit on
 * different RNICs. The table keeps, per peer RMB, the RToken of each link
 * slot, and how many of our connections write into the RMB.
 *
 * Pure: no locking, no ib_core. net/smc/llc_rkey.c and conn.c hold the
 * link group's rtok_lock around every call; KUnit tests it alone.
 */
#ifndef _SMCR_RTOKEN_H
#define _SMCR_RTOKEN_H

#include <linux/bitmap.h>
#include <linux/types.h>

/* RMBs of the peer per link group, as Linux's SMC_RMBS_PER_LGR_MAX */
#define SMC_RTOKENS_MAX		255
/* link slots of a link group (struct smc_link_group's lnk[]) */
#define SMC_RTOKEN_LINKS	3

/**
 * struct smc_rtoken_spec - an RMB's RToken on one link
 * @slot: the link's slot in the link group, below SMC_RTOKEN_LINKS
 * @rkey: RKey of the RMB on that link
 * @vaddr: its virtual address on that link
 */
struct smc_rtoken_spec {
	u8	slot;
	u32	rkey;
	u64	vaddr;
};

/**
 * struct smc_rtoken - one RMB of the peer
 * @rkey: per link slot, valid where @valid has its bit
 * @vaddr: per link slot, likewise
 * @valid: BIT(slot) for each link the RToken is known for; 0 once the
 *	peer deleted the RMB while @users still hold the entry
 * @users: our connections writing into the RMB; the entry stays until
 *	the last one released it
 */
struct smc_rtoken {
	u32	rkey[SMC_RTOKEN_LINKS];
	u64	vaddr[SMC_RTOKEN_LINKS];
	u8	valid;
	u32	users;
};

/**
 * struct smc_rtoken_table - the peer's RToken set
 * @used: BIT(i) for each entry of @tok in use
 * @tok: the RMBs
 */
struct smc_rtoken_table {
	DECLARE_BITMAP(used, SMC_RTOKENS_MAX);
	struct smc_rtoken	tok[SMC_RTOKENS_MAX];
};

int smc_rtoken_find(const struct smc_rtoken_table *t, u8 slot, u32 rkey);
int smc_rtoken_confirm(struct smc_rtoken_table *t,
		       const struct smc_rtoken_spec *spec, unsigned int n);
int smc_rtoken_add_link(struct smc_rtoken_table *t, u8 ref_slot, u32 ref_rkey,
			const struct smc_rtoken_spec *spec);
void smc_rtoken_clear_slot(struct smc_rtoken_table *t, u8 slot);
unsigned int smc_rtoken_count(const struct smc_rtoken_table *t, u8 slot);
int smc_rtoken_delete(struct smc_rtoken_table *t, u8 slot, u32 rkey);
void smc_rtoken_hold(struct smc_rtoken_table *t, int idx);
void smc_rtoken_release(struct smc_rtoken_table *t, int idx);

#endif /* _SMCR_RTOKEN_H */
