/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * smcr: the generic netlink interface of AF_SMC ("SMC_GEN_NETLINK").
 *
 * Every number in this file (family name and version, commands, attributes
 * and the nesting of attributes, size limits) is the one Linux uses in its
 * own UAPI header of the same name, so tools written for Linux's SMC (IBM's
 * smc-tools: smcr, smcd, smc_dbg) talk to smcr unchanged, and smcr's own
 * admin tool talks to Linux's SMC.
 *
 * smcr adds a few things Linux does not have. They are numbered far above
 * Linux's ranges (commands from SMCR_NETLINK_CMD_BASE, attributes from
 * SMCR_NLA_EXT_BASE) so that they never collide with numbers Linux may
 * assign later, and consumers that only know Linux's numbers skip them.
 */
#ifndef _SMCR_UAPI_LINUX_SMC_H
#define _SMCR_UAPI_LINUX_SMC_H

/* The PNET table family of Linux (not implemented by smcr). */
enum {
	SMC_PNETID_UNSPEC,
	SMC_PNETID_NAME,
	SMC_PNETID_ETHNAME,
	SMC_PNETID_IBNAME,
	SMC_PNETID_IBPORT,
	__SMC_PNETID_MAX,
	SMC_PNETID_MAX = __SMC_PNETID_MAX - 1
};

enum {
	SMC_PNETID_GET = 1,
	SMC_PNETID_ADD,
	SMC_PNETID_DEL,
	SMC_PNETID_FLUSH
};

#define SMCR_GENL_FAMILY_NAME		"SMC_PNETID"
#define SMCR_GENL_FAMILY_VERSION	1

/* Information about SMC beyond single sockets */
#define SMC_GENL_FAMILY_NAME		"SMC_GEN_NETLINK"
#define SMC_GENL_FAMILY_VERSION		1

#define SMC_PCI_ID_STR_LEN		16	/* PCI ID string, with NUL */
#define SMC_MAX_HOSTNAME_LEN		32	/* host name, blank padded */
#define SMC_MAX_UEID			4	/* user EIDs per table */
#define SMC_MAX_EID_LEN			32	/* an EID, blank padded */

/* Commands of SMC_GEN_NETLINK */
enum {
	SMC_NETLINK_GET_SYS_INFO = 1,		/* dump: SMC_GEN_SYS_INFO */
	SMC_NETLINK_GET_LGR_SMCR,		/* dump: SMC_GEN_LGR_SMCR */
	SMC_NETLINK_GET_LINK_SMCR,		/* dump: SMC_GEN_LINK_SMCR */
	SMC_NETLINK_GET_LGR_SMCD,		/* dump: SMC_GEN_LGR_SMCD */
	SMC_NETLINK_GET_DEV_SMCD,		/* dump: SMC_GEN_DEV_SMCD */
	SMC_NETLINK_GET_DEV_SMCR,		/* dump: SMC_GEN_DEV_SMCR */
	SMC_NETLINK_GET_STATS,			/* dump: SMC_GEN_STATS */
	SMC_NETLINK_GET_FBACK_STATS,		/* dump: SMC_GEN_FBACK_STATS */
	SMC_NETLINK_DUMP_UEID,			/* dump: SMC_NLA_EID_TABLE_* */
	SMC_NETLINK_ADD_UEID,			/* do, admin */
	SMC_NETLINK_REMOVE_UEID,		/* do, admin */
	SMC_NETLINK_FLUSH_UEID,			/* do, admin */
	SMC_NETLINK_DUMP_SEID,
	SMC_NETLINK_ENABLE_SEID,
	SMC_NETLINK_DISABLE_SEID,
	SMC_NETLINK_DUMP_HS_LIMITATION,
	SMC_NETLINK_ENABLE_HS_LIMITATION,
	SMC_NETLINK_DISABLE_HS_LIMITATION,
};

/*
 * Commands only smcr has. Linux's SMC answers them with EOPNOTSUPP.
 *
 * SMCR_NETLINK_RESET_STATS: do, admin, no attributes. Sets the counters of
 * SMC_NETLINK_GET_STATS (except the buffer usage gauges) and the fallback
 * table of SMC_NETLINK_GET_FBACK_STATS of the caller's network namespace
 * back to zero. Linux has no such command (smc-tools emulates a reset in
 * userspace); the number is far from Linux's so it never collides.
 */
