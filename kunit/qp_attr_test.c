// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for net/smc/qp_attr.c (suite smcr_qp_attr): the RTR/RTS
 * attributes of a link's QP from the values both ends exchanged in CLC.
 *
 * The two sample ends resemble a real Accept/Confirm pair between two
 * Soft-RoCE VMs: IPv4-mapped RoCE v2 GIDs ::ffff:192.0.2.1 (ours) and
 * ::ffff:192.0.2.2 (the peer's), QEMU MACs 52:54:00:..., small QPNs and
 * random-looking 24-bit PSNs. Every field differs between the two ends,
 * so taking a value from the wrong end shows.
 *
 * MTU codes are the values of enum ib_mtu: 1 = 256 ... 5 = 4096.
 */
#include <kunit/test.h>
#include <smcr/qp_attr.h>

#define QA_MTU_MIN	1	/* IB_MTU_256 */
#define QA_MTU_MAX	5	/* IB_MTU_4096 */

/* Our end: the server, as in its Accept */
static const struct smc_qp_end qa_local = {
	.gid = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0xff, 0xff, 192, 0, 2, 1,
	},
	.mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x01 },
	.qpn = 0x11,
	.psn = 0xabcdef,
	.mtu = 5,				/* 4096 */
};

/* The peer's end: the client, as in its Confirm */
static const struct smc_qp_end qa_peer = {
	.gid = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0xff, 0xff, 192, 0, 2, 2,
	},
	.mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x02 },
	.qpn = 0x12,
	.psn = 0x123456,
	.mtu = 3,				/* 1024 */
};

/* Compute with the sample ends (or variants); must succeed */
static void qa_compute(struct kunit *test, const struct smc_qp_end *local,
		       const struct smc_qp_end *peer, bool roce_v2,
		       struct smc_qp_attrs *out)
{
	memset(out, 0xa5, sizeof(*out));
	KUNIT_ASSERT_EQ(test, smc_qp_attrs_compute(local, peer, roce_v2, out),
			0);
}

/* @bad is refused by the check and as either end, for v1 and v2 */
static void qa_expect_reject(struct kunit *test, const struct smc_qp_end *bad)
{
	struct smc_qp_attrs out;
	int v2;

	KUNIT_EXPECT_EQ(test, smc_qp_end_check(bad), -EINVAL);
	for (v2 = 0; v2 < 2; v2++) {
		KUNIT_EXPECT_EQ(test,
				smc_qp_attrs_compute(bad, &qa_peer, v2, &out),
				-EINVAL);
		KUNIT_EXPECT_EQ(test,
				smc_qp_attrs_compute(&qa_local, bad, v2, &out),
				-EINVAL);
		KUNIT_EXPECT_EQ(test,
				smc_qp_attrs_compute(bad, bad, v2, &out),
				-EINVAL);
	}
}

/*
 * @good is accepted by the check and as either end; returns the results
 * with @good as our end (@as_local) and as the peer's (@as_peer).
 */
static void qa_expect_accept(struct kunit *test, const struct smc_qp_end *good,
			     struct smc_qp_attrs *as_local,
			     struct smc_qp_attrs *as_peer)
{
	KUNIT_EXPECT_EQ(test, smc_qp_end_check(good), 0);
	qa_compute(test, good, &qa_peer, true, as_local);
	qa_compute(test, &qa_local, good, true, as_peer);
}

/* The samples themselves are valid ends */
static void qp_attr_samples_valid(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, smc_qp_end_check(&qa_local), 0);
	KUNIT_EXPECT_EQ(test, smc_qp_end_check(&qa_peer), 0);
}

/* A.2.3: the lesser of the two MTUs, for every pair of codes */
static void qp_attr_mtu_min_all_pairs(struct kunit *test)
{
	struct smc_qp_end local = qa_local, peer = qa_peer;
	struct smc_qp_attrs out;
	u8 l, p;

	for (l = QA_MTU_MIN; l <= QA_MTU_MAX; l++) {
		for (p = QA_MTU_MIN; p <= QA_MTU_MAX; p++) {
			local.mtu = l;
			peer.mtu = p;
			qa_compute(test, &local, &peer, true, &out);
			KUNIT_EXPECT_EQ_MSG(test, out.path_mtu, min(l, p),
					    "local mtu %u peer mtu %u", l, p);
		}
	}
}

/* The peer's MTU is the smaller one: the samples, 4096 and 1024 */
static void qp_attr_mtu_peer_smaller(struct kunit *test)
{
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.path_mtu, 3);
}

