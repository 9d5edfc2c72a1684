/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: a connection's end, run by close_sm.c's table (close.c).
 */
#ifndef _SMCR_CLOSE_H
#define _SMCR_CLOSE_H

#include <linux/types.h>
#include <smcr/close_sm.h>

struct smc_conn;
struct smc_link_group;
struct smc_sock;
struct work_struct;

u16 smc_close_feed(struct smc_conn *conn, enum smc_close_event event);
u16 smc_close_feed_later(struct smc_conn *conn, enum smc_close_event event);
bool smc_close_atomic(struct smc_sock *smc, u16 actions);
void smc_close_todo(struct smc_sock *smc);
void smc_close_abort(struct smc_sock *smc);
void smc_close_rmbe_conflict(struct smc_sock *smc);
int smc_close_diag_state(const struct smc_conn *conn);
void smc_close_release(struct smc_sock *smc);
int smc_close_shutdown(struct smc_sock *smc, int how);
void smc_close_timeout(struct work_struct *work);
void smc_close_lgr_gone(struct smc_link_group *lgr);
void smc_close_tcp_error(struct smc_sock *smc);

#endif /* _SMCR_CLOSE_H */
