// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for net/smc/cdc_msg.c (suite smcr_cdc).
 *
 * Golden vectors are written by hand from RFC 7609, Appendix A.4
 * (Figure 41) and checked against the byte layout Linux 6.12 sends
 * (struct smc_cdc_msg: the same offsets; its flag bit-fields put the
 * first named flag in the most significant bit). None is produced by the
 * code under test.
 */
#include <kunit/test.h>
#include <linux/stddef.h>
#include <smcr/cdc_wire.h>

/* A data CDC message: seqno 0x0102, token 0xA1B2C3D4, prod (3, 0x1004),
 * cons (0xfffe, 4), B and P set, D set.
 */
static const u8 golden_cdc[SMC_CDC_MSG_LEN] = {
	0xFE,				/*  0 type */
	0x2C,				/*  1 length 44 */
	0x01, 0x02,			/*  2 sequence number */
	0xA1, 0xB2, 0xC3, 0xD4,		/*  4 alert token */
	0x00, 0x00, 0x00, 0x03,		/*  8 reserved, producer wrap */
	0x00, 0x00, 0x10, 0x04,		/* 12 producer cursor */
	0x00, 0x00, 0xFF, 0xFE,		/* 16 reserved, consumer wrap */
	0x00, 0x00, 0x00, 0x04,		/* 20 consumer cursor */
	0xC0,				/* 24 B P U R F rsvd: B, P */
	0x80,				/* 25 D C A rsvd: D */
	0x00, 0x00,			/* 26 reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* 28 reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const struct smc_cdc_info golden_info = {
	.seqno = 0x0102,
	.token = 0xA1B2C3D4,
	.prod = { .wrap = 3, .count = 0x1004 },
	.cons = { .wrap = 0xfffe, .count = 4 },
	.prod_flags = SMC_CDC_PROD_WRITE_BLOCKED | SMC_CDC_PROD_URG_PENDING,
	.conn_flags = SMC_CDC_CONN_DONE_WRITING,
};

static struct smc_ring cdc_ring(u32 size, bool eyecatcher)
{
	struct smc_ring r;

	WARN_ON(smc_ring_init(&r, size, eyecatcher));
	return r;
}

static void cdc_expect_info(struct kunit *test, const struct smc_cdc_info *a,
			    const struct smc_cdc_info *b)
{
	KUNIT_EXPECT_EQ(test, a->seqno, b->seqno);
	KUNIT_EXPECT_EQ(test, a->token, b->token);
	KUNIT_EXPECT_EQ(test, a->prod.wrap, b->prod.wrap);
	KUNIT_EXPECT_EQ(test, a->prod.count, b->prod.count);
	KUNIT_EXPECT_EQ(test, a->cons.wrap, b->cons.wrap);
	KUNIT_EXPECT_EQ(test, a->cons.count, b->cons.count);
	KUNIT_EXPECT_EQ(test, a->prod_flags, b->prod_flags);
	KUNIT_EXPECT_EQ(test, a->conn_flags, b->conn_flags);
}

/* The offsets of Figure 41 */
static void cdc_layout(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(struct smc_cdc_msg_wire), 44);
	KUNIT_EXPECT_EQ(test, offsetof(struct smc_cdc_msg_wire, seqno), 2);
	KUNIT_EXPECT_EQ(test, offsetof(struct smc_cdc_msg_wire, token), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct smc_cdc_msg_wire, prod), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct smc_cdc_msg_wire, prod.wrap), 10);
	KUNIT_EXPECT_EQ(test, offsetof(struct smc_cdc_msg_wire, prod.count),
			12);
	KUNIT_EXPECT_EQ(test, offsetof(struct smc_cdc_msg_wire, cons), 16);
	KUNIT_EXPECT_EQ(test, offsetof(struct smc_cdc_msg_wire, cons.wrap), 18);
	KUNIT_EXPECT_EQ(test, offsetof(struct smc_cdc_msg_wire, cons.count),
			20);
	KUNIT_EXPECT_EQ(test, offsetof(struct smc_cdc_msg_wire, prod_flags),
			24);
	KUNIT_EXPECT_EQ(test, offsetof(struct smc_cdc_msg_wire, conn_flags),
			25);
	KUNIT_EXPECT_EQ(test, offsetof(struct smc_cdc_msg_wire, reserved), 26);
}

static void cdc_build_golden(struct kunit *test)
{
	struct smc_cdc_msg_wire msg;

	memset(&msg, 0xAA, sizeof(msg));	/* build must clear reserved */
	smc_cdc_msg_build(&msg, &golden_info);
	KUNIT_EXPECT_MEMEQ(test, &msg, golden_cdc, sizeof(golden_cdc));
}

