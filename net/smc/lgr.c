// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: a link group's life - allocation and listing, references, linger,
 * retirement, termination and teardown - and each namespace's share of
 * links (RFC 7609 2.2, 3.5.4, 4.8.3).
 *
 * A link group is allocated for a first contact (contact.c) and listed
 * from then on until it is terminated; contact.c, lgr_event.c and
 * netlink.c read the list through smc_lgr_walk(), nothing else sees it.
 *
 * Lifetime: every connection (and handshake) using a link group counts in
 * @conns. When the last one is gone the link group lingers for
 * lgr_linger_ms (the server's clock runs out first: the client adds a
 * tenth), then it is deleted: DELETE LINK (all, orderly) tells the peer,
 * and the links are torn down. A connection arriving meanwhile stops the
 * clock. A fatal link error, device removal, namespace exit and module
 * unload (lgr_event.c) and the peer's DELETE LINK terminate it at once.
 *
 * Each namespace holds at most max_links_per_netns links and waits, as it
 * exits, for the teardown of its link groups (struct smc_lgr_net).
 *
 * Locking: smc_lgr_mutex protects smc_lgr_list, each link group's list
 * membership and smc_lgr_gen; lgr->lock the fields struct smc_link_group
 * says. Never take smc_lgr_mutex under lgr->lock. contact.c's
 * smc_contact_create_mutex is taken before smc_lgr_mutex.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "buf.h"
#include "close.h"
#include "conn.h"
#include "core.h"
#include "lgr.h"
#include "lgr_event.h"
#include "link.h"
#include "llc_del_link.h"
#include "llc_engine.h"
#include "llc_link.h"
#include "netlink.h"
#include "smcr.h"

/*
 * Unbound: a link group's linger and teardown (free_work), ADD LINK and
 * DELETE LINK flows; a link's down work and keepalive (TEST LINK); a
 * connection's upd_work, tx_work (autocorking), close timer and
 * SO_KEEPALIVE check (ka_work).
 */
struct workqueue_struct *smc_lgr_wq;

static LIST_HEAD(smc_lgr_list);
static DEFINE_MUTEX(smc_lgr_mutex);
static u32 smc_lgr_gen;			/* changes with smc_lgr_list */
static atomic_t smc_lgr_next_id = ATOMIC_INIT(0);

/**
 * struct smc_lgr_net - link group state of a namespace
 * @links: links of the namespace's link groups, from smc_link_init() to
 *	the end of smc_link_teardown() (a link whose resources it had to
 *	leak stays counted); at most max_links_per_netns, so one
 *	namespace (and the peers it serves) cannot take every link a device
 *	has room for. Every link of a namespace is torn down before its exit
 *	returns (smc_lgr_net_exit()), so the count never outlives it.
 * @lgrs: link groups of the namespace from smc_lgr_new() to the end of
 *	their teardown (smc_lgr_free_work()); the namespace's exit waits for
 *	0 on smc_lgr_net_wait, not for every link group's work there is.
 */
struct smc_lgr_net {
	atomic_t	links;
	atomic_t	lgrs;
};

static DECLARE_WAIT_QUEUE_HEAD(smc_lgr_net_wait);

static unsigned int smc_lgr_net_id __read_mostly;

/**
 * smc_lgr_net_link_get() - count a new link against its namespace's quota
 * @net: the link group's namespace
 *
 * Return: 0, or -EBUSY if the namespace holds max_links_per_netns links.
 */
int smc_lgr_net_link_get(struct net *net)
{
	struct smc_lgr_net *ln = net_generic(net, smc_lgr_net_id);
	int max = READ_ONCE(smc_max_links_per_netns);
	int n = atomic_read(&ln->links);

	do {
		if (n >= max) {
			pr_info_ratelimited("namespace holds %d links, max_links_per_netns: no new link\n",
					    n);
			return -EBUSY;
		}
	} while (!atomic_try_cmpxchg(&ln->links, &n, n + 1));
	return 0;
}

/**
 * smc_lgr_net_link_put() - a link of smc_lgr_net_link_get() is gone
 * @net: its namespace
 */