/* Our MTU is the smaller one: 512 against 2048 */
static void qp_attr_mtu_local_smaller(struct kunit *test)
{
	struct smc_qp_end local = qa_local, peer = qa_peer;
	struct smc_qp_attrs out;

	local.mtu = 2;
	peer.mtu = 4;
	qa_compute(test, &local, &peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.path_mtu, 2);
}

/* The peer's QPN is where our packets go */
static void qp_attr_dest_qpn_from_peer(struct kunit *test)
{
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.dest_qpn, 0x12U);
}

/* We expect the peer's initial PSN first */
static void qp_attr_rq_psn_from_peer(struct kunit *test)
{
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.rq_psn, 0x123456U);
}

/* We send from our own initial PSN */
static void qp_attr_sq_psn_from_local(struct kunit *test)
{
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.sq_psn, 0xabcdefU);
}

/* The GRH goes to the peer's GID */
static void qp_attr_dgid_from_peer(struct kunit *test)
{
	static const u8 want[SMC_GID_LEN] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0xff, 0xff, 192, 0, 2, 2,
	};
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_MEMEQ(test, out.dgid, want, SMC_GID_LEN);
}

/* The Ethernet frame goes to the peer's MAC */
static void qp_attr_dmac_from_peer(struct kunit *test)
{
	static const u8 want[SMC_MAC_LEN] = {
		0x52, 0x54, 0x00, 0x12, 0x34, 0x02,
	};
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_MEMEQ(test, out.dmac, want, SMC_MAC_LEN);
}

/* Seen from the other side, every per-end value comes from the other end */
static void qp_attr_swapped_ends(struct kunit *test)
{
	struct smc_qp_attrs out;

	qa_compute(test, &qa_peer, &qa_local, true, &out);
	KUNIT_EXPECT_EQ(test, out.dest_qpn, 0x11U);
	KUNIT_EXPECT_EQ(test, out.rq_psn, 0xabcdefU);
	KUNIT_EXPECT_EQ(test, out.sq_psn, 0x123456U);
	KUNIT_EXPECT_MEMEQ(test, out.dgid, qa_local.gid, SMC_GID_LEN);
	KUNIT_EXPECT_MEMEQ(test, out.dmac, qa_local.mac, SMC_MAC_LEN);
}

/* Both sides' results pair up: each expects the PSN the other sends */
static void qp_attr_both_sides_agree(struct kunit *test)
{
	struct smc_qp_attrs a, b;

	qa_compute(test, &qa_local, &qa_peer, true, &a);
	qa_compute(test, &qa_peer, &qa_local, true, &b);
	KUNIT_EXPECT_EQ(test, a.rq_psn, b.sq_psn);
	KUNIT_EXPECT_EQ(test, b.rq_psn, a.sq_psn);
	KUNIT_EXPECT_EQ(test, a.dest_qpn, qa_peer.qpn);
	KUNIT_EXPECT_EQ(test, b.dest_qpn, qa_local.qpn);
	KUNIT_EXPECT_EQ(test, a.path_mtu, b.path_mtu);
	KUNIT_EXPECT_EQ(test, a.hop_limit, b.hop_limit);
}

/* Field by field: the structs have padding */
static void qa_expect_same_end(struct kunit *test, const struct smc_qp_end *a,
			       const struct smc_qp_end *b)
{
	KUNIT_EXPECT_MEMEQ(test, a->gid, b->gid, SMC_GID_LEN);
	KUNIT_EXPECT_MEMEQ(test, a->mac, b->mac, SMC_MAC_LEN);
	KUNIT_EXPECT_EQ(test, a->qpn, b->qpn);
	KUNIT_EXPECT_EQ(test, a->psn, b->psn);
	KUNIT_EXPECT_EQ(test, a->mtu, b->mtu);
}

/* The ends are inputs only */
static void qp_attr_ends_unchanged(struct kunit *test)
{
	struct smc_qp_end local = qa_local, peer = qa_peer;
	struct smc_qp_attrs out;

	qa_compute(test, &local, &peer, true, &out);
	qa_expect_same_end(test, &local, &qa_local);
	qa_expect_same_end(test, &peer, &qa_peer);
}

/* RoCE v2 is routable UDP/IP: hop limit 64 */
static void qp_attr_hop_limit_v2(struct kunit *test)
{
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.hop_limit, 64);
}

/* RoCE v1 is link local: hop limit 1 */
static void qp_attr_hop_limit_v1(struct kunit *test)
{
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, false, &out);
	KUNIT_EXPECT_EQ(test, out.hop_limit, 1);
}

