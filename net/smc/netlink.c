// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the generic netlink family "SMC_GEN_NETLINK".
 *
 * Commands, attributes and nesting are Linux's (uapi/linux/smc.h), so
 * smc-tools works with smcr; smcr's additions are numbered far above
 * Linux's. Everything is per network namespace: the requester's.
 *
 * The records of link groups and their links are filled here too
 * (smc_nl_src_lgr(), walking the list with smc_lgr_walk()); the link
 * layer registers that and ib.c's device fill as the dumps' source.
 *
 * Read-only commands are dumps anybody may run. A dump that does not fit
 * into one message continues in the next one from the position kept in
 * cb->args; when the data changed between two parts (a generation counter
 * moved), the messages carry NLM_F_DUMP_INTR. Changing commands need
 * CAP_NET_ADMIN in the user namespace owning the network namespace.
 *
 * Every command of Linux's family is answered as Linux answers it on a
 * machine without ISM devices and off s390 (selftest 109 compares the two
 * replies): the SMC-D dumps are empty, the system EID dump is one message
 * without attributes, and the system EID cannot be switched (EOPNOTSUPP).
 * Commands without an attribute policy of their own refuse every attribute
 * (EINVAL), as Linux's do.
 *
 * Locking:
 * - smc_nl_src_lock (mutex) protects smc_nl_src and serializes all calls
 *   into it; dumps of link groups and devices hold it while they build
 *   their messages. smc_nl_src_lgr() takes smc_lgr_mutex (lgr.c) under it
 *   and each link group's lock under that.
 * - Each namespace's user EID table has its own lock (eid.c); its dump
 *   builds messages from a copy.
 * - The handshake limitation switch is the namespace's net.smc.limit_smc_hs
 *   (tunables.c), as on Linux.
 * - Statistics have their own locking (stats.c).
 */
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <smcr/clc_wire.h>

#include "buf.h"
#include "core.h"
#include "eid.h"
#include "lgr.h"
#include "netlink.h"
#include "smcr.h"

/**
 * struct smc_nl_net - the netlink family's state in a network namespace
 * @eids: the namespace's user EID table (eid.c), with its own lock
 */
struct smc_nl_net {
	struct smc_eid_table	eids;
};

static unsigned int smc_nl_net_id __read_mostly;

static DEFINE_MUTEX(smc_nl_src_lock);
static const struct smc_nl_source *smc_nl_src;	/* under smc_nl_src_lock */

static struct genl_family smc_nl_family;

static struct smc_nl_net *smc_nl_net(const struct net *net)
{
	return net_generic(net, smc_nl_net_id);
}

/**
 * smc_nl_source_register() - plug the link layer into the dumps
 * @src: the source; must stay valid until unregistered
 *
 * Return: 0, or -EBUSY if a source is registered already.
 */
int smc_nl_source_register(const struct smc_nl_source *src)
{
	int rc = 0;

	mutex_lock(&smc_nl_src_lock);
	if (smc_nl_src)
		rc = -EBUSY;
	else
		smc_nl_src = src;
	mutex_unlock(&smc_nl_src_lock);
	return rc;
}

/**
 * smc_nl_source_unregister() - unplug the link layer from the dumps
 * @src: the registered source
 *
 * Waits for a dump that is using @src; no call into it follows.
 */
void smc_nl_source_unregister(const struct smc_nl_source *src)
{
	mutex_lock(&smc_nl_src_lock);
	if (smc_nl_src == src)
		smc_nl_src = NULL;
	mutex_unlock(&smc_nl_src_lock);
}

/* Dump consistency: a generation of 0 would mean "unset" to netlink. */
static void smc_nl_set_gen(struct netlink_callback *cb, u32 gen)
{
	cb->seq = gen + 1 ? gen + 1 : 1;
}

static void *smc_nl_dump_hdr(struct sk_buff *skb, struct netlink_callback *cb,
			     u8 cmd)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &smc_nl_family, NLM_F_MULTI, cmd);
	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}

/*
 * End of one dump part: what was added, or an error if not even one
 * message fitted into an empty buffer.
 */
static int smc_nl_dump_done(struct sk_buff *skb, int rc)
{
	if (rc && rc != -EMSGSIZE)
		return rc;
	if (rc && !skb->len)
		return -EMSGSIZE;
	return skb->len;
}

/**
 * smc_nl_put_uint() - add an NLA_UINT attribute as Linux does
 * @skb: the message
 * @type: attribute type
 * @val: the value
 *
 * Four bytes when @val fits into them, else eight (what nla_put_uint()
 * sends; 6.1 does not have it).
 * Return: 0 or -EMSGSIZE.
 */
