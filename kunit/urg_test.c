// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for net/smc/urg.c (suite smcr_urg).
 *
 * The flag cases check the receive state machine message by message; the
 * stream cases run a reader built like smc_rx_recvmsg() over a small ring
 * (with and without the RFC eye catcher, the mark anywhere, also at the
 * wrap) and compare what it returns with TCP's answer: the data before
 * the mark, then (without SO_OOBINLINE) the rest without the urgent byte,
 * or (with it) the urgent byte and the rest.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <smcr/cdc_wire.h>
#include <smcr/urg.h>

#define UT_PRESENT	(SMC_CDC_PROD_URG_PENDING | SMC_CDC_PROD_URG_PRESENT)

static struct smc_cursor ut_curs(u16 wrap, u32 count)
{
	return (struct smc_cursor){ .wrap = wrap, .count = count };
}

static void urg_present_sets_mark(struct kunit *test)
{
	struct smc_urg_rx u = {};
	struct smc_ring r;
	int ev;

	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 64, false), 0);
	ev = smc_urg_rx_flags(&u, &r, ut_curs(0, 0), ut_curs(0, 10),
			      UT_PRESENT);
	KUNIT_EXPECT_EQ(test, ev, SMC_URG_EV_NEW_MARK | SMC_URG_EV_SIGNAL);
	KUNIT_EXPECT_EQ(test, u.state, (u8)SMC_URG_VALID);
	KUNIT_EXPECT_TRUE(test, smc_curs_equal(u.mark, ut_curs(0, 10)));
	KUNIT_EXPECT_FALSE(test, u.reached);
}

static void urg_present_repeated_ignored(struct kunit *test)
{
	struct smc_urg_rx u = {};
	struct smc_ring r;

	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 64, false), 0);
	smc_urg_rx_flags(&u, &r, ut_curs(0, 0), ut_curs(0, 10), UT_PRESENT);
	u.state = SMC_URG_READ;
	/* the same mark again: the byte was read already, no new signal */
	KUNIT_EXPECT_EQ(test, smc_urg_rx_flags(&u, &r, ut_curs(0, 0),
					       ut_curs(0, 10), UT_PRESENT), 0);
	KUNIT_EXPECT_EQ(test, u.state, (u8)SMC_URG_READ);
	/* a later mark replaces it, as on TCP */
	KUNIT_EXPECT_EQ(test, smc_urg_rx_flags(&u, &r, ut_curs(0, 0),
					       ut_curs(0, 20), UT_PRESENT),
			SMC_URG_EV_NEW_MARK | SMC_URG_EV_SIGNAL);
	KUNIT_EXPECT_EQ(test, u.state, (u8)SMC_URG_VALID);
	KUNIT_EXPECT_TRUE(test, smc_curs_equal(u.mark, ut_curs(0, 20)));
}

static void urg_present_consumed_acknowledged(struct kunit *test)
{
	struct smc_urg_rx u = {};
	struct smc_ring r;

	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 64, false), 0);
	/* the byte was read in-band already: no mark and no signal, but the
	 * sender waits for our cursor
	 */
	KUNIT_EXPECT_EQ(test, smc_urg_rx_flags(&u, &r, ut_curs(3, 17),
					       ut_curs(3, 17), UT_PRESENT), 0);
	KUNIT_EXPECT_EQ(test, u.state, (u8)SMC_URG_NONE);
	KUNIT_EXPECT_TRUE(test, u.ack);
	KUNIT_EXPECT_FALSE(test, u.notyet);
}

