/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: SO_KEEPALIVE of SMC-R connections (keepalive.c).
 */
#ifndef _SMCR_KEEPALIVE_H
#define _SMCR_KEEPALIVE_H

#include <linux/types.h>

struct smc_conn;
struct smc_sock;

void smc_keepalive_init(struct smc_conn *conn);
void smc_keepalive_start(struct smc_sock *smc);
void smc_keepalive_set(struct smc_sock *smc, bool on);
bool smc_keepalive_idle_get(struct smc_sock *smc, int *val);
void smc_keepalive_stop(struct smc_sock *smc);
void smc_keepalive_retime(struct smc_sock *smc);

#endif /* _SMCR_KEEPALIVE_H */
