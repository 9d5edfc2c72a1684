// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the peer's RToken set (RFC 7609 3.5.5.2), see smcr/rtoken.h.
 *
 * An rkey identifies an RMB on one link: the peer's memory regions on one
 * QP's protection domain have distinct rkeys. So on each link slot an
 * rkey appears in one entry at most, and an RToken the peer announces
 * again must be the same as before - an identical repeat is no change
 * (Linux's smc.ko sends CONFIRM RKEY for an RMB on every subsequent
 * contact that uses it, also when it was confirmed before), another
 * address for a known rkey is a conflict the peer must resolve
 * (3.5.2.2-3: it deletes the old RToken first).
 *
 * Pure: the callers serialize (lgr->rtok_lock).
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <smcr/rtoken.h>

/**
 * smc_rtoken_find() - the entry of the RMB with @rkey on a link
 * @t: the table
 * @slot: link slot, below SMC_RTOKEN_LINKS
 * @rkey: RKey on that link
 *
 * Return: the entry's index, or -ENOENT.
 */
int smc_rtoken_find(const struct smc_rtoken_table *t, u8 slot, u32 rkey)
{
	unsigned int i;

	if (slot >= SMC_RTOKEN_LINKS)
		return -ENOENT;
	for_each_set_bit(i, t->used, SMC_RTOKENS_MAX)
		if ((t->tok[i].valid & BIT(slot)) && t->tok[i].rkey[slot] == rkey)
			return i;
	return -ENOENT;
}

/* Does @s fit entry @idx (-ENOENT: a new entry)? */
static bool smc_rtoken_fits(const struct smc_rtoken_table *t, int idx,
			    const struct smc_rtoken_spec *s)
{
	int other = smc_rtoken_find(t, s->slot, s->rkey);
	const struct smc_rtoken *tok;

	if (idx < 0)
		return other < 0;	/* the rkey is no other RMB's */
	tok = &t->tok[idx];
	if (tok->valid & BIT(s->slot))
		return tok->rkey[s->slot] == s->rkey &&
		       tok->vaddr[s->slot] == s->vaddr;
	return other < 0;
}

/**
 * smc_rtoken_confirm() - the peer announces an RMB's RTokens
 * @t: the table
 * @spec: @n RTokens of one RMB on distinct links
 * @n: 1 .. SMC_RTOKEN_LINKS
 *
 * Adds the RMB, or - if one of the RTokens is known - completes that RMB
 * with RTokens of further links.
 * All or nothing: on an error the table is unchanged.
 *
 * Return: the entry's index; -EINVAL for a bad slot, a slot named twice or
 * a bad @n; -EEXIST if an RToken contradicts the table (a known rkey with
 * another address, or an rkey of another RMB); -ENOSPC if the table is
 * full.
 */
int smc_rtoken_confirm(struct smc_rtoken_table *t,
		       const struct smc_rtoken_spec *spec, unsigned int n)
{
	unsigned int i, slots = 0;
	struct smc_rtoken *tok;
	int idx;

	if (!n || n > SMC_RTOKEN_LINKS)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (spec[i].slot >= SMC_RTOKEN_LINKS ||
		    (slots & BIT(spec[i].slot)))
			return -EINVAL;
		slots |= BIT(spec[i].slot);
	}
	/* the RMB: the entry any of its RTokens is known in */
	idx = -ENOENT;
	for (i = 0; i < n && idx < 0; i++)
		idx = smc_rtoken_find(t, spec[i].slot, spec[i].rkey);
	for (i = 0; i < n; i++)
		if (!smc_rtoken_fits(t, idx, &spec[i]))
			return -EEXIST;
	if (idx < 0) {
		idx = find_first_zero_bit(t->used, SMC_RTOKENS_MAX);
		if (idx >= SMC_RTOKENS_MAX)
			return -ENOSPC;
		memset(&t->tok[idx], 0, sizeof(t->tok[idx]));
		__set_bit(idx, t->used);
	}
	tok = &t->tok[idx];
	for (i = 0; i < n; i++) {
		tok->rkey[spec[i].slot] = spec[i].rkey;
		tok->vaddr[spec[i].slot] = spec[i].vaddr;
		tok->valid |= BIT(spec[i].slot);
	}
	return idx;
}

static void smc_rtoken_free(struct smc_rtoken_table *t, int idx)
{
	__clear_bit(idx, t->used);
	memset(&t->tok[idx], 0, sizeof(t->tok[idx]));
}

