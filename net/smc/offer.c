// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: what this host can offer for SMC-R on one connection.
 *
 * An offer names the RoCE GID and MAC the link would use and the IP
 * prefixes of the interface that carries the TCP connection (RFC 7609,
 * 3.5.1.2: both peers must be on a common subnet). The RoCE part is an
 * active RoCE port serving that interface with a GID for the connection's
 * local address (smc_ib_find_port()); without one there is no offer and
 * the caller declines with NOSMCRDEV. The parameter use_roce=N turns
 * SMC-R off this way for new connections. A connection that carries an
 * option only TCP honours (an MD5 key, an IPsec policy, a socket filter:
 * smc_sockopt_tcp_only()) has no offer either: OPTUNSUPP.
 *
 * Test only: the module parameter test_fake_offer makes up a RoCE part
 * from the interface's own addresses (ignoring real RoCE ports), so the
 * CLC exchange runs up to the point where a real link would be needed. It
 * is off by default and must never be set on a production system.
 */
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/moduleparam.h>
#include <linux/smcr.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "smcr.h"
#include "test_hooks.h"

static bool smc_use_roce = true;
module_param_named(use_roce, smc_use_roce, bool, 0644);
MODULE_PARM_DESC(use_roce,
		 "Offer SMC-R on RoCE devices (N: new connections decline with NOSMCRDEV; default Y)");

static int smc_prefixes_v4(struct net_device *dev, __be32 addr,
			   struct smc_clc_prefixes *p)
{
	struct in_device *in_dev = __in_dev_get_rcu(dev);
	const struct in_ifaddr *ifa;

	if (!in_dev)
		return -ENODEV;
	in_dev_for_each_ifa_rcu(ifa, in_dev) {
		if (!inet_ifa_match(addr, ifa))
			continue;
		p->ipv4[0].addr = addr & ifa->ifa_mask;
		p->ipv4[0].len = ifa->ifa_prefixlen;
		p->ipv4_cnt = 1;
		return 0;
	}
	return -ENOENT;
}

static int smc_prefixes_v6(struct net_device *dev, struct smc_clc_prefixes *p)
{
	struct inet6_dev *in6 = __in6_dev_get(dev);
	struct inet6_ifaddr *ifa;

	if (!in6)
		return -ENODEV;
	read_lock_bh(&in6->lock);
	list_for_each_entry(ifa, &in6->addr_list, if_list) {
		struct smc_clc_ipv6_prefix *pfx = &p->ipv6[p->ipv6_cnt];

		if (ipv6_addr_type(&ifa->addr) & IPV6_ADDR_LINKLOCAL)
			continue;
		ipv6_addr_prefix((struct in6_addr *)pfx->prefix, &ifa->addr,
				 ifa->prefix_len);
		pfx->prefix_len = ifa->prefix_len;
		if (++p->ipv6_cnt == SMC_CLC_MAX_V6_PREFIX)
			break;
	}
	read_unlock_bh(&in6->lock);
	return p->ipv6_cnt ? 0 : -ENOENT;
}

/*
 * The IP prefixes of the device that carries @clcsk's route, the local
 * address as an IPv6 (or IPv4-mapped) GID candidate, and the device itself
 * (held) in *@devp.
 */
static int smc_offer_prefixes(struct sock *clcsk, struct smc_offer *offer,
			      struct net_device **devp)
{
	struct dst_entry *dst = sk_dst_get(clcsk);
	struct net_device *dev;
	bool v4;
	int rc;

	if (!dst)
		return -ENOTCONN;
	rcu_read_lock();
	dev = dst->dev;
	if (!dev) {
		rc = -ENODEV;
		goto out;
	}
	memcpy(offer->mac, dev->dev_addr, SMC_MAC_LEN);
	if (is_vlan_dev(dev))
		offer->vlan_id = vlan_dev_vlan_id(dev);
	v4 = clcsk->sk_family == AF_INET;
#if IS_ENABLED(CONFIG_IPV6)
	v4 = v4 || ipv6_addr_v4mapped(&clcsk->sk_v6_rcv_saddr);
#endif
	if (v4) {
		__be32 addr = clcsk->sk_rcv_saddr;

		ipv6_addr_set_v4mapped(addr, (struct in6_addr *)offer->gid);
		rc = smc_prefixes_v4(dev, addr, &offer->prefixes);
	} else {
#if IS_ENABLED(CONFIG_IPV6)
		memcpy(offer->gid, &clcsk->sk_v6_rcv_saddr, SMC_GID_LEN);
		rc = smc_prefixes_v6(dev, &offer->prefixes);
#else
		rc = -EAFNOSUPPORT;
#endif
	}
	if (!rc) {
		dev_hold(dev);
		*devp = dev;
	}
out:
	rcu_read_unlock();
	dst_release(dst);
	return rc;
}

/**
 * smc_offer_local() - what this host can offer on @smc's connection
 * @smc: socket whose clcsock is connected
 * @offer: filled on success
 *
 * Return: 0, or the SMC_CLC_DECL_* code to decline with (OPTUNSUPP,
 * NOSMCRDEV, CNFERR).
 */
u32 smc_offer_local(struct smc_sock *smc, struct smc_offer *offer)
{
	struct net_device *dev = NULL;
	u32 code = 0;

	bool fake = smc_test(fake_offer);

	memset(offer, 0, sizeof(*offer));
	if (smc_sockopt_tcp_only(smc))
		return SMC_CLC_DECL_OPTUNSUPP;
	if (!fake && !READ_ONCE(smc_use_roce))
		return SMC_CLC_DECL_NOSMCRDEV;
	if (smc_offer_prefixes(smc->clcsock->sk, offer, &dev))
		return SMC_CLC_DECL_CNFERR;
	/* a fake offer keeps the made-up GID and MAC */
	if (!fake && !smc_ib_find_port(dev, offer->gid, &offer->pick)) {
		offer->roce = true;
		memcpy(offer->gid, offer->pick.gid, SMC_GID_LEN);
		memcpy(offer->mac, offer->pick.mac, SMC_MAC_LEN);
		smc_peer_id_learn_mac(offer->pick.mac);
	} else if (!fake) {
		code = SMC_CLC_DECL_NOSMCRDEV;
	}
	dev_put(dev);
	return code;
}
