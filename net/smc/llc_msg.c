// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: LLC message encoding and validation (RFC 7609, Appendix A.3), and
 * the serialization rules of 3.5.5.3 as tables.
 *
 * Pure functions on caller buffers and constant tables: no allocation, no
 * QPs. smc_llc_msg_parse() checks a received message completely before any
 * field of it is used and never reads beyond its 44 bytes.
 *
 * What smc_llc_msg_parse() validates:
 *
 * - type, byte 0: class b'11' (CDC) and the undefined class b'01' are
 *   malformed; class b'10' (optional, A.3) gives -EOPNOTSUPP, since smcr
 *   implements no optional type and the engine must discard it silently.
 *   An unknown type of class b'00' is malformed. Linux's REQ ADD LINK and
 *   its SMC-R v2 types (0x2X, variable length) are known but not
 *   supported: -EOPNOTSUPP, before any length check. REQ ADD LINK exists
 *   only in version 2 link groups: smc_llc_msg_parse_unwrapped() takes its
 *   version 1 form (a GID count of at least 1 in byte 24).
 * - length: the buffer must hold 44 bytes and the length byte must be 44
 *   (bytes received beyond 44 are not part of the message and ignored).
 * - flags, byte 3: R in every type; otherwise only the bits the type
 *   defines for its request or its reply flavor (smc_llc_types[]). Bits
 *   the RFC reserves are malformed, except the two "no RMBE eye catcher"
 *   bits Linux sets in CONFIRM LINK. Flags of the reply flavor on a
 *   request (Z, C) are malformed, and so is A (delete the link group) on
 *   a DELETE LINK reply: that request has no reply. C without Z too.
 * - byte 2: zero, except the reject reason of an ADD LINK reply with Z,
 *   which must be 1..15 in the low nibble.
 * - counts: CONFIRM RKEY NumTkns <= 7 (8 links, A.3.5, less the carrying
 *   one); CONFIRM RKEY CONTINUATION NumTknsLeft 1..5 (7 less the 2 of
 *   CONFIRM RKEY); DELETE RKEY Count 1..8, its error mask only with Z and
 *   only for listed RKeys. ADD LINK CONTINUATION may announce up to 255
 *   pairs (2 per message) and may be empty (A.3.3).
 *
 * Not validated: reserved bytes of the body (Linux puts its max_conns in
 * byte 35 of CONFIRM LINK; A.3 says to pad with zeros, which is what the
 * builders do), the RToken slots beyond a count, reason codes, the ADD
 * LINK MTU (a bad one is answered with a reject, reason 2), link numbers
 * and anything else that needs the link group's state: the engine checks
 * those, smc_llc_msg_check_sender() checks the role and link state.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <smcr/llc.h>

/* RToken counts: 8 links, one carries the message, CONFIRM RKEY holds 2 */
#define SMC_LLC_CONFIRM_RKEY_MAX_TKNS	(SMC_LLC_MAX_LINKS - 1)
#define SMC_LLC_CONFIRM_RKEY_CONT_MAX	(SMC_LLC_CONFIRM_RKEY_MAX_TKNS - \
					 SMC_LLC_CONFIRM_RKEY_OTHERS)

#define SMC_LLC_ST_ACTIVATING	BIT(SMC_LLC_LINK_ACTIVATING)
#define SMC_LLC_ST_ACTIVE	BIT(SMC_LLC_LINK_ACTIVE)

#define SMC_LLC_UNSUPPORTED(t, n) { .type = (t), .name = (n) }

/*
 * Message type -> flavors, senders, link states, flow (RFC 7609 3.3,
 * 3.5.1.5, 3.5.5, A.3). CONFIRM LINK flows on the link being confirmed,
 * before it is active; everything else on an active link. DELETE LINK is
 * also taken on a link still being confirmed: it names its link and may
 * come on any link.
 */
