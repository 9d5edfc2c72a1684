// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: SMC-R version 2 in the CLC exchange - what a client proposes, which
 * version a server chooses, what each side checks of the other's message.
 * The message formats and the pure negotiation rules are in clc_v2.c.
 *
 * Over RoCE v2 (UDP/IP: Soft-RoCE, most NICs) Linux's in-tree SMC does
 * SMC-R only in version 2: its version 1 needs a RoCE v1 GID. Version 2
 * differs from version 1 in the CLC exchange only; links, LLC and CDC stay
 * those of RFC 7609, with the LLC framing of version 2 (llc_v2.c) and its
 * longer ADD LINK and REQ ADD LINK (llc_v2_link.c). The links a link group
 * may have are negotiated in release 1 (smcr_max_links_per_lgr on both
 * sides).
 *
 * Who can do version 2 (smc_hs_v2_local()): an IPv4 connection (Linux
 * offers v2 on AF_INET sockets only), a RoCE v2 port whose GID is the
 * IPv4-mapped local address, and at least one user EID in the namespace's
 * table (`smcr ueid add`): a v2 link group needs an EID both sides have.
 * The peer's version 2 GID must be its address on the TCP connection
 * (smc_hs_v2_gid_is_peer()).
 *
 * Version choice: the client proposes both versions it can; the server
 * takes version 2 when it can (an EID in common, a unicast route to the
 * client's v2 GID, release 1 limits that work), else version 1 (with its
 * common subnet rule, 3.5.1.2), else declines with the reason version 2
 * failed.
 *
 * Routed RoCE v2: the GIDs may be on different subnets with IPv4 routers
 * between them (smc_ib_v2_route()). Each side looks up its route to the
 * other's GID through its RoCE port: with a gateway, the link's frames go
 * to the router's MAC (taken from its neighbour entry when the link group
 * is made, not followed later) instead of the peer's CLC MAC. The server
 * says in the first contact extension whether it reaches the client
 * directly; as Linux's client does, the client takes the server's MAC
 * when it does, and declines with NOINDIRECT when the server claims a
 * router but the client has none. NOROUTE is for no route at all.
 *
 * The test hook test_clc_version makes a side offer and accept
 * only one version (1 or 2; 0, the default, is both), so that the version
 * 1 path stays tested on RoCE v2 devices and a version mismatch can be
 * produced.
 */
#include <linux/minmax.h>
#include <linux/smcr.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "core.h"
#include "smcr.h"
#include "test_hooks.h"

/**
 * smc_hs_v2_local() - can this side do SMC-R version 2 on a connection?
 * @smc: the socket; its clcsock is connected
 * @offer: our RoCE port for it (smc_offer_local())
 * @v2: filled: @possible, @v1, the namespace's user EIDs, our limits
 */
void smc_hs_v2_local(struct smc_sock *smc, const struct smc_offer *offer,
		     struct smc_hs_v2 *v2)
{
	unsigned int mode = smc_test(clc_version);

	memset(v2, 0, sizeof(*v2));
	v2->v1 = mode != SMC_CLC_V2;
	v2->why_not = SMC_CLC_DECL_VERSMISMAT;	/* test_clc_version=1 */
	v2->ours.release = SMC_CLC_RELEASE;
	v2->ours.max_conns = smc_tun(sock_net(&smc->sk),
				     SMC_TUN_smcr_max_conns_per_lgr);
	v2->ours.max_links = smc_tun(sock_net(&smc->sk),
				     SMC_TUN_smcr_max_links_per_lgr);
	if (mode == SMC_CLC_V1)
		return;
	v2->why_not = SMC_CLC_DECL_NOSMCRDEV;
	if (!offer->roce || !offer->pick.roce_v2 ||
	    smc->clcsock->sk->sk_family != AF_INET ||
	    !ipv6_addr_v4mapped((const struct in6_addr *)offer->gid))
		return;
	v2->ueid_cnt = smc_nl_ueids(sock_net(&smc->sk), v2->ueids);
	v2->possible = v2->ueid_cnt > 0;
	v2->why_not = v2->possible ? 0 : SMC_CLC_DECL_NOUEID;
}

/**
 * smc_hs_v2_propose() - the version 2 part of a client's Proposal
 * @v2: from smc_hs_v2_local()
 * @offer: our RoCE port
 * @prop: @smcr_v1 and @smcr_v2 set as @v2 allows; with version 2 its v2
 *	extension fields
 */
