/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: CLC message wire formats (RFC 7609, Appendix A.2).
 *
 * Every CLC message starts with an 8-byte header and ends with a 4-byte
 * trailer; both carry the eye catcher "SMCR" in EBCDIC. All multi-byte
 * fields are big endian. Shared by smcr.ko and its KUnit tests.
 *
 * Besides the version 1 formats of the RFC, the layouts Linux's in-tree SMC
 * uses for CLC version 2 are described here, so that smcr can read what a
 * Linux peer sends (it always proposes with version 2) and answer it in
 * version 1.
 */
#ifndef _SMCR_CLC_WIRE_H
#define _SMCR_CLC_WIRE_H

#include <linux/build_bug.h>
#include <linux/types.h>

/* "SMCR" in IBM-1047 (EBCDIC) */
#define SMC_EYECATCHER_R	{ 0xE2, 0xD4, 0xC3, 0xD9 }
#define SMC_EYECATCHER_LEN	4

enum smc_clc_type {
	SMC_CLC_PROPOSAL	= 0x01,
	SMC_CLC_ACCEPT		= 0x02,
	SMC_CLC_CONFIRM		= 0x03,
	SMC_CLC_DECLINE		= 0x04,
};

#define SMC_CLC_V1		1
#define SMC_CLC_V2		2

/*
 * Header byte 7. The RFC defines the high nibble (version) and, per type,
 * bit 0x08: F (first contact) in an Accept, S (out of sync) in a Decline.
 * Linux splits the low nibble into two 2-bit fields, the SMC types a
 * Proposal offers for CLC version 1 (bits 1-0) and version 2 (bits 3-2);
 * in an Accept or Confirm the v1 field says SMC-R or SMC-D and bit 0x08
 * is the first contact flag (Linux also sets it in a Confirm).
 */
#define SMC_CLC_VERSION_SHIFT	4
#define SMC_CLC_DECL_SYNC	0x08	/* Decline S-bit: link group out of sync */
#define SMC_CLC_FIRST_CONTACT	0x08	/* Accept F-bit: first contact */
#define SMC_CLC_TYPE_V1_SHIFT	0
#define SMC_CLC_TYPE_V2_SHIFT	2
#define SMC_CLC_TYPE_MASK	0x03

/* Values of the 2-bit SMC type fields of header byte 7 (Linux's layout) */
enum smc_clc_smc_type {
	SMC_CLC_TYPE_R		= 0,	/* SMC-R; also what a v1 RFC peer sends */
	SMC_CLC_TYPE_D		= 1,	/* SMC-D */
	SMC_CLC_TYPE_N		= 2,	/* neither */
	SMC_CLC_TYPE_B		= 3,	/* both */
};

#define SMC_PEER_ID_LEN		8	/* A.2.1: 2-byte instance + RoCE MAC */
#define SMC_GID_LEN		16	/* RoCE GID, an IPv6 address */
#define SMC_MAC_LEN		6
#define SMC_EID_LEN		32	/* Linux: user/system enterprise ID */
#define SMC_HOSTNAME_LEN	32	/* Linux: first contact extension */

#define SMC_CLC_MAX_V6_PREFIX	8	/* A.2.2: at most 8 IPv6 prefixes */
#define SMC_CLC_MAX_EID		8	/* Linux: user EIDs in a v2 Proposal */
#define SMC_CLC_MAX_ISM_GID	8	/* Linux: ISM GID/CHID entries */

struct smc_clc_hdr {
	u8	eyecatcher[SMC_EYECATCHER_LEN];
	u8	type;			/* enum smc_clc_type */
	__be16	length;			/* whole message, header to trailer */
	u8	flags;			/* version << 4 | type-specific bits */
} __packed;
static_assert(sizeof(struct smc_clc_hdr) == 8);

struct smc_clc_trailer {
	u8	eyecatcher[SMC_EYECATCHER_LEN];
} __packed;
static_assert(sizeof(struct smc_clc_trailer) == 4);

/* A.2.1 peer ID, then the RoCE GID and MAC: leads Proposal/Accept/Confirm */
struct smc_clc_local {
	u8	peer_id[SMC_PEER_ID_LEN];
	u8	gid[SMC_GID_LEN];
	u8	mac[SMC_MAC_LEN];
} __packed;
static_assert(sizeof(struct smc_clc_local) == 30);

/*
 * A.2.2, Figure 26: the fixed start of a Proposal. iparea_offset counts the
 * bytes between its own end and the IP prefix area (0 in the RFC; Linux's
 * version 2 Proposal puts struct smc_clc_smcd_area there).
 */
