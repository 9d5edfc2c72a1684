// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: cursor arithmetic on an RMBE (RFC 7609, 4.3, 4.4, 4.5.1, 4.7).
 *
 * A cursor names a byte of the endless stream written into a ring: the
 * stream position is wrap * capacity + (count - start), modulo
 * 2^16 * capacity because wrap has 16 bits. The writer may be at most one
 * full ring ahead of the reader (4.7.4: a full window write leaves the
 * producer count equal to the consumer count with a wrap one higher), so
 * the distance from the consumer to the producer is 0..capacity. Every
 * function here takes constant time: no loops, at most one division.
 *
 * Callers pass valid cursors (smc_curs_valid()); cursors from the peer are
 * checked when the CDC message is parsed.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <smcr/cursor.h>

/**
 * smc_ring_init() - describe an RMBE
 * @r: filled in on success
 * @size: RMBE size in bytes
 * @eyecatcher: the RMBE starts with the RFC's 4-byte eye catcher and
 *	cursors begin at 4; false for Linux peers, which use none
 *
 * Return: 0, or -EINVAL if @size leaves no data byte or exceeds
 * SMC_RING_MAX_SIZE.
 */
int smc_ring_init(struct smc_ring *r, u32 size, bool eyecatcher)
{
	u32 start = eyecatcher ? SMC_RMBE_EYECATCHER_LEN : 0;

	if (size <= start || size > SMC_RING_MAX_SIZE)
		return -EINVAL;
	r->size = size;
	r->start = start;
	return 0;
}

/**
 * smc_curs_first() - the cursor of a new connection
 * @r: the ring
 *
 * Return: wrap 0 at the first data byte.
 */
struct smc_cursor smc_curs_first(const struct smc_ring *r)
{
	struct smc_cursor c = { .wrap = 0, .count = r->start };

	return c;
}

/**
 * smc_curs_valid() - whether a cursor points into the data area
 * @r: the ring
 * @c: the cursor
 *
 * Return: true if start <= count < size; any wrap value is valid.
 */
bool smc_curs_valid(const struct smc_ring *r, struct smc_cursor c)
{
	return c.count >= r->start && c.count < r->size;
}

/**
 * smc_curs_equal() - whether two cursors are the same position
 * @a: a cursor
 * @b: another cursor of the same ring
 *
 * Return: true if wrap and count are equal.
 */
bool smc_curs_equal(struct smc_cursor a, struct smc_cursor b)
{
	return a.wrap == b.wrap && a.count == b.count;
}

/* Offset of a cursor from the ring start */
static u32 smc_curs_pos(const struct smc_ring *r, struct smc_cursor c)
{
	return c.count - r->start;
}

/**
 * smc_curs_add() - advance a cursor
 * @r: the ring
 * @c: a valid cursor
 * @n: bytes to advance; usually at most the capacity, but any value works
 *
 * Return: @c moved @n bytes on, the wrap number incremented once per wrap
 * (modulo 2^16).
 */
struct smc_cursor smc_curs_add(const struct smc_ring *r, struct smc_cursor c,
			       u32 n)
{
	u64 pos = (u64)smc_curs_pos(r, c) + n;
	struct smc_cursor res;
	u32 rem;
	u64 q;

	q = div_u64_rem(pos, smc_ring_capacity(r), &rem);
	res.wrap = (u16)(c.wrap + (u16)q);
	res.count = r->start + rem;
	return res;
}

/**
 * smc_curs_sub() - move a cursor back
 * @r: the ring
 * @c: a valid cursor
 * @n: bytes to go back; any value works
 *
 * The inverse of smc_curs_add(): smc_curs_sub(r, smc_curs_add(r, c, n), n)
 * is @c. Used to rewind our producer cursor after a failover (tx.c).
 *
 * Return: @c moved @n bytes back, the wrap number decremented once per
 * wrap (modulo 2^16).
 */
struct smc_cursor smc_curs_sub(const struct smc_ring *r, struct smc_cursor c,
			       u32 n)
{
	u32 cap = smc_ring_capacity(r), pos = smc_curs_pos(r, c), rem;
	struct smc_cursor res;
	u32 q;

	q = n / cap;
	rem = n % cap;
	if (rem > pos) {
		pos += cap - rem;
		q++;
	} else {
		pos -= rem;
	}
	res.wrap = (u16)(c.wrap - (u16)q);
	res.count = r->start + pos;
	return res;
}

/**
 * smc_curs_diff() - bytes from one cursor to a later one
 * @r: the ring
 * @from: a valid cursor, e.g. the consumer cursor
 * @to: a valid cursor at most one full ring ahead of @from, e.g. the
 *	producer cursor
 *
 * Equal counts with a wrap one higher mean a full ring (4.7.4).
 *
 * Return: 0..capacity, or -ERANGE if @to is behind @from or more than one
 * ring ahead (a broken peer, or cursors of different rings).
 */
int smc_curs_diff(const struct smc_ring *r, struct smc_cursor from,
		  struct smc_cursor to)
{
	u32 pf = smc_curs_pos(r, from), pt = smc_curs_pos(r, to);
	u16 dw = to.wrap - from.wrap;

	if (dw == 0 && pt >= pf)
		return pt - pf;
	if (dw == 1 && pt <= pf)
		return smc_ring_capacity(r) - (pf - pt);
	return -ERANGE;
}

/**
 * smc_curs_cmp() - order two cursors of one ring
 * @r: the ring
 * @a: a valid cursor
 * @b: a valid cursor
 *
 * Serial number arithmetic (as in RFC 1982) on the stream position, which
 * is 2^16 * capacity long: @b is after @a if it is less than half of that
 * ahead. At exactly half the answer is "after" in both directions. Use it
 * to drop a cursor older than the one already known.
 *
 * Return: 0 if equal, a negative value if @a is before @b, a positive one
 * if @a is after @b.
 */