int smc_nl_put_uint(struct sk_buff *skb, int type, u64 val)
{
	u32 val32 = val;

	if (val32 == val)
		return nla_put_u32(skb, type, val32);
	return nla_put(skb, type, sizeof(val), &val);
}

/* A fixed-size, blank padded text field as a NUL terminated string */
static int smc_nl_put_field(struct sk_buff *skb, int type, const u8 *field,
			    size_t len)
{
	char buf[SMC_MAX_EID_LEN + 1];

	if (WARN_ON_ONCE(len >= sizeof(buf)))
		return -EINVAL;
	memcpy(buf, field, len);
	buf[len] = '\0';
	return nla_put_string(skb, type, buf);
}

/* The host name as Linux reports it: 32 characters, blank padded. */
static void smc_nl_hostname(u8 host[SMC_MAX_HOSTNAME_LEN])
{
	const char *node = utsname()->nodename;

	memset(host, ' ', SMC_MAX_HOSTNAME_LEN);
	memcpy(host, node, strnlen(node, SMC_MAX_HOSTNAME_LEN));
}

static int smc_nl_get_sys_info(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	u8 host[SMC_MAX_HOSTNAME_LEN];
	struct nlattr *nest;
	void *hdr;

	if (cb->args[0])
		return 0;
	hdr = smc_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_SYS_INFO);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SMC_GEN_SYS_INFO);
	if (!nest)
		goto cancel;
	smc_nl_hostname(host);
	/* SMC-R v2 release 1 (clc_v2.c), no SMC-D */
	if (nla_put_u8(skb, SMC_NLA_SYS_VER, SMC_CLC_V2) ||
	    nla_put_u8(skb, SMC_NLA_SYS_REL, SMC_CLC_RELEASE) ||
	    nla_put_u8(skb, SMC_NLA_SYS_IS_ISM_V2, 0) ||
	    nla_put_u8(skb, SMC_NLA_SYS_IS_SMCR_V2, 1) ||
	    smc_nl_put_field(skb, SMC_NLA_SYS_LOCAL_HOST, host, sizeof(host)) ||
	    nla_put_u32(skb, SMCR_NLA_SYS_UEID_CNT,
			smc_eid_count(&smc_nl_net(net)->eids)))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static void smc_nl_gid(char *out, const u8 *gid)
{
	snprintf(out, SMC_NL_GID_STR_LEN,
		 "%04x:%04x:%04x:%04x:%04x:%04x:%04x:%04x",
		 gid[0] << 8 | gid[1], gid[2] << 8 | gid[3],
		 gid[4] << 8 | gid[5], gid[6] << 8 | gid[7],
		 gid[8] << 8 | gid[9], gid[10] << 8 | gid[11],
		 gid[12] << 8 | gid[13], gid[14] << 8 | gid[15]);
}

static u32 smc_nl_uid(const u8 *uid)
{
	return (u32)uid[0] << 24 | uid[1] << 16 | uid[2] << 8 | uid[3];
}

static void smc_nl_fill_link(const struct smc_link_group *lgr,
			     const struct smc_link *lnk,
			     struct smc_nl_link *out)
{
	out->link_id = lnk->link_id;
	out->state = READ_ONCE(lnk->state);
	out->conn_cnt = lnk->conns;
	out->ibport = lnk->port;
	out->ifindex = lnk->ndev_ifindex;
	strscpy(out->ibname, dev_name(&lnk->sdev->ibdev->dev),
		sizeof(out->ibname));
	out->uid = smc_nl_uid(lnk->uid);
	out->peer_uid = smc_nl_uid(lnk->peer_uid);
	smc_nl_gid(out->gid, lnk->local.gid);
	smc_nl_gid(out->peer_gid, lnk->peer.gid);
}

/* smc_nl_src_lgr()'s walk: link group number @idx of @net into @out */
struct smc_nl_lgr_pos {
	struct net		*net;
	long			idx;
	long			n;
	struct smc_nl_lgr	*out;
};

