// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: Shared Memory Communications over RDMA (RFC 7609) for Linux.
 *
 * The AF_SMC socket family: socket creation and release, the proto_ops
 * table (IPPROTO_SMC sockets share its contents: inet.c), module
 * parameters and module setup. Connection establishment is
 * in connect.c and listen.c, the CLC exchange in handshake.c, the
 * operations that run over TCP in fallback.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/etherdevice.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <linux/smcr.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <smcr/reason.h>

#include "compat.h"
#include "ib.h"
#include "core.h"
#include "cdc.h"
#include "close.h"
#include "keepalive.h"
#include "lgr.h"
#include "trace.h"
#include "smcr.h"

struct workqueue_struct *smc_hs_wq;	/* handshakes: may block on CLC */
/* accept_work: waits on no peer (a child's allocation may reclaim) */
struct workqueue_struct *smc_listen_wq;

/*
 * Our peer ID (RFC 7609, A.2.1): a random instance ID, then the MAC of the
 * first RoCE port a connection offered - zero before, when only Declines
 * carry it. Set once: a peer finds our link groups by it.
 */
static u8 smc_local_peer_id[SMC_PEER_ID_LEN];
static bool smc_local_peer_id_mac;
static DEFINE_SPINLOCK(smc_local_peer_id_lock);

/**
 * smc_peer_id_get() - our peer ID, for a CLC message
 * @id: filled with SMC_PEER_ID_LEN bytes
 */
void smc_peer_id_get(u8 *id)
{
	spin_lock(&smc_local_peer_id_lock);
	memcpy(id, smc_local_peer_id, SMC_PEER_ID_LEN);
	spin_unlock(&smc_local_peer_id_lock);
}

/**
 * smc_peer_id_learn_mac() - a connection offers a RoCE port of this MAC
 * @mac: the port's MAC; the peer ID takes the first valid one
 */
void smc_peer_id_learn_mac(const u8 *mac)
{
	if (READ_ONCE(smc_local_peer_id_mac) || !is_valid_ether_addr(mac))
		return;
	spin_lock(&smc_local_peer_id_lock);
	if (!smc_local_peer_id_mac) {
		memcpy(&smc_local_peer_id[2], mac, ETH_ALEN);
		WRITE_ONCE(smc_local_peer_id_mac, true);
	}
	spin_unlock(&smc_local_peer_id_lock);
}

/*
 * Every AF_SMC socket of every namespace, for sock_diag. A socket is on
 * the list from allocation until release starts; while it is listed, its
 * clcsock pointer is NULL or valid. The list is in the order of list_id,
 * which only grows: a dump resumes after the last ID it reported, so
 * sockets coming and going between its messages neither repeat nor hide
 * the others.
 */
static DEFINE_SPINLOCK(smc_sock_list_lock);
static LIST_HEAD(smc_sock_list);
static u64 smc_sock_list_next_id;	/* under smc_sock_list_lock */

static void smc_sock_list_add(struct smc_sock *smc)
{
	spin_lock(&smc_sock_list_lock);
	smc->list_id = ++smc_sock_list_next_id;
	list_add_tail(&smc->list_node, &smc_sock_list);
	spin_unlock(&smc_sock_list_lock);
}

/**
 * smc_sock_unlist() - remove a socket from the diag list
 * @smc: the socket; a no-op if it is not listed
 */
void smc_sock_unlist(struct smc_sock *smc)
{
	spin_lock(&smc_sock_list_lock);
	if (!list_empty(&smc->list_node))
		list_del_init(&smc->list_node);
	spin_unlock(&smc_sock_list_lock);
}

/**
 * smc_sock_list_walk() - call @fn for the sockets of @net, resumably
 * @net: network namespace
 * @fn: called under the list lock (must not sleep); a negative return
 *	stops the walk before that socket, to be resumed there
 * @arg: passed to @fn
 * @pos: in: the list ID of the last socket visited (0: from the start);
 *	out: the same after this walk
 */
void smc_sock_list_walk(struct net *net,
			int (*fn)(struct sock *sk, void *arg), void *arg,
			u64 *pos)
{
	struct smc_sock *smc;

	spin_lock(&smc_sock_list_lock);
	list_for_each_entry(smc, &smc_sock_list, list_node) {
		if (smc->list_id <= *pos || !net_eq(sock_net(&smc->sk), net))
			continue;
		if (fn(&smc->sk, arg) < 0)
			break;
		*pos = smc->list_id;
	}
	spin_unlock(&smc_sock_list_lock);
}

/* The clcsock's ports, for the tracepoints */
static void smc_trace_ports(const struct smc_sock *smc, u16 *sport,
			    u16 *dport)
{
	const struct sock *clcsk = smc->clcsock ? smc->clcsock->sk : NULL;

	*sport = clcsk ? READ_ONCE(clcsk->sk_num) : 0;
	*dport = clcsk ? ntohs(READ_ONCE(clcsk->sk_dport)) : 0;
}