void smc_lgr_net_link_put(struct net *net)
{
	struct smc_lgr_net *ln = net_generic(net, smc_lgr_net_id);

	atomic_dec(&ln->links);
}

static void smc_lgr_kfree(struct smc_link_group *lgr)
{
	kvfree(lgr->rtok);
	kfree(lgr);
}

static void smc_lgr_release(struct kref *ref)
{
	struct smc_link_group *lgr = container_of(ref, struct smc_link_group,
						  ref);

	smc_buf_free_all(lgr);
	xa_destroy(&lgr->conns_xa);
	smc_lgr_kfree(lgr);
}

/**
 * smc_lgr_put() - drop a reference to a link group
 * @lgr: the link group
 */
void smc_lgr_put(struct smc_link_group *lgr)
{
	kref_put(&lgr->ref, smc_lgr_release);
}

#define SMC_LGR_ST_BAD	0xff	/* an event that cannot happen in a state */

/*
 * A link group's life, as one table: the state after each event (core.h,
 * enum smc_lgr_state and enum smc_lgr_event). Where an event changes
 * nothing the cell is the state itself: a link group that ends anyway
 * ignores its retirement, and the first contact of one it terminated
 * still ends (smc_contact_first_done() after the failure). A first
 * contact ends once; a subsequent contact cannot retire a pending link
 * group (it found it active), but the cell says what that would mean.
 */
static const u8 smc_lgr_next[SMC_LGR_STATES][SMC_LGR_EVENTS] = {
	[SMC_LGR_ST_PENDING] = {
		[SMC_LGR_EV_FIRST_DONE]	= SMC_LGR_ST_ACTIVE,
		[SMC_LGR_EV_RETIRE]	= SMC_LGR_ST_RETIRED,
		[SMC_LGR_EV_TERMINATE]	= SMC_LGR_ST_TERMINATING,
	},
	[SMC_LGR_ST_ACTIVE] = {
		[SMC_LGR_EV_FIRST_DONE]	= SMC_LGR_ST_BAD,
		[SMC_LGR_EV_RETIRE]	= SMC_LGR_ST_RETIRED,
		[SMC_LGR_EV_TERMINATE]	= SMC_LGR_ST_TERMINATING,
	},
	[SMC_LGR_ST_RETIRED] = {
		[SMC_LGR_EV_FIRST_DONE]	= SMC_LGR_ST_BAD,
		[SMC_LGR_EV_RETIRE]	= SMC_LGR_ST_RETIRED,
		[SMC_LGR_EV_TERMINATE]	= SMC_LGR_ST_TERMINATING,
	},
	[SMC_LGR_ST_TERMINATING] = {
		[SMC_LGR_EV_FIRST_DONE]	= SMC_LGR_ST_TERMINATING,
		[SMC_LGR_EV_RETIRE]	= SMC_LGR_ST_TERMINATING,
		[SMC_LGR_EV_TERMINATE]	= SMC_LGR_ST_TERMINATING,
	},
};

/**
 * smc_lgr_transition() - a link group's life moves on, as smc_lgr_next[]
 *	says
 * @lgr: the link group; its @lock held, and smc_lgr_mutex for
 *	SMC_LGR_EV_TERMINATE (it leaves the list)
 * @ev: what happened
 *
 * Return: the state before; the state stays where the table has no
 * transition (a bug, warned about once).
 */
enum smc_lgr_state smc_lgr_transition(struct smc_link_group *lgr,
				      enum smc_lgr_event ev)
{
	u8 old = lgr->state, next;

	lockdep_assert_held(&lgr->lock);
	if (ev == SMC_LGR_EV_TERMINATE)
		lockdep_assert_held(&smc_lgr_mutex);
	next = smc_lgr_next[old][ev];
	if (WARN_ON_ONCE(next == SMC_LGR_ST_BAD))
		return old;
	WRITE_ONCE(lgr->state, next);
	return old;
}

