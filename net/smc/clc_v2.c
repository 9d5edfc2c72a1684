// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: CLC version 2 for SMC-R, in the layout Linux's in-tree SMC uses.
 *
 * RFC 7609 defines CLC version 1 only. SMC-R version 2 (IBM's "SMC
 * Version 2" specification, implemented by Linux since 5.10 and, with
 * release 1, since 6.5) keeps the messages of A.2 and appends to them:
 *
 *   Proposal: header version 2; byte 7 offers SMC types for version 1
 *     (bits 1-0) and version 2 (bits 3-2). An SMC-D area follows the IP
 *     area offset; the prefix area only if a version 1 type is offered;
 *     then the v2 extension: user EIDs, release, the RoCE GID for SMC-R
 *     v2 and, release 1, the most connections and links per link group
 *     the client wants (clc_wire.h).
 *   Accept/Confirm: the 64 bytes of A.2.3/A.2.4 before the trailer, then
 *     the negotiated EID (32 bytes) and 8 reserved bytes; on first
 *     contact a first contact extension (36 bytes, release 1: 52) and, in
 *     a Confirm, a list of the client's GIDs.
 *
 * Parse = validate, as in clc.c: lengths must add up exactly, counts are
 * bounded (EIDs <= 8, GIDs <= 8), and the first contact extension has the
 * length its release gives it. The rules of the negotiation (which EID,
 * which release, how many connections and links) are here too, as pure
 * functions the handshake calls with both sides' values:
 *
 *   EID: the first user EID of the client's list that the server has;
 *     none is a Decline with NOUEID (SMC-R v2 needs a UEID on both sides).
 *   release: the smaller of the client's and the server's; an Accept may
 *     not name one above the client's, a Confirm must echo the Accept's.
 *   release 1: max_conns is the smaller of both sides' and at least 16,
 *     max_links the smaller and at least 1 (MAXCONNERR, MAXLINKERR); the
 *     client takes the Accept's values if they are within what it
 *     proposed, and its Confirm echoes them.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <linux/smcr.h>
#include <smcr/clc.h>

/* Byte 0 of the first contact extension: the sender reaches us directly */
#define SMC_CLC_FCE_V2_DIRECT	0x80
#define SMC_CLC_FCE_OS_SHIFT	4
#define SMC_CLC_FCE_REL_MASK	0x0f

/* Where the v2 part of an Accept/Confirm starts: A.2.3 without trailer */
#define SMC_CLC_ACC_V2_EID_POS	(sizeof(struct smc_clc_accept_confirm) - \
				 sizeof(struct smc_clc_trailer))
#define SMC_CLC_ACC_V2_FCE_POS	(SMC_CLC_ACC_V2_EID_POS + SMC_EID_LEN + 8)
static_assert(SMC_CLC_ACC_V2_FCE_POS + sizeof(struct smc_clc_trailer) ==
	      SMC_CLC_ACCEPT_V2_LEN);

static size_t smc_clc_fce_len(u8 release)
{
	return release ? sizeof(struct smc_clc_fce_v2x) :
			 sizeof(struct smc_clc_fce);
}

/**
 * smc_clc_v2_proposal_build() - encode a version 2 Proposal
 * @buf: buffer to fill
 * @size: its size; SMC_CLC_PROPOSAL_LINUX_MAX_LEN always suffices
 * @info: @smcr_v2 must be set. With @smcr_v1 SMC-R version 1 is offered
 *	too and @prefixes are sent. @peer_id, @gid and @mac go into the
 *	local part either way (a Linux server takes the peer ID from it);
 *	the v2 extension carries @release, @roce_v2_gid, @max_conns,
 *	@max_links, @feature_mask and the @eid_cnt user EIDs of @eids.
 *
 * No SMC-D area content and no SMC-D v2 extension: smcr is SMC-R only.
 *
 * Return: the number of bytes to send, -EINVAL if @info cannot be encoded,
 * -EMSGSIZE if @size is too small.
 */
