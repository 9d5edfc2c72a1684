// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the receive side of urgent data (RFC 7609 4.7.5, 4.7.6).
 *
 * TCP's rules, as the reader sees them:
 * - A normal read stops just before the urgent byte, and does not go on
 *   past the mark once it returned data: the application can find the
 *   mark with SIOCATMARK.
 * - Without SO_OOBINLINE the byte is not part of the stream: when the
 *   consumer cursor reaches it, it is skipped at once (the peer sees the
 *   cursor past it, 4.7.5 step 3); "at the mark" then means the cursor
 *   equals the mark. recv(MSG_OOB) returns the byte until the reader goes
 *   past the mark.
 * - With SO_OOBINLINE the byte is read as data; "at the mark" means the
 *   cursor is on the urgent byte.
 */
#include <linux/minmax.h>
#include <smcr/cdc_wire.h>
#include <smcr/urg.h>

static bool smc_urg_has_mark(const struct smc_urg_rx *u)
{
	return u->state == SMC_URG_VALID || u->state == SMC_URG_READ;
}

/**
 * smc_urg_rx_flags() - the urgent flags of an accepted CDC message
 * @u: the connection's state
 * @r: the local RMBE
 * @cons: the consumer cursor
 * @prod: the message's producer cursor (not behind @cons)
 * @prod_flags: its SMC_CDC_PROD_* flags
 *
 * "Present" sets the mark at @prod, unless it is the mark already known;
 * if the reader consumed the byte before @prod already (a send(MSG_OOB)
 * that returned early marks its last byte late), there is nothing to
 * mark, but the sender waits for our cursor: @u->ack. "Pending" alone
 * announces urgent data to come; neither withdraws an announcement.
 *
 * Return: SMC_URG_EV_* bits: signal the application (once per urgent
 * byte, not for one consumed already), read the byte before the new mark
 * into @u->byte.
 */
int smc_urg_rx_flags(struct smc_urg_rx *u, const struct smc_ring *r,
		     struct smc_cursor cons, struct smc_cursor prod,
		     u8 prod_flags)
{
	int ev;

	if (prod_flags & SMC_CDC_PROD_URG_PRESENT) {
		ev = u->notyet ? 0 : SMC_URG_EV_SIGNAL;
		u->notyet = false;
		if (smc_curs_diff(r, cons, prod) < 1) {
			u->ack = true;
			return 0;
		}
		if (smc_urg_has_mark(u) && smc_curs_equal(u->mark, prod))
			return 0;
		u->state = SMC_URG_VALID;
		u->mark = prod;
		u->reached = false;
		return ev | SMC_URG_EV_NEW_MARK;
	}
	if (prod_flags & SMC_CDC_PROD_URG_PENDING) {
		if (u->notyet)
			return 0;
		u->notyet = true;
		return SMC_URG_EV_SIGNAL;
	}
	u->notyet = false;
	return 0;
}

/**
 * smc_urg_byte_offset() - RMBE offset of the urgent byte
 * @r: the local RMBE
 * @mark: a valid cursor just past the urgent byte
 *
 * Return: the offset of the byte before @mark.
 */
u32 smc_urg_byte_offset(const struct smc_ring *r, struct smc_cursor mark)
{
	return mark.count == r->start ? r->size - 1 : mark.count - 1;
}

/**
 * smc_urg_rx_advance() - after the consumer cursor moved or a mark came
 * @u: the connection's state
 * @r: the local RMBE
 * @cons: the consumer cursor; moved past the urgent byte when it reached
 *	it without SO_OOBINLINE
 * @oobinline: SO_OOBINLINE is set
 *
 * Sets @u->ack when the cursor reaches the mark, and forgets the mark once
 * the cursor went past it (with SO_OOBINLINE: past the urgent byte).
 */
void smc_urg_rx_advance(struct smc_urg_rx *u, const struct smc_ring *r,
			struct smc_cursor *cons, bool oobinline)
{
	int d;

	if (!smc_urg_has_mark(u))
		return;
	d = smc_curs_diff(r, *cons, u->mark);
	if (d == 1 && !oobinline) {
		*cons = u->mark;
		d = 0;
	}
	if (d <= 0 && !u->reached) {
		u->reached = true;
		u->ack = true;
	}
	if (d < 0 || (d == 0 && oobinline))
		u->state = SMC_URG_NONE;
}

/**
 * smc_urg_rx_take() - bytes a normal read may take at the consumer cursor
 * @u: the connection's state, after smc_urg_rx_advance()
 * @r: the local RMBE
 * @cons: the consumer cursor
 * @avail: bytes readable at @cons
 * @oobinline: SO_OOBINLINE is set
 * @copied: this read returned data already
 *
 * Return: up to @avail bytes; 0 means the read stops at the mark.
 */
u32 smc_urg_rx_take(const struct smc_urg_rx *u, const struct smc_ring *r,
		    struct smc_cursor cons, u32 avail, bool oobinline,
		    bool copied)
{
	int d;

	if (!smc_urg_has_mark(u))
		return avail;
	d = smc_curs_diff(r, cons, u->mark);
	if (d < 0)
		return avail;
	if (d == 0 || d == 1) {
		/* at the mark; the byte itself is data only with OOBINLINE */
		if (copied || (d == 1 && !oobinline))
			return 0;
		return avail;
	}
	return min_t(u32, avail, d - 1);
}

/**
 * smc_urg_rx_atmark() - SIOCATMARK
 * @u: the connection's state, after smc_urg_rx_advance()
 * @r: the local RMBE
 * @cons: the consumer cursor
 * @oobinline: SO_OOBINLINE is set
 *
 * Return: true if all data before the urgent byte has been read.
 */
bool smc_urg_rx_atmark(const struct smc_urg_rx *u, const struct smc_ring *r,
		       struct smc_cursor cons, bool oobinline)
{
	return smc_urg_has_mark(u) &&
	       smc_curs_diff(r, cons, u->mark) == (oobinline ? 1 : 0);
}
