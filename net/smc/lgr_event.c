// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: what ends a link group from outside its connections - a link that
 * failed, a RoCE port or device that goes, a namespace's exit, the
 * module's unload - and a port or device that comes (RFC 7609 2.3,
 * 4.8.3).
 *
 * A link that fails (smc_link_down(): a fatal QP event or work request
 * error, an unanswered TEST LINK) queues its down work, which decides: a
 * link being added that failed is taken away by its own flow; a confirmed
 * link of a link group with another active link goes to llc_del_link.c,
 * which deletes it if the link group can go on over the other one (2.3);
 * otherwise the link group ends, without DELETE LINK: no link is left to
 * send it over (4.8.3, loss of RoCE connectivity).
 *
 * A port that goes down (ib.c: IB_EVENT_PORT_ERR, or every port on
 * IB_EVENT_DEVICE_FATAL) takes its usable links down as lost paths
 * (smc_lgr_event_port_err()), through the same down work: the link group
 * goes on over a link on another port, else it ends. That is within
 * milliseconds of the device's event; a path lost where the port does
 * not see it waits for a work request error or an unanswered TEST LINK
 * (keepalive_ms + llc_timeout_ms, 35 s by default). A port that comes up
 * again is treated as a device that comes.
 *
 * A RoCE device that is removed takes its links with it: a link group
 * with an active link on another device loses only its links on this one
 * (orderly DELETE LINK), every other link group with a link on it ends
 * with DELETE LINK (all). A device that comes may give the link groups a
 * link on it (llc_del_link.c). A namespace's exit and the module's unload
 * end their link groups with DELETE LINK (all), 4.8.3's graceful
 * shutdown; lgr.c then waits for their teardown.
 *
 * Locking: the link groups are walked under smc_lgr_mutex (smc_lgr_walk(),
 * lgr.c). A termination takes that mutex itself, so a link group to end
 * is found in one walk, held by a reference, terminated after it, and the
 * walk starts again.
 */
#include "core.h"
#include "lgr.h"
#include "lgr_event.h"
#include "link.h"
#include "llc_del_link.h"
#include "llc_link.h"

/**
 * smc_lgr_event_link_down() - a link went down: delete it, or end its
 *	link group
 * @work: the link's down_work, queued by smc_link_down()
 */
void smc_lgr_event_link_down(struct work_struct *work)
{
	struct smc_link *lnk = container_of(work, struct smc_link, down_work);

	/* a link being added that failed: its flow takes it away */
	if (!lnk->confirmed && smc_llc_link_active_count(lnk->lgr))
		return;
	/* the link group goes on over its other links without this one */
	if (lnk->confirmed && smc_llc_del_link_queue(lnk->lgr))
		return;
	smc_lgr_terminate(lnk->lgr, false, "link down");
}

/* smc_lgr_event_terminate_if()'s walk: the first link group @match()es */
struct smc_lgr_event_match {
	bool			(*match)(struct smc_link_group *lgr,
					 const void *arg);
	const void		*arg;
	struct smc_link_group	*hit;
};

static int smc_lgr_event_find(struct smc_link_group *lgr, void *arg)
{
	struct smc_lgr_event_match *m = arg;

	if (!m->match(lgr, m->arg))
		return 0;
	m->hit = lgr;
	kref_get(&m->hit->ref);
	return 1;
}

/* Terminate every link group for which @match() is true. */
static void
smc_lgr_event_terminate_if(bool (*match)(struct smc_link_group *lgr,
					 const void *arg),
			   const void *arg, bool notify_peer, const char *why)
{
	struct smc_lgr_event_match m = { .match = match, .arg = arg };

	for (;;) {
		m.hit = NULL;
		smc_lgr_walk(smc_lgr_event_find, &m, NULL);
		if (!m.hit)
			return;
		smc_lgr_terminate(m.hit, notify_peer, why);
		smc_lgr_put(m.hit);
	}
}

static bool smc_lgr_event_on_dev(struct smc_link_group *lgr, const void *sdev)
{
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (lgr->lnk[i].sdev == sdev)
			return true;
	return false;
}

/* Has @lgr an active link on another device than @sdev? */
static bool smc_lgr_event_off_dev(struct smc_link_group *lgr,
				  const void *sdev)
{
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++)
		if (lgr->lnk[i].sdev != sdev &&
		    READ_ONCE(lgr->lnk[i].state) == SMC_LNK_ACTIVE)
			return true;
	return false;
}

/* A link group that cannot go on without @sdev */
static bool smc_lgr_event_only_dev(struct smc_link_group *lgr,
				   const void *sdev)
{
	return smc_lgr_event_on_dev(lgr, sdev) &&
	       !smc_lgr_event_off_dev(lgr, sdev);
}

/* Under smc_lgr_mutex: @lgr, if it has a link elsewhere, loses its links
 * on the device @arg
 */
