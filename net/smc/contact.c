// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the link group a new connection uses - found by its key, or made
 * by its first contact, one at a time (RFC 7609 3.5.1, 3.5.2, 3.5.3).
 *
 * A link group is keyed by (network namespace, our role, the peer's peer
 * ID, VLAN) plus the peer's GID and MAC on its link, and both ends of its
 * first contact's TCP connection (struct smc_lgr_key: only those are
 * proven): a connection to the same peer over the same RoCE path between
 * the same addresses reuses it ("subsequent contact"), any other one
 * creates a new one ("first contact"). Link groups are never shared
 * across namespaces.
 *
 * A link group is listed from its creation on, "pending" while its first
 * contact runs: a connection claiming the same key that comes meanwhile
 * waits until the first contact ended (smc_contact_first_done()), then
 * uses the link group or, if it failed, makes its own - so two
 * simultaneous connections to a new peer end up in one link group, not
 * two. Nothing else waits for a peer: a peer that stalls its first contact
 * stalls only the connections claiming its key. A server creates link
 * groups one at a time (smc_contact_create_mutex, held for device work
 * only) and has at most SMC_CONTACT_PENDING_MAX pending per namespace, so
 * that peers that never finish their first contacts cannot take all the
 * links a device has. A full link group (a version 2 server's limit of
 * connections, smc_contact_full()) or a retired one (smc_lgr_retire())
 * takes no new connection: a server makes a parallel link group with the
 * same key instead (3.5.3).
 *
 * Link groups are allocated, listed and ended by lgr.c; this file looks
 * them up through its walk (smc_lgr_walk()).
 *
 * Locking: the walk holds smc_lgr_mutex, the lookup takes lgr->lock under
 * it. smc_contact_create_mutex (taken before smc_lgr_mutex) serializes a
 * server's lookup, allocation and listing of a new link group. No lock is
 * held while a connection waits for another one's first contact.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/ipv6.h>
#include <net/net_namespace.h>

#include "contact.h"
#include "core.h"
#include "lgr.h"
#include "llc_link.h"
#include "smcr.h"

static DEFINE_MUTEX(smc_contact_create_mutex);

/*
 * Server link groups in their first contact, at most, per namespace: each
 * holds a link (of the namespace's max_links_per_netns) for up to
 * clc_timeout_ms while its client may never send the Confirm. Beyond it a
 * first contact is declined (SMC_CLC_DECL_MEM: the client falls back to
 * TCP); subsequent contacts are not limited.
 */
#define SMC_CONTACT_PENDING_MAX	8

/*
 * Does @lgr have the peer end @key names? Under lgr->lock. Both ends of
 * the TCP connection must be those of its first contact (struct
 * smc_lgr_key), unless @key->any_addr. A server's key is the client's
 * first link's, from its Proposal. A client's comes from
 * the Accept, which names the link the server chose for the connection:
 * any active link of the link group may match, and with @key->peer_qpn
 * only the link with that QP - a server may run several link groups with
 * the same key (smc_contact_full(); Linux's smcr_max_conns_per_lgr). A first
 * contact still pending matches by the key alone: the server may see its
 * link ACTIVE before we do, and the connection waits for it.
 */
