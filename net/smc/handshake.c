// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the CLC exchange on the clcsock (RFC 7609, 3.5).
 *
 * Runs in a worker, after the TCP handshake showed that both sides offered
 * SMC, and before the application may touch the connection: the client
 * once its TCP connect completes, the server before accept() returns the
 * connection. It reads exactly the bytes of each CLC message, so TCP data
 * the peer sends after its last CLC message stays in the stream for the
 * application.
 *
 * No RoCE device is usable yet, so the client answers every SMC-capable
 * peer with a Decline (NOSMCRDEV) as its first CLC message, and the server
 * declines every Proposal; both then continue over TCP.
 */
#include <linux/jiffies.h>
#include <linux/smcr.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <smcr/clc.h>

#include "smcr.h"

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

static int smc_clc_send_decline(struct smc_sock *smc, u32 diagnosis)
{
	struct smc_clc_decline dcl;
	size_t len;

	len = smc_clc_decline_build(&dcl, smc_local_peer_id, diagnosis, false);
	return smc_clc_send(smc, &dcl, len);
}

/*
 * Receive one CLC message into @buf (at least SMC_CLC_MAX_LEN bytes):
 * header first, then exactly the rest of its announced length.
 */
static int smc_clc_recv(struct smc_sock *smc, void *buf, unsigned int timeout_ms)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(timeout_ms);
	struct smc_clc_hdr *hdr = buf;
	size_t len;
	int rc;

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

/**
 * smc_hs_client() - client side of the CLC exchange
 * @smc: socket whose clcsock just connected with the SMC option on both
 *	sides
 *
 * Return: 0 when the connection may be used (today always over TCP, with
 * the fallback reason recorded), or a negative errno if the connection
 * failed.
 */
int smc_hs_client(struct smc_sock *smc)
{
	int rc;

	rc = smc_clc_send_decline(smc, SMC_CLC_DECL_NOSMCRDEV);
	if (rc)
		return rc;
	smc_set_fallback(smc, SMC_CLC_DECL_NOSMCRDEV, 0);
	return 0;
}

/**
 * smc_hs_server() - server side of the CLC exchange
 * @smc: child socket whose clcsock was accepted with the SMC option on both
 *	sides
 *
 * The client's first CLC message is a Proposal or, if it cannot do SMC-R,
 * a Decline. Anything else, or nothing within the CLC timeout, means the
 * stream cannot be handed to the application: the connection is dropped.
 *
 * Return: 0 when the connection may be used, or a negative errno if it
 * must be dropped.
 */
int smc_hs_server(struct smc_sock *smc)
{
	struct smc_clc_decline_info info;
	void *buf;
	int len, rc;

	buf = kmalloc(SMC_CLC_MAX_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	len = smc_clc_recv(smc, buf, READ_ONCE(smc_clc_timeout_ms));
	if (len < 0) {
		rc = len;
		goto out;
	}
	switch (((struct smc_clc_hdr *)buf)->type) {
	case SMC_CLC_DECLINE:
		rc = smc_clc_decline_parse(buf, len, &info);
		if (!rc)
			smc_set_fallback(smc, SMC_CLC_DECL_PEERDECL,
					 info.diagnosis);
		break;
	case SMC_CLC_PROPOSAL:
		rc = smc_clc_send_decline(smc, SMC_CLC_DECL_NOSMCRDEV);
		if (!rc)
			smc_set_fallback(smc, SMC_CLC_DECL_NOSMCRDEV, 0);
		break;
	default:
		rc = -EPROTO;
		break;
	}
out:
	kfree(buf);
	return rc;
}
