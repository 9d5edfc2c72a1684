// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the test hooks as module parameters test_NAME, one row each. This
 * file is built only with SMCR_TEST_HOOKS=y (Kbuild); test_hooks.h says
 * what each hook does, where, and what it reads as in other builds.
 *
 * A value outside a row's range is refused with EINVAL and the old one
 * stays, as for the tunables. The ranges bound how long a test can stall a
 * worker: no hook can hold a link group's work for longer than the LLC
 * timeout's order of magnitude.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/stringify.h>
#include <linux/sysfs.h>
#include <smcr/clc.h>

#include "core.h"
#include "lgr.h"
#include "test_hooks.h"

struct smc_test_hooks smc_test_hooks;

/* SMC_TEST_BOOL(name, description): test_NAME, Y or N, default N */
#define SMC_TEST_BOOL(name_, desc)					\
	module_param_named(test_##name_, smc_test_hooks.name_, bool, 0644); \
	MODULE_PARM_DESC(test_##name_, "TEST ONLY: " desc " (default N)")

/**
 * struct smc_test_uint - an unsigned hook's range
 * @var: its member of smc_test_hooks
 * @max: the largest value accepted; 0 is the smallest, and the default
 */
struct smc_test_uint {
	unsigned int *var;
	unsigned int max;
};

static int smc_test_uint_set(const char *val, const struct kernel_param *kp)
{
	const struct smc_test_uint *h = kp->arg;
	struct kernel_param one = *kp;

	one.arg = h->var;
	return param_set_uint_minmax(val, &one, 0, h->max);
}

static int smc_test_uint_get(char *buf, const struct kernel_param *kp)
{
	const struct smc_test_uint *h = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(*h->var));
}

static const struct kernel_param_ops smc_test_uint_ops = {
	.set = smc_test_uint_set,
	.get = smc_test_uint_get,
};

/*
 * SMC_TEST_UINT(name, max, description): test_NAME, 0 to max (a decimal
 * literal, as the description spells it out), default 0
 */
#define SMC_TEST_UINT(name_, max_, desc)				\
	static struct smc_test_uint smc_test_##name_ = {		\
		.var = &smc_test_hooks.name_, .max = max_,		\
	};								\
	module_param_cb(test_##name_, &smc_test_uint_ops,		\
			&smc_test_##name_, 0644);			\
	MODULE_PARM_DESC(test_##name_, "TEST ONLY: " desc " (0-"	\
			 __stringify(max_) ", default 0)")

SMC_TEST_BOOL(fake_offer,
	      "offer a made-up RoCE device so CLC runs to Accept");
SMC_TEST_BOOL(clc_without_option,
	      "run CLC even if the peer's TCP handshake lacked the SMC option");
SMC_TEST_UINT(clc_version, 2,
	      "SMC-R versions offered and accepted: 0 both, 1 or 2 only that one");
static_assert(SMC_CLC_V2 == 2);
SMC_TEST_BOOL(ignore_test_link, "do not answer TEST LINK requests");
SMC_TEST_UINT(llc_work_delay_ms, 2000,
	      "the LLC work waits this long before each queued request of the peer, so that a flood meets the queue's bound, in ms");
SMC_TEST_UINT(add_link_hold_ms, 5000,
	      "the server's ADD LINK flow waits this long before its ADD LINK, so that the client's requests meet it, in ms");
SMC_TEST_UINT(add_link_fail_ms, 30000,
	      "a client's ADD LINK flow fails this long after its CONFIRM LINK reply went out, as if that send had failed, in ms (0: off)");
SMC_TEST_UINT(cdc_rx_delay_ms, 2000,
	      "hold every received CDC message this long between finding its connection and applying it, to widen races with the connection's end, in ms");
SMC_TEST_UINT(tx_hold_ms, 2000,
	      "hold each CDC message's send buffer this long before filling it, to widen races with the link's teardown, in ms");

/*
 * test_lgr_expire_idle: writing Y ends the linger of every idle link
 * group now (lgr.c), so that a selftest that needs no link group starts
 * without waiting out the earlier tests' lingers.
 */
static int smc_test_lgr_expire_idle_set(const char *val,
					const struct kernel_param *kp)
{
	bool now;
	int rc;

	rc = kstrtobool(val, &now);
	if (!rc && now)
		smc_lgr_expire_idle();
	return rc;
}

static const struct kernel_param_ops smc_test_lgr_expire_idle_ops = {
	.set	= smc_test_lgr_expire_idle_set,
};

module_param_cb(test_lgr_expire_idle, &smc_test_lgr_expire_idle_ops, NULL,
		0200);
MODULE_PARM_DESC(test_lgr_expire_idle,
		 "TEST ONLY: write Y to end the linger of every idle link group now");