/* Mark @lgr terminating and unlist it; true if it was not yet. */
static bool smc_lgr_mark_terminating(struct smc_link_group *lgr,
				     bool notify_peer, const char *why)
{
	bool first;

	lockdep_assert_held(&smc_lgr_mutex);
	spin_lock_bh(&lgr->lock);
	first = smc_lgr_transition(lgr, SMC_LGR_EV_TERMINATE) !=
		SMC_LGR_ST_TERMINATING;
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

	/* under smc_lgr_mutex: smc_contact_lookup() cannot count a connection
	 * between the check and the termination
	 */
	mutex_lock(&smc_lgr_mutex);
	spin_lock_bh(&lgr->lock);
	idle = !lgr->conns && !smc_lgr_terminating(lgr);
	spin_unlock_bh(&lgr->lock);
	if (idle)
		idle = smc_lgr_mark_terminating(lgr, true, "unused, linger expired");
	mutex_unlock(&smc_lgr_mutex);
	if (idle)
		smc_lgr_terminated(lgr);
}

#ifdef SMCR_TEST_HOOKS
/**
 * smc_lgr_expire_idle() - end the linger of every idle link group now
 *
 * The test hook test_lgr_expire_idle: a server's now, a client's a second
 * later (a server's DELETE LINK usually ends it first, as when its
 * lgr_linger_ms runs out).
 */
void smc_lgr_expire_idle(void)
{
	struct smc_link_group *lgr;

	mutex_lock(&smc_lgr_mutex);
	list_for_each_entry(lgr, &smc_lgr_list, list) {
		spin_lock_bh(&lgr->lock);
		if (!lgr->conns && (lgr->state == SMC_LGR_ST_ACTIVE ||
				    lgr->state == SMC_LGR_ST_RETIRED))
			mod_delayed_work(smc_lgr_wq, &lgr->linger,
					 lgr->server ? 0 : HZ);
		spin_unlock_bh(&lgr->lock);
	}
	mutex_unlock(&smc_lgr_mutex);
}
#endif

/*
 * After our DELETE LINK the links stay up this long: the peer ends its
 * connections on it and may send a last CDC message (an abort) for each,
 * which our QP must still acknowledge. Over Soft-RoCE a message to a QP
 * that is gone is retried for ever by a sender with retry count 7 (rxe
 * takes 7 for "infinite", as only the RNR count means it): Linux's smc.ko
 * then hangs in its link group teardown (smc_cdc_wait_pend_tx_wr()).
 */
#define SMC_LGR_NOTIFY_GRACE_MS	2000

/*
 * Tell the peer the link group is gone; wait until the message left, and
 * leave the peer time for its last messages.
 */
static void smc_lgr_notify_peer(struct smc_link_group *lgr)
{
	struct smc_link *lnk = smc_llc_link_pick(lgr);
	struct smc_llc_msg_info info = {
		.type = SMC_LLC_DELETE_LINK,
		.delete_link = {
			.all		= true,
			.orderly	= true,
			.reason		= SMC_LLC_DEL_PROG_INIT_TERM,
		},
	};

	if (!lnk || smc_llc_send(lnk, &info, true))
		return;
	wait_event_timeout(lnk->wr.tx_wait, !atomic_read(&lnk->wr.tx_posted),
			   msecs_to_jiffies(READ_ONCE(smc_llc_timeout_ms)));
	msleep(SMC_LGR_NOTIFY_GRACE_MS);
}

