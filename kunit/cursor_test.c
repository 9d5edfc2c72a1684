// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for net/smc/cursor.c (suite smcr_cursor).
 *
 * The exhaustive cases compare every function with a reference model that
 * knows nothing about wraps and counts: a cursor stands for an absolute
 * stream position p, taken modulo 2^16 * capacity, and is
 * (p / capacity, start + p % capacity). Every RMBE size from 8 to 64 bytes
 * is checked, without and with the 4-byte eye catcher, for every pair of
 * counts at wrap differences -1, 0, 1, 2, 0x7fff and 0x8000 from three
 * base wraps (0, 0x7fff and 0xffff, where the 16-bit wrap number rolls
 * over). Mismatches are counted; the first few are reported in detail.
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <smcr/cursor.h>

#define CT_MIN_SIZE	8
#define CT_MAX_SIZE	64
#define CT_REPORT	8	/* detailed reports per case */

static const u16 ct_base_wraps[] = { 0, 0x7fff, 0xffff };
static const u16 ct_wrap_deltas[] = { 0xffff, 0, 1, 2, 0x7fff, 0x8000 };

struct ct_ctx {
	struct kunit	*test;
	u64		checks;
	u64		failures;
	u64		start_ns;
};

static void ct_begin(struct ct_ctx *ctx, struct kunit *test)
{
	ctx->test = test;
	ctx->checks = 0;
	ctx->failures = 0;
	ctx->start_ns = ktime_get_ns();
}

static void ct_end(struct ct_ctx *ctx)
{
	kunit_info(ctx->test, "%llu checks in %llu ms\n", ctx->checks,
		   div_u64(ktime_get_ns() - ctx->start_ns, NSEC_PER_MSEC));
	KUNIT_EXPECT_EQ(ctx->test, ctx->failures, 0ULL);
}

/* Record one comparison; report the first few mismatches */
static void ct_check(struct ct_ctx *ctx, const struct smc_ring *r,
		     const char *what, struct smc_cursor a, struct smc_cursor b,
		     s64 got, s64 want)
{
	ctx->checks++;
	if (got == want)
		return;
	if (++ctx->failures <= CT_REPORT)
		KUNIT_FAIL(ctx->test,
			   "%s size %u start %u a=(%u,%u) b=(%u,%u): got %lld want %lld",
			   what, r->size, r->start, a.wrap, a.count, b.wrap,
			   b.count, got, want);
}

/* Reference model: stream position <-> cursor */
static struct smc_cursor ct_cursor(const struct smc_ring *r, u64 p)
{
	u32 cap = smc_ring_capacity(r);
	struct smc_cursor c;
	u32 rem;
	u64 q;

	q = div_u64_rem(p, cap, &rem);
	c.wrap = (u16)q;
	c.count = r->start + rem;
	return c;
}

static u64 ct_modulus(const struct smc_ring *r)
{
	return (u64)smc_ring_capacity(r) << 16;
}

static s64 ct_sign(int v)
{
	return v < 0 ? -1 : v > 0;
}

/* Run @fn for every ring of the exhaustive range */
static void ct_for_rings(struct ct_ctx *ctx,
			 void (*fn)(struct ct_ctx *, const struct smc_ring *))
{
	struct smc_ring r;
	u32 size;
	int ec;

	for (ec = 0; ec < 2; ec++) {
		for (size = CT_MIN_SIZE; size <= CT_MAX_SIZE; size++) {
			KUNIT_ASSERT_EQ(ctx->test,
					smc_ring_init(&r, size, ec), 0);
			fn(ctx, &r);
		}
	}
}

