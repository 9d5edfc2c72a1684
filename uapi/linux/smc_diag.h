/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * smcr: sock_diag interface for AF_SMC sockets.
 *
 * Binary compatible with the smc_diag ABI of Linux (NETLINK_SOCK_DIAG,
 * SOCK_DIAG_BY_FAMILY with sdiag_family = AF_SMC), so existing tools that
 * list SMC sockets work unchanged against smcr.
 */
#ifndef _UAPI_LINUX_SMC_DIAG_H
#define _UAPI_LINUX_SMC_DIAG_H

#include <linux/types.h>
#include <linux/inet_diag.h>

#ifndef IB_DEVICE_NAME_MAX
#define IB_DEVICE_NAME_MAX 64
#endif

/* Dump request; diag_ext is a bitmap of (1 << (SMC_DIAG_x - 1)). */
struct smc_diag_req {
	__u8	diag_family;	/* AF_SMC */
	__u8	pad[2];
	__u8	diag_ext;
	struct inet_diag_sockid	id;
};

/* One socket; addresses and ports are those of the internal TCP socket. */
struct smc_diag_msg {
	__u8	diag_family;	/* AF_INET or AF_INET6 */
	__u8	diag_state;	/* TCP-like state of the AF_SMC socket */
	union {
		__u8	diag_mode;	/* SMC_DIAG_MODE_* */
		__u8	diag_fallback;	/* earlier name of diag_mode */
	};
	__u8	diag_shutdown;	/* SEND_SHUTDOWN / RCV_SHUTDOWN bits */
	struct inet_diag_sockid	id;
	__u32	diag_uid;
	__aligned_u64	diag_inode;
};

enum {
	SMC_DIAG_MODE_SMCR,
	SMC_DIAG_MODE_FALLBACK_TCP,
	SMC_DIAG_MODE_SMCD,
};

/* Netlink attributes following struct smc_diag_msg. */
enum {
	SMC_DIAG_NONE,
	SMC_DIAG_CONNINFO,	/* struct smc_diag_conninfo */
	SMC_DIAG_LGRINFO,	/* struct smc_diag_lgrinfo */
	SMC_DIAG_SHUTDOWN,	/* __u8 */
	SMC_DIAG_DMBINFO,	/* struct smcd_diag_dmbinfo (SMC-D, unused) */
	SMC_DIAG_FALLBACK,	/* struct smc_diag_fallback */
	__SMC_DIAG_MAX,
};

#define SMC_DIAG_MAX (__SMC_DIAG_MAX - 1)

struct smc_diag_cursor {
	__u16	reserved;
	__u16	wrap;
	__u32	count;
};

struct smc_diag_conninfo {
	__u32	token;
	__u32	sndbuf_size;
	__u32	rmbe_size;
	__u32	peer_rmbe_size;
	struct smc_diag_cursor	rx_prod;
	struct smc_diag_cursor	rx_cons;
	struct smc_diag_cursor	tx_prod;
	struct smc_diag_cursor	tx_cons;
	__u8	rx_prod_flags;
	__u8	rx_conn_state_flags;
	__u8	tx_prod_flags;
	__u8	tx_conn_state_flags;
	struct smc_diag_cursor	tx_prep;
	struct smc_diag_cursor	tx_sent;
	struct smc_diag_cursor	tx_fin;
};

struct smc_diag_linkinfo {
	__u8	link_id;
	__u8	ibname[IB_DEVICE_NAME_MAX];
	__u8	ibport;
	__u8	gid[40];
	__u8	peer_gid[40];
};

struct smc_diag_lgrinfo {
	struct smc_diag_linkinfo	lnk[1];
	__u8	role;
};

/* Why the socket uses TCP: local reason and the peer's Decline code. */
struct smc_diag_fallback {
	__u32	reason;
	__u32	peer_diagnosis;
};

struct smcd_diag_dmbinfo {
	__u32	linkid;
	__aligned_u64	peer_gid;
	__aligned_u64	my_gid;
	__aligned_u64	token;
	__aligned_u64	peer_token;
	__aligned_u64	peer_gid_ext;
	__aligned_u64	my_gid_ext;
};

#endif /* _UAPI_LINUX_SMC_DIAG_H */
