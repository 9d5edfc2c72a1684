// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: link groups (RFC 7609 2.3, 3.5.1, 4.8.3).
 *
 * A link group is keyed by (network namespace, our role, the peer's peer
 * ID, VLAN) plus the peer's GID and MAC on its link: a connection to the
 * same peer over the same RoCE path reuses it ("subsequent contact"), any
 * other one creates a new one ("first contact"). Link groups are never
 * shared across namespaces.
 *
 * First contacts of one role are serialized (smc_lgr_first_contact_lock())
 * from the decision to create a link group until its first link is
 * confirmed, so two simultaneous connections to a new peer end up in one
 * link group, not two.
 *
 * Lifetime: every connection (and handshake) using a link group counts in
 * @conns. When the last one is gone the link group lingers for
 * lgr_linger_ms (the server's clock runs out first: the client adds a
 * tenth), then it is deleted: DELETE LINK (all, orderly) tells the peer,
 * and the links are torn down. A connection arriving meanwhile stops the
 * clock. A fatal link error, the peer's DELETE LINK, device removal,
 * namespace exit and module unload terminate it at once.
 *
 * Locking: smc_lgr_mutex protects smc_lgr_list, each link group's list
 * membership and smc_lgr_gen; lgr->lock the fields struct smc_link_group
 * says. Never take smc_lgr_mutex under lgr->lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <net/net_namespace.h>

#include "core.h"
#include "netlink.h"
#include "smcr.h"

static bool smc_rmbe_eyecatcher;
module_param_named(rmbe_eyecatcher, smc_rmbe_eyecatcher, bool, 0644);
MODULE_PARM_DESC(rmbe_eyecatcher,
		 "Link groups this host serves use RMB elements with the 4-byte eye catcher of RFC 7609 4.2 (N: Linux's format without; Linux peers decline Y; default N)");

struct workqueue_struct *smc_lgr_wq;	/* linger, termination, link down */

static LIST_HEAD(smc_lgr_list);
static DEFINE_MUTEX(smc_lgr_mutex);
static u32 smc_lgr_gen;			/* changes with smc_lgr_list */
static atomic_t smc_lgr_next_id = ATOMIC_INIT(0);
static struct mutex smc_lgr_first_contact[2];	/* [server] */

/**
 * smc_lgr_first_contact_lock() - serialize first contacts of one role
 * @server: our role
 */
void smc_lgr_first_contact_lock(bool server)
{
	mutex_lock(&smc_lgr_first_contact[server]);
}

/**
 * smc_lgr_first_contact_unlock() - end of smc_lgr_first_contact_lock()
 * @server: our role
 */
void smc_lgr_first_contact_unlock(bool server)
{
	mutex_unlock(&smc_lgr_first_contact[server]);
}

static void smc_lgr_release(struct kref *ref)
{
	struct smc_link_group *lgr = container_of(ref, struct smc_link_group,
						  ref);

	smc_buf_free_all(lgr);
	xa_destroy(&lgr->conns_xa);
	kfree(lgr);
}

/**
 * smc_lgr_put() - drop a reference to a link group
 * @lgr: the link group
 */
void smc_lgr_put(struct smc_link_group *lgr)
{
	kref_put(&lgr->ref, smc_lgr_release);
}

static bool smc_lgr_matches(struct smc_link_group *lgr, struct net *net,
			    bool server, const u8 *peer_id, const u8 *peer_gid,
			    const u8 *peer_mac, u16 vlan_id)
{
	const struct smc_link *lnk = &lgr->lnk[0];

	return net_eq(smc_lgr_net(lgr), net) && lgr->server == server &&
	       lgr->vlan_id == vlan_id &&
	       !memcmp(lgr->peer_id, peer_id, SMC_PEER_ID_LEN) &&
	       READ_ONCE(lnk->state) == SMC_LNK_ACTIVE &&
	       !memcmp(lnk->peer.gid, peer_gid, SMC_GID_LEN) &&
	       !memcmp(lnk->peer.mac, peer_mac, SMC_MAC_LEN);
}