int smc_clc_v2_proposal_build(void *buf, size_t size,
			      const struct smc_clc_proposal_info *info)
{
	struct smc_clc_proposal *prop = buf;
	struct smc_clc_smcd_area *smcd;
	struct smc_clc_v2_ext *ext;
	u8 *p = buf, types;
	size_t pos, ext_len;
	int n;

	if (!info->smcr_v2 || info->eid_cnt > SMC_CLC_MAX_EID ||
	    info->release > SMC_CLC_FCE_REL_MASK)
		return -EINVAL;
	pos = sizeof(*prop) + sizeof(*smcd);
	if (size < pos)
		return -EMSGSIZE;
	memset(buf, 0, pos);
	smcd = (struct smc_clc_smcd_area *)(prop + 1);
	types = SMC_CLC_TYPE_R << SMC_CLC_TYPE_V2_SHIFT;
	if (info->smcr_v1) {
		n = smc_clc_prefix_area_build(p + pos, size - pos,
					      &info->prefixes);
		if (n < 0)
			return n;
		prop->iparea_offset = cpu_to_be16(sizeof(*smcd));
		pos += n;
		types |= SMC_CLC_TYPE_R << SMC_CLC_TYPE_V1_SHIFT;
	} else {
		types |= SMC_CLC_TYPE_N << SMC_CLC_TYPE_V1_SHIFT;
	}
	ext_len = sizeof(*ext) + info->eid_cnt * SMC_EID_LEN;
	if (size - pos < ext_len + sizeof(struct smc_clc_trailer))
		return -EMSGSIZE;
	smcd->v2_ext_offset = cpu_to_be16(pos - sizeof(*prop) -
					  SMC_CLC_V2_EXT_BASE);
	ext = (struct smc_clc_v2_ext *)(p + pos);
	memset(ext, 0, sizeof(*ext));
	ext->eid_cnt = info->eid_cnt;
	ext->flags = info->release << SMC_CLC_V2_RELEASE_SHIFT;
	memcpy(ext->roce_gid, info->roce_v2_gid, SMC_GID_LEN);
	ext->max_conns = info->max_conns;
	ext->max_links = info->max_links;
	ext->feature_mask = cpu_to_be16(info->feature_mask);
	memcpy(ext + 1, info->eids, info->eid_cnt * SMC_EID_LEN);
	pos += ext_len + sizeof(struct smc_clc_trailer);

	smc_clc_hdr_init(&prop->hdr, SMC_CLC_PROPOSAL, pos, SMC_CLC_V2, types);
	memcpy(prop->lcl.peer_id, info->peer_id, SMC_PEER_ID_LEN);
	memcpy(prop->lcl.gid, info->gid, SMC_GID_LEN);
	memcpy(prop->lcl.mac, info->mac, SMC_MAC_LEN);
	smc_clc_trailer_init(buf, pos);
	return pos;
}

/**
 * smc_clc_v2_acc_conf_build() - encode a version 2 SMC-R Accept or Confirm
 * @buf: buffer to fill
 * @size: its size
 * @type: SMC_CLC_ACCEPT or SMC_CLC_CONFIRM
 * @info: the sender's link and buffer, @first_contact and @v2: the EID; on
 *	first contact the first contact extension (@v2.has_fce must be set
 *	then and only then) and, in a Confirm, @v2.gid_cnt GIDs
 *
 * The host name of the first contact extension is sent blank: it would
 * tell the peer the name of the host (not of the socket's namespace).
 *
 * Return: the number of bytes to send, -EINVAL if @info cannot be encoded,
 * -EMSGSIZE if @size is too small.
 */
int smc_clc_v2_acc_conf_build(void *buf, size_t size, u8 type,
			      const struct smc_clc_accept_info *info)
{
	const struct smc_clc_v2_info *v2 = &info->v2;
	struct smc_clc_fce_gid_list *gl;
	struct smc_clc_fce_v2x *fce;
	size_t len = SMC_CLC_ACC_V2_FCE_POS;
	u8 *p = buf;
	int rc;

	if (v2->has_fce != info->first_contact ||
	    v2->release > SMC_CLC_FCE_REL_MASK ||
	    v2->os_type > SMC_CLC_FCE_REL_MASK ||
	    v2->gid_cnt > SMC_CLC_MAX_FCE_GID)
		return -EINVAL;
	if (v2->has_fce) {
		len += smc_clc_fce_len(v2->release);
		if (type == SMC_CLC_CONFIRM)
			len += sizeof(*gl) + v2->gid_cnt * SMC_GID_LEN;
	}
	len += sizeof(struct smc_clc_trailer);
	if (size < len)
		return -EMSGSIZE;
	memset(buf, 0, len);
	rc = smc_clc_acc_conf_fill(buf, info);
	if (rc)
		return rc;
	smc_clc_hdr_init(buf, type, len, SMC_CLC_V2,
			 (SMC_CLC_TYPE_R << SMC_CLC_TYPE_V1_SHIFT) |
			 (info->first_contact ? SMC_CLC_FIRST_CONTACT : 0));
	memcpy(p + SMC_CLC_ACC_V2_EID_POS, v2->eid, SMC_EID_LEN);
	if (v2->has_fce) {
		fce = (struct smc_clc_fce_v2x *)(p + SMC_CLC_ACC_V2_FCE_POS);
		fce->base.flags = v2->v2_direct ? SMC_CLC_FCE_V2_DIRECT : 0;
		fce->base.os_release = v2->os_type << SMC_CLC_FCE_OS_SHIFT |
				       v2->release;
		memset(fce->base.hostname, ' ', SMC_HOSTNAME_LEN);
		if (v2->release) {
			fce->max_conns = v2->max_conns;
			fce->max_links = v2->max_links;
			fce->feature_mask = cpu_to_be16(v2->feature_mask);
		}
		if (type == SMC_CLC_CONFIRM) {
			gl = (struct smc_clc_fce_gid_list *)
			     ((u8 *)fce + smc_clc_fce_len(v2->release));
			gl->gid_cnt = v2->gid_cnt;
			memcpy(gl + 1, v2->gids, v2->gid_cnt * SMC_GID_LEN);
		}
	}
	smc_clc_trailer_init(buf, len);
	return len;
}