/* The model's answers for cursors @d bytes apart (modulo 2^16 * cap) */
static void ct_pairs_one(struct ct_ctx *ctx, const struct smc_ring *r,
			 struct smc_cursor a, struct smc_cursor b, u64 d)
{
	u32 cap = smc_ring_capacity(r);
	s64 want_diff = d <= cap ? (s64)d : -ERANGE;
	s64 want_free = d <= cap ? (s64)(cap - d) : -ERANGE;
	s64 want_cmp = !d ? 0 : d < ct_modulus(r) / 2 ? -1 : 1;
	int diff = smc_curs_diff(r, a, b);
	int readable = smc_curs_readable(r, b, a);
	int free = smc_curs_free(r, b, a);
	int cmp = ct_sign(smc_curs_cmp(r, a, b));
	bool eq = smc_curs_equal(a, b);

	ctx->checks += 5;
	if (likely(diff == want_diff && readable == want_diff &&
		   free == want_free && cmp == want_cmp && eq == !d))
		return;
	ctx->checks -= 5;
	ct_check(ctx, r, "diff", a, b, diff, want_diff);
	ct_check(ctx, r, "readable", a, b, readable, want_diff);
	ct_check(ctx, r, "free", a, b, free, want_free);
	ct_check(ctx, r, "cmp", a, b, cmp, want_cmp);
	ct_check(ctx, r, "equal", a, b, eq, !d);
}

/*
 * diff, readable, free, cmp, equal for every pair of cursors. Positions
 * below the capacity map to (wrap, start + position) by the model's
 * definition, so the loops build the cursors directly.
 */
static void ct_pairs_ring(struct ct_ctx *ctx, const struct smc_ring *r)
{
	u32 cap = smc_ring_capacity(r);
	u64 m = ct_modulus(r);
	struct smc_cursor a, b;
	u32 pa, pb;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(ct_base_wraps); i++) {
		for (j = 0; j < ARRAY_SIZE(ct_wrap_deltas); j++) {
			a.wrap = ct_base_wraps[i];
			b.wrap = a.wrap + ct_wrap_deltas[j];
			for (pa = 0; pa < cap; pa++) {
				u64 abs_a = (u64)a.wrap * cap + pa;

				a.count = r->start + pa;
				for (pb = 0; pb < cap; pb++) {
					u64 abs_b = (u64)b.wrap * cap + pb;
					u64 d = abs_b >= abs_a ? abs_b - abs_a :
						abs_b + m - abs_a;

					b.count = r->start + pb;
					ct_pairs_one(ctx, r, a, b, d);
				}
			}
		}
	}
}

static void cursor_exhaustive_pairs(struct kunit *test)
{
	struct ct_ctx ctx;

	ct_begin(&ctx, test);
	ct_for_rings(&ctx, ct_pairs_ring);
	ct_end(&ctx);
}

/* add by 0 .. 2 * capacity + 1 (several wraps) from every position */
static void ct_add_ring(struct ct_ctx *ctx, const struct smc_ring *r)
{
	u32 cap = smc_ring_capacity(r);
	u64 m = ct_modulus(r);
	u32 pa, n;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ct_base_wraps); i += 2) {
		for (pa = 0; pa < cap; pa++) {
			u64 abs_a = (u64)ct_base_wraps[i] * cap + pa;
			struct smc_cursor a = ct_cursor(r, abs_a);

			for (n = 0; n <= 2 * cap + 1; n++) {
				struct smc_cursor want, got;

				want = ct_cursor(r, (abs_a + n) % m);
				got = smc_curs_add(r, a, n);
				ct_check(ctx, r, "add.wrap", a, want, got.wrap,
					 want.wrap);
				ct_check(ctx, r, "add.count", a, want,
					 got.count, want.count);
				ct_check(ctx, r, "add.valid", a, got,
					 smc_curs_valid(r, got), 1);
			}
			/* the largest advance the type allows */
			ct_check(ctx, r, "add.max", a, a,
				 smc_curs_add(r, a, U32_MAX).count,
				 ct_cursor(r, (abs_a + U32_MAX) % m).count);
		}
	}
}

static void cursor_exhaustive_add(struct kunit *test)
{
	struct ct_ctx ctx;

	ct_begin(&ctx, test);
	ct_for_rings(&ctx, ct_add_ring);
	ct_end(&ctx);
}

