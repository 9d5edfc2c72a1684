/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: LLC message wire formats (RFC 7609, Appendix A.3).
 *
 * Every LLC message is exactly 44 bytes, sent with an RDMA SEND on the
 * link's QP. Byte 0 is the type, byte 1 the length (44); byte 2 is
 * reserved except in ADD LINK (low nibble: reject reason); byte 3 holds
 * the flags: bit 0x80 is R, the reply flag, in every type, the other bits
 * are per type. Multi-byte fields are big endian; 24-bit fields (QP
 * number, PSN) are u8[3], read with smc_clc_get24()/smc_clc_put24().
 *
 * Where in-tree Linux SMC (net/smc/smc_llc.c) departs from the figures of
 * A.3, the layout here follows Linux, which is what smcr must
 * interoperate with; each departure is noted at its struct.
 */
#ifndef _SMCR_LLC_WIRE_H
#define _SMCR_LLC_WIRE_H

#include <linux/build_bug.h>
#include <linux/types.h>
#include <smcr/clc_wire.h>

#define SMC_LLC_MSG_LEN		44

/*
 * Byte 0. The two high-order bits classify an opcode (A.3): b'00' must be
 * supported, b'10' is optional (a receiver that does not know it discards
 * it silently), b'11' is a CDC message, not LLC. Linux reads the high
 * nibble as an LLC version: its SMC-R v2 messages are the v1 type | 0x20.
 */
#define SMC_LLC_TYPE_CLASS_MASK		0xc0
#define SMC_LLC_TYPE_CLASS_MANDATORY	0x00
#define SMC_LLC_TYPE_CLASS_OPTIONAL	0x80
#define SMC_LLC_TYPE_CLASS_CDC		0xc0
#define SMC_LLC_TYPE_V2			0x20	/* Linux: SMC-R v2 variant */

enum smc_llc_type {
	SMC_LLC_CONFIRM_LINK		= 0x01,
	SMC_LLC_ADD_LINK		= 0x02,
	SMC_LLC_ADD_LINK_CONT		= 0x03,
	SMC_LLC_DELETE_LINK		= 0x04,
	SMC_LLC_REQ_ADD_LINK		= 0x05,	/* Linux, SMC-R v2 only */
	SMC_LLC_CONFIRM_RKEY		= 0x06,
	SMC_LLC_TEST_LINK		= 0x07,
	SMC_LLC_CONFIRM_RKEY_CONT	= 0x08,
	SMC_LLC_DELETE_RKEY		= 0x09,
	/* Linux's SMC-R v2 types (variable length, not in the RFC) */
	SMC_LLC_CONFIRM_LINK_V2		= 0x21,
	SMC_LLC_ADD_LINK_V2		= 0x22,
	SMC_LLC_DELETE_LINK_V2		= 0x24,
	SMC_LLC_REQ_ADD_LINK_V2		= 0x25,
	SMC_LLC_CONFIRM_RKEY_V2		= 0x26,
	SMC_LLC_TEST_LINK_V2		= 0x27,
	SMC_LLC_DELETE_RKEY_V2		= 0x29,
};

/* Byte 3, all types: R, this is a reply */
#define SMC_LLC_FLAG_RESP		0x80
/*
 * CONFIRM LINK, Linux: "no RMBE eye catcher", two bits the RFC reserves.
 * Linux sets both in every CONFIRM LINK it sends and refuses a link whose
 * CONFIRM LINK has neither (it declines with SMC_CLC_DECL_RMBE_EC).
 */
#define SMC_LLC_FLAG_NO_RMBE_EYEC	0x03
/* ADD LINK: Z, the reply rejects the ADD LINK; byte 2 holds the reason */
#define SMC_LLC_FLAG_ADD_LINK_REJ	0x40
/* DELETE LINK: A (all links: the link group) and O (orderly) */
#define SMC_LLC_FLAG_DEL_LINK_ALL	0x40
#define SMC_LLC_FLAG_DEL_LINK_ORDERLY	0x20
/* CONFIRM RKEY (+ CONTINUATION), DELETE RKEY: Z, negative reply */
#define SMC_LLC_FLAG_RKEY_NEG		0x20
/* CONFIRM RKEY: C, retry when the configuration change is complete */
#define SMC_LLC_FLAG_RKEY_RETRY		0x10

/* Byte 2 of ADD LINK: reserved high nibble, reject reason low nibble */
#define SMC_LLC_ADD_LINK_RSN_MASK	0x0f
enum smc_llc_add_link_rsn {
	SMC_LLC_REJ_RSN_NO_ALT_PATH	= 1,	/* no alternate path */
	SMC_LLC_REJ_RSN_INVALID_MTU	= 2,	/* invalid MTU value */
};