static void cdc_parse_golden(struct kunit *test)
{
	struct smc_ring local = cdc_ring(64 << 10, false);
	struct smc_ring peer = cdc_ring(16 << 10, false);
	struct smc_cdc_info info;

	KUNIT_ASSERT_EQ(test, smc_cdc_msg_parse(golden_cdc, sizeof(golden_cdc),
						&local, &peer, &info), 0);
	cdc_expect_info(test, &info, &golden_info);
}

/* Each flag at its bit, alone, both ways */
static void cdc_flag_bits(struct kunit *test)
{
	static const struct {
		int	byte;
		u8	bit;
		u8	prod;
		u8	conn;
	} flags[] = {
		{ 24, 0x80, SMC_CDC_PROD_WRITE_BLOCKED, 0 },
		{ 24, 0x40, SMC_CDC_PROD_URG_PENDING, 0 },
		{ 24, 0x20, SMC_CDC_PROD_URG_PRESENT, 0 },
		{ 24, 0x10, SMC_CDC_PROD_CONS_UPD_REQ, 0 },
		{ 25, 0x80, 0, SMC_CDC_CONN_DONE_WRITING },
		{ 25, 0x40, 0, SMC_CDC_CONN_CLOSED },
		{ 25, 0x20, 0, SMC_CDC_CONN_ABORT },
	};
	struct smc_ring r = cdc_ring(16 << 10, false);
	struct smc_cdc_info in = { .seqno = 1 }, out;
	struct smc_cdc_msg_wire msg;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		in.prod_flags = flags[i].prod;
		in.conn_flags = flags[i].conn;
		smc_cdc_msg_build(&msg, &in);
		KUNIT_EXPECT_EQ(test, ((u8 *)&msg)[24],
				flags[i].byte == 24 ? flags[i].bit : 0);
		KUNIT_EXPECT_EQ(test, ((u8 *)&msg)[25],
				flags[i].byte == 25 ? flags[i].bit : 0);
		KUNIT_ASSERT_EQ(test, smc_cdc_msg_parse(&msg, sizeof(msg), &r,
							&r, &out), 0);
		KUNIT_EXPECT_EQ(test, out.prod_flags, flags[i].prod);
		KUNIT_EXPECT_EQ(test, out.conn_flags, flags[i].conn);
	}
}

/* Round trip of extreme field values, both eye catcher modes */
static void cdc_roundtrip(struct kunit *test)
{
	static const u32 counts[] = { 0, 3, 4, 5, 0x3fff, 0x7fff };
	static const u16 wraps[] = { 0, 1, 0x7fff, 0x8000, 0xffff };
	struct smc_cdc_msg_wire msg;
	struct smc_cdc_info in, out;
	struct smc_ring r;
	size_t i, j;
	int ec;

	for (ec = 0; ec < 2; ec++) {
		r = cdc_ring(32 << 10, ec);
		for (i = 0; i < ARRAY_SIZE(counts); i++) {
			for (j = 0; j < ARRAY_SIZE(wraps); j++) {
				int rc;

				memset(&in, 0, sizeof(in));
				in.seqno = wraps[j] ^ 0x5a5a;
				in.token = 0xffffffff - counts[i];
				in.prod.wrap = wraps[j];
				in.prod.count = counts[i];
				in.cons.wrap = ~wraps[j];
				in.cons.count = 0x7fff - counts[i];
				in.prod_flags = SMC_CDC_PROD_URG_PRESENT;
				in.conn_flags = SMC_CDC_CONN_CLOSED;
				smc_cdc_msg_build(&msg, &in);
				rc = smc_cdc_msg_parse(&msg, sizeof(msg), &r,
						       &r, &out);
				if (ec && (counts[i] < 4 ||
					   0x7fff - counts[i] < 4)) {
					KUNIT_EXPECT_EQ(test, rc, -ERANGE);
					continue;
				}
				KUNIT_ASSERT_EQ(test, rc, 0);
				cdc_expect_info(test, &out, &in);
			}
		}
	}
}

/* Reserved bits: not sent, ignored on receipt */
static void cdc_reserved_policy(struct kunit *test)
{
	struct smc_ring r = cdc_ring(64 << 10, false);
	struct smc_cdc_info in = golden_info, out;
	u8 msg[SMC_CDC_MSG_LEN];
	int i;

	in.prod_flags |= SMC_CDC_PROD_RESERVED;
	in.conn_flags |= SMC_CDC_CONN_RESERVED;
	smc_cdc_msg_build((void *)msg, &in);
	KUNIT_EXPECT_MEMEQ(test, msg, golden_cdc, sizeof(msg));

	memcpy(msg, golden_cdc, sizeof(msg));
	msg[8] = 0xff;			/* producer cursor reserved */
	msg[9] = 0xff;
	msg[16] = 0x12;			/* consumer cursor reserved */
	msg[24] |= SMC_CDC_PROD_RESERVED;
	msg[25] |= SMC_CDC_CONN_RESERVED;
	for (i = 26; i < SMC_CDC_MSG_LEN; i++)
		msg[i] = i;
	KUNIT_ASSERT_EQ(test, smc_cdc_msg_parse(msg, sizeof(msg), &r, &r, &out),
			0);
	cdc_expect_info(test, &out, &golden_info);
}