#define SMCR_NETLINK_CMD_BASE		0xc0
#define SMCR_NETLINK_RESET_STATS	(SMCR_NETLINK_CMD_BASE + 0)

/* First attribute number of smcr's additions inside Linux's nests */
#define SMCR_NLA_EXT_BASE		0x100

/* Top-level attributes: each message carries one nest */
enum {
	SMC_GEN_UNSPEC,
	SMC_GEN_SYS_INFO,		/* nest */
	SMC_GEN_LGR_SMCR,		/* nest */
	SMC_GEN_LINK_SMCR,		/* nest */
	SMC_GEN_LGR_SMCD,		/* nest */
	SMC_GEN_DEV_SMCD,		/* nest */
	SMC_GEN_DEV_SMCR,		/* nest */
	SMC_GEN_STATS,			/* nest */
	SMC_GEN_FBACK_STATS,		/* nest */
	__SMC_GEN_MAX,
	SMC_GEN_MAX = __SMC_GEN_MAX - 1
};

/* Inside SMC_GEN_SYS_INFO */
enum {
	SMC_NLA_SYS_UNSPEC,
	SMC_NLA_SYS_VER,		/* u8: highest SMC version supported */
	SMC_NLA_SYS_REL,		/* u8: release of that version */
	SMC_NLA_SYS_IS_ISM_V2,		/* u8: SMC-D v2 capable */
	SMC_NLA_SYS_LOCAL_HOST,		/* string: host name, blank padded */
	SMC_NLA_SYS_SEID,		/* string: system EID (SMC-D v2 only) */
	SMC_NLA_SYS_IS_SMCR_V2,		/* u8: SMC-R v2 capable */
	__SMC_NLA_SYS_MAX,
	SMC_NLA_SYS_MAX = __SMC_NLA_SYS_MAX - 1
};

/* smcr addition inside SMC_GEN_SYS_INFO */
#define SMCR_NLA_SYS_UEID_CNT	(SMCR_NLA_EXT_BASE + 0)	/* u32: user EIDs */

/* Inside SMC_NLA_LGR_R_V2_COMMON and SMC_NLA_LGR_D_V2_COMMON (no UNSPEC) */
enum {
	SMC_NLA_LGR_V2_VER,		/* u8 */
	SMC_NLA_LGR_V2_REL,		/* u8 */
	SMC_NLA_LGR_V2_OS,		/* u8 */
	SMC_NLA_LGR_V2_NEG_EID,		/* string */
	SMC_NLA_LGR_V2_PEER_HOST,	/* string */
	__SMC_NLA_LGR_V2_MAX,
	SMC_NLA_LGR_V2_MAX = __SMC_NLA_LGR_V2_MAX - 1
};

/* Inside SMC_NLA_LGR_R_V2 */
enum {
	SMC_NLA_LGR_R_V2_UNSPEC,
	SMC_NLA_LGR_R_V2_DIRECT,	/* u8 */
	SMC_NLA_LGR_R_V2_MAX_CONNS,	/* u8 */
	SMC_NLA_LGR_R_V2_MAX_LINKS,	/* u8 */
	__SMC_NLA_LGR_R_V2_MAX,
	SMC_NLA_LGR_R_V2_MAX = __SMC_NLA_LGR_R_V2_MAX - 1
};

/* Inside SMC_GEN_LGR_SMCR: one SMC-R link group */
enum {
	SMC_NLA_LGR_R_UNSPEC,
	SMC_NLA_LGR_R_ID,		/* u32 */
	SMC_NLA_LGR_R_ROLE,		/* u8: 0 client, 1 server */
	SMC_NLA_LGR_R_TYPE,		/* u8: redundancy type */
	SMC_NLA_LGR_R_PNETID,		/* string */
	SMC_NLA_LGR_R_VLAN_ID,		/* u8 */
	SMC_NLA_LGR_R_CONNS_NUM,	/* u32 */
	SMC_NLA_LGR_R_V2_COMMON,	/* nest */
	SMC_NLA_LGR_R_V2,		/* nest */
	SMC_NLA_LGR_R_NET_COOKIE,	/* u64 */
	SMC_NLA_LGR_R_PAD,		/* flag */
	SMC_NLA_LGR_R_BUF_TYPE,		/* u8 */
	SMC_NLA_LGR_R_SNDBUF_ALLOC,	/* uint */
	SMC_NLA_LGR_R_RMB_ALLOC,	/* uint */
	__SMC_NLA_LGR_R_MAX,
	SMC_NLA_LGR_R_MAX = __SMC_NLA_LGR_R_MAX - 1
};