/**
 * smc_clc_v2_acc_conf_parse() - decode a version 2 SMC-R Accept or Confirm
 * @msg: the whole message; frame and SMC type already checked
 * @len: its length
 * @type: SMC_CLC_ACCEPT or SMC_CLC_CONFIRM
 * @info: filled on success, zeroed on failure
 *
 * Return: 0, or -EPROTO if the message is malformed: shorter than 108
 * bytes, a length other than what its F-bit, release and GID count add up
 * to, more than 8 GIDs, or an invalid MTU code on first contact.
 */
int smc_clc_v2_acc_conf_parse(const void *msg, size_t len, u8 type,
			      struct smc_clc_accept_info *info)
{
	struct smc_clc_v2_info *v2 = &info->v2;
	const struct smc_clc_fce_gid_list *gl;
	const struct smc_clc_fce_v2x *fce;
	size_t pos = SMC_CLC_ACC_V2_FCE_POS;
	size_t end = len - sizeof(struct smc_clc_trailer);
	const u8 *p = msg;

	memset(info, 0, sizeof(*info));
	if (len < SMC_CLC_ACCEPT_V2_LEN || smc_clc_acc_conf_read(msg, info))
		goto err;
	info->version = SMC_CLC_V2;
	memcpy(v2->eid, p + SMC_CLC_ACC_V2_EID_POS, SMC_EID_LEN);
	if (!info->first_contact) {
		if (pos != end)
			goto err;
		return 0;
	}

	if (end - pos < sizeof(struct smc_clc_fce))
		goto err;
	fce = (const struct smc_clc_fce_v2x *)(p + pos);
	v2->has_fce = true;
	v2->v2_direct = !!(fce->base.flags & SMC_CLC_FCE_V2_DIRECT);
	v2->os_type = fce->base.os_release >> SMC_CLC_FCE_OS_SHIFT;
	v2->release = fce->base.os_release & SMC_CLC_FCE_REL_MASK;
	if (end - pos < smc_clc_fce_len(v2->release))
		goto err;
	if (v2->release) {
		v2->max_conns = fce->max_conns;
		v2->max_links = fce->max_links;
		v2->feature_mask = be16_to_cpu(fce->feature_mask);
	}
	pos += smc_clc_fce_len(v2->release);
	if (type == SMC_CLC_CONFIRM) {
		if (end - pos < sizeof(*gl))
			goto err;
		gl = (const struct smc_clc_fce_gid_list *)(p + pos);
		pos += sizeof(*gl);
		if (gl->gid_cnt > SMC_CLC_MAX_FCE_GID ||
		    end - pos < gl->gid_cnt * SMC_GID_LEN)
			goto err;
		v2->gid_cnt = gl->gid_cnt;
		memcpy(v2->gids, gl + 1, gl->gid_cnt * SMC_GID_LEN);
		pos += gl->gid_cnt * SMC_GID_LEN;
	}
	if (pos == end)
		return 0;
err:
	memset(info, 0, sizeof(*info));
	return -EPROTO;
}

