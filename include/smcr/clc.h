/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: CLC message encoding and validation. Pure functions on buffers:
 * no sockets, no ib_core, so the KUnit module links them alone.
 */
#ifndef _SMCR_CLC_H
#define _SMCR_CLC_H

#include <smcr/clc_wire.h>

/**
 * struct smc_clc_decline_info - decoded content of a Decline message
 * @peer_id: sender's peer ID
 * @diagnosis: sender's reason (SMC_CLC_DECL_*)
 * @version: CLC version from the header
 * @out_of_sync: the S-bit: the sender's link group is out of sync
 */
struct smc_clc_decline_info {
	u8	peer_id[SMC_PEER_ID_LEN];
	u32	diagnosis;
	u8	version;
	bool	out_of_sync;
};

#define SMC_CLC_MAX_V4_PREFIX	8	/* local IPv4 addresses matched */

/**
 * struct smc_clc_ipv4_prefix - an IPv4 subnet
 * @addr: subnet number (or any address in the subnet), network order
 * @len: prefix length, 0..32
 */
struct smc_clc_ipv4_prefix {
	__be32	addr;
	u8	len;
};

/**
 * struct smc_clc_prefixes - IP prefixes of one side (RFC 7609, 3.5.1.2)
 * @ipv4_cnt: valid entries of @ipv4
 * @ipv4: IPv4 subnets; a Proposal carries at most one, and none when it
 *	lists IPv6 prefixes
 * @ipv6_cnt: valid entries of @ipv6
 * @ipv6: IPv6 prefixes (prefix bits beyond the length are not compared)
 */
struct smc_clc_prefixes {
	u8				ipv4_cnt;
	struct smc_clc_ipv4_prefix	ipv4[SMC_CLC_MAX_V4_PREFIX];
	u8				ipv6_cnt;
	struct smc_clc_ipv6_prefix	ipv6[SMC_CLC_MAX_V6_PREFIX];
};

/**
 * struct smc_clc_proposal_info - what a client proposes
 * @version: CLC version from the header (1 for what smcr builds)
 * @type_v1: SMC types offered for CLC version 1 (enum smc_clc_smc_type)
 * @type_v2: SMC types offered for CLC version 2 (SMC_CLC_TYPE_N in v1)
 * @smcr_v1: SMC-R version 1 is offered: @peer_id, @gid, @mac and
 *	@prefixes are meaningful
 * @smcr_v2: SMC-R version 2 is offered, with a v2 extension
 * @peer_id: client's peer ID (A.2.1)
 * @gid: client's preferred RoCE GID
 * @mac: client's preferred RoCE MAC
 * @prefixes: client's IPv4 subnet or IPv6 prefixes
 * @has_v2_ext: a version 2 extension was present; the fields below are set
 * @release: v2 extension: SMC release of the client
 * @seid: v2 extension: a system EID is in the SMC-D v2 extension
 * @roce_v2_gid: v2 extension: GID for SMC-R v2 (IPv6 or IPv4-mapped)
 * @max_conns: v2 extension: connections per link group (SMC-R v2)
 * @max_links: v2 extension: links per link group (SMC-R v2)
 * @feature_mask: v2 extension: supplemental features
 * @eid_cnt: v2 extension: number of user EIDs in @eids
 * @eids: v2 extension: user EIDs, 32 bytes each, blank padded
 * @has_smcd_v2_ext: an SMC-D v2 extension was present
 * @ism_gid_cnt: SMC-D v2: number of ISM GID/CHID entries
 *
 * smc_clc_proposal_build() reads @smcr_v1, @smcr_v2, @peer_id, @gid, @mac,
 * @prefixes and, for version 2, @release, @roce_v2_gid, @max_conns,
 * @max_links, @eid_cnt and @eids.
 */
