// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: RoCE devices (RFC 7609, 2.1 and 3.3).
 *
 * An ib_client keeps the list of RDMA devices with RoCE ports, whenever
 * they come and go (rdma link add/del, driver load/unload). Port state
 * follows the devices' IB events.
 *
 * Choosing a port for a connection: the port must carry the interface the
 * TCP connection leaves through, with a GID for the connection's local IP
 * address on that interface. A RoCE v1 GID is preferred where the device
 * has one; Soft-RoCE (rdma_rxe) has only RoCE v2 GIDs (IPv4-mapped or
 * IPv6), which work as well.
 *
 * Locking: smc_ib_lock (a mutex) protects smc_ib_devices and each device's
 * list membership; port state bits are atomic.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "ib.h"

static LIST_HEAD(smc_ib_devices);
static DEFINE_MUTEX(smc_ib_lock);

static void smc_ib_port_update(struct smc_ib_device *sdev, u32 port)
{
	struct ib_port_attr attr;

	if (port > SMC_IB_MAX_PORTS)
		return;
	if (!ib_query_port(sdev->ibdev, port, &attr) &&
	    attr.state == IB_PORT_ACTIVE)
		set_bit(port - 1, &sdev->ports_active);
	else
		clear_bit(port - 1, &sdev->ports_active);
}

static void smc_ib_event(struct ib_event_handler *handler,
			 struct ib_event *event)
{
	struct smc_ib_device *sdev = container_of(handler,
						  struct smc_ib_device,
						  event_handler);
	u32 port = event->element.port_num;

	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
		if (port && port <= SMC_IB_MAX_PORTS)
			set_bit(port - 1, &sdev->ports_active);
		break;
	case IB_EVENT_PORT_ERR:
		if (port && port <= SMC_IB_MAX_PORTS)
			clear_bit(port - 1, &sdev->ports_active);
		break;
	case IB_EVENT_DEVICE_FATAL:
		sdev->ports_active = 0;
		break;
	default:
		break;
	}
}

static bool smc_ib_has_roce(struct ib_device *ibdev)
{
	u32 port;

	rdma_for_each_port(ibdev, port)
		if (rdma_protocol_roce(ibdev, port))
			return true;
	return false;
}

static int smc_ib_add(struct ib_device *ibdev)
{
	struct smc_ib_device *sdev;
	u32 port;

	if (!smc_ib_has_roce(ibdev))
		return -EOPNOTSUPP;
	sdev = kzalloc(sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return -ENOMEM;
	sdev->ibdev = ibdev;
	rdma_for_each_port(ibdev, port)
		smc_ib_port_update(sdev, port);
	INIT_IB_EVENT_HANDLER(&sdev->event_handler, ibdev, smc_ib_event);
	ib_register_event_handler(&sdev->event_handler);
	ib_set_client_data(ibdev, &smc_ib_client, sdev);

	mutex_lock(&smc_ib_lock);
	list_add_tail(&sdev->list, &smc_ib_devices);
	mutex_unlock(&smc_ib_lock);
	pr_info("RoCE device %s added\n", dev_name(&ibdev->dev));
	return 0;
}

static void smc_ib_remove(struct ib_device *ibdev, void *client_data)
{
	struct smc_ib_device *sdev = client_data;

	mutex_lock(&smc_ib_lock);
	list_del(&sdev->list);
	mutex_unlock(&smc_ib_lock);
	ib_unregister_event_handler(&sdev->event_handler);
	pr_info("RoCE device %s removed\n", dev_name(&ibdev->dev));
	kfree(sdev);
}

struct ib_client smc_ib_client = {
	.name	= "smcr",
	.add	= smc_ib_add,
	.remove	= smc_ib_remove,
};

/* A GID of @type for @gid on @port that belongs to @ndev, or NULL. */
static const struct ib_gid_attr *smc_ib_gid(struct smc_ib_device *sdev,
					    u32 port, const union ib_gid *gid,
					    enum ib_gid_type type,
					    struct net_device *ndev)
{
	const struct ib_gid_attr *attr;

	attr = rdma_find_gid_by_port(sdev->ibdev, gid, type, port, ndev);
	return IS_ERR(attr) ? NULL : attr;
}

/**
 * smc_ib_find_port() - choose a RoCE port for a connection
 * @ndev: the interface the TCP connection leaves through
 * @gid: the connection's local IP address as a GID (IPv6 or IPv4-mapped)
 * @pick: filled with the choice on success
 *
 * Return: 0, or -ENODEV if no active RoCE port serves @ndev and @gid.
 */
int smc_ib_find_port(struct net_device *ndev, const u8 gid[SMC_IB_GID_LEN],
		     struct smc_ib_pick *pick)
{
	static const enum ib_gid_type types[] = {
		IB_GID_TYPE_ROCE, IB_GID_TYPE_ROCE_UDP_ENCAP,
	};
	const struct ib_gid_attr *attr = NULL;
	struct smc_ib_device *sdev;
	union ib_gid want;
	size_t t;
	u32 port;

	memcpy(want.raw, gid, SMC_IB_GID_LEN);
	mutex_lock(&smc_ib_lock);
	for (t = 0; t < ARRAY_SIZE(types) && !attr; t++) {
		list_for_each_entry(sdev, &smc_ib_devices, list) {
			rdma_for_each_port(sdev->ibdev, port) {
				if (port > SMC_IB_MAX_PORTS ||
				    !test_bit(port - 1, &sdev->ports_active) ||
				    !rdma_protocol_roce(sdev->ibdev, port))
					continue;
				attr = smc_ib_gid(sdev, port, &want, types[t],
						  ndev);
				if (attr)
					break;
			}
			if (attr)
				break;
		}
	}
	if (attr) {
		pick->ibdev = sdev->ibdev;
		pick->port = port;
		pick->gid_index = attr->index;
		pick->roce_v2 = attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP;
		memcpy(pick->gid, attr->gid.raw, SMC_IB_GID_LEN);
		memcpy(pick->mac, ndev->dev_addr, ETH_ALEN);
		rdma_put_gid_attr(attr);
	}
	mutex_unlock(&smc_ib_lock);
	return attr ? 0 : -ENODEV;
}

/**
 * smc_ib_walk_devices() - call @fn for each RoCE device, resumably
 * @pos: in: devices to skip; out: devices visited
 * @arg: passed to @fn
 * @fn: called under smc_ib_lock (may sleep; must not take smc_ib_lock);
 *	a negative return stops the walk before that device
 */
void smc_ib_walk_devices(long *pos, void *arg,
			 int (*fn)(struct smc_ib_device *sdev, void *arg))
{
	struct smc_ib_device *sdev;
	long i = 0;

	mutex_lock(&smc_ib_lock);
	list_for_each_entry(sdev, &smc_ib_devices, list) {
		if (i >= *pos && fn(sdev, arg) < 0)
			break;
		i++;
	}
	mutex_unlock(&smc_ib_lock);
	*pos = i;
}

/**
 * smc_ib_init() - start tracking RoCE devices
 *
 * Return: 0 or a negative errno.
 */
int smc_ib_init(void)
{
	return ib_register_client(&smc_ib_client);
}

/**
 * smc_ib_exit() - stop tracking RoCE devices; frees every device entry
 */
void smc_ib_exit(void)
{
	ib_unregister_client(&smc_ib_client);
}
