/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: RoCE device tracking and port choice (ib.c).
 */
#ifndef _SMCR_IB_H
#define _SMCR_IB_H

#include <linux/if_ether.h>
#include <linux/list.h>
#include <rdma/ib_verbs.h>

#define SMC_IB_MAX_PORTS	BITS_PER_LONG
#define SMC_IB_GID_LEN		16

/**
 * struct smc_ib_device - an RDMA device with RoCE ports
 * @list: entry on the device list (smc_ib_lock)
 * @ibdev: the device
 * @event_handler: receives the device's port events
 * @ports_active: bit (port - 1) set while the port is ACTIVE (atomic)
 */
struct smc_ib_device {
	struct list_head	list;
	struct ib_device	*ibdev;
	struct ib_event_handler	event_handler;
	unsigned long		ports_active;
};

/**
 * struct smc_ib_pick - the RoCE port and GID chosen for a connection
 * @ibdev: the device (no reference is held)
 * @port: its port number
 * @gid_index: index of @gid in the port's GID table
 * @roce_v2: @gid is a RoCE v2 (UDP-encapsulated) GID
 * @gid: the GID
 * @mac: MAC of the interface the port serves
 */
struct smc_ib_pick {
	struct ib_device	*ibdev;
	u32			port;
	u32			gid_index;
	bool			roce_v2;
	u8			gid[SMC_IB_GID_LEN];
	u8			mac[ETH_ALEN];
};

extern struct ib_client smc_ib_client;

int smc_ib_find_port(struct net_device *ndev, const u8 gid[SMC_IB_GID_LEN],
		     struct smc_ib_pick *pick);
void smc_ib_walk_devices(long *pos, void *arg,
			 int (*fn)(struct smc_ib_device *sdev, void *arg));
int smc_ib_init(void);
void smc_ib_exit(void);

#endif /* _SMCR_IB_H */
