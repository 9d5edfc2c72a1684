// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for net/smc/rtoken.c (suite smcr_rtoken): the peer's
 * RToken set (RFC 7609 3.5.5.2) - adding, repeating, completing,
 * conflicting, deleting and holding RMBs.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <smcr/rtoken.h>

static struct smc_rtoken_table *rt_new(struct kunit *test)
{
	struct smc_rtoken_table *t = kunit_kzalloc(test, sizeof(*t),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

static int rt_add(struct smc_rtoken_table *t, u8 slot, u32 rkey, u64 vaddr)
{
	struct smc_rtoken_spec s = { .slot = slot, .rkey = rkey,
				     .vaddr = vaddr };

	return smc_rtoken_confirm(t, &s, 1);
}

static int rt_link(struct smc_rtoken_table *t, u8 ref_slot, u32 ref_rkey,
		   u8 slot, u32 rkey, u64 vaddr)
{
	struct smc_rtoken_spec s = { .slot = slot, .rkey = rkey,
				     .vaddr = vaddr };

	return smc_rtoken_add_link(t, ref_slot, ref_rkey, &s);
}

/* A new RMB gets an entry; an identical repeat names the same one. */
static void rtoken_add_and_repeat(struct kunit *test)
{
	struct smc_rtoken_table *t = rt_new(test);
	int a, b;

	a = rt_add(t, 0, 0x100, 0x10000);
	KUNIT_ASSERT_GE(test, a, 0);
	b = rt_add(t, 0, 0x200, 0x20000);
	KUNIT_ASSERT_GE(test, b, 0);
	KUNIT_EXPECT_NE(test, a, b);
	/* Linux confirms an RMB again on every subsequent contact */
	KUNIT_EXPECT_EQ(test, rt_add(t, 0, 0x100, 0x10000), a);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 0, 0x100), a);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 0, 0x200), b);
	/* the same rkey on another link is another key space */
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 1, 0x100), -ENOENT);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 3, 0x100), -ENOENT);
}

/* A known rkey with another address contradicts the table (3.5.2.2-3). */
static void rtoken_conflict(struct kunit *test)
{
	struct smc_rtoken_table *t = rt_new(test);
	struct smc_rtoken_spec two[2] = {
		{ .slot = 0, .rkey = 0x300, .vaddr = 0x30000 },
		{ .slot = 1, .rkey = 0x100, .vaddr = 0x60000 },
	};
	int a, b;

	a = rt_add(t, 0, 0x100, 0x10000);
	KUNIT_ASSERT_GE(test, a, 0);
	b = rt_add(t, 1, 0x100, 0x50000);
	KUNIT_ASSERT_GE(test, b, 0);
	KUNIT_EXPECT_NE(test, a, b);
	KUNIT_EXPECT_EQ(test, rt_add(t, 0, 0x100, 0x10001), -EEXIST);
	/* a known other-link rkey with another address: all or nothing */
	KUNIT_EXPECT_EQ(test, smc_rtoken_confirm(t, two, 2), -EEXIST);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 0, 0x300), -ENOENT);
	/* RTokens of two different RMBs cannot be one */
	two[0].rkey = 0x100;
	two[0].vaddr = 0x10000;
	two[1].vaddr = 0x50000;
	KUNIT_EXPECT_EQ(test, smc_rtoken_confirm(t, two, 2), -EEXIST);
	/* the entries are unchanged */
	KUNIT_EXPECT_EQ(test, t->tok[a].vaddr[0], 0x10000ULL);
	KUNIT_EXPECT_EQ(test, t->tok[a].valid, (u8)0x1);
	KUNIT_EXPECT_EQ(test, t->tok[b].valid, (u8)0x2);
}

/* RTokens of further links complete a known RMB, once each. */
static void rtoken_more_links(struct kunit *test)
{
	struct smc_rtoken_table *t = rt_new(test);
	struct smc_rtoken_spec s[3] = {
		{ .slot = 1, .rkey = 0x11, .vaddr = 0x1000 },
		{ .slot = 0, .rkey = 0x10, .vaddr = 0x1000 },
		{ .slot = 2, .rkey = 0x12, .vaddr = 0x2000 },
	};
	int a;

	a = rt_add(t, 0, 0x10, 0x1000);
	KUNIT_ASSERT_GE(test, a, 0);
	/* carried on link 1, naming the RMB known on link 0 too */
	KUNIT_EXPECT_EQ(test, smc_rtoken_confirm(t, s, 3), a);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 1, 0x11), a);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 2, 0x12), a);
	KUNIT_EXPECT_EQ(test, t->tok[a].valid, (u8)0x7);
	/* another address on a link already known: a conflict */
	s[2].vaddr = 0x3000;
	KUNIT_EXPECT_EQ(test, smc_rtoken_confirm(t, s, 3), -EEXIST);
}