static bool smc_contact_key_match(struct smc_link_group *lgr,
				  const struct smc_lgr_key *key)
{
	const struct smc_lgr_key *a = &lgr->key;
	bool first_link;
	int i;

	if (a->vlan_id != key->vlan_id || a->version != key->version ||
	    memcmp(a->peer_id, key->peer_id, SMC_PEER_ID_LEN))
		return false;
	if (!key->any_addr &&
	    (!ipv6_addr_equal(&a->peer_addr, &key->peer_addr) ||
	     !ipv6_addr_equal(&a->local_addr, &key->local_addr) ||
	     a->scope != key->scope))
		return false;
	first_link = !memcmp(a->peer_gid, key->peer_gid, SMC_GID_LEN) &&
		     !memcmp(a->peer_mac, key->peer_mac, SMC_MAC_LEN);
	if (lgr->server)
		return first_link;
	if (first_link && (lgr->state == SMC_LGR_ST_PENDING || !key->peer_qpn))
		return first_link;
	for (i = 0; i < SMC_LGR_LINKS; i++) {
		const struct smc_link *lnk = &lgr->lnk[i];

		/* the peer's values are set before the link turns ACTIVE */
		if (smp_load_acquire(&lnk->state) == SMC_LNK_ACTIVE &&
		    !memcmp(lnk->peer.gid, key->peer_gid, SMC_GID_LEN) &&
		    !memcmp(lnk->peer.mac, key->peer_mac, SMC_MAC_LEN) &&
		    (!key->peer_qpn || lnk->peer.qpn == key->peer_qpn))
			return true;
	}
	return false;
}

/*
 * A server puts no more connections on a version 2 link group than the
 * first contact negotiated (clc_v2.c); the next one makes a new link group
 * (first contact) with the same key. A client goes where the server's
 * Accept says (smc_contact_key_match()).
 */
static bool smc_contact_full(const struct smc_link_group *lgr)
{
	return lgr->server && lgr->v2.max_conns &&
	       lgr->conns >= lgr->v2.max_conns;
}

/* What smc_contact_lookup() and smc_contact_known() look for, and found */
struct smc_contact_query {
	const struct net		*net;
	bool				server;
	const struct smc_lgr_key	*key;
	bool				pending;
	unsigned int			n_pending;
	struct smc_link_group		*found;
};

/* smc_contact_lookup()'s walk, under smc_lgr_mutex */
static int smc_contact_lookup_one(struct smc_link_group *lgr, void *arg)
{
	struct smc_contact_query *q = arg;
	bool use, wait;

	if (!net_eq(smc_lgr_net(lgr), q->net) || lgr->server != q->server)
		return 0;
	spin_lock_bh(&lgr->lock);
	q->n_pending += lgr->state == SMC_LGR_ST_PENDING;
	if (!smc_contact_key_match(lgr, q->key)) {
		spin_unlock_bh(&lgr->lock);
		return 0;
	}
	wait = lgr->state == SMC_LGR_ST_PENDING;
	use = lgr->state == SMC_LGR_ST_ACTIVE &&
	      smc_llc_link_active_count(lgr) && !smc_contact_full(lgr);
	if (use)
		lgr->conns++;
	if (use || wait)
		kref_get(&lgr->ref);
	spin_unlock_bh(&lgr->lock);
	if (!use && !wait)
		return 0;	/* its link is down: it ends soon */
	/* under smc_lgr_mutex, so the linger work sees the count */
	if (use)
		cancel_delayed_work(&lgr->linger);
	q->pending = wait;
	q->found = lgr;
	return 1;
}

/*
 * The listed link group with @key, with a reference held: one a new
 * connection can use (counted in it, *@pending false), or one whose first
 * contact runs (*@pending true). NULL if there is neither; then, if
 * @n_pending, it is set to the number of pending link groups of @server's
 * role in @net.
 */
static struct smc_link_group *smc_contact_lookup(const struct net *net,
						 bool server,
						 const struct smc_lgr_key *key,
						 bool *pending,
						 unsigned int *n_pending)
{
	struct smc_contact_query q = {
		.net	= net,
		.server	= server,
		.key	= key,
	};

	smc_lgr_walk(smc_contact_lookup_one, &q, NULL);
	if (q.found)
		*pending = q.pending;
	if (n_pending)
		*n_pending = q.n_pending;
	return q.found;
}

/* After smc_lgr_new(): a removal that ran before it did not see us */
static void smc_contact_check_dev(struct smc_link_group *lgr,
				  const struct smc_offer *offer)
{
	if (!smc_ib_listed(offer->pick.sdev))
		smc_lgr_terminate(lgr, false, "RoCE device removed");
}