void smc_hs_v2_propose(const struct smc_hs_v2 *v2,
		       const struct smc_offer *offer,
		       struct smc_clc_proposal_info *prop)
{
	prop->smcr_v1 = v2->v1;
	prop->smcr_v2 = v2->possible;
	if (!v2->possible)
		return;
	prop->release = v2->ours.release;
	memcpy(prop->roce_v2_gid, offer->gid, SMC_GID_LEN);
	prop->max_conns = v2->ours.max_conns;
	prop->max_links = v2->ours.max_links;
	prop->eid_cnt = v2->ueid_cnt;
	memcpy(prop->eids, v2->ueids, v2->ueid_cnt * SMC_EID_LEN);
}

/*
 * A version 2 GID is the IPv4 address of its host's end of the TCP
 * connection (smcr takes the GID of the connection's source address;
 * Linux the first IPv4 RoCE v2 GID of the connection's interface, the
 * same unless the interface has more than one IPv4 address), so the
 * peer's must be the address the connection comes from. It names the
 * server's link group for the client: without this check any host
 * sharing one of its EIDs could name another client's GID, learn that
 * link group's QP and new RMB from the Accept, and end it with an
 * out-of-sync Decline.
 */
static bool smc_hs_v2_gid_is_peer(struct smc_sock *smc, const u8 *gid)
{
	struct in6_addr peer;

	ipv6_addr_set_v4mapped(smc->clcsock->sk->sk_daddr, &peer);
	return !memcmp(gid, &peer, SMC_GID_LEN);
}

/**
 * smc_hs_v2_choose() - does a server take version 2 for a Proposal?
 * @smc: the child socket
 * @offer: our RoCE port for the connection
 * @prop: the client's Proposal
 * @v2: from smc_hs_v2_local(); on success the EID, the limits agreed and
 *	the route to the client's GID (direct, or the router's MAC)
 *
 * Return: 0 if version 2 is chosen, else why not, as a Decline code:
 * MODEUNSUPP (not offered), why smc_hs_v2_local() found it impossible
 * here, NOUEID (no EID in common), NOSMCRDEV (the client's v2 GID is not
 * its address), NOROUTE (no unicast route to it through our port, or its
 * router's MAC unknown), MAXCONNERR or MAXLINKERR (release 1 limits).
 */
u32 smc_hs_v2_choose(struct smc_sock *smc, const struct smc_offer *offer,
		     const struct smc_clc_proposal_info *prop,
		     struct smc_hs_v2 *v2)
{
	/* the parser refuses a v2 offer without its extension */
	if (!prop->smcr_v2)
		return SMC_CLC_DECL_MODEUNSUPP;
	if (!v2->possible)
		return v2->why_not;
	if (smc_clc_v2_eid_match(prop, v2->ueids[0], v2->ueid_cnt, v2->eid))
		return SMC_CLC_DECL_NOUEID;
	if (!smc_hs_v2_gid_is_peer(smc, prop->roce_v2_gid))
		return SMC_CLC_DECL_NOSMCRDEV;
	if (smc_ib_v2_route(sock_net(&smc->sk), &offer->pick,
			    prop->roce_v2_gid, &v2->route))
		return SMC_CLC_DECL_NOROUTE;
	return smc_clc_v2_server_limits(prop, &v2->ours, &v2->agreed);
}

static bool smc_hs_v2_eid_ours(const struct smc_hs_v2 *v2, const u8 *eid)
{
	int i;

	for (i = 0; i < v2->ueid_cnt; i++)
		if (!memcmp(v2->ueids[i], eid, SMC_EID_LEN))
			return true;
	return false;
}

/**
 * smc_hs_v2_accepted() - may a client go on with the server's Accept?
 * @smc: the socket
 * @offer: our RoCE port
 * @acc: the Accept
 * @v2: what we proposed; for a version 2 Accept it takes the EID and, on
 *	first contact, the limits and the peer's OS type
 *
 * Return: 0, or the Decline code: VERSMISMAT for a version we did not
 * propose, NOUEID for an EID not ours, NOSMCRDEV if the server's GID is
 * not its address, NOROUTE if we have no route to it (smc_ib_v2_route()),
 * NOINDIRECT if the server claims a router where we reach it directly,
 * RELEASEERR / MAXCONNERR / MAXLINKERR (release 1).
 */