/**
 * smc_rtoken_add_link() - the peer gives a known RMB's RToken on a new link
 *	(ADD LINK CONTINUATION, A.3.3)
 * @t: the table
 * @ref_slot: the link slot the RMB is known on (the carrying link)
 * @ref_rkey: the RMB's RKey there
 * @spec: the RToken on the new link
 *
 * Return: the entry's index; -EINVAL if @spec's slot is bad or that of
 * the reference; -ENOENT if no RMB has @ref_rkey; -EEXIST if @spec
 * contradicts the table (the slot holds another RToken for the RMB, or
 * the rkey is another RMB's there).
 */
int smc_rtoken_add_link(struct smc_rtoken_table *t, u8 ref_slot, u32 ref_rkey,
			const struct smc_rtoken_spec *spec)
{
	struct smc_rtoken *tok;
	int idx;

	if (spec->slot >= SMC_RTOKEN_LINKS || spec->slot == ref_slot)
		return -EINVAL;
	idx = smc_rtoken_find(t, ref_slot, ref_rkey);
	if (idx < 0)
		return idx;
	if (!smc_rtoken_fits(t, idx, spec))
		return -EEXIST;
	tok = &t->tok[idx];
	tok->rkey[spec->slot] = spec->rkey;
	tok->vaddr[spec->slot] = spec->vaddr;
	tok->valid |= BIT(spec->slot);
	return idx;
}

/**
 * smc_rtoken_clear_slot() - a link is gone: forget every RToken on it
 * @t: the table
 * @slot: its link slot
 *
 * Entries keep their RTokens on the other links; one left with none
 * behaves as a deleted RMB (smc_rtoken_delete()).
 */
void smc_rtoken_clear_slot(struct smc_rtoken_table *t, u8 slot)
{
	unsigned int i;

	if (slot >= SMC_RTOKEN_LINKS)
		return;
	for_each_set_bit(i, t->used, SMC_RTOKENS_MAX) {
		struct smc_rtoken *tok = &t->tok[i];

		if (!(tok->valid & BIT(slot)))
			continue;
		tok->valid &= ~BIT(slot);
		tok->rkey[slot] = 0;
		tok->vaddr[slot] = 0;
		if (!tok->valid && !tok->users)
			smc_rtoken_free(t, i);
	}
}

/**
 * smc_rtoken_count() - the peer's RMBs with an RToken on a link
 * @t: the table
 * @slot: the link's slot
 *
 * Return: their number: how many RMBs the peer can name by their rkey on
 * that link (an ADD LINK CONTINUATION's pairs, A.3.3).
 */
unsigned int smc_rtoken_count(const struct smc_rtoken_table *t, u8 slot)
{
	unsigned int i, n = 0;

	if (slot >= SMC_RTOKEN_LINKS)
		return 0;
	for_each_set_bit(i, t->used, SMC_RTOKENS_MAX)
		n += !!(t->tok[i].valid & BIT(slot));
	return n;
}

/**
 * smc_rtoken_delete() - the peer deletes an RMB (DELETE RKEY, A.3.7)
 * @t: the table
 * @slot: the link slot the rkey is given for
 * @rkey: the RMB's RKey on that link
 *
 * The RMB's RTokens on every link go: the peer may announce the rkeys
 * anew. An entry that connections of ours still hold stays, without
 * RTokens, until the last of them releases it - Linux deletes an RMB as
 * soon as its own connection ended, which may be before ours did.
 *
 * Return: 0, or -ENOENT if no RMB has @rkey on that link.
 */
int smc_rtoken_delete(struct smc_rtoken_table *t, u8 slot, u32 rkey)
{
	int idx = smc_rtoken_find(t, slot, rkey);

	if (idx < 0)
		return idx;
	if (t->tok[idx].users)
		t->tok[idx].valid = 0;
	else
		smc_rtoken_free(t, idx);
	return 0;
}

/**
 * smc_rtoken_hold() - a connection writes into the RMB of entry @idx
 * @t: the table
 * @idx: from smc_rtoken_confirm()
 */
void smc_rtoken_hold(struct smc_rtoken_table *t, int idx)
{
	t->tok[idx].users++;
}

/**
 * smc_rtoken_release() - that connection ended
 * @t: the table
 * @idx: as given to smc_rtoken_hold()
 *
 * The entry stays while the peer has not deleted the RMB; if it did, the
 * last release frees it.
 */
void smc_rtoken_release(struct smc_rtoken_table *t, int idx)
{
	struct smc_rtoken *tok = &t->tok[idx];

	if (tok->users && !--tok->users && !tok->valid)
		smc_rtoken_free(t, idx);
}
