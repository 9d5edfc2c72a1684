// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: CLC message encoding and validation (RFC 7609, Appendix A.2).
 *
 * Pure functions on buffers. Every received message is checked here
 * before any field of it is used.
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <smcr/clc.h>

static const u8 smc_eyecatcher_r[SMC_EYECATCHER_LEN] = SMC_EYECATCHER_R;

/**
 * smc_clc_hdr_check() - validate a received CLC header
 * @hdr: the first 8 bytes of a message
 *
 * Checks the eye catcher, the type, the version and the length against the
 * limits of the type. The caller then reads exactly the remaining
 * length - 8 bytes.
 *
 * Return: 0 if the header is acceptable, -EPROTO otherwise.
 */
int smc_clc_hdr_check(const struct smc_clc_hdr *hdr)
{
	u16 len = be16_to_cpu(hdr->length);
	u8 version = hdr->flags >> SMC_CLC_VERSION_SHIFT;

	if (memcmp(hdr->eyecatcher, smc_eyecatcher_r, SMC_EYECATCHER_LEN))
		return -EPROTO;
	if (version < SMC_CLC_V1)
		return -EPROTO;
	if (len < SMC_CLC_MIN_LEN || len > SMC_CLC_MAX_LEN)
		return -EPROTO;
	switch (hdr->type) {
	case SMC_CLC_DECLINE:
		if (len != sizeof(struct smc_clc_decline) &&
		    len != SMC_CLC_DECLINE_V2_LEN)
			return -EPROTO;
		return 0;
	case SMC_CLC_PROPOSAL:
	case SMC_CLC_ACCEPT:
	case SMC_CLC_CONFIRM:
		return 0;
	default:
		return -EPROTO;
	}
}

/**
 * smc_clc_trailer_check() - validate the trailing eye catcher of a message
 * @msg: the whole message
 * @len: its length, as announced by its (already checked) header
 *
 * Return: 0 if the last four bytes are the eye catcher, -EPROTO otherwise.
 */
int smc_clc_trailer_check(const void *msg, size_t len)
{
	if (len < SMC_CLC_MIN_LEN)
		return -EPROTO;
	if (memcmp((const u8 *)msg + len - SMC_EYECATCHER_LEN,
		   smc_eyecatcher_r, SMC_EYECATCHER_LEN))
		return -EPROTO;
	return 0;
}

static void smc_clc_hdr_init(struct smc_clc_hdr *hdr, u8 type, u16 len,
			     u8 version, u8 type_flags)
{
	memcpy(hdr->eyecatcher, smc_eyecatcher_r, SMC_EYECATCHER_LEN);
	hdr->type = type;
	hdr->length = cpu_to_be16(len);
	hdr->flags = (version << SMC_CLC_VERSION_SHIFT) | type_flags;
}

/**
 * smc_clc_decline_build() - encode a version 1 Decline (A.2.5)
 * @dcl: buffer to fill
 * @peer_id: our peer ID
 * @diagnosis: the reason, an SMC_CLC_DECL_* code
 * @out_of_sync: set the S-bit (our link group is out of sync)
 *
 * Return: the number of bytes to send.
 */
size_t smc_clc_decline_build(struct smc_clc_decline *dcl,
			     const u8 peer_id[SMC_PEER_ID_LEN], u32 diagnosis,
			     bool out_of_sync)
{
	memset(dcl, 0, sizeof(*dcl));
	smc_clc_hdr_init(&dcl->hdr, SMC_CLC_DECLINE, sizeof(*dcl), SMC_CLC_V1,
			 out_of_sync ? SMC_CLC_DECL_SYNC : 0);
	memcpy(dcl->peer_id, peer_id, SMC_PEER_ID_LEN);
	dcl->diagnosis = cpu_to_be32(diagnosis);
	memcpy(dcl->trl.eyecatcher, smc_eyecatcher_r, SMC_EYECATCHER_LEN);
	return sizeof(*dcl);
}

/**
 * smc_clc_decline_parse() - decode a received Decline
 * @msg: the whole message
 * @len: its length
 * @info: filled with the decoded fields on success
 *
 * Accepts the 28-byte version 1 format and the 44-byte format Linux sends
 * for version 2 (its extra diagnosis words are ignored).
 *
 * Return: 0 on success, -EPROTO if @msg is not a valid Decline.
 */
int smc_clc_decline_parse(const void *msg, size_t len,
			  struct smc_clc_decline_info *info)
{
	const struct smc_clc_decline *dcl = msg;

	if (len < sizeof(*dcl))
		return -EPROTO;
	if (smc_clc_hdr_check(&dcl->hdr) || dcl->hdr.type != SMC_CLC_DECLINE)
		return -EPROTO;
	if (be16_to_cpu(dcl->hdr.length) != len)
		return -EPROTO;
	if (smc_clc_trailer_check(msg, len))
		return -EPROTO;
	memcpy(info->peer_id, dcl->peer_id, SMC_PEER_ID_LEN);
	info->diagnosis = be32_to_cpu(dcl->diagnosis);
	info->version = dcl->hdr.flags >> SMC_CLC_VERSION_SHIFT;
	info->out_of_sync = !!(dcl->hdr.flags & SMC_CLC_DECL_SYNC);
	return 0;
}