/* sub by 0 .. 2 * capacity + 1 from every position: the inverse of add */
static void ct_sub_ring(struct ct_ctx *ctx, const struct smc_ring *r)
{
	u32 cap = smc_ring_capacity(r);
	u64 m = ct_modulus(r);
	u32 pa, n;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ct_base_wraps); i++) {
		for (pa = 0; pa < cap; pa++) {
			u64 abs_a = (u64)ct_base_wraps[i] * cap + pa;
			struct smc_cursor a = ct_cursor(r, abs_a);

			for (n = 0; n <= 2 * cap + 1; n++) {
				struct smc_cursor want, got;

				want = ct_cursor(r, (abs_a + m - n) % m);
				got = smc_curs_sub(r, a, n);
				ct_check(ctx, r, "sub.wrap", a, want, got.wrap,
					 want.wrap);
				ct_check(ctx, r, "sub.count", a, want,
					 got.count, want.count);
				got = smc_curs_sub(r, smc_curs_add(r, a, n), n);
				ct_check(ctx, r, "sub.inverse", a, got,
					 smc_curs_equal(got, a), 1);
			}
		}
	}
}

static void cursor_exhaustive_sub(struct kunit *test)
{
	struct ct_ctx ctx;

	ct_begin(&ctx, test);
	ct_for_rings(&ctx, ct_sub_ring);
	ct_end(&ctx);
}

/*
 * replay_from: for a producer cursor at every position near a base wrap
 * (the wrap number rolls over at 0xffff), every acked cursor from two
 * rings behind to one byte past it and every peer consumer cursor from
 * one ring behind to one byte past it, against the model: the later of
 * the two where both are consistent, else as documented.
 */
static void ct_replay_ring(struct ct_ctx *ctx, const struct smc_ring *r)
{
	u32 cap = smc_ring_capacity(r);
	u64 m = ct_modulus(r);
	u32 pp, ba, bc;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ct_base_wraps); i++) {
		for (pp = 0; pp < cap; pp += 3) {
			u64 abs_p = (u64)ct_base_wraps[i] * cap + pp + m;
			struct smc_cursor prod = ct_cursor(r, abs_p % m);

			/* back distances; cap * 2 + 1 stands for "one past" */
			for (ba = 0; ba <= 2 * cap + 1; ba++) {
				u64 abs_a = ba == 2 * cap + 1 ? abs_p + 1 :
					    abs_p - ba;
				struct smc_cursor acked = ct_cursor(r, abs_a % m);

				for (bc = 0; bc <= cap + 1; bc++) {
					u64 abs_c = bc == cap + 1 ? abs_p + 1 :
						    abs_p - bc;
					struct smc_cursor cons, got, want;

					cons = ct_cursor(r, abs_c % m);
					if (bc == cap + 1)
						want = prod;
					else if (ba == 2 * cap + 1 ||
						 abs_a < abs_c)
						want = cons;
					else
						want = acked;
					got = smc_curs_replay_from(r, acked,
								   cons, prod);
					ct_check(ctx, r, "replay_from", acked,
						 cons, smc_curs_equal(got, want),
						 1);
				}
			}
		}
	}
}

static void cursor_replay_from(struct kunit *test)
{
	struct ct_ctx ctx;

	ct_begin(&ctx, test);
	ct_for_rings(&ctx, ct_replay_ring);
	ct_end(&ctx);
}

/*
 * split: every position, every length 0 .. capacity + 1. The ranges must
 * be the bytes of the stream from the position on, in order: the first at
 * the cursor, up to the RMBE end at most, the second from the ring start,
 * and the transfer must end where smc_curs_add() puts the cursor.
 */
