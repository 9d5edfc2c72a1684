// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: CDC message encoding and validation (RFC 7609, Appendix A.4).
 *
 * Pure functions on caller buffers. What a received message must satisfy:
 *
 * - at least 44 bytes received; type 0xFE; length field 44 (Linux checks
 *   the same two fields and always sends 44 bytes).
 * - failover validation (F-bit): only type, length, sequence number and
 *   alert token are significant (A.4); nothing else is read or checked.
 * - otherwise both cursor counts lie in the data area of their RMBE:
 *   the producer cursor in the receiver's own RMBE, the consumer cursor in
 *   the sender's RMBE (the one the receiver writes into). A count at or
 *   above the RMBE size, or inside the eye catcher, is refused.
 *
 * Reserved fields and bits (the two bytes before each wrap number, the
 * three low bits of the producer flags, the five low bits of the
 * connection state flags, bytes 26-43) are zero when we send and ignored
 * on receipt, like the reserved CLC fields (A.2) and as Linux does, so a
 * later definition of them does not break smcr.
 *
 * Whether a cursor moves forward, and the sequence number order, depend on
 * connection state and are checked by the caller (smc_curs_cmp(),
 * smc_curs_diff(), smc_cdc_seq_after()). The one decision on a failover
 * validation message that needs no state but two numbers is here,
 * smc_cdc_msg_failover_gap() (4.6.1).
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <smcr/cdc_wire.h>

static void smc_cdc_cursor_put(struct smc_cdc_cursor_wire *w,
			       struct smc_cursor c)
{
	w->reserved = 0;
	w->wrap = cpu_to_be16(c.wrap);
	w->count = cpu_to_be32(c.count);
}

static struct smc_cursor smc_cdc_cursor_get(const struct smc_cdc_cursor_wire *w)
{
	struct smc_cursor c = {
		.wrap = be16_to_cpu(w->wrap),
		.count = be32_to_cpu(w->count),
	};

	return c;
}

/**
 * smc_cdc_msg_build() - encode a CDC message
 * @msg: buffer to fill, SMC_CDC_MSG_LEN bytes
 * @info: fields to send; reserved flag bits are not sent
 */
void smc_cdc_msg_build(struct smc_cdc_msg_wire *msg,
		       const struct smc_cdc_info *info)
{
	memset(msg, 0, sizeof(*msg));
	msg->type = SMC_CDC_MSG_TYPE;
	msg->len = SMC_CDC_MSG_LEN;
	msg->seqno = cpu_to_be16(info->seqno);
	msg->token = cpu_to_be32(info->token);
	smc_cdc_cursor_put(&msg->prod, info->prod);
	smc_cdc_cursor_put(&msg->cons, info->cons);
	msg->prod_flags = info->prod_flags & ~SMC_CDC_PROD_RESERVED;
	msg->conn_flags = info->conn_flags & ~SMC_CDC_CONN_RESERVED;
}

/**
 * smc_cdc_msg_parse() - decode and validate a received CDC message
 * @buf: the received bytes
 * @len: their number (a receive may be longer than 44 bytes)
 * @local_rmbe: the receiver's own RMBE, where the producer cursor points
 * @peer_rmbe: the sender's RMBE, where the consumer cursor points
 * @info: filled on success
 *
 * Return: 0 on success; -EPROTO if the message is short or its type or
 * length field is wrong; -ERANGE if a cursor lies outside its RMBE's data
 * area.
 */
int smc_cdc_msg_parse(const void *buf, size_t len,
		      const struct smc_ring *local_rmbe,
		      const struct smc_ring *peer_rmbe,
		      struct smc_cdc_info *info)
{
	const struct smc_cdc_msg_wire *msg = buf;
	struct smc_cursor prod, cons;

	if (len < SMC_CDC_MSG_LEN || msg->type != SMC_CDC_MSG_TYPE ||
	    msg->len != SMC_CDC_MSG_LEN)
		return -EPROTO;

	memset(info, 0, sizeof(*info));
	if (msg->prod_flags & SMC_CDC_PROD_FAILOVER) {
		info->seqno = be16_to_cpu(msg->seqno);
		info->token = be32_to_cpu(msg->token);
		info->prod_flags = SMC_CDC_PROD_FAILOVER;
		return 0;
	}

	prod = smc_cdc_cursor_get(&msg->prod);
	cons = smc_cdc_cursor_get(&msg->cons);
	if (!smc_curs_valid(local_rmbe, prod) ||
	    !smc_curs_valid(peer_rmbe, cons))
		return -ERANGE;

	info->seqno = be16_to_cpu(msg->seqno);
	info->token = be32_to_cpu(msg->token);
	info->prod = prod;
	info->cons = cons;
	info->prod_flags = msg->prod_flags & ~SMC_CDC_PROD_RESERVED;
	info->conn_flags = msg->conn_flags & ~SMC_CDC_CONN_RESERVED;
	return 0;
}

/**
 * smc_cdc_msg_failover_gap() - a failover validation message shows a gap
 * @ss: its sequence number: the last CDC message the sender believes its
 *	RNIC delivered (RFC 7609 4.6.1, "SS")
 * @sr: the sequence number of the last CDC message the receiver took
 *	("SR")
 * @sr_valid: the receiver took one at all
 *
 * 4.6.1: if SS is after SR, the receiver missed a message the sender counts
 * as delivered, and the connection is reset. SS equal to SR, or before it,
 * is no gap: Linux's SMC-R sends the number before its last completed
 * message's (one behind the RFC's SS), and the sender may not have seen
 * the completion of a message that did arrive. Before any message arrived
 * SR counts as 0, the number before the first one (smcr and Linux both
 * number a connection's first CDC message 1): SS 0 claims nothing.
 *
 * The comparison wraps (smc_cdc_seq_after()): 0 follows 0xffff.
 *
 * Return: true if @ss is after @sr.
 */
bool smc_cdc_msg_failover_gap(u16 ss, u16 sr, bool sr_valid)
{
	return smc_cdc_seq_after(ss, sr_valid ? sr : 0);
}
