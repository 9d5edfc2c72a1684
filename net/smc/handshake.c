// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the CLC exchange on the clcsock (RFC 7609, 3.5).
 *
 * Runs in a worker after the TCP handshake showed that both sides offered
 * SMC, and before the application may touch the connection: the client's
 * once its TCP connect completes, the server's before accept() returns the
 * connection.
 *
 *   client                               server
 *   Proposal (or Decline)  ---------->
 *                          <----------   Accept (or Decline)
 *   Confirm (or Decline)   ---------->
 *
 * Framing: every message is read exactly to the length its header
 * announces, never further, so TCP data the peer sends right after its
 * last CLC message - e.g. a client writing as soon as its Confirm is out,
 * the race of 3.5.2.4 - stays in the stream for the application, byte for
 * byte.
 *
 * Outcomes: a side that cannot do SMC-R sends a Decline in place of the
 * message it owes, and both sides continue over TCP (Appendix C.1). That is
 * only safe while the peer is certain to read a CLC message next, so:
 *   - a Decline may replace the Proposal, the Accept or the Confirm, never
 *     follow an Accept or a Confirm (C.3: the server cannot decline after
 *     its Accept, the client not after its Confirm);
 *   - a message whose header cannot be trusted (eye catcher, length), a
 *     peer that stays silent past clc_timeout_ms, or a reset ends the
 *     connection: the stream position is unknown, so no fallback.
 * Appendix C scenarios and where they are handled:
 *   C.1 Decline during CLC: smc_hs_peer_declined() on either side,
 *       smc_hs_decline() for ours, in place of Proposal/Accept/Confirm.
 *   C.2 Decline during LLC: a server whose first link cannot be confirmed
 *       declines (TIMEOUT_CL) after the Confirm; the client waiting for
 *       CONFIRM LINK notices the CLC message and falls back too.
 *   C.3 Decline window: enforced by construction below (the server drops
 *       the connection if something other than Confirm/Decline follows its
 *       Accept). On a subsequent contact the server decides everything
 *       its Accept depends on before sending it; whatever fails after it
 *       (the client's Confirm names another GID, MAC or QP, an unusable
 *       RMB element, no Confirm in time) resets the connection, and the
 *       RMB element the Accept named stays out of use until the link
 *       group ends (smc_buf_abandon()): the client may already be writing
 *       into it (3.5.2.4).
 *   C.4 Out of sync: a client whose server claims a subsequent contact
 *       on a link it does not know declines with the S-bit (A.2.5); a
 *       server whose client confirms a reused link with another QP ends
 *       that link group (it cannot decline any more). A Decline with the
 *       S-bit ends the link group the exchange named (smc_hs_out_of_sync());
 *       one in place of the Proposal or the Accept names none.
 *
 * The link (RFC 7609 3.5.1): the server's Accept names the link group's
 * QP - a new one in INIT on first contact, the active link's on subsequent
 * contact (the F bit says which). On first contact the client brings its
 * new QP to RTR and confirms; the server then brings its QP up and runs
 * CONFIRM LINK (llc.c). A connection that finds another one's first
 * contact with the same peer running waits for it (contact.c), so
 * simultaneous connections to a new peer share one link group.
 *
 * The buffers: each side's Accept or Confirm names its RMB element
 * (conn.c); the RMB's rkey is made valid once the link can send, before
 * the peer may write - on first contact right after RTS, before CONFIRM
 * LINK completes. After that the connection moves its data over SMC-R.
 *
 * With the parameter data_path=N (both peers) the server instead declines
 * with ERR_REGBUF right after the link is confirmed or reused - the C.2
 * position - and both sides continue over TCP; the client reads that
 * Decline after its Confirm, or after CONFIRM LINK.
 *
 * With the test-only parameter test_fake_offer a side makes up an offer
 * without a RoCE port: a client then declines the Accept (ERR_RDYLNK), a
 * server accepts without a link and expects the client's Decline.
 */
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/smcr.h>
#include <linux/uio.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "buf.h"
#include "conn.h"
#include "contact.h"
#include "core.h"
#include "lgr.h"
#include "link.h"
#include "llc_engine.h"
#include "llc_link.h"
#include "llc_rkey.h"
#include "smcr.h"
#include "test_hooks.h"

static bool smc_data_path = true;
module_param_named(data_path, smc_data_path, bool, 0644);
MODULE_PARM_DESC(data_path,
		 "Move data over SMC-R once the link is up (N: continue over TCP after the link; both peers must agree; default Y)");

/**
 * smc_hs_wanted() - does the connection go through the CLC exchange?
 * @smc: socket whose clcsock just connected
 *
 * Return: true if both sides offered SMC in the TCP handshake (or the
 * test hook test_clc_without_option is set).
 */