/* Only the hop limit depends on the RoCE version */
static void qp_attr_v1_v2_differ_only_in_hops(struct kunit *test)
{
	struct smc_qp_attrs v1, v2;

	qa_compute(test, &qa_local, &qa_peer, false, &v1);
	qa_compute(test, &qa_local, &qa_peer, true, &v2);
	KUNIT_EXPECT_NE(test, v1.hop_limit, v2.hop_limit);
	/* field by field: the struct has padding */
	KUNIT_EXPECT_EQ(test, v1.path_mtu, v2.path_mtu);
	KUNIT_EXPECT_EQ(test, v1.dest_qpn, v2.dest_qpn);
	KUNIT_EXPECT_EQ(test, v1.rq_psn, v2.rq_psn);
	KUNIT_EXPECT_EQ(test, v1.sq_psn, v2.sq_psn);
	KUNIT_EXPECT_MEMEQ(test, v1.dgid, v2.dgid, SMC_GID_LEN);
	KUNIT_EXPECT_MEMEQ(test, v1.dmac, v2.dmac, SMC_MAC_LEN);
	KUNIT_EXPECT_EQ(test, v1.timeout, v2.timeout);
	KUNIT_EXPECT_EQ(test, v1.retry_cnt, v2.retry_cnt);
	KUNIT_EXPECT_EQ(test, v1.rnr_retry, v2.rnr_retry);
	KUNIT_EXPECT_EQ(test, v1.min_rnr_timer, v2.min_rnr_timer);
	KUNIT_EXPECT_EQ(test, v1.max_rd_atomic, v2.max_rd_atomic);
	KUNIT_EXPECT_EQ(test, v1.max_dest_rd_atomic, v2.max_dest_rd_atomic);
}

/* Local ACK timeout 16 (4.096 us * 2^16, about 268 ms) */
static void qp_attr_timeout(struct kunit *test)
{
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.timeout, 16);
}

/* 7 transport retries */
static void qp_attr_retry_cnt(struct kunit *test)
{
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.retry_cnt, 7);
}

/* RNR retry 7: retry forever */
static void qp_attr_rnr_retry(struct kunit *test)
{
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.rnr_retry, 7);
}

/* RNR NAK timer code 12 (0.64 ms) */
static void qp_attr_min_rnr_timer(struct kunit *test)
{
	struct smc_qp_attrs out;

	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.min_rnr_timer, 12);
}

/* The fixed values do not depend on the ends or the RoCE version */
static void qp_attr_fixed_values_everywhere(struct kunit *test)
{
	struct smc_qp_end local = qa_local, peer = qa_peer;
	struct smc_qp_attrs out;
	int v2;

	local.mtu = QA_MTU_MIN;
	peer.qpn = SMC_QP_NUM_MASK;
	peer.psn = 0;
	for (v2 = 0; v2 < 2; v2++) {
		qa_compute(test, &local, &peer, v2, &out);
		KUNIT_EXPECT_EQ(test, out.timeout, 16);
		KUNIT_EXPECT_EQ(test, out.retry_cnt, 7);
		KUNIT_EXPECT_EQ(test, out.rnr_retry, 7);
		KUNIT_EXPECT_EQ(test, out.min_rnr_timer, 12);
		KUNIT_EXPECT_EQ(test, out.max_rd_atomic, 0);
		KUNIT_EXPECT_EQ(test, out.max_dest_rd_atomic, 0);
	}
}

/* SMC-R only writes: no RDMA reads or atomics either way */
static void qp_attr_no_rd_atomic(struct kunit *test)
{
	struct smc_qp_attrs out;

	/* qa_compute() fills @out with 0xa5 first */
	qa_compute(test, &qa_local, &qa_peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.max_rd_atomic, 0);
	KUNIT_EXPECT_EQ(test, out.max_dest_rd_atomic, 0);
}

/* QP 0 (SMI) is reserved */
static void qp_attr_reject_qpn_0(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;

	e.qpn = 0;
	qa_expect_reject(test, &e);
}

/* QP 1 (GSI) is reserved */
static void qp_attr_reject_qpn_1(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;

	e.qpn = 1;
	qa_expect_reject(test, &e);
}

/* QPNs are 24 bits */
static void qp_attr_reject_qpn_too_big(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;

	e.qpn = 0x1000000;
	qa_expect_reject(test, &e);
	/* bits above 24 are not masked off: 0x1000012 is not QP 0x12 */
	e.qpn = 0x1000012;
	qa_expect_reject(test, &e);
	e.qpn = U32_MAX;
	qa_expect_reject(test, &e);
}

/* PSNs are 24 bits */
static void qp_attr_reject_psn_too_big(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;

	e.psn = 0x1000000;
	qa_expect_reject(test, &e);
	e.psn = 0x1123456;
	qa_expect_reject(test, &e);
	e.psn = U32_MAX;
	qa_expect_reject(test, &e);
}

