/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: Shared Memory Communications over RDMA (RFC 7609).
 *
 * Internal definitions shared by the files of smcr.ko.
 */
#ifndef _SMCR_SMCR_H
#define _SMCR_SMCR_H

#include <linux/list.h>
#include <linux/smcr.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/sock.h>
#include <smcr/clc.h>

#include "core.h"
#include "ib.h"

/*
 * Values of sk_state. The numbers are those of the matching TCP states and
 * of Linux SMC, so sock_diag consumers print them alike.
 */
enum smc_state {
	SMC_ACTIVE	= 1,	/* connected (TCP_ESTABLISHED) */
	SMC_INIT	= 2,	/* created, or connect in progress */
	SMC_CLOSED	= 7,	/* closed (TCP_CLOSE) */
	SMC_LISTEN	= 10,	/* listening (TCP_LISTEN) */
};

/*
 * Connection establishment, as seen by the application (smc_sock.hs).
 * Client: NONE -connect()-> TCP -established-> CLC -decided-> DONE;
 * a failed attempt returns to NONE with sk_err set.
 * Server child: CLC -decided-> DONE, before accept() can return it.
 */
enum smc_hs_phase {
	SMC_HS_NONE,		/* nothing started */
	SMC_HS_TCP,		/* client: TCP handshake in progress */
	SMC_HS_CLC,		/* CLC exchange running in a worker */
	SMC_HS_DONE,		/* SMC-R or TCP fallback decided */
};

/* smc_sock.flags bits */
enum {
	SMC_F_HS_QUEUED,	/* hs_work queued for this connect attempt */
};

/**
 * struct smc_clcsk_cb - the clcsock callbacks smcr replaced
 * @data_ready: original sk_data_ready
 * @write_space: original sk_write_space
 * @state_change: original sk_state_change
 * @error_report: original sk_error_report
 */
struct smc_clcsk_cb {
	void (*data_ready)(struct sock *sk);
	void (*write_space)(struct sock *sk);
	void (*state_change)(struct sock *sk);
	void (*error_report)(struct sock *sk);
};

/**
 * struct smc_sock - an SMC socket: AF_SMC, or AF_INET/AF_INET6 with
 *	IPPROTO_SMC (inet.c)
 * @sk: the socket; must be first
 * @inet: @sk as inet_create()/inet6_create() see it: they allocate an
 *	IPPROTO_SMC socket with our proto and initialise its inet_sock part,
 *	which the inet destructor reads at free. smcr uses no field of it
 *	beyond @sk: IP options go to @clcsock. Unused on AF_SMC sockets.
 * @clcsock: internal TCP socket used for CLC and for fallback. Set when the
 *	socket is created (or, for a server child, adopted) and released by
 *	smc_release()/smc_child_dispose() only; every other user runs while
 *	the socket cannot be released (syscall on the file, or a worker that
 *	release waits for).
 * @clc_cb: clcsock callbacks replaced by smcr; written under the clcsock's
 *	sk_callback_lock, read by the replacements under the same lock.
 * @hs: enum smc_hs_phase. Written under the socket lock, read locklessly
 *	(READ_ONCE) by callbacks, poll and data-path waits.
 * @flags: SMC_F_* bits (atomic bitops)
 * @use_fallback: data moves over @clcsock (TCP). Written before @hs
 *	becomes SMC_HS_DONE and never changed afterwards.
 * @fallback_rsn: why TCP is used (SMC_CLC_DECL_*); as @use_fallback
 * @peer_diagnosis: the peer's Decline diagnosis, if it sent one; as
 *	@use_fallback
 * @hs_work: client: CLC exchange after TCP connect; server child: CLC
 *	exchange before the child is queued for accept(). Holds a socket
 *	reference while queued or running.
 * @listen_wait: listener: entry on the listening clcsock's wait queue that
 *	schedules @accept_work for new TCP connections
 * @accept_work: listener: takes TCP connections off the listening clcsock
 * @accept_lock: listener: protects @accept_q, @hs_q, @hs_inflight and
 *	@listen_closed
 * @accept_q: listener: children with a decided handshake, in order
 * @hs_q: listener: children whose handshake is running
 * @hs_inflight: listener: number of children on @hs_q
 * @limit_hs: listener: hs_limit applies (net.smc.limit_smc_hs when the
 *	socket was created); set before the socket is visible, then constant
 * @listen_closed: listener: no more children are queued; set once
 * @listener: child: the listener it belongs to (a reference is held) while
 *	it is on the listener's @hs_q or @accept_q; NULL once accepted
 * @accept_node: child: entry on the listener's @hs_q or @accept_q
 * @list_node: entry on the global socket list (diag); see af_smc.c
 * @list_id: its place there, unique and increasing (under the list lock)
 * @conn: the SMC-R connection, when the handshake chose SMC-R (core.h)
 */
