/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: a connection's CDC messages (cdc.c).
 */
#ifndef _SMCR_CDC_H
#define _SMCR_CDC_H

#include <linux/types.h>

struct smc_cdc_sent;
struct smc_conn;
struct smc_link;
struct smc_sock;
struct sock;
struct work_struct;

int smc_cdc_send(struct smc_sock *smc, u8 conn_flags);
int smc_cdc_get_buf(struct smc_sock *smc, void **buf);
void smc_cdc_put_buf(struct smc_sock *smc, void *buf);
int smc_cdc_send_buf(struct smc_sock *smc, void *buf, u8 conn_flags);
int smc_cdc_send_again(struct smc_sock *smc, void *buf);
int smc_cdc_send_failover(struct smc_sock *smc);
int smc_cdc_send_held(struct smc_sock *smc);
bool smc_cdc_tx_settled(const struct smc_conn *conn);
void smc_cdc_tx_done(struct smc_link *lnk, const struct smc_cdc_sent *sent,
		     bool ok);
void smc_cdc_upd_work(struct work_struct *work);
void smc_cdc_upd_queue(struct smc_sock *smc);
void smc_cdc_wake(struct sock *sk);
void smc_cdc_rx(struct smc_link *lnk, const void *msg, size_t len);

#endif /* _SMCR_CDC_H */
