/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: a link group's life: allocation, references, termination,
 * the walk of the link groups (lgr.c).
 */
#ifndef _SMCR_LGR_H
#define _SMCR_LGR_H

#include "core.h"

struct smc_offer;

extern struct workqueue_struct *smc_lgr_wq;
int smc_lgr_net_link_get(struct net *net);
void smc_lgr_net_link_put(struct net *net);
struct smc_link_group *smc_lgr_new(struct net *net, bool server,
				   const struct smc_lgr_key *key,
				   const struct smc_offer *offer);
void smc_lgr_put(struct smc_link_group *lgr);

/* Another reference to @lgr, of a caller that holds one already */
static inline void smc_lgr_hold(struct smc_link_group *lgr)
{
	kref_get(&lgr->ref);
}

void smc_lgr_conn_put(struct smc_link_group *lgr);
void smc_lgr_terminate(struct smc_link_group *lgr, bool notify_peer,
		       const char *why);
void smc_lgr_retire(struct smc_link_group *lgr);
enum smc_lgr_state smc_lgr_transition(struct smc_link_group *lgr,
				      enum smc_lgr_event ev);

#ifdef SMCR_TEST_HOOKS
void smc_lgr_expire_idle(void);
#endif

int smc_lgr_walk(int (*fn)(struct smc_link_group *lgr, void *arg),
		 void *arg, u32 *gen);
int smc_lgr_init(void);
void smc_lgr_exit(void);

#endif /* _SMCR_LGR_H */