static const struct smc_llc_type_desc smc_llc_types[] = {
	{
		.type = SMC_LLC_CONFIRM_LINK, .name = "CONFIRM LINK",
		.supported = true,
		.flags_req = SMC_LLC_FLAG_NO_RMBE_EYEC,
		.flags_resp = SMC_LLC_FLAG_NO_RMBE_EYEC,
		.req_from = SMC_LLC_ROLE_SERV, .resp_from = SMC_LLC_ROLE_CLNT,
		.states = SMC_LLC_ST_ACTIVATING,
		.flow = SMC_LLC_FLOW_ADD_LINK,
	}, {
		/* a client's request is a hint that gets no reply (3.5.5.1.2) */
		.type = SMC_LLC_ADD_LINK, .name = "ADD LINK",
		.supported = true,
		.flags_resp = SMC_LLC_FLAG_ADD_LINK_REJ,
		.req_from = SMC_LLC_ROLE_BOTH, .resp_from = SMC_LLC_ROLE_CLNT,
		.states = SMC_LLC_ST_ACTIVE,
		.flow = SMC_LLC_FLOW_ADD_LINK,
	}, {
		/* the server asks, the client answers (A.3.3) */
		.type = SMC_LLC_ADD_LINK_CONT, .name = "ADD LINK CONTINUATION",
		.supported = true,
		.req_from = SMC_LLC_ROLE_SERV, .resp_from = SMC_LLC_ROLE_CLNT,
		.states = SMC_LLC_ST_ACTIVE,
		.flow = SMC_LLC_FLOW_ADD_LINK,
	}, {
		/* a client's request is a notification: the server answers
		 * with its own request (3.5.5.1.4); A has no reply
		 */
		.type = SMC_LLC_DELETE_LINK, .name = "DELETE LINK",
		.supported = true,
		.flags_req = SMC_LLC_FLAG_DEL_LINK_ALL |
			     SMC_LLC_FLAG_DEL_LINK_ORDERLY,
		.flags_resp = SMC_LLC_FLAG_DEL_LINK_ORDERLY,
		.req_from = SMC_LLC_ROLE_BOTH, .resp_from = SMC_LLC_ROLE_CLNT,
		.states = SMC_LLC_ST_ACTIVATING | SMC_LLC_ST_ACTIVE,
		.flow = SMC_LLC_FLOW_DEL_LINK,
	},
	{
		/* Linux's, version 2 link groups only (0x25 there): a
		 * client asks the server for a link; the server answers
		 * with an ADD LINK flow or, when none comes of it, with the
		 * reply, which smcr, a client that never asks, drops as
		 * unsolicited. Its version 2 form lists the client's GIDs:
		 * the count (at least 1) in byte 24 of the 44 bytes, the
		 * GIDs from byte 28, 16 bytes each, the last within the
		 * message (smc_llc_v2_unwrap()). Answered on receipt.
		 */
		.type = SMC_LLC_REQ_ADD_LINK, .name = "REQ ADD LINK",
		.supported = true, .v2_only = true,
		.req_from = SMC_LLC_ROLE_CLNT, .resp_from = SMC_LLC_ROLE_SERV,
		.states = SMC_LLC_ST_ACTIVE,
		.flow = SMC_LLC_FLOW_ADD_LINK,
	},
	{
		.type = SMC_LLC_CONFIRM_RKEY, .name = "CONFIRM RKEY",
		.supported = true,
		.flags_resp = SMC_LLC_FLAG_RKEY_NEG | SMC_LLC_FLAG_RKEY_RETRY,
		.req_from = SMC_LLC_ROLE_BOTH, .resp_from = SMC_LLC_ROLE_BOTH,
		.states = SMC_LLC_ST_ACTIVE,
		.flow = SMC_LLC_FLOW_RKEY,
	}, {
		.type = SMC_LLC_TEST_LINK, .name = "TEST LINK",
		.supported = true,
		.req_from = SMC_LLC_ROLE_BOTH, .resp_from = SMC_LLC_ROLE_BOTH,
		.states = SMC_LLC_ST_ACTIVE,
		.flow = SMC_LLC_FLOW_NONE,
	}, {
		.type = SMC_LLC_CONFIRM_RKEY_CONT,
		.name = "CONFIRM RKEY CONTINUATION",
		.supported = true,
		.flags_resp = SMC_LLC_FLAG_RKEY_NEG,
		.req_from = SMC_LLC_ROLE_BOTH, .resp_from = SMC_LLC_ROLE_BOTH,
		.states = SMC_LLC_ST_ACTIVE,
		.flow = SMC_LLC_FLOW_RKEY,
	}, {
		.type = SMC_LLC_DELETE_RKEY, .name = "DELETE RKEY",
		.supported = true,
		.flags_resp = SMC_LLC_FLAG_RKEY_NEG,
		.req_from = SMC_LLC_ROLE_BOTH, .resp_from = SMC_LLC_ROLE_BOTH,
		.states = SMC_LLC_ST_ACTIVE,
		.flow = SMC_LLC_FLOW_RKEY,
	},
	SMC_LLC_UNSUPPORTED(SMC_LLC_CONFIRM_LINK_V2, "CONFIRM LINK v2"),
	SMC_LLC_UNSUPPORTED(SMC_LLC_ADD_LINK_V2, "ADD LINK v2"),
	SMC_LLC_UNSUPPORTED(SMC_LLC_DELETE_LINK_V2, "DELETE LINK v2"),
	SMC_LLC_UNSUPPORTED(SMC_LLC_REQ_ADD_LINK_V2, "REQ ADD LINK v2"),
	SMC_LLC_UNSUPPORTED(SMC_LLC_CONFIRM_RKEY_V2, "CONFIRM RKEY v2"),
	SMC_LLC_UNSUPPORTED(SMC_LLC_TEST_LINK_V2, "TEST LINK v2"),
	SMC_LLC_UNSUPPORTED(SMC_LLC_DELETE_RKEY_V2, "DELETE RKEY v2"),
};

/* smcr's choice: the RFC names actions for collisions only */
#define OWN(a)		{ .action = SMC_LLC_ACT_##a, .rfc = false }
/* RFC 7609 3.5.5.3 names this action for the case */
#define RFC(a)		{ .action = SMC_LLC_ACT_##a, .rfc = true }
/* RFC 7609 3.5.5.3 names another action for the case: smcr's, on purpose */
#define DEV(a)		{ .action = SMC_LLC_ACT_##a, .rfc = true, .deviates = true }

/*
 * The collision table (RFC 7609 3.5.5.3): (flow of ours in progress,
 * request from the peer) -> action; smc_llc_handle() runs it with the
 * link group's llc_flow. A row exists for each flow smcr runs, with a
 * cell for each request: a cell left out is SMC_LLC_ACT_UNDEFINED, which
 * the lookup refuses and the KUnit suite finds (llc_collision_complete).
 * RFC() marks a cell a statement of 3.5.5.3 names; the KUnit case
 * llc_collision_table checks each against the RFC's text, quoted there,
 * and llc_collision_own the OWN() cells against smcr's choices. DEV()
 * marks a cell the RFC names where smcr does otherwise, for a reason
 * written below; llc_collision_table checks it against its own list.
 * Every row answers TEST LINK at once (it is answered on receipt and
 * never looked up).
 *
 * SMC_LLC_FLOW_NONE: nothing collides, every request is handled, DELETE
 * LINK of all links ends the link group.
 *
 * SMC_LLC_FLOW_RKEY, our CONFIRM RKEY or DELETE RKEY exchange
 * (3.5.5.3.3): the peer's own RKey exchanges are independent (3.5.5.3,
 * "do not represent a collision"); the server's ADD LINK or DELETE LINK
 * of one link wins - handled now, and the server answers our exchange
 * negatively; the client's ADD LINK or DELETE LINK of one link and a
 * CONFIRM LINK wait until our exchange is complete.
 *
 * SMC_LLC_FLOW_ADD_LINK, adding a link (3.5.5.3.1), the server's flow
 * that the client joins: the client's ADD LINK crossed the server's and
 * is answered by it; the client's DELETE LINK of one link waits. The RFC
 * has the client's CONFIRM RKEY refused with C, to be redone naming the
 * new link; smcr's server confirms it at once instead (DEV). Linux's
 * client holds its exchange as a flow of its own: it handles our ADD
 * LINK only once that is answered, and it takes any negative reply as a
 * failure (the connection falls back, ERR_REGBUF); held until our flow
 * ends, the request would leave each side waiting for the other. The
 * new link's RToken of that RMB comes with the RKey pairs of the
 * client's answer: Linux's name every RMB in use, smcr's every
 * confirmed one, and both answer only after the exchange (smcr's
 * client joins our flow once its exchange released the flow mutex). A
 * client that did not name it would leave the RMB without an RToken on
 * the new link: its connections could not move there (failover.c). A
 * client done with its part of the flow has the new link active, and
 * its CONFIRM RKEY names it (or comes on it) before our end of the flow
 * made it active: that one waits for the flow's end (PROCESS_KNOWN),
 * which is near - no reply that a C would have had redone. The
 * RFC names no action for DELETE RKEY: it waits ("RKeys cannot change
 * while links are being added"). On the client the flow runs in the LLC
 * work, so the server's requests wait behind it anyway; the cells for
 * them say so.
 *
 * SMC_LLC_FLOW_DEL_LINK, deleting one link (3.5.5.3.2): the client's ADD
 * LINK and DELETE LINK of one link wait, DELETE LINK of the link group
 * ends it at once, a CONFIRM RKEY is refused with C. The others are
 * smcr's choice, as for adding a link.
 */