/* MTU code 0 is no MTU */
static void qp_attr_reject_mtu_0(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;

	e.mtu = 0;
	qa_expect_reject(test, &e);
}

/* MTU codes above 5 (4096) do not exist */
static void qp_attr_reject_mtu_6(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;

	e.mtu = 6;
	qa_expect_reject(test, &e);
	e.mtu = 0x0f;
	qa_expect_reject(test, &e);
	e.mtu = 0xff;
	qa_expect_reject(test, &e);
}

/* An all-zero GID is no GID */
static void qp_attr_reject_zero_gid(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;

	memset(e.gid, 0, SMC_GID_LEN);
	qa_expect_reject(test, &e);
}

/* Several faults at once are still one -EINVAL */
static void qp_attr_reject_all_bad(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;

	e.qpn = 1;
	e.psn = U32_MAX;
	e.mtu = 0;
	memset(e.gid, 0, SMC_GID_LEN);
	qa_expect_reject(test, &e);
}

/* QPN 2, the first QP that is not reserved */
static void qp_attr_accept_qpn_2(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;
	struct smc_qp_attrs as_local, as_peer;

	e.qpn = 2;
	qa_expect_accept(test, &e, &as_local, &as_peer);
	KUNIT_EXPECT_EQ(test, as_peer.dest_qpn, 2U);
	KUNIT_EXPECT_EQ(test, as_local.dest_qpn, qa_peer.qpn);
}

/* QPN 0xffffff, the largest 24-bit value */
static void qp_attr_accept_qpn_max(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;
	struct smc_qp_attrs as_local, as_peer;

	e.qpn = 0xffffff;
	qa_expect_accept(test, &e, &as_local, &as_peer);
	KUNIT_EXPECT_EQ(test, as_peer.dest_qpn, 0xffffffU);
}

/* PSN 0 */
static void qp_attr_accept_psn_0(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;
	struct smc_qp_attrs as_local, as_peer;

	e.psn = 0;
	qa_expect_accept(test, &e, &as_local, &as_peer);
	KUNIT_EXPECT_EQ(test, as_local.sq_psn, 0U);
	KUNIT_EXPECT_EQ(test, as_peer.rq_psn, 0U);
}

/* PSN 0xffffff, the largest 24-bit value */
static void qp_attr_accept_psn_max(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;
	struct smc_qp_attrs as_local, as_peer;

	e.psn = 0xffffff;
	qa_expect_accept(test, &e, &as_local, &as_peer);
	KUNIT_EXPECT_EQ(test, as_local.sq_psn, 0xffffffU);
	KUNIT_EXPECT_EQ(test, as_peer.rq_psn, 0xffffffU);
}

/* MTU code 1 (256), the smallest */
static void qp_attr_accept_mtu_1(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;
	struct smc_qp_attrs as_local, as_peer;

	e.mtu = 1;
	qa_expect_accept(test, &e, &as_local, &as_peer);
	KUNIT_EXPECT_EQ(test, as_local.path_mtu, 1);
	KUNIT_EXPECT_EQ(test, as_peer.path_mtu, 1);
}

/* MTU code 5 (4096), the largest */
static void qp_attr_accept_mtu_5(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;
	struct smc_qp_attrs as_local, as_peer;

	e.mtu = 5;
	qa_expect_accept(test, &e, &as_local, &as_peer);
	/* as our end against qa_peer's 1024: 1024 */
	KUNIT_EXPECT_EQ(test, as_local.path_mtu, qa_peer.mtu);
	/* as the peer's end against qa_local's 4096: 4096 */
	KUNIT_EXPECT_EQ(test, as_peer.path_mtu, 5);
}

/* One non-zero byte, first or last, makes a GID */
static void qp_attr_accept_gid_one_byte(struct kunit *test)
{
	struct smc_qp_end e = qa_peer;
	struct smc_qp_attrs as_local, as_peer;

	memset(e.gid, 0, SMC_GID_LEN);
	e.gid[SMC_GID_LEN - 1] = 1;		/* ::1 */
	qa_expect_accept(test, &e, &as_local, &as_peer);
	KUNIT_EXPECT_MEMEQ(test, as_peer.dgid, e.gid, SMC_GID_LEN);
	memset(e.gid, 0, SMC_GID_LEN);
	e.gid[0] = 0x80;
	qa_expect_accept(test, &e, &as_local, &as_peer);
	KUNIT_EXPECT_MEMEQ(test, as_peer.dgid, e.gid, SMC_GID_LEN);
}

