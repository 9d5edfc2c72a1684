// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: a namespace's user EID table (SMC-R version 2).
 *
 * SMC-R version 2 (hs_v2.c, clc_v2.c) needs an enterprise ID that both
 * peers have: a client proposes its namespace's user EIDs, a server takes
 * the first of them it has too, and without one in common version 2 is
 * declined (NOUEID). The table holds up to SMC_MAX_UEID of them, in the
 * order the administrator added them (`smcr ueid add`, through Linux's
 * netlink family: netlink.c), kept as Linux keeps its own: 32
 * characters, blank padded; A-Z, 0-9, '.' and '-', starting with a letter
 * or digit. A changing generation counter lets a netlink dump that spans
 * messages notice a change (NLM_F_DUMP_INTR).
 *
 * Locking: the table's mutex protects its entries, count and generation;
 * readers copy under it (smc_eid_copy()) and use the copy - except
 * smc_eid_count(), a READ_ONCE() of the count for the system information
 * dump.
 */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <smcr/clc_wire.h>

#include "eid.h"

static_assert(SMC_MAX_UEID <= SMC_CLC_MAX_EID);
static_assert(SMC_MAX_EID_LEN == SMC_EID_LEN);

/**
 * smc_eid_init() - an empty table
 * @t: the table
 */
void smc_eid_init(struct smc_eid_table *t)
{
	mutex_init(&t->lock);
	t->cnt = 0;
	t->gen = 0;
}

/**
 * smc_eid_valid() - may @eid be added as a user EID?
 * @eid: SMC_MAX_EID_LEN bytes: A-Z, 0-9, '.' and '-', starting with A-Z
 *	or 0-9, then blanks
 *
 * Return: true if so.
 */
bool smc_eid_valid(const u8 *eid)
{
	int end, i;

	for (end = SMC_MAX_EID_LEN; end > 0 && eid[end - 1] == ' '; end--)
		;
	for (i = 0; i < end; i++) {
		u8 c = eid[i];

		if (isdigit(c) || (c >= 'A' && c <= 'Z'))
			continue;
		if (i > 0 && (c == '.' || c == '-'))
			continue;
		return false;
	}
	return end > 0;
}

/* @t->lock held */
static int smc_eid_find(const struct smc_eid_table *t, const u8 *eid)
{
	int i;

	for (i = 0; i < t->cnt; i++)
		if (!memcmp(t->ueid[i], eid, SMC_MAX_EID_LEN))
			return i;
	return -1;
}

/**
 * smc_eid_add() - append a user EID
 * @t: the table
 * @eid: SMC_MAX_EID_LEN bytes that smc_eid_valid() took
 *
 * Return: 0, -EEXIST if the table has it, -ERANGE if it is full.
 */
int smc_eid_add(struct smc_eid_table *t, const u8 *eid)
{
	int rc = 0;

	mutex_lock(&t->lock);
	if (smc_eid_find(t, eid) >= 0) {
		rc = -EEXIST;
	} else if (t->cnt >= SMC_MAX_UEID) {
		rc = -ERANGE;
	} else {
		memcpy(t->ueid[t->cnt], eid, SMC_MAX_EID_LEN);
		WRITE_ONCE(t->cnt, t->cnt + 1);
		t->gen++;
	}
	mutex_unlock(&t->lock);
	return rc;
}

/**
 * smc_eid_del() - remove a user EID; the others keep their order
 * @t: the table
 * @eid: SMC_MAX_EID_LEN bytes
 *
 * Return: 0, or -ENOENT if the table does not have it.
 */
int smc_eid_del(struct smc_eid_table *t, const u8 *eid)
{
	int i, rc = 0;

	mutex_lock(&t->lock);
	i = smc_eid_find(t, eid);
	if (i < 0) {
		rc = -ENOENT;
	} else {
		memmove(t->ueid[i], t->ueid[i + 1],
			(t->cnt - i - 1) * SMC_MAX_EID_LEN);
		WRITE_ONCE(t->cnt, t->cnt - 1);
		t->gen++;
	}
	mutex_unlock(&t->lock);
	return rc;
}

/**
 * smc_eid_flush() - remove every user EID
 * @t: the table
 */
void smc_eid_flush(struct smc_eid_table *t)
{
	mutex_lock(&t->lock);
	WRITE_ONCE(t->cnt, 0);
	t->gen++;
	mutex_unlock(&t->lock);
}

/**
 * smc_eid_copy() - the table as it is now
 * @t: the table
 * @out: room for SMC_MAX_UEID EIDs, filled in the order they were added
 *	(a CLC Proposal has room for SMC_CLC_MAX_EID)
 * @gen: if not NULL, set to the table's generation
 *
 * Return: the number of EIDs copied.
 */
int smc_eid_copy(struct smc_eid_table *t, u8 out[][SMC_MAX_EID_LEN],
		 u32 *gen)
{
	int cnt;

	mutex_lock(&t->lock);
	cnt = t->cnt;
	memcpy(out, t->ueid, cnt * SMC_MAX_EID_LEN);
	if (gen)
		*gen = t->gen;
	mutex_unlock(&t->lock);
	return cnt;
}
