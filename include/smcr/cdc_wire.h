/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: CDC message wire format (RFC 7609, Appendix A.4).
 *
 * A CDC message is a 44-byte RoCE SendMsg that carries the cursors and
 * flags of one connection. All multi-byte fields are big endian. Linux's
 * SMC-R sends exactly this layout, bit for bit. Shared by smcr.ko and its
 * KUnit tests.
 */
#ifndef _SMCR_CDC_WIRE_H
#define _SMCR_CDC_WIRE_H

#include <linux/build_bug.h>
#include <linux/types.h>
#include <smcr/cursor.h>

#define SMC_CDC_MSG_TYPE	0xFE	/* two high bits set: not an LLC msg */
#define SMC_CDC_MSG_LEN		44

/* Byte 24, producer flags */
#define SMC_CDC_PROD_WRITE_BLOCKED	0x80	/* B: writer blocked */
#define SMC_CDC_PROD_URG_PENDING	0x40	/* P: urgent data pending */
#define SMC_CDC_PROD_URG_PRESENT	0x20	/* U: urgent data present */
#define SMC_CDC_PROD_CONS_UPD_REQ	0x10	/* R: consumer update wanted */
#define SMC_CDC_PROD_FAILOVER		0x08	/* F: failover validation */
#define SMC_CDC_PROD_RESERVED		0x07

/* Byte 25, connection state flags */
#define SMC_CDC_CONN_DONE_WRITING	0x80	/* D: sending done */
#define SMC_CDC_CONN_CLOSED		0x40	/* C: PeerConnectionClosed */
#define SMC_CDC_CONN_ABORT		0x20	/* A: abnormal close */
#define SMC_CDC_CONN_RESERVED		0x1f

/* A.4: a cursor, 2 reserved bytes, wrap sequence number, count */
struct smc_cdc_cursor_wire {
	__be16	reserved;
	__be16	wrap;
	__be32	count;
} __packed;
static_assert(sizeof(struct smc_cdc_cursor_wire) == 8);

/* A.4, Figure 41 */
struct smc_cdc_msg_wire {
	u8				type;		/* SMC_CDC_MSG_TYPE */
	u8				len;		/* SMC_CDC_MSG_LEN */
	__be16				seqno;
	__be32				token;		/* receiver's alert token */
	struct smc_cdc_cursor_wire	prod;		/* receiver's RMBE */
	struct smc_cdc_cursor_wire	cons;		/* sender's RMBE */
	u8				prod_flags;	/* SMC_CDC_PROD_* */
	u8				conn_flags;	/* SMC_CDC_CONN_* */
	u8				reserved[18];
} __packed;
static_assert(sizeof(struct smc_cdc_msg_wire) == SMC_CDC_MSG_LEN);

/**
 * struct smc_cdc_info - decoded content of a CDC message
 * @seqno: sequence number; of a failover validation message, the sequence
 *	number of the last CDC message whose RDMA write completed
 * @token: alert token of the receiver's connection
 * @prod: producer cursor, in the receiver's RMBE
 * @cons: consumer cursor, in the sender's RMBE
 * @prod_flags: SMC_CDC_PROD_* bits, reserved bits clear
 * @conn_flags: SMC_CDC_CONN_* bits, reserved bits clear
 *
 * When @prod_flags has SMC_CDC_PROD_FAILOVER, only @seqno and @token are
 * significant; smc_cdc_msg_parse() then leaves the cursors and @conn_flags 0.
 */
struct smc_cdc_info {
	u16			seqno;
	u32			token;
	struct smc_cursor	prod;
	struct smc_cursor	cons;
	u8			prod_flags;
	u8			conn_flags;
};

void smc_cdc_msg_build(struct smc_cdc_msg_wire *msg,
		       const struct smc_cdc_info *info);
int smc_cdc_msg_parse(const void *buf, size_t len,
		      const struct smc_ring *local_rmbe,
		      const struct smc_ring *peer_rmbe,
		      struct smc_cdc_info *info);
bool smc_cdc_msg_failover_gap(u16 ss, u16 sr, bool sr_valid);

/**
 * smc_cdc_seq_after() - whether sequence number @a is newer than @b
 * @a: a sequence number
 * @b: another one
 *
 * Serial number arithmetic on 16 bits, as Linux compares them. The RFC
 * (A.4) discards a message whose number is less than the last one
 * received; with wrapping numbers "less" means "not after and not equal".
 *
 * Return: true if @a follows @b by 1..32767.
 */
static inline bool smc_cdc_seq_after(u16 a, u16 b)
{
	return ((a - b) & 0xffff) - 1U < 0x7fffU;
}

#endif /* _SMCR_CDC_WIRE_H */