static void cdc_reject_header(struct kunit *test)
{
	struct smc_ring r = cdc_ring(64 << 10, false);
	u8 msg[SMC_CDC_MSG_LEN + 4];
	struct smc_cdc_info out;
	size_t len;

	/* every short length */
	for (len = 0; len < SMC_CDC_MSG_LEN; len++)
		KUNIT_EXPECT_EQ(test, smc_cdc_msg_parse(golden_cdc, len, &r, &r,
							&out), -EPROTO);
	/* a longer receive is fine */
	memset(msg, 0xee, sizeof(msg));
	memcpy(msg, golden_cdc, sizeof(golden_cdc));
	KUNIT_EXPECT_EQ(test, smc_cdc_msg_parse(msg, sizeof(msg), &r, &r, &out),
			0);
	/* LLC types and other values are not CDC */
	msg[0] = 0x01;
	KUNIT_EXPECT_EQ(test, smc_cdc_msg_parse(msg, sizeof(msg), &r, &r, &out),
			-EPROTO);
	msg[0] = 0xFF;
	KUNIT_EXPECT_EQ(test, smc_cdc_msg_parse(msg, sizeof(msg), &r, &r, &out),
			-EPROTO);
	msg[0] = SMC_CDC_MSG_TYPE;
	msg[1] = 43;
	KUNIT_EXPECT_EQ(test, smc_cdc_msg_parse(msg, sizeof(msg), &r, &r, &out),
			-EPROTO);
	msg[1] = 48;
	KUNIT_EXPECT_EQ(test, smc_cdc_msg_parse(msg, sizeof(msg), &r, &r, &out),
			-EPROTO);
}

/* Producer cursor is checked against the local RMBE, consumer against
 * the peer's; every count around both limits
 */
static void cdc_reject_cursors(struct kunit *test)
{
	struct smc_ring local = cdc_ring(64, true);
	struct smc_ring peer = cdc_ring(32, false);
	struct smc_cdc_info in = { .seqno = 9 }, out;
	struct smc_cdc_msg_wire msg;
	u32 c;

	for (c = 0; c <= 80; c++) {
		in.prod.count = c;
		in.cons.count = 0;
		smc_cdc_msg_build(&msg, &in);
		KUNIT_EXPECT_EQ(test, smc_cdc_msg_parse(&msg, sizeof(msg),
							&local, &peer, &out),
				c >= 4 && c < 64 ? 0 : -ERANGE);
		in.prod.count = 4;
		in.cons.count = c;
		smc_cdc_msg_build(&msg, &in);
		KUNIT_EXPECT_EQ(test, smc_cdc_msg_parse(&msg, sizeof(msg),
							&local, &peer, &out),
				c < 32 ? 0 : -ERANGE);
	}
	in.prod.count = 0xffffffff;
	smc_cdc_msg_build(&msg, &in);
	KUNIT_EXPECT_EQ(test, smc_cdc_msg_parse(&msg, sizeof(msg), &local,
						&peer, &out), -ERANGE);
}

/*
 * 4.6.1: the peer's failover validation message; only F, seqno and token
 * count
 */
static void cdc_failover_validation(struct kunit *test)
{
	static const u8 golden[SMC_CDC_MSG_LEN] = {
		0xFE, 0x2C, 0x00, 0x07, 0x00, 0x00, 0x10, 0x01,
		[24] = 0x08,
	};
	struct smc_ring r = cdc_ring(16 << 10, false);
	struct smc_cdc_msg_wire msg;
	struct smc_cdc_info out;
	u8 *raw = (u8 *)&msg;

	memcpy(&msg, golden, sizeof(msg));
	/* garbage cursors and flags beside F are not looked at */
	memset(raw + 8, 0xff, 16);
	raw[25] = SMC_CDC_CONN_ABORT;
	KUNIT_ASSERT_EQ(test,
			smc_cdc_msg_parse(&msg, sizeof(msg), &r, &r, &out), 0);
	KUNIT_EXPECT_EQ(test, out.seqno, 7);
	KUNIT_EXPECT_EQ(test, out.token, 0x1001U);
	KUNIT_EXPECT_EQ(test, out.prod_flags, SMC_CDC_PROD_FAILOVER);
	KUNIT_EXPECT_EQ(test, out.conn_flags, 0);
	KUNIT_EXPECT_EQ(test, out.prod.count, 0U);
	KUNIT_EXPECT_EQ(test, out.cons.wrap, 0);
}