/**
 * smc_sock_set_fallback() - record that the connection uses TCP, and why
 * @smc: socket whose establishment is deciding
 * @reason: SMC_CLC_DECL_* code
 * @peer_diag: the peer's Decline diagnosis, or 0
 */
void smc_sock_set_fallback(struct smc_sock *smc, u32 reason, u32 peer_diag)
{
	u16 sport, dport;

	smc->use_fallback = true;
	smc->fallback_rsn = reason;
	smc->peer_diagnosis = peer_diag;
	smc_trace_ports(smc, &sport, &dport);
	trace_smcr_fallback(sport, dport, !!smc->listener, reason, peer_diag);
	smc_stats_fallback(sock_net(&smc->sk), !!smc->listener, reason);
	pr_debug("socket %p falls back to TCP: %s (0x%08x), peer 0x%08x\n",
		 smc, smc_reason_name(reason), reason, peer_diag);
}

/**
 * smc_sock_hs_finish() - establishment decided: the connection is usable
 * @smc: the socket; its lock is held, or it is a child nobody sees yet
 */
void smc_sock_hs_finish(struct smc_sock *smc)
{
	struct sock *sk = &smc->sk;
	u16 sport, dport;

	sk->sk_state = SMC_ACTIVE;
	if (sk->sk_socket)
		sk->sk_socket->state = SS_CONNECTED;
	smc_trace_ports(smc, &sport, &dport);
	trace_smcr_hs_done(sport, dport, !!smc->listener, !smc->use_fallback,
			   smc->fallback_rsn, smc->peer_diagnosis);
	/* release: a reader that sees DONE sees the connection set up */
	smp_store_release(&smc->hs, SMC_HS_DONE);
	if (!smc->use_fallback && smc->conn.lgr) {
		/* a TCP reset the error report saw before DONE (clcsock.c) */
		smp_mb();
		if (READ_ONCE(smc->clcsock->sk->sk_state) == TCP_CLOSE)
			smc_close_tcp_error(smc);
		/* what the peer's CDC messages left before DONE (close.c) */
		smc_cdc_upd_queue(smc);
		smc_keepalive_start(smc);
	}
	sk->sk_state_change(sk);
}

/**
 * smc_sock_keepalive() - proto.keepalive: SO_KEEPALIVE set on an SMC socket
 * @sk: the socket; its lock is held
 * @on: the new value
 */
void smc_sock_keepalive(struct sock *sk, int on)
{
	struct smc_sock *smc = smc_sk(sk);

	if (READ_ONCE(smc->hs) == SMC_HS_DONE && !smc->use_fallback &&
	    smc->conn.lgr)
		smc_keepalive_set(smc, on);
}

static struct proto smc_proto = {
	.name		= "SMCR",
	.owner		= THIS_MODULE,
	.obj_size	= sizeof(struct smc_sock),
	.keepalive	= smc_sock_keepalive,
};

/**
 * smc_sock_init() - make a freshly allocated sock an SMC socket and list it
 * @smc: the socket, zeroed and with sock_init_data() done
 * @protocol: SMCPROTO_SMC or SMCPROTO_SMC6 (AF_SMC), or IPPROTO_SMC
 */
void smc_sock_init(struct smc_sock *smc, int protocol)
{
	struct sock *sk = &smc->sk;

	sk->sk_state = SMC_INIT;
	sk->sk_protocol = protocol;
	smc->hs = SMC_HS_NONE;
	smc_connect_init(smc);
	smc_listen_init(smc);
	smc_sock_list_add(smc);
}

/* Allocate and list a user AF_SMC socket, without clcsock */
static struct smc_sock *smc_sock_alloc(struct net *net, struct socket *sock,
				       int protocol, int kern)
{
	struct sock *sk;

	sk = sk_alloc(net, PF_SMC, GFP_KERNEL, &smc_proto, kern);
	if (!sk)
		return NULL;
	sock_init_data(sock, sk);
	smc_sock_init(smc_sk(sk), protocol);
	return smc_sk(sk);
}