struct smc_clc_proposal {
	struct smc_clc_hdr	hdr;
	struct smc_clc_local	lcl;
	__be16			iparea_offset;
} __packed;
static_assert(sizeof(struct smc_clc_proposal) == 40);

/* A.2.2: the IP prefix area */
struct smc_clc_prefix_area {
	__be32	ipv4_subnet;		/* IPv4 flow: subnet; else zero */
	u8	ipv4_prefix_len;	/* significant bits of ipv4_subnet */
	u8	reserved[2];
	u8	ipv6_prefix_cnt;	/* IPv6 flow: entries that follow */
} __packed;
static_assert(sizeof(struct smc_clc_prefix_area) == 8);

/* A.2.2, Figure 27 */
struct smc_clc_ipv6_prefix {
	u8	prefix[16];
	u8	prefix_len;
} __packed;
static_assert(sizeof(struct smc_clc_ipv6_prefix) == 17);

/* Largest version 1 Proposal smcr builds: area offset 0, 8 IPv6 prefixes */
#define SMC_CLC_PROPOSAL_V1_MAX_LEN					\
	(sizeof(struct smc_clc_proposal) +				\
	 sizeof(struct smc_clc_prefix_area) +				\
	 SMC_CLC_MAX_V6_PREFIX * sizeof(struct smc_clc_ipv6_prefix) +	\
	 sizeof(struct smc_clc_trailer))
static_assert(SMC_CLC_PROPOSAL_V1_MAX_LEN == 188);

/*
 * Linux, CLC version 2 Proposal: the SMC-D area right after
 * iparea_offset. It is always present in a version 2 Proposal.
 * v2_ext_offset counts from the end of that field to the v2 extension
 * (0: no v2 extension).
 */
struct smc_clc_smcd_area {
	__be64	ism_gid;
	__be16	ism_chid;
	__be16	v2_ext_offset;
	u8	vendor_oui[3];
	u8	vendor_exp_options[5];
	u8	reserved[20];
} __packed;
static_assert(sizeof(struct smc_clc_smcd_area) == 40);

/* smc_clc_smcd_area.v2_ext_offset counts from this offset in the area */
#define SMC_CLC_V2_EXT_BASE		12

/* Linux: bits of smc_clc_v2_ext.flags */
#define SMC_CLC_V2_FLAG_SEID		0x01	/* system EID in SMC-D v2 ext */
#define SMC_CLC_V2_RELEASE_SHIFT	4	/* release in the high nibble */

/*
 * Linux, CLC version 2 Proposal: the v2 extension, followed by eid_cnt
 * user EIDs of 32 bytes each. smcd_v2_ext_offset counts from the end of
 * that field (8 bytes into this struct) to the SMC-D v2 extension.
 */
struct smc_clc_v2_ext {
	u8	eid_cnt;
	u8	ism_gid_cnt;
	u8	reserved1;
	u8	flags;			/* release << 4 | SEID */
	u8	reserved2[2];
	__be16	smcd_v2_ext_offset;
	u8	roce_gid[SMC_GID_LEN];	/* SMC-R v2: IPv6 or IPv4-mapped */
	u8	max_conns;		/* SMC-R v2, release 1 */
	u8	max_links;		/* SMC-R v2, release 1 */
	__be16	feature_mask;
	u8	reserved3[12];
} __packed;
static_assert(sizeof(struct smc_clc_v2_ext) == 40);

/* smc_clc_v2_ext.smcd_v2_ext_offset counts from this offset in it */
#define SMC_CLC_SMCD_V2_EXT_BASE	8

/* Linux: the SMC-D v2 extension, followed by ism_gid_cnt GID/CHID pairs */
struct smc_clc_smcd_v2_ext {
	u8	system_eid[SMC_EID_LEN];
	u8	reserved[16];
} __packed;
static_assert(sizeof(struct smc_clc_smcd_v2_ext) == 48);

struct smc_clc_ism_gid_chid {
	__be64	gid;
	__be16	chid;
} __packed;
static_assert(sizeof(struct smc_clc_ism_gid_chid) == 10);

/*
 * Largest Proposal Linux sends: version 2 with every optional part at its
 * maximum, 40 + 40 + 8 + 8 * 17 + 40 + 8 * 32 + 48 + 8 * 10 + 4 = 652.
 */
