// SPDX-License-Identifier: GPL-2.0
/*
 * The pure-logic sources of smcr.ko, built into the KUnit module.
 */
#include "../net/smc/clc.c"
#include "../net/smc/clc_v2.c"
#include "../net/smc/reason.c"
#include "../net/smc/cursor.c"
#include "../net/smc/urg.c"
#include "../net/smc/cdc_msg.c"
#include "../net/smc/close_sm.c"
#include "../net/smc/llc_msg.c"
#include "../net/smc/llc_v2.c"
#include "../net/smc/qp_attr.c"
#include "../net/smc/rtoken.c"

#include <linux/module.h>

MODULE_DESCRIPTION("KUnit tests for smcr");
MODULE_LICENSE("GPL");
