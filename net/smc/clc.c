// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: CLC message encoding and validation (RFC 7609, Appendix A.2).
 *
 * Pure functions on caller buffers: no allocation, no sockets. Every
 * received message is checked here before any field of it is used, and no
 * parser reads a byte outside [msg, msg + len).
 *
 * What is validated, field by field:
 *
 * - eye catchers, head and trailer: must be "SMCR" (A.2: "must both be
 *   validated"); the SMC-D eye catcher is refused, smcr is SMC-R only.
 * - version: 0 is refused; a message of version 2 or higher is read in
 *   Linux's version 2 layout (the Accept/Confirm one in clc_v2.c).
 * - length: the header's length must equal the bytes received and be
 *   exactly what the counts and offsets inside the message add up to.
 * - counts: IPv6 prefixes <= 8, user EIDs <= 8, ISM GIDs <= 8 (when SMC-D
 *   v2 is offered), first contact GIDs <= 8.
 * - offsets: every offset must point inside the message, behind what
 *   precedes it; parts may not overlap.
 * - prefix lengths: IPv4 <= 32, IPv6 <= 128 (out of range is malformed).
 * - QP MTU: 1..5 when the F-bit says first contact; the RFC says to
 *   validate it only then. RMBE size code: all 16 values are accepted
 *   (Linux sends codes up to 15, above the RFC's 512 KiB).
 *
 * Reserved fields are ignored on receipt and zero when we send, as A.2
 * says ("set to zero and not validated"), as Linux does: the reserved
 * bytes of the prefix area, of Accept/Confirm, of Decline and of Linux's
 * v2 areas; in a v1 Proposal the v2 type bits of header byte 7; the IPv4
 * fields of a Proposal that lists IPv6 prefixes; the IP area offset of a
 * v2 Proposal that offers no v1 type (Linux leaves it 0).
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <linux/smcr.h>
#include <smcr/clc.h>

static const u8 smc_eyecatcher_r[SMC_EYECATCHER_LEN] = SMC_EYECATCHER_R;

/* Smallest valid message of each type */
#define SMC_CLC_PROPOSAL_MIN_LEN	(sizeof(struct smc_clc_proposal) + \
					 sizeof(struct smc_clc_prefix_area) + \
					 sizeof(struct smc_clc_trailer))
#define SMC_CLC_ACCEPT_LEN		sizeof(struct smc_clc_accept_confirm)

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
		return len < SMC_CLC_PROPOSAL_MIN_LEN ? -EPROTO : 0;
	case SMC_CLC_ACCEPT:
	case SMC_CLC_CONFIRM:
		return len < SMC_CLC_ACCEPT_LEN ? -EPROTO : 0;
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

/**
 * smc_clc_msg_check() - check the frame of a received message
 * @msg: the whole message
 * @len: its length
 * @type: the type it must have
 *
 * Return: 0 if header (eye catcher, @type, length == @len) and trailer are
 * valid, else -EPROTO.
 */
int smc_clc_msg_check(const void *msg, size_t len, u8 type)
{
	const struct smc_clc_hdr *hdr = msg;

	if (len < SMC_CLC_MIN_LEN)
		return -EPROTO;
	if (smc_clc_hdr_check(hdr) || hdr->type != type)
		return -EPROTO;
	if (be16_to_cpu(hdr->length) != len)
		return -EPROTO;
	return smc_clc_trailer_check(msg, len);
}

/**
 * smc_clc_hdr_init() - fill the header of a message to send
 * @hdr: the header
 * @type: message type
 * @len: the whole message's length
 * @version: CLC version
 * @type_flags: the low nibble of byte 7
 */
void smc_clc_hdr_init(struct smc_clc_hdr *hdr, u8 type, u16 len, u8 version,
		      u8 type_flags)
{
	memcpy(hdr->eyecatcher, smc_eyecatcher_r, SMC_EYECATCHER_LEN);
	hdr->type = type;
	hdr->length = cpu_to_be16(len);
	hdr->flags = (version << SMC_CLC_VERSION_SHIFT) | type_flags;
}

/**
 * smc_clc_trailer_init() - put the trailer at the end of a message
 * @msg: the message
 * @len: its length
 */
void smc_clc_trailer_init(void *msg, size_t len)
{
	memcpy((u8 *)msg + len - SMC_EYECATCHER_LEN, smc_eyecatcher_r,
	       SMC_EYECATCHER_LEN);
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
	smc_clc_trailer_init(dcl, sizeof(*dcl));
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

	if (smc_clc_msg_check(msg, len, SMC_CLC_DECLINE))
		return -EPROTO;
	memcpy(info->peer_id, dcl->peer_id, SMC_PEER_ID_LEN);
	info->diagnosis = be32_to_cpu(dcl->diagnosis);
	info->version = dcl->hdr.flags >> SMC_CLC_VERSION_SHIFT;
	info->out_of_sync = !!(dcl->hdr.flags & SMC_CLC_DECL_SYNC);
	return 0;
}

static bool smc_clc_type_has_r(u8 type)
{
	return type == SMC_CLC_TYPE_R || type == SMC_CLC_TYPE_B;
}

static bool smc_clc_type_has_d(u8 type)
{
	return type == SMC_CLC_TYPE_D || type == SMC_CLC_TYPE_B;
}

/* Size of the prefix area (with its IPv6 entries) of a Proposal */
static size_t smc_clc_prefix_area_len(u8 ipv6_cnt)
{
	return sizeof(struct smc_clc_prefix_area) +
	       ipv6_cnt * sizeof(struct smc_clc_ipv6_prefix);
}

/**
 * smc_clc_prefix_area_build() - encode the IP prefix area of a Proposal
 * @buf: where the area goes
 * @size: bytes available there
 * @pfx: for an IPv4 connection exactly one IPv4 subnet and no IPv6 prefix,
 *	for IPv6 1 to 8 IPv6 prefixes (then any IPv4 entry is not sent)
 *
 * Return: the area's length, -EINVAL if @pfx cannot be encoded, -EMSGSIZE
 * if @size is too small.
 */
int smc_clc_prefix_area_build(void *buf, size_t size,
			      const struct smc_clc_prefixes *pfx)
{
	struct smc_clc_prefix_area *area = buf;
	size_t len;
	int i;

	if (pfx->ipv6_cnt > SMC_CLC_MAX_V6_PREFIX)
		return -EINVAL;
	if (!pfx->ipv6_cnt &&
	    (pfx->ipv4_cnt != 1 || pfx->ipv4[0].len > 32))
		return -EINVAL;
	for (i = 0; i < pfx->ipv6_cnt; i++)
		if (pfx->ipv6[i].prefix_len > 128)
			return -EINVAL;
	len = smc_clc_prefix_area_len(pfx->ipv6_cnt);
	if (size < len)
		return -EMSGSIZE;
	memset(buf, 0, len);
	if (pfx->ipv6_cnt) {
		area->ipv6_prefix_cnt = pfx->ipv6_cnt;
		memcpy(area + 1, pfx->ipv6,
		       pfx->ipv6_cnt * sizeof(struct smc_clc_ipv6_prefix));
	} else {
		area->ipv4_subnet = pfx->ipv4[0].addr;
		area->ipv4_prefix_len = pfx->ipv4[0].len;
	}
	return len;
}

/**
 * smc_clc_proposal_build() - encode an SMC-R Proposal (A.2.2)
 * @buf: buffer to fill
 * @size: its size; SMC_CLC_PROPOSAL_V1_MAX_LEN always suffices for
 *	version 1, SMC_CLC_PROPOSAL_LINUX_MAX_LEN for version 2
 * @info: what to propose: with @smcr_v2 Linux's version 2 layout
 *	(smc_clc_v2_proposal_build()), else version 1 with @peer_id, @gid,
 *	@mac and @prefixes (see smc_clc_prefix_area_build())
 *
 * The IP area offset of version 1 is 0 (nothing between it and the prefix
 * area).
 *
 * Return: the number of bytes to send, -EINVAL if @info cannot be encoded,
 * -EMSGSIZE if @size is too small.
 */
int smc_clc_proposal_build(void *buf, size_t size,
			   const struct smc_clc_proposal_info *info)
{
	struct smc_clc_proposal *prop = buf;
	const size_t fixed = sizeof(*prop) + sizeof(struct smc_clc_trailer);
	int len;

	if (info->smcr_v2)
		return smc_clc_v2_proposal_build(buf, size, info);
	if (size < fixed)
		return -EMSGSIZE;
	len = smc_clc_prefix_area_build(prop + 1, size - fixed,
					&info->prefixes);
	if (len < 0)
		return len;
	len += fixed;
	memset(buf, 0, sizeof(*prop));
	smc_clc_hdr_init(&prop->hdr, SMC_CLC_PROPOSAL, len, SMC_CLC_V1,
			 SMC_CLC_TYPE_R << SMC_CLC_TYPE_V1_SHIFT);
	memcpy(prop->lcl.peer_id, info->peer_id, SMC_PEER_ID_LEN);
	memcpy(prop->lcl.gid, info->gid, SMC_GID_LEN);
	memcpy(prop->lcl.mac, info->mac, SMC_MAC_LEN);
	prop->iparea_offset = 0;
	smc_clc_trailer_init(buf, len);
	return len;
}

/*
 * Decode the prefix area at @pos of @msg (@end: start of the trailer).
 * Return: the offset behind the area, or -EPROTO.
 */
static int smc_clc_prefix_area_parse(const u8 *msg, size_t pos, size_t end,
				     struct smc_clc_prefixes *pfx)
{
	const struct smc_clc_prefix_area *area;
	const struct smc_clc_ipv6_prefix *ipv6;
	int i;

	if (pos > end || end - pos < sizeof(*area))
		return -EPROTO;
	area = (const struct smc_clc_prefix_area *)(msg + pos);
	if (area->ipv6_prefix_cnt > SMC_CLC_MAX_V6_PREFIX)
		return -EPROTO;
	if (end - pos < smc_clc_prefix_area_len(area->ipv6_prefix_cnt))
		return -EPROTO;
	ipv6 = (const struct smc_clc_ipv6_prefix *)(area + 1);
	for (i = 0; i < area->ipv6_prefix_cnt; i++) {
		if (ipv6[i].prefix_len > 128)
			return -EPROTO;
		pfx->ipv6[i] = ipv6[i];
	}
	pfx->ipv6_cnt = area->ipv6_prefix_cnt;
	if (!pfx->ipv6_cnt) {
		if (area->ipv4_prefix_len > 32)
			return -EPROTO;
		pfx->ipv4_cnt = 1;
		pfx->ipv4[0].addr = area->ipv4_subnet;
		pfx->ipv4[0].len = area->ipv4_prefix_len;
	}
	return pos + smc_clc_prefix_area_len(pfx->ipv6_cnt);
}

/*
 * Decode the v2 extension at @pos (and the SMC-D v2 extension it points
 * to, when @type_v2 offers SMC-D). @min: where the extension may start.
 * Return: the offset behind what was read, or -EPROTO.
 */
static int smc_clc_v2_ext_parse(const u8 *msg, size_t pos, size_t min,
				size_t end, u8 type_v2,
				struct smc_clc_proposal_info *info)
{
	const struct smc_clc_v2_ext *ext;
	size_t next;

	if (pos < min || pos > end || end - pos < sizeof(*ext))
		return -EPROTO;
	ext = (const struct smc_clc_v2_ext *)(msg + pos);
	if (ext->eid_cnt > SMC_CLC_MAX_EID)
		return -EPROTO;
	next = pos + sizeof(*ext) + ext->eid_cnt * SMC_EID_LEN;
	if (next > end)
		return -EPROTO;
	info->has_v2_ext = true;
	info->release = ext->flags >> SMC_CLC_V2_RELEASE_SHIFT;
	info->seid = !!(ext->flags & SMC_CLC_V2_FLAG_SEID);
	memcpy(info->roce_v2_gid, ext->roce_gid, SMC_GID_LEN);
	info->max_conns = ext->max_conns;
	info->max_links = ext->max_links;
	info->feature_mask = be16_to_cpu(ext->feature_mask);
	info->eid_cnt = ext->eid_cnt;
	memcpy(info->eids, ext + 1, ext->eid_cnt * SMC_EID_LEN);
	if (!smc_clc_type_has_d(type_v2))
		return next;

	/* SMC-D v2 extension */
	if (!ext->smcd_v2_ext_offset || ext->ism_gid_cnt > SMC_CLC_MAX_ISM_GID)
		return -EPROTO;
	min = next;
	pos += SMC_CLC_SMCD_V2_EXT_BASE + be16_to_cpu(ext->smcd_v2_ext_offset);
	if (pos < min || pos > end)
		return -EPROTO;
	next = pos + sizeof(struct smc_clc_smcd_v2_ext) +
	       ext->ism_gid_cnt * sizeof(struct smc_clc_ism_gid_chid);
	if (next > end)
		return -EPROTO;
	info->has_smcd_v2_ext = true;
	info->ism_gid_cnt = ext->ism_gid_cnt;
	return next;
}

/**
 * smc_clc_proposal_parse() - decode a received Proposal
 * @msg: the whole message
 * @len: its length
 * @info: zeroed, then filled with the decoded fields on success
 *
 * Reads the RFC's version 1 format (with any IP area offset) and Linux's
 * version 2 format: the SMC-D area, the IP prefix area when a v1 type is
 * offered, the v2 extension with its user EIDs when a v2 type is offered,
 * and the SMC-D v2 extension when SMC-D v2 is offered. Succeeds for any
 * well-formed Proposal, whatever it offers (@smcr_v1, @smcr_v2).
 *
 * Return: 0 on success, -EPROTO if @msg is not a valid Proposal.
 */
int smc_clc_proposal_parse(const void *msg, size_t len,
			   struct smc_clc_proposal_info *info)
{
	const struct smc_clc_proposal *prop = msg;
	const struct smc_clc_smcd_area *smcd;
	const u8 *p = msg;
	size_t end, pos;
	u8 flags;
	int rc;

	memset(info, 0, sizeof(*info));
	if (smc_clc_msg_check(msg, len, SMC_CLC_PROPOSAL))
		return -EPROTO;
	end = len - sizeof(struct smc_clc_trailer);
	flags = prop->hdr.flags;
	info->version = flags >> SMC_CLC_VERSION_SHIFT;
	info->type_v1 = (flags >> SMC_CLC_TYPE_V1_SHIFT) & SMC_CLC_TYPE_MASK;
	info->type_v2 = (flags >> SMC_CLC_TYPE_V2_SHIFT) & SMC_CLC_TYPE_MASK;
	memcpy(info->peer_id, prop->lcl.peer_id, SMC_PEER_ID_LEN);
	memcpy(info->gid, prop->lcl.gid, SMC_GID_LEN);
	memcpy(info->mac, prop->lcl.mac, SMC_MAC_LEN);
	pos = sizeof(*prop);

	if (info->version == SMC_CLC_V1) {
		info->type_v2 = SMC_CLC_TYPE_N;
		pos += be16_to_cpu(prop->iparea_offset);
		rc = smc_clc_prefix_area_parse(p, pos, end, &info->prefixes);
		if (rc < 0)
			goto err;
		pos = rc;
	} else {
		if (end - pos < sizeof(*smcd))
			goto err;
		smcd = (const struct smc_clc_smcd_area *)(prop + 1);
		pos += sizeof(*smcd);
		if (info->type_v1 != SMC_CLC_TYPE_N) {
			if (be16_to_cpu(prop->iparea_offset) != sizeof(*smcd))
				goto err;
			rc = smc_clc_prefix_area_parse(p, pos, end,
						       &info->prefixes);
			if (rc < 0)
				goto err;
			pos = rc;
		}
		if (info->type_v2 != SMC_CLC_TYPE_N) {
			if (!smcd->v2_ext_offset)
				goto err;
			rc = smc_clc_v2_ext_parse(p, sizeof(*prop) +
						  SMC_CLC_V2_EXT_BASE +
						  be16_to_cpu(smcd->v2_ext_offset),
						  pos, end, info->type_v2, info);
			if (rc < 0)
				goto err;
			pos = rc;
		}
	}
	if (pos != end)
		goto err;
	info->smcr_v1 = smc_clc_type_has_r(info->type_v1);
	info->smcr_v2 = smc_clc_type_has_r(info->type_v2) && info->has_v2_ext;
	return 0;

err:
	memset(info, 0, sizeof(*info));
	return -EPROTO;
}

/**
 * smc_clc_acc_conf_fill() - encode the part Accept and Confirm of every
 *	version share (A.2.3/A.2.4), without header and trailer
 * @msg: the message
 * @info: the link and buffer of the sender
 *
 * Return: 0, or -EINVAL if a field does not fit (QPN or PSN above 24 bits,
 * size code above 15, MTU code not 1..5).
 */
int smc_clc_acc_conf_fill(struct smc_clc_accept_confirm *msg,
			  const struct smc_clc_accept_info *info)
{
	if (info->qpn > SMC_CLC_U24_MAX || info->psn > SMC_CLC_U24_MAX ||
	    info->rmbe_size_code > SMC_CLC_RMBE_MAX_CODE ||
	    smc_clc_mtu_to_bytes(info->mtu_code) < 0)
		return -EINVAL;

	memset(msg, 0, sizeof(*msg));
	memcpy(msg->lcl.peer_id, info->peer_id, SMC_PEER_ID_LEN);
	memcpy(msg->lcl.gid, info->gid, SMC_GID_LEN);
	memcpy(msg->lcl.mac, info->mac, SMC_MAC_LEN);
	smc_clc_put24(msg->qpn, info->qpn);
	msg->rmb_rkey = cpu_to_be32(info->rmb_rkey);
	msg->rmbe_idx = info->rmbe_idx;
	msg->rmbe_alert_token = cpu_to_be32(info->rmbe_alert_token);
	msg->rmbe_size_mtu = info->rmbe_size_code << SMC_CLC_RMBE_SIZE_SHIFT |
			     info->mtu_code;
	msg->rmb_vaddr = cpu_to_be64(info->rmb_vaddr);
	smc_clc_put24(msg->psn, info->psn);
	return 0;
}

static int smc_clc_acc_conf_build(void *buf, size_t size, u8 type,
				  const struct smc_clc_accept_info *info)
{
	struct smc_clc_accept_confirm *msg = buf;
	int rc;

	if (info->version != SMC_CLC_V1)
		return smc_clc_v2_acc_conf_build(buf, size, type, info);
	if (size < sizeof(*msg))
		return -EMSGSIZE;
	rc = smc_clc_acc_conf_fill(msg, info);
	if (rc)
		return rc;
	smc_clc_hdr_init(&msg->hdr, type, sizeof(*msg), SMC_CLC_V1,
			 (SMC_CLC_TYPE_R << SMC_CLC_TYPE_V1_SHIFT) |
			 (info->first_contact ? SMC_CLC_FIRST_CONTACT : 0));
	smc_clc_trailer_init(msg, sizeof(*msg));
	return sizeof(*msg);
}

/**
 * smc_clc_accept_build() - encode an SMC-R Accept (A.2.3)
 * @buf: buffer to fill
 * @size: its size (version 1 needs 68 bytes)
 * @info: the server's link and buffer; @first_contact sets the F-bit;
 *	@version 2 builds Linux's version 2 layout with @v2
 *
 * Return: the number of bytes to send, -EINVAL if a field does not fit
 * (QPN or PSN above 24 bits, size code above 15, MTU code not 1..5, a v2
 * field out of range), -EMSGSIZE if @size is too small.
 */
int smc_clc_accept_build(void *buf, size_t size,
			 const struct smc_clc_accept_info *info)
{
	return smc_clc_acc_conf_build(buf, size, SMC_CLC_ACCEPT, info);
}

/**
 * smc_clc_confirm_build() - encode an SMC-R Confirm (A.2.4)
 * @buf: buffer to fill
 * @size: its size
 * @info: the client's link and buffer
 *
 * The RFC reserves the F-bit in a Confirm; like Linux, smcr sets it when
 * @info->first_contact (receivers do not validate reserved bits).
 *
 * Return: as smc_clc_accept_build().
 */
int smc_clc_confirm_build(void *buf, size_t size,
			  const struct smc_clc_accept_info *info)
{
	return smc_clc_acc_conf_build(buf, size, SMC_CLC_CONFIRM, info);
}

/**
 * smc_clc_acc_conf_read() - decode the part Accept and Confirm of every
 *	version share
 * @ac: a message whose length and header the caller checked
 * @info: filled with the fields of that part and @first_contact
 *
 * Return: 0, or -EPROTO for an invalid MTU code on first contact (the RFC
 * validates it only then).
 */
int smc_clc_acc_conf_read(const struct smc_clc_accept_confirm *ac,
			  struct smc_clc_accept_info *info)
{
	info->first_contact = !!(ac->hdr.flags & SMC_CLC_FIRST_CONTACT);
	info->mtu_code = ac->rmbe_size_mtu & SMC_CLC_MTU_MASK;
	if (info->first_contact && smc_clc_mtu_to_bytes(info->mtu_code) < 0)
		return -EPROTO;
	memcpy(info->peer_id, ac->lcl.peer_id, SMC_PEER_ID_LEN);
	memcpy(info->gid, ac->lcl.gid, SMC_GID_LEN);
	memcpy(info->mac, ac->lcl.mac, SMC_MAC_LEN);
	info->qpn = smc_clc_get24(ac->qpn);
	info->rmb_rkey = be32_to_cpu(ac->rmb_rkey);
	info->rmbe_idx = ac->rmbe_idx;
	info->rmbe_alert_token = be32_to_cpu(ac->rmbe_alert_token);
	info->rmbe_size_code = ac->rmbe_size_mtu >> SMC_CLC_RMBE_SIZE_SHIFT;
	info->rmb_vaddr = be64_to_cpu(ac->rmb_vaddr);
	info->psn = smc_clc_get24(ac->psn);
	return 0;
}

static int smc_clc_acc_conf_parse(const void *msg, size_t len, u8 type,
				  struct smc_clc_accept_info *info)
{
	const struct smc_clc_accept_confirm *ac = msg;
	u8 flags;

	memset(info, 0, sizeof(*info));
	if (smc_clc_msg_check(msg, len, type))
		return -EPROTO;
	flags = ac->hdr.flags;
	if (((flags >> SMC_CLC_TYPE_V1_SHIFT) & SMC_CLC_TYPE_MASK) !=
	    SMC_CLC_TYPE_R)
		return -EPROTO;
	if ((flags >> SMC_CLC_VERSION_SHIFT) > SMC_CLC_V1)
		return smc_clc_v2_acc_conf_parse(msg, len, type, info);
	if (len != sizeof(*ac) || smc_clc_acc_conf_read(ac, info)) {
		memset(info, 0, sizeof(*info));
		return -EPROTO;
	}
	info->version = SMC_CLC_V1;
	return 0;
}

/**
 * smc_clc_accept_parse() - decode a received Accept
 * @msg: the whole message
 * @len: its length
 * @info: zeroed, then filled with the decoded fields on success
 *
 * Return: 0 for a valid SMC-R Accept of version 1 or 2 (@info->version
 * says which); -EPROTO for anything else (Decline with SYNCERR).
 */
int smc_clc_accept_parse(const void *msg, size_t len,
			 struct smc_clc_accept_info *info)
{
	return smc_clc_acc_conf_parse(msg, len, SMC_CLC_ACCEPT, info);
}

/**
 * smc_clc_confirm_parse() - decode a received Confirm
 * @msg: the whole message
 * @len: its length
 * @info: zeroed, then filled with the decoded fields on success
 *
 * Return: as smc_clc_accept_parse().
 */
int smc_clc_confirm_parse(const void *msg, size_t len,
			  struct smc_clc_accept_info *info)
{
	return smc_clc_acc_conf_parse(msg, len, SMC_CLC_CONFIRM, info);
}

/**
 * smc_clc_decline_code() - the Decline reason for a failure of this file
 * @err: a negative errno returned by a parse or check function
 *
 * Return: -EPROTO: SYNCERR (malformed or unexpected message);
 * -EPROTONOSUPPORT: VERSMISMAT; -EOPNOTSUPP: MODEUNSUPP (no SMC-R v1
 * offered); -ENETUNREACH: DIFFPREFIX (no common subnet or prefix, the
 * caller's result of smc_clc_prefix_match()); -ENOMEM: MEM; else INTERR.
 */
u32 smc_clc_decline_code(int err)
{
	switch (err) {
	case -EPROTO:
		return SMC_CLC_DECL_SYNCERR;
	case -EPROTONOSUPPORT:
		return SMC_CLC_DECL_VERSMISMAT;
	case -EOPNOTSUPP:
		return SMC_CLC_DECL_MODEUNSUPP;
	case -ENETUNREACH:
		return SMC_CLC_DECL_DIFFPREFIX;
	case -ENOMEM:
		return SMC_CLC_DECL_MEM;
	default:
		return SMC_CLC_DECL_INTERR;
	}
}

/**
 * smc_clc_rmbe_size() - RMBE size of a size code
 * @code: the 4-bit code of an Accept or Confirm
 *
 * A.2.3: size = 2^(code + 4) KiB, so 0 is 16 KiB. The RFC's largest is
 * code 5 (512 KiB); Linux uses codes up to 15 (512 MiB).
 *
 * Return: the size in bytes, 0 if @code does not fit in 4 bits.
 */
u32 smc_clc_rmbe_size(u8 code)
{
	if (code > SMC_CLC_RMBE_MAX_CODE)
		return 0;
	return SMC_CLC_RMBE_MIN_SIZE << code;
}

/**
 * smc_clc_rmbe_code() - size code for an RMBE of at least @size bytes
 * @size: wanted RMBE size in bytes
 *
 * Rounds up: the result's smc_clc_rmbe_size() is the smallest one >= @size
 * (and at least 16 KiB).
 *
 * Return: the code, -EINVAL if @size is 0 or above 512 MiB.
 */
int smc_clc_rmbe_code(u32 size)
{
	int code = 0;

	if (!size || size > smc_clc_rmbe_size(SMC_CLC_RMBE_MAX_CODE))
		return -EINVAL;
	while (smc_clc_rmbe_size(code) < size)
		code++;
	return code;
}

/**
 * smc_clc_mtu_to_bytes() - QP MTU of an MTU code
 * @code: the 4-bit code of an Accept or Confirm (1..5, enum ib_mtu)
 *
 * Return: 256, 512, 1024, 2048 or 4096; -EINVAL for a reserved code.
 */
int smc_clc_mtu_to_bytes(u8 code)
{
	if (code < SMC_CLC_MTU_256 || code > SMC_CLC_MTU_4096)
		return -EINVAL;
	return 128 << code;
}

/**
 * smc_clc_mtu_from_bytes() - MTU code of a QP MTU
 * @bytes: 256, 512, 1024, 2048 or 4096
 *
 * Return: the code (1..5), -EINVAL for any other value.
 */
int smc_clc_mtu_from_bytes(u32 bytes)
{
	int code;

	for (code = SMC_CLC_MTU_256; code <= SMC_CLC_MTU_4096; code++)
		if (bytes == 128U << code)
			return code;
	return -EINVAL;
}

static bool smc_clc_ipv4_match(const struct smc_clc_ipv4_prefix *a,
			       const struct smc_clc_ipv4_prefix *b)
{
	u32 mask;

	if (a->len != b->len || a->len > 32)
		return false;
	mask = a->len ? ~0U << (32 - a->len) : 0;
	return !((be32_to_cpu(a->addr) ^ be32_to_cpu(b->addr)) & mask);
}

static bool smc_clc_ipv6_match(const struct smc_clc_ipv6_prefix *a,
			       const struct smc_clc_ipv6_prefix *b)
{
	unsigned int bytes = a->prefix_len / 8, bits = a->prefix_len % 8;
	u8 mask;

	if (a->prefix_len != b->prefix_len || a->prefix_len > 128)
		return false;
	if (memcmp(a->prefix, b->prefix, bytes))
		return false;
	if (!bits)
		return true;
	mask = 0xff << (8 - bits);
	return !((a->prefix[bytes] ^ b->prefix[bytes]) & mask);
}

/**
 * smc_clc_prefix_match() - are two sides on a common subnet (3.5.1.2)?
 * @local: our subnets (addresses of the interface and their lengths)
 * @peer: the subnet or prefixes of a Proposal
 *
 * IPv4: some local subnet has the peer's prefix length and contains the
 * peer's subnet. IPv6: some local prefix equals a peer prefix of the same
 * length. Counts above the array sizes are clamped.
 *
 * Return: true on a match; false otherwise (then Decline with DIFFPREFIX).
 */
bool smc_clc_prefix_match(const struct smc_clc_prefixes *local,
			  const struct smc_clc_prefixes *peer)
{
	unsigned int i, j, ln, pn;

	ln = min_t(unsigned int, local->ipv4_cnt, SMC_CLC_MAX_V4_PREFIX);
	pn = min_t(unsigned int, peer->ipv4_cnt, SMC_CLC_MAX_V4_PREFIX);
	for (i = 0; i < ln; i++)
		for (j = 0; j < pn; j++)
			if (smc_clc_ipv4_match(&local->ipv4[i], &peer->ipv4[j]))
				return true;
	ln = min_t(unsigned int, local->ipv6_cnt, SMC_CLC_MAX_V6_PREFIX);
	pn = min_t(unsigned int, peer->ipv6_cnt, SMC_CLC_MAX_V6_PREFIX);
	for (i = 0; i < ln; i++)
		for (j = 0; j < pn; j++)
			if (smc_clc_ipv6_match(&local->ipv6[i], &peer->ipv6[j]))
				return true;
	return false;
}
