// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for net/smc/clc.c: CLC encoding and validation.
 *
 * Golden vectors are written by hand from RFC 7609, Appendix A.2.5,
 * Figure 30, not produced by the code under test.
 */
#include <kunit/test.h>
#include <linux/smcr.h>
#include <smcr/clc.h>

static const u8 test_peer_id[SMC_PEER_ID_LEN] = {
	0x12, 0x34,				/* instance ID */
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc,	/* RoCE MAC */
};

/* Figure 30: v1 Decline, diagnosis NOSMCRDEV, S-bit clear */
static const u8 golden_decline_v1[28] = {
	0xE2, 0xD4, 0xC3, 0xD9,		/* eye catcher "SMCR" */
	0x04,				/* type 4: Decline */
	0x00, 0x1C,			/* length 28 */
	0x10,				/* version 1, S = 0 */
	0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, /* peer ID */
	0x03, 0x03, 0x00, 0x02,		/* peer diagnosis */
	0x00, 0x00, 0x00, 0x00,		/* reserved */
	0xE2, 0xD4, 0xC3, 0xD9,		/* trailer eye catcher */
};

/* Linux's version 2 Decline: 44 bytes, four more diagnosis words */
static const u8 golden_decline_v2[44] = {
	0xE2, 0xD4, 0xC3, 0xD9, 0x04, 0x00, 0x2C, 0x20,
	0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc,
	0x03, 0x01, 0x00, 0x00,		/* PEERNOSMC */
	0x10, 0x00, 0x00, 0x00,		/* os type Linux, reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xE2, 0xD4, 0xC3, 0xD9,
};

static void clc_decline_build_golden(struct kunit *test)
{
	struct smc_clc_decline dcl;
	size_t len;

	len = smc_clc_decline_build(&dcl, test_peer_id,
				    SMC_CLC_DECL_NOSMCRDEV, false);
	KUNIT_ASSERT_EQ(test, len, sizeof(golden_decline_v1));
	KUNIT_EXPECT_MEMEQ(test, &dcl, golden_decline_v1, len);
}

static void clc_decline_sync_bit(struct kunit *test)
{
	struct smc_clc_decline_info info;
	struct smc_clc_decline dcl;
	size_t len;

	len = smc_clc_decline_build(&dcl, test_peer_id, SMC_CLC_DECL_SYNCERR,
				    true);
	KUNIT_EXPECT_EQ(test, ((u8 *)&dcl)[7], 0x18);
	KUNIT_ASSERT_EQ(test, smc_clc_decline_parse(&dcl, len, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.out_of_sync);
	KUNIT_EXPECT_EQ(test, info.diagnosis, (u32)SMC_CLC_DECL_SYNCERR);
}

static void clc_decline_parse_golden_v1(struct kunit *test)
{
	struct smc_clc_decline_info info;

	KUNIT_ASSERT_EQ(test, smc_clc_decline_parse(golden_decline_v1,
						    sizeof(golden_decline_v1),
						    &info), 0);
	KUNIT_EXPECT_EQ(test, info.diagnosis, (u32)SMC_CLC_DECL_NOSMCRDEV);
	KUNIT_EXPECT_EQ(test, info.version, 1);
	KUNIT_EXPECT_FALSE(test, info.out_of_sync);
	KUNIT_EXPECT_MEMEQ(test, info.peer_id, test_peer_id, SMC_PEER_ID_LEN);
}

static void clc_decline_parse_golden_v2(struct kunit *test)
{
	struct smc_clc_decline_info info;

	KUNIT_ASSERT_EQ(test, smc_clc_decline_parse(golden_decline_v2,
						    sizeof(golden_decline_v2),
						    &info), 0);
	KUNIT_EXPECT_EQ(test, info.diagnosis, (u32)SMC_CLC_DECL_PEERNOSMC);
	KUNIT_EXPECT_EQ(test, info.version, 2);
}

static void clc_hdr_bad_eyecatcher(struct kunit *test)
{
	u8 msg[28];
	int i;

	for (i = 0; i < SMC_EYECATCHER_LEN; i++) {
		memcpy(msg, golden_decline_v1, sizeof(msg));
		msg[i] ^= 0x01;
		KUNIT_EXPECT_EQ(test, smc_clc_hdr_check((void *)msg), -EPROTO);
	}
	/* "SMCD" (SMC-D eye catcher) is not accepted for SMC-R */
	memcpy(msg, golden_decline_v1, sizeof(msg));
	msg[3] = 0xC4;
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check((void *)msg), -EPROTO);
}