bool smc_hs_wanted(const struct smc_sock *smc)
{
	return smc_clcsock_peer_smc(smc) || smc_test(clc_without_option);
}

/* Everything one exchange needs; too big for a worker's stack. */
struct smc_hs {
	u8	buf[SMC_CLC_MAX_LEN];
	struct smc_offer			offer;
	struct smc_hs_v2			v2;
	u8					version;
	union {
		struct smc_clc_proposal_info	prop;
		struct smc_clc_accept_info	acc;
		struct smc_clc_decline_info	dcl;
	};
};

static bool smc_clc_readable(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;

	return smc_listen_hs_aborted(smc) ||
	       !skb_queue_empty_lockless(&clcsk->sk_receive_queue) ||
	       READ_ONCE(clcsk->sk_err) ||
	       (READ_ONCE(clcsk->sk_shutdown) & RCV_SHUTDOWN) ||
	       READ_ONCE(clcsk->sk_state) == TCP_CLOSE;
}

/* Read exactly @len bytes from the clcsock before @deadline (jiffies). */
static int smc_clc_read(struct smc_sock *smc, void *buf, size_t len,
			unsigned long deadline)
{
	struct socket *clcsock = smc->clcsock;
	struct msghdr msg = {};
	size_t got = 0;
	struct kvec iov;
	long left;
	int rc;

	while (got < len) {
		if (smc_listen_hs_aborted(smc))
			return -ECONNABORTED;
		iov.iov_base = (u8 *)buf + got;
		iov.iov_len = len - got;
		rc = kernel_recvmsg(clcsock, &msg, &iov, 1, len - got,
				    MSG_DONTWAIT);
		if (rc > 0) {
			got += rc;
			continue;
		}
		if (rc == 0)
			return -ECONNRESET;
		if (rc != -EAGAIN)
			return rc;
		left = (long)(deadline - jiffies);
		if (left <= 0)
			return -ETIMEDOUT;
		rc = wait_event_interruptible_timeout(clcsock->wq.wait,
						      smc_clc_readable(smc),
						      left);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int smc_clc_send(struct smc_sock *smc, const void *buf, size_t len)
{
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
	struct kvec iov = { .iov_base = (void *)buf, .iov_len = len };
	int rc;

	rc = kernel_sendmsg(smc->clcsock, &msg, &iov, 1, len);
	if (rc < 0)
		return rc;
	return rc == len ? 0 : -EPIPE;
}

/*
 * Receive one CLC message into @buf (SMC_CLC_MAX_LEN bytes): the header,
 * then exactly the rest of its announced length.
 * Return: the message length, or a negative errno (connection unusable).
 */
static int smc_clc_recv(struct smc_sock *smc, u8 *buf)
{
	unsigned long deadline;
	struct smc_clc_hdr *hdr = (struct smc_clc_hdr *)buf;
	size_t len;
	int rc;

	deadline = jiffies + msecs_to_jiffies(READ_ONCE(smc_clc_timeout_ms));
	rc = smc_clc_read(smc, hdr, sizeof(*hdr), deadline);
	if (rc)
		return rc;
	if (smc_clc_hdr_check(hdr))
		return -EPROTO;
	len = be16_to_cpu(hdr->length);
	rc = smc_clc_read(smc, hdr + 1, len - sizeof(*hdr), deadline);
	if (rc)
		return rc;
	if (smc_clc_trailer_check(buf, len))
		return -EPROTO;
	return len;
}

/*
 * Send our Decline with @code, with the S-bit if @out_of_sync, and fall
 * back (the peer reads CLC next).
 */
static int smc_hs_send_decline(struct smc_sock *smc, u32 code,
			       bool out_of_sync)
{
	struct smc_clc_decline dcl;
	u8 peer_id[SMC_PEER_ID_LEN];
	size_t len;
	int rc;

	smc_peer_id_get(peer_id);
	len = smc_clc_decline_build(&dcl, peer_id, code, out_of_sync);
	rc = smc_clc_send(smc, &dcl, len);
	if (rc)
		return rc;
	smc_sock_set_fallback(smc, code, 0);
	return 0;
}

static int smc_hs_decline(struct smc_sock *smc, u32 code)
{
	return smc_hs_send_decline(smc, code, false);
}

/*
 * The peer's contact contradicts our link groups (C.4): decline with the
 * S-bit (A.2.5), which asks the peer to end the link group it meant.
 */
static int smc_hs_decline_out_of_sync(struct smc_sock *smc)
{
	return smc_hs_send_decline(smc, SMC_CLC_DECL_SYNCERR, true);
}

/*
 * The peer sent a Decline in @hs->buf: fall back with its diagnosis.
 * Whoever named a link group in this exchange acts on its S-bit
 * (hs->dcl.out_of_sync) with smc_hs_out_of_sync().
 */
static int smc_hs_peer_declined(struct smc_sock *smc, struct smc_hs *hs,
				int len)
{
	if (smc_clc_decline_parse(hs->buf, len, &hs->dcl))
		return -EPROTO;
	smc_sock_set_fallback(smc, SMC_CLC_DECL_PEERDECL, hs->dcl.diagnosis);
	return 0;
}

/*
 * The peer declined with the S-bit after this exchange named @lgr: "the
 * link group is out of sync and the receiving peer must clean up its
 * representation of the link group" (A.2.5). End it - DELETE LINK tells
 * the peer, in case it has its own stale end of it - so that the next
 * connection with this peer makes a first contact.
 */
static void smc_hs_out_of_sync(struct smc_link_group *lgr)
{
	smc_lgr_terminate(lgr, true, "peer declined: out of sync (S-bit)");
}

static u8 smc_hs_type(const struct smc_hs *hs)
{
	return ((const struct smc_clc_hdr *)hs->buf)->type;
}

/* Our end of @lnk as the Accept or Confirm carries it */
static void smc_hs_link_info(struct smc_clc_accept_info *info,
			     const struct smc_link *lnk)
{
	memset(info, 0, sizeof(*info));
	smc_peer_id_get(info->peer_id);
	memcpy(info->gid, lnk->local.gid, SMC_GID_LEN);
	memcpy(info->mac, lnk->local.mac, SMC_MAC_LEN);
	info->qpn = lnk->local.qpn;
	info->psn = lnk->local.psn;
	info->mtu_code = lnk->local.mtu;
}

/* Abort a wait for LLC when a CLC message (a Decline, C.2) arrives */
static bool smc_hs_clc_pending(void *arg)
{
	return smc_clc_readable(arg);
}

/*
 * With data_path=N the server ends every handshake with a Decline right
 * after the link is confirmed or reused, and a first contact can end with
 * one during CONFIRM LINK (C.2); read it. Its S-bit ends @lgr, the link
 * group the exchange used.
 */
static int smc_hs_client_final(struct smc_sock *smc, struct smc_hs *hs,
			       struct smc_link_group *lgr)
{
	int len, rc;

	len = smc_clc_recv(smc, hs->buf);
	if (len < 0)
		return len;
	if (smc_hs_type(hs) != SMC_CLC_DECLINE)
		return -EPROTO;
	rc = smc_hs_peer_declined(smc, hs, len);
	if (!rc && hs->dcl.out_of_sync)
		smc_hs_out_of_sync(lgr);
	return rc;
}

/* -EBUSY: too many first contacts pending, or no room on the device */
static u32 smc_hs_link_err_code(int err)
{
	return err == -ENOMEM || err == -EBUSY ? SMC_CLC_DECL_MEM :
						 SMC_CLC_DECL_ERR_RDYLNK;
}

/* Both ends of @smc's TCP connection, IPv4 mapped (struct smc_lgr_key) */
static void smc_hs_key_addrs(const struct smc_sock *smc,
			     struct smc_lgr_key *key)
{
	const struct sock *clcsk = smc->clcsock->sk;

	key->scope = 0;
	key->any_addr = false;
#if IS_ENABLED(CONFIG_IPV6)
	if (clcsk->sk_family == AF_INET6) {
		key->peer_addr = clcsk->sk_v6_daddr;
		key->local_addr = clcsk->sk_v6_rcv_saddr;
		/* a link-local address is one only with its interface */
		if (ipv6_addr_type(&key->peer_addr) & IPV6_ADDR_LINKLOCAL)
			key->scope = clcsk->sk_bound_dev_if;
		return;
	}
#endif
	ipv6_addr_set_v4mapped(clcsk->sk_daddr, &key->peer_addr);
	ipv6_addr_set_v4mapped(clcsk->sk_rcv_saddr, &key->local_addr);
}

/* The peer's end as its CLC message names it, bound to its TCP address */
static void smc_hs_lgr_key(struct smc_lgr_key *key, const u8 *peer_id,
			   const u8 *gid, const u8 *mac,
			   const struct smc_sock *smc, const struct smc_hs *hs)
{
	memcpy(key->peer_id, peer_id, SMC_PEER_ID_LEN);
	memcpy(key->peer_gid, gid, SMC_GID_LEN);
	memcpy(key->peer_mac, mac, SMC_MAC_LEN);
	key->vlan_id = hs->offer.vlan_id;
	key->version = hs->version;
	key->peer_qpn = 0;
	smc_hs_key_addrs(smc, key);
}

/* Our Accept or Confirm for @lnk, in the version negotiated */
static int smc_hs_acc_conf_build(struct smc_hs *hs, struct smc_link *lnk,
				 bool first, bool confirm)
{
	struct smc_clc_accept_info *info = &hs->acc;

	info->version = hs->version;
	/* the F-bit of a version 1 Confirm stays clear, as it always was */
	info->first_contact = first && (!confirm || hs->version == SMC_CLC_V2);
	smc_hs_v2_fill(&hs->v2, lnk, confirm, info);
	if (confirm)
		return smc_clc_confirm_build(hs->buf, sizeof(hs->buf), info);
	return smc_clc_accept_build(hs->buf, sizeof(hs->buf), info);
}

/*
 * Subsequent contact: our RMB element's RMB is registered and its RTokens
 * known to the peer before the Accept or Confirm names it (3.5.5.2.1).
 */
static int smc_hs_rmb_ready(struct smc_link *lnk, struct smc_buf *rmb)
{
	int rc = smc_buf_register(lnk, rmb);

	if (rc)
		return rc;
	/* whichever way our CONFIRM RKEY failed */
	return smc_llc_rkey_confirm(lnk, rmb) ? -EREMOTEIO : 0;
}

/*
 * The Decline for a failure to set up our connection's buffers: ERR_RTOK
 * where the RTokens failed - ours (our CONFIRM RKEY) or the peer's (its
 * RMB in its CLC message, smc_conn_peer())
 */
static u32 smc_hs_rmb_err_code(int rc)
{
	switch (rc) {
	case -ENOMEM:
		return SMC_CLC_DECL_MEM;
	case -EREMOTEIO:
	case -EPROTO:
		return SMC_CLC_DECL_ERR_RTOK;
	default:
		return SMC_CLC_DECL_ERR_REGBUF;
	}
}

/*
 * A handshake that goes on without SMC-R (a Decline, a fallback) gives its
 * connection (@conn) or its count on @lgr back before it may end the link
 * group: the end of a link group aborts the connections still in it
 * (smc_close_lgr_gone()), and this one's socket now belongs to TCP. The
 * caller keeps a reference on @lgr, to drop with smc_lgr_put().
 */
static void smc_hs_conn_leave(struct smc_sock *smc, struct smc_link_group *lgr,
			      bool conn)
{
	smc_lgr_hold(lgr);
	if (conn)
		smc_conn_discard(smc);
	else
		smc_lgr_conn_put(lgr);
}

/* After the server's Accept: set up or reuse the link, confirm it. */
static int smc_hs_client_link(struct smc_sock *smc, struct smc_hs *hs)
{
	struct smc_clc_accept_info *acc = &hs->acc;
	struct smc_llc_waiter w = {
		.type = SMC_LLC_CONFIRM_LINK, .response = false,
	};
	struct net *net = sock_net(&smc->sk);
	bool data = READ_ONCE(smc_data_path);
	bool first = acc->first_contact;
	struct smc_link_group *lgr;
	struct smc_lgr_key key;
	struct smc_link *lnk;
	bool conn = false;
	int rc, len;

	smc_hs_lgr_key(&key, acc->peer_id, acc->gid, acc->mac, smc, hs);
	if (!first) {
		key.peer_qpn = acc->qpn;
		/* the server may see the first link ACTIVE just before we do:
		 * smc_contact_find() waits for a first contact in progress
		 */
		lgr = smc_contact_find(net, false, &key);
		if (IS_ERR(lgr))
			return smc_hs_decline(smc, SMC_CLC_DECL_NOSRVLINK);
		/*
		 * 3.5.2.2: a subsequent contact names a link we know - peer
		 * ID, GID, MAC and the server's QP. If we have none, the
		 * server reuses a link group that is gone on our side: out
		 * of sync (C.4), decline with the S-bit. Our own link group
		 * with that key (another QP) stays: the server's DELETE LINK
		 * or the link's failure ends it if it is stale, and an Accept
		 * from anyone claiming the peer's key cannot.
		 *
		 * The lookup matched both ends of this TCP connection too
		 * (struct smc_lgr_key): a link group with the key between
		 * other addresses is not for this Accept - a stranger's
		 * claim (we would write where it says into that server's
		 * memory), or a server that reuses link groups across
		 * addresses, as Linux does. Nothing is out of sync: the
		 * connection falls back, the link group stays.
		 */
		if (!lgr) {
			key.any_addr = true;
			if (smc_contact_known(net, false, &key))
				return smc_hs_decline(smc,
						      SMC_CLC_DECL_NOSMCRDEV);
			return smc_hs_decline_out_of_sync(smc);
		}
		lnk = smc_llc_link_find(lgr, acc->gid, acc->qpn);
		if (!lnk) {
			smc_lgr_conn_put(lgr);
			return smc_hs_decline_out_of_sync(smc);
		}
	} else {
		lgr = smc_contact_create(net, false, &key, &hs->offer);
		if (IS_ERR(lgr))
			return smc_hs_decline(smc,
					      smc_hs_link_err_code(PTR_ERR(lgr)));
		lnk = &lgr->lnk[0];
		if (hs->version == SMC_CLC_V2)
			smc_hs_v2_lgr_init(lgr, &hs->v2);
		smc_link_set_peer(lnk, acc);
		rc = smc_link_rtr(lnk);
		if (!rc)
			rc = smc_llc_expect(lgr, &w);
		if (rc) {
			smc_lgr_terminate(lgr, false, "first contact failed");
			smc_contact_first_done(lgr);
			smc_lgr_conn_put(lgr);
			return smc_hs_decline(smc, smc_hs_link_err_code(rc));
		}
	}
	if (data) {
		/* from here on the connection owns the count on @lgr */
		rc = smc_conn_create(smc, lnk, first);
		conn = !rc;
		if (!rc)
			rc = smc_conn_peer(smc, acc);
		if (!rc && !first)
			rc = smc_hs_rmb_ready(lnk, smc->conn.rmbe.buf);
		if (rc)
			goto decline;
	}

	smc_hs_link_info(acc, lnk);
	if (data) {
		smc_conn_fill_clc(smc, acc);
	} else {
		/* no RMB element: not the Accept's own fields, which a
		 * data_path=Y server would take for ours
		 */
		acc->rmb_rkey = 0;
		acc->rmbe_idx = 0;
		acc->rmbe_alert_token = 0;
		acc->rmbe_size_code = 0;
		acc->rmb_vaddr = 0;
	}
	len = smc_hs_acc_conf_build(hs, lnk, first, true);
	rc = len < 0 ? len : smc_clc_send(smc, hs->buf, len);
	if (!rc && first)
		rc = smc_llc_confirm_link_client(lnk, &w,
						 data ? &smc->conn : NULL,
						 smc_hs_clc_pending, smc);
	else if (first)
		smc_llc_cancel(lgr, &w);
	if (!rc && data && smc_conn_activate(smc, false)) {
		if (first)
			smc_contact_first_done(lgr);
		return 0;		/* SMC-R */
	}
	if (!rc && data)	/* the link group ended under the handshake */
		rc = -ENOLINK;
	smc_hs_conn_leave(smc, lgr, conn);
	if (first) {
		if (rc)
			smc_lgr_terminate(lgr, false, "first contact failed");
		smc_contact_first_done(lgr);
	}
	/* CONFIRM LINK failed because the server declined (C.2): fine */
	if (!rc || ((rc == -ECONNABORTED || rc == -ETIMEDOUT ||
		     rc == -ENOLINK) && smc_clc_readable(smc)))
		rc = smc_hs_client_final(smc, hs, lgr);
	smc_lgr_put(lgr);
	return rc;

decline:			/* in place of the Confirm */
	if (first)
		smc_llc_cancel(lgr, &w);
	smc_hs_conn_leave(smc, lgr, conn);
	if (first) {
		smc_lgr_terminate(lgr, false, "first contact failed");
		smc_contact_first_done(lgr);
	}
	smc_lgr_put(lgr);
	return smc_hs_decline(smc, smc_hs_rmb_err_code(rc));
}

static int smc_hs_client_run(struct smc_sock *smc, struct smc_hs *hs)
{
	struct smc_clc_proposal_info *prop = &hs->prop;
	u32 code;
	int len;

	code = smc_offer_local(smc, &hs->offer);
	if (code)
		return smc_hs_decline(smc, code);	/* in place of Proposal */

	smc_hs_v2_local(smc, &hs->offer, &hs->v2);
	memset(prop, 0, sizeof(*prop));
	smc_peer_id_get(prop->peer_id);
	memcpy(prop->gid, hs->offer.gid, SMC_GID_LEN);
	memcpy(prop->mac, hs->offer.mac, SMC_MAC_LEN);
	prop->prefixes = hs->offer.prefixes;
	smc_hs_v2_propose(&hs->v2, &hs->offer, prop);
	if (!prop->smcr_v1 && !prop->smcr_v2)	/* test_clc_version=2 */
		return smc_hs_decline(smc, hs->v2.why_not);
	len = smc_clc_proposal_build(hs->buf, sizeof(hs->buf), prop);
	if (len < 0)
		return smc_hs_decline(smc, SMC_CLC_DECL_INTERR);
	len = smc_clc_send(smc, hs->buf, len);
	if (len)
		return len;

	len = smc_clc_recv(smc, hs->buf);
	if (len < 0)
		return len;
	switch (smc_hs_type(hs)) {
	case SMC_CLC_DECLINE:
		/* in place of the Accept: no link group was named, an S-bit
		 * has nothing to act on
		 */
		return smc_hs_peer_declined(smc, hs, len);
	case SMC_CLC_ACCEPT:
		break;
	default:				/* out of sequence */
		return smc_hs_decline(smc, SMC_CLC_DECL_SYNCERR);
	}
	len = smc_clc_accept_parse(hs->buf, len, &hs->acc);
	if (len)
		return smc_hs_decline(smc, smc_clc_decline_code(len));
	code = smc_hs_v2_accepted(smc, &hs->offer, &hs->acc, &hs->v2);
	if (code)
		return smc_hs_decline(smc, code);
	hs->version = hs->acc.version;
	if (!hs->offer.roce)	/* test_fake_offer: no link possible */
		return smc_hs_decline(smc, SMC_CLC_DECL_ERR_RDYLNK);
	return smc_hs_client_link(smc, hs);
}

/**
 * smc_hs_client() - client side of the CLC exchange
 * @smc: socket whose clcsock connected with SMC offered on both sides
 *
 * Return: 0 when the connection may be used (the fallback reason, if any,
 * is recorded), or a negative errno if the connection failed.
 */
int smc_hs_client(struct smc_sock *smc)
{
	struct smc_hs *hs;
	int rc;

	hs = kmalloc(sizeof(*hs), GFP_KERNEL);
	if (!hs)
		return smc_hs_decline(smc, SMC_CLC_DECL_MEM);
	rc = smc_hs_client_run(smc, hs);
	kfree(hs);
	return rc;
}

/* Does the client's Confirm name @gid and @mac as its end of the link? */
static bool smc_hs_confirm_matches(const u8 *gid, const u8 *mac,
				   const struct smc_clc_accept_info *conf)
{
	return !memcmp(conf->gid, gid, SMC_GID_LEN) &&
	       !memcmp(conf->mac, mac, SMC_MAC_LEN);
}

/*
 * Server, after its Accept on first contact: bring the new link up.
 * Return 0 if the link is usable, else the Decline code (C.2: we may
 * still decline until CONFIRM LINK succeeded).
 */
static u32 smc_hs_server_link(struct smc_link *lnk,
			      const struct smc_clc_accept_info *conf,
			      struct smc_buf *rmb)
{
	const struct smc_lgr_key *key = &lnk->lgr->key;

	/*
	 * The client's end in its Confirm is the one of its Proposal. A
	 * version 2 Proposal names the GID in its v2 extension, and Linux
	 * leaves the MAC out of it when it offers no version 1.
	 */
	if (key->version == SMC_CLC_V2 ?
	    memcmp(conf->gid, key->peer_gid, SMC_GID_LEN) :
	    !smc_hs_confirm_matches(key->peer_gid, key->peer_mac, conf))
		return SMC_CLC_DECL_SYNCERR;
	smc_link_set_peer(lnk, conf);
	if (smc_link_rtr(lnk) || smc_link_rts(lnk))
		return SMC_CLC_DECL_ERR_RDYLNK;
	/* the rkey of the Accept becomes valid before the client may write */
	if (rmb && smc_buf_register(lnk, rmb))
		return SMC_CLC_DECL_ERR_REGBUF;
	if (rmb)
		smc_llc_rkey_announced(lnk->lgr, rmb);
	if (smc_llc_confirm_link_server(lnk))
		return SMC_CLC_DECL_TIMEOUT_CL;
	return 0;
}

/*
 * Server, after its Accept on subsequent contact: the client's Confirm
 * must name its end of the link the Accept named (3.5.2.2).
 * Return: 0, -EPROTO if its GID or MAC is not the link's (on the first
 * link those of its Proposal), or -ESTALE if its QP is not the link's: the
 * client's link to our QP is another one than ours - the link group is
 * out of sync (C.4).
 */
static int smc_hs_server_reuse(const struct smc_link *lnk,
			       const struct smc_clc_accept_info *conf)
{
	if (!smc_hs_confirm_matches(lnk->peer.gid, lnk->peer.mac, conf))
		return -EPROTO;
	return conf->qpn == lnk->peer.qpn ? 0 : -ESTALE;
}

/*
 * A subsequent contact failed after our Accept - the client did not
 * decline, so it may have sent its Confirm and be writing into the RMB
 * element the Accept named (3.5.2.4). The Decline window is closed (C.1
 * "no chase", C.3): the connection is reset, no fallback, and the element
 * stays out of use until the link group ends. @stale: the client's Confirm
 * showed the link group out of sync; end it (we cannot send the S-bit,
 * so we clean up our own representation, and DELETE LINK tells the peer).
 */
static int smc_hs_server_abort(struct smc_sock *smc,
			       struct smc_link_group *lgr, bool conn,
			       bool stale)
{
	if (stale)
		smc_lgr_terminate(lgr, true,
				  "client's Confirm names another QP: out of sync");
	else if (conn && smc_buf_abandon(lgr, &smc->conn.rmbe))
		smc_lgr_retire(lgr);	/* not its live connections' end */
	if (conn)
		smc_conn_discard(smc);
	else
		smc_lgr_conn_put(lgr);
	return -ECONNABORTED;
}

/* Find the link group for the client's Proposal, or create one. */
static struct smc_link_group *smc_hs_server_lgr(struct smc_sock *smc,
						struct smc_hs *hs,
						bool *first)
{
	struct smc_clc_proposal_info *prop = &hs->prop;
	struct smc_lgr_key key;

	smc_hs_lgr_key(&key, prop->peer_id,
		       hs->version == SMC_CLC_V2 ? prop->roce_v2_gid : prop->gid,
		       prop->mac, smc, hs);
	return smc_contact_get(sock_net(&smc->sk), true, &key, &hs->offer,
			       first);
}

/*
 * Everything the Accept depends on is decided before it is sent: the link
 * group (new or reused), our RMB element, its registration on a reused
 * link. What only the client's Confirm tells - its GID, MAC and QP, its
 * RMB element - is checked after it; on a first contact a failure there
 * is still declined (C.2), on a subsequent contact it is an abort
 * (smc_hs_server_abort()).
 */
static int smc_hs_server_accept(struct smc_sock *smc, struct smc_hs *hs)
{
	struct smc_clc_accept_info *acc = &hs->acc;
	bool data = READ_ONCE(smc_data_path);
	struct smc_link_group *lgr = NULL;
	struct smc_link *lnk = NULL;
	bool first = true, conn = false, accepted = false, sync = false;
	u32 code = 0;
	int len, rc;

	if (hs->offer.roce) {
		lgr = smc_hs_server_lgr(smc, hs, &first);
		if (IS_ERR(lgr))
			return smc_hs_decline(smc,
					      smc_hs_link_err_code(PTR_ERR(lgr)));
		/* a new connection goes on the least used link */
		lnk = first ? &lgr->lnk[0] : smc_llc_link_pick(lgr);
		if (!lnk) {	/* its links went down just now */
			smc_lgr_conn_put(lgr);
			return smc_hs_decline(smc, SMC_CLC_DECL_INTERR);
		}
		if (data) {
			/* the connection owns the count on @lgr from here */
			rc = smc_conn_create(smc, lnk, first);
			conn = !rc;
			if (!rc && !first)
				rc = smc_hs_rmb_ready(lnk, smc->conn.rmbe.buf);
			if (rc) {
				code = smc_hs_rmb_err_code(rc);
				len = 0;
				goto out;
			}
		}
		smc_hs_link_info(acc, lnk);
		if (data)
			smc_conn_fill_clc(smc, acc);
	} else {		/* test_fake_offer: no link */
		memset(acc, 0, sizeof(*acc));
		smc_peer_id_get(acc->peer_id);
		memcpy(acc->gid, hs->offer.gid, SMC_GID_LEN);
		memcpy(acc->mac, hs->offer.mac, SMC_MAC_LEN);
		acc->mtu_code = SMC_CLC_MTU_4096;
	}
	len = smc_hs_acc_conf_build(hs, lnk, first, false);
	if (len < 0) {
		code = SMC_CLC_DECL_INTERR;
		len = 0;
		goto out;
	}
	/* even a failed send may have put the Accept on the wire */
	accepted = true;
	len = smc_clc_send(smc, hs->buf, len);
	if (len)
		goto out;

	/* From here on no Decline of ours but C.2's: the client must
	 * decline or confirm
	 */
	len = smc_clc_recv(smc, hs->buf);
	if (len < 0)
		goto out;
	if (smc_hs_type(hs) == SMC_CLC_DECLINE) {
		len = smc_hs_peer_declined(smc, hs, len);
		sync = !len && hs->dcl.out_of_sync;
		goto out;
	}
	if (!lnk || smc_hs_type(hs) != SMC_CLC_CONFIRM ||
	    smc_clc_confirm_parse(hs->buf, len, acc) ||
	    acc->version != hs->version) {
		/*
		 * Without a link (fake offer) the connection cannot go on,
		 * and after an Accept it cannot fall back either.
		 */
		len = -ECONNABORTED;
		goto out;
	}
	len = 0;
	code = smc_hs_v2_confirmed(&hs->v2, acc);
	if (!first) {
		rc = code ? -EPROTO : smc_hs_server_reuse(lnk, acc);
		if (!rc && conn)
			rc = smc_conn_peer(smc, acc);
		if (rc)
			return smc_hs_server_abort(smc, lgr, conn,
						   rc == -ESTALE);
	} else {
		if (!code && hs->version == SMC_CLC_V2)
			smc_hs_v2_lgr_init(lgr, &hs->v2);
		rc = code || !conn ? 0 : smc_conn_peer(smc, acc);
		if (rc)
			code = smc_hs_rmb_err_code(rc);
		if (!code)
			code = smc_hs_server_link(lnk, acc,
						  conn ? smc->conn.rmbe.buf :
							 NULL);
	}
	/* without the data path the link is there, the connection uses TCP */
	if (!code && !conn)
		code = SMC_CLC_DECL_ERR_REGBUF;
out:
	if (lgr) {
		/* SMC-R, unless the client declined (a fallback, code 0) */
		bool ok = !code && !len && !smc->use_fallback;

		if (ok && smc_conn_activate(smc, true)) {
			if (first)
				smc_contact_first_done(lgr);
			return 0;
		}
		/* the link group ended under the handshake: no Decline now */
		if (ok)
			len = -ECONNABORTED;
		/* the client did not decline: it may write into our element */
		if (!first && accepted && len && !smc->use_fallback)
			return smc_hs_server_abort(smc, lgr, conn, false);
		smc_hs_conn_leave(smc, lgr, conn);
		if (first && (code != SMC_CLC_DECL_ERR_REGBUF || len || data))
			smc_lgr_terminate(lgr, false, "first contact failed");
		if (first)
			smc_contact_first_done(lgr);
		if (sync)
			smc_hs_out_of_sync(lgr);
		smc_lgr_put(lgr);
	}
	if (code && !len)
		return smc_hs_decline(smc, code);
	return len;
}

static int smc_hs_server_run(struct smc_sock *smc, struct smc_hs *hs)
{
	struct smc_clc_proposal_info *prop = &hs->prop;
	u32 code;
	int len, rc;

	len = smc_clc_recv(smc, hs->buf);
	if (len < 0)
		return len;
	switch (smc_hs_type(hs)) {
	case SMC_CLC_DECLINE:
		return smc_hs_peer_declined(smc, hs, len);
	case SMC_CLC_PROPOSAL:
		break;
	default:				/* out of sequence */
		return smc_hs_decline(smc, SMC_CLC_DECL_SYNCERR);
	}
	rc = smc_clc_proposal_parse(hs->buf, len, prop);
	if (rc)
		return smc_hs_decline(smc, smc_clc_decline_code(rc));
	/* SMC-D only, or nothing: whatever our devices */
	if (!prop->smcr_v1 && !prop->smcr_v2)
		return smc_hs_decline(smc, SMC_CLC_DECL_MODEUNSUPP);
	code = smc_offer_local(smc, &hs->offer);
	if (code)
		return smc_hs_decline(smc, code);
	/* version 2 where both can, else version 1 (hs_v2.c) */
	smc_hs_v2_local(smc, &hs->offer, &hs->v2);
	code = smc_hs_v2_choose(smc, &hs->offer, prop, &hs->v2);
	if (!code) {
		hs->version = SMC_CLC_V2;
	} else if (prop->smcr_v1 && hs->v2.v1) {
		if (!smc_clc_prefix_match(&hs->offer.prefixes,
					  &prop->prefixes))
			return smc_hs_decline(smc, SMC_CLC_DECL_DIFFPREFIX);
		hs->version = SMC_CLC_V1;
	} else {
		return smc_hs_decline(smc, code);
	}
	return smc_hs_server_accept(smc, hs);
}

/**
 * smc_hs_server() - server side of the CLC exchange
 * @smc: child socket whose clcsock was accepted with SMC offered on both
 *	sides
 *
 * Return: 0 when the connection may be used, or a negative errno if it
 * must be dropped.
 */
int smc_hs_server(struct smc_sock *smc)
{
	struct smc_hs *hs;
	int rc;

	hs = kmalloc(sizeof(*hs), GFP_KERNEL);
	if (!hs)
		return -ENOMEM;	/* must read the client's message to decline */
	rc = smc_hs_server_run(smc, hs);
	kfree(hs);
	return rc;
}