static const struct smc_llc_collision
smc_llc_collisions[][SMC_LLC_EV_CNT] = {
	[SMC_LLC_FLOW_NONE] = {
		[SMC_LLC_EV_TEST_LINK]		= OWN(REPLY),
		[SMC_LLC_EV_CONFIRM_LINK]	= OWN(PROCESS),
		[SMC_LLC_EV_ADD_LINK_CLNT]	= OWN(PROCESS),
		[SMC_LLC_EV_ADD_LINK_SERV]	= OWN(PROCESS),
		[SMC_LLC_EV_DEL_LINK_CLNT_ONE]	= OWN(PROCESS),
		[SMC_LLC_EV_DEL_LINK_CLNT_ALL]	= OWN(TERMINATE),
		[SMC_LLC_EV_DEL_LINK_SERV_ONE]	= OWN(PROCESS),
		[SMC_LLC_EV_DEL_LINK_SERV_ALL]	= OWN(TERMINATE),
		[SMC_LLC_EV_CONFIRM_RKEY]	= OWN(PROCESS),
		[SMC_LLC_EV_DELETE_RKEY]	= OWN(PROCESS),
	},
	[SMC_LLC_FLOW_ADD_LINK] = {
		[SMC_LLC_EV_TEST_LINK]		= RFC(REPLY),
		[SMC_LLC_EV_CONFIRM_LINK]	= OWN(QUEUE),
		[SMC_LLC_EV_ADD_LINK_CLNT]	= RFC(IGNORE),
		[SMC_LLC_EV_ADD_LINK_SERV]	= OWN(QUEUE),
		[SMC_LLC_EV_DEL_LINK_CLNT_ONE]	= RFC(QUEUE),
		[SMC_LLC_EV_DEL_LINK_CLNT_ALL]	= RFC(TERMINATE),
		[SMC_LLC_EV_DEL_LINK_SERV_ONE]	= OWN(QUEUE),
		[SMC_LLC_EV_DEL_LINK_SERV_ALL]	= OWN(TERMINATE),
		[SMC_LLC_EV_CONFIRM_RKEY]	= DEV(PROCESS_KNOWN),
		[SMC_LLC_EV_DELETE_RKEY]	= OWN(QUEUE),
	},
	[SMC_LLC_FLOW_DEL_LINK] = {
		[SMC_LLC_EV_TEST_LINK]		= RFC(REPLY),
		[SMC_LLC_EV_CONFIRM_LINK]	= OWN(QUEUE),
		[SMC_LLC_EV_ADD_LINK_CLNT]	= RFC(QUEUE),
		[SMC_LLC_EV_ADD_LINK_SERV]	= OWN(QUEUE),
		[SMC_LLC_EV_DEL_LINK_CLNT_ONE]	= RFC(QUEUE),
		[SMC_LLC_EV_DEL_LINK_CLNT_ALL]	= RFC(TERMINATE),
		[SMC_LLC_EV_DEL_LINK_SERV_ONE]	= OWN(QUEUE),
		[SMC_LLC_EV_DEL_LINK_SERV_ALL]	= RFC(TERMINATE),
		[SMC_LLC_EV_CONFIRM_RKEY]	= RFC(REJECT),
		[SMC_LLC_EV_DELETE_RKEY]	= OWN(QUEUE),
	},
	[SMC_LLC_FLOW_RKEY] = {
		[SMC_LLC_EV_TEST_LINK]		= RFC(REPLY),
		[SMC_LLC_EV_CONFIRM_LINK]	= RFC(QUEUE),
		[SMC_LLC_EV_ADD_LINK_CLNT]	= RFC(QUEUE),
		[SMC_LLC_EV_ADD_LINK_SERV]	= RFC(YIELD),
		[SMC_LLC_EV_DEL_LINK_CLNT_ONE]	= RFC(QUEUE),
		[SMC_LLC_EV_DEL_LINK_CLNT_ALL]	= RFC(TERMINATE),
		[SMC_LLC_EV_DEL_LINK_SERV_ONE]	= RFC(YIELD),
		[SMC_LLC_EV_DEL_LINK_SERV_ALL]	= RFC(TERMINATE),
		[SMC_LLC_EV_CONFIRM_RKEY]	= RFC(PROCESS),
		[SMC_LLC_EV_DELETE_RKEY]	= RFC(PROCESS),
	},
};

/* a row for every flow; llc_collision_complete checks every cell */
static_assert(ARRAY_SIZE(smc_llc_collisions) == SMC_LLC_FLOW_CNT);

#undef OWN
#undef RFC
#undef DEV

/**
 * smc_llc_msg_type_desc() - look up what smcr knows about an LLC type
 * @type: byte 0 of a message
 *
 * Return: the entry of the type table, or NULL for an unknown type.
 */
const struct smc_llc_type_desc *smc_llc_msg_type_desc(u8 type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(smc_llc_types); i++)
		if (smc_llc_types[i].type == type)
			return &smc_llc_types[i];
	return NULL;
}

/**
 * smc_llc_msg_type_optional() - is this an optional LLC type (A.3, b'10')
 * @type: byte 0 of a message
 *
 * A receiver that does not support an optional type discards the message
 * silently; smcr supports none.
 *
 * Return: true if the two high-order bits of @type are b'10'.
 */