/*
 * ADD LINK CONTINUATION: a known RMB's RToken on a new link, named by its
 * rkey on the carrying link; an identical repeat names the same entry.
 */
static void rtoken_add_link(struct kunit *test)
{
	struct smc_rtoken_table *t = rt_new(test);
	int a, b;

	a = rt_add(t, 0, 0x10, 0x1000);
	KUNIT_ASSERT_GE(test, a, 0);
	b = rt_add(t, 0, 0x20, 0x2000);
	KUNIT_ASSERT_GE(test, b, 0);
	KUNIT_EXPECT_EQ(test, rt_link(t, 0, 0x10, 1, 0x11, 0x1000), a);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 1, 0x11), a);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 0, 0x10), a);
	KUNIT_EXPECT_EQ(test, t->tok[a].valid, (u8)0x3);
	KUNIT_EXPECT_EQ(test, t->tok[a].vaddr[1], 0x1000ULL);
	KUNIT_EXPECT_EQ(test, rt_link(t, 0, 0x10, 1, 0x11, 0x1000), a);
	/* the new link may be the reference in turn */
	KUNIT_EXPECT_EQ(test, rt_link(t, 1, 0x11, 2, 0x12, 0x3000), a);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 2, 0x12), a);
	KUNIT_EXPECT_EQ(test, t->tok[a].valid, (u8)0x7);
	/* the other RMB is untouched */
	KUNIT_EXPECT_EQ(test, t->tok[b].valid, (u8)0x1);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 1, 0x20), -ENOENT);
}

/*
 * Refused, the table unchanged: a bad slot, the reference's slot, an
 * unknown reference, another RToken on a known slot, another RMB's rkey.
 */
static void rtoken_add_link_bad(struct kunit *test)
{
	struct smc_rtoken_table *t = rt_new(test);
	int a, b;

	a = rt_add(t, 0, 0x10, 0x1000);
	KUNIT_ASSERT_GE(test, a, 0);
	b = rt_add(t, 0, 0x20, 0x2000);
	KUNIT_ASSERT_GE(test, b, 0);
	KUNIT_ASSERT_EQ(test, rt_link(t, 0, 0x10, 1, 0x11, 0x1000), a);
	KUNIT_ASSERT_EQ(test, rt_link(t, 0, 0x20, 1, 0x21, 0x2000), b);
	KUNIT_EXPECT_EQ(test, rt_link(t, 0, 0x10, SMC_RTOKEN_LINKS, 0x12, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rt_link(t, 0, 0x10, 0, 0x10, 0x1000), -EINVAL);
	KUNIT_EXPECT_EQ(test, rt_link(t, 0, 0x99, 2, 0x12, 0x1000), -ENOENT);
	/* an rkey names an RMB on its own link only */
	KUNIT_EXPECT_EQ(test, rt_link(t, 2, 0x10, 1, 0x11, 0x1000), -ENOENT);
	/* link 1 is known for the RMB: another rkey, another address */
	KUNIT_EXPECT_EQ(test, rt_link(t, 0, 0x10, 1, 0x15, 0x1000), -EEXIST);
	KUNIT_EXPECT_EQ(test, rt_link(t, 0, 0x10, 1, 0x11, 0x1001), -EEXIST);
	/* on link 2, 0x22 is already the first RMB's rkey */
	KUNIT_EXPECT_EQ(test, rt_link(t, 1, 0x11, 2, 0x22, 0x2000), a);
	KUNIT_EXPECT_EQ(test, rt_link(t, 0, 0x20, 2, 0x22, 0x2000), -EEXIST);
	/* the entries are unchanged */
	KUNIT_EXPECT_EQ(test, t->tok[a].valid, (u8)0x7);
	KUNIT_EXPECT_EQ(test, t->tok[a].rkey[1], 0x11U);
	KUNIT_EXPECT_EQ(test, t->tok[a].vaddr[1], 0x1000ULL);
	KUNIT_EXPECT_EQ(test, t->tok[b].valid, (u8)0x3);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 2, 0x22), a);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 1, 0x15), -ENOENT);
}

