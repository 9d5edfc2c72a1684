/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: receiving, poll, urgent data reads (rx.c).
 */
#ifndef _SMCR_RX_H
#define _SMCR_RX_H

#include <linux/types.h>

struct msghdr;
struct smc_sock;

int smc_rx_recvmsg(struct smc_sock *smc, struct msghdr *msg, size_t len,
		   int flags);
__poll_t smc_rx_poll(struct smc_sock *smc);
int smc_rx_inq(struct smc_sock *smc);
int smc_rx_atmark(struct smc_sock *smc);

#endif /* _SMCR_RX_H */