/* A.4: the initial sequence number 1 follows 0; the number wraps to 0 */
static void cdc_seq_order(struct kunit *test)
{
	u32 a;

	KUNIT_EXPECT_TRUE(test, smc_cdc_seq_after(1, 0));
	KUNIT_EXPECT_TRUE(test, smc_cdc_seq_after(0, 0xffff));
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_after(0xffff, 0));
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_after(5, 5));
	KUNIT_EXPECT_TRUE(test, smc_cdc_seq_after(0x7fff, 0));
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_after(0x8000, 0));
	/* antisymmetric and total except at equality and half-way */
	for (a = 0; a <= 0xffff; a += 0x101) {
		u16 b = a + 0x1234;

		KUNIT_EXPECT_NE(test, smc_cdc_seq_after(a, b),
				smc_cdc_seq_after(b, a));
	}
}

/*
 * RFC 7609 4.6.1: SS after SR is a gap; SS equal to SR (the RFC's SS for a
 * receiver that has everything) and SS before it (Linux's SS, one behind)
 * are none, also across the wrap of the 16-bit numbers.
 */
static const struct {
	u16	ss;
	u16	sr;
	bool	sr_valid;
	bool	gap;
} cdc_gap_cases[] = {
	{ 7, 7, true, false },		/* the RFC's SS, nothing missed */
	{ 6, 7, true, false },		/* Linux's SS: one behind */
	{ 8, 7, true, true },		/* one message missed */
	{ 12, 7, true, true },		/* five missed */
	{ 0, 0xffff, true, true },	/* wrap: 0 follows 0xffff */
	{ 3, 0xfffe, true, true },	/* wrap, five missed */
	{ 0xffff, 0, true, false },	/* wrap: 0xffff is before 0 */
	{ 0xfffe, 0, true, false },	/* Linux's SS across the wrap */
	{ 0, 0, true, false },
	{ 0x7fff, 0, true, true },	/* as far ahead as seq_after goes */
	{ 0x8000, 0, true, false },	/* half-way round: not after */
	{ 0, 0, false, false },		/* nothing received, nothing claimed */
	{ 1, 0, false, true },		/* nothing received, one claimed */
	{ 0xffff, 0, false, false },	/* nothing received: before 0 */
};

static void cdc_failover_gap(struct kunit *test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cdc_gap_cases); i++) {
		u16 ss = cdc_gap_cases[i].ss, sr = cdc_gap_cases[i].sr;
		bool valid = cdc_gap_cases[i].sr_valid;

		KUNIT_EXPECT_EQ_MSG(test, smc_cdc_msg_failover_gap(ss, sr, valid),
				    cdc_gap_cases[i].gap,
				    "SS %u SR %u valid %d", ss, sr, valid);
		/* an invalid SR is SR 0 */
		if (!valid)
			KUNIT_EXPECT_EQ(test,
					smc_cdc_msg_failover_gap(ss, 0, true),
					cdc_gap_cases[i].gap);
	}
}

/*
 * A message of a lower number, late on the old link after newer ones came
 * on the new link, is stale: the receive path drops what is not after SR,
 * so it moves no cursor. Across the wrap too.
 */
static void cdc_stale_after_failover(struct kunit *test)
{
	u16 sr = 0x0002;	/* newer ones, after the wrap, arrived */

	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_after(0xfffd, sr));
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_after(0x0001, sr));
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_after(sr, sr));
	KUNIT_EXPECT_TRUE(test, smc_cdc_seq_after(0x0003, sr));
}

static struct kunit_case smcr_cdc_cases[] = {
	KUNIT_CASE(cdc_layout),
	KUNIT_CASE(cdc_build_golden),
	KUNIT_CASE(cdc_parse_golden),
	KUNIT_CASE(cdc_flag_bits),
	KUNIT_CASE(cdc_roundtrip),
	KUNIT_CASE(cdc_reserved_policy),
	KUNIT_CASE(cdc_reject_header),
	KUNIT_CASE(cdc_reject_cursors),
	KUNIT_CASE(cdc_failover_validation),
	KUNIT_CASE(cdc_seq_order),
	KUNIT_CASE(cdc_failover_gap),
	KUNIT_CASE(cdc_stale_after_failover),
	{}
};

static struct kunit_suite smcr_cdc_suite = {
	.name = "smcr_cdc",
	.test_cases = smcr_cdc_cases,
};

kunit_test_suite(smcr_cdc_suite);