/* Inside SMC_GEN_LINK_SMCR: one link of a link group */
enum {
	SMC_NLA_LINK_UNSPEC,
	SMC_NLA_LINK_ID,		/* u8 */
	SMC_NLA_LINK_IB_DEV,		/* string */
	SMC_NLA_LINK_IB_PORT,		/* u8 */
	SMC_NLA_LINK_GID,		/* string */
	SMC_NLA_LINK_PEER_GID,		/* string */
	SMC_NLA_LINK_CONN_CNT,		/* u32 */
	SMC_NLA_LINK_NET_DEV,		/* u32: ifindex */
	SMC_NLA_LINK_UID,		/* u32 */
	SMC_NLA_LINK_PEER_UID,		/* u32 */
	SMC_NLA_LINK_STATE,		/* u32 */
	__SMC_NLA_LINK_MAX,
	SMC_NLA_LINK_MAX = __SMC_NLA_LINK_MAX - 1
};

/* Inside SMC_GEN_LGR_SMCD (SMC-D: not implemented by smcr) */
enum {
	SMC_NLA_LGR_D_UNSPEC,
	SMC_NLA_LGR_D_ID,		/* u32 */
	SMC_NLA_LGR_D_GID,		/* u64 */
	SMC_NLA_LGR_D_PEER_GID,		/* u64 */
	SMC_NLA_LGR_D_VLAN_ID,		/* u8 */
	SMC_NLA_LGR_D_CONNS_NUM,	/* u32 */
	SMC_NLA_LGR_D_PNETID,		/* string */
	SMC_NLA_LGR_D_CHID,		/* u16 */
	SMC_NLA_LGR_D_PAD,		/* flag */
	SMC_NLA_LGR_D_V2_COMMON,	/* nest */
	SMC_NLA_LGR_D_EXT_GID,		/* u64 */
	SMC_NLA_LGR_D_PEER_EXT_GID,	/* u64 */
	SMC_NLA_LGR_D_SNDBUF_ALLOC,	/* uint */
	SMC_NLA_LGR_D_DMB_ALLOC,	/* uint */
	__SMC_NLA_LGR_D_MAX,
	SMC_NLA_LGR_D_MAX = __SMC_NLA_LGR_D_MAX - 1
};

/* Inside SMC_NLA_DEV_PORT and SMC_NLA_DEV_PORT2: one device port */
enum {
	SMC_NLA_DEV_PORT_UNSPEC,
	SMC_NLA_DEV_PORT_PNET_USR,	/* u8: PNET ID set by the user */
	SMC_NLA_DEV_PORT_PNETID,	/* string */
	SMC_NLA_DEV_PORT_NETDEV,	/* u32: ifindex */
	SMC_NLA_DEV_PORT_STATE,		/* u8 */
	SMC_NLA_DEV_PORT_VALID,		/* u8 */
	SMC_NLA_DEV_PORT_LNK_CNT,	/* u32 */
	__SMC_NLA_DEV_PORT_MAX,
	SMC_NLA_DEV_PORT_MAX = __SMC_NLA_DEV_PORT_MAX - 1
};

/* Inside SMC_GEN_DEV_SMCR and SMC_GEN_DEV_SMCD: one device */
enum {
	SMC_NLA_DEV_UNSPEC,
	SMC_NLA_DEV_USE_CNT,		/* u32 */
	SMC_NLA_DEV_IS_CRIT,		/* u8 */
	SMC_NLA_DEV_PCI_FID,		/* u32 */
	SMC_NLA_DEV_PCI_CHID,		/* u16 */
	SMC_NLA_DEV_PCI_VENDOR,		/* u16 */
	SMC_NLA_DEV_PCI_DEVICE,		/* u16 */
	SMC_NLA_DEV_PCI_ID,		/* string */
	SMC_NLA_DEV_PORT,		/* nest: port 1 */
	SMC_NLA_DEV_PORT2,		/* nest: port 2 */
	SMC_NLA_DEV_IB_NAME,		/* string */
	__SMC_NLA_DEV_MAX,
	SMC_NLA_DEV_MAX = __SMC_NLA_DEV_MAX - 1
};

