// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: RC QP attributes of a link from the values both sides exchanged in
 * CLC (see include/smcr/qp_attr.h).
 *
 * Choices, for every link:
 *   - path MTU: the smaller of both ends' MTU codes (A.2.3: "the lesser of
 *     the two is used");
 *   - local ACK timeout 16 (4.096 us * 2^16, about 268 ms) with 7
 *     retries: a device that counts them gives up on a lost path in about
 *     two seconds, and the connections move to another link (RFC 7609
 *     2.4); rxe, like Linux's smc.ko, takes 7 for "retry for ever", and
 *     there TEST LINK and the send-buffer wait find the lost path
 *     (keepalive.c, wr.c). Not shorter: a timeout that fires before the
 *     ACK comes makes the requester resend its whole window. On the debug
 *     kernel under 16 busy duplex connections (selftest 090) the responder
 *     then received 59 % duplicates at 14 (67 ms), 28 % at 15 (Linux's),
 *     1 % at 16 - likely why at 14 its send completions once stopped
 *     for 20 s and more;
 *   - RNR retry 7 (retry forever): a receive queue that is briefly empty is
 *     not an error; the peer reposts buffers as it consumes them;
 *   - no RDMA reads or atomics either way: SMC-R only writes (RFC 6581's
 *     IRD/ORD negotiation therefore settles on zero).
 */
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <smcr/clc.h>
#include <smcr/qp_attr.h>

#define SMC_QP_TIMEOUT		16
#define SMC_QP_RETRY_CNT	7
#define SMC_QP_RNR_RETRY	7	/* infinite */
#define SMC_QP_MIN_RNR_TIMER	12	/* 0.64 ms */
#define SMC_QP_HOPS_V1		1
#define SMC_QP_HOPS_V2		64

/**
 * smc_qp_end_check() - is @end usable as one end of a link?
 * @end: values from CLC
 *
 * Return: 0, or -EINVAL if the QPN or PSN exceeds 24 bits, the QPN is one
 * of the reserved QPs 0 and 1, the MTU code is not 256..4096 or the GID is
 * all zero.
 */
int smc_qp_end_check(const struct smc_qp_end *end)
{
	static const u8 zero_gid[SMC_GID_LEN];

	if (end->qpn > SMC_QP_NUM_MASK || end->qpn < 2)
		return -EINVAL;
	if (end->psn > SMC_QP_NUM_MASK)
		return -EINVAL;
	if (end->mtu < SMC_CLC_MTU_256 || end->mtu > SMC_CLC_MTU_4096)
		return -EINVAL;
	if (!memcmp(end->gid, zero_gid, SMC_GID_LEN))
		return -EINVAL;
	return 0;
}

/**
 * smc_qp_attrs_compute() - RTR/RTS attributes of a link's QP
 * @local: our end (QPN and PSN of our QP, our port's MTU)
 * @peer: the peer's end, from its Accept or Confirm
 * @roce_v2: our GID is a RoCE v2 GID (routable: GRH hop limit above 1)
 * @out: filled on success
 *
 * Return: 0, or -EINVAL if either end fails smc_qp_end_check().
 */
int smc_qp_attrs_compute(const struct smc_qp_end *local,
			 const struct smc_qp_end *peer, bool roce_v2,
			 struct smc_qp_attrs *out)
{
	if (smc_qp_end_check(local) || smc_qp_end_check(peer))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->path_mtu = min(local->mtu, peer->mtu);
	out->dest_qpn = peer->qpn;
	out->rq_psn = peer->psn;
	out->sq_psn = local->psn;
	memcpy(out->dgid, peer->gid, SMC_GID_LEN);
	memcpy(out->dmac, peer->mac, SMC_MAC_LEN);
	out->hop_limit = roce_v2 ? SMC_QP_HOPS_V2 : SMC_QP_HOPS_V1;
	out->timeout = SMC_QP_TIMEOUT;
	out->retry_cnt = SMC_QP_RETRY_CNT;
	out->rnr_retry = SMC_QP_RNR_RETRY;
	out->min_rnr_timer = SMC_QP_MIN_RNR_TIMER;
	return 0;
}