bool smc_llc_msg_type_optional(u8 type)
{
	return (type & SMC_LLC_TYPE_CLASS_MASK) == SMC_LLC_TYPE_CLASS_OPTIONAL;
}

static void smc_llc_rtoken_get(struct smc_llc_rtoken_info *info,
			       const struct smc_llc_rtoken *rt)
{
	info->link_num = rt->link_num;
	info->rkey = be32_to_cpu(rt->rkey);
	info->vaddr = be64_to_cpu(rt->vaddr);
}

static void smc_llc_rtoken_put(struct smc_llc_rtoken *rt,
			       const struct smc_llc_rtoken_info *info)
{
	rt->link_num = info->link_num;
	rt->rkey = cpu_to_be32(info->rkey);
	rt->vaddr = cpu_to_be64(info->vaddr);
}

static void smc_llc_parse_confirm_link(const union smc_llc_msg *msg,
				       struct smc_llc_msg_info *info)
{
	const struct smc_llc_confirm_link *cl = &msg->confirm_link;
	struct smc_llc_confirm_link_info *out = &info->confirm_link;

	memcpy(out->mac, cl->sender_mac, SMC_MAC_LEN);
	memcpy(out->gid, cl->sender_gid, SMC_GID_LEN);
	out->qpn = smc_clc_get24(cl->sender_qpn);
	out->link_num = cl->link_num;
	memcpy(out->link_uid, cl->link_uid, SMC_LLC_LINK_UID_LEN);
	out->max_links = cl->max_links;
	/* Linux tests for either bit (smc_llc_eval_conf_link()) */
	out->no_rmbe_eyec = !!(cl->hdr.flags & SMC_LLC_FLAG_NO_RMBE_EYEC);
}

static int smc_llc_parse_add_link(const union smc_llc_msg *msg,
				  struct smc_llc_msg_info *info)
{
	const struct smc_llc_add_link *al = &msg->add_link;
	struct smc_llc_add_link_info *out = &info->add_link;
	u8 rsn = al->hdr.add_link_rsn;

	out->reject = !!(al->hdr.flags & SMC_LLC_FLAG_ADD_LINK_REJ);
	if (out->reject) {
		if (rsn & ~SMC_LLC_ADD_LINK_RSN_MASK || !rsn)
			return -EPROTO;
		out->reject_rsn = rsn;
	} else if (rsn) {
		return -EPROTO;
	}
	memcpy(out->mac, al->sender_mac, SMC_MAC_LEN);
	memcpy(out->gid, al->sender_gid, SMC_GID_LEN);
	out->qpn = smc_clc_get24(al->sender_qpn);
	out->link_num = al->link_num;
	out->mtu = al->mtu_byte & SMC_LLC_MTU_MASK;
	out->psn = smc_clc_get24(al->initial_psn);
	return 0;
}

/**
 * smc_llc_msg_rkey_pairs_get() - RKey pairs (A.3.3) from the wire
 * @w: @n pairs as sent
 * @out: @n pairs in host order
 * @n: how many
 */
void smc_llc_msg_rkey_pairs_get(const struct smc_llc_rkey_pair *w,
				struct smc_llc_rkey_pair_info *out,
				unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		out[i].ref_rkey = be32_to_cpu(w[i].ref_rkey);
		out[i].new_rkey = be32_to_cpu(w[i].new_rkey);
		out[i].new_vaddr = be64_to_cpu(w[i].new_vaddr);
	}
}

/**
 * smc_llc_msg_rkey_pairs_put() - RKey pairs (A.3.3) to the wire
 * @in: @n pairs in host order
 * @w: @n pairs as sent
 * @n: how many
 */
void smc_llc_msg_rkey_pairs_put(const struct smc_llc_rkey_pair_info *in,
				struct smc_llc_rkey_pair *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		w[i].ref_rkey = cpu_to_be32(in[i].ref_rkey);
		w[i].new_rkey = cpu_to_be32(in[i].new_rkey);
		w[i].new_vaddr = cpu_to_be64(in[i].new_vaddr);
	}
}

static void smc_llc_parse_add_link_cont(const union smc_llc_msg *msg,
					struct smc_llc_msg_info *info)
{
	const struct smc_llc_add_link_cont *ac = &msg->add_link_cont;
	struct smc_llc_add_link_cont_info *out = &info->add_link_cont;

	out->link_num = ac->link_num;
	out->num_rkeys = ac->num_rkeys;
	smc_llc_msg_rkey_pairs_get(ac->pairs, out->pairs,
				   min_t(unsigned int, ac->num_rkeys,
					 SMC_LLC_ADD_LINK_CONT_PAIRS));
}

static void smc_llc_parse_delete_link(const union smc_llc_msg *msg,
				      struct smc_llc_msg_info *info)
{
	const struct smc_llc_delete_link *dl = &msg->delete_link;
	struct smc_llc_delete_link_info *out = &info->delete_link;

	out->all = !!(dl->hdr.flags & SMC_LLC_FLAG_DEL_LINK_ALL);
	out->orderly = !!(dl->hdr.flags & SMC_LLC_FLAG_DEL_LINK_ORDERLY);
	/* "If the A flag is set, this field has no meaning" */
	out->link_num = out->all ? 0 : dl->link_num;
	out->reason = be32_to_cpu(dl->reason);
}

static int smc_llc_parse_confirm_rkey(const union smc_llc_msg *msg,
				      struct smc_llc_msg_info *info)
{
	const struct smc_llc_confirm_rkey *cr = &msg->confirm_rkey;
	struct smc_llc_confirm_rkey_info *out = &info->confirm_rkey;
	unsigned int i, n;

	out->negative = !!(cr->hdr.flags & SMC_LLC_FLAG_RKEY_NEG);
	out->retry = !!(cr->hdr.flags & SMC_LLC_FLAG_RKEY_RETRY);
	if (out->retry && !out->negative)
		return -EPROTO;
	out->num_tkns = cr->rt[0].link_num;
	if (out->num_tkns > SMC_LLC_CONFIRM_RKEY_MAX_TKNS)
		return -EPROTO;
	out->rkey = be32_to_cpu(cr->rt[0].rkey);
	out->vaddr = be64_to_cpu(cr->rt[0].vaddr);
	n = min_t(unsigned int, out->num_tkns, SMC_LLC_CONFIRM_RKEY_OTHERS);
	for (i = 0; i < n; i++)
		smc_llc_rtoken_get(&out->others[i], &cr->rt[1 + i]);
	return 0;
}