/* A RoCE v1 link-local GID (fe80::, from the MAC) on a v1 link */
static void qp_attr_accept_v1_gid(struct kunit *test)
{
	static const u8 v1_gid[SMC_GID_LEN] = {
		0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x50, 0x54, 0x00, 0xff, 0xfe, 0x12, 0x34, 0x02,
	};
	struct smc_qp_end e = qa_peer;
	struct smc_qp_attrs out;

	memcpy(e.gid, v1_gid, SMC_GID_LEN);
	KUNIT_EXPECT_EQ(test, smc_qp_end_check(&e), 0);
	qa_compute(test, &qa_local, &e, false, &out);
	KUNIT_EXPECT_MEMEQ(test, out.dgid, v1_gid, SMC_GID_LEN);
	KUNIT_EXPECT_EQ(test, out.hop_limit, 1);
}

/* All boundaries at once, on both ends */
static void qp_attr_accept_all_boundaries(struct kunit *test)
{
	struct smc_qp_end local = qa_local, peer = qa_peer;
	struct smc_qp_attrs out;

	local.qpn = 2;
	local.psn = 0xffffff;
	local.mtu = QA_MTU_MAX;
	peer.qpn = 0xffffff;
	peer.psn = 0;
	peer.mtu = QA_MTU_MIN;
	qa_compute(test, &local, &peer, true, &out);
	KUNIT_EXPECT_EQ(test, out.path_mtu, QA_MTU_MIN);
	KUNIT_EXPECT_EQ(test, out.dest_qpn, 0xffffffU);
	KUNIT_EXPECT_EQ(test, out.rq_psn, 0U);
	KUNIT_EXPECT_EQ(test, out.sq_psn, 0xffffffU);
}

static struct kunit_case smcr_qp_attr_cases[] = {
	KUNIT_CASE(qp_attr_samples_valid),
	KUNIT_CASE(qp_attr_mtu_min_all_pairs),
	KUNIT_CASE(qp_attr_mtu_peer_smaller),
	KUNIT_CASE(qp_attr_mtu_local_smaller),
	KUNIT_CASE(qp_attr_dest_qpn_from_peer),
	KUNIT_CASE(qp_attr_rq_psn_from_peer),
	KUNIT_CASE(qp_attr_sq_psn_from_local),
	KUNIT_CASE(qp_attr_dgid_from_peer),
	KUNIT_CASE(qp_attr_dmac_from_peer),
	KUNIT_CASE(qp_attr_swapped_ends),
	KUNIT_CASE(qp_attr_both_sides_agree),
	KUNIT_CASE(qp_attr_ends_unchanged),
	KUNIT_CASE(qp_attr_hop_limit_v2),
	KUNIT_CASE(qp_attr_hop_limit_v1),
	KUNIT_CASE(qp_attr_v1_v2_differ_only_in_hops),
	KUNIT_CASE(qp_attr_timeout),
	KUNIT_CASE(qp_attr_retry_cnt),
	KUNIT_CASE(qp_attr_rnr_retry),
	KUNIT_CASE(qp_attr_min_rnr_timer),
	KUNIT_CASE(qp_attr_fixed_values_everywhere),
	KUNIT_CASE(qp_attr_no_rd_atomic),
	KUNIT_CASE(qp_attr_reject_qpn_0),
	KUNIT_CASE(qp_attr_reject_qpn_1),
	KUNIT_CASE(qp_attr_reject_qpn_too_big),
	KUNIT_CASE(qp_attr_reject_psn_too_big),
	KUNIT_CASE(qp_attr_reject_mtu_0),
	KUNIT_CASE(qp_attr_reject_mtu_6),
	KUNIT_CASE(qp_attr_reject_zero_gid),
	KUNIT_CASE(qp_attr_reject_all_bad),
	KUNIT_CASE(qp_attr_accept_qpn_2),
	KUNIT_CASE(qp_attr_accept_qpn_max),
	KUNIT_CASE(qp_attr_accept_psn_0),
	KUNIT_CASE(qp_attr_accept_psn_max),
	KUNIT_CASE(qp_attr_accept_mtu_1),
	KUNIT_CASE(qp_attr_accept_mtu_5),
	KUNIT_CASE(qp_attr_accept_gid_one_byte),
	KUNIT_CASE(qp_attr_accept_v1_gid),
	KUNIT_CASE(qp_attr_accept_all_boundaries),
	{}
};

static struct kunit_suite smcr_qp_attr_suite = {
	.name = "smcr_qp_attr",
	.test_cases = smcr_qp_attr_cases,
};

kunit_test_suite(smcr_qp_attr_suite);