struct smc_sock {
	union {
		struct sock	sk;
		struct inet_sock inet;
	};
	struct socket		*clcsock;
	struct smc_clcsk_cb	clc_cb;
	int			hs;
	unsigned long		flags;
	bool			use_fallback;
	u32			fallback_rsn;
	u32			peer_diagnosis;
	struct work_struct	hs_work;

	/* listener */
	struct wait_queue_entry	listen_wait;
	struct work_struct	accept_work;
	spinlock_t		accept_lock;	/* see above */
	struct list_head	accept_q;
	struct list_head	hs_q;
	unsigned int		hs_inflight;
	bool			limit_hs;
	bool			listen_closed;

	/* server child */
	struct smc_sock		*listener;
	struct list_head	accept_node;

	struct list_head	list_node;
	u64			list_id;
	struct smc_conn		conn;
};

/**
 * struct smc_offer - what one side can offer for SMC-R v1 on a connection
 * @gid: RoCE GID the link would use
 * @mac: RoCE MAC the link would use
 * @prefixes: IP prefixes of the interface carrying the TCP connection
 * @vlan_id: VLAN of that interface, 0 for none
 * @roce: @pick names a real RoCE port (false: test_fake_offer)
 * @pick: the RoCE port and GID, if @roce
 */
struct smc_offer {
	u8			gid[SMC_GID_LEN];
	u8			mac[SMC_MAC_LEN];
	struct smc_clc_prefixes	prefixes;
	u16			vlan_id;
	bool			roce;
	struct smc_ib_pick	pick;
};

#define SMC_STATS_FBACK_SLOTS	32

/**
 * struct smc_stats_fback - fallbacks of one role in a namespace
 * @total: all fallbacks
 * @rsn: per reason code: the first SMC_STATS_FBACK_SLOTS codes seen
 */
struct smc_stats_fback {
	u64	total;
	struct {
		u32	code;
		u32	count;
	} rsn[SMC_STATS_FBACK_SLOTS];
};

static inline struct smc_sock *smc_sk(const struct sock *sk)
{
	return (struct smc_sock *)sk;
}

/*
 * AF_INET or AF_INET6: the family of the socket's TCP connection (its
 * clcsock), by the protocol of an AF_SMC socket, else its own family
 */
static inline int smc_ip_family(const struct sock *sk)
{
	if (sk->sk_family != AF_SMC)
		return sk->sk_family;
	return sk->sk_protocol == SMCPROTO_SMC6 ? AF_INET6 : AF_INET;
}

static inline bool smc_hs_pending(const struct smc_sock *smc)
{
	int hs = READ_ONCE(smc->hs);

	return hs == SMC_HS_TCP || hs == SMC_HS_CLC;
}

/* af_smc.c */
extern struct workqueue_struct *smc_hs_wq;
extern struct workqueue_struct *smc_listen_wq;
void smc_peer_id_get(u8 *id);
void smc_peer_id_learn_mac(const u8 *mac);
int smc_release(struct socket *sock);
void smc_sock_init(struct smc_sock *smc, int protocol);
int smc_sock_open(struct smc_sock *smc, struct socket *sock, int family);
struct smc_sock *smc_sock_alloc_child(struct smc_sock *lsmc);
void smc_sock_keepalive(struct sock *sk, int on);
void smc_sock_set_fallback(struct smc_sock *smc, u32 reason, u32 peer_diag);
void smc_sock_hs_finish(struct smc_sock *smc);
void smc_sock_unlist(struct smc_sock *smc);
void smc_sock_list_walk(struct net *net,
			int (*fn)(struct sock *sk, void *arg), void *arg,
			u64 *pos);

