// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: RoCE devices (RFC 7609, 2.1 and 3.3).
 *
 * An ib_client keeps the list of RDMA devices with RoCE ports, whenever
 * they come and go (rdma link add/del, driver load/unload). Port state
 * follows the devices' IB events.
 *
 * A port that goes down (IB_EVENT_PORT_ERR; IB_EVENT_DEVICE_FATAL for
 * every port) takes its links down at once: the event handler queues the
 * device's port work, which takes every ACTIVATING or ACTIVE link on the
 * port down as a lost path (smc_lgr_event_port_err(), RFC 7609 2.3 and
 * 4.8.3). A port that comes up (IB_EVENT_PORT_ACTIVE) lets the link
 * groups add a link again, as a device that comes does. Soft-RoCE raises
 * both with its net device: PORT_ERR on NETDEV_DOWN (`ip link set down`),
 * PORT_ACTIVE on NETDEV_UP, and either on a carrier change. So a link
 * whose own port goes down is noticed within the event's scheduling
 * latency (milliseconds), busy or idle. A path lost elsewhere - the
 * peer's port, a switch, a cable, which the port does not see - is still
 * noticed only by a work request error (a busy link: the QP's retries
 * run out) or by an unanswered TEST LINK (an idle link: keepalive_ms of
 * silence plus llc_timeout_ms, about 35 s by default). A link set up
 * with a port picked just before the port went down is not in the walk
 * yet; those same two catch it.
 *
 * Choosing a port for a connection: the port must carry the interface the
 * TCP connection leaves through, with a GID for the connection's local IP
 * address on that interface. A RoCE v1 GID is preferred where the device
 * has one; Soft-RoCE (rdma_rxe) has only RoCE v2 GIDs (IPv4-mapped or
 * IPv6), which work as well.
 *
 * A link has its own PD, QP and CQs on the device (struct smc_link); the
 * device only counts its links against what it has room for. A link takes
 * a user reference with smc_ib_get(), which also puts it on the device's
 * list of links; removal first takes the device off the list (no new
 * links), terminates the link groups on it and waits for the last user
 * before it lets the device go.
 *
 * The netlink device dump (unprivileged, from any namespace) reports each
 * port's links of the caller's namespace only: the links of other
 * namespaces - how many peers they talk to - are theirs; and a port's net
 * device index only to its net device's namespace. It counts the
 * device's list, which holds a link from its smc_ib_get() to the end
 * of its teardown, also after its link group left the link group list:
 * a test waiting for the links of its own namespace to be gone (034)
 * reads it. A link whose teardown timed out leaves the list but stays
 * counted against its namespace's quota (lgr.c). What remains visible
 * across namespaces: whether a device has room for another link (-EBUSY
 * on a first contact), which only per-namespace device quotas would hide.
 *
 * Locking: smc_ib_lock (a mutex) protects smc_ib_devices, each device's
 * list membership, users and links; port state bits are atomic, and so
 * are the port work's pending bits (set by the event handler, taken with
 * xchg() by the work). The port work runs on system_unbound_wq, not
 * smcr_lgr (the module's exit destroys that before the devices go), and
 * holds no lock of its own: it walks the link groups under smc_lgr_mutex
 * (lgr_event.c). The work lives in the device entry: it is queued only
 * while the event handler is registered, and the removal unregisters the
 * handler, then cancels the work, before it frees the entry.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <net/neighbour.h>
#include <net/route.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "core.h"
#include "ib.h"
#include "lgr_event.h"
#include "netlink.h"

static LIST_HEAD(smc_ib_devices);
static DEFINE_MUTEX(smc_ib_lock);
static u32 smc_ib_gen;		/* changes with smc_ib_devices */

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

/*
 * Process context, queued by smc_ib_event(): a port that went down takes
 * its links down, a port that came up may give the link groups a link
 * again. Errors first: after a quick down and up, the links of the old
 * port state go and then the link groups may add one on the new.
 */
static void smc_ib_port_work(struct work_struct *work)
{
	struct smc_ib_device *sdev = container_of(work, struct smc_ib_device,
						  port_work);
	unsigned long err = xchg(&sdev->ports_err, 0);
	bool up = xchg(&sdev->ports_up, 0);
	unsigned int bit;

	for_each_set_bit(bit, &err, SMC_IB_MAX_PORTS) {
		pr_info("RoCE device %s port %u down: its links go down\n",
			dev_name(&sdev->ibdev->dev), bit + 1);
		smc_lgr_event_port_err(sdev, bit + 1);
	}
	if (up)
		smc_lgr_event_dev_added();
}

/* A port event for @port (1-based), valid or not; atomic context */
static void smc_ib_port_event(struct smc_ib_device *sdev, u32 port, bool up)
{
	if (!port || port > SMC_IB_MAX_PORTS)
		return;
	if (up) {
		set_bit(port - 1, &sdev->ports_active);
		set_bit(port - 1, &sdev->ports_up);
	} else {
		clear_bit(port - 1, &sdev->ports_active);
		set_bit(port - 1, &sdev->ports_err);
	}
	queue_work(system_unbound_wq, &sdev->port_work);
}

/*
 * The device's IB events (ib_core may call this in atomic context): the
 * port state bits change at once, so no new link picks a port that went
 * down; the links are acted on in smc_ib_port_work().
 */
static void smc_ib_event(struct ib_event_handler *handler,
			 struct ib_event *event)
{
	struct smc_ib_device *sdev = container_of(handler,
						  struct smc_ib_device,
						  event_handler);
	u32 port = event->element.port_num;

	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
		smc_ib_port_event(sdev, port, true);
		break;
	case IB_EVENT_PORT_ERR:
		smc_ib_port_event(sdev, port, false);
		break;
	case IB_EVENT_DEVICE_FATAL:
		rdma_for_each_port(sdev->ibdev, port)
			smc_ib_port_event(sdev, port, false);
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

/* Links a device can hold: a QP, a PD and two CQs each */
static int smc_ib_max_links(struct smc_ib_device *sdev)
{
	const struct ib_device_attr *attrs = &sdev->ibdev->attrs;

	if (attrs->max_cqe < SMC_WR_SQ_DEPTH ||
	    attrs->max_cqe < SMC_WR_RQ_DEPTH)
		return -EOPNOTSUPP;
	sdev->max_links = min3(attrs->max_qp, attrs->max_cq / 2,
			       attrs->max_pd);
	return sdev->max_links ? 0 : -EOPNOTSUPP;
}

static int smc_ib_add(struct ib_device *ibdev)
{
	struct smc_ib_device *sdev;
	u32 port;
	int rc;

	if (!smc_ib_has_roce(ibdev))
		return -EOPNOTSUPP;
	sdev = kzalloc(sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return -ENOMEM;
	sdev->ibdev = ibdev;
	INIT_LIST_HEAD(&sdev->links);
	init_waitqueue_head(&sdev->users_gone);
	INIT_WORK(&sdev->port_work, smc_ib_port_work);
	rc = smc_ib_max_links(sdev);
	if (rc) {
		pr_warn("RoCE device %s: too few QPs, CQs or CQEs, not used\n",
			dev_name(&ibdev->dev));
		kfree(sdev);
		return rc;
	}
	rdma_for_each_port(ibdev, port)
		smc_ib_port_update(sdev, port);
	INIT_IB_EVENT_HANDLER(&sdev->event_handler, ibdev, smc_ib_event);
	ib_register_event_handler(&sdev->event_handler);
	ib_set_client_data(ibdev, &smc_ib_client, sdev);

	mutex_lock(&smc_ib_lock);
	list_add_tail(&sdev->list, &smc_ib_devices);
	smc_ib_gen++;
	mutex_unlock(&smc_ib_lock);
	pr_info("RoCE device %s added\n", dev_name(&ibdev->dev));
	smc_lgr_event_dev_added();
	return 0;
}

static void smc_ib_remove(struct ib_device *ibdev, void *client_data)
{
	struct smc_ib_device *sdev = client_data;

	mutex_lock(&smc_ib_lock);
	list_del_init(&sdev->list);
	smc_ib_gen++;
	mutex_unlock(&smc_ib_lock);
	smc_lgr_event_dev_removed(sdev);
	wait_event(sdev->users_gone, !READ_ONCE(sdev->users));
	ib_unregister_event_handler(&sdev->event_handler);
	/* no event queues it any more; it reads sdev and its ibdev */
	cancel_work_sync(&sdev->port_work);
	pr_info("RoCE device %s removed\n", dev_name(&ibdev->dev));
	kfree(sdev);
}

/**
 * smc_ib_get() - take a user reference on a device, if it is still there
 * @sdev: device from a pick (may have been removed since)
 * @lnk: the link taking it; its @lgr and @port are set and stay so until
 *	smc_ib_put()
 *
 * Return: 0 (@lnk is on the device's list of links), -ENODEV if the
 * device is gone or going, or -EBUSY if it has no room for another link.
 */
int smc_ib_get(struct smc_ib_device *sdev, struct smc_link *lnk)
{
	struct smc_ib_device *d;
	int rc = -ENODEV;

	mutex_lock(&smc_ib_lock);
	list_for_each_entry(d, &smc_ib_devices, list) {
		if (d != sdev)
			continue;
		rc = -EBUSY;
		if (d->users < d->max_links) {
			d->users++;
			list_add_tail(&lnk->ib_node, &d->links);
			rc = 0;
		}
		break;
	}
	mutex_unlock(&smc_ib_lock);
	return rc;
}

/**
 * smc_ib_listed() - is a device still there (not being removed)?
 * @sdev: a device the caller holds a user reference on
 *
 * Return: true while it is on the device list.
 */
bool smc_ib_listed(struct smc_ib_device *sdev)
{
	bool listed;

	mutex_lock(&smc_ib_lock);
	listed = !list_empty(&sdev->list);
	mutex_unlock(&smc_ib_lock);
	return listed;
}

/**
 * smc_ib_put() - drop a reference smc_ib_get() took
 * @sdev: the device
 * @lnk: the link that took it
 */
void smc_ib_put(struct smc_ib_device *sdev, struct smc_link *lnk)
{
	mutex_lock(&smc_ib_lock);
	list_del(&lnk->ib_node);
	if (!--sdev->users)
		wake_up(&sdev->users_gone);
	mutex_unlock(&smc_ib_lock);
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
		struct ib_port_attr pattr;

		pick->sdev = sdev;
		pick->port = port;
		pick->mtu = IB_MTU_1024;
		if (!ib_query_port(sdev->ibdev, port, &pattr))
			pick->mtu = pattr.active_mtu;
		pick->ifindex = ndev->ifindex;
		pick->gid_index = attr->index;
		pick->roce_v2 = attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP;
		memcpy(pick->gid, attr->gid.raw, SMC_IB_GID_LEN);
		memcpy(pick->mac, ndev->dev_addr, ETH_ALEN);
		rdma_put_gid_attr(attr);
	}
	mutex_unlock(&smc_ib_lock);
	return attr ? 0 : -ENODEV;
}

/*
 * The host's route from @local to @peer (IPv4-mapped GIDs), if it is a
 * unicast route that leaves through @ndev; NULL otherwise (a broadcast or
 * multicast address would look "direct" too). ip_rt_put() it. The host's
 * route, not one bound to @ndev: with the interface given, a lookup that
 * finds no route through it assumes the peer is on its link, and rxe
 * would then send out of @ndev to an address the host reaches through
 * another interface (where the peer's other port, not the one with the
 * QP, takes the packets).
 */
static struct rtable *smc_ib_route4(struct net *net, struct net_device *ndev,
				    const union ib_gid *local,
				    const union ib_gid *peer,
				    struct flowi4 *fl4)
{
	struct rtable *rt;

	memset(fl4, 0, sizeof(*fl4));
	memcpy(&fl4->daddr, &peer->raw[12], sizeof(fl4->daddr));
	memcpy(&fl4->saddr, &local->raw[12], sizeof(fl4->saddr));
	rt = ip_route_output_key(net, fl4);
	if (IS_ERR(rt))
		return NULL;
	if (rt->dst.dev != ndev || rt->rt_type != RTN_UNICAST) {
		ip_rt_put(rt);
		return NULL;
	}
	return rt;
}

/* Does @ndev reach @peer (an IPv4-mapped GID) without a router? */
static bool smc_ib_reaches(struct net *net, struct net_device *ndev,
			   const union ib_gid *local, const union ib_gid *peer)
{
	struct flowi4 fl4;
	struct rtable *rt;
	bool ok;

	rt = smc_ib_route4(net, ndev, local, peer, &fl4);
	if (!rt)
		return false;
	ok = !rt->rt_uses_gateway;
	ip_rt_put(rt);
	return ok;
}

/*
 * The MAC of the router @rt sends to, if its neighbour entry is valid.
 * An entry not resolved yet is asked for (the next connection finds it)
 * and counts as no route: a link's frames need a destination MAC now.
 */
static int smc_ib_gw_mac(struct rtable *rt, struct flowi4 *fl4, u8 *mac)
{
	struct neighbour *neigh;
	int rc = -EHOSTUNREACH;

	/* an IPv6 next hop of an IPv4 route (RFC 5549): Linux's SMC-R v2
	 * does not take one either
	 */
	if (rt->rt_gw_family != AF_INET)
		return -ENETUNREACH;
	neigh = dst_neigh_lookup(&rt->dst, &fl4->daddr);
	if (!neigh)
		return -ENETUNREACH;
	if (READ_ONCE(neigh->nud_state) & NUD_VALID) {
		neigh_ha_snapshot(mac, neigh, rt->dst.dev);
		rc = is_valid_ether_addr(mac) ? 0 : -EHOSTUNREACH;
	} else {
		neigh_event_send(neigh, NULL);
	}
	neigh_release(neigh);
	return rc;
}

/**
 * smc_ib_v2_route() - how does our port reach an SMC-R v2 peer?
 * @net: the connection's namespace
 * @pick: our port, as smc_ib_find_port() chose it
 * @peer_gid: the peer's SMC-R v2 GID
 * @route: filled on success: @direct, and the router's MAC if not direct
 *
 * The route is the one from our GID's address to the peer's, leaving
 * through our port's interface, unicast. Through a router, the link's
 * frames go to that router's MAC; its neighbour entry must be valid.
 * Process context; no lock is needed (routing and neighbour lookups take
 * their own references).
 *
 * Return: 0, or a negative errno if either GID is not IPv4-mapped, there
 * is no such route, it goes through an IPv6 next hop, or the router's
 * MAC is not known (yet).
 */
int smc_ib_v2_route(struct net *net, const struct smc_ib_pick *pick,
		    const u8 *peer_gid, struct smc_ib_route *route)
{
	struct net_device *ndev;
	struct flowi4 fl4;
	struct rtable *rt;
	int rc = 0;

	memset(route, 0, sizeof(*route));
	if (!ipv6_addr_v4mapped((const struct in6_addr *)peer_gid) ||
	    !ipv6_addr_v4mapped((const struct in6_addr *)pick->gid))
		return -EINVAL;
	ndev = dev_get_by_index(net, pick->ifindex);
	if (!ndev)
		return -ENODEV;
	rt = smc_ib_route4(net, ndev, (const union ib_gid *)pick->gid,
			   (const union ib_gid *)peer_gid, &fl4);
	if (!rt) {
		rc = -ENETUNREACH;
		goto out;
	}
	route->direct = !rt->rt_uses_gateway;
	if (!route->direct)
		rc = smc_ib_gw_mac(rt, &fl4, route->nexthop_mac);
	ip_rt_put(rt);
out:
	dev_put(ndev);
	return rc;
}

/**
 * smc_ib_pick_reaches() - does our port reach a peer's GID without a router?
 * @net: the link group's namespace
 * @pick: our port, as smc_ib_find_alt_port() chose it
 * @peer_gid: the peer's GID
 *
 * The test smc_ib_find_alt_port() applies to a peer's GID it is given,
 * for a GID learnt afterwards. RoCE v1 is layer 2: nothing to look up.
 * Process context.
 *
 * Return: true if the route from @pick's address to @peer_gid leaves
 * through @pick's interface, unicast and direct, or for RoCE v1.
 */
bool smc_ib_pick_reaches(struct net *net, const struct smc_ib_pick *pick,
			 const u8 *peer_gid)
{
	struct net_device *ndev;
	bool ok;

	if (!pick->roce_v2)
		return true;
	if (!ipv6_addr_v4mapped((const struct in6_addr *)peer_gid) ||
	    !ipv6_addr_v4mapped((const struct in6_addr *)pick->gid))
		return false;
	ndev = dev_get_by_index(net, pick->ifindex);
	if (!ndev)
		return false;
	ok = smc_ib_reaches(net, ndev, (const union ib_gid *)pick->gid,
			    (const union ib_gid *)peer_gid);
	dev_put(ndev);
	return ok;
}

/*
 * Is GID table entry @attr one a further link may use: of @type, on an
 * up interface in @net, IPv4-mapped like @peer (if given) and reaching it?
 * Fills @pick's GID, MAC and interface if so. RCU read lock held.
 */
static bool smc_ib_alt_gid(struct net *net, const struct ib_gid_attr *attr,
			   enum ib_gid_type type, const union ib_gid *peer,
			   struct smc_ib_pick *pick)
{
	struct net_device *ndev;
	bool v4 = ipv6_addr_v4mapped((const struct in6_addr *)attr->gid.raw);

	if (attr->gid_type != type)
		return false;
	ndev = rdma_read_gid_attr_ndev_rcu(attr);
	if (IS_ERR(ndev) || !net_eq(dev_net(ndev), net) ||
	    !netif_running(ndev) || !netif_carrier_ok(ndev))
		return false;
	if (type == IB_GID_TYPE_ROCE_UDP_ENCAP && peer) {
		/* RoCE v2 runs over IP: the peer's address must be ours to
		 * reach from this interface (routed RoCE v2 is SMC-R v2's)
		 */
		if (!v4 || !ipv6_addr_v4mapped((const struct in6_addr *)peer->raw) ||
		    !smc_ib_reaches(net, ndev, &attr->gid, peer))
			return false;
	} else if (type == IB_GID_TYPE_ROCE_UDP_ENCAP && !v4) {
		return false;	/* like the first link's, an IPv4 address */
	}
	pick->ifindex = ndev->ifindex;
	memcpy(pick->mac, ndev->dev_addr, ETH_ALEN);
	return true;
}

/* A GID of @port for a further link, see smc_ib_find_alt_port() */
static bool smc_ib_alt_port(struct net *net, struct smc_ib_device *sdev,
			    u32 port, enum ib_gid_type type,
			    const union ib_gid *peer, struct smc_ib_pick *pick)
{
	const struct ib_gid_attr *attr;
	struct ib_port_attr pattr;
	bool found = false;
	u32 i;

	if (ib_query_port(sdev->ibdev, port, &pattr))
		return false;
	for (i = 0; i < pattr.gid_tbl_len && !found; i++) {
		attr = rdma_get_gid_attr(sdev->ibdev, port, i);
		if (IS_ERR(attr))
			continue;
		rcu_read_lock();
		found = smc_ib_alt_gid(net, attr, type, peer, pick);
		rcu_read_unlock();
		if (found) {
			pick->sdev = sdev;
			pick->port = port;
			pick->gid_index = attr->index;
			pick->roce_v2 = type == IB_GID_TYPE_ROCE_UDP_ENCAP;
			pick->mtu = pattr.active_mtu;
			memcpy(pick->gid, attr->gid.raw, SMC_IB_GID_LEN);
		}
		rdma_put_gid_attr(attr);
	}
	return found;
}

/**
 * smc_ib_find_alt_port() - choose a RoCE port for a further link of a link
 *	group (RFC 7609 2.2)
 * @net: the link group's namespace: the port's interface must be in it
 * @skip_dev: the device of the link group's existing link
 * @skip_port: and its port; the new link takes another port
 * @roce_v2: the existing link's GID type, which the new one shares
 * @peer: the peer's GID for the new link (the client answering an ADD
 *	LINK), which the port must reach directly; NULL for any (the server
 *	offering one)
 * @pick: filled with the choice on success
 *
 * Return: 0, or -ENODEV if no other active RoCE port qualifies.
 */
int smc_ib_find_alt_port(struct net *net, struct smc_ib_device *skip_dev,
			 u32 skip_port, bool roce_v2,
			 const u8 peer[SMC_IB_GID_LEN],
			 struct smc_ib_pick *pick)
{
	enum ib_gid_type type = roce_v2 ? IB_GID_TYPE_ROCE_UDP_ENCAP :
					  IB_GID_TYPE_ROCE;
	const union ib_gid *pgid = (const union ib_gid *)peer;
	struct smc_ib_device *sdev;
	bool found = false;
	u32 port;

	mutex_lock(&smc_ib_lock);
	list_for_each_entry(sdev, &smc_ib_devices, list) {
		rdma_for_each_port(sdev->ibdev, port) {
			if (port > SMC_IB_MAX_PORTS ||
			    (sdev == skip_dev && port == skip_port) ||
			    !test_bit(port - 1, &sdev->ports_active) ||
			    !rdma_protocol_roce(sdev->ibdev, port))
				continue;
			found = smc_ib_alt_port(net, sdev, port, type, pgid,
						pick);
			if (found)
				break;
		}
		if (found)
			break;
	}
	mutex_unlock(&smc_ib_lock);
	return found ? 0 : -ENODEV;
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

/* Links of @net's link groups on @port of @sdev; smc_ib_lock held */
static u32 smc_ib_net_links(struct smc_ib_device *sdev, u32 port,
			    struct net *net)
{
	struct smc_link *lnk;
	u32 n = 0;

	/* a listed link's link group is not freed before its teardown */
	list_for_each_entry(lnk, &sdev->links, ib_node)
		if (lnk->port == port && net_eq(smc_lgr_net(lnk->lgr), net))
			n++;
	return n;
}

static void smc_ib_nl_port(struct smc_ib_device *sdev, u32 port,
			   struct net *net, struct smc_nl_port *out)
{
	const struct ib_gid_attr *attr;
	struct net_device *ndev;

	/* out->pnetid stays all NUL: no PNET table, no PNET ID */
	out->valid = true;
	out->state = test_bit(port - 1, &sdev->ports_active) ? 1 : 0;
	out->lnk_cnt = smc_ib_net_links(sdev, port, net);
	/* the port's net device, through its first GID (6.1 has no
	 * ib_device_get_netdev() for modules)
	 */
	attr = rdma_get_gid_attr(sdev->ibdev, port, 0);
	if (IS_ERR(attr))
		return;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(attr);
	/* an index means something in its namespace only: another one's
	 * reads 0, as for a port without a net device
	 */
	if (!IS_ERR(ndev) && net_eq(dev_net(ndev), net))
		out->ifindex = ndev->ifindex;
	rcu_read_unlock();
	rdma_put_gid_attr(attr);
}

/*
 * The PCI attributes, as Linux sends them: only for a device with a
 * parent (rxe has none); the function and channel IDs are s390's
 * (0 elsewhere).
 */
static void smc_ib_nl_pci(struct device *parent, struct smc_nl_dev *out)
{
	struct pci_dev *pdev;

	if (!parent)
		return;
	out->has_pci = true;
	if (!dev_is_pci(parent))
		return;
	pdev = to_pci_dev(parent);
	out->pci_vendor = pdev->vendor;
	out->pci_device = pdev->device;
	strscpy(out->pci_id, pci_name(pdev), sizeof(out->pci_id));
}

/**
 * smc_ib_nl_dev() - describe RoCE device number @idx for netlink
 * @net: the dumping namespace (devices are reported in every namespace,
 *	each port's link count of this namespace only)
 * @idx: 0-based position in the device list
 * @out: filled on success
 * @gen: set to a counter that changes when devices come and go
 *
 * Return: 0, or -ENOENT past the last device.
 */
int smc_ib_nl_dev(struct net *net, long idx, struct smc_nl_dev *out, u32 *gen)
{
	struct smc_ib_device *sdev;
	long n = 0;
	int rc = -ENOENT;
	u32 port;

	mutex_lock(&smc_ib_lock);
	*gen = smc_ib_gen;
	list_for_each_entry(sdev, &smc_ib_devices, list) {
		if (n++ != idx)
			continue;
		memset(out, 0, sizeof(*out));
		strscpy(out->ibname, dev_name(&sdev->ibdev->dev),
			sizeof(out->ibname));
		smc_ib_nl_pci(sdev->ibdev->dev.parent, out);
		rdma_for_each_port(sdev->ibdev, port) {
			if (port > SMC_NL_PORTS_MAX)
				break;
			if (rdma_protocol_roce(sdev->ibdev, port))
				smc_ib_nl_port(sdev, port, net,
					       &out->ports[port - 1]);
		}
		rc = 0;
		break;
	}
	mutex_unlock(&smc_ib_lock);
	return rc;
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