/**
 * smc_contact_create() - a new link group for a first contact the server
 *	asked for
 * @net: the connection's namespace
 * @server: our role (a client's: a server uses smc_contact_get())
 * @key: the peer's end: peer ID, RoCE GID and MAC, VLAN, and both ends
 *	of the TCP connection
 * @offer: our offer: the RoCE port and GID of the link
 *
 * Does not look for one with @key: the server decided. The link group is
 * listed, pending with its link ACTIVATING: connections with the same key
 * wait for it in smc_contact_find() until the caller ends the first contact
 * with smc_contact_first_done().
 *
 * Context: process; sleeps.
 * Return: the link group with a connection counted and a reference held
 * (release with smc_lgr_conn_put()), or an ERR_PTR.
 */
struct smc_link_group *smc_contact_create(struct net *net, bool server,
					  const struct smc_lgr_key *key,
					  const struct smc_offer *offer)
{
	struct smc_link_group *lgr;

	lgr = smc_lgr_new(net, server, key, offer);
	if (!IS_ERR(lgr))
		smc_contact_check_dev(lgr, offer);
	return lgr;
}

/*
 * How long a connection waits for another one's first contact: as long as
 * that can take - the CLC wait for the Confirm, up to two LLC waits for a
 * send buffer while registering the RMB (buf.c), the CONFIRM LINK wait -
 * and a second to spare. Every end of a first contact wakes the waiters;
 * this only bounds a wait for a creator that went wrong.
 */
static unsigned long smc_contact_pending_timeout(void)
{
	return msecs_to_jiffies(READ_ONCE(smc_clc_timeout_ms) +
				3 * READ_ONCE(smc_llc_timeout_ms)) + HZ;
}

static bool smc_contact_settled(struct smc_link_group *lgr)
{
	bool settled;

	spin_lock_bh(&lgr->lock);
	settled = lgr->state != SMC_LGR_ST_PENDING;
	spin_unlock_bh(&lgr->lock);
	return settled;
}

/* Under smc_contact_create_mutex: a new link group, listed */
static struct smc_link_group *
smc_contact_create_locked(struct net *net, bool server,
			  const struct smc_lgr_key *key,
			  const struct smc_offer *offer, unsigned int n_pending)
{
	lockdep_assert_held(&smc_contact_create_mutex);
	if (n_pending >= SMC_CONTACT_PENDING_MAX) {
		pr_info_ratelimited("%u first contacts pending, declining another\n",
				    n_pending);
		return ERR_PTR(-EBUSY);
	}
	return smc_lgr_new(net, server, key, offer);
}

/*
 * smc_contact_find() and smc_contact_get(): with @offer NULL, find only.
 * Never holds a lock while it waits.
 */
static struct smc_link_group *
smc_contact_find_or_create(struct net *net, bool server,
			   const struct smc_lgr_key *key,
			   const struct smc_offer *offer, bool *first)
{
	unsigned long deadline = jiffies + smc_contact_pending_timeout();
	struct smc_link_group *lgr;
	unsigned int n_pending;
	bool pending = false;
	long left;

	*first = false;
	for (;;) {
		lgr = smc_contact_lookup(net, server, key, &pending, NULL);
		if (!lgr && offer) {
			/* look again, and create: one at a time */
			mutex_lock(&smc_contact_create_mutex);
			lgr = smc_contact_lookup(net, server, key, &pending,
						 &n_pending);
			if (!lgr) {
				lgr = smc_contact_create_locked(net, server,
								key, offer,
								n_pending);
				*first = !IS_ERR(lgr);
			}
			mutex_unlock(&smc_contact_create_mutex);
			if (*first)
				smc_contact_check_dev(lgr, offer);
			if (IS_ERR(lgr) || *first)
				return lgr;
		}
		if (!lgr || !pending)
			return lgr;
		/* another connection's first contact with this key runs */
		left = deadline - jiffies;
		if (left > 0)
			left = wait_event_idle_timeout(lgr->wait,
						       smc_contact_settled(lgr),
						       left);
		smc_lgr_put(lgr);
		if (left <= 0)
			return ERR_PTR(-ETIMEDOUT);
	}
}