/*
 * The proto_ops of an SMC socket of family @fam: AF_SMC, and AF_INET and
 * AF_INET6 for IPPROTO_SMC (inet.c), the same but for the family. Needs
 * compat.h (smcr_accept).
 */
#define SMC_SOCK_OPS(fam) {				\
	.family		= (fam),			\
	.owner		= THIS_MODULE,			\
	.release	= smc_release,			\
	.bind		= smc_bind,			\
	.connect	= smc_connect,			\
	.socketpair	= sock_no_socketpair,		\
	.accept		= smcr_accept,			\
	.getname	= smc_getname,			\
	.poll		= smc_poll,			\
	.ioctl		= smc_ioctl,			\
	.listen		= smc_listen,			\
	.shutdown	= smc_shutdown,			\
	.setsockopt	= smc_setsockopt,		\
	.getsockopt	= smc_getsockopt,		\
	.sendmsg	= smc_sendmsg,			\
	.recvmsg	= smc_recvmsg,			\
	.mmap		= sock_no_mmap,			\
}

/* inet.c: IPPROTO_SMC where the kernel has it */
int smc_inet_init(void);
void smc_inet_exit(void);
void smc_inet_child_init(struct sock *sk);

/* clcsock.c */
int smc_clcsock_create(struct smc_sock *smc, int family);
void smc_clcsock_adopt(struct smc_sock *smc, struct socket *clcsock);
void smc_clcsock_hook(struct smc_sock *smc);
void smc_clcsock_unhook(struct smc_sock *smc);
void smc_clcsock_release(struct smc_sock *smc);
void smc_clcsock_want_smc(struct smc_sock *smc, bool on);
bool smc_clcsock_peer_smc(const struct smc_sock *smc);
void smc_clcsock_copy_settings(struct sock *dst, const struct sock *src);
void smc_clcsock_sockopt_sync(struct smc_sock *smc);

/* offer.c */
u32 smc_offer_local(struct smc_sock *smc, struct smc_offer *offer);

/* stats.c */

/* Buffer events, for smc_stats_buf() */
enum smc_stats_buf_ev {
	SMC_STATS_BUF_ALLOC,		/* allocated and taken into use */
	SMC_STATS_BUF_REUSE,		/* reused and taken into use */
	SMC_STATS_BUF_FREE,		/* no longer used by the connection */
	SMC_STATS_BUF_DGRADE,		/* got a smaller one than wanted */
	SMC_STATS_BUF_FULL,		/* our buffer was full */
	SMC_STATS_BUF_FULL_PEER,	/* the peer's RMB was full */
	SMC_STATS_BUF_SMALL,		/* our buffer was too small */
	SMC_STATS_BUF_SMALL_PEER,	/* the peer's RMB was too small */
};

/* Socket events, for smc_stats_event() */
enum smc_stats_ev {
	SMC_STATS_EV_SPLICE,		/* splice_read */
	SMC_STATS_EV_CORK,		/* TCP_CORK set */
	SMC_STATS_EV_NODELAY,		/* TCP_NODELAY set */
	SMC_STATS_EV_URG,		/* urgent data */
};

void smc_stats_fallback(const struct net *net, bool server, u32 reason);
void smc_stats_fallback_read(const struct net *net, bool server,
			     struct smc_stats_fback *out);
u32 smc_stats_fallback_snapshot(const struct net *net,
				struct smc_stats_fback out[2]);
void smc_stats_hs_done(const struct net *net, bool server, u8 version);
void smc_stats_hs_error(const struct net *net, bool server);
void smc_stats_payload(const struct net *net, bool tx, size_t len,
		       ssize_t done);
void smc_stats_buf(const struct net *net, bool tx, enum smc_stats_buf_ev ev,
		   size_t size);
void smc_stats_event(const struct net *net, enum smc_stats_ev ev);
void smc_stats_reset(const struct net *net);
int smc_stats_nl_put(struct sk_buff *skb, const struct net *net);
int smc_stats_init(void);
void smc_stats_exit(void);