static int smc_nl_fill_lgr(struct smc_link_group *lgr, void *arg)
{
	struct smc_nl_lgr_pos *pos = arg;
	struct smc_nl_lgr *out = pos->out;
	struct net *net = pos->net;
	int i;

	if (!net_eq(smc_lgr_net(lgr), net) || pos->n++ != pos->idx)
		return 0;
	memset(out, 0, sizeof(*out));
	out->id = lgr->id;
	out->role = lgr->server;
	out->type = lgr->type;
	out->vlan_id = lgr->key.vlan_id;
	/* out->pnetid stays all NUL: no PNET ID, as Linux's without one */
	out->net_cookie = net->net_cookie;
	out->rmb_alloc = smc_buf_bytes(lgr, true);
	out->sndbuf_alloc = smc_buf_bytes(lgr, false);
	spin_lock_bh(&lgr->lock);
	out->conns = lgr->conns;
	/* constant once the first contact is done */
	out->v2 = lgr->key.version == SMC_CLC_V2 &&
		  lgr->state != SMC_LGR_ST_PENDING;
	if (out->v2) {
		out->v2_rel = lgr->v2.release;
		out->v2_os = lgr->v2.peer_os;
		out->v2_direct = lgr->v2.direct;
		out->v2_max_conns = lgr->v2.max_conns;
		out->v2_max_links = READ_ONCE(lgr->max_links);
		memcpy(out->v2_neg_eid, lgr->v2.eid, SMC_EID_LEN);
		memset(out->v2_peer_host, ' ', sizeof(out->v2_peer_host));
	}
	for (i = 0; i < SMC_LGR_LINKS; i++) {
		const struct smc_link *lnk = &lgr->lnk[i];

		if (!lnk->sdev || out->n_links >= SMC_NL_LINKS_MAX)
			continue;
		smc_nl_fill_link(lgr, lnk, &out->links[out->n_links++]);
	}
	spin_unlock_bh(&lgr->lock);
	return 1;
}

/**
 * smc_nl_src_lgr() - describe link group number @idx of @net for netlink
 * @net: the dumping namespace: only its link groups count
 * @idx: 0-based position among them, in list order (smc_lgr_walk())
 * @out: filled in
 * @gen: set to the link group list's generation
 *
 * The get_lgr of the link layer's source (struct smc_nl_source).
 *
 * Context: process; takes smc_lgr_mutex.
 * Return: 0, or -ENOENT past the last link group of @net.
 */
int smc_nl_src_lgr(struct net *net, long idx, struct smc_nl_lgr *out,
		   u32 *gen)
{
	struct smc_nl_lgr_pos pos = { .net = net, .idx = idx, .out = out };

	return smc_lgr_walk(smc_nl_fill_lgr, &pos, gen) ? 0 : -ENOENT;
}