/* A.3.4 DELETE LINK reason codes */
#define SMC_LLC_DEL_LOST_PATH		0x00010000
#define SMC_LLC_DEL_OP_INIT_TERM	0x00020000
#define SMC_LLC_DEL_PROG_INIT_TERM	0x00030000	/* inactivity */
#define SMC_LLC_DEL_PROT_VIOL		0x00040000
#define SMC_LLC_DEL_NO_ASYM_NEEDED	0x00050000
#define SMC_LLC_DEL_NOLNK		0x00100000	/* reply: no link */
#define SMC_LLC_DEL_NOLGR		0x00200000	/* reply, Linux only */

#define SMC_LLC_MAX_LINKS		8	/* A.3.5: links per link group */
#define SMC_LLC_LINK_UID_LEN		4
#define SMC_LLC_TEST_DATA_LEN		16
#define SMC_LLC_ADD_LINK_CONT_PAIRS	2	/* RKey pairs per message */
#define SMC_LLC_CONFIRM_RKEY_OTHERS	2	/* other-link RTokens */
#define SMC_LLC_CONFIRM_RKEY_CONT_TKNS	3	/* RTokens per continuation */
#define SMC_LLC_DELETE_RKEY_MAX		8

struct smc_llc_hdr {
	u8	type;			/* enum smc_llc_type */
	u8	length;			/* SMC_LLC_MSG_LEN */
	u8	add_link_rsn;		/* ADD LINK reject reason; else 0 */
	u8	flags;			/* SMC_LLC_FLAG_* */
} __packed;
static_assert(sizeof(struct smc_llc_hdr) == 4);

/*
 * A.3.1, Figure 31. max_conns: byte 35, reserved in the RFC; Linux fills
 * it only in SMC-R v2 release 1 link groups.
 */
struct smc_llc_confirm_link {
	struct smc_llc_hdr	hdr;
	u8			sender_mac[SMC_MAC_LEN];
	u8			sender_gid[SMC_GID_LEN];
	u8			sender_qpn[3];
	u8			link_num;
	u8			link_uid[SMC_LLC_LINK_UID_LEN];
	u8			max_links;
	u8			max_conns;
	u8			reserved[8];
} __packed;
static_assert(sizeof(struct smc_llc_confirm_link) == SMC_LLC_MSG_LEN);

/*
 * A.3.2, Figure 32, as Linux lays it out: Figure 32 draws the GID right
 * after the MAC (offset 10) like Figure 31, but Linux puts two reserved
 * bytes after the MAC, so the GID is at offset 12 and every later field
 * is 2 bytes further on (QP 28, link 31, MTU 32, PSN 33). mtu_byte: MTU
 * code (A.2.3) in the low nibble.
 */
struct smc_llc_add_link {
	struct smc_llc_hdr	hdr;
	u8			sender_mac[SMC_MAC_LEN];
	u8			reserved1[2];
	u8			sender_gid[SMC_GID_LEN];
	u8			sender_qpn[3];
	u8			link_num;
	u8			mtu_byte;
	u8			initial_psn[3];
	u8			reserved2[8];
} __packed;
static_assert(sizeof(struct smc_llc_add_link) == SMC_LLC_MSG_LEN);

#define SMC_LLC_MTU_MASK		0x0f

/* A.3.3, Figure 34: an RKey/RToken pair */
struct smc_llc_rkey_pair {
	__be32	ref_rkey;		/* RKey on the link carrying this */
	__be32	new_rkey;		/* RKey on the new link */
	__be64	new_vaddr;		/* virtual address on the new link */
} __packed;
static_assert(sizeof(struct smc_llc_rkey_pair) == 16);

/* A.3.3, Figure 33 */
struct smc_llc_add_link_cont {
	struct smc_llc_hdr		hdr;
	u8				link_num;
	u8				num_rkeys;	/* left, incl. these */
	u8				reserved1[2];
	struct smc_llc_rkey_pair	pairs[SMC_LLC_ADD_LINK_CONT_PAIRS];
	u8				reserved2[4];
} __packed;
static_assert(sizeof(struct smc_llc_add_link_cont) == SMC_LLC_MSG_LEN);

/* A.3.4, Figure 35 */
struct smc_llc_delete_link {
	struct smc_llc_hdr	hdr;
	u8			link_num;	/* 0 when A is set */
	__be32			reason;		/* SMC_LLC_DEL_* */
	u8			reserved[35];
} __packed;
static_assert(sizeof(struct smc_llc_delete_link) == SMC_LLC_MSG_LEN);

/*
 * A.3.5, Figure 37: an RMB specification (RToken) for one link. In the
 * first slot of CONFIRM RKEY the leading byte is NumTkns instead of a
 * link number, and the RToken is that of the link carrying the message.
 */
