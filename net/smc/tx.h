/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: sending: copy, RDMA write, CDC, flow control (tx.c).
 */
#ifndef _SMCR_TX_H
#define _SMCR_TX_H

#include <linux/types.h>

struct msghdr;
struct smc_conn;
struct smc_sock;
struct work_struct;

int smc_tx_sendmsg(struct smc_sock *smc, struct msghdr *msg, size_t len);
int smc_tx_push(struct smc_sock *smc, bool urg_last);
int smc_tx_failover(struct smc_sock *smc);
void smc_tx_discard(struct smc_conn *conn);
int smc_tx_outq(struct smc_sock *smc);
int smc_tx_unsent(struct smc_conn *conn);
void smc_tx_work(struct work_struct *work);
int smc_tx_space(struct smc_conn *conn);

#endif /* _SMCR_TX_H */
