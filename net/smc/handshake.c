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
 *   C.2 Decline during LLC: needs the link layer (CONFIRM LINK); until
 *       then no LLC runs, so it cannot occur.
 *   C.3 Decline window: enforced by construction below (the server drops
 *       the connection if something other than Confirm/Decline follows its
 *       Accept).
 *
 * No RoCE device is usable yet: smc_offer_local() has no offer, so the
 * client declines with NOSMCRDEV instead of proposing and the server
 * declines Proposals. With the test-only parameter test_fake_offer both
 * sides make up an offer and the exchange goes as far as a real link would
 * be needed: the client then declines the Accept (ERR_RDYLNK).
 */
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/smcr.h>
#include <linux/uio.h>
#include <net/sock.h>

#include "smcr.h"

static bool smc_test_clc_without_option;
module_param_named(test_clc_without_option, smc_test_clc_without_option,
		   bool, 0644);
MODULE_PARM_DESC(test_clc_without_option,
		 "TEST ONLY: run CLC even if the peer's TCP handshake lacked the SMC option (default off)");

/**
 * smc_hs_wanted() - does the connection go through the CLC exchange?
 * @smc: socket whose clcsock just connected
 *
 * Return: true if both sides offered SMC in the TCP handshake (or the
 * test-only parameter test_clc_without_option is set).
 */
bool smc_hs_wanted(const struct smc_sock *smc)
{
	return smc_clcsock_peer_smc(smc) ||
	       READ_ONCE(smc_test_clc_without_option);
}

/* Everything one exchange needs; too big for a worker's stack. */
struct smc_hs {
	u8	buf[SMC_CLC_MAX_LEN];
	struct smc_offer			offer;
	union {
		struct smc_clc_proposal_info	prop;
		struct smc_clc_accept_info	acc;
		struct smc_clc_decline_info	dcl;
	};
};

static bool smc_clc_readable(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;

	return smc_hs_aborted(smc) ||
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
		if (smc_hs_aborted(smc))
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

/* Send our Decline with @code and fall back (the peer reads CLC next). */
static int smc_hs_decline(struct smc_sock *smc, u32 code)
{
	struct smc_clc_decline dcl;
	size_t len;
	int rc;

	len = smc_clc_decline_build(&dcl, smc_local_peer_id, code, false);
	rc = smc_clc_send(smc, &dcl, len);
	if (rc)
		return rc;
	smc_set_fallback(smc, code, 0);
	return 0;
}

/* The peer sent a Decline in @hs->buf: fall back with its diagnosis. */
static int smc_hs_peer_declined(struct smc_sock *smc, struct smc_hs *hs,
				int len)
{
	if (smc_clc_decline_parse(hs->buf, len, &hs->dcl))
		return -EPROTO;
	smc_set_fallback(smc, SMC_CLC_DECL_PEERDECL, hs->dcl.diagnosis);
	return 0;
}

static u8 smc_hs_type(const struct smc_hs *hs)
{
	return ((const struct smc_clc_hdr *)hs->buf)->type;
}

static int smc_hs_client_run(struct smc_sock *smc, struct smc_hs *hs)
{
	struct smc_clc_proposal_info *prop = &hs->prop;
	u32 code;
	int len;

	code = smc_offer_local(smc, &hs->offer);
	if (code)
		return smc_hs_decline(smc, code);	/* in place of Proposal */

	memset(prop, 0, sizeof(*prop));
	memcpy(prop->peer_id, smc_local_peer_id, SMC_PEER_ID_LEN);
	memcpy(prop->gid, hs->offer.gid, SMC_GID_LEN);
	memcpy(prop->mac, hs->offer.mac, SMC_MAC_LEN);
	prop->prefixes = hs->offer.prefixes;
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
		return smc_hs_peer_declined(smc, hs, len);
	case SMC_CLC_ACCEPT:
		break;
	default:				/* out of sequence */
		return smc_hs_decline(smc, SMC_CLC_DECL_SYNCERR);
	}
	len = smc_clc_accept_parse(hs->buf, len, &hs->acc);
	if (len)
		return smc_hs_decline(smc, smc_clc_decline_code(len));
	/*
	 * Here the link layer would bring up (or reuse) the link the Accept
	 * names and answer with a Confirm. There is none yet: decline in
	 * place of the Confirm.
	 */
	return smc_hs_decline(smc, SMC_CLC_DECL_ERR_RDYLNK);
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

static int smc_hs_server_accept(struct smc_sock *smc, struct smc_hs *hs)
{
	struct smc_clc_accept_info *acc = &hs->acc;
	int len;

	memset(acc, 0, sizeof(*acc));
	memcpy(acc->peer_id, smc_local_peer_id, SMC_PEER_ID_LEN);
	memcpy(acc->gid, hs->offer.gid, SMC_GID_LEN);
	memcpy(acc->mac, hs->offer.mac, SMC_MAC_LEN);
	acc->mtu_code = SMC_CLC_MTU_4096;
	acc->first_contact = true;	/* no link group to reuse yet */
	len = smc_clc_accept_build((struct smc_clc_accept_confirm *)hs->buf,
				   acc);
	if (len < 0)
		return smc_hs_decline(smc, SMC_CLC_DECL_INTERR);
	len = smc_clc_send(smc, hs->buf, len);
	if (len)
		return len;

	/* From here on no Decline of ours: the client must decline or confirm */
	len = smc_clc_recv(smc, hs->buf);
	if (len < 0)
		return len;
	if (smc_hs_type(hs) == SMC_CLC_DECLINE)
		return smc_hs_peer_declined(smc, hs, len);
	/*
	 * A Confirm would now lead to CONFIRM LINK over the link the Accept
	 * named; without a link layer the connection cannot go on, and after
	 * an Accept it cannot fall back either.
	 */
	return -ECONNABORTED;
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
	if (!rc)
		rc = smc_clc_proposal_check_smcr_v1(prop);
	if (rc)
		return smc_hs_decline(smc, smc_clc_decline_code(rc));
	code = smc_offer_local(smc, &hs->offer);
	if (code)
		return smc_hs_decline(smc, code);
	if (!smc_clc_prefix_match(&hs->offer.prefixes, &prop->prefixes))
		return smc_hs_decline(smc, SMC_CLC_DECL_DIFFPREFIX);
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