int smc_curs_cmp(const struct smc_ring *r, struct smc_cursor a,
		 struct smc_cursor b)
{
	u64 cap = smc_ring_capacity(r);
	u64 half = cap << 15;
	u16 dw = b.wrap - a.wrap;
	u64 d;

	/* distance from a to b modulo 2^16 * cap */
	d = dw * cap + smc_curs_pos(r, b);
	if (d < smc_curs_pos(r, a))
		d += half << 1;
	d -= smc_curs_pos(r, a);
	if (!d)
		return 0;
	return d < half ? -1 : 1;
}

/**
 * smc_curs_readable() - bytes the RMBE owner may read
 * @r: the owner's RMBE
 * @prod: producer cursor, as last received from the writer
 * @cons: the owner's consumer cursor
 *
 * Return: 0..capacity, or -ERANGE if @prod is behind @cons or more than
 * one ring ahead.
 */
int smc_curs_readable(const struct smc_ring *r, struct smc_cursor prod,
		      struct smc_cursor cons)
{
	return smc_curs_diff(r, cons, prod);
}

/**
 * smc_curs_free() - bytes the writer may write into the peer's RMBE
 * @r: the peer's RMBE
 * @prod: the writer's producer cursor
 * @cons: consumer cursor, as last received from the RMBE owner
 *
 * Return: 0..capacity (0: writer blocked), or -ERANGE if the cursors are
 * inconsistent.
 */
int smc_curs_free(const struct smc_ring *r, struct smc_cursor prod,
		  struct smc_cursor cons)
{
	int used = smc_curs_diff(r, cons, prod);

	if (used < 0)
		return used;
	return smc_ring_capacity(r) - used;
}

/**
 * smc_curs_split() - the RMBE ranges of a transfer
 * @r: the ring
 * @c: a valid cursor where the transfer begins
 * @n: bytes to transfer, at most the capacity
 * @span: filled with the first range, at @c, up to the end of the RMBE,
 *	and the rest from the ring start; unused lengths are 0
 *
 * Return: the number of ranges, 0 (for @n == 0) to 2, or -ERANGE if @n
 * exceeds the capacity.
 */
int smc_curs_split(const struct smc_ring *r, struct smc_cursor c, u32 n,
		   struct smc_span *span)
{
	u32 first = min(n, r->size - c.count);

	span->off[0] = c.count;
	span->len[0] = first;
	span->off[1] = r->start;
	span->len[1] = n - first;
	if (n > smc_ring_capacity(r)) {
		span->len[0] = 0;
		span->len[1] = 0;
		return -ERANGE;
	}
	return !!span->len[0] + !!span->len[1];
}

/**
 * smc_curs_cons_update_needed() - whether to send a window update (4.5.1)
 * @r: the owner's RMBE
 * @prod: producer cursor, as last received from the writer
 * @cons_sent: consumer cursor last sent to the writer
 * @cons_now: the owner's current consumer cursor
 *
 * RFC 7609, 4.5.1: update when the window the writer sees is less than
 * half the RMBE and the update opens it by at least 10% of the RMBE. The
 * other triggers (a CDC sent anyway, the peer's B- or R-bit, urgent data)
 * are the caller's.
 *
 * Return: true if a CDC message with @cons_now should be sent; false also
 * when the cursors are inconsistent.
 */
bool smc_curs_cons_update_needed(const struct smc_ring *r,
				 struct smc_cursor prod,
				 struct smc_cursor cons_sent,
				 struct smc_cursor cons_now)
{
	u64 cap = smc_ring_capacity(r);
	int window = smc_curs_free(r, prod, cons_sent);
	int gain = smc_curs_diff(r, cons_sent, cons_now);

	if (window < 0 || gain < 0)
		return false;
	return (u64)window * 2 < cap && (u64)gain * 10 >= cap;
}

/**
 * smc_curs_replay_from() - where the replay of a failover starts (RFC 7609
 *	4.6.2)
 * @r: the peer's RMBE
 * @acked: the producer cursor of our last CDC message that completed
 *	successfully: the peer has every byte before it
 * @peer_cons: the peer's consumer cursor, as its last CDC message told
 *	it: the peer has consumed every byte before it, so it had them
 * @prod: our producer cursor, at or after both
 *
 * The peer may lack any byte from the later of @acked and @peer_cons on
 * (its consumer cursor can be ahead of our last completion when the
 * completion of a delivered message was lost with the link). Bytes before
 * that must not be written again: the peer may have given their place
 * in its RMBE to new bytes of ours already.
 *
 * @acked can be more than a ring behind @prod: the peer consumed bytes
 * whose completions were still outstanding, and we wrote more.
 *
 * Return: the later of @acked and @peer_cons; @peer_cons if @acked is
 * after @prod; @prod if @peer_cons is after @prod or more than a ring
 * behind it (cursors the receive path never accepts: replay nothing
 * rather than something wrong).
 */
struct smc_cursor smc_curs_replay_from(const struct smc_ring *r,
				       struct smc_cursor acked,
				       struct smc_cursor peer_cons,
				       struct smc_cursor prod)
{
	if (smc_curs_diff(r, peer_cons, prod) < 0)
		return prod;
	if (smc_curs_diff(r, acked, prod) < 0 ||
	    smc_curs_cmp(r, acked, peer_cons) < 0)
		return peer_cons;
	return acked;
}