static int smc_llc_parse_confirm_rkey_cont(const union smc_llc_msg *msg,
					   struct smc_llc_msg_info *info)
{
	const struct smc_llc_confirm_rkey_cont *cc = &msg->confirm_rkey_cont;
	struct smc_llc_confirm_rkey_cont_info *out = &info->confirm_rkey_cont;
	unsigned int i, n;

	out->negative = !!(cc->hdr.flags & SMC_LLC_FLAG_RKEY_NEG);
	out->num_left = cc->num_left;
	if (!out->num_left || out->num_left > SMC_LLC_CONFIRM_RKEY_CONT_MAX)
		return -EPROTO;
	n = min_t(unsigned int, out->num_left, SMC_LLC_CONFIRM_RKEY_CONT_TKNS);
	for (i = 0; i < n; i++)
		smc_llc_rtoken_get(&out->rt[i], &cc->rt[i]);
	return 0;
}

/* Error mask bits of the first @count RKeys: 0x80 is the first */
static u8 smc_llc_delete_rkey_mask(unsigned int count)
{
	return (u8)(0xff00 >> count);
}

static int smc_llc_parse_delete_rkey(const union smc_llc_msg *msg,
				     struct smc_llc_msg_info *info)
{
	const struct smc_llc_delete_rkey *dr = &msg->delete_rkey;
	struct smc_llc_delete_rkey_info *out = &info->delete_rkey;
	unsigned int i;

	out->negative = !!(dr->hdr.flags & SMC_LLC_FLAG_RKEY_NEG);
	out->count = dr->count;
	out->err_mask = dr->err_mask;
	if (!out->count || out->count > SMC_LLC_DELETE_RKEY_MAX)
		return -EPROTO;
	if (out->err_mask & ~smc_llc_delete_rkey_mask(out->count))
		return -EPROTO;
	if (out->err_mask && !out->negative)
		return -EPROTO;
	for (i = 0; i < out->count; i++)
		out->rkeys[i] = be32_to_cpu(dr->rkey[i]);
	return 0;
}

/* The GID count of a REQ ADD LINK: its GIDs come after the 44 bytes */
static int smc_llc_parse_req_add_link(const void *buf)
{
	const struct smc_llc_v2_req_add_link *req = buf;

	return req->gid_cnt ? 0 : -EPROTO;
}

static int smc_llc_parse_framed(const void *buf, size_t len,
				struct smc_llc_msg_info *info, bool v2)
{
	const union smc_llc_msg *msg = buf;
	const struct smc_llc_type_desc *desc;
	u8 type, flags, allowed;

	memset(info, 0, sizeof(*info));
	if (len < sizeof(struct smc_llc_hdr))
		return -EPROTO;
	type = msg->hdr.type;
	info->type = type;
	if (smc_llc_msg_type_optional(type))
		return -EOPNOTSUPP;
	if ((type & SMC_LLC_TYPE_CLASS_MASK) != SMC_LLC_TYPE_CLASS_MANDATORY)
		return -EPROTO;
	desc = smc_llc_msg_type_desc(type);
	if (!desc)
		return -EPROTO;
	if (!desc->supported || (desc->v2_only && !v2))
		return -EOPNOTSUPP;
	if (len < SMC_LLC_MSG_LEN || msg->hdr.length != SMC_LLC_MSG_LEN)
		return -EPROTO;

	flags = msg->hdr.flags;
	info->response = !!(flags & SMC_LLC_FLAG_RESP);
	if (info->response && !desc->resp_from)
		return -EPROTO;
	allowed = info->response ? desc->flags_resp : desc->flags_req;
	if (flags & ~(SMC_LLC_FLAG_RESP | allowed))
		return -EPROTO;
	if (type != SMC_LLC_ADD_LINK && msg->hdr.add_link_rsn)
		return -EPROTO;

	switch (type) {
	case SMC_LLC_CONFIRM_LINK:
		smc_llc_parse_confirm_link(msg, info);
		return 0;
	case SMC_LLC_ADD_LINK:
		return smc_llc_parse_add_link(msg, info);
	case SMC_LLC_ADD_LINK_CONT:
		smc_llc_parse_add_link_cont(msg, info);
		return 0;
	case SMC_LLC_DELETE_LINK:
		smc_llc_parse_delete_link(msg, info);
		return 0;
	case SMC_LLC_CONFIRM_RKEY:
		return smc_llc_parse_confirm_rkey(msg, info);
	case SMC_LLC_CONFIRM_RKEY_CONT:
		return smc_llc_parse_confirm_rkey_cont(msg, info);
	case SMC_LLC_DELETE_RKEY:
		return smc_llc_parse_delete_rkey(msg, info);
	case SMC_LLC_REQ_ADD_LINK:
		return smc_llc_parse_req_add_link(buf);
	case SMC_LLC_TEST_LINK:
		memcpy(info->test_link.user_data, msg->test_link.user_data,
		       SMC_LLC_TEST_DATA_LEN);
		return 0;
	default:
		return -EPROTO;	/* a supported type without a parser */
	}
}

/**
 * smc_llc_msg_parse() - validate and decode a received LLC message
 * @buf: the received bytes
 * @len: how many were received
 * @info: filled with the decoded message; zeroed first, so entries beyond
 *	a count are 0. On -EOPNOTSUPP only @info->type is set.
 *
 * Checks the common header (type, length, flags, byte 2), then the body
 * of the type; see the top of this file for the rules.
 *
 * Return: 0 on success; -EOPNOTSUPP for an optional type (discard it
 * silently) or a type smcr knows but does not implement (Linux's SMC-R v2
 * types, REQ ADD LINK); -EPROTO if the message is malformed.
 */
int smc_llc_msg_parse(const void *buf, size_t len,
		      struct smc_llc_msg_info *info)
{
	return smc_llc_parse_framed(buf, len, info, false);
}

