/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the receive side of urgent data (RFC 7609 4.7.5, 4.7.6), with the
 * socket semantics of TCP.
 *
 * The sender's CDC messages carry "urgent data pending" while its urgent
 * byte is not yet written, and "urgent data present" with the producer
 * cursor just past that byte once it is. The receiver remembers the mark
 * (that cursor) and the byte. As on TCP, the urgent byte is the last byte
 * of a send(MSG_OOB), a later mark replaces an earlier one, and normal
 * reads stop at the mark. Without SO_OOBINLINE the byte leaves the stream
 * (recv(MSG_OOB) returns it); with it, it stays in the stream.
 *
 * Pure functions without loops, shared by smcr.ko and its KUnit tests.
 */
#ifndef _SMCR_URG_H
#define _SMCR_URG_H

#include <linux/types.h>
#include <smcr/cursor.h>

/**
 * enum smc_urg_state - what the receiver knows of the urgent mark
 * @SMC_URG_NONE: no mark (or the reader went past it)
 * @SMC_URG_VALID: the mark and byte are known, recv(MSG_OOB) returns it
 * @SMC_URG_READ: as VALID, but recv(MSG_OOB) returned the byte already
 */
enum smc_urg_state {
	SMC_URG_NONE,
	SMC_URG_VALID,
	SMC_URG_READ,
};

/**
 * struct smc_urg_rx - urgent data state of a receiving connection
 * @state: enum smc_urg_state
 * @byte: the urgent byte (VALID and READ)
 * @notyet: the peer announced urgent data it has not written yet (4.7.6);
 *	recv(MSG_OOB) says EAGAIN. A withdrawn announcement (the send wrote
 *	nothing) leaves an earlier mark as it was.
 * @reached: the consumer cursor reached the mark
 * @ack: set when @reached becomes true: the peer is to learn the consumer
 *	cursor at once, whatever the window (4.7.5 step 3); the sender of
 *	that update clears it
 * @mark: cursor just past the urgent byte (VALID and READ)
 */
struct smc_urg_rx {
	u8			state;
	u8			byte;
	bool			notyet;
	bool			reached;
	bool			ack;
	struct smc_cursor	mark;
};

/* smc_urg_rx_flags() results */
#define SMC_URG_EV_SIGNAL	0x1	/* send SIGURG */
#define SMC_URG_EV_NEW_MARK	0x2	/* read the byte before the mark */

int smc_urg_rx_flags(struct smc_urg_rx *u, const struct smc_ring *r,
		     struct smc_cursor cons, struct smc_cursor prod,
		     u8 prod_flags);
u32 smc_urg_byte_offset(const struct smc_ring *r, struct smc_cursor mark);
void smc_urg_rx_advance(struct smc_urg_rx *u, const struct smc_ring *r,
			struct smc_cursor *cons, bool oobinline);
u32 smc_urg_rx_take(const struct smc_urg_rx *u, const struct smc_ring *r,
		    struct smc_cursor cons, u32 avail, bool oobinline,
		    bool copied);
bool smc_urg_rx_atmark(const struct smc_urg_rx *u, const struct smc_ring *r,
		       struct smc_cursor cons, bool oobinline);

#endif /* _SMCR_URG_H */
