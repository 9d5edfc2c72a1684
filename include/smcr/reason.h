/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: names of fallback reasons (CLC Decline diagnosis codes).
 */
#ifndef _SMCR_REASON_H
#define _SMCR_REASON_H

#include <linux/types.h>

const char *smc_reason_name(u32 code);

#endif /* _SMCR_REASON_H */
