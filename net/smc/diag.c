// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: sock_diag for AF_SMC, in the binary format of Linux's smc_diag, so
 * tools that list SMC sockets (smcss, ss-style tools) work with smcr.
 * The dump lists every SMC socket, also those created with IPPROTO_SMC
 * (inet.c); diag_family is the family of the TCP connection, AF_INET or
 * AF_INET6, for both kinds. An SMC-R connection's cursors, flags and link
 * (SMC_DIAG_CONNINFO, SMC_DIAG_LGRINFO) are read under conn->lock while
 * its link group is set (smc_diag_conn()).
 */
#include <linux/inet_diag.h>
#include <linux/smc_diag.h>
#include <linux/smcr.h>
#include <linux/sock_diag.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <net/ipv6.h>

#include "close.h"
#include "smcr.h"

/* diag_ext bit of an SMC_DIAG_* attribute */
#define SMC_DIAG_EXT(attr)	(1 << (SMC_DIAG_##attr - 1))

struct smc_diag_ctx {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	u8 ext;
};

static void smc_diag_fill_id(struct smc_diag_msg *r, struct sock *sk)
{
	struct socket *clcsock = smc_sk(sk)->clcsock;
	struct sock *clcsk;

	r->diag_family = smc_ip_family(sk);
	sock_diag_save_cookie(sk, r->id.idiag_cookie);
	if (!clcsock)
		return;
	clcsk = clcsock->sk;
	r->id.idiag_sport = htons(READ_ONCE(clcsk->sk_num));
	r->id.idiag_dport = READ_ONCE(clcsk->sk_dport);
	r->id.idiag_if = READ_ONCE(clcsk->sk_bound_dev_if);
	if (clcsk->sk_family == AF_INET) {
		r->id.idiag_src[0] = READ_ONCE(clcsk->sk_rcv_saddr);
		r->id.idiag_dst[0] = READ_ONCE(clcsk->sk_daddr);
#if IS_ENABLED(CONFIG_IPV6)
	} else {
		memcpy(r->id.idiag_src, &clcsk->sk_v6_rcv_saddr,
		       sizeof(clcsk->sk_v6_rcv_saddr));
		memcpy(r->id.idiag_dst, &clcsk->sk_v6_daddr,
		       sizeof(clcsk->sk_v6_daddr));
#endif
	}
}

static void smc_diag_curs(struct smc_diag_cursor *d, struct smc_cursor c)
{
	d->wrap = c.wrap;
	d->count = c.count;
}

/* A GID as Linux's smc_diag shows it: eight 16-bit groups in hex */
static void smc_diag_gid(u8 *out, size_t size, const u8 *gid)
{
	char *p = (char *)out;
	int i, n = 0;

	for (i = 0; i < SMC_GID_LEN; i += 2)
		n += scnprintf(p + n, size - n, "%s%02x%02x", i ? ":" : "",
			       gid[i], gid[i + 1]);
}

/**
 * smc_diag_conn() - an SMC-R connection's state for sock_diag
 * @smc: a socket whose establishment ended in SMC-R (smc->hs read with
 *	acquire semantics: the connection is set up)
 * @ci: cursors, sizes and flags, as Linux's smc_diag reports them; the
 *	send buffer's prepared cursor is the end of the staged bytes, the
 *	sent and finished ones the producer cursor (writes complete in order)
 * @li: the link (role: 0 client, 1 server)
 *
 * Context: any; takes conn->lock.
 * Return: false if the connection has ended (nothing filled).
 */
static bool smc_diag_conn(struct smc_sock *smc, struct smc_diag_conninfo *ci,
			  struct smc_diag_lgrinfo *li)
{
	struct smc_conn *conn = &smc->conn;
	struct smc_link *lnk;

	spin_lock_bh(&conn->lock);
	if (!conn->lgr) {
		spin_unlock_bh(&conn->lock);
		return false;
	}
	lnk = conn->lnk;
	ci->token = conn->token;
	ci->sndbuf_size = conn->sb_ring.size;
	ci->rmbe_size = conn->rx_ring.size;
	ci->peer_rmbe_size = conn->tx_ring.size;
	smc_diag_curs(&ci->rx_prod, conn->rx_prod);
	smc_diag_curs(&ci->rx_cons, conn->tx_peer_cons);
	smc_diag_curs(&ci->tx_prod, conn->tx_prod);
	smc_diag_curs(&ci->tx_cons, conn->rx_cons_sent);
	ci->rx_prod_flags = conn->peer_prod_flags;
	ci->rx_conn_state_flags = conn->peer_flags;
	ci->tx_prod_flags = conn->tx_urg |
			    (conn->tx_blocked ? SMC_CDC_PROD_WRITE_BLOCKED : 0);
	ci->tx_conn_state_flags = conn->sent_flags;
	smc_diag_curs(&ci->tx_prep, conn->tx_staged);
	smc_diag_curs(&ci->tx_sent, conn->tx_prod);
	smc_diag_curs(&ci->tx_fin, conn->tx_prod);
	li->role = conn->lgr->server;
	if (conn->lgr_gone)		/* the device may be gone */
		goto out;
	li->lnk[0].link_id = lnk->link_id;
	strscpy(li->lnk[0].ibname, dev_name(&lnk->sdev->ibdev->dev),
		sizeof(li->lnk[0].ibname));
	li->lnk[0].ibport = lnk->port;
	smc_diag_gid(li->lnk[0].gid, sizeof(li->lnk[0].gid),
		     lnk->local.gid);
	smc_diag_gid(li->lnk[0].peer_gid, sizeof(li->lnk[0].peer_gid),
		     lnk->peer.gid);
out:
	spin_unlock_bh(&conn->lock);
	return true;
}

