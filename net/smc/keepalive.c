// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: SO_KEEPALIVE on SMC-R connections (RFC 7609 4.5.3).
 *
 * Both layers probe (4.5.3). The SMC-R layer: with SO_KEEPALIVE set,
 * smcr looks at the connection's link every TCP_KEEPIDLE (the
 * application's value): if nothing arrived on the link for that long, it
 * asks the link for a TEST LINK now. A link that does not answer within
 * llc_timeout_ms goes down: its connections move to another active link
 * of the link group, what the lost link may have dropped resent
 * (failover.c); with no other link the link group ends and takes them
 * with it (ECONNRESET). A link that receives proves every connection on
 * it alive and needs no probe. (The link also probes itself
 * after keepalive_ms of silence, whatever the sockets ask.)
 *
 * The TCP layer: the connection's TCP connection stays idle, and stateful
 * middleboxes on its path (load balancers) may forget it, so TCP keepalive
 * runs on the clcsock as the application configured it - but never more
 * often than every tcp_keepidle_min_s, the lower limit 4.5.3 recommends
 * against keepalive traffic for many idle connections. The clcsock holds
 * the raised value; conn->ka_idle keeps the application's, which the
 * SMC-R check uses and getsockopt(TCP_KEEPIDLE) returns.
 *
 * The timer is a delayed work holding a socket reference while queued; it
 * looks at the connection under the socket lock and stops once the
 * connection ended, its link group is gone or SO_KEEPALIVE was cleared.
 */
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "core.h"
#include "keepalive.h"
#include "lgr.h"
#include "llc_engine.h"
#include "smcr.h"

/* The connection's keepalive idle time: the application's TCP_KEEPIDLE */
static unsigned long smc_keepalive_idle(struct smc_sock *smc)
{
	return (unsigned long)smc->conn.ka_idle * HZ;
}

/* An SMC-R connection, set up: keepalive is ours, not only TCP's */
static bool smc_keepalive_smcr(const struct smc_sock *smc)
{
	return READ_ONCE(smc->hs) == SMC_HS_DONE && !smc->use_fallback &&
	       smc->conn.lgr;
}

/* Queue the check after @delay; takes a socket reference if not queued */
static void smc_keepalive_queue(struct smc_sock *smc, unsigned long delay)
{
	sock_hold(&smc->sk);
	if (!mod_delayed_work(smc_lgr_wq, &smc->conn.ka_work, delay))
		return;		/* newly queued: the reference is the work's */
	sock_put(&smc->sk);	/* was queued: it has one already */
}

/*
 * Take the application's TCP_KEEPIDLE from the clcsock, where setsockopt
 * put it, and raise the clcsock's own to tcp_keepidle_min_s. The AF_SMC
 * socket's lock keeps setsockopt(TCP_KEEPIDLE) out meanwhile.
 */
static void smc_keepalive_take_idle(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;
	unsigned int min = READ_ONCE(smc_tcp_keepidle_min_s);
	unsigned int idle;

	lock_sock(clcsk);
	idle = keepalive_time_when(tcp_sk(clcsk)) / HZ;
	release_sock(clcsk);
	smc->conn.ka_idle = max(idle, 1U);	/* tcp_keepalive_time may be 0 */
	if (idle < min)
		tcp_sock_set_keepidle(clcsk, min);
}

/* TCP keepalive on the clcsock as SO_KEEPALIVE says (TCP resets its timer) */
static void smc_keepalive_tcp(struct smc_sock *smc, bool on)
{
	struct sock *clcsk = smc->clcsock->sk;

	lock_sock(clcsk);
	if (sock_flag(clcsk, SOCK_KEEPOPEN) != on) {
		sock_valbool_flag(clcsk, SOCK_KEEPOPEN, on);
		if (clcsk->sk_prot->keepalive)
			clcsk->sk_prot->keepalive(clcsk, on);
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
 * smc_keepalive_start() - an SMC-R connection was set up
 * @smc: the socket, its handshake just done; socket lock held (or a child
 *	nobody sees yet)
 *
 * Takes the application's TCP_KEEPIDLE and starts keepalive if
 * SO_KEEPALIVE is set.
 */
void smc_keepalive_start(struct smc_sock *smc)
{
	smc_keepalive_take_idle(smc);
	smc_keepalive_set(smc, sock_flag(&smc->sk, SOCK_KEEPOPEN));
}

/**
 * smc_keepalive_set() - SO_KEEPALIVE on an SMC-R connection
 * @smc: a socket whose handshake chose SMC-R; socket lock held (or a
 *	child nobody sees yet)
 * @on: the new value of SO_KEEPALIVE
 */
void smc_keepalive_set(struct smc_sock *smc, bool on)
{
	smc_keepalive_tcp(smc, on);
	if (on)
		smc_keepalive_queue(smc, smc_keepalive_idle(smc));
	else if (cancel_delayed_work(&smc->conn.ka_work))
		sock_put(&smc->sk);	/* the work's reference */
}

/**
 * smc_keepalive_retime() - TCP_KEEPIDLE was set on the socket
 * @smc: the socket, its lock held
 *
 * On an SMC-R connection the new value is the application's (the
 * clcsock's own stays at least tcp_keepidle_min_s), and with SO_KEEPALIVE
 * the next check comes after it.
 */
void smc_keepalive_retime(struct smc_sock *smc)
{
	if (smc_keepalive_smcr(smc)) {
		smc_keepalive_take_idle(smc);
		if (sock_flag(&smc->sk, SOCK_KEEPOPEN))
			smc_keepalive_queue(smc, smc_keepalive_idle(smc));
	}
}

/**
 * smc_keepalive_idle_get() - TCP_KEEPIDLE as the application set it
 * @smc: the socket
 * @val: the value in seconds, if the function returns true
 *
 * Return: true for an SMC-R connection (whose clcsock may hold a larger
 * value), false if the clcsock's value is the application's.
 */
bool smc_keepalive_idle_get(struct smc_sock *smc, int *val)
{
	bool smcr;

	lock_sock(&smc->sk);
	smcr = smc_keepalive_smcr(smc);
	if (smcr)
		*val = smc->conn.ka_idle;
	release_sock(&smc->sk);
	return smcr;
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