/**
 * smc_llc_msg_parse_unwrapped() - smc_llc_msg_parse() for a version 2 message
 * @buf: the version 1 form smc_llc_v2_unwrap() made of it
 * @len: its length, SMC_LLC_MSG_LEN
 * @info: as for smc_llc_msg_parse()
 *
 * The same rules, and the types of version 2 link groups only (the type
 * table's v2_only: REQ ADD LINK) are taken too.
 *
 * Return: as smc_llc_msg_parse().
 */
int smc_llc_msg_parse_unwrapped(const void *buf, size_t len,
				struct smc_llc_msg_info *info)
{
	return smc_llc_parse_framed(buf, len, info, true);
}

static void smc_llc_hdr_init(union smc_llc_msg *msg, u8 type, u8 flags,
			     bool response)
{
	memset(msg, 0, sizeof(*msg));
	msg->hdr.type = type;
	msg->hdr.length = SMC_LLC_MSG_LEN;
	msg->hdr.flags = flags | (response ? SMC_LLC_FLAG_RESP : 0);
}

/**
 * smc_llc_msg_confirm_link_build() - encode a CONFIRM LINK (A.3.1)
 * @msg: buffer to fill, all 44 bytes
 * @info: the fields; @info->no_rmbe_eyec sets Linux's two flag bits
 * @response: encode the reply (the client's)
 *
 * Return: 0, or -EINVAL if @info->qpn does not fit 24 bits.
 */
int smc_llc_msg_confirm_link_build(union smc_llc_msg *msg,
				   const struct smc_llc_confirm_link_info *info,
				   bool response)
{
	struct smc_llc_confirm_link *cl = &msg->confirm_link;

	if (info->qpn > SMC_CLC_U24_MAX)
		return -EINVAL;
	smc_llc_hdr_init(msg, SMC_LLC_CONFIRM_LINK,
			 info->no_rmbe_eyec ? SMC_LLC_FLAG_NO_RMBE_EYEC : 0,
			 response);
	memcpy(cl->sender_mac, info->mac, SMC_MAC_LEN);
	memcpy(cl->sender_gid, info->gid, SMC_GID_LEN);
	smc_clc_put24(cl->sender_qpn, info->qpn);
	cl->link_num = info->link_num;
	memcpy(cl->link_uid, info->link_uid, SMC_LLC_LINK_UID_LEN);
	cl->max_links = info->max_links;
	return 0;
}

/**
 * smc_llc_msg_add_link_build() - encode an ADD LINK (A.3.2, Linux's layout)
 * @msg: buffer to fill, all 44 bytes
 * @info: the fields; @info->reject and @info->reject_rsn for a reject
 * @response: encode the reply (the client's)
 *
 * Return: 0, or -EINVAL if a field is out of range (QP number or PSN
 * beyond 24 bits, MTU code beyond 4 bits), a reject is not a reply or
 * lacks a reason (1..15), or a reason is given without a reject.
 */
int smc_llc_msg_add_link_build(union smc_llc_msg *msg,
			       const struct smc_llc_add_link_info *info,
			       bool response)
{
	struct smc_llc_add_link *al = &msg->add_link;

	if (info->qpn > SMC_CLC_U24_MAX || info->psn > SMC_CLC_U24_MAX ||
	    info->mtu > SMC_LLC_MTU_MASK)
		return -EINVAL;
	if (info->reject) {
		if (!response || !info->reject_rsn ||
		    info->reject_rsn > SMC_LLC_ADD_LINK_RSN_MASK)
			return -EINVAL;
	} else if (info->reject_rsn) {
		return -EINVAL;
	}
	smc_llc_hdr_init(msg, SMC_LLC_ADD_LINK,
			 info->reject ? SMC_LLC_FLAG_ADD_LINK_REJ : 0,
			 response);
	al->hdr.add_link_rsn = info->reject_rsn;
	memcpy(al->sender_mac, info->mac, SMC_MAC_LEN);
	memcpy(al->sender_gid, info->gid, SMC_GID_LEN);
	smc_clc_put24(al->sender_qpn, info->qpn);
	al->link_num = info->link_num;
	al->mtu_byte = info->mtu;
	smc_clc_put24(al->initial_psn, info->psn);
	return 0;
}

/**
 * smc_llc_msg_add_link_cont_build() - encode an ADD LINK CONTINUATION (A.3.3)
 * @msg: buffer to fill, all 44 bytes
 * @info: link number, pairs left (including these) and up to 2 pairs;
 *	the first min(@info->num_rkeys, 2) pairs are encoded
 * @response: encode the reply (the client's)
 *
 * Return: 0.
 */
int smc_llc_msg_add_link_cont_build(union smc_llc_msg *msg,
				    const struct smc_llc_add_link_cont_info *info,
				    bool response)
{
	struct smc_llc_add_link_cont *ac = &msg->add_link_cont;

	smc_llc_hdr_init(msg, SMC_LLC_ADD_LINK_CONT, 0, response);
	ac->link_num = info->link_num;
	ac->num_rkeys = info->num_rkeys;
	smc_llc_msg_rkey_pairs_put(info->pairs, ac->pairs,
				   min_t(unsigned int, info->num_rkeys,
					 SMC_LLC_ADD_LINK_CONT_PAIRS));
	return 0;
}

/**
 * smc_llc_msg_delete_link_build() - encode a DELETE LINK (A.3.4)
 * @msg: buffer to fill, all 44 bytes
 * @info: the fields; with @info->all the link number is sent as 0
 * @response: encode the reply (the client's)
 *
 * Return: 0, or -EINVAL for a reply with @info->all (that request has no
 * reply).
 */
int smc_llc_msg_delete_link_build(union smc_llc_msg *msg,
				  const struct smc_llc_delete_link_info *info,
				  bool response)
{
	struct smc_llc_delete_link *dl = &msg->delete_link;
	u8 flags = 0;

	if (info->all && response)
		return -EINVAL;
	if (info->all)
		flags |= SMC_LLC_FLAG_DEL_LINK_ALL;
	if (info->orderly)
		flags |= SMC_LLC_FLAG_DEL_LINK_ORDERLY;
	smc_llc_hdr_init(msg, SMC_LLC_DELETE_LINK, flags, response);
	dl->link_num = info->all ? 0 : info->link_num;
	dl->reason = cpu_to_be32(info->reason);
	return 0;
}