/* SMC_GEN_LGR_SMCR message for one link group */
static int smc_nl_put_lgr(struct sk_buff *skb, struct netlink_callback *cb,
			  const struct smc_nl_lgr *lgr)
{
	struct nlattr *nest, *v2;
	void *hdr;

	hdr = smc_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_LGR_SMCR);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SMC_GEN_LGR_SMCR);
	if (!nest)
		goto cancel;
	if (nla_put_u32(skb, SMC_NLA_LGR_R_ID, lgr->id) ||
	    nla_put_u32(skb, SMC_NLA_LGR_R_CONNS_NUM, lgr->conns) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_ROLE, lgr->role) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_TYPE, lgr->type) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_BUF_TYPE, lgr->buf_type) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_VLAN_ID, lgr->vlan_id) ||
	    nla_put_u64_64bit(skb, SMC_NLA_LGR_R_NET_COOKIE, lgr->net_cookie,
			      SMC_NLA_LGR_R_PAD) ||
	    smc_nl_put_field(skb, SMC_NLA_LGR_R_PNETID, lgr->pnetid,
			     sizeof(lgr->pnetid)) ||
	    smc_nl_put_uint(skb, SMC_NLA_LGR_R_SNDBUF_ALLOC,
			    lgr->sndbuf_alloc) ||
	    smc_nl_put_uint(skb, SMC_NLA_LGR_R_RMB_ALLOC, lgr->rmb_alloc))
		goto cancel;
	if (lgr->v2) {
		v2 = nla_nest_start(skb, SMC_NLA_LGR_R_V2_COMMON);
		if (!v2 ||
		    nla_put_u8(skb, SMC_NLA_LGR_V2_VER, SMC_CLC_V2) ||
		    nla_put_u8(skb, SMC_NLA_LGR_V2_REL, lgr->v2_rel) ||
		    nla_put_u8(skb, SMC_NLA_LGR_V2_OS, lgr->v2_os) ||
		    smc_nl_put_field(skb, SMC_NLA_LGR_V2_PEER_HOST,
				     lgr->v2_peer_host,
				     sizeof(lgr->v2_peer_host)) ||
		    smc_nl_put_field(skb, SMC_NLA_LGR_V2_NEG_EID,
				     lgr->v2_neg_eid, sizeof(lgr->v2_neg_eid)))
			goto cancel;
		nla_nest_end(skb, v2);
		v2 = nla_nest_start(skb, SMC_NLA_LGR_R_V2);
		if (!v2 ||
		    nla_put_u8(skb, SMC_NLA_LGR_R_V2_DIRECT, lgr->v2_direct) ||
		    nla_put_u8(skb, SMC_NLA_LGR_R_V2_MAX_CONNS,
			       lgr->v2_max_conns) ||
		    nla_put_u8(skb, SMC_NLA_LGR_R_V2_MAX_LINKS,
			       lgr->v2_max_links))
			goto cancel;
		nla_nest_end(skb, v2);
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* SMC_GEN_LINK_SMCR message for one link */
static int smc_nl_put_link(struct sk_buff *skb, struct netlink_callback *cb,
			   const struct smc_nl_link *lnk)
{
	struct nlattr *nest;
	void *hdr;

	hdr = smc_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_LINK_SMCR);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SMC_GEN_LINK_SMCR);
	if (!nest ||
	    nla_put_u8(skb, SMC_NLA_LINK_ID, lnk->link_id) ||
	    nla_put_u32(skb, SMC_NLA_LINK_STATE, lnk->state) ||
	    nla_put_u32(skb, SMC_NLA_LINK_CONN_CNT, lnk->conn_cnt) ||
	    nla_put_u8(skb, SMC_NLA_LINK_IB_PORT, lnk->ibport) ||
	    nla_put_u32(skb, SMC_NLA_LINK_NET_DEV, lnk->ifindex) ||
	    nla_put_string(skb, SMC_NLA_LINK_IB_DEV, lnk->ibname) ||
	    nla_put_u32(skb, SMC_NLA_LINK_UID, lnk->uid) ||
	    nla_put_u32(skb, SMC_NLA_LINK_PEER_UID, lnk->peer_uid) ||
	    nla_put_string(skb, SMC_NLA_LINK_GID, lnk->gid) ||
	    nla_put_string(skb, SMC_NLA_LINK_PEER_GID, lnk->peer_gid)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * Link groups, and with @links their links: for each link group one
 * SMC_NETLINK_GET_LGR_SMCR message followed by one SMC_NETLINK_GET_LINK_SMCR
 * message per link (Linux's layout).
 * cb->args[0]: link groups done; cb->args[1]: messages of the current
 * link group done (the link group's own, then its links).
 */
static int smc_nl_dump_lgrs(struct sk_buff *skb, struct netlink_callback *cb,
			    bool links)
{
	struct net *net = sock_net(skb->sk);
	struct smc_nl_lgr *lgr;
	u32 gen;
	int rc = 0;

	lgr = kmalloc(sizeof(*lgr), GFP_KERNEL);
	if (!lgr)
		return -ENOMEM;
	mutex_lock(&smc_nl_src_lock);
	while (smc_nl_src && smc_nl_src->get_lgr) {
		memset(lgr, 0, sizeof(*lgr));
		rc = smc_nl_src->get_lgr(net, cb->args[0], lgr, &gen);
		if (rc) {
			if (rc == -ENOENT)
				rc = 0;		/* past the last one */
			break;
		}
		smc_nl_set_gen(cb, gen);
		if (!cb->args[1]) {
			rc = smc_nl_put_lgr(skb, cb, lgr);
			if (rc)
				break;
			cb->args[1] = 1;
		}
		while (links && cb->args[1] - 1 < lgr->n_links &&
		       cb->args[1] - 1 < SMC_NL_LINKS_MAX) {
			rc = smc_nl_put_link(skb, cb,
					     &lgr->links[cb->args[1] - 1]);
			if (rc)
				break;
			cb->args[1]++;
		}
		if (rc)
			break;
		cb->args[0]++;
		cb->args[1] = 0;
	}
	mutex_unlock(&smc_nl_src_lock);
	kfree(lgr);
	return smc_nl_dump_done(skb, rc);
}

static int smc_nl_get_lgr(struct sk_buff *skb, struct netlink_callback *cb)
{
	return smc_nl_dump_lgrs(skb, cb, false);
}

static int smc_nl_get_link(struct sk_buff *skb, struct netlink_callback *cb)
{
	return smc_nl_dump_lgrs(skb, cb, true);
}

static int smc_nl_put_port(struct sk_buff *skb, int type,
			   const struct smc_nl_port *p)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest ||
	    nla_put_u8(skb, SMC_NLA_DEV_PORT_PNET_USR, p->pnet_usr) ||
	    smc_nl_put_field(skb, SMC_NLA_DEV_PORT_PNETID, p->pnetid,
			     sizeof(p->pnetid)) ||
	    nla_put_u32(skb, SMC_NLA_DEV_PORT_NETDEV, p->ifindex) ||
	    nla_put_u8(skb, SMC_NLA_DEV_PORT_VALID, 1) ||
	    nla_put_u8(skb, SMC_NLA_DEV_PORT_STATE, p->state) ||
	    nla_put_u32(skb, SMC_NLA_DEV_PORT_LNK_CNT, p->lnk_cnt))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* SMC_GEN_DEV_SMCR message for one RoCE device */
static int smc_nl_put_dev(struct sk_buff *skb, struct netlink_callback *cb,
			  const struct smc_nl_dev *dev)
{
	struct nlattr *nest;
	void *hdr;
	int i;

	hdr = smc_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_DEV_SMCR);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SMC_GEN_DEV_SMCR);
	if (!nest ||
	    nla_put_u8(skb, SMC_NLA_DEV_IS_CRIT, dev->is_crit))
		goto cancel;
	if (dev->has_pci &&
	    (nla_put_u32(skb, SMC_NLA_DEV_PCI_FID, dev->pci_fid) ||
	     nla_put_u16(skb, SMC_NLA_DEV_PCI_CHID, dev->pci_chid) ||
	     nla_put_u16(skb, SMC_NLA_DEV_PCI_VENDOR, dev->pci_vendor) ||
	     nla_put_u16(skb, SMC_NLA_DEV_PCI_DEVICE, dev->pci_device) ||
	     nla_put_string(skb, SMC_NLA_DEV_PCI_ID, dev->pci_id)))
		goto cancel;
	if (nla_put_string(skb, SMC_NLA_DEV_IB_NAME, dev->ibname))
		goto cancel;
	for (i = 0; i < SMC_NL_PORTS_MAX; i++) {
		if (!dev->ports[i].valid)
			continue;
		if (smc_nl_put_port(skb, SMC_NLA_DEV_PORT + i, &dev->ports[i]))
			goto cancel;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* cb->args[0]: devices done */
static int smc_nl_get_dev(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct smc_nl_dev *dev;
	u32 gen;
	int rc = 0;

	dev = kmalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	mutex_lock(&smc_nl_src_lock);
	while (smc_nl_src && smc_nl_src->get_dev) {
		memset(dev, 0, sizeof(*dev));
		rc = smc_nl_src->get_dev(net, cb->args[0], dev, &gen);
		if (rc) {
			if (rc == -ENOENT)
				rc = 0;		/* past the last one */
			break;
		}
		smc_nl_set_gen(cb, gen);
		rc = smc_nl_put_dev(skb, cb, dev);
		if (rc)
			break;
		cb->args[0]++;
	}
	mutex_unlock(&smc_nl_src_lock);
	kfree(dev);
	return smc_nl_dump_done(skb, rc);
}

static int smc_nl_get_stats(struct sk_buff *skb, struct netlink_callback *cb)
{
	void *hdr;
	int rc;

	if (cb->args[0])
		return 0;
	hdr = smc_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_STATS);
	if (!hdr)
		return -EMSGSIZE;
	rc = smc_stats_nl_put(skb, sock_net(skb->sk));
	if (rc) {
		genlmsg_cancel(skb, hdr);
		return rc;
	}
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
}

/* One entry of the fallback table; @totals: add both roles' totals. */
static int smc_nl_put_fback(struct sk_buff *skb, struct netlink_callback *cb,
			    const struct smc_stats_fback fb[2], int server,
			    int slot, bool totals)
{
	u32 count = fb[server].rsn[slot].count;
	struct nlattr *nest;
	void *hdr;

	hdr = smc_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_FBACK_STATS);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SMC_GEN_FBACK_STATS);
	if (!nest ||
	    nla_put_u8(skb, SMC_NLA_FBACK_STATS_TYPE, server))
		goto cancel;
	if (totals &&
	    (nla_put_u64_64bit(skb, SMC_NLA_FBACK_STATS_SRV_CNT, fb[1].total,
			       SMC_NLA_FBACK_STATS_PAD) ||
	     nla_put_u64_64bit(skb, SMC_NLA_FBACK_STATS_CLNT_CNT, fb[0].total,
			       SMC_NLA_FBACK_STATS_PAD)))
		goto cancel;
	if (nla_put_u32(skb, SMC_NLA_FBACK_STATS_RSN_CODE,
			fb[server].rsn[slot].code) ||
	    nla_put_u16(skb, SMC_NLA_FBACK_STATS_RSN_CNT,
			min_t(u32, count, U16_MAX)) ||
	    nla_put_u64_64bit(skb, SMCR_NLA_FBACK_STATS_RSN_CNT64, count,
			      SMC_NLA_FBACK_STATS_PAD))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * The fallback table: client entries, then server entries, one message
 * each; the first one carries the totals.
 * cb->args[0]: entries (used or not) done; cb->args[1]: totals sent.
 */