static int smc_diag_fill(struct sock *sk, void *arg)
{
	struct smc_diag_ctx *ctx = arg;
	struct netlink_callback *cb = ctx->cb;
	struct user_namespace *user_ns;
	struct smc_sock *smc = smc_sk(sk);
	struct smc_diag_msg *r;
	struct nlmsghdr *nlh;
	bool done;

	nlh = nlmsg_put(ctx->skb, NETLINK_CB(cb->skb).portid,
			cb->nlh->nlmsg_seq, cb->nlh->nlmsg_type, sizeof(*r),
			NLM_F_MULTI);
	if (!nlh)
		return -EMSGSIZE;
	r = nlmsg_data(nlh);
	memset(r, 0, sizeof(*r));
	smc_diag_fill_id(r, sk);
	r->diag_state = READ_ONCE(sk->sk_state);
	/* acquire, pairs with smc_sock_hs_finish(): DONE: conn is set up */
	done = smp_load_acquire(&smc->hs) == SMC_HS_DONE;
	/* an SMC-R connection's state is where its closing is (4.8) */
	if (done && !READ_ONCE(smc->use_fallback) &&
	    r->diag_state == SMC_ACTIVE)
		r->diag_state = smc_close_diag_state(&smc->conn);
	r->diag_mode = READ_ONCE(smc->use_fallback) ?
		       SMC_DIAG_MODE_FALLBACK_TCP : SMC_DIAG_MODE_SMCR;
	r->diag_shutdown = READ_ONCE(sk->sk_shutdown);
	user_ns = sk_user_ns(NETLINK_CB(cb->skb).sk);
	r->diag_uid = from_kuid_munged(user_ns, sock_i_uid(sk));
	r->diag_inode = sock_i_ino(sk);

	if (smc->use_fallback) {
		struct smc_diag_fallback fb = {
			.reason = smc->fallback_rsn,
			.peer_diagnosis = smc->peer_diagnosis,
		};

		if (nla_put(ctx->skb, SMC_DIAG_FALLBACK, sizeof(fb), &fb))
			goto cancel;
	}
	if ((ctx->ext & (SMC_DIAG_EXT(CONNINFO) | SMC_DIAG_EXT(LGRINFO))) &&
	    done && !smc->use_fallback) {
		struct smc_diag_conninfo ci = {};
		struct smc_diag_lgrinfo li = {};

		if (smc_diag_conn(smc, &ci, &li) &&
		    (((ctx->ext & SMC_DIAG_EXT(CONNINFO)) &&
		      nla_put(ctx->skb, SMC_DIAG_CONNINFO, sizeof(ci), &ci)) ||
		     ((ctx->ext & SMC_DIAG_EXT(LGRINFO)) &&
		      nla_put(ctx->skb, SMC_DIAG_LGRINFO, sizeof(li), &li))))
			goto cancel;
	}
	if ((ctx->ext & SMC_DIAG_EXT(SHUTDOWN)) &&
	    nla_put_u8(ctx->skb, SMC_DIAG_SHUTDOWN, r->diag_shutdown))
		goto cancel;
	nlmsg_end(ctx->skb, nlh);
	return 0;

cancel:
	nlmsg_cancel(ctx->skb, nlh);
	return -EMSGSIZE;
}

static int smc_diag_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct smc_diag_ctx ctx = { .skb = skb, .cb = cb };
	u64 pos = cb->args[0];

	if (nlmsg_len(cb->nlh) >= sizeof(struct smc_diag_req))
		ctx.ext = ((struct smc_diag_req *)nlmsg_data(cb->nlh))->diag_ext;
	smc_sock_list_walk(sock_net(skb->sk), smc_diag_fill, &ctx, &pos);
	cb->args[0] = pos;
	return skb->len;
}

static int smc_diag_handler_dump(struct sk_buff *skb, struct nlmsghdr *h)
{
	struct net *net = sock_net(skb->sk);
	struct netlink_dump_control c = {
		.dump = smc_diag_dump,
		.min_dump_alloc = SKB_WITH_OVERHEAD(32768),
	};

	if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
	    !(h->nlmsg_flags & NLM_F_DUMP))
		return -EOPNOTSUPP;
	return netlink_dump_start(net->diag_nlsk, skb, h, &c);
}

static const struct sock_diag_handler smc_diag_handler = {
	.owner	= THIS_MODULE,
	.family	= AF_SMC,
	.dump	= smc_diag_handler_dump,
};

/**
 * smc_diag_init() - register the AF_SMC sock_diag handler
 *
 * Return: 0 or a negative errno (-EBUSY if another handler has AF_SMC).
 */
int smc_diag_init(void)
{
	return sock_diag_register(&smc_diag_handler);
}

/**
 * smc_diag_exit() - unregister the AF_SMC sock_diag handler
 */
void smc_diag_exit(void)
{
	sock_diag_unregister(&smc_diag_handler);
}