static void ct_split_ring(struct ct_ctx *ctx, const struct smc_ring *r)
{
	u32 cap = smc_ring_capacity(r);
	u32 pa, n;

	for (pa = 0; pa < cap; pa++) {
		struct smc_cursor a = ct_cursor(r, pa);

		for (n = 0; n <= cap + 1; n++) {
			struct smc_cursor end = ct_cursor(r, pa + n);
			u32 want0 = min(n, cap - pa);
			struct smc_span s;
			int segs;

			segs = smc_curs_split(r, a, n, &s);
			if (n > cap) {
				ct_check(ctx, r, "split.big", a, end, segs,
					 -ERANGE);
				continue;
			}
			ct_check(ctx, r, "split.segs", a, end, segs,
				 !!want0 + !!(n - want0));
			ct_check(ctx, r, "split.off0", a, end, s.off[0],
				 a.count);
			ct_check(ctx, r, "split.len0", a, end, s.len[0],
				 want0);
			ct_check(ctx, r, "split.off1", a, end, s.off[1],
				 r->start);
			ct_check(ctx, r, "split.len1", a, end, s.len[1],
				 n - want0);
			ct_check(ctx, r, "split.inside", a, end,
				 s.off[0] + s.len[0] <= r->size &&
				 s.off[1] + s.len[1] <= r->size, 1);
			/* the transfer ends at the advanced cursor */
			ct_check(ctx, r, "split.end", a, end,
				 s.len[1] ? s.off[1] + s.len[1] :
				 s.off[0] + s.len[0] == r->size ? r->start :
				 s.off[0] + s.len[0], end.count);
		}
	}
}

static void cursor_exhaustive_split(struct kunit *test)
{
	struct ct_ctx ctx;

	ct_begin(&ctx, test);
	ct_for_rings(&ctx, ct_split_ring);
	ct_end(&ctx);
}

/* Validity of every count 0 .. size + 4 */
static void ct_valid_ring(struct ct_ctx *ctx, const struct smc_ring *r)
{
	struct smc_cursor c = { .wrap = 0x1234 };

	for (c.count = 0; c.count <= r->size + 4; c.count++)
		ct_check(ctx, r, "valid", c, c, smc_curs_valid(r, c),
			 c.count >= r->start && c.count < r->size);
	c = smc_curs_first(r);
	ct_check(ctx, r, "first", c, c, c.wrap == 0 && c.count == r->start,
		 1);
}

static void cursor_exhaustive_valid(struct kunit *test)
{
	struct ct_ctx ctx;

	ct_begin(&ctx, test);
	ct_for_rings(&ctx, ct_valid_ring);
	ct_end(&ctx);
}

/*
 * 4.5.1 window update rule, checked exhaustively on a 40-byte ring
 * without and with eye catcher: every producer position within one ring
 * of the last sent consumer cursor, every consumer position between them.
 */
static void cursor_cons_update_exhaustive(struct kunit *test)
{
	struct smc_ring r;
	struct ct_ctx ctx;
	u32 cap, sent, used, gain;
	int ec;

	ct_begin(&ctx, test);
	for (ec = 0; ec < 2; ec++) {
		KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 40, ec), 0);
		cap = smc_ring_capacity(&r);
		for (sent = 0; sent < cap; sent++) {
			u64 base = 0xfffeULL * cap + sent;
			struct smc_cursor cs = ct_cursor(&r, base);

			for (used = 0; used <= cap; used++) {
				struct smc_cursor p = ct_cursor(&r,
								base + used);

				for (gain = 0; gain <= used; gain++) {
					struct smc_cursor cn;
					bool want;

					cn = ct_cursor(&r, base + gain);
					/* sender's window cap - used */
					want = 2 * (cap - used) < cap &&
					       10 * gain >= cap;
					ct_check(&ctx, &r, "cons_update", cs,
						 cn,
						 smc_curs_cons_update_needed(&r,
									     p, cs, cn),
						 want);
				}
			}
		}
	}
	ct_end(&ctx);
}