struct smc_clc_proposal_info {
	u8				version;
	u8				type_v1;
	u8				type_v2;
	bool				smcr_v1;
	bool				smcr_v2;
	u8				peer_id[SMC_PEER_ID_LEN];
	u8				gid[SMC_GID_LEN];
	u8				mac[SMC_MAC_LEN];
	struct smc_clc_prefixes		prefixes;
	bool				has_v2_ext;
	u8				release;
	bool				seid;
	u8				roce_v2_gid[SMC_GID_LEN];
	u8				max_conns;
	u8				max_links;
	u16				feature_mask;
	u8				eid_cnt;
	u8				eids[SMC_CLC_MAX_EID][SMC_EID_LEN];
	bool				has_smcd_v2_ext;
	u8				ism_gid_cnt;
};

/**
 * struct smc_clc_v2_info - what a version 2 SMC-R Accept or Confirm adds
 * @eid: the negotiated EID (a user EID both sides have)
 * @has_fce: a first contact extension is present (first contact only);
 *	the fields below are meaningful
 * @os_type: sender's operating system (SMC_CLC_OS_*)
 * @release: the negotiated SMC release (0 or 1)
 * @v2_direct: the sender reaches the peer's RoCE GID without a router
 * @max_conns: release 1: connections per link group
 * @max_links: release 1: links per link group
 * @feature_mask: release 1: supplemental features
 * @gid_cnt: Confirm: number of GIDs in @gids
 * @gids: Confirm: the client's RoCE GIDs for links of the link group, the
 *	first link's first
 */
struct smc_clc_v2_info {
	u8	eid[SMC_EID_LEN];
	bool	has_fce;
	u8	os_type;
	u8	release;
	bool	v2_direct;
	u8	max_conns;
	u8	max_links;
	u16	feature_mask;
	u8	gid_cnt;
	u8	gids[SMC_CLC_MAX_FCE_GID][SMC_GID_LEN];
};

/**
 * struct smc_clc_accept_info - SMC-R link and buffer of one side, as
 *	an Accept (server) or Confirm (client) carries it
 * @peer_id: sender's peer ID
 * @gid: sender's RoCE GID for the link
 * @mac: sender's RoCE MAC for the link
 * @qpn: sender's QP number (24 bits)
 * @rmb_rkey: RKey of the sender's RMB
 * @rmbe_idx: index of the RMB element of this connection
 * @rmbe_alert_token: the sender's token for this connection
 * @rmbe_size_code: RMBE size, smc_clc_rmbe_size() (4 bits)
 * @mtu_code: QP MTU, smc_clc_mtu_to_bytes() (4 bits)
 * @rmb_vaddr: virtual address of the sender's RMB
 * @psn: sender's initial packet sequence number (24 bits)
 * @first_contact: header F-bit (first contact for the link group)
 * @version: CLC version: 1, or 2 with @v2 (Linux's layout)
 * @v2: version 2 only
 */
struct smc_clc_accept_info {
	u8	peer_id[SMC_PEER_ID_LEN];
	u8	gid[SMC_GID_LEN];
	u8	mac[SMC_MAC_LEN];
	u32	qpn;
	u32	rmb_rkey;
	u8	rmbe_idx;
	u32	rmbe_alert_token;
	u8	rmbe_size_code;
	u8	mtu_code;
	u64	rmb_vaddr;
	u32	psn;
	bool	first_contact;
	u8	version;
	struct smc_clc_v2_info v2;
};

/* RMBE size codes (A.2.3): size = 2^(code + 14) bytes, 16 KiB up */
#define SMC_CLC_RMBE_MIN_SIZE		(16U << 10)
#define SMC_CLC_RMBE_MAX_CODE		15	/* 4-bit field: 512 MiB */
#define SMC_CLC_RMBE_RFC_MAX_CODE	5	/* 512 KiB, the RFC's largest */

/* QP MTU codes (A.2.3), the values of enum ib_mtu */
#define SMC_CLC_MTU_256			1
#define SMC_CLC_MTU_4096		5

int smc_clc_hdr_check(const struct smc_clc_hdr *hdr);
int smc_clc_trailer_check(const void *msg, size_t len);
size_t smc_clc_decline_build(struct smc_clc_decline *dcl,
			     const u8 peer_id[SMC_PEER_ID_LEN], u32 diagnosis,
			     bool out_of_sync);