/*
 * Inside SMC_NLA_STATS_T_{TX,RX}_RMB_SIZE and _{TX,RX}PLOAD_SIZE: a
 * histogram. Bucket "8K" counts sizes up to 8 KiB, "16K" up to 16 KiB and
 * so on; "G_1024K" counts everything above 1024 KiB.
 */
enum {
	SMC_NLA_STATS_PLOAD_PAD,
	SMC_NLA_STATS_PLOAD_8K,		/* u64 */
	SMC_NLA_STATS_PLOAD_16K,	/* u64 */
	SMC_NLA_STATS_PLOAD_32K,	/* u64 */
	SMC_NLA_STATS_PLOAD_64K,	/* u64 */
	SMC_NLA_STATS_PLOAD_128K,	/* u64 */
	SMC_NLA_STATS_PLOAD_256K,	/* u64 */
	SMC_NLA_STATS_PLOAD_512K,	/* u64 */
	SMC_NLA_STATS_PLOAD_1024K,	/* u64 */
	SMC_NLA_STATS_PLOAD_G_1024K,	/* u64 */
	__SMC_NLA_STATS_PLOAD_MAX,
	SMC_NLA_STATS_PLOAD_MAX = __SMC_NLA_STATS_PLOAD_MAX - 1
};

/* Inside SMC_NLA_STATS_T_{TX,RX}_RMB_STATS: buffer events */
enum {
	SMC_NLA_STATS_RMB_PAD,
	SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT,	/* u64: peer's buffer too small */
	SMC_NLA_STATS_RMB_SIZE_SM_CNT,		/* u64: own buffer too small */
	SMC_NLA_STATS_RMB_FULL_PEER_CNT,	/* u64: peer's buffer full */
	SMC_NLA_STATS_RMB_FULL_CNT,		/* u64: own buffer full */
	SMC_NLA_STATS_RMB_REUSE_CNT,		/* u64: buffer reused */
	SMC_NLA_STATS_RMB_ALLOC_CNT,		/* u64: buffer allocated */
	SMC_NLA_STATS_RMB_DGRADE_CNT,		/* u64: smaller than wanted */
	__SMC_NLA_STATS_RMB_MAX,
	SMC_NLA_STATS_RMB_MAX = __SMC_NLA_STATS_RMB_MAX - 1
};

/* Inside SMC_NLA_STATS_SMCR_TECH and SMC_NLA_STATS_SMCD_TECH */
enum {
	SMC_NLA_STATS_T_PAD,
	SMC_NLA_STATS_T_TX_RMB_SIZE,	/* nest: send buffer sizes */
	SMC_NLA_STATS_T_RX_RMB_SIZE,	/* nest: receive buffer sizes */
	SMC_NLA_STATS_T_TXPLOAD_SIZE,	/* nest: send call sizes */
	SMC_NLA_STATS_T_RXPLOAD_SIZE,	/* nest: receive call sizes */
	SMC_NLA_STATS_T_TX_RMB_STATS,	/* nest: send buffer events */
	SMC_NLA_STATS_T_RX_RMB_STATS,	/* nest: receive buffer events */
	SMC_NLA_STATS_T_CLNT_V1_SUCC,	/* u64: client handshakes, v1 */
	SMC_NLA_STATS_T_CLNT_V2_SUCC,	/* u64: client handshakes, v2 */
	SMC_NLA_STATS_T_SRV_V1_SUCC,	/* u64: server handshakes, v1 */
	SMC_NLA_STATS_T_SRV_V2_SUCC,	/* u64: server handshakes, v2 */
	SMC_NLA_STATS_T_SENDPAGE_CNT,	/* u64 */
	SMC_NLA_STATS_T_SPLICE_CNT,	/* u64 */
	SMC_NLA_STATS_T_CORK_CNT,	/* u64: TCP_CORK set */
	SMC_NLA_STATS_T_NDLY_CNT,	/* u64: TCP_NODELAY set */
	SMC_NLA_STATS_T_URG_DATA_CNT,	/* u64 */
	SMC_NLA_STATS_T_RX_BYTES,	/* u64 */
	SMC_NLA_STATS_T_TX_BYTES,	/* u64 */
	SMC_NLA_STATS_T_RX_CNT,		/* u64: receive calls */
	SMC_NLA_STATS_T_TX_CNT,		/* u64: send calls */
	SMC_NLA_STATS_T_RX_RMB_USAGE,	/* uint: bytes of receive buffers */
	SMC_NLA_STATS_T_TX_RMB_USAGE,	/* uint: bytes of send buffers */
	__SMC_NLA_STATS_T_MAX,
	SMC_NLA_STATS_T_MAX = __SMC_NLA_STATS_T_MAX - 1
};

