/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the attributes of a link's RC QP, computed from what both sides
 * exchanged in CLC (RFC 7609 3.5.1, A.2.2/A.2.3). Pure: no ib_core, so the
 * KUnit module links it alone; net/smc/link.c turns the result into
 * struct ib_qp_attr.
 */
#ifndef _SMCR_QP_ATTR_H
#define _SMCR_QP_ATTR_H

#include <linux/types.h>
#include <smcr/clc_wire.h>

#define SMC_QP_NUM_MASK		0x00ffffffU	/* QPN and PSN: 24 bits */

/**
 * struct smc_qp_end - one end of a link as CLC describes it
 * @gid: RoCE GID
 * @mac: RoCE MAC
 * @qpn: QP number (24 bits, not 0 or 1)
 * @psn: initial packet sequence number (24 bits)
 * @mtu: QP MTU code, the values of enum ib_mtu (1 = 256 ... 5 = 4096)
 */
struct smc_qp_end {
	u8	gid[SMC_GID_LEN];
	u8	mac[SMC_MAC_LEN];
	u32	qpn;
	u32	psn;
	u8	mtu;
};

/**
 * struct smc_qp_attrs - what the RTR and RTS transitions need
 * @path_mtu: min of both ends' MTU codes
 * @dest_qpn: the peer's QPN
 * @rq_psn: expected PSN of the peer's first packet (its initial PSN)
 * @sq_psn: our initial PSN
 * @dgid: the peer's GID (GRH destination)
 * @dmac: the peer's MAC (Ethernet destination)
 * @hop_limit: GRH hop limit: 1 for RoCE v1 (link local), 64 for RoCE v2
 *	(routable UDP/IP)
 * @timeout: local ACK timeout, 4.096 us * 2^@timeout
 * @retry_cnt: transport retries before the QP fails (rxe: 7 = unlimited)
 * @rnr_retry: RNR retries (7 = unlimited)
 * @min_rnr_timer: RNR NAK timer code (IB spec table 45)
 * @max_rd_atomic: outstanding RDMA reads/atomics we initiate (none)
 * @max_dest_rd_atomic: outstanding RDMA reads/atomics we accept (none)
 */
struct smc_qp_attrs {
	u8	path_mtu;
	u32	dest_qpn;
	u32	rq_psn;
	u32	sq_psn;
	u8	dgid[SMC_GID_LEN];
	u8	dmac[SMC_MAC_LEN];
	u8	hop_limit;
	u8	timeout;
	u8	retry_cnt;
	u8	rnr_retry;
	u8	min_rnr_timer;
	u8	max_rd_atomic;
	u8	max_dest_rd_atomic;
};

int smc_qp_end_check(const struct smc_qp_end *end);
int smc_qp_attrs_compute(const struct smc_qp_end *local,
			 const struct smc_qp_end *peer, bool roce_v2,
			 struct smc_qp_attrs *out);

#endif /* _SMCR_QP_ATTR_H */