int smc_clc_decline_parse(const void *msg, size_t len,
			  struct smc_clc_decline_info *info);

int smc_clc_proposal_build(void *buf, size_t size,
			   const struct smc_clc_proposal_info *info);
int smc_clc_proposal_parse(const void *msg, size_t len,
			   struct smc_clc_proposal_info *info);

int smc_clc_accept_build(void *buf, size_t size,
			 const struct smc_clc_accept_info *info);
int smc_clc_confirm_build(void *buf, size_t size,
			  const struct smc_clc_accept_info *info);
int smc_clc_accept_parse(const void *msg, size_t len,
			 struct smc_clc_accept_info *info);
int smc_clc_confirm_parse(const void *msg, size_t len,
			  struct smc_clc_accept_info *info);

u32 smc_clc_decline_code(int err);

u32 smc_clc_rmbe_size(u8 code);
int smc_clc_rmbe_code(u32 size);
int smc_clc_mtu_to_bytes(u8 code);
int smc_clc_mtu_from_bytes(u32 bytes);
bool smc_clc_prefix_match(const struct smc_clc_prefixes *local,
			  const struct smc_clc_prefixes *peer);

/* clc.c, for clc_v2.c */
int smc_clc_msg_check(const void *msg, size_t len, u8 type);
int smc_clc_prefix_area_build(void *buf, size_t size,
			      const struct smc_clc_prefixes *pfx);
int smc_clc_acc_conf_fill(struct smc_clc_accept_confirm *msg,
			  const struct smc_clc_accept_info *info);
int smc_clc_acc_conf_read(const struct smc_clc_accept_confirm *ac,
			  struct smc_clc_accept_info *info);
void smc_clc_hdr_init(struct smc_clc_hdr *hdr, u8 type, u16 len, u8 version,
		      u8 type_flags);
void smc_clc_trailer_init(void *msg, size_t len);

/* clc_v2.c: Linux's version 2 layouts and the release 1 negotiation */
#define SMC_CLC_RELEASE		1	/* the SMC release smcr implements */
#define SMC_CLC_OS_LINUX	2	/* first contact extension os_type */
#define SMC_CLC_MAX_CONNS_MIN	16	/* release 1: least max_conns */
#define SMC_CLC_MAX_CONNS	255	/* release 1: most max_conns */
#define SMC_CLC_MAX_LINKS_MIN	1	/* release 1: least max_links */
#define SMC_CLC_MAX_LINKS	2	/* release 1: most max_links */

/**
 * struct smc_clc_v2_limits - what one side of a release 1 link group allows
 * @release: the release negotiated so far
 * @max_conns: connections per link group
 * @max_links: links per link group
 */
struct smc_clc_v2_limits {
	u8	release;
	u8	max_conns;
	u8	max_links;
};

int smc_clc_v2_proposal_build(void *buf, size_t size,
			      const struct smc_clc_proposal_info *info);
int smc_clc_v2_acc_conf_build(void *buf, size_t size, u8 type,
			      const struct smc_clc_accept_info *info);
int smc_clc_v2_acc_conf_parse(const void *msg, size_t len, u8 type,
			      struct smc_clc_accept_info *info);
int smc_clc_v2_eid_match(const struct smc_clc_proposal_info *prop,
			 const u8 *ueids, int ueid_cnt,
			 u8 eid[SMC_EID_LEN]);
u32 smc_clc_v2_server_limits(const struct smc_clc_proposal_info *prop,
			     const struct smc_clc_v2_limits *ours,
			     struct smc_clc_v2_limits *out);
u32 smc_clc_v2_client_limits(const struct smc_clc_v2_info *acc,
			     const struct smc_clc_v2_limits *ours,
			     struct smc_clc_v2_limits *out);
u32 smc_clc_v2_confirm_check(const struct smc_clc_v2_info *conf,
			     const struct smc_clc_v2_limits *agreed);

#endif /* _SMCR_CLC_H */