/**
 * smc_llc_msg_confirm_rkey_build() - encode a CONFIRM RKEY (A.3.5)
 * @msg: buffer to fill, all 44 bytes
 * @info: the fields; the first min(@info->num_tkns, 2) other-link
 *	RTokens are encoded
 * @response: encode the reply
 *
 * Return: 0, or -EINVAL if @info->num_tkns exceeds 7, Z or C is set on a
 * request, or C without Z.
 */
int smc_llc_msg_confirm_rkey_build(union smc_llc_msg *msg,
				   const struct smc_llc_confirm_rkey_info *info,
				   bool response)
{
	struct smc_llc_confirm_rkey *cr = &msg->confirm_rkey;
	unsigned int i, n;
	u8 flags = 0;

	if (info->num_tkns > SMC_LLC_CONFIRM_RKEY_MAX_TKNS)
		return -EINVAL;
	if ((info->negative || info->retry) && !response)
		return -EINVAL;
	if (info->retry && !info->negative)
		return -EINVAL;
	if (info->negative)
		flags |= SMC_LLC_FLAG_RKEY_NEG;
	if (info->retry)
		flags |= SMC_LLC_FLAG_RKEY_RETRY;
	smc_llc_hdr_init(msg, SMC_LLC_CONFIRM_RKEY, flags, response);
	cr->rt[0].link_num = info->num_tkns;
	cr->rt[0].rkey = cpu_to_be32(info->rkey);
	cr->rt[0].vaddr = cpu_to_be64(info->vaddr);
	n = min_t(unsigned int, info->num_tkns, SMC_LLC_CONFIRM_RKEY_OTHERS);
	for (i = 0; i < n; i++)
		smc_llc_rtoken_put(&cr->rt[1 + i], &info->others[i]);
	return 0;
}

/**
 * smc_llc_msg_confirm_rkey_cont_build() - encode a CONFIRM RKEY CONTINUATION
 * @msg: buffer to fill, all 44 bytes
 * @info: the fields; the first min(@info->num_left, 3) RTokens are encoded
 * @response: encode the reply
 *
 * Return: 0, or -EINVAL if @info->num_left is not 1..5 or Z is set on a
 * request.
 */
int smc_llc_msg_confirm_rkey_cont_build(union smc_llc_msg *msg,
					const struct smc_llc_confirm_rkey_cont_info *info,
					bool response)
{
	struct smc_llc_confirm_rkey_cont *cc = &msg->confirm_rkey_cont;
	unsigned int i, n;

	if (!info->num_left || info->num_left > SMC_LLC_CONFIRM_RKEY_CONT_MAX)
		return -EINVAL;
	if (info->negative && !response)
		return -EINVAL;
	smc_llc_hdr_init(msg, SMC_LLC_CONFIRM_RKEY_CONT,
			 info->negative ? SMC_LLC_FLAG_RKEY_NEG : 0, response);
	cc->num_left = info->num_left;
	n = min_t(unsigned int, info->num_left, SMC_LLC_CONFIRM_RKEY_CONT_TKNS);
	for (i = 0; i < n; i++)
		smc_llc_rtoken_put(&cc->rt[i], &info->rt[i]);
	return 0;
}

/**
 * smc_llc_msg_delete_rkey_build() - encode a DELETE RKEY (A.3.7)
 * @msg: buffer to fill, all 44 bytes
 * @info: the fields; the first @info->count RKeys are encoded
 * @response: encode the reply
 *
 * Return: 0, or -EINVAL if @info->count is not 1..8, Z is set on a
 * request, or the error mask is set without Z or names unlisted RKeys.
 */
int smc_llc_msg_delete_rkey_build(union smc_llc_msg *msg,
				  const struct smc_llc_delete_rkey_info *info,
				  bool response)
{
	struct smc_llc_delete_rkey *dr = &msg->delete_rkey;
	unsigned int i;

	if (!info->count || info->count > SMC_LLC_DELETE_RKEY_MAX)
		return -EINVAL;
	if (info->negative && !response)
		return -EINVAL;
	if (info->err_mask & ~smc_llc_delete_rkey_mask(info->count))
		return -EINVAL;
	if (info->err_mask && !info->negative)
		return -EINVAL;
	smc_llc_hdr_init(msg, SMC_LLC_DELETE_RKEY,
			 info->negative ? SMC_LLC_FLAG_RKEY_NEG : 0, response);
	dr->count = info->count;
	dr->err_mask = info->err_mask;
	for (i = 0; i < info->count; i++)
		dr->rkey[i] = cpu_to_be32(info->rkeys[i]);
	return 0;
}

/**
 * smc_llc_msg_test_link_build() - encode a TEST LINK (A.3.8)
 * @msg: buffer to fill, all 44 bytes
 * @info: the user data (a reply echoes the request's)
 * @response: encode the reply
 *
 * Return: 0.
 */
int smc_llc_msg_test_link_build(union smc_llc_msg *msg,
				const struct smc_llc_test_link_info *info,
				bool response)
{
	smc_llc_hdr_init(msg, SMC_LLC_TEST_LINK, 0, response);
	memcpy(msg->test_link.user_data, info->user_data,
	       SMC_LLC_TEST_DATA_LEN);
	return 0;
}

/**
 * smc_llc_msg_build() - encode any supported LLC message
 * @msg: buffer to fill, all 44 bytes
 * @info: type, reply flag and the fields of that type
 *
 * The inverse of smc_llc_msg_parse(): parsing what this builds gives @info
 * back (with entries beyond a count and the link number of a DELETE LINK
 * of the link group read as 0).
 *
 * Return: 0, -EINVAL if the type-specific builder refuses @info, or
 * -EOPNOTSUPP for a type smcr does not send.
 */
