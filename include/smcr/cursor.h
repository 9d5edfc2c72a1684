/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: cursors into an RMBE (RFC 7609, 4.3, 4.4 and 4.7).
 *
 * An RMBE is a ring the peer writes by RDMA and its owner reads. A cursor
 * is an offset into it (count) plus the number of times the writer has
 * wrapped (wrap, 16 bits, wrapping). Producer and consumer cursors both
 * start at (0, start) and use the same arithmetic: the consumer's wrap
 * mirrors the producer's.
 *
 * With the RFC's 4-byte eye catcher (4.2) the data area is
 * [4, size) and cursors begin and wrap at 4. Linux's SMC uses no eye
 * catcher: the data area is [0, size).
 *
 * Pure functions without loops, shared by smcr.ko and its KUnit tests.
 */
#ifndef _SMCR_CURSOR_H
#define _SMCR_CURSOR_H

#include <linux/types.h>

#define SMC_RMBE_EYECATCHER_LEN	4
/* smcr's eye catcher (its content is the owner's choice): "SMCR" in EBCDIC */
#define SMC_RMBE_EYECATCHER	{ 0xE2, 0xD4, 0xC3, 0xD9 }
#define SMC_RING_MAX_SIZE	0x40000000U	/* 1 GiB, above code 15's 512 MiB */

/**
 * struct smc_cursor - a position in an RMBE, in host order
 * @wrap: wrap sequence number, incremented each time @count wraps
 * @count: offset of the next byte, in [start, size) of the ring
 */
struct smc_cursor {
	u16	wrap;
	u32	count;
};

/**
 * struct smc_ring - the geometry of one RMBE
 * @size: RMBE size in bytes; cursors wrap here
 * @start: first data offset, where cursors begin and wrap to: 0, or
 *	SMC_RMBE_EYECATCHER_LEN when the RMBE starts with an eye catcher
 *
 * The data capacity is @size - @start bytes.
 */
struct smc_ring {
	u32	size;
	u32	start;
};

/**
 * struct smc_span - up to two contiguous RMBE ranges of one transfer
 * @off: offsets into the RMBE; @off[1] is the ring start
 * @len: byte counts; @len[1] is 0 unless the transfer wraps
 */
struct smc_span {
	u32	off[2];
	u32	len[2];
};

static inline u32 smc_ring_capacity(const struct smc_ring *r)
{
	return r->size - r->start;
}

int smc_ring_init(struct smc_ring *r, u32 size, bool eyecatcher);
struct smc_cursor smc_curs_first(const struct smc_ring *r);
bool smc_curs_valid(const struct smc_ring *r, struct smc_cursor c);
bool smc_curs_equal(struct smc_cursor a, struct smc_cursor b);
struct smc_cursor smc_curs_add(const struct smc_ring *r, struct smc_cursor c,
			       u32 n);
struct smc_cursor smc_curs_sub(const struct smc_ring *r, struct smc_cursor c,
			       u32 n);
int smc_curs_diff(const struct smc_ring *r, struct smc_cursor from,
		  struct smc_cursor to);
int smc_curs_cmp(const struct smc_ring *r, struct smc_cursor a,
		 struct smc_cursor b);
int smc_curs_readable(const struct smc_ring *r, struct smc_cursor prod,
		      struct smc_cursor cons);
int smc_curs_free(const struct smc_ring *r, struct smc_cursor prod,
		  struct smc_cursor cons);
int smc_curs_split(const struct smc_ring *r, struct smc_cursor c, u32 n,
		   struct smc_span *span);
bool smc_curs_cons_update_needed(const struct smc_ring *r,
				 struct smc_cursor prod,
				 struct smc_cursor cons_sent,
				 struct smc_cursor cons_now);
struct smc_cursor smc_curs_replay_from(const struct smc_ring *r,
				       struct smc_cursor acked,
				       struct smc_cursor peer_cons,
				       struct smc_cursor prod);

#endif /* _SMCR_CURSOR_H */
