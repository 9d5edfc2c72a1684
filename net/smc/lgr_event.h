/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: what ends link groups from outside: a link down, RoCE
 * device removal and arrival, a port down or up, namespace exit, module
 * unload (lgr_event.c).
 */
#ifndef _SMCR_LGR_EVENT_H
#define _SMCR_LGR_EVENT_H

#include <linux/types.h>

struct net;
struct smc_ib_device;
struct work_struct;

void smc_lgr_event_link_down(struct work_struct *work);
void smc_lgr_event_dev_removed(struct smc_ib_device *sdev);
void smc_lgr_event_dev_added(void);
void smc_lgr_event_port_err(struct smc_ib_device *sdev, u32 port);
void smc_lgr_event_net_exit(struct net *net);
void smc_lgr_event_unload(void);

#endif /* _SMCR_LGR_EVENT_H */
