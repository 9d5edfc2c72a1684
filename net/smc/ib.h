/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: RoCE device tracking and port choice (ib.c).
 */
#ifndef _SMCR_IB_H
#define _SMCR_IB_H

#include <linux/if_ether.h>
#include <linux/list.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

#define SMC_IB_MAX_PORTS	BITS_PER_LONG
#define SMC_IB_GID_LEN		16

/**
 * struct smc_ib_device - an RDMA device with RoCE ports
 * @list: entry on the device list (smc_ib_lock) until the device goes
 * @ibdev: the device
 * @event_handler: receives the device's port events
 * @ports_active: bit (port - 1) set while the port is ACTIVE (atomic)
 * @ports_err: bit (port - 1) set by a port error (or a fatal device
 *	error, every port) until @port_work took that port's links down
 *	(atomic)
 * @ports_up: bit (port - 1) set when the port became ACTIVE, until
 *	@port_work offered the link groups a link again (atomic)
 * @port_work: acts on @ports_err and @ports_up in process context: the
 *	IB event handler may run in atomic context. Queued only while the
 *	event handler is registered, cancelled by the device's removal
 *	before @ibdev and the entry go (ib.c)
 * @max_links: links the device has room for (each a QP, two CQs and a
 *	PD, struct smc_link)
 * @users: links (and their setup) using the device; under smc_ib_lock
 * @links: those links (smc_link.ib_node), each from its smc_ib_get() to its
 *	smc_ib_put(), for the per-namespace counts of the netlink dump;
 *	under smc_ib_lock. No reference: a link is torn down (and leaves
 *	the list) before its link group is freed
 * @users_gone: woken when @users drops to 0
 *
 * Protection domains and completion queues are per link (struct
 * smc_link), not per device: no link group shares a PD or CQ with another,
 * so none is reached through another's rkeys or crowded out of a shared
 * CQ. The device's own QP, CQ and PD limits stay shared (also with other
 * RDMA users); max_links_per_netns (lgr.c) bounds one namespace's share.
 */
struct smc_ib_device {
	struct list_head	list;
	struct ib_device	*ibdev;
	struct ib_event_handler	event_handler;
	unsigned long		ports_active;
	unsigned long		ports_err;
	unsigned long		ports_up;
	struct work_struct	port_work;
	u32			max_links;
	u32			users;
	struct list_head	links;
	wait_queue_head_t	users_gone;
};

/**
 * struct smc_ib_pick - the RoCE port and GID chosen for a connection
 * @sdev: the device (no reference: smc_ib_get() takes one if it still
 *	exists)
 * @port: its port number
 * @gid_index: index of @gid in the port's GID table
 * @roce_v2: @gid is a RoCE v2 (UDP-encapsulated) GID
 * @gid: the GID
 * @mac: MAC of the interface the port serves
 * @mtu: active MTU of the port (enum ib_mtu)
 * @ifindex: the interface the port serves
 */
struct smc_ib_pick {
	struct smc_ib_device	*sdev;
	u32			port;
	u32			gid_index;
	bool			roce_v2;
	u8			gid[SMC_IB_GID_LEN];
	u8			mac[ETH_ALEN];
	u8			mtu;
	int			ifindex;
};

/**
 * struct smc_ib_route - how a RoCE v2 port reaches an SMC-R v2 peer's GID
 * @direct: without a router: the peer's address is on our link
 * @nexthop_mac: if not @direct, the MAC of the router the frames go to
 */
struct smc_ib_route {
	bool	direct;
	u8	nexthop_mac[ETH_ALEN];
};

extern struct ib_client smc_ib_client;

struct smc_link;

int smc_ib_find_port(struct net_device *ndev, const u8 gid[SMC_IB_GID_LEN],
		     struct smc_ib_pick *pick);
int smc_ib_v2_route(struct net *net, const struct smc_ib_pick *pick,
		    const u8 *peer_gid, struct smc_ib_route *route);
bool smc_ib_pick_reaches(struct net *net, const struct smc_ib_pick *pick,
			 const u8 *peer_gid);
int smc_ib_find_alt_port(struct net *net, struct smc_ib_device *skip_dev,
			 u32 skip_port, bool roce_v2,
			 const u8 peer[SMC_IB_GID_LEN],
			 struct smc_ib_pick *pick);
int smc_ib_get(struct smc_ib_device *sdev, struct smc_link *lnk);
void smc_ib_put(struct smc_ib_device *sdev, struct smc_link *lnk);
bool smc_ib_listed(struct smc_ib_device *sdev);
void smc_ib_walk_devices(long *pos, void *arg,
			 int (*fn)(struct smc_ib_device *sdev, void *arg));
struct smc_nl_dev;
int smc_ib_nl_dev(struct net *net, long idx, struct smc_nl_dev *out,
		  u32 *gen);
int smc_ib_init(void);
void smc_ib_exit(void);

#endif /* _SMCR_IB_H */
