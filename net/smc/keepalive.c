// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: SO_KEEPALIVE on SMC-R connections (RFC 7609 4.5.3).
 *
 * An SMC-R connection's TCP connection stays idle, so TCP keepalive would
 * only probe a path the data does not take. With SO_KEEPALIVE set, smcr
 * instead turns TCP's keepalive off on the clcsock (no TCP traffic) and
 * looks at the connection's link every TCP_KEEPIDLE (TCP's value, set on
 * the clcsock as usual): if nothing arrived on the link for that long,
 * it asks the link for a TEST LINK now. A link that does not answer within
 * llc_timeout_ms goes down and takes its connections with it (ECONNRESET),
 * since there is no second link to fail over to. A busy link proves every
 * connection on it alive and needs no probe. (The link also probes itself
 * after keepalive_ms of silence, whatever the sockets ask.)
 *
 * The timer is a delayed work holding a socket reference while queued; it
 * looks at the connection under the socket lock and stops once the
 * connection ended, its link group is gone or SO_KEEPALIVE was cleared.
 */
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "core.h"
#include "smcr.h"

/* The connection's keepalive idle time, from its clcsock (TCP_KEEPIDLE) */
static unsigned long smc_keepalive_idle(struct smc_sock *smc)
{
	return keepalive_time_when(tcp_sk(smc->clcsock->sk));
}

/* Queue the check after @delay; takes a socket reference if not queued */
static void smc_keepalive_queue(struct smc_sock *smc, unsigned long delay)
{
	sock_hold(&smc->sk);
	if (!mod_delayed_work(smc_lgr_wq, &smc->conn.ka_work, delay))
		return;		/* newly queued: the reference is the work's */
	sock_put(&smc->sk);	/* was queued: it has one already */
}

/* TCP's keepalive off on the clcsock: the data does not take its path */
static void smc_keepalive_tcp_off(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;

	lock_sock(clcsk);
	if (sock_flag(clcsk, SOCK_KEEPOPEN)) {
		sock_reset_flag(clcsk, SOCK_KEEPOPEN);
		if (clcsk->sk_prot->keepalive)
			clcsk->sk_prot->keepalive(clcsk, 0);
	}
	release_sock(clcsk);
}

static void smc_keepalive_work(struct work_struct *work)
{
	struct smc_conn *conn = container_of(to_delayed_work(work),
					     struct smc_conn, ka_work);
	struct smc_sock *smc = container_of(conn, struct smc_sock, conn);
	struct sock *sk = &smc->sk;
	unsigned long idle, quiet;

	lock_sock(sk);
	if (conn->lgr && !READ_ONCE(conn->lgr_gone) && !conn->released &&
	    sock_flag(sk, SOCK_KEEPOPEN)) {
		/* again: on 6.1 smc_sockopt_sync() may race the start */
		smc_keepalive_tcp_off(smc);
		idle = smc_keepalive_idle(smc);
		quiet = jiffies - READ_ONCE(conn->lnk->last_rx);
		if (quiet >= idle) {
			smc_llc_test_link(conn->lnk);
			quiet = 0;
		}
		smc_keepalive_queue(smc, idle - quiet);
	}
	release_sock(sk);
	sock_put(sk);			/* the work's reference */
}

/**
 * smc_keepalive_init() - prepare a new SMC-R connection's keepalive
 * @conn: the connection, being created
 */
void smc_keepalive_init(struct smc_conn *conn)
{
	INIT_DELAYED_WORK(&conn->ka_work, smc_keepalive_work);
}

/**
 * smc_keepalive_set() - SO_KEEPALIVE on an SMC-R connection
 * @smc: a socket whose handshake chose SMC-R; socket lock held (or a
 *	child nobody sees yet)
 * @on: the new value of SO_KEEPALIVE
 *
 * Call when the connection starts and whenever SO_KEEPALIVE is set.
 */
void smc_keepalive_set(struct smc_sock *smc, bool on)
{
	smc_keepalive_tcp_off(smc);
	if (on)
		smc_keepalive_queue(smc, smc_keepalive_idle(smc));
	else if (cancel_delayed_work(&smc->conn.ka_work))
		sock_put(&smc->sk);	/* the work's reference */
}

/**
 * smc_keepalive_retime() - TCP_KEEPIDLE was set on the socket
 * @smc: the socket
 *
 * The next check of an SMC-R connection with SO_KEEPALIVE comes after the
 * new idle time.
 */
void smc_keepalive_retime(struct smc_sock *smc)
{
	lock_sock(&smc->sk);
	if (READ_ONCE(smc->hs) == SMC_HS_DONE && !smc->use_fallback &&
	    smc->conn.lgr && sock_flag(&smc->sk, SOCK_KEEPOPEN))
		smc_keepalive_queue(smc, smc_keepalive_idle(smc));
	release_sock(&smc->sk);
}

/**
 * smc_keepalive_stop() - the connection ends
 * @smc: the socket, socket lock held
 *
 * A running check sees the end under the socket lock and stops itself.
 */
void smc_keepalive_stop(struct smc_sock *smc)
{
	if (cancel_delayed_work(&smc->conn.ka_work))
		__sock_put(&smc->sk);	/* the caller holds a reference too */
}