static void smc_lgr_free_work(struct work_struct *work)
{
	struct smc_link_group *lgr = container_of(work, struct smc_link_group,
						  free_work);
	struct smc_lgr_net *ln;
	bool leak = false;
	int i;

	cancel_delayed_work_sync(&lgr->linger);
	if (lgr->notify_peer)
		smc_lgr_notify_peer(lgr);
	smc_close_lgr_gone(lgr);		/* before the device goes */
	/*
	 * The flows that add and delete links end, their waits ending with
	 * the link group; then no LLC work is queued or runs any more. Links
	 * are set up and torn down by those alone (a handshake's RKey flow
	 * uses a link, which the teardown stops first)
	 */
	cancel_work_sync(&lgr->add_link_work);
	cancel_work_sync(&lgr->del_link_work);
	spin_lock_bh(&lgr->llc_rx_lock);
	lgr->llc_stopped = true;
	spin_unlock_bh(&lgr->llc_rx_lock);
	flush_workqueue(lgr->llc_wq);
	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (smc_link_teardown(&lgr->lnk[i]) || lgr->lnk[i].leaked)
			leak = true;
	destroy_workqueue(lgr->llc_wq);
	lgr->llc_wq = NULL;
	smc_llc_purge(lgr);
	/* the last use of the namespace: the release uses none */
	ln = net_generic(smc_lgr_net(lgr), smc_lgr_net_id);
	if (atomic_dec_and_test(&ln->lgrs))
		wake_up_all(&smc_lgr_net_wait);
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

/*
 * A new link group with its first link ACTIVATING on @offer's port,
 * pending, not listed; a connection counted, references for the list and
 * the caller.
 */
static struct smc_link_group *smc_lgr_alloc(struct net *net, bool server,
					    const struct smc_lgr_key *key,
					    const struct smc_offer *offer)
{
	struct smc_link_group *lgr;
	int rc;

	lgr = kzalloc(sizeof(*lgr), GFP_KERNEL);
	if (!lgr)
		return ERR_PTR(-ENOMEM);
	lgr->id = atomic_inc_return(&smc_lgr_next_id);
	lgr->rtok = kvzalloc(sizeof(*lgr->rtok), GFP_KERNEL);
	lgr->llc_wq = alloc_ordered_workqueue("smcr_llc%u", 0, lgr->id);
	if (!lgr->llc_wq || !lgr->rtok) {
		if (lgr->llc_wq)
			destroy_workqueue(lgr->llc_wq);
		smc_lgr_kfree(lgr);
		return ERR_PTR(-ENOMEM);
	}
	INIT_LIST_HEAD(&lgr->list);
	kref_init(&lgr->ref);		/* the list's */
	write_pnet(&lgr->net, net);
	lgr->server = server;
	/* a client learns the server's choice from CONFIRM LINK */
	lgr->rmbe_eyec = server && smc_conn_rmbe_eyec();
	lgr->key = *key;
	lgr->state = SMC_LGR_ST_PENDING;
	spin_lock_init(&lgr->lock);
	init_waitqueue_head(&lgr->wait);
	spin_lock_init(&lgr->llc_rx_lock);
	INIT_LIST_HEAD(&lgr->llc_rx);
	INIT_LIST_HEAD(&lgr->llc_later);
	mutex_init(&lgr->llc_flow_mutex);
	spin_lock_init(&lgr->rtok_lock);
	INIT_WORK(&lgr->llc_work, smc_llc_work);
	INIT_DELAYED_WORK(&lgr->linger, smc_lgr_linger_expired);
	INIT_WORK(&lgr->free_work, smc_lgr_free_work);
	INIT_WORK(&lgr->add_link_work, smc_llc_add_link_work);
	INIT_WORK(&lgr->del_link_work, smc_llc_del_link_work);
	lgr->add_link_next = jiffies;
	lgr->max_links = smc_tun(net, SMC_TUN_smcr_max_links_per_lgr);
	smc_buf_init(lgr);
	xa_init_flags(&lgr->conns_xa, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	smc_link_slots_init(lgr);
	if (server)
		lgr->lnk[0].link_id = 1;	/* the client learns it */
	rc = smc_link_init(&lgr->lnk[0], &offer->pick);
	if (rc) {
		destroy_workqueue(lgr->llc_wq);
		smc_lgr_kfree(lgr);
		return ERR_PTR(rc);
	}
	/* no buffers yet: nothing is mapped or registered here */
	smc_buf_link_map(&lgr->lnk[0]);
	smc_buf_link_register(&lgr->lnk[0]);
	lgr->conns = 1;
	kref_get(&lgr->ref);		/* the caller's */
	return lgr;
}

/**
 * smc_lgr_new() - a new link group, listed
 * @net: the connection's namespace
 * @server: our role
 * @key: the peer's end (struct smc_lgr_key)
 * @offer: our offer: the RoCE port and GID of the first link
 *
 * The link group is pending, with its first link ACTIVATING on @offer's
 * port, and on the list: connections with @key find it (contact.c).
 *
 * Context: process; sleeps; takes smc_lgr_mutex.
 * Return: the link group with a connection counted, references for the
 * list and the caller; or an ERR_PTR.
 */
struct smc_link_group *smc_lgr_new(struct net *net, bool server,
				   const struct smc_lgr_key *key,
				   const struct smc_offer *offer)
{
	struct smc_link_group *lgr;
	struct smc_lgr_net *ln;

	lgr = smc_lgr_alloc(net, server, key, offer);
	if (IS_ERR(lgr))
		return lgr;
	ln = net_generic(net, smc_lgr_net_id);
	atomic_inc(&ln->lgrs);
	mutex_lock(&smc_lgr_mutex);
	list_add_tail(&lgr->list, &smc_lgr_list);
	smc_lgr_gen++;
	mutex_unlock(&smc_lgr_mutex);
	return lgr;
}

/**
 * smc_lgr_conn_put() - a connection no longer uses a link group
 * @lgr: from smc_contact_find(), smc_contact_get() or smc_contact_create()
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
	idle = !--lgr->conns && !smc_lgr_terminating(lgr);
	if (idle)
		mod_delayed_work(smc_lgr_wq, &lgr->linger,
				 lgr->state == SMC_LGR_ST_RETIRED ? 0 : delay);
	spin_unlock_bh(&lgr->lock);
	smc_lgr_put(lgr);
}

/**
 * smc_lgr_retire() - a link group takes no new connection and ends with
 *	its last one
 * @lgr: a link group the caller holds a connection count on
 *
 * For a link group holding too much memory nobody can use (abandoned RMB
 * elements): its connections go on, new ones to the peer make a first
 * contact (a parallel link group, RFC 7609 3.5.2.2).
 */
void smc_lgr_retire(struct smc_link_group *lgr)
{
	spin_lock_bh(&lgr->lock);
	smc_lgr_transition(lgr, SMC_LGR_EV_RETIRE);
	spin_unlock_bh(&lgr->lock);
}

/*
 * Every link group of @net is torn down before its exit returns; those of
 * other namespaces are none of its business (a flush of smc_lgr_wq would
 * wait for their flows and teardowns too, and every namespace's exit on
 * the host after this one with it). No connection of @net is left.
 */
static void smc_lgr_net_exit(struct net *net)
{
	struct smc_lgr_net *ln = net_generic(net, smc_lgr_net_id);

	smc_lgr_event_net_exit(net);
	wait_event(smc_lgr_net_wait, !atomic_read(&ln->lgrs));
}

static struct pernet_operations smc_lgr_net_ops = {
	.exit = smc_lgr_net_exit,
	.id = &smc_lgr_net_id,
	.size = sizeof(struct smc_lgr_net),
};

/**
 * smc_lgr_walk() - call @fn for every listed link group, in list order
 * @fn: called under smc_lgr_mutex, so never under a link group's lock (it
 *	may take that; it must not take smc_lgr_mutex); a nonzero return
 *	ends the walk
 * @arg: passed to @fn
 * @gen: if not NULL, set to the list's generation, read under the same
 *	hold of smc_lgr_mutex: it changes whenever a link group is listed or
 *	unlisted
 *
 * A listed link group is not freed while @fn runs (the list holds a
 * reference); @fn takes one of its own (kref_get()) to use it afterwards.
 * Link groups are listed at the tail: the order is stable while others
 * come and go.
 *
 * Context: process; takes smc_lgr_mutex.
 * Return: the nonzero return of @fn that ended the walk, or 0.
 */
int smc_lgr_walk(int (*fn)(struct smc_link_group *lgr, void *arg),
		 void *arg, u32 *gen)
{
	struct smc_link_group *lgr;
	int rc = 0;

	mutex_lock(&smc_lgr_mutex);
	if (gen)
		*gen = smc_lgr_gen;
	list_for_each_entry(lgr, &smc_lgr_list, list) {
		rc = fn(lgr, arg);
		if (rc)
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
	smc_lgr_event_unload();
	flush_workqueue(smc_lgr_wq);
	unregister_pernet_subsys(&smc_lgr_net_ops);
	destroy_workqueue(smc_lgr_wq);
}