int smc_llc_msg_build(union smc_llc_msg *msg,
		      const struct smc_llc_msg_info *info)
{
	bool resp = info->response;

	switch (info->type) {
	case SMC_LLC_CONFIRM_LINK:
		return smc_llc_msg_confirm_link_build(msg, &info->confirm_link,
						      resp);
	case SMC_LLC_ADD_LINK:
		return smc_llc_msg_add_link_build(msg, &info->add_link, resp);
	case SMC_LLC_ADD_LINK_CONT:
		return smc_llc_msg_add_link_cont_build(msg,
						       &info->add_link_cont,
						       resp);
	case SMC_LLC_DELETE_LINK:
		return smc_llc_msg_delete_link_build(msg, &info->delete_link,
						     resp);
	case SMC_LLC_CONFIRM_RKEY:
		return smc_llc_msg_confirm_rkey_build(msg, &info->confirm_rkey,
						      resp);
	case SMC_LLC_CONFIRM_RKEY_CONT:
		return smc_llc_msg_confirm_rkey_cont_build(msg,
							   &info->confirm_rkey_cont,
							   resp);
	case SMC_LLC_DELETE_RKEY:
		return smc_llc_msg_delete_rkey_build(msg, &info->delete_rkey,
						     resp);
	case SMC_LLC_TEST_LINK:
		return smc_llc_msg_test_link_build(msg, &info->test_link, resp);
	default:
		return -EOPNOTSUPP;
	}
}

/**
 * smc_llc_msg_check_sender() - may this peer send this message on this link
 * @info: a message smc_llc_msg_parse() accepted
 * @from_server: the peer is the server of the link group
 * @state: state of the link the message arrived on
 *
 * Applies the type table: the roles that send the request and the reply
 * flavor (e.g. only the server sends CONFIRM LINK and ADD LINK
 * CONTINUATION requests, only the client replies to ADD LINK and DELETE
 * LINK), and the link states the type may arrive in.
 *
 * Return: 0 if allowed, -EPROTO otherwise.
 */
int smc_llc_msg_check_sender(const struct smc_llc_msg_info *info,
			     bool from_server, enum smc_llc_link_state state)
{
	const struct smc_llc_type_desc *desc =
		smc_llc_msg_type_desc(info->type);
	u8 role = from_server ? SMC_LLC_ROLE_SERV : SMC_LLC_ROLE_CLNT;

	if (!desc || !desc->supported)
		return -EPROTO;
	if (!((info->response ? desc->resp_from : desc->req_from) & role))
		return -EPROTO;
	if (!(desc->states & BIT(state)))
		return -EPROTO;
	return 0;
}

/**
 * smc_llc_msg_event_of() - the collision table event of a received request
 * @info: a message smc_llc_msg_parse() accepted
 * @from_server: the peer is the server of the link group
 *
 * Return: an enum smc_llc_event, or -EINVAL for a message that starts no
 * exchange of its own (a reply or a continuation: it belongs to the flow
 * in progress).
 */
int smc_llc_msg_event_of(const struct smc_llc_msg_info *info, bool from_server)
{
	if (info->response)
		return -EINVAL;
	switch (info->type) {
	case SMC_LLC_TEST_LINK:
		return SMC_LLC_EV_TEST_LINK;
	case SMC_LLC_CONFIRM_LINK:
		return SMC_LLC_EV_CONFIRM_LINK;
	case SMC_LLC_ADD_LINK:
		return from_server ? SMC_LLC_EV_ADD_LINK_SERV :
				     SMC_LLC_EV_ADD_LINK_CLNT;
	case SMC_LLC_DELETE_LINK:
		if (from_server)
			return info->delete_link.all ?
			       SMC_LLC_EV_DEL_LINK_SERV_ALL :
			       SMC_LLC_EV_DEL_LINK_SERV_ONE;
		return info->delete_link.all ? SMC_LLC_EV_DEL_LINK_CLNT_ALL :
					       SMC_LLC_EV_DEL_LINK_CLNT_ONE;
	case SMC_LLC_CONFIRM_RKEY:
		return SMC_LLC_EV_CONFIRM_RKEY;
	case SMC_LLC_DELETE_RKEY:
		return SMC_LLC_EV_DELETE_RKEY;
	default:
		return -EINVAL;
	}
}

/**
 * smc_llc_msg_collision_lookup() - what to do with a request from the peer
 * @flow: the flow in progress here (SMC_LLC_FLOW_NONE if none)
 * @event: the request, see smc_llc_msg_event_of()
 *
 * Return: the cell of the collision table (RFC 7609 3.5.5.3), or NULL if
 * @event is out of range or the table has no cell for it in @flow's row
 * (a flow smcr does not run, or a cell left out: a bug).
 */
const struct smc_llc_collision *
smc_llc_msg_collision_lookup(enum smc_llc_flow flow, enum smc_llc_event event)
{
	const size_t rows = ARRAY_SIZE(smc_llc_collisions);

	if ((unsigned int)flow >= rows || (unsigned int)event >= SMC_LLC_EV_CNT)
		return NULL;
	if (smc_llc_collisions[flow][event].action == SMC_LLC_ACT_UNDEFINED)
		return NULL;
	return &smc_llc_collisions[flow][event];
}

/**
 * smc_llc_msg_link_num_next() - the number the server gives a new link (A.3.1)
 * @used: the numbers of the link group's other links; 0 for none
 * @n: entries in @used
 *
 * Return: the lowest number from 1 that no other link has, 0 if 1..255
 * are all taken (not with SMC_LLC_MAX_LINKS links).
 */
u8 smc_llc_msg_link_num_next(const u8 *used, unsigned int n)
{
	unsigned int num, i;

	for (num = 1; num <= U8_MAX; num++) {
		for (i = 0; i < n && used[i] != num; i++)
			;
		if (i == n)
			return num;
	}
	return 0;
}

/**
 * smc_llc_msg_lgr_type() - the type of a link group of two links (2.2.2)
 * @same_local_port: both links use the same RoCE port of ours
 * @same_peer_gid: both links reach the peer at the same GID
 *
 * Return: SMC_LGR_ASYMMETRIC_LOCAL if we use one port twice,
 * SMC_LGR_ASYMMETRIC_PEER if the peer does, else SMC_LGR_SYMMETRIC.
 */
enum smc_lgr_type smc_llc_msg_lgr_type(bool same_local_port, bool same_peer_gid)
{
	if (same_local_port)
		return SMC_LGR_ASYMMETRIC_LOCAL;
	if (same_peer_gid)
		return SMC_LGR_ASYMMETRIC_PEER;
	return SMC_LGR_SYMMETRIC;
}