/*
 * A child's cgroups (struct sock's sk_cgrp_data and sk_memcg): the
 * listener's, as TCP's children get theirs (sk_clone_lock(), accept()).
 * sk_alloc() in accept_work, a kernel worker, gave the child the worker's:
 * the root cgroup (so no cgroup BPF program of the listener's cgroup -
 * setsockopt/getsockopt among them - applied to it, nor its net_cls class
 * or net_prio index) and no memory cgroup (nothing charged).
 *
 * The cgroup: the child drops the references sk_alloc() took on the
 * worker's and takes the same two on the listener's (the cgroup and its
 * BPF programs), which sk_prot_free() drops again, as for any socket.
 * The listener's cgroup is fixed for its life; its class ID and priority
 * index (cgroup v1) may change meanwhile and are copied as they are now.
 *
 * The memory cgroup: TCP gives a child that of the process calling
 * accept(), when it is accepted. An SMC child allocates its RMB element
 * and send buffer in its handshake, before anyone accepts it (buf.c), and
 * a page's charge cannot be moved later from a module: the child takes
 * its listener's, the memory cgroup of the process that created the
 * listening socket, for its whole life - the same one whenever the
 * listener's own process accepts. It holds a reference on it
 * (css_get()), which the socket's free drops (mem_cgroup_sk_free()), as
 * for any socket with a memory cgroup. The listener's sk_memcg is fixed
 * from its sk_alloc() on. Everything is set before the child is listed or
 * used.
 */
static void smc_sock_inherit_cgroups(struct sock *sk, struct sock *lsk)
{
#ifdef CONFIG_SOCK_CGROUP_DATA
	struct cgroup *old = sock_cgroup_ptr(&sk->sk_cgrp_data);
	struct cgroup *cgrp = sock_cgroup_ptr(&lsk->sk_cgrp_data);

	cgroup_get(cgrp);
	cgroup_bpf_get(cgrp);
	sk->sk_cgrp_data.cgroup = cgrp;
	cgroup_bpf_put(old);
	cgroup_put(old);
#endif
#ifdef CONFIG_CGROUP_NET_CLASSID
	sock_cgroup_set_classid(&sk->sk_cgrp_data,
				sock_cgroup_classid(&lsk->sk_cgrp_data));
#endif
#ifdef CONFIG_CGROUP_NET_PRIO
	sock_cgroup_set_prioidx(&sk->sk_cgrp_data,
				sock_cgroup_prioidx(&lsk->sk_cgrp_data));
#endif
#ifdef CONFIG_MEMCG
	if (sk->sk_memcg)	/* sk_alloc() in a kworker sets none: defensive */
		css_put(&sk->sk_memcg->css);
	sk->sk_memcg = lsk->sk_memcg;
	if (sk->sk_memcg)
		css_get(&sk->sk_memcg->css);
#endif
}

/**
 * smc_sock_alloc_child() - allocate and list a server child of a listener
 * @lsmc: the listener
 *
 * The child has the listener's family, proto and protocol, so accept() on
 * an IPPROTO_SMC listener returns an AF_INET or AF_INET6 socket, and the
 * listener's cgroup and memory cgroup (smc_sock_inherit_cgroups()); its
 * struct sock is charged to that memory cgroup too.
 *
 * Context: process (accept_work).
 * Return: the socket, without clcsock, or NULL.
 */
struct smc_sock *smc_sock_alloc_child(struct smc_sock *lsmc)
{
	struct sock *lsk = &lsmc->sk;
	struct mem_cgroup *old;
	struct sock *sk;

	/* the listener holds its sk_memcg while it is alive */
	old = set_active_memcg(lsk->sk_memcg);
	sk = sk_alloc(sock_net(lsk), lsk->sk_family, GFP_KERNEL, lsk->sk_prot,
		      0);
	set_active_memcg(old);
	if (!sk)
		return NULL;
	smc_sock_inherit_cgroups(sk, lsk);
	sock_init_data(NULL, sk);
	smc_inet_child_init(sk);
	smc_sock_init(smc_sk(sk), lsk->sk_protocol);
	return smc_sk(sk);
}

/**
 * smc_sock_open() - give a new user socket its clcsock
 * @smc: the socket, after smc_sock_init()
 * @sock: its user socket
 * @family: AF_INET or AF_INET6: the clcsock's
 *
 * Return: 0 or a negative errno; the caller frees the socket on error.
 */
int smc_sock_open(struct smc_sock *smc, struct socket *sock, int family)
{
	int rc;

	rc = smc_clcsock_create(smc, family);
	if (rc)
		return rc;
	/* SOL_SOCKET options must reach the clcsock too */
	smcr_want_custom_sockopt(sock);
	/* TCP's defaults (tcp_rmem, tcp_wmem), as getsockopt would show */
	smc_clcsock_copy_settings(&smc->sk, smc->clcsock->sk);
	return 0;
}

/**
 * smc_release() - proto_ops.release
 * @sock: the user socket being closed
 *
 * Return: 0
 */
