/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: test hooks - knobs the selftests turn to reach, on purpose, states
 * that a peer or a race reaches only by chance: an offer without a RoCE
 * port, CLC without the TCP option, a silent link, held sends and receives,
 * failed or delayed LLC flows, one SMC-R version.
 *
 * They exist only in builds made with SMCR_TEST_HOOKS=y (make check's,
 * make soak's and make fuzz's). There test_hooks.c makes each a module
 * parameter test_NAME. In every other build, the one DKMS and a plain
 * make do, smc_test(NAME) is a constant 0, the code it guards compiles
 * away, and modinfo lists no test_* parameter.
 */
#ifndef _SMCR_TEST_HOOKS_H
#define _SMCR_TEST_HOOKS_H

#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/types.h>

/**
 * struct smc_test_hooks - the hooks' values; module parameter test_NAME
 *	for member NAME, 0 (off) unless a test sets it
 * @fake_offer: offer a made-up RoCE device, so CLC runs to the Accept
 *	(offer.c)
 * @clc_without_option: run CLC even if the peer's TCP handshake lacked
 *	the SMC option (handshake.c)
 * @clc_version: the SMC-R versions offered and accepted: 0 both, 1 or 2
 *	only that one (hs_v2.c)
 * @ignore_test_link: do not answer TEST LINK requests (llc.c)
 * @llc_work_delay_ms: the LLC work waits this long before each queued
 *	request of the peer (llc.c)
 * @add_link_hold_ms: the server's ADD LINK flow waits this long before its
 *	ADD LINK (llc_link.c)
 * @add_link_fail_ms: a client's ADD LINK flow fails this long after its
 *	CONFIRM LINK reply went out (llc_link.c)
 * @cdc_rx_delay_ms: hold each received CDC message this long between
 *	finding its connection and applying it (cdc.c)
 * @tx_hold_ms: hold each CDC message's send buffer this long before
 *	filling it (cdc.c)
 *
 * Each is one word, written by its parameter's setter (within the range
 * test_hooks.c gives it) and read with smc_test(), so a reader sees the
 * old value or the new one. test_lgr_expire_idle, an action rather than a
 * value, has no member: writing Y calls smc_lgr_expire_idle().
 */
struct smc_test_hooks {
	bool		fake_offer;
	bool		clc_without_option;
	unsigned int	clc_version;
	bool		ignore_test_link;
	unsigned int	llc_work_delay_ms;
	unsigned int	add_link_hold_ms;
	unsigned int	add_link_fail_ms;
	unsigned int	cdc_rx_delay_ms;
	unsigned int	tx_hold_ms;
};

#ifdef SMCR_TEST_HOOKS
extern struct smc_test_hooks smc_test_hooks;
#define smc_test(name)	READ_ONCE(smc_test_hooks.name)
#else
#define smc_test(name)	((typeof_member(struct smc_test_hooks, name))0)
#endif

#endif /* _SMCR_TEST_HOOKS_H */