static void urg_pending_then_present(struct kunit *test)
{
	struct smc_urg_rx u = {};
	struct smc_ring r;

	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 64, false), 0);
	/* 4.7.6: announced while the window is closed, signalled once */
	KUNIT_EXPECT_EQ(test, smc_urg_rx_flags(&u, &r, ut_curs(0, 0),
					       ut_curs(0, 0),
					       SMC_CDC_PROD_URG_PENDING |
					       SMC_CDC_PROD_WRITE_BLOCKED),
			SMC_URG_EV_SIGNAL);
	KUNIT_EXPECT_TRUE(test, u.notyet);
	KUNIT_EXPECT_EQ(test, u.state, (u8)SMC_URG_NONE);
	KUNIT_EXPECT_EQ(test, smc_urg_rx_flags(&u, &r, ut_curs(0, 0),
					       ut_curs(0, 0),
					       SMC_CDC_PROD_URG_PENDING), 0);
	/* then written: the byte is to be read, no second signal */
	KUNIT_EXPECT_EQ(test, smc_urg_rx_flags(&u, &r, ut_curs(0, 0),
					       ut_curs(0, 5), UT_PRESENT),
			SMC_URG_EV_NEW_MARK);
	KUNIT_EXPECT_EQ(test, u.state, (u8)SMC_URG_VALID);
	KUNIT_EXPECT_FALSE(test, u.notyet);
	/* the sender's next message has neither flag: the mark stays */
	KUNIT_EXPECT_EQ(test, smc_urg_rx_flags(&u, &r, ut_curs(0, 0),
					       ut_curs(0, 9), 0), 0);
	KUNIT_EXPECT_EQ(test, u.state, (u8)SMC_URG_VALID);
}

static void urg_pending_withdrawn(struct kunit *test)
{
	struct smc_urg_rx u = {};
	struct smc_ring r;

	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 64, false), 0);
	smc_urg_rx_flags(&u, &r, ut_curs(0, 0), ut_curs(0, 0),
			 SMC_CDC_PROD_URG_PENDING);
	KUNIT_EXPECT_EQ(test, smc_urg_rx_flags(&u, &r, ut_curs(0, 0),
					       ut_curs(0, 0), 0), 0);
	KUNIT_EXPECT_FALSE(test, u.notyet);
	KUNIT_EXPECT_EQ(test, u.state, (u8)SMC_URG_NONE);
}

static void urg_withdrawn_keeps_mark(struct kunit *test)
{
	struct smc_urg_rx u = {};
	struct smc_ring r;

	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 64, false), 0);
	smc_urg_rx_flags(&u, &r, ut_curs(0, 0), ut_curs(0, 10), UT_PRESENT);
	u.state = SMC_URG_READ;
	/* a second send(MSG_OOB) announces, then returns without data */
	KUNIT_EXPECT_EQ(test, smc_urg_rx_flags(&u, &r, ut_curs(0, 0),
					       ut_curs(0, 10),
					       SMC_CDC_PROD_URG_PENDING |
					       SMC_CDC_PROD_WRITE_BLOCKED),
			SMC_URG_EV_SIGNAL);
	KUNIT_EXPECT_EQ(test, smc_urg_rx_flags(&u, &r, ut_curs(0, 0),
					       ut_curs(0, 10), 0), 0);
	KUNIT_EXPECT_FALSE(test, u.notyet);
	KUNIT_EXPECT_EQ(test, u.state, (u8)SMC_URG_READ);
	KUNIT_EXPECT_TRUE(test, smc_curs_equal(u.mark, ut_curs(0, 10)));
}

static void urg_byte_offset(struct kunit *test)
{
	struct smc_ring r;

	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 64, false), 0);
	KUNIT_EXPECT_EQ(test, smc_urg_byte_offset(&r, ut_curs(1, 10)), 9U);
	KUNIT_EXPECT_EQ(test, smc_urg_byte_offset(&r, ut_curs(1, 0)), 63U);
	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 64, true), 0);
	KUNIT_EXPECT_EQ(test, smc_urg_byte_offset(&r, ut_curs(1, 4)), 63U);
	KUNIT_EXPECT_EQ(test, smc_urg_byte_offset(&r, ut_curs(1, 5)), 4U);
}

