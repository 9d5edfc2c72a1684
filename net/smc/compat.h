/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the few kernel API differences between the kernels smcr supports
 * (Debian 12: 6.1 and 6.12), kept here so the rest of the code has none.
 */
#ifndef _SMCR_COMPAT_H
#define _SMCR_COMPAT_H

#include <linux/in.h>
#include <linux/net.h>

int smc_accept_impl(struct socket *sock, struct socket *newsock, int flags);

/*
 * proto_ops.accept: since 6.10 the flags travel in struct proto_accept_arg.
 * Kbuild defines SMCR_HAVE_ACCEPT_ARG when the kernel headers have it.
 */
#ifdef SMCR_HAVE_ACCEPT_ARG
static inline int smcr_accept(struct socket *sock, struct socket *newsock,
			      struct proto_accept_arg *arg)
{
	return smc_accept_impl(sock, newsock, arg->flags);
}
#else
static inline int smcr_accept(struct socket *sock, struct socket *newsock,
			      int flags, bool kern)
{
	return smc_accept_impl(sock, newsock, flags);
}
#endif

/*
 * SOL_SOCKET setsockopt: since 6.5 a socket can ask for them with
 * SOCK_CUSTOM_SOCKOPT, and smcr forwards them to the clcsock as they are
 * set. Older kernels apply them to the AF_SMC socket only; there smcr
 * copies them to the clcsock before it is used (smc_clcsock_sockopt_sync()).
 */
#ifdef SOCK_CUSTOM_SOCKOPT
#define SMCR_SOCKOPT_SYNC	false
static inline void smcr_want_custom_sockopt(struct socket *sock)
{
	set_bit(SOCK_CUSTOM_SOCKOPT, &sock->flags);
}
#else
#define SMCR_SOCKOPT_SYNC	true
static inline void smcr_want_custom_sockopt(struct socket *sock)
{
}
#endif

/*
 * IPPROTO_SMC: since 6.11 the kernel takes socket(AF_INET or AF_INET6,
 * SOCK_STREAM, IPPROTO_SMC) for an SMC socket (IPPROTO_MAX grew past it).
 * Its uapi header names the protocol as a macro exactly from then on;
 * without it smcr registers AF_SMC only (inet.c), and such a socket()
 * fails with EPROTONOSUPPORT as for any unknown IP protocol.
 */
#ifdef IPPROTO_SMC
#define SMCR_HAVE_IPPROTO_SMC
#endif

/*
 * sysctl proc_handler: since 6.11 it takes a const struct ctl_table.
 * Kbuild defines SMCR_HAVE_CONST_CTL_TABLE when the kernel headers do.
 */
#ifdef SMCR_HAVE_CONST_CTL_TABLE
#define smcr_ctl_table	const struct ctl_table
#else
#define smcr_ctl_table	struct ctl_table
#endif

#endif /* _SMCR_COMPAT_H */
