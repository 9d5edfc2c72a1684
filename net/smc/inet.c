// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: SMC sockets created as socket(AF_INET or AF_INET6, SOCK_STREAM,
 * IPPROTO_SMC), for programs that only ever make IP sockets (static
 * binaries, Go, Java NIO). Kernels since 6.11 accept the protocol number;
 * smcr registers it where the headers define it (compat.h), else this file
 * registers nothing and such a socket() fails with EPROTONOSUPPORT.
 *
 * An IPPROTO_SMC socket is an AF_SMC socket in everything but its family:
 *   - Allocation: inet_create()/inet6_create() allocate it from our proto
 *     (obj_size: a struct smc_sock, whose head is the inet_sock they fill
 *     in; for AF_INET6 followed by the ipv6_pinfo they point pinet6 at)
 *     and call proto.init, which does what smc_create() does after its
 *     own allocation: smc_sock_init(), then the clcsock (smc_sock_open(),
 *     of the socket's own family). Should inet_create() give up after
 *     that (a cgroup BPF program refused the socket), it calls
 *     proto.destroy and frees the socket with its usual destructor.
 *   - Operations: the AF_SMC proto_ops (SMC_SOCK_OPS()) but the family, so
 *     handshake, SMC-R, fallback, socket options, shutdown and close are
 *     the same code; the sock_diag list takes both kinds (diag_family is
 *     AF_INET or AF_INET6 for both), and getsockname()/getpeername() come
 *     from the clcsock as for AF_SMC.
 *   - Server children: smc_sock_alloc_child() allocates them with the
 *     listener's family and proto, and smc_inet_child_init() sets what
 *     inet_create() would have set that is ever read again: the inet
 *     destructor, and for AF_INET6 pinet6. accept() thus returns sockets
 *     of the listener's family (SO_DOMAIN) and protocol (SO_PROTOCOL).
 *   - Freeing: the inet destructor (inet_sock_destruct(),
 *     inet6_sock_destruct()) finds nothing of its own to free - IP options
 *     are set on the clcsock - and checks that the socket is closed
 *     (SMC_CLOSED is TCP_CLOSE) and orphaned, which smc_release() and
 *     smc_child_dispose() leave it.
 *   - Locking: the socket lock gets a class of its own; the family's
 *     class would be the clcsock's (TCP), which smcr takes under it.
 *   - Module references: a user socket holds one through its proto_ops
 *     owner (taken by __sock_create(), dropped by sock_release()) and
 *     every sock, children included, one through its proto owner until it
 *     is freed, so smcr cannot be unloaded while one exists. Unloading
 *     unregisters the protocol first.
 *
 * smcr registers IPPROTO_SMC only after it got AF_SMC: with Linux's
 * smc.ko loaded, which has both, smcr does not load at all.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <net/inet_common.h>
#include <net/ipv6.h>
#include <net/protocol.h>
#include <net/sock.h>

#include "compat.h"
#include "smcr.h"

#ifdef SMCR_HAVE_IPPROTO_SMC

static_assert(IPPROTO_SMC < IPPROTO_MAX);
static_assert((int)SMC_CLOSED == (int)TCP_CLOSE);

static struct lock_class_key smc_inet_slock_key;
static struct lock_class_key smc_inet_key;

static void smc_inet_lock_init(struct sock *sk)
{
	sock_lock_init_class_and_name(sk, "slock-IPPROTO_SMC",
				      &smc_inet_slock_key,
				      "sk_lock-IPPROTO_SMC", &smc_inet_key);
}

/* proto.init, from inet_create(): sk is allocated and inet-initialised */
static int smc_inet_init_sock(struct sock *sk)
{
	struct smc_sock *smc = smc_sk(sk);

	smc_inet_lock_init(sk);
	smc_sock_init(smc, IPPROTO_SMC);
	return smc_sock_open(smc, sk->sk_socket, sk->sk_family);
}

/*
 * proto.destroy: only where inet_create() drops a socket after (or in)
 * proto.init, through sk_common_release(). A socket that was handed to
 * its owner ends in smc_release().
 */
static void smc_inet_destroy_sock(struct sock *sk)
{
	struct smc_sock *smc = smc_sk(sk);

	smc_sock_unlist(smc);
	smc_clcsock_release(smc);
	sk->sk_state = SMC_CLOSED;
}

/* proto.unhash, which sk_common_release() calls: never hashed */
static void smc_inet_unhash(struct sock *sk)
{
}

static struct proto smc_inet_proto = {
	.name		= "SMCR-INET",
	.owner		= THIS_MODULE,
	.init		= smc_inet_init_sock,
	.destroy	= smc_inet_destroy_sock,
	.unhash		= smc_inet_unhash,
	.keepalive	= smc_sock_keepalive,
	.obj_size	= sizeof(struct smc_sock),
};

static const struct proto_ops smc_inet_ops = SMC_SOCK_OPS(PF_INET);

static struct inet_protosw smc_inet_protosw = {
	.type		= SOCK_STREAM,
	.protocol	= IPPROTO_SMC,
	.prot		= &smc_inet_proto,
	.ops		= &smc_inet_ops,
};

#if IS_ENABLED(CONFIG_IPV6)
/**
 * struct smc6_sock - an AF_INET6 IPPROTO_SMC socket
 * @smc: the SMC socket; must be first
 * @inet6: the IPv6 state inet6_create() initialises and
 *	inet6_sock_destruct() releases; smcr uses none of it (IPv6 options
 *	go to the clcsock)
 */
struct smc6_sock {
	struct smc_sock		smc;
	struct ipv6_pinfo	inet6;
};

static struct proto smc_inet6_proto = {
	.name		= "SMCR-INET6",
	.owner		= THIS_MODULE,
	.init		= smc_inet_init_sock,
	.destroy	= smc_inet_destroy_sock,
	.unhash		= smc_inet_unhash,
	.keepalive	= smc_sock_keepalive,
	.obj_size	= sizeof(struct smc6_sock),
	.ipv6_pinfo_offset = offsetof(struct smc6_sock, inet6),
};

static const struct proto_ops smc_inet6_ops = SMC_SOCK_OPS(PF_INET6);

static struct inet_protosw smc_inet6_protosw = {
	.type		= SOCK_STREAM,
	.protocol	= IPPROTO_SMC,
	.prot		= &smc_inet6_proto,
	.ops		= &smc_inet6_ops,
};

static int __init smc_inet6_init(void)
{
	int rc;

	rc = proto_register(&smc_inet6_proto, 1);
	if (rc)
		return rc;
	rc = inet6_register_protosw(&smc_inet6_protosw);
	if (rc)
		proto_unregister(&smc_inet6_proto);
	return rc;
}

static void smc_inet6_exit(void)
{
	inet6_unregister_protosw(&smc_inet6_protosw);
	proto_unregister(&smc_inet6_proto);
}

static void smc_inet6_child_init(struct sock *sk)
{
	struct smc6_sock *smc6 = container_of(smc_sk(sk), struct smc6_sock,
					      smc);

	inet_sk(sk)->pinet6 = &smc6->inet6;
	sk->sk_destruct = inet6_sock_destruct;
}
#else
static int __init smc_inet6_init(void)
{
	return 0;
}

static void smc_inet6_exit(void)
{
}

static void smc_inet6_child_init(struct sock *sk)
{
}
#endif /* CONFIG_IPV6 */

/**
 * smc_inet_child_init() - set up a server child as inet_create() would
 * @sk: the new child, with the listener's family and proto, after
 *	sock_init_data(); nothing to do for AF_SMC
 */
void smc_inet_child_init(struct sock *sk)
{
	if (sk->sk_family == AF_SMC)
		return;
	smc_inet_lock_init(sk);
	if (sk->sk_family == AF_INET6)
		smc_inet6_child_init(sk);
	else
		sk->sk_destruct = inet_sock_destruct;
}

/**
 * smc_inet_init() - register IPPROTO_SMC for AF_INET and AF_INET6
 *
 * Called once AF_SMC is ours, and before the sockets are needed.
 *
 * Return: 0 or a negative errno.
 */
int __init smc_inet_init(void)
{
	int rc;

	rc = proto_register(&smc_inet_proto, 1);
	if (rc)
		return rc;
	rc = smc_inet6_init();
	if (rc) {
		proto_unregister(&smc_inet_proto);
		return rc;
	}
	inet_register_protosw(&smc_inet_protosw);
	return 0;
}

/**
 * smc_inet_exit() - unregister IPPROTO_SMC
 *
 * Called at unload, when no SMC socket is left; no new one can be created
 * on return (the unregistering waits for inet_create() lookups in flight).
 */
void smc_inet_exit(void)
{
	inet_unregister_protosw(&smc_inet_protosw);
	smc_inet6_exit();
	proto_unregister(&smc_inet_proto);
}

#else /* !SMCR_HAVE_IPPROTO_SMC */

int __init smc_inet_init(void)
{
	return 0;
}

void smc_inet_exit(void)
{
}

void smc_inet_child_init(struct sock *sk)
{
}

#endif /* SMCR_HAVE_IPPROTO_SMC */