int smc_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct smc_sock *smc;

	if (!sk)
		return 0;
	smc = smc_sk(sk);
	smc_sock_unlist(smc);
	smc_clcsock_sockopt_sync(smc);		/* SO_LINGER */

	lock_sock(sk);
	if (sk->sk_state == SMC_LISTEN)
		smc_listen_stop(smc);
	if (smc_hs_pending(smc))
		kernel_sock_shutdown(smc->clcsock, SHUT_RDWR);
	else if (READ_ONCE(smc->hs) == SMC_HS_DONE && !smc->use_fallback)
		smc_close_release(smc);
	WRITE_ONCE(smc->hs, SMC_HS_NONE);
	sk->sk_state = SMC_CLOSED;
	sk->sk_shutdown = SHUTDOWN_MASK;
	release_sock(sk);

	/* workers take the socket lock: wait for them without it */
	if (cancel_work_sync(&smc->hs_work))
		sock_put(sk);
	if (cancel_work_sync(&smc->accept_work))
		sock_put(sk);
	smc_clcsock_release(smc);

	lock_sock(sk);
	sock_orphan(sk);
	sock->sk = NULL;
	release_sock(sk);
	sock_put(sk);
	return 0;
}

static const struct proto_ops smc_sock_ops = SMC_SOCK_OPS(PF_SMC);

static int smc_create(struct net *net, struct socket *sock, int protocol,
		      int kern)
{
	struct smc_sock *smc;
	int rc;

	if (sock->type != SOCK_STREAM)
		return -ESOCKTNOSUPPORT;
	if (protocol != SMCPROTO_SMC && protocol != SMCPROTO_SMC6)
		return -EPROTONOSUPPORT;

	sock->ops = &smc_sock_ops;
	sock->state = SS_UNCONNECTED;
	smc = smc_sock_alloc(net, sock, protocol, kern);
	if (!smc)
		return -ENOMEM;
	rc = smc_sock_open(smc, sock, smc_ip_family(&smc->sk));
	if (rc) {
		smc_sock_unlist(smc);
		sock->sk = NULL;
		sk_free(&smc->sk);
	}
	return rc;
}

static const struct net_proto_family smc_family_ops = {
	.family	= PF_SMC,
	.owner	= THIS_MODULE,
	.create	= smc_create,
};

static int __init smc_init(void)
{
	int rc;

	get_random_bytes(smc_local_peer_id, 2);

	rc = smc_tunables_init();
	if (rc)
		return rc;
	rc = smc_stats_init();
	if (rc)
		goto out_tun;
	rc = proto_register(&smc_proto, 1);
	if (rc)
		goto out_stats;
	rc = -ENOMEM;
	smc_hs_wq = alloc_workqueue("smcr_hs", WQ_UNBOUND, 0);
	if (!smc_hs_wq)
		goto out_proto;
	smc_listen_wq = alloc_workqueue("smcr_listen", 0, 0);
	if (!smc_listen_wq)
		goto out_hs_wq;

	rc = smc_lgr_init();
	if (rc)
		goto out_listen_wq;
	rc = smc_ib_init();
	if (rc)
		goto out_lgr;
	/*
	 * Everything a socket may use (the netlink family's per-namespace
	 * user EIDs, read by the CLC exchange) before the first socket can be
	 * made. Linux's smc_diag.ko and smc.ko hold the diag handler and the
	 * family name as well as AF_SMC.
	 */
	rc = smc_diag_init();
	if (rc)
		goto out_ib;
	rc = smc_nl_init();
	if (rc)
		goto out_diag;
	rc = sock_register(&smc_family_ops);
	if (rc)
		goto out_nl;
	rc = smc_inet_init();
	if (rc)
		goto out_sock;
	static_branch_inc(&tcp_have_smc);
	return 0;

out_sock:
	sock_unregister(PF_SMC);
out_nl:
	smc_nl_exit();
out_diag:
	smc_diag_exit();
out_ib:
	if (rc == -EEXIST || rc == -EBUSY)
		pr_err("AF_SMC is already registered (in-tree smc module loaded?); not loading\n");
	smc_ib_exit();
out_lgr:
	smc_lgr_exit();
out_listen_wq:
	destroy_workqueue(smc_listen_wq);
out_hs_wq:
	destroy_workqueue(smc_hs_wq);
out_proto:
	proto_unregister(&smc_proto);
out_stats:
	smc_stats_exit();
out_tun:
	smc_tunables_exit();
	return rc;
}

static void __exit smc_exit(void)
{
	smc_inet_exit();
	sock_unregister(PF_SMC);
	static_branch_dec(&tcp_have_smc);
	smc_nl_exit();
	smc_diag_exit();
	smc_lgr_exit();
	smc_ib_exit();
	destroy_workqueue(smc_listen_wq);
	destroy_workqueue(smc_hs_wq);
	proto_unregister(&smc_proto);
	smc_stats_exit();
	smc_tunables_exit();
}

module_init(smc_init);
module_exit(smc_exit);

MODULE_DESCRIPTION("smcr: Shared Memory Communications over RDMA (RFC 7609)");
MODULE_LICENSE("GPL");