/* RFC 7609, 4.5.1, examples a-c: a 64K RMBE */
static void cursor_cons_update_rfc(struct kunit *test)
{
	struct smc_cursor cs, p, cn;
	struct smc_ring r;

	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 64 << 10, false), 0);
	cs = smc_curs_first(&r);
	/* a: sender's window 50K: no update, whatever was read */
	p = smc_curs_add(&r, cs, 14 << 10);
	cn = p;
	KUNIT_EXPECT_FALSE(test, smc_curs_cons_update_needed(&r, p, cs, cn));
	/* b: sender's window 30K, receiver's 31K: 1K < 6.4K, no update */
	p = smc_curs_add(&r, cs, 34 << 10);
	cn = smc_curs_add(&r, cs, 1 << 10);
	KUNIT_EXPECT_FALSE(test, smc_curs_cons_update_needed(&r, p, cs, cn));
	/* c: sender's window 30K, receiver's 64K: update */
	cn = p;
	KUNIT_EXPECT_TRUE(test, smc_curs_cons_update_needed(&r, p, cs, cn));
	/* just below and at 10% of the RMBE */
	cn = smc_curs_add(&r, cs, 6553);
	KUNIT_EXPECT_FALSE(test, smc_curs_cons_update_needed(&r, p, cs, cn));
	cn = smc_curs_add(&r, cs, 6554);
	KUNIT_EXPECT_TRUE(test, smc_curs_cons_update_needed(&r, p, cs, cn));
	/* a window of exactly half is not "less than half" */
	p = smc_curs_add(&r, cs, 32 << 10);
	cn = p;
	KUNIT_EXPECT_FALSE(test, smc_curs_cons_update_needed(&r, p, cs, cn));
	/* inconsistent cursors: no update */
	KUNIT_EXPECT_FALSE(test, smc_curs_cons_update_needed(&r, cs, p, cn));
}

/* RFC 7609, Figures 16 and 19: cursors with the eye catcher */
static void cursor_rfc_scenarios(struct kunit *test)
{
	struct smc_cursor prod, cons;
	struct smc_span s;
	struct smc_ring r;

	/* Figure 16: 1000 bytes into a fresh 10,000-byte RMBE: 4:1003 */
	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 10000, true), 0);
	prod = smc_curs_first(&r);
	KUNIT_EXPECT_EQ(test, prod.count, 4U);
	KUNIT_EXPECT_EQ(test, smc_curs_split(&r, prod, 1000, &s), 1);
	KUNIT_EXPECT_EQ(test, s.off[0], 4U);
	KUNIT_EXPECT_EQ(test, s.len[0], 1000U);
	prod = smc_curs_add(&r, prod, 1000);
	KUNIT_EXPECT_EQ(test, prod.count, 1004U);
	KUNIT_EXPECT_EQ(test, prod.wrap, 0);

	/* Figure 19: consumer at (1, 1004); a full window write */
	cons.wrap = 1;
	cons.count = 1004;
	prod = cons;
	KUNIT_EXPECT_EQ(test, smc_curs_free(&r, prod, cons), 9996);
	KUNIT_EXPECT_EQ(test, smc_curs_split(&r, prod, 9996, &s), 2);
	KUNIT_EXPECT_EQ(test, s.off[0], 1004U);
	KUNIT_EXPECT_EQ(test, s.len[0], 8996U);	/* 1004:9999 */
	KUNIT_EXPECT_EQ(test, s.off[1], 4U);
	KUNIT_EXPECT_EQ(test, s.len[1], 1000U);	/* 4:1003 */
	prod = smc_curs_add(&r, prod, 9996);
	KUNIT_EXPECT_EQ(test, prod.count, 1004U);
	KUNIT_EXPECT_EQ(test, prod.wrap, 2);
	/* writer blocked: same count, wrap one ahead; all of it readable */
	KUNIT_EXPECT_EQ(test, smc_curs_free(&r, prod, cons), 0);
	KUNIT_EXPECT_EQ(test, smc_curs_readable(&r, prod, cons), 9996);
	KUNIT_EXPECT_LT(test, smc_curs_cmp(&r, cons, prod), 0);
	/* the reader catches up to (2, 1004): the window is open again */
	cons = prod;
	KUNIT_EXPECT_EQ(test, smc_curs_free(&r, prod, cons), 9996);
	KUNIT_EXPECT_EQ(test, smc_curs_readable(&r, prod, cons), 0);
}

