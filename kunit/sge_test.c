// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for include/smcr/sge.h (suite smcr_sge): the bound that
 * every local SGE is checked against before a post.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <smcr/sge.h>

#define ST_BUF	0x10000ULL
#define ST_SIZE	4096ULL

static void sge_inside_buffer(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, smc_sge_inside(ST_BUF, ST_SIZE, ST_BUF, ST_SIZE));
	KUNIT_EXPECT_TRUE(test, smc_sge_inside(ST_BUF, 1, ST_BUF, ST_SIZE));
	KUNIT_EXPECT_TRUE(test, smc_sge_inside(ST_BUF + ST_SIZE - 1, 1,
					       ST_BUF, ST_SIZE));
	KUNIT_EXPECT_TRUE(test, smc_sge_inside(ST_BUF + 100, 200, ST_BUF,
					       ST_SIZE));
	/* empty, at the end: touches nothing */
	KUNIT_EXPECT_TRUE(test, smc_sge_inside(ST_BUF + ST_SIZE, 0, ST_BUF,
					       ST_SIZE));
}

static void sge_outside_buffer(struct kunit *test)
{
	/* one byte before, one byte past */
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(ST_BUF - 1, 1, ST_BUF, ST_SIZE));
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(ST_BUF + ST_SIZE, 1, ST_BUF,
						ST_SIZE));
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(ST_BUF + ST_SIZE - 1, 2,
						ST_BUF, ST_SIZE));
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(ST_BUF, ST_SIZE + 1, ST_BUF,
						ST_SIZE));
	/* straddling the start */
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(ST_BUF - 8, 16, ST_BUF, ST_SIZE));
	/* a 44-byte message slot one past the pool of 16 */
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(ST_BUF + 16 * 44, 44, ST_BUF,
						16 * 44));
	/* no buffer at all (a WR that must have no SGE) */
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(0, 1, 0, 0));
	/* empty, but not at or inside the buffer */
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(ST_BUF + ST_SIZE + 1, 0, ST_BUF,
						ST_SIZE));
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(ST_BUF - 1, 0, ST_BUF, ST_SIZE));
}

static void sge_no_wraparound(struct kunit *test)
{
	/* addr + len would wrap past 2^64 */
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(U64_MAX - 10, 100, ST_BUF,
						ST_SIZE));
	/* the largest length there is */
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(ST_BUF + 8, U32_MAX, ST_BUF,
						ST_SIZE));
	/* buf + size would wrap past 2^64: only the buffer's own bytes */
	KUNIT_EXPECT_TRUE(test, smc_sge_inside(U64_MAX - 15, 16, U64_MAX - 15,
					       16));
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(U64_MAX - 15, 17, U64_MAX - 15,
						16));
	KUNIT_EXPECT_FALSE(test, smc_sge_inside(5, 10, U64_MAX - 15, 32));
}

static struct kunit_case sge_cases[] = {
	KUNIT_CASE(sge_inside_buffer),
	KUNIT_CASE(sge_outside_buffer),
	KUNIT_CASE(sge_no_wraparound),
	{}
};

static struct kunit_suite sge_suite = {
	.name = "smcr_sge",
	.test_cases = sge_cases,
};

kunit_test_suite(sge_suite);
