/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the LLC engine: a link's LLC messages and the flows built
 * from them (llc.c). Not llc.h, so that it is not taken for <smcr/llc.h>,
 * the pure LLC definitions.
 */
#ifndef _SMCR_LLC_ENGINE_H
#define _SMCR_LLC_ENGINE_H

#include <linux/types.h>
#include <smcr/llc.h>

struct smc_conn;
struct smc_link;
struct smc_link_group;
struct smc_llc_waiter;
struct work_struct;

void smc_llc_rx(struct smc_link *lnk, const void *msg, size_t len);
int smc_llc_send(struct smc_link *lnk, const struct smc_llc_msg_info *info,
		 bool wait);
int smc_llc_expect(struct smc_link_group *lgr, struct smc_llc_waiter *w);
void smc_llc_cancel(struct smc_link_group *lgr, struct smc_llc_waiter *w);
int smc_llc_wait(struct smc_link *lnk, struct smc_llc_waiter *w,
		 bool (*abort)(void *arg), void *arg);
int smc_llc_confirm_link_request(struct smc_link *lnk);
int smc_llc_confirm_link_server(struct smc_link *lnk);
void smc_llc_confirm_link_fill(const struct smc_link *lnk,
			       struct smc_llc_msg_info *info, bool response);
int smc_llc_confirm_link_check(struct smc_link *lnk,
			       const struct smc_llc_confirm_link_info *cl);
int smc_llc_activate_link(struct smc_link *lnk);
int smc_llc_confirm_link_client(struct smc_link *lnk,
				struct smc_llc_waiter *w, struct smc_conn *conn,
				bool (*abort)(void *arg), void *arg);
void smc_llc_work(struct work_struct *work);
void smc_llc_keepalive(struct work_struct *work);
void smc_llc_keepalive_start(struct smc_link *lnk);
void smc_llc_test_link(struct smc_link *lnk);
void smc_llc_purge(struct smc_link_group *lgr);
void smc_llc_flow_start(struct smc_link_group *lgr, enum smc_llc_flow flow);
void smc_llc_flow_join(struct smc_link_group *lgr, enum smc_llc_flow flow);
void smc_llc_flow_end(struct smc_link_group *lgr);

#endif /* _SMCR_LLC_ENGINE_H */
