/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: CLC message wire formats (RFC 7609, Appendix A.2).
 *
 * Every CLC message starts with an 8-byte header and ends with a 4-byte
 * trailer; both carry the eye catcher "SMCR" in EBCDIC. All multi-byte
 * fields are big endian. Shared by smcr.ko and its KUnit tests.
 */
#ifndef _SMCR_CLC_WIRE_H
#define _SMCR_CLC_WIRE_H

#include <linux/build_bug.h>
#include <linux/types.h>

/* "SMCR" in IBM-1047 (EBCDIC) */
#define SMC_EYECATCHER_R	{ 0xE2, 0xD4, 0xC3, 0xD9 }
#define SMC_EYECATCHER_LEN	4

enum smc_clc_type {
	SMC_CLC_PROPOSAL	= 0x01,
	SMC_CLC_ACCEPT		= 0x02,
	SMC_CLC_CONFIRM		= 0x03,
	SMC_CLC_DECLINE		= 0x04,
};

#define SMC_CLC_V1		1
#define SMC_CLC_V2		2

/* Header byte 7: version in the high nibble, then type-specific flags. */
#define SMC_CLC_VERSION_SHIFT	4
#define SMC_CLC_DECL_SYNC	0x08	/* Decline S-bit: link group out of sync */

#define SMC_PEER_ID_LEN		8	/* A.2.1: 2-byte instance + RoCE MAC */

struct smc_clc_hdr {
	u8	eyecatcher[SMC_EYECATCHER_LEN];
	u8	type;			/* enum smc_clc_type */
	__be16	length;			/* whole message, header to trailer */
	u8	flags;			/* version << 4 | type-specific bits */
} __packed;
static_assert(sizeof(struct smc_clc_hdr) == 8);

struct smc_clc_trailer {
	u8	eyecatcher[SMC_EYECATCHER_LEN];
} __packed;
static_assert(sizeof(struct smc_clc_trailer) == 4);

/* A.2.5, Figure 30 */
struct smc_clc_decline {
	struct smc_clc_hdr	hdr;
	u8			peer_id[SMC_PEER_ID_LEN];
	__be32			diagnosis;
	u8			reserved[4];
	struct smc_clc_trailer	trl;
} __packed;
static_assert(sizeof(struct smc_clc_decline) == 28);

/*
 * Linux peers also send a version 2 Decline that carries four more
 * diagnosis words before the trailer.
 */
#define SMC_CLC_DECLINE_V2_LEN	44

/* Largest CLC message smcr accepts from a peer (a v2 Proposal is < 1 KiB). */
#define SMC_CLC_MAX_LEN		1024
#define SMC_CLC_MIN_LEN		(sizeof(struct smc_clc_hdr) + \
				 sizeof(struct smc_clc_trailer))

#endif /* _SMCR_CLC_WIRE_H */