static void clc_hdr_bad_type(struct kunit *test)
{
	static const u8 bad[] = { 0x00, 0x05, 0x7f, 0xff };
	u8 msg[28];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(msg, golden_decline_v1, sizeof(msg));
		msg[4] = bad[i];
		KUNIT_EXPECT_EQ(test, smc_clc_hdr_check((void *)msg), -EPROTO);
	}
}

static void clc_hdr_version_zero(struct kunit *test)
{
	u8 msg[28];

	memcpy(msg, golden_decline_v1, sizeof(msg));
	msg[7] = 0x00;
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check((void *)msg), -EPROTO);
}

static void clc_hdr_length_bounds(struct kunit *test)
{
	struct smc_clc_hdr hdr;

	memcpy(&hdr, golden_decline_v1, sizeof(hdr));
	hdr.type = SMC_CLC_PROPOSAL;
	hdr.length = cpu_to_be16(SMC_CLC_MIN_LEN - 1);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), -EPROTO);
	hdr.length = cpu_to_be16(SMC_CLC_MIN_LEN);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), 0);
	hdr.length = cpu_to_be16(SMC_CLC_MAX_LEN);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), 0);
	hdr.length = cpu_to_be16(SMC_CLC_MAX_LEN + 1);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), -EPROTO);
	hdr.length = cpu_to_be16(0xffff);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), -EPROTO);
}

static void clc_decline_bad_length(struct kunit *test)
{
	static const u16 bad[] = { 12, 27, 29, 43, 45, 100 };
	struct smc_clc_hdr hdr;
	size_t i;

	memcpy(&hdr, golden_decline_v1, sizeof(hdr));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		hdr.length = cpu_to_be16(bad[i]);
		KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), -EPROTO);
	}
}

static void clc_decline_bad_trailer(struct kunit *test)
{
	struct smc_clc_decline_info info;
	u8 msg[28];

	memcpy(msg, golden_decline_v1, sizeof(msg));
	msg[27] = 0x00;
	KUNIT_EXPECT_EQ(test, smc_clc_trailer_check(msg, sizeof(msg)), -EPROTO);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_parse(msg, sizeof(msg), &info),
			-EPROTO);
}

static void clc_decline_parse_len_mismatch(struct kunit *test)
{
	struct smc_clc_decline_info info;
	u8 msg[44];

	/* a valid v1 Decline inside a longer buffer is not a 44-byte one */
	memset(msg, 0, sizeof(msg));
	memcpy(msg, golden_decline_v1, sizeof(golden_decline_v1));
	KUNIT_EXPECT_EQ(test, smc_clc_decline_parse(msg, sizeof(msg), &info),
			-EPROTO);
	/* and a short buffer is refused before any field is read */
	KUNIT_EXPECT_EQ(test, smc_clc_decline_parse(msg, 27, &info), -EPROTO);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_parse(msg, 0, &info), -EPROTO);
}

static void clc_decline_parse_wrong_type(struct kunit *test)
{
	struct smc_clc_decline_info info;
	u8 msg[28];

	memcpy(msg, golden_decline_v1, sizeof(msg));
	msg[4] = SMC_CLC_PROPOSAL;
	KUNIT_EXPECT_EQ(test, smc_clc_decline_parse(msg, sizeof(msg), &info),
			-EPROTO);
}

static void clc_trailer_short(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, smc_clc_trailer_check(golden_decline_v1, 11),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, smc_clc_trailer_check(golden_decline_v1, 28), 0);
}

static struct kunit_case smcr_clc_cases[] = {
	KUNIT_CASE(clc_decline_build_golden),
	KUNIT_CASE(clc_decline_sync_bit),
	KUNIT_CASE(clc_decline_parse_golden_v1),
	KUNIT_CASE(clc_decline_parse_golden_v2),
	KUNIT_CASE(clc_hdr_bad_eyecatcher),
	KUNIT_CASE(clc_hdr_bad_type),
	KUNIT_CASE(clc_hdr_version_zero),
	KUNIT_CASE(clc_hdr_length_bounds),
	KUNIT_CASE(clc_decline_bad_length),
	KUNIT_CASE(clc_decline_bad_trailer),
	KUNIT_CASE(clc_decline_parse_len_mismatch),
	KUNIT_CASE(clc_decline_parse_wrong_type),
	KUNIT_CASE(clc_trailer_short),
	{}
};

static struct kunit_suite smcr_clc_suite = {
	.name = "smcr_clc",
	.test_cases = smcr_clc_cases,
};

kunit_test_suite(smcr_clc_suite);