/**
 * smc_lgr_find() - a link group a new connection can use (subsequent
 *	contact)
 * @net: the connection's namespace
 * @server: our role
 * @peer_id: the peer's peer ID
 * @peer_gid: the peer's RoCE GID
 * @peer_mac: the peer's RoCE MAC
 * @vlan_id: VLAN of the connection's net device
 *
 * Return: the link group with a connection counted and a reference held
 * (release with smc_lgr_conn_put()), or NULL.
 */
struct smc_link_group *smc_lgr_find(struct net *net, bool server,
				    const u8 peer_id[SMC_PEER_ID_LEN],
				    const u8 peer_gid[SMC_GID_LEN],
				    const u8 peer_mac[SMC_MAC_LEN],
				    u16 vlan_id)
{
	struct smc_link_group *lgr, *found = NULL;

	mutex_lock(&smc_lgr_mutex);
	list_for_each_entry(lgr, &smc_lgr_list, list) {
		if (!smc_lgr_matches(lgr, net, server, peer_id, peer_gid,
				     peer_mac, vlan_id))
			continue;
		spin_lock_bh(&lgr->lock);
		if (!lgr->terminating) {
			lgr->conns++;
			kref_get(&lgr->ref);
			found = lgr;
		}
		spin_unlock_bh(&lgr->lock);
		if (found) {
			cancel_delayed_work(&lgr->linger);
			break;
		}
	}
	mutex_unlock(&smc_lgr_mutex);
	return found;
}

/* Mark @lgr terminating and unlist it; true if it was not yet. */
static bool smc_lgr_mark_terminating(struct smc_link_group *lgr,
				     bool notify_peer, const char *why)
{
	bool first;

	lockdep_assert_held(&smc_lgr_mutex);
	spin_lock_bh(&lgr->lock);
	first = !lgr->terminating;
	lgr->terminating = true;
	if (first)
		lgr->notify_peer = notify_peer;
	spin_unlock_bh(&lgr->lock);
	if (first) {
		list_del_init(&lgr->list);
		smc_lgr_gen++;
		pr_info("link group %u (%s) ends: %s\n", lgr->id,
			lgr->server ? "server" : "client", why);
	}
	return first;
}

/* After smc_lgr_mark_terminating(): wake the waiters, queue the teardown */
static void smc_lgr_terminated(struct smc_link_group *lgr)
{
	wake_up_all(&lgr->wait);
	queue_work(smc_lgr_wq, &lgr->free_work);
}

static void smc_lgr_linger_expired(struct work_struct *work)
{
	struct smc_link_group *lgr = container_of(to_delayed_work(work),
						  struct smc_link_group,
						  linger);
	bool idle;

	/* under smc_lgr_mutex: smc_lgr_find() cannot count a connection
	 * between the check and the termination
	 */
	mutex_lock(&smc_lgr_mutex);
	spin_lock_bh(&lgr->lock);
	idle = !lgr->conns && !lgr->terminating;
	spin_unlock_bh(&lgr->lock);
	if (idle)
		idle = smc_lgr_mark_terminating(lgr, true, "unused, linger expired");
	mutex_unlock(&smc_lgr_mutex);
	if (idle)
		smc_lgr_terminated(lgr);
}

/* Tell the peer the link group is gone; wait until the message left. */
static void smc_lgr_notify_peer(struct smc_link_group *lgr)
{
	struct smc_link *lnk = &lgr->lnk[0];
	struct smc_llc_msg_info info = {
		.type = SMC_LLC_DELETE_LINK,
		.delete_link = {
			.all		= true,
			.orderly	= true,
			.reason		= SMC_LLC_DEL_PROG_INIT_TERM,
		},
	};

	if (READ_ONCE(lnk->state) != SMC_LNK_ACTIVE)
		return;
	if (smc_llc_send(lnk, &info, true))
		return;
	wait_event_timeout(lnk->wr.tx_wait, !atomic_read(&lnk->wr.tx_posted),
			   msecs_to_jiffies(READ_ONCE(smc_llc_timeout_ms)));
}