static int smc_nl_get_fback_stats(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct smc_stats_fback *fb;
	int rc = 0;
	long pos;

	fb = kmalloc_array(2, sizeof(*fb), GFP_KERNEL);
	if (!fb)
		return -ENOMEM;
	smc_nl_set_gen(cb, smc_stats_fallback_snapshot(sock_net(skb->sk), fb));
	for (pos = cb->args[0]; pos < 2 * SMC_STATS_FBACK_SLOTS; pos++) {
		int server = pos / SMC_STATS_FBACK_SLOTS;
		int slot = pos % SMC_STATS_FBACK_SLOTS;

		if (!fb[server].rsn[slot].count)
			continue;
		rc = smc_nl_put_fback(skb, cb, fb, server, slot, !cb->args[1]);
		if (rc)
			break;
		cb->args[1] = 1;
	}
	cb->args[0] = pos;
	kfree(fb);
	return smc_nl_dump_done(skb, rc);
}

/*
 * A user EID attribute: SMC_MAX_EID_LEN characters padded with blanks,
 * then a NUL; to add (@new), of the characters smc_eid_valid() allows.
 * Returns the EID in the attribute or NULL (with an extack message).
 */
static const u8 *smc_nl_ueid_arg(struct genl_info *info, bool new)
{
	struct nlattr *attr = info->attrs ?
			      info->attrs[SMC_NLA_EID_TABLE_ENTRY] : NULL;
	const u8 *eid;

	if (!attr) {
		NL_SET_ERR_MSG(info->extack, "UEID attribute missing");
		return NULL;
	}
	eid = nla_data(attr);
	if (nla_len(attr) != SMC_MAX_EID_LEN + 1 || eid[SMC_MAX_EID_LEN]) {
		NL_SET_ERR_MSG(info->extack,
			       "UEID must be 32 characters, blank padded, and a NUL");
		return NULL;
	}
	if (new && !smc_eid_valid(eid)) {
		NL_SET_ERR_MSG(info->extack,
			       "UEID: A-Z, 0-9, '.', '-' only, starting with A-Z or 0-9");
		return NULL;
	}
	return eid;
}

