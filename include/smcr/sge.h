/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the bound every local SGE of a work request is checked against
 * before it is posted (net/smc/wr.c).
 *
 * Pure, shared by smcr.ko and its KUnit tests.
 */
#ifndef _SMCR_SGE_H
#define _SMCR_SGE_H

#include <linux/types.h>

/**
 * smc_sge_inside() - does [@addr, @addr + @len) lie in [@buf, @buf + @size)?
 * @addr: first byte of the SGE
 * @len: its length
 * @buf: first byte of the buffer
 * @size: its size
 *
 * Written without sums that could wrap around 2^64.
 *
 * Return: true if it does (an empty SGE at or inside the buffer's end too).
 */
static inline bool smc_sge_inside(u64 addr, u32 len, u64 buf, u64 size)
{
	return addr >= buf && len <= size && addr - buf <= size - len;
}

#endif /* _SMCR_SGE_H */