/* Malformed sets: no RToken, too many, a bad slot, a slot twice. */
static void rtoken_bad_specs(struct kunit *test)
{
	struct smc_rtoken_table *t = rt_new(test);
	struct smc_rtoken_spec s[4] = {
		{ .slot = 0, .rkey = 1 }, { .slot = 1, .rkey = 2 },
		{ .slot = 2, .rkey = 3 }, { .slot = 2, .rkey = 4 },
	};

	KUNIT_EXPECT_EQ(test, smc_rtoken_confirm(t, s, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_rtoken_confirm(t, s, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_rtoken_confirm(t, &s[2], 2), -EINVAL);
	s[1].slot = SMC_RTOKEN_LINKS;
	KUNIT_EXPECT_EQ(test, smc_rtoken_confirm(t, s, 2), -EINVAL);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(t->used, SMC_RTOKENS_MAX));
}

/* The table takes SMC_RTOKENS_MAX RMBs, then refuses; a delete frees one. */
static void rtoken_full(struct kunit *test)
{
	struct smc_rtoken_table *t = rt_new(test);
	unsigned int i;

	for (i = 0; i < SMC_RTOKENS_MAX; i++)
		KUNIT_ASSERT_EQ(test, rt_add(t, 0, 0x1000 + i, i << 20), (int)i);
	KUNIT_EXPECT_EQ(test, rt_add(t, 0, 0x9999, 0), -ENOSPC);
	/* a repeat still names its entry */
	KUNIT_EXPECT_EQ(test, rt_add(t, 0, 0x1007, 7ULL << 20), 7);
	KUNIT_EXPECT_EQ(test, smc_rtoken_delete(t, 0, 0x1007), 0);
	KUNIT_EXPECT_EQ(test, rt_add(t, 0, 0x9999, 0), 7);
}

/* DELETE RKEY: unknown -ENOENT, else gone on every link at once. */
static void rtoken_delete(struct kunit *test)
{
	struct smc_rtoken_table *t = rt_new(test);
	struct smc_rtoken_spec s[2] = {
		{ .slot = 0, .rkey = 0x10, .vaddr = 0x1000 },
		{ .slot = 1, .rkey = 0x11, .vaddr = 0x1000 },
	};
	int a;

	a = smc_rtoken_confirm(t, s, 2);
	KUNIT_ASSERT_GE(test, a, 0);
	KUNIT_EXPECT_EQ(test, smc_rtoken_delete(t, 0, 0x11), -ENOENT);
	/* deleted by its rkey on link 1: gone on link 0 too */
	KUNIT_EXPECT_EQ(test, smc_rtoken_delete(t, 1, 0x11), 0);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 0, 0x10), -ENOENT);
	KUNIT_EXPECT_FALSE(test, test_bit(a, t->used));
	KUNIT_EXPECT_EQ(test, smc_rtoken_delete(t, 1, 0x11), -ENOENT);
	/* once deleted, the peer may announce the rkey with a new address */
	KUNIT_EXPECT_GE(test, rt_add(t, 0, 0x10, 0x7000), 0);
}

/*
 * An RMB deleted while connections hold it: its RTokens go at once (the
 * rkey may be announced anew, as another entry), the entry itself with
 * the last release; releases of a live entry keep it.
 */
static void rtoken_delete_held(struct kunit *test)
{
	struct smc_rtoken_table *t = rt_new(test);
	int a, b;

	a = rt_add(t, 0, 0x10, 0x1000);
	KUNIT_ASSERT_GE(test, a, 0);
	smc_rtoken_hold(t, a);
	smc_rtoken_hold(t, a);
	smc_rtoken_release(t, a);
	KUNIT_EXPECT_TRUE(test, test_bit(a, t->used));
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 0, 0x10), a);
	smc_rtoken_hold(t, a);
	KUNIT_EXPECT_EQ(test, smc_rtoken_delete(t, 0, 0x10), 0);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 0, 0x10), -ENOENT);
	KUNIT_EXPECT_TRUE(test, test_bit(a, t->used));
	/* announced anew at another address: a new entry */
	b = rt_add(t, 0, 0x10, 0x2000);
	KUNIT_ASSERT_GE(test, b, 0);
	KUNIT_EXPECT_NE(test, a, b);
	smc_rtoken_release(t, a);
	KUNIT_EXPECT_TRUE(test, test_bit(a, t->used));
	smc_rtoken_release(t, a);
	KUNIT_EXPECT_FALSE(test, test_bit(a, t->used));
	/* a release too many changes nothing */
	smc_rtoken_release(t, b);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 0, 0x10), b);
}