/**
 * smc_nl_ueids() - the user EIDs of a namespace, for a CLC exchange
 * @net: the connection's namespace
 * @ueids: filled with up to SMC_MAX_UEID EIDs, in the order they were added
 *	(a CLC Proposal has room for SMC_CLC_MAX_EID)
 *
 * Return: the number of EIDs copied.
 */
int smc_nl_ueids(const struct net *net, u8 ueids[][SMC_EID_LEN])
{
	return smc_eid_copy(&smc_nl_net(net)->eids, ueids, NULL);
}

static int smc_nl_add_ueid(struct sk_buff *skb, struct genl_info *info)
{
	const u8 *eid = smc_nl_ueid_arg(info, true);
	int rc;

	if (!eid)
		return -EINVAL;
	rc = smc_eid_add(&smc_nl_net(genl_info_net(info))->eids, eid);
	if (rc == -EEXIST)
		NL_SET_ERR_MSG(info->extack, "UEID exists");
	else if (rc == -ERANGE)
		NL_SET_ERR_MSG(info->extack, "UEID table full");
	return rc;
}

static int smc_nl_remove_ueid(struct sk_buff *skb, struct genl_info *info)
{
	const u8 *eid = smc_nl_ueid_arg(info, false);
	int rc;

	if (!eid)
		return -EINVAL;
	rc = smc_eid_del(&smc_nl_net(genl_info_net(info))->eids, eid);
	if (rc == -ENOENT)
		NL_SET_ERR_MSG(info->extack, "no such UEID");
	return rc;
}

static int smc_nl_flush_ueid(struct sk_buff *skb, struct genl_info *info)
{
	smc_eid_flush(&smc_nl_net(genl_info_net(info))->eids);
	return 0;
}