static void smc_lgr_free_work(struct work_struct *work)
{
	struct smc_link_group *lgr = container_of(work, struct smc_link_group,
						  free_work);
	bool leak = false;
	int i;

	cancel_delayed_work_sync(&lgr->linger);
	if (lgr->notify_peer)
		smc_lgr_notify_peer(lgr);
	smc_conn_lgr_gone(lgr);		/* before the device goes */
	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (smc_link_teardown(&lgr->lnk[i]))
			leak = true;
	/* no receive completions any more: nothing queues LLC work */
	destroy_workqueue(lgr->llc_wq);
	smc_llc_purge(lgr);
	if (!leak)
		smc_lgr_put(lgr);		/* the list's reference */
}

/**
 * smc_lgr_terminate() - end a link group now
 * @lgr: the link group (a reference is held by the caller)
 * @notify_peer: send DELETE LINK (all) to the peer first
 * @why: for the log
 *
 * Takes it off the list (no new connection finds it), wakes every waiter
 * and queues the teardown of its links. Idempotent.
 *
 * Context: process.
 */
void smc_lgr_terminate(struct smc_link_group *lgr, bool notify_peer,
		       const char *why)
{
	bool first;

	mutex_lock(&smc_lgr_mutex);
	first = smc_lgr_mark_terminating(lgr, notify_peer, why);
	mutex_unlock(&smc_lgr_mutex);
	if (first)
		smc_lgr_terminated(lgr);
}

static void smc_lgr_link_down_work(struct work_struct *work)
{
	struct smc_link *lnk = container_of(work, struct smc_link, down_work);

	/* the only link: the link group cannot go on (no failover yet) */
	smc_lgr_terminate(lnk->lgr, false, "link down");
}

/**
 * smc_lgr_create() - a new link group with its first link ACTIVATING
 * @net: the connection's namespace
 * @server: our role
 * @peer_id: the peer's peer ID
 * @offer: our offer: the RoCE port and GID of the link
 *
 * The link group is on the list, but smc_lgr_find() ignores it until its
 * link is ACTIVE. Call with smc_lgr_first_contact_lock() held.
 *
 * Return: the link group with a connection counted and a reference held
 * (release with smc_lgr_conn_put()), or an ERR_PTR.
 */
