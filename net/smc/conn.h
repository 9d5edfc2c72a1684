/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: a connection on a link group, from its setup to its end (conn.c).
 */
#ifndef _SMCR_CONN_H
#define _SMCR_CONN_H

#include <linux/types.h>

struct smc_clc_accept_info;
struct smc_conn;
struct smc_link;
struct smc_sock;

int smc_conn_create(struct smc_sock *smc, struct smc_link *lnk, bool first);
int smc_conn_peer(struct smc_sock *smc,
		  const struct smc_clc_accept_info *peer);
void smc_conn_fill_clc(const struct smc_sock *smc,
		       struct smc_clc_accept_info *info);
bool smc_conn_activate(struct smc_sock *smc, bool server);
bool smc_conn_rmbe_eyec(void);
void smc_conn_format(struct smc_conn *conn);
void smc_conn_rmbe_sync(struct smc_conn *conn, u32 off, u32 len);
bool smc_conn_rmbe_intact(struct smc_conn *conn);
void smc_conn_discard(struct smc_sock *smc);
void smc_conn_end(struct smc_sock *smc);

#endif /* _SMCR_CONN_H */