static void urg_take_and_atmark(struct kunit *test)
{
	struct smc_urg_rx u = { .state = SMC_URG_VALID };
	struct smc_ring r;

	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 64, false), 0);
	u.mark = ut_curs(0, 10);	/* urgent byte at 9 */
	/* before the mark: up to the byte before the urgent one */
	KUNIT_EXPECT_EQ(test, smc_urg_rx_take(&u, &r, ut_curs(0, 2), 30,
					      false, false), 7U);
	KUNIT_EXPECT_EQ(test, smc_urg_rx_take(&u, &r, ut_curs(0, 2), 3,
					      false, false), 3U);
	KUNIT_EXPECT_FALSE(test, smc_urg_rx_atmark(&u, &r, ut_curs(0, 2),
						   false));
	/* inline, on the urgent byte: at the mark; a fresh read takes it */
	KUNIT_EXPECT_TRUE(test, smc_urg_rx_atmark(&u, &r, ut_curs(0, 9), true));
	KUNIT_EXPECT_EQ(test, smc_urg_rx_take(&u, &r, ut_curs(0, 9), 21,
					      true, false), 21U);
	KUNIT_EXPECT_EQ(test, smc_urg_rx_take(&u, &r, ut_curs(0, 9), 21,
					      true, true), 0U);
	/* not inline, the byte skipped: at the mark */
	KUNIT_EXPECT_TRUE(test, smc_urg_rx_atmark(&u, &r, ut_curs(0, 10),
						  false));
	KUNIT_EXPECT_EQ(test, smc_urg_rx_take(&u, &r, ut_curs(0, 10), 20,
					      false, true), 0U);
	KUNIT_EXPECT_EQ(test, smc_urg_rx_take(&u, &r, ut_curs(0, 10), 20,
					      false, false), 20U);
	/* no mark: everything */
	u.state = SMC_URG_NONE;
	u.notyet = true;
	KUNIT_EXPECT_EQ(test, smc_urg_rx_take(&u, &r, ut_curs(0, 2), 30,
					      false, true), 30U);
	KUNIT_EXPECT_FALSE(test, smc_urg_rx_atmark(&u, &r, ut_curs(0, 9),
						   true));
}

static void urg_advance_skip_and_ack(struct kunit *test)
{
	struct smc_urg_rx u = { .state = SMC_URG_VALID };
	struct smc_cursor cons = ut_curs(0, 9);
	struct smc_ring r;

	KUNIT_ASSERT_EQ(test, smc_ring_init(&r, 64, false), 0);
	u.mark = ut_curs(0, 10);
	/* inline: the byte stays, nothing to acknowledge yet */
	smc_urg_rx_advance(&u, &r, &cons, true);
	KUNIT_EXPECT_TRUE(test, smc_curs_equal(cons, ut_curs(0, 9)));
	KUNIT_EXPECT_FALSE(test, u.ack);
	/* not inline: skipped, acknowledged once, the byte still readable */
	smc_urg_rx_advance(&u, &r, &cons, false);
	KUNIT_EXPECT_TRUE(test, smc_curs_equal(cons, ut_curs(0, 10)));
	KUNIT_EXPECT_TRUE(test, u.ack);
	KUNIT_EXPECT_EQ(test, u.state, (u8)SMC_URG_VALID);
	u.ack = false;
	smc_urg_rx_advance(&u, &r, &cons, false);
	KUNIT_EXPECT_FALSE(test, u.ack);
	/* past the mark: forgotten */
	cons = ut_curs(0, 11);
	smc_urg_rx_advance(&u, &r, &cons, false);
	KUNIT_EXPECT_EQ(test, u.state, (u8)SMC_URG_NONE);
	KUNIT_EXPECT_FALSE(test, u.ack);
}

/* A reader as smc_rx_recvmsg(): @len bytes at most, stops at the mark */
static u32 ut_read(struct smc_urg_rx *u, const struct smc_ring *r,
		   const u8 *rmbe, struct smc_cursor prod,
		   struct smc_cursor *cons, bool oobinline, u8 *out, u32 len)
{
	u32 copied = 0, take, i;
	int avail;

	while (copied < len) {
		smc_urg_rx_advance(u, r, cons, oobinline);
		avail = smc_curs_readable(r, prod, *cons);
		take = smc_urg_rx_take(u, r, *cons, avail, oobinline, copied);
		take = min(take, len - copied);
		if (!take)
			break;
		for (i = 0; i < take; i++)
			out[copied + i] = rmbe[smc_curs_add(r, *cons, i).count];
		copied += take;
		*cons = smc_curs_add(r, *cons, take);
	}
	smc_urg_rx_advance(u, r, cons, oobinline);
	return copied;
}

/*
 * @before bytes, the urgent byte, @after bytes through a ring of @size
 * (eye catcher @ec), the stream starting @skew bytes into the ring; read
 * in pieces of at most @chunk. Checks TCP's view; returns mismatches.
 */
