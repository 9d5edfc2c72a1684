/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the link group a new connection uses (contact.c).
 */
#ifndef _SMCR_CONTACT_H
#define _SMCR_CONTACT_H

#include <linux/types.h>

struct net;
struct smc_lgr_key;
struct smc_link_group;
struct smc_offer;

struct smc_link_group *smc_contact_find(struct net *net, bool server,
					const struct smc_lgr_key *key);
struct smc_link_group *smc_contact_get(struct net *net, bool server,
				       const struct smc_lgr_key *key,
				       const struct smc_offer *offer,
				       bool *first);
struct smc_link_group *smc_contact_create(struct net *net, bool server,
					  const struct smc_lgr_key *key,
					  const struct smc_offer *offer);
bool smc_contact_known(struct net *net, bool server,
		       const struct smc_lgr_key *key);
void smc_contact_first_done(struct smc_link_group *lgr);

#endif /* _SMCR_CONTACT_H */