u32 smc_hs_v2_accepted(struct smc_sock *smc, const struct smc_offer *offer,
		       const struct smc_clc_accept_info *acc,
		       struct smc_hs_v2 *v2)
{
	if (acc->version == SMC_CLC_V1)
		return v2->v1 ? 0 : SMC_CLC_DECL_VERSMISMAT;
	if (!v2->possible)
		return SMC_CLC_DECL_VERSMISMAT;
	if (!smc_hs_v2_eid_ours(v2, acc->v2.eid))
		return SMC_CLC_DECL_NOUEID;
	memcpy(v2->eid, acc->v2.eid, SMC_EID_LEN);
	/*
	 * A subsequent contact names a link of a link group we have, maybe
	 * one the ADD LINK flow added on another port: the handshake checks
	 * that the link group is this server's (struct smc_lgr_key)
	 */
	if (!acc->first_contact)
		return 0;
	if (!smc_hs_v2_gid_is_peer(smc, acc->gid))
		return SMC_CLC_DECL_NOSMCRDEV;
	/*
	 * The server's first contact extension says whether it reaches us
	 * without a router. If it does, the link's frames go to its MAC
	 * whatever our route says (or whether we have one yet: a router's
	 * MAC still unresolved), as Linux's client takes them; if it does
	 * not, ours must go through a router as well.
	 */
	if (acc->v2.v2_direct) {
		memset(&v2->route, 0, sizeof(v2->route));
		v2->route.direct = true;
	} else if (smc_ib_v2_route(sock_net(&smc->sk), &offer->pick, acc->gid,
				   &v2->route)) {
		return SMC_CLC_DECL_NOROUTE;
	} else if (v2->route.direct) {
		return SMC_CLC_DECL_NOINDIRECT;
	}
	v2->peer_os = acc->v2.os_type;
	return smc_clc_v2_client_limits(&acc->v2, &v2->ours, &v2->agreed);
}

/**
 * smc_hs_v2_fill() - the version 2 part of our Accept or Confirm
 * @v2: the negotiation's state
 * @lnk: the link the message names
 * @confirm: a Confirm (it lists our GIDs on first contact)
 * @info: its @version and @first_contact are set; @v2 is filled
 */
void smc_hs_v2_fill(const struct smc_hs_v2 *v2, const struct smc_link *lnk,
		    bool confirm, struct smc_clc_accept_info *info)
{
	struct smc_clc_v2_info *out = &info->v2;

	memset(out, 0, sizeof(*out));
	if (info->version != SMC_CLC_V2)
		return;
	memcpy(out->eid, v2->eid, SMC_EID_LEN);
	if (!info->first_contact)
		return;
	out->has_fce = true;
	out->os_type = SMC_CLC_OS_LINUX;
	out->release = v2->agreed.release;
	out->v2_direct = v2->route.direct;
	out->max_conns = v2->agreed.max_conns;
	out->max_links = v2->agreed.max_links;
	if (confirm && lnk) {
		out->gid_cnt = 1;
		memcpy(out->gids[0], lnk->local.gid, SMC_GID_LEN);
	}
}

/**
 * smc_hs_v2_confirmed() - does the client's Confirm fit our Accept?
 * @v2: the server's negotiation state; takes the peer's OS type
 * @conf: the Confirm, of the Accept's version
 *
 * Return: 0, or the Decline code: NOUEID if it names another EID,
 * RELEASEERR / MAXCONNERR / MAXLINKERR if its first contact extension does
 * not echo the Accept's.
 */
u32 smc_hs_v2_confirmed(struct smc_hs_v2 *v2,
			const struct smc_clc_accept_info *conf)
{
	if (conf->version != SMC_CLC_V2)
		return 0;
	if (memcmp(conf->v2.eid, v2->eid, SMC_EID_LEN))
		return SMC_CLC_DECL_NOUEID;
	if (!conf->v2.has_fce)
		return 0;
	v2->peer_os = conf->v2.os_type;
	return smc_clc_v2_confirm_check(&conf->v2, &v2->agreed);
}

/**
 * smc_hs_v2_lgr_init() - record what a version 2 first contact agreed on
 * @lgr: the new link group, still pending
 * @v2: the negotiation's state
 */
void smc_hs_v2_lgr_init(struct smc_link_group *lgr,
			const struct smc_hs_v2 *v2)
{
	lgr->v2.release = v2->agreed.release;
	lgr->v2.max_conns = v2->agreed.max_conns;
	lgr->v2.peer_os = v2->peer_os;
	lgr->v2.direct = v2->route.direct;
	memcpy(lgr->v2.nexthop_mac, v2->route.nexthop_mac, ETH_ALEN);
	memcpy(lgr->v2.eid, v2->eid, SMC_EID_LEN);
	/*
	 * Through a router, one link: another link's port would need its
	 * own route and router (ADD LINK takes ports that reach the peer
	 * directly), and the link group has one router's MAC
	 */
	WRITE_ONCE(lgr->max_links, v2->route.direct ?
		   min(lgr->max_links, v2->agreed.max_links) : 1);
}
