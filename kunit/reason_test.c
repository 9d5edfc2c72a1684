// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for net/smc/reason.c: fallback reason names.
 */
#include <kunit/test.h>
#include <linux/smcr.h>
#include <smcr/reason.h>

static void reason_known(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, smc_reason_name(SMC_CLC_DECL_PEERNOSMC),
			   "peer did not offer SMC");
	KUNIT_EXPECT_STREQ(test, smc_reason_name(SMC_CLC_DECL_NOSMCRDEV),
			   "no usable RoCE device");
	KUNIT_EXPECT_STREQ(test, smc_reason_name(SMC_CLC_DECL_PEERDECL),
			   "peer sent a CLC Decline");
}

static void reason_none_and_unknown(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, smc_reason_name(0), "none");
	KUNIT_EXPECT_STREQ(test, smc_reason_name(0x03ffffff), "unknown");
	KUNIT_EXPECT_STREQ(test, smc_reason_name(0xffffffff), "unknown");
}

/* sub-codes are distinct reasons, not prefixes of their class */
static void reason_subcode_exact(struct kunit *test)
{
	KUNIT_EXPECT_STRNEQ(test, smc_reason_name(SMC_CLC_DECL_NOSMCDEV),
			    smc_reason_name(SMC_CLC_DECL_NOSMCRDEV));
	KUNIT_EXPECT_STREQ(test, smc_reason_name(SMC_CLC_DECL_NOSMCDEV + 1),
			   "unknown");
}

static struct kunit_case smcr_reason_cases[] = {
	KUNIT_CASE(reason_known),
	KUNIT_CASE(reason_none_and_unknown),
	KUNIT_CASE(reason_subcode_exact),
	{}
};

static struct kunit_suite smcr_reason_suite = {
	.name = "smcr_reason",
	.test_cases = smcr_reason_cases,
};

kunit_test_suite(smcr_reason_suite);