static int ut_stream(struct kunit *test, u32 size, bool ec, u32 skew,
		     u32 before, u32 after, u32 chunk, bool oobinline)
{
	u8 rmbe[64], out[64], want[64];
	struct smc_cursor cons, prod, mark;
	struct smc_urg_rx u = {};
	u32 got = 0, n, i, wantlen;
	struct smc_ring r;
	bool atmark_seen;
	int bad = 0;

	if (smc_ring_init(&r, size, ec) ||
	    before + 1 + after > smc_ring_capacity(&r))
		return 0;
	cons = smc_curs_add(&r, smc_curs_first(&r), skew);
	prod = cons;
	for (i = 0; i < before + 1 + after; i++) {
		rmbe[prod.count] = i == before ? 0xee : (u8)i;
		prod = smc_curs_add(&r, prod, 1);
		if (i == before) {
			mark = prod;
			/* the CDC announcing the urgent byte */
			if (smc_urg_rx_flags(&u, &r, cons, prod, UT_PRESENT) &
			    SMC_URG_EV_NEW_MARK)
				u.byte = rmbe[smc_urg_byte_offset(&r, mark)];
			smc_urg_rx_advance(&u, &r, &cons, oobinline);
		}
	}
	wantlen = 0;
	for (i = 0; i < before + 1 + after; i++)
		if (i != before || oobinline)
			want[wantlen++] = rmbe[smc_curs_add(&r,
				smc_curs_add(&r, smc_curs_first(&r), skew),
				i).count];
	if (u.byte != 0xee)
		bad++;
	/* the first reads end exactly at the mark */
	while (got < before) {
		n = ut_read(&u, &r, rmbe, prod, &cons, oobinline, out + got,
			    chunk);
		if (!n || got + n > before) {
			bad++;
			break;
		}
		got += n;
	}
	atmark_seen = smc_urg_rx_atmark(&u, &r, cons, oobinline);
	if (!atmark_seen || !u.reached != oobinline)
		bad++;
	while (got < wantlen) {
		n = ut_read(&u, &r, rmbe, prod, &cons, oobinline, out + got,
			    chunk);
		if (!n)
			break;
		got += n;
	}
	/* past the mark the state is gone; right at it (nothing after the
	 * skipped byte) recv(MSG_OOB) still returns the byte
	 */
	if (got != wantlen || memcmp(out, want, wantlen) ||
	    !smc_curs_equal(cons, prod) || !u.reached ||
	    u.state != (!oobinline && !after ? SMC_URG_VALID : SMC_URG_NONE))
		bad++;
	if (bad)
		kunit_info(test,
			   "size %u ec %d skew %u before %u after %u chunk %u inline %d: got %u of %u\n",
			   size, ec, skew, before, after, chunk, oobinline,
			   got, wantlen);
	return bad;
}

/* Every stream position, length before/after the mark and read size */
static int ut_streams(struct kunit *test, u32 size, bool ec, bool oobinline)
{
	static const u32 chunks[] = { 1, 2, 3, 64 };
	u32 skew, before, after, c;
	int bad = 0;

	for (skew = 0; skew < size; skew++)
		for (before = 0; before < size; before++)
			for (after = 0; after < size; after++)
				for (c = 0; c < ARRAY_SIZE(chunks); c++)
					bad += ut_stream(test, size, ec, skew,
							 before, after,
							 chunks[c], oobinline);
	return bad;
}

static void urg_stream_exhaustive(struct kunit *test)
{
	int bad = 0, ec, inl;
	u32 size;

	for (size = 8; size <= 16; size += 8)
		for (ec = 0; ec < 2; ec++)
			for (inl = 0; inl < 2; inl++)
				bad += ut_streams(test, size, ec, inl);
	KUNIT_EXPECT_EQ(test, bad, 0);
}

static struct kunit_case smcr_urg_cases[] = {
	KUNIT_CASE(urg_present_sets_mark),
	KUNIT_CASE(urg_present_repeated_ignored),
	KUNIT_CASE(urg_present_consumed_acknowledged),
	KUNIT_CASE(urg_pending_then_present),
	KUNIT_CASE(urg_pending_withdrawn),
	KUNIT_CASE(urg_withdrawn_keeps_mark),
	KUNIT_CASE(urg_byte_offset),
	KUNIT_CASE(urg_take_and_atmark),
	KUNIT_CASE(urg_advance_skip_and_ack),
	KUNIT_CASE(urg_stream_exhaustive),
	{}
};

static struct kunit_suite smcr_urg_suite = {
	.name = "smcr_urg",
	.test_cases = smcr_urg_cases,
};

kunit_test_suite(smcr_urg_suite);