/* Boundaries: the largest ring, wrap roll-over, bad geometry */
static void cursor_boundaries(struct kunit *test)
{
	struct smc_cursor a, b;
	struct smc_ring r;
	struct smc_span s;

	KUNIT_EXPECT_EQ(test, smc_ring_init(&r, 0, false), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_ring_init(&r, 4, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_ring_init(&r, 5, true), 0);
	KUNIT_EXPECT_EQ(test, smc_ring_capacity(&r), 1U);
	KUNIT_EXPECT_EQ(test, smc_ring_init(&r, 1, false), 0);
	KUNIT_EXPECT_EQ(test, smc_ring_init(&r, SMC_RING_MAX_SIZE + 1, false),
			-EINVAL);

	/* 1-byte ring: every byte wraps */
	a = smc_curs_first(&r);
	b = smc_curs_add(&r, a, 1);
	KUNIT_EXPECT_EQ(test, b.wrap, 1);
	KUNIT_EXPECT_EQ(test, b.count, 0U);
	KUNIT_EXPECT_EQ(test, smc_curs_diff(&r, a, b), 1);

	/* largest ring: distances up to 1 GiB fit an int */
	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, SMC_RING_MAX_SIZE, false), 0);
	a.wrap = 0xffff;
	a.count = SMC_RING_MAX_SIZE - 1;
	b = smc_curs_add(&r, a, SMC_RING_MAX_SIZE);
	KUNIT_EXPECT_EQ(test, b.wrap, 0);
	KUNIT_EXPECT_EQ(test, b.count, SMC_RING_MAX_SIZE - 1);
	KUNIT_EXPECT_EQ(test, smc_curs_diff(&r, a, b), (int)SMC_RING_MAX_SIZE);
	KUNIT_EXPECT_EQ(test, smc_curs_free(&r, b, a), 0);
	KUNIT_EXPECT_EQ(test, smc_curs_split(&r, a, SMC_RING_MAX_SIZE, &s), 2);
	KUNIT_EXPECT_EQ(test, s.len[0], 1U);
	KUNIT_EXPECT_EQ(test, s.len[1], SMC_RING_MAX_SIZE - 1);
	KUNIT_EXPECT_GT(test, smc_curs_cmp(&r, b, a), 0);
	b = smc_curs_add(&r, b, 1);
	KUNIT_EXPECT_EQ(test, smc_curs_diff(&r, a, b), -ERANGE);
	/* the 512 MiB RMBE of size code 15 */
	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 512U << 20, false), 0);
	a.wrap = 7;
	a.count = (512U << 20) - 3;
	b = smc_curs_add(&r, a, 5);
	KUNIT_EXPECT_EQ(test, b.wrap, 8);
	KUNIT_EXPECT_EQ(test, b.count, 2U);
	KUNIT_EXPECT_EQ(test, smc_curs_readable(&r, b, a), 5);
	KUNIT_EXPECT_EQ(test, smc_curs_readable(&r, a, b), -ERANGE);
}

static struct kunit_case smcr_cursor_cases[] = {
	KUNIT_CASE_SLOW(cursor_exhaustive_pairs),
	KUNIT_CASE(cursor_exhaustive_add),
	KUNIT_CASE(cursor_exhaustive_sub),
	KUNIT_CASE(cursor_replay_from),
	KUNIT_CASE(cursor_exhaustive_split),
	KUNIT_CASE(cursor_exhaustive_valid),
	KUNIT_CASE(cursor_cons_update_exhaustive),
	KUNIT_CASE(cursor_cons_update_rfc),
	KUNIT_CASE(cursor_rfc_scenarios),
	KUNIT_CASE(cursor_boundaries),
	{}
};

static struct kunit_suite smcr_cursor_suite = {
	.name = "smcr_cursor",
	.test_cases = smcr_cursor_cases,
};

kunit_test_suite(smcr_cursor_suite);
