/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: generic netlink family SMC_GEN_NETLINK (netlink.c) — what other
 * parts of smcr plug into it.
 *
 * Link groups, links and RoCE devices are owned by the link layer. The
 * netlink dumps see them as plain structures that netlink.c turns into the
 * attributes of uapi/linux/smc.h: a link group with its links as
 * smc_nl_src_lgr() (netlink.c) fills it from lgr.c's walk of the link
 * groups (smc_lgr_walk()), a device as ib.c fills it (smc_ib_nl_dev()).
 * The link layer plugs the two in as a source (struct smc_nl_source) at
 * module init; until then the dumps are empty. The link layer never
 * builds netlink messages itself.
 *
 * The user EID table (eid.c) is part of the family's per-namespace state
 * in netlink.c; the CLC exchange of SMC-R v2 reads it with smc_nl_ueids()
 * (hs_v2.c: a v2 link group needs a user EID both sides have).
 */
#ifndef _SMCR_NETLINK_H
#define _SMCR_NETLINK_H

#include <linux/types.h>

#include "../../uapi/linux/smc.h"

struct net;

#define SMC_NL_PNETID_LEN	16	/* PNET ID, blank padded, no NUL */
#define SMC_NL_IBNAME_LEN	64	/* IB device name, with NUL */
#define SMC_NL_GID_STR_LEN	41	/* GID as text, with NUL */
#define SMC_NL_LINKS_MAX	3	/* links per link group */
#define SMC_NL_PORTS_MAX	2	/* ports per device */

/**
 * struct smc_nl_link - one link, as SMC_NETLINK_GET_LINK_SMCR reports it
 * @link_id: link ID within the link group
 * @state: link state (link layer's numbering)
 * @conn_cnt: connections on the link
 * @ibport: IB port number (1-based)
 * @ifindex: net device of the link
 * @ibname: IB device name
 * @uid: own link user ID
 * @peer_uid: the peer's link user ID
 * @gid: own GID as text
 * @peer_gid: the peer's GID as text
 */
struct smc_nl_link {
	u8	link_id;
	u32	state;
	u32	conn_cnt;
	u8	ibport;
	u32	ifindex;
	char	ibname[SMC_NL_IBNAME_LEN];
	u32	uid;
	u32	peer_uid;
	char	gid[SMC_NL_GID_STR_LEN];
	char	peer_gid[SMC_NL_GID_STR_LEN];
};

/**
 * struct smc_nl_lgr - one SMC-R link group, with its usable links
 * @id: link group ID
 * @role: 0 client, 1 server
 * @type: redundancy type (link layer's numbering, as Linux's)
 * @buf_type: buffer type
 * @vlan_id: VLAN ID
 * @conns: connections in the link group
 * @pnetid: PNET ID, NUL padded (not NUL terminated when 16 long); all
 *	NUL: none (Linux's value without a PNET table entry)
 * @net_cookie: cookie of the link group's network namespace
 * @sndbuf_alloc: send buffers allocated
 * @rmb_alloc: RMBs allocated
 * @v2: SMC-R v2 link group: the fields below are valid
 * @v2_rel: the peer's release
 * @v2_os: the peer's OS type
 * @v2_direct: the peer is directly reachable (no routing)
 * @v2_max_conns: negotiated maximum connections
 * @v2_max_links: negotiated maximum links
 * @v2_neg_eid: negotiated EID, blank padded (not NUL terminated)
 * @v2_peer_host: the peer's host name, blank padded (not NUL terminated)
 * @n_links: valid entries in @links
 * @links: the link group's usable links
 */
struct smc_nl_lgr {
	u32			id;
	u8			role;
	u8			type;
	u8			buf_type;
	u8			vlan_id;
	u32			conns;
	u8			pnetid[SMC_NL_PNETID_LEN];
	u64			net_cookie;
	u64			sndbuf_alloc;
	u64			rmb_alloc;
	bool			v2;
	u8			v2_rel;
	u8			v2_os;
	u8			v2_direct;
	u8			v2_max_conns;
	u8			v2_max_links;
	u8			v2_neg_eid[SMC_MAX_EID_LEN];
	u8			v2_peer_host[SMC_MAX_HOSTNAME_LEN];
	int			n_links;
	struct smc_nl_link	links[SMC_NL_LINKS_MAX];
};

/**
 * struct smc_nl_port - one port of a RoCE device
 * @valid: the port exists (only valid ports are reported)
 * @pnet_usr: the PNET ID was set by the user
 * @pnetid: PNET ID, as in struct smc_nl_lgr
 * @ifindex: net device of the port
 * @state: 1 if the port is active
 * @lnk_cnt: links on the port
 */
struct smc_nl_port {
	bool	valid;
	u8	pnet_usr;
	u8	pnetid[SMC_NL_PNETID_LEN];
	u32	ifindex;
	u8	state;
	u32	lnk_cnt;
};

/**
 * struct smc_nl_dev - one RoCE device, as SMC_NETLINK_GET_DEV_SMCR reports it
 * @ibname: IB device name
 * @is_crit: a link group depends on this device alone
 * @has_pci: the device has a parent device: the PCI attributes are sent
 *	(zero when the parent is not a PCI device)
 * @pci_fid: PCI function ID (s390 only; 0)
 * @pci_chid: channel ID (s390 only; 0)
 * @pci_vendor: PCI vendor ID
 * @pci_device: PCI device ID
 * @pci_id: PCI slot name ("0000:00:02.0")
 * @ports: [0] port 1, [1] port 2
 */
struct smc_nl_dev {
	char			ibname[SMC_NL_IBNAME_LEN];
	u8			is_crit;
	bool			has_pci;
	u32			pci_fid;
	u16			pci_chid;
	u16			pci_vendor;
	u16			pci_device;
	char			pci_id[SMC_PCI_ID_STR_LEN];
	struct smc_nl_port	ports[SMC_NL_PORTS_MAX];
};

/**
 * struct smc_nl_source - link groups and devices, for the netlink dumps
 * @get_lgr: fill @out with link group number @idx of @net (0-based, in an
 *	order that is stable while link groups come and go: e.g. list order
 *	with new ones added at the tail). Return 0, -ENOENT past the last
 *	one, or another negative errno to end the dump with that error.
 *	Sets *@gen to a counter that changes whenever link groups of @net
 *	are added or removed (dumps spanning a change are flagged
 *	NLM_F_DUMP_INTR).
 * @get_dev: as @get_lgr, for RoCE devices usable in @net
 *
 * Context: both are called in process context, may sleep, and must copy
 * what they report: nothing is referenced after they return. They are
 * called under the source mutex of netlink.c, so never concurrently, and
 * not after smc_nl_source_unregister() returned.
 */
struct smc_nl_source {
	int	(*get_lgr)(struct net *net, long idx, struct smc_nl_lgr *out,
			   u32 *gen);
	int	(*get_dev)(struct net *net, long idx, struct smc_nl_dev *out,
			   u32 *gen);
};

int smc_nl_source_register(const struct smc_nl_source *src);
void smc_nl_source_unregister(const struct smc_nl_source *src);
int smc_nl_src_lgr(struct net *net, long idx, struct smc_nl_lgr *out,
		   u32 *gen);

#endif /* _SMCR_NETLINK_H */