/* cb->args[0]: entries done */
static int smc_nl_dump_ueid(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct smc_nl_net *nn = smc_nl_net(sock_net(skb->sk));
	u8 ueid[SMC_MAX_UEID][SMC_MAX_EID_LEN];
	int n, rc = 0;
	void *hdr;
	u32 gen;

	n = smc_eid_copy(&nn->eids, ueid, &gen);
	smc_nl_set_gen(cb, gen);
	for (; cb->args[0] < n; cb->args[0]++) {
		hdr = smc_nl_dump_hdr(skb, cb, SMC_NETLINK_DUMP_UEID);
		if (!hdr) {
			rc = -EMSGSIZE;
			break;
		}
		if (smc_nl_put_field(skb, SMC_NLA_EID_TABLE_ENTRY,
				     ueid[cb->args[0]], SMC_MAX_EID_LEN)) {
			genlmsg_cancel(skb, hdr);
			rc = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
	}
	return smc_nl_dump_done(skb, rc);
}

static int smc_nl_reset_stats(struct sk_buff *skb, struct genl_info *info)
{
	smc_stats_reset(genl_info_net(info));
	return 0;
}

/* No SMC-D: no ISM device, so no SMC-D link group either. */
static int smc_nl_get_smcd_empty(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	return 0;
}

/*
 * The system EID belongs to SMC-D v2: one message without attributes,
 * as from Linux when no ISM device is v2 capable.
 */
static int smc_nl_dump_seid(struct sk_buff *skb, struct netlink_callback *cb)
{
	void *hdr;

	if (cb->args[0])
		return 0;
	hdr = smc_nl_dump_hdr(skb, cb, SMC_NETLINK_DUMP_SEID);
	if (!hdr)
		return -EMSGSIZE;
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
}

/* Linux switches the system EID on s390 only; smcr has none to switch. */
static int smc_nl_switch_seid(struct sk_buff *skb, struct genl_info *info)
{
	NL_SET_ERR_MSG(info->extack, "no system EID: it belongs to SMC-D v2");
	return -EOPNOTSUPP;
}

static int smc_nl_dump_hs_limitation(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	void *hdr;

	if (cb->args[0])
		return 0;
	hdr = smc_nl_dump_hdr(skb, cb, SMC_NETLINK_DUMP_HS_LIMITATION);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u8(skb, SMC_NLA_HS_LIMITATION_ENABLED,
		       smc_tun(net, SMC_TUN_limit_smc_hs))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
}

static int smc_nl_enable_hs_limitation(struct sk_buff *skb,
				       struct genl_info *info)
{
	smc_tun_set(genl_info_net(info), SMC_TUN_limit_smc_hs, 1);
	return 0;
}

static int smc_nl_disable_hs_limitation(struct sk_buff *skb,
					struct genl_info *info)
{
	smc_tun_set(genl_info_net(info), SMC_TUN_limit_smc_hs, 0);
	return 0;
}

static const struct nla_policy smc_nl_ueid_policy[SMC_NLA_EID_TABLE_MAX + 1] = {
	[SMC_NLA_EID_TABLE_ENTRY] = { .type = NLA_STRING,
				      .len = SMC_MAX_EID_LEN },
};

/*
 * The family's policy, for every command without one of its own: no
 * attribute at all. Attribute 1 is refused here, any higher one by the
 * family's maxattr (all commands are validated strictly).
 */
static const struct nla_policy smc_nl_no_attr_policy[2] = {
	[1] = { .type = NLA_REJECT },
};

/*
 * Read-only dumps need no privilege; changes need CAP_NET_ADMIN in the
 * namespace's user namespace (GENL_UNS_ADMIN_PERM).
 */
static const struct genl_ops smc_nl_ops[] = {
	{
		.cmd	= SMC_NETLINK_GET_SYS_INFO,
		.dumpit	= smc_nl_get_sys_info,
	},
	{
		.cmd	= SMC_NETLINK_GET_LGR_SMCR,
		.dumpit	= smc_nl_get_lgr,
	},
	{
		.cmd	= SMC_NETLINK_GET_LINK_SMCR,
		.dumpit	= smc_nl_get_link,
	},
	{
		.cmd	= SMC_NETLINK_GET_LGR_SMCD,
		.dumpit	= smc_nl_get_smcd_empty,
	},
	{
		.cmd	= SMC_NETLINK_GET_DEV_SMCD,
		.dumpit	= smc_nl_get_smcd_empty,
	},
	{
		.cmd	= SMC_NETLINK_GET_DEV_SMCR,
		.dumpit	= smc_nl_get_dev,
	},
	{
		.cmd	= SMC_NETLINK_GET_STATS,
		.dumpit	= smc_nl_get_stats,
	},
	{
		.cmd	= SMC_NETLINK_GET_FBACK_STATS,
		.dumpit	= smc_nl_get_fback_stats,
	},
	{
		.cmd	= SMC_NETLINK_DUMP_UEID,
		.dumpit	= smc_nl_dump_ueid,
	},
	{
		.cmd	= SMC_NETLINK_ADD_UEID,
		.flags	= GENL_UNS_ADMIN_PERM,
		.doit	= smc_nl_add_ueid,
		.policy	= smc_nl_ueid_policy,
		.maxattr = SMC_NLA_EID_TABLE_MAX,
	},
	{
		.cmd	= SMC_NETLINK_REMOVE_UEID,
		.flags	= GENL_UNS_ADMIN_PERM,
		.doit	= smc_nl_remove_ueid,
		.policy	= smc_nl_ueid_policy,
		.maxattr = SMC_NLA_EID_TABLE_MAX,
	},
	{
		.cmd	= SMC_NETLINK_FLUSH_UEID,
		.flags	= GENL_UNS_ADMIN_PERM,
		.doit	= smc_nl_flush_ueid,
	},
	{
		.cmd	= SMC_NETLINK_DUMP_SEID,
		.dumpit	= smc_nl_dump_seid,
	},
	{
		.cmd	= SMC_NETLINK_ENABLE_SEID,
		.flags	= GENL_UNS_ADMIN_PERM,
		.doit	= smc_nl_switch_seid,
	},
	{
		.cmd	= SMC_NETLINK_DISABLE_SEID,
		.flags	= GENL_UNS_ADMIN_PERM,
		.doit	= smc_nl_switch_seid,
	},
	{
		.cmd	= SMC_NETLINK_DUMP_HS_LIMITATION,
		.dumpit	= smc_nl_dump_hs_limitation,
	},
	{
		.cmd	= SMC_NETLINK_ENABLE_HS_LIMITATION,
		.flags	= GENL_UNS_ADMIN_PERM,
		.doit	= smc_nl_enable_hs_limitation,
	},
	{
		.cmd	= SMC_NETLINK_DISABLE_HS_LIMITATION,
		.flags	= GENL_UNS_ADMIN_PERM,
		.doit	= smc_nl_disable_hs_limitation,
	},
	{
		/* at or above resv_start_op: strict, takes no attributes */
		.cmd	= SMCR_NETLINK_RESET_STATS,
		.flags	= GENL_UNS_ADMIN_PERM,
		.doit	= smc_nl_reset_stats,
	},
};

static struct genl_family smc_nl_family __ro_after_init = {
	.name		= SMC_GENL_FAMILY_NAME,
	.version	= SMC_GENL_FAMILY_VERSION,
	.netnsok	= true,
	.module		= THIS_MODULE,
	.maxattr	= ARRAY_SIZE(smc_nl_no_attr_policy) - 1,
	.policy		= smc_nl_no_attr_policy,
	.ops		= smc_nl_ops,
	.n_ops		= ARRAY_SIZE(smc_nl_ops),
	/*
	 * Linux's commands keep the lenient header checks (reserved field,
	 * request flags), as in Linux; smcr's get the strict ones
	 */
	.resv_start_op	= SMC_NETLINK_DISABLE_HS_LIMITATION + 1,
};

static int __net_init smc_nl_net_init(struct net *net)
{
	smc_eid_init(&smc_nl_net(net)->eids);
	return 0;
}

static struct pernet_operations smc_nl_net_ops = {
	.init	= smc_nl_net_init,
	.id	= &smc_nl_net_id,
	.size	= sizeof(struct smc_nl_net),
};

/**
 * smc_nl_init() - register the SMC_GEN_NETLINK family
 *
 * Needs the statistics set up (smc_stats_init()).
 * Return: 0 or a negative errno.
 */
int __init smc_nl_init(void)
{
	int rc;

	rc = register_pernet_subsys(&smc_nl_net_ops);
	if (rc)
		return rc;
	rc = genl_register_family(&smc_nl_family);
	if (rc)
		unregister_pernet_subsys(&smc_nl_net_ops);
	return rc;
}

/**
 * smc_nl_exit() - unregister the SMC_GEN_NETLINK family
 */
void smc_nl_exit(void)
{
	genl_unregister_family(&smc_nl_family);
	unregister_pernet_subsys(&smc_nl_net_ops);
}