/* Inside SMC_GEN_STATS */
enum {
	SMC_NLA_STATS_PAD,
	SMC_NLA_STATS_SMCD_TECH,	/* nest */
	SMC_NLA_STATS_SMCR_TECH,	/* nest */
	SMC_NLA_STATS_CLNT_HS_ERR_CNT,	/* u64: failed client handshakes */
	SMC_NLA_STATS_SRV_HS_ERR_CNT,	/* u64: failed server handshakes */
	__SMC_NLA_STATS_MAX,
	SMC_NLA_STATS_MAX = __SMC_NLA_STATS_MAX - 1
};

/*
 * Inside SMC_GEN_FBACK_STATS: one entry of the fallback table (one reason
 * code of one role). The totals of both roles come with the first entry of
 * a dump only.
 */
enum {
	SMC_NLA_FBACK_STATS_PAD,
	SMC_NLA_FBACK_STATS_TYPE,	/* u8: 0 client, 1 server */
	SMC_NLA_FBACK_STATS_SRV_CNT,	/* u64: all server fallbacks */
	SMC_NLA_FBACK_STATS_CLNT_CNT,	/* u64: all client fallbacks */
	SMC_NLA_FBACK_STATS_RSN_CODE,	/* u32: SMC_CLC_DECL_* */
	SMC_NLA_FBACK_STATS_RSN_CNT,	/* u16: count (saturates in smcr) */
	__SMC_NLA_FBACK_STATS_MAX,
	SMC_NLA_FBACK_STATS_MAX = __SMC_NLA_FBACK_STATS_MAX - 1
};

/* smcr addition inside SMC_GEN_FBACK_STATS: the count, not truncated */
#define SMCR_NLA_FBACK_STATS_RSN_CNT64	(SMCR_NLA_EXT_BASE + 0)	/* u64 */

/* Attributes of the UEID commands */
enum {
	SMC_NLA_EID_TABLE_UNSPEC,
	SMC_NLA_EID_TABLE_ENTRY,	/* string: 32 chars blank padded + NUL */
	__SMC_NLA_EID_TABLE_MAX,
	SMC_NLA_EID_TABLE_MAX = __SMC_NLA_EID_TABLE_MAX - 1
};

/* Attributes of the SEID commands */
enum {
	SMC_NLA_SEID_UNSPEC,
	SMC_NLA_SEID_ENTRY,		/* string */
	SMC_NLA_SEID_ENABLED,		/* u8 */
	__SMC_NLA_SEID_TABLE_MAX,
	SMC_NLA_SEID_TABLE_MAX = __SMC_NLA_SEID_TABLE_MAX - 1
};

/* Attributes of the HS_LIMITATION commands */
enum {
	SMC_NLA_HS_LIMITATION_UNSPEC,
	SMC_NLA_HS_LIMITATION_ENABLED,	/* u8 */
	__SMC_NLA_HS_LIMITATION_MAX,
	SMC_NLA_HS_LIMITATION_MAX = __SMC_NLA_HS_LIMITATION_MAX - 1
};

/* SOL_SMC socket option of Linux (not implemented by smcr) */
#define SMC_LIMIT_HS	1

#endif /* _SMCR_UAPI_LINUX_SMC_H */