/*
 * A link gone: its RTokens go; an entry left without any is freed, unless
 * connections hold it - then it goes with the last release.
 */
static void rtoken_clear_slot(struct kunit *test)
{
	struct smc_rtoken_table *t = rt_new(test);
	int a, b, c, d;

	a = rt_add(t, 0, 0x10, 0x1000);
	KUNIT_ASSERT_GE(test, a, 0);
	KUNIT_ASSERT_EQ(test, rt_link(t, 0, 0x10, 1, 0x11, 0x1000), a);
	b = rt_add(t, 1, 0x21, 0x2000);
	KUNIT_ASSERT_GE(test, b, 0);
	c = rt_add(t, 1, 0x31, 0x3000);
	KUNIT_ASSERT_GE(test, c, 0);
	smc_rtoken_hold(t, c);
	/* a bad slot changes nothing */
	smc_rtoken_clear_slot(t, SMC_RTOKEN_LINKS);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 1, 0x21), b);
	smc_rtoken_clear_slot(t, 1);
	/* known on link 0 still */
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 1, 0x11), -ENOENT);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 0, 0x10), a);
	KUNIT_EXPECT_EQ(test, t->tok[a].valid, (u8)0x1);
	/* known on link 1 only, no users: freed */
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 1, 0x21), -ENOENT);
	KUNIT_EXPECT_FALSE(test, test_bit(b, t->used));
	/* held: no RToken left, but the entry stays */
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(t, 1, 0x31), -ENOENT);
	KUNIT_EXPECT_TRUE(test, test_bit(c, t->used));
	/* the link comes back: its rkeys are announced anew, as new entries */
	d = rt_add(t, 1, 0x31, 0x3000);
	KUNIT_EXPECT_EQ(test, d, b);
	KUNIT_EXPECT_EQ(test, rt_link(t, 0, 0x10, 1, 0x11, 0x4000), a);
	smc_rtoken_clear_slot(t, 1);
	KUNIT_EXPECT_FALSE(test, test_bit(d, t->used));
	smc_rtoken_release(t, c);
	KUNIT_EXPECT_FALSE(test, test_bit(c, t->used));
	smc_rtoken_clear_slot(t, 0);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(t->used, SMC_RTOKENS_MAX));
}

/* The RMBs with an RToken on a link: what ADD LINK CONTINUATIONs may name */
static void rtoken_count(struct kunit *test)
{
	struct smc_rtoken_table *t = rt_new(test);

	KUNIT_EXPECT_EQ(test, smc_rtoken_count(t, 0), 0U);
	KUNIT_ASSERT_GE(test, rt_add(t, 0, 0x100, 0x10000), 0);
	KUNIT_ASSERT_GE(test, rt_add(t, 0, 0x200, 0x20000), 0);
	KUNIT_ASSERT_GE(test, rt_link(t, 0, 0x100, 1, 0x101, 0x11000), 0);
	KUNIT_EXPECT_EQ(test, smc_rtoken_count(t, 0), 2U);
	KUNIT_EXPECT_EQ(test, smc_rtoken_count(t, 1), 1U);
	KUNIT_EXPECT_EQ(test, smc_rtoken_count(t, 2), 0U);
	KUNIT_EXPECT_EQ(test, smc_rtoken_count(t, SMC_RTOKEN_LINKS), 0U);
	smc_rtoken_clear_slot(t, 0);
	KUNIT_EXPECT_EQ(test, smc_rtoken_count(t, 0), 0U);
	KUNIT_EXPECT_EQ(test, smc_rtoken_count(t, 1), 1U);
}

static struct kunit_case smcr_rtoken_cases[] = {
	KUNIT_CASE(rtoken_add_and_repeat),
	KUNIT_CASE(rtoken_conflict),
	KUNIT_CASE(rtoken_more_links),
	KUNIT_CASE(rtoken_add_link),
	KUNIT_CASE(rtoken_add_link_bad),
	KUNIT_CASE(rtoken_bad_specs),
	KUNIT_CASE(rtoken_full),
	KUNIT_CASE(rtoken_delete),
	KUNIT_CASE(rtoken_delete_held),
	KUNIT_CASE(rtoken_clear_slot),
	KUNIT_CASE(rtoken_count),
	{}
};

static struct kunit_suite smcr_rtoken_suite = {
	.name = "smcr_rtoken",
	.test_cases = smcr_rtoken_cases,
};

kunit_test_suite(smcr_rtoken_suite);