/**
 * struct smc_hs_v2 - SMC-R version 2 in one CLC exchange (hs_v2.c)
 * @possible: this side can do version 2 on the connection: an IPv4
 *	connection, a RoCE v2 port with the IPv4-mapped GID, a user EID, and
 *	the test-only test_clc_version allows it
 * @v1: this side offers or accepts version 1 (test_clc_version allows it)
 * @why_not: if not @possible, the Decline code saying why
 * @ueid_cnt: entries of @ueids
 * @ueids: the namespace's user EIDs
 * @ours: our release and limits
 * @agreed: first contact: what both sides agreed on
 * @eid: the negotiated EID
 * @route: how our port reaches the peer's GID: without a router, or
 *	through which router's MAC
 * @peer_os: first contact: the peer's OS type
 */
struct smc_hs_v2 {
	bool				possible;
	bool				v1;
	u32				why_not;
	int				ueid_cnt;
	u8				ueids[SMC_CLC_MAX_EID][SMC_EID_LEN];
	struct smc_clc_v2_limits	ours;
	struct smc_clc_v2_limits	agreed;
	u8				eid[SMC_EID_LEN];
	struct smc_ib_route		route;
	u8				peer_os;
};

struct smc_link;
struct smc_link_group;

/* hs_v2.c */
void smc_hs_v2_local(struct smc_sock *smc, const struct smc_offer *offer,
		     struct smc_hs_v2 *v2);
void smc_hs_v2_propose(const struct smc_hs_v2 *v2,
		       const struct smc_offer *offer,
		       struct smc_clc_proposal_info *prop);
u32 smc_hs_v2_choose(struct smc_sock *smc, const struct smc_offer *offer,
		     const struct smc_clc_proposal_info *prop,
		     struct smc_hs_v2 *v2);
u32 smc_hs_v2_accepted(struct smc_sock *smc, const struct smc_offer *offer,
		       const struct smc_clc_accept_info *acc,
		       struct smc_hs_v2 *v2);
void smc_hs_v2_fill(const struct smc_hs_v2 *v2, const struct smc_link *lnk,
		    bool confirm, struct smc_clc_accept_info *info);
u32 smc_hs_v2_confirmed(struct smc_hs_v2 *v2,
			const struct smc_clc_accept_info *conf);
void smc_hs_v2_lgr_init(struct smc_link_group *lgr,
			const struct smc_hs_v2 *v2);

/* handshake.c */
bool smc_hs_wanted(const struct smc_sock *smc);
int smc_hs_client(struct smc_sock *smc);
int smc_hs_server(struct smc_sock *smc);

/* connect.c */
int smc_connect(struct socket *sock, struct sockaddr *addr, int alen,
		int flags);
void smc_connect_kick(struct smc_sock *smc);
void smc_connect_init(struct smc_sock *smc);
int smc_connect_wait_hs(struct smc_sock *smc, long *timeo);

/* listen.c */
int smc_listen(struct socket *sock, int backlog);
__poll_t smc_accept_poll(struct smc_sock *smc);
void smc_listen_stop(struct smc_sock *smc);
void smc_listen_init(struct smc_sock *smc);
bool smc_listen_hs_aborted(const struct smc_sock *smc);

/* fallback.c: the proto_ops that pass through to the clcsock */
int smc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len);
int smc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		int flags);
__poll_t smc_poll(struct file *file, struct socket *sock, poll_table *wait);
int smc_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg);
int smc_setsockopt(struct socket *sock, int level, int optname,
		   sockptr_t optval, unsigned int optlen);
int smc_getsockopt(struct socket *sock, int level, int optname,
		   char __user *optval, int __user *optlen);
bool smc_sockopt_tcp_only(struct smc_sock *smc);
int smc_shutdown(struct socket *sock, int how);
int smc_getname(struct socket *sock, struct sockaddr *addr, int peer);
int smc_bind(struct socket *sock, struct sockaddr *addr, int alen);

/* diag.c */
int smc_diag_init(void);
void smc_diag_exit(void);

/* netlink.c: generic netlink family SMC_GEN_NETLINK (see netlink.h) */
int smc_nl_init(void);
void smc_nl_exit(void);
int smc_nl_ueids(const struct net *net, u8 ueids[][SMC_EID_LEN]);
int smc_nl_put_uint(struct sk_buff *skb, int type, u64 val);

#endif /* _SMCR_SMCR_H */