/**
 * smc_contact_find() - the link group a subsequent contact names
 * @net: the connection's namespace
 * @server: our role
 * @key: the peer's end: peer ID, RoCE GID and MAC, VLAN, and both ends
 *	of the TCP connection
 *
 * If another connection's first contact with @key runs, waits until it
 * ended (at most as long as one can take).
 *
 * Context: process; sleeps.
 * Return: the link group with a connection counted and a reference held
 * (release with smc_lgr_conn_put()), NULL if there is none, or
 * ERR_PTR(-ETIMEDOUT).
 */
struct smc_link_group *smc_contact_find(struct net *net, bool server,
					const struct smc_lgr_key *key)
{
	bool first;

	return smc_contact_find_or_create(net, server, key, NULL, &first);
}

/**
 * smc_contact_get() - the link group for a new connection: found, or created
 * @net: the connection's namespace
 * @server: our role
 * @key: the peer's end: peer ID, RoCE GID and MAC, VLAN, and both ends
 *	of the TCP connection
 * @offer: our offer: the RoCE port and GID of a new link group's link
 * @first: set if the link group is new: the caller runs its first contact
 *	and ends it with smc_contact_first_done()
 *
 * Waits for another connection's first contact with @key, as
 * smc_contact_find(); creates a link group as smc_contact_create() if
 * there is none (or that first contact failed), unless
 * SMC_CONTACT_PENDING_MAX first contacts of @server's role are pending in
 * @net.
 *
 * Context: process; sleeps.
 * Return: the link group with a connection counted and a reference held
 * (release with smc_lgr_conn_put()), or an ERR_PTR: -EBUSY (too many
 * pending, or the device has no room for another link), -ETIMEDOUT, ...
 */
struct smc_link_group *smc_contact_get(struct net *net, bool server,
				       const struct smc_lgr_key *key,
				       const struct smc_offer *offer,
				       bool *first)
{
	return smc_contact_find_or_create(net, server, key, offer, first);
}

/* smc_contact_known()'s walk, under smc_lgr_mutex */
static int smc_contact_known_one(struct smc_link_group *lgr, void *arg)
{
	struct smc_contact_query *q = arg;
	bool found;

	if (!net_eq(smc_lgr_net(lgr), q->net) || lgr->server != q->server)
		return 0;
	spin_lock_bh(&lgr->lock);
	found = smc_contact_key_match(lgr, q->key);
	spin_unlock_bh(&lgr->lock);
	return found;
}

/**
 * smc_contact_known() - is there a link group with @key at all?
 * @net: the namespace
 * @server: our role
 * @key: the peer's end; with @key->any_addr, between any addresses
 *
 * Looks without waiting for a first contact and without counting a
 * connection: for a decision, not for use.
 *
 * Context: process; takes smc_lgr_mutex.
 * Return: true if one is listed, in any state.
 */
bool smc_contact_known(struct net *net, bool server,
		       const struct smc_lgr_key *key)
{
	struct smc_contact_query q = {
		.net	= net,
		.server	= server,
		.key	= key,
	};

	return smc_lgr_walk(smc_contact_known_one, &q, NULL);
}

/**
 * smc_contact_first_done() - a link group's first contact ended
 * @lgr: from smc_contact_create() or smc_contact_get() with *first set
 *
 * Call after terminating @lgr if the first contact failed: the
 * connections waiting for it then make their own.
 *
 * Context: process.
 */
void smc_contact_first_done(struct smc_link_group *lgr)
{
	bool up = smc_llc_link_active_count(lgr);

	spin_lock_bh(&lgr->lock);
	smc_lgr_transition(lgr, SMC_LGR_EV_FIRST_DONE);
	if (up)
		lgr->type = SMC_LGR_SINGLE;
	spin_unlock_bh(&lgr->lock);
	wake_up_all(&lgr->wait);
	if (up && lgr->server)
		smc_llc_add_link_queue(lgr);
}