static int smc_lgr_event_drop_dev(struct smc_link_group *lgr, void *arg)
{
	struct smc_ib_device *sdev = arg;
	int i;

	if (!smc_lgr_event_on_dev(lgr, sdev) ||
	    !smc_lgr_event_off_dev(lgr, sdev))
		return 0;
	for (i = 0; i < SMC_LGR_LINKS; i++) {
		struct smc_link *lnk = &lgr->lnk[i];

		if (lnk->sdev != sdev)
			continue;
		lnk->del_orderly = true;
		smc_link_down(lnk);
	}
	return 0;
}

/**
 * smc_lgr_event_dev_removed() - end every link group with a link on a
 *	device
 * @sdev: a device being removed
 *
 * The links drop their device references in the teardown work; the caller
 * waits for those.
 */
void smc_lgr_event_dev_removed(struct smc_ib_device *sdev)
{
	/* link groups with a link elsewhere lose only their links on it */
	smc_lgr_walk(smc_lgr_event_drop_dev, sdev, NULL);
	smc_lgr_event_terminate_if(smc_lgr_event_only_dev, sdev, true,
				   "RoCE device removed");
}

/* smc_lgr_event_port_err()'s walk: a device's port */
struct smc_lgr_event_port {
	const struct smc_ib_device	*sdev;
	u32				port;
};

/*
 * Under smc_lgr_mutex: @lgr's links on the port @arg go down. The slot's
 * device and port are set before it is ACTIVATING and cleared only after
 * it is INACTIVE (link.c), and smc_link_down() does nothing to a link in
 * any other state: one that failed or was deleted meanwhile is left
 * alone. del_orderly stays false: the path is lost, its DELETE LINK says
 * so (only a device removal, under this same mutex, sets it).
 */
static int smc_lgr_event_port_down(struct smc_link_group *lgr, void *arg)
{
	const struct smc_lgr_event_port *p = arg;
	int i;

	for (i = 0; i < SMC_LGR_LINKS; i++) {
		struct smc_link *lnk = &lgr->lnk[i];
		int state = READ_ONCE(lnk->state);

		if (state != SMC_LNK_ACTIVATING && state != SMC_LNK_ACTIVE)
			continue;
		if (lnk->sdev != p->sdev || lnk->port != p->port)
			continue;
		lnk->del_orderly = false;
		smc_link_down(lnk);
	}
	return 0;
}

/**
 * smc_lgr_event_port_err() - a device's port went down: its links too
 * @sdev: the device (the caller's: its port work, which the device's
 *	removal cancels before the entry goes)
 * @port: the port number (1-based)
 *
 * Every ACTIVATING or ACTIVE link on the port goes down (smc_link_down()):
 * a link group with another active link deletes just that one
 * (llc_del_link.c, DELETE LINK with "lost path", RFC 7609 3.5.5.1.3-4),
 * any other ends without DELETE LINK (4.8.3: no link is left to send it
 * over); a link being added is removed by its own flow.
 *
 * Context: process; takes smc_lgr_mutex.
 */
void smc_lgr_event_port_err(struct smc_ib_device *sdev, u32 port)
{
	struct smc_lgr_event_port p = { .sdev = sdev, .port = port };

	smc_lgr_walk(smc_lgr_event_port_down, &p, NULL);
}

/* Under smc_lgr_mutex */
static int smc_lgr_event_want_links(struct smc_link_group *lgr, void *arg)
{
	if (READ_ONCE(lgr->state) != SMC_LGR_ST_PENDING)
		smc_llc_add_link_offer(lgr);
	return 0;
}

/**
 * smc_lgr_event_dev_added() - a RoCE device or port came: link groups may
 *	get a link on it
 *
 * Context: process; takes smc_lgr_mutex (and, on a client, smc_ib_lock).
 */
void smc_lgr_event_dev_added(void)
{
	smc_lgr_walk(smc_lgr_event_want_links, NULL, NULL);
}

static bool smc_lgr_event_in_net(struct smc_link_group *lgr, const void *net)
{
	return net_eq(smc_lgr_net(lgr), (struct net *)net);
}

static bool smc_lgr_event_any(struct smc_link_group *lgr, const void *arg)
{
	return true;
}

/**
 * smc_lgr_event_net_exit() - end every link group of a namespace
 * @net: the namespace that exits
 *
 * With DELETE LINK (all). The caller waits for their teardown.
 */
void smc_lgr_event_net_exit(struct net *net)
{
	smc_lgr_event_terminate_if(smc_lgr_event_in_net, net, true,
				   "namespace exit");
}

/**
 * smc_lgr_event_unload() - end every link group
 *
 * With DELETE LINK (all). The caller waits for their teardown.
 *
 * Context: module unload, after the last socket is gone.
 */
void smc_lgr_event_unload(void)
{
	smc_lgr_event_terminate_if(smc_lgr_event_any, NULL, true,
				   "module unload");
}