struct smc_link_group *smc_lgr_create(struct net *net, bool server,
				      const u8 peer_id[SMC_PEER_ID_LEN],
				      const struct smc_offer *offer)
{
	struct smc_link_group *lgr;
	int i, rc;

	lgr = kzalloc(sizeof(*lgr), GFP_KERNEL);
	if (!lgr)
		return ERR_PTR(-ENOMEM);
	lgr->id = atomic_inc_return(&smc_lgr_next_id);
	lgr->llc_wq = alloc_ordered_workqueue("smcr_llc%u", 0, lgr->id);
	if (!lgr->llc_wq) {
		kfree(lgr);
		return ERR_PTR(-ENOMEM);
	}
	INIT_LIST_HEAD(&lgr->list);
	kref_init(&lgr->ref);		/* the list's */
	write_pnet(&lgr->net, net);
	lgr->server = server;
	/* a client learns the server's choice from CONFIRM LINK */
	lgr->rmbe_eyec = server && READ_ONCE(smc_rmbe_eyecatcher);
	memcpy(lgr->peer_id, peer_id, SMC_PEER_ID_LEN);
	lgr->vlan_id = offer->vlan_id;
	spin_lock_init(&lgr->lock);
	init_waitqueue_head(&lgr->wait);
	spin_lock_init(&lgr->llc_rx_lock);
	INIT_LIST_HEAD(&lgr->llc_rx);
	INIT_WORK(&lgr->llc_work, smc_llc_work);
	INIT_DELAYED_WORK(&lgr->linger, smc_lgr_linger_expired);
	INIT_WORK(&lgr->free_work, smc_lgr_free_work);
	smc_buf_init(lgr);
	xa_init_flags(&lgr->conns_xa, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	for (i = 0; i < SMC_LGR_LINKS; i++) {
		lgr->lnk[i].lgr = lgr;
		init_completion(&lgr->lnk[i].reg_done);
		rwlock_init(&lgr->lnk[i].post_lock);
		mutex_init(&lgr->lnk[i].qp_mutex);
		INIT_WORK(&lgr->lnk[i].down_work, smc_lgr_link_down_work);
		INIT_DELAYED_WORK(&lgr->lnk[i].keepalive, smc_llc_keepalive);
	}
	if (server)
		lgr->lnk[0].link_id = 1;	/* the client learns it */
	rc = smc_link_init(&lgr->lnk[0], offer);
	if (rc) {
		destroy_workqueue(lgr->llc_wq);
		kfree(lgr);
		return ERR_PTR(rc);
	}
	lgr->conns = 1;
	kref_get(&lgr->ref);		/* the caller's */
	mutex_lock(&smc_lgr_mutex);
	list_add_tail(&lgr->list, &smc_lgr_list);
	smc_lgr_gen++;
	mutex_unlock(&smc_lgr_mutex);
	/* a removal that ran before the list_add did not see us */
	if (!smc_ib_listed(offer->pick.sdev))
		smc_lgr_terminate(lgr, false, "RoCE device removed");
	return lgr;
}

/**
 * smc_lgr_conn_put() - a connection no longer uses a link group
 * @lgr: from smc_lgr_find() or smc_lgr_create()
 *
 * The last connection gone starts the linger clock. Drops the caller's
 * reference.
 */
void smc_lgr_conn_put(struct smc_link_group *lgr)
{
	unsigned long delay = msecs_to_jiffies(READ_ONCE(smc_lgr_linger_ms));
	bool idle;

	if (!lgr->server)
		delay += delay / 10;
	spin_lock_bh(&lgr->lock);
	idle = !--lgr->conns && !lgr->terminating;
	if (idle)
		mod_delayed_work(smc_lgr_wq, &lgr->linger, delay);
	spin_unlock_bh(&lgr->lock);
	smc_lgr_put(lgr);
}

/* Terminate every link group for which @match() is true. */
static void smc_lgr_terminate_if(bool (*match)(struct smc_link_group *lgr,
					       const void *arg),
				 const void *arg, bool notify_peer,
				 const char *why)
{
	struct smc_link_group *lgr;

	for (;;) {
		struct smc_link_group *hit = NULL;

		mutex_lock(&smc_lgr_mutex);
		list_for_each_entry(lgr, &smc_lgr_list, list) {
			if (match(lgr, arg)) {
				hit = lgr;
				kref_get(&hit->ref);
				break;
			}
		}
		mutex_unlock(&smc_lgr_mutex);
		if (!hit)
			return;
		smc_lgr_terminate(hit, notify_peer, why);
		smc_lgr_put(hit);
	}
}

static bool smc_lgr_on_dev(struct smc_link_group *lgr, const void *sdev)
{
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (lgr->lnk[i].sdev == sdev)
			return true;
	return false;
}

/**
 * smc_lgr_terminate_dev() - end every link group with a link on a device
 * @sdev: a device being removed
 *
 * The links drop their device references in the teardown work; the caller
 * waits for those.
 */
void smc_lgr_terminate_dev(struct smc_ib_device *sdev)
{
	smc_lgr_terminate_if(smc_lgr_on_dev, sdev, true, "RoCE device removed");
}

static bool smc_lgr_in_net(struct smc_link_group *lgr, const void *net)
{
	return net_eq(smc_lgr_net(lgr), (struct net *)net);
}

static bool smc_lgr_any(struct smc_link_group *lgr, const void *arg)
{
	return true;
}

static void smc_lgr_net_exit(struct net *net)
{
	smc_lgr_terminate_if(smc_lgr_in_net, net, true, "namespace exit");
	flush_workqueue(smc_lgr_wq);
}

static struct pernet_operations smc_lgr_net_ops = {
	.exit = smc_lgr_net_exit,
};

static void smc_nl_gid(char *out, const u8 *gid)
{
	snprintf(out, SMC_NL_GID_STR_LEN,
		 "%04x:%04x:%04x:%04x:%04x:%04x:%04x:%04x",
		 gid[0] << 8 | gid[1], gid[2] << 8 | gid[3],
		 gid[4] << 8 | gid[5], gid[6] << 8 | gid[7],
		 gid[8] << 8 | gid[9], gid[10] << 8 | gid[11],
		 gid[12] << 8 | gid[13], gid[14] << 8 | gid[15]);
}

static u32 smc_nl_uid(const u8 *uid)
{
	return (u32)uid[0] << 24 | uid[1] << 16 | uid[2] << 8 | uid[3];
}

static void smc_nl_fill_link(const struct smc_link_group *lgr,
			     const struct smc_link *lnk,
			     struct smc_nl_link *out)
{
	out->link_id = lnk->link_id;
	out->state = READ_ONCE(lnk->state);
	out->conn_cnt = lgr->conns;
	out->ibport = lnk->port;
	out->ifindex = lnk->ndev_ifindex;
	strscpy(out->ibname, dev_name(&lnk->sdev->ibdev->dev),
		sizeof(out->ibname));
	out->uid = smc_nl_uid(lnk->uid);
	out->peer_uid = smc_nl_uid(lnk->peer_uid);
	smc_nl_gid(out->gid, lnk->local.gid);
	smc_nl_gid(out->peer_gid, lnk->peer.gid);
}

static int smc_nl_src_lgr(struct net *net, long idx, struct smc_nl_lgr *out,
			  u32 *gen)
{
	struct smc_link_group *lgr;
	int i, rc = -ENOENT;
	long n = 0;

	mutex_lock(&smc_lgr_mutex);
	*gen = smc_lgr_gen;
	list_for_each_entry(lgr, &smc_lgr_list, list) {
		if (!net_eq(smc_lgr_net(lgr), net) || n++ != idx)
			continue;
		memset(out, 0, sizeof(*out));
		out->id = lgr->id;
		out->role = lgr->server;
		out->type = 1;			/* single link */
		out->vlan_id = lgr->vlan_id;
		memset(out->pnetid, ' ', sizeof(out->pnetid));
		out->net_cookie = net->net_cookie;
		out->rmb_alloc = smc_buf_bytes(lgr, true);
		out->sndbuf_alloc = smc_buf_bytes(lgr, false);
		spin_lock_bh(&lgr->lock);
		out->conns = lgr->conns;
		for (i = 0; i < SMC_LGR_LINKS; i++) {
			const struct smc_link *lnk = &lgr->lnk[i];

			if (!lnk->sdev || out->n_links >= SMC_NL_LINKS_MAX)
				continue;
			smc_nl_fill_link(lgr, lnk, &out->links[out->n_links++]);
		}
		spin_unlock_bh(&lgr->lock);
		rc = 0;
		break;
	}
	mutex_unlock(&smc_lgr_mutex);
	return rc;
}

static const struct smc_nl_source smc_lgr_nl_source = {
	.get_lgr	= smc_nl_src_lgr,
	.get_dev	= smc_ib_nl_dev,
};

/**
 * smc_lgr_init() - set up link group management
 *
 * Return: 0 or a negative errno.
 */
int smc_lgr_init(void)
{
	int rc;

	mutex_init(&smc_lgr_first_contact[0]);
	mutex_init(&smc_lgr_first_contact[1]);
	smc_lgr_wq = alloc_workqueue("smcr_lgr", WQ_UNBOUND, 0);
	if (!smc_lgr_wq)
		return -ENOMEM;
	rc = register_pernet_subsys(&smc_lgr_net_ops);
	if (rc) {
		destroy_workqueue(smc_lgr_wq);
		return rc;
	}
	rc = smc_nl_source_register(&smc_lgr_nl_source);
	if (rc) {
		unregister_pernet_subsys(&smc_lgr_net_ops);
		destroy_workqueue(smc_lgr_wq);
	}
	return rc;
}

/**
 * smc_lgr_exit() - terminate every link group and wait for their teardown
 *
 * Context: module unload, after the last socket is gone.
 */
void smc_lgr_exit(void)
{
	smc_nl_source_unregister(&smc_lgr_nl_source);
	smc_lgr_terminate_if(smc_lgr_any, NULL, true, "module unload");
	flush_workqueue(smc_lgr_wq);
	unregister_pernet_subsys(&smc_lgr_net_ops);
	destroy_workqueue(smc_lgr_wq);
}