struct smc_llc_rtoken {
	u8	link_num;
	__be32	rkey;
	__be64	vaddr;
} __packed;
static_assert(sizeof(struct smc_llc_rtoken) == 13);

/* A.3.5, Figure 36 */
struct smc_llc_confirm_rkey {
	struct smc_llc_hdr	hdr;
	struct smc_llc_rtoken	rt[1 + SMC_LLC_CONFIRM_RKEY_OTHERS];
	u8			reserved;
} __packed;
static_assert(sizeof(struct smc_llc_confirm_rkey) == SMC_LLC_MSG_LEN);

/*
 * A.3.6, Figure 38. The figure draws a reserved last byte, copied from
 * Figure 36, but three 13-byte RTokens after NumTknsLeft fill the message
 * exactly (4 + 1 + 3 * 13 = 44): there is no reserved byte.
 */
struct smc_llc_confirm_rkey_cont {
	struct smc_llc_hdr	hdr;
	u8			num_left;
	struct smc_llc_rtoken	rt[SMC_LLC_CONFIRM_RKEY_CONT_TKNS];
} __packed;
static_assert(sizeof(struct smc_llc_confirm_rkey_cont) == SMC_LLC_MSG_LEN);

/* A.3.7, Figure 39. err_mask: 0x80 is the first RKey */
struct smc_llc_delete_rkey {
	struct smc_llc_hdr	hdr;
	u8			count;
	u8			err_mask;
	u8			reserved1[2];
	__be32			rkey[SMC_LLC_DELETE_RKEY_MAX];
	u8			reserved2[4];
} __packed;
static_assert(sizeof(struct smc_llc_delete_rkey) == SMC_LLC_MSG_LEN);

/* A.3.8, Figure 40 */
struct smc_llc_test_link {
	struct smc_llc_hdr	hdr;
	u8			user_data[SMC_LLC_TEST_DATA_LEN];
	u8			reserved[24];
} __packed;
static_assert(sizeof(struct smc_llc_test_link) == SMC_LLC_MSG_LEN);

/*
 * Linux's SMC-R version 2 link groups (llc_v2.c): a message may be longer
 * than 44 bytes, up to SMC_LLC_V2_MSG_MAX, with its length in bytes 1-2.
 * Three are: the ADD LINK, followed by the extension below with the RKey
 * pairs of every RMB (there are no CONTINUATION messages); the client's
 * REQ ADD LINK with its GIDs; DELETE RKEY with more than 8 RKeys.
 */
#define SMC_LLC_V2_MSG_MAX		8192
#define SMC_LLC_V2_RKEYS_MAX		255	/* pairs in one ADD LINK */

/* Byte 0 of the ADD LINK extension: the link group's GIDs reach directly */
#define SMC_LLC_V2_ADD_LINK_DIRECT	0x80

/*
 * After the 44 bytes of a version 2 ADD LINK. target_gid: Linux puts the
 * sender's GID of the new link there; smcr does the same and reads it not.
 * num_rkeys: Linux writes the host-order u16 (little endian on x86) and
 * reads back its low byte; smcr writes little endian, which is what Linux
 * on x86 reads, and takes either order on receipt (a departure from the
 * big-endian rule of A.3, noted here).
 */
struct smc_llc_v2_add_link_ext {
	u8				flags;
	u8				reserved1;
	u8				target_gid[SMC_GID_LEN];
	u8				reserved2[8];
	__le16				num_rkeys;
	struct smc_llc_rkey_pair	pairs[];
} __packed;
static_assert(sizeof(struct smc_llc_v2_add_link_ext) == 28);

/* The client's REQ ADD LINK (type 0x25): "add a link, I have these GIDs" */
struct smc_llc_v2_req_add_link {
	struct smc_llc_hdr		hdr;
	u8				reserved1[20];
	u8				gid_cnt;
	u8				reserved2[3];
	u8				gids[][SMC_GID_LEN];
} __packed;
static_assert(sizeof(struct smc_llc_v2_req_add_link) == 28);

union smc_llc_msg {
	struct smc_llc_hdr		hdr;
	struct smc_llc_confirm_link	confirm_link;
	struct smc_llc_add_link		add_link;
	struct smc_llc_add_link_cont	add_link_cont;
	struct smc_llc_delete_link	delete_link;
	struct smc_llc_confirm_rkey	confirm_rkey;
	struct smc_llc_confirm_rkey_cont confirm_rkey_cont;
	struct smc_llc_delete_rkey	delete_rkey;
	struct smc_llc_test_link	test_link;
	u8				raw[SMC_LLC_MSG_LEN];
};

static_assert(sizeof(union smc_llc_msg) == SMC_LLC_MSG_LEN);

#endif /* _SMCR_LLC_WIRE_H */