#define SMC_CLC_PROPOSAL_LINUX_MAX_LEN					\
	(sizeof(struct smc_clc_proposal) +				\
	 sizeof(struct smc_clc_smcd_area) +				\
	 sizeof(struct smc_clc_prefix_area) +				\
	 SMC_CLC_MAX_V6_PREFIX * sizeof(struct smc_clc_ipv6_prefix) +	\
	 sizeof(struct smc_clc_v2_ext) +				\
	 SMC_CLC_MAX_EID * SMC_EID_LEN +				\
	 sizeof(struct smc_clc_smcd_v2_ext) +				\
	 SMC_CLC_MAX_ISM_GID * sizeof(struct smc_clc_ism_gid_chid) +	\
	 sizeof(struct smc_clc_trailer))
static_assert(SMC_CLC_PROPOSAL_LINUX_MAX_LEN == 652);

/*
 * A.2.3/A.2.4, Figures 28 and 29: Accept and Confirm share this layout.
 * rmbe_size_mtu: RMBE size code in the high nibble, QP MTU in the low one.
 */
struct smc_clc_accept_confirm {
	struct smc_clc_hdr	hdr;
	struct smc_clc_local	lcl;
	u8			qpn[3];
	__be32			rmb_rkey;
	u8			rmbe_idx;
	__be32			rmbe_alert_token;
	u8			rmbe_size_mtu;
	u8			reserved;
	__be64			rmb_vaddr;
	u8			reserved2;
	u8			psn[3];
	struct smc_clc_trailer	trl;
} __packed;
static_assert(sizeof(struct smc_clc_accept_confirm) == 68);

#define SMC_CLC_RMBE_SIZE_SHIFT	4
#define SMC_CLC_MTU_MASK	0x0f

/*
 * Linux, version 2 SMC-R Accept/Confirm: after the PSN come a 32-byte EID
 * and 8 reserved bytes (108 bytes with the trailer). On first contact a
 * first contact extension follows: 36 bytes for release 0, 52 for release
 * 1; a Confirm then adds a GID list header and gid_cnt GIDs of 16 bytes.
 */
#define SMC_CLC_ACCEPT_V2_LEN		108

struct smc_clc_fce {
	u8	flags;			/* 0x80: v2 direct (no gateway) */
	u8	os_release;		/* os type << 4 | release */
	u8	reserved[2];
	u8	hostname[SMC_HOSTNAME_LEN];
} __packed;
static_assert(sizeof(struct smc_clc_fce) == 36);

struct smc_clc_fce_v2x {
	struct smc_clc_fce	base;
	u8			max_conns;
	u8			max_links;
	__be16			feature_mask;
	__be32			vendor_exp_options;
	u8			reserved[8];
} __packed;
static_assert(sizeof(struct smc_clc_fce_v2x) == 52);

struct smc_clc_fce_gid_list {
	u8	gid_cnt;
	u8	reserved[3];
} __packed;
static_assert(sizeof(struct smc_clc_fce_gid_list) == 4);

#define SMC_CLC_MAX_FCE_GID	8	/* bound smcr accepts (Linux sends 2) */

/* A.2.5, Figure 30 */
struct smc_clc_decline {
	struct smc_clc_hdr	hdr;
	u8			peer_id[SMC_PEER_ID_LEN];
	__be32			diagnosis;
	u8			reserved[4];
	struct smc_clc_trailer	trl;
} __packed;
static_assert(sizeof(struct smc_clc_decline) == 28);

/*
 * Linux peers also send a version 2 Decline that carries four more
 * diagnosis words before the trailer.
 */
#define SMC_CLC_DECLINE_V2_LEN	44

/*
 * Largest CLC message smcr accepts from a peer. The largest Linux sends is
 * a version 2 Proposal of SMC_CLC_PROPOSAL_LINUX_MAX_LEN (652) bytes.
 */
#define SMC_CLC_MAX_LEN		1024
static_assert(SMC_CLC_MAX_LEN >= SMC_CLC_PROPOSAL_LINUX_MAX_LEN);
#define SMC_CLC_MIN_LEN		(sizeof(struct smc_clc_hdr) + \
				 sizeof(struct smc_clc_trailer))

/* 24-bit big-endian fields (QP number, PSN) */
static inline u32 smc_clc_get24(const u8 b[3])
{
	return (u32)b[0] << 16 | (u32)b[1] << 8 | b[2];
}

static inline void smc_clc_put24(u8 b[3], u32 v)
{
	b[0] = v >> 16;
	b[1] = v >> 8;
	b[2] = v;
}

#define SMC_CLC_U24_MAX		0xffffffU

#endif /* _SMCR_CLC_WIRE_H */