/**
 * smc_clc_v2_eid_match() - the EID of a version 2 link group
 * @prop: the client's Proposal, with its user EIDs
 * @ueids: the server's user EIDs, @ueid_cnt times SMC_EID_LEN bytes
 * @ueid_cnt: entries of @ueids
 * @eid: set to the match
 *
 * The first user EID in the client's order that the server has too.
 *
 * Return: 0, or -ENOENT if there is none (Decline with NOUEID).
 */
int smc_clc_v2_eid_match(const struct smc_clc_proposal_info *prop,
			 const u8 *ueids, int ueid_cnt,
			 u8 eid[SMC_EID_LEN])
{
	int i, j;

	for (i = 0; i < prop->eid_cnt; i++)
		for (j = 0; j < ueid_cnt; j++)
			if (!memcmp(prop->eids[i], ueids + j * SMC_EID_LEN,
				    SMC_EID_LEN)) {
				memcpy(eid, prop->eids[i], SMC_EID_LEN);
				return 0;
			}
	return -ENOENT;
}

/* Release 0 negotiates no limits: the most connections, our links */
static void smc_clc_v2_release0(const struct smc_clc_v2_limits *ours,
				struct smc_clc_v2_limits *out)
{
	out->release = 0;
	out->max_conns = SMC_CLC_MAX_CONNS;
	out->max_links = ours->max_links;
}

/**
 * smc_clc_v2_server_limits() - the server's choice for a version 2 Accept
 * @prop: the client's Proposal (its v2 extension)
 * @ours: the server's release and limits
 * @out: the release and limits of the link group
 *
 * Return: 0, or the Decline code: MAXCONNERR if fewer than 16
 * connections, MAXLINKERR if no link would be allowed.
 */
u32 smc_clc_v2_server_limits(const struct smc_clc_proposal_info *prop,
			     const struct smc_clc_v2_limits *ours,
			     struct smc_clc_v2_limits *out)
{
	if (!min(prop->release, ours->release)) {
		smc_clc_v2_release0(ours, out);
		return 0;
	}
	out->release = min(prop->release, ours->release);
	out->max_conns = min(prop->max_conns, ours->max_conns);
	if (out->max_conns < SMC_CLC_MAX_CONNS_MIN)
		return SMC_CLC_DECL_MAXCONNERR;
	out->max_links = min(prop->max_links, ours->max_links);
	if (out->max_links < SMC_CLC_MAX_LINKS_MIN)
		return SMC_CLC_DECL_MAXLINKERR;
	return 0;
}

/**
 * smc_clc_v2_client_limits() - check the server's choice in its Accept
 * @acc: the Accept's first contact extension
 * @ours: what the client proposed
 * @out: the release and limits of the link group
 *
 * Return: 0, or the Decline code: RELEASEERR for a release above ours,
 * MAXCONNERR / MAXLINKERR for limits below the minimum or above what we
 * proposed.
 */
u32 smc_clc_v2_client_limits(const struct smc_clc_v2_info *acc,
			     const struct smc_clc_v2_limits *ours,
			     struct smc_clc_v2_limits *out)
{
	if (acc->release > ours->release)
		return SMC_CLC_DECL_RELEASEERR;
	if (!acc->release) {
		smc_clc_v2_release0(ours, out);
		return 0;
	}
	if (acc->max_conns < SMC_CLC_MAX_CONNS_MIN ||
	    acc->max_conns > ours->max_conns)
		return SMC_CLC_DECL_MAXCONNERR;
	if (acc->max_links < SMC_CLC_MAX_LINKS_MIN ||
	    acc->max_links > ours->max_links)
		return SMC_CLC_DECL_MAXLINKERR;
	out->release = acc->release;
	out->max_conns = acc->max_conns;
	out->max_links = acc->max_links;
	return 0;
}

/**
 * smc_clc_v2_confirm_check() - does the client's Confirm echo the Accept?
 * @conf: the Confirm's first contact extension
 * @agreed: what the server's Accept named
 *
 * Return: 0, or the Decline code: RELEASEERR, MAXCONNERR or MAXLINKERR.
 */
u32 smc_clc_v2_confirm_check(const struct smc_clc_v2_info *conf,
			     const struct smc_clc_v2_limits *agreed)
{
	if (conf->release != agreed->release)
		return SMC_CLC_DECL_RELEASEERR;
	if (!conf->release)
		return 0;
	if (conf->max_conns != agreed->max_conns)
		return SMC_CLC_DECL_MAXCONNERR;
	if (conf->max_links != agreed->max_links)
		return SMC_CLC_DECL_MAXLINKERR;
	return 0;
}
