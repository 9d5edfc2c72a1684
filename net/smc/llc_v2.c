// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: LLC messages of SMC-R version 2 link groups.
 *
 * A version 2 link group (hs_v2.c) runs the LLC of RFC 7609 with Linux's
 * version 2 framing: the high nibble of the type byte is the LLC version
 * (CONFIRM LINK 0x21, ADD LINK 0x22, DELETE LINK 0x24, REQ ADD LINK 0x25,
 * CONFIRM RKEY 0x26, TEST LINK 0x27, DELETE RKEY 0x29), and bytes 1-2 hold
 * a 16-bit length (44 to 8192), where version 1 has the length byte and
 * the ADD LINK reject reason. The body of every 44-byte message is the
 * version 1 body. There are no version 2 CONTINUATION types: a version 2
 * link group carries RTokens in the ADD LINK itself.
 *
 * So a received message is unwrapped into its version 1 form and goes
 * through smc_llc_msg_parse_unwrapped() - smc_llc_msg_parse() and the type
 * table, like any other - and a message to send is built in version 1 and
 * wrapped (REQ ADD LINK, whose only version 1 form is the one unwrapped,
 * is taken so and its reply built here). What is lost on the way is what version 2
 * does not carry: the ADD LINK reject reason (Linux writes the length over
 * it; a reject reads back as "no alternate path").
 *
 * The length field: IBM's format is big endian, which is what smcr sends.
 * Linux writes it in host order (little endian on x86) and checks only
 * that it is at least 44, so either order passes there. smcr does not read
 * it: the receive completion's byte count is the length.
 *
 * Messages longer than 44 bytes (the receive side keeps one 8 KiB tail per
 * link, wr.c, as Linux does). A long message that arrives before the
 * previous one was handled overwrites that one's tail, which is then read
 * with the later bytes: a known limit, not yet fixed. Linux sends one long
 * message at a time (each answers or awaits a reply); a peer that sends
 * them back to back confuses only its own link group, and the parsers
 * below bound what they read by the message's own length.
 * - ADD LINK, request and reply, carries the RKey pairs of every RMB the
 *   peer knows in an extension after its 44 bytes, where version 1 sends
 *   ADD LINK CONTINUATIONs (A.3.3): smc_llc_v2_add_link_rkeys() reads
 *   them, smc_llc_v2_add_link_ext_build() writes them.
 * - REQ ADD LINK, a client's "I have another GID": the server answers it
 *   with an ADD LINK flow or with a REQ ADD LINK reply; Linux's client
 *   starts nothing else until one of them came. smc_llc_v2_unwrap() checks
 *   that its GIDs are all there, the type table the rest.
 * - DELETE RKEY with more than 8 RKeys: not taken (Linux sends one RKey a
 *   message); its first 44 bytes do not parse.
 */
#include <asm/byteorder.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <smcr/llc.h>

/*
 * Bytes 1-2 of a version 2 message: its length, big endian. Linux reads
 * them in host order and drops a length below 44: little endian on x86,
 * ours reads as (low byte) * 256 + high byte, which is at least 44 as long
 * as the low byte is not 0. Ours are 44 and 72 + 16 * n, never a multiple
 * of 256.
 */
static void smc_llc_v2_set_len(u8 *msg, size_t len)
{
	msg[1] = len >> 8;
	msg[2] = len & 0xff;
}

/* Does @type (version 1) have a version 2 form smcr sends and accepts? */
static bool smc_llc_v2_type(u8 type)
{
	switch (type) {
	case SMC_LLC_CONFIRM_LINK:
	case SMC_LLC_ADD_LINK:
	case SMC_LLC_DELETE_LINK:
	case SMC_LLC_CONFIRM_RKEY:
	case SMC_LLC_TEST_LINK:
	case SMC_LLC_DELETE_RKEY:
		return true;
	default:
		return false;
	}
}

/**
 * smc_llc_v2_unwrap() - the version 1 form of a version 2 LLC message
 * @buf: the received bytes
 * @len: how many were received
 * @out: the first 44 bytes with a version 1 header, for
 *	smc_llc_msg_parse_unwrapped()
 *
 * Return: 0; -EOPNOTSUPP for a type to discard silently (an optional
 * type); -EPROTO for a message a version 2 link group must not carry:
 * shorter than 44 bytes, a version 1 type, an unknown type, a REQ ADD
 * LINK without the GIDs it counts (smc_llc_v2_req_add_link_check()).
 */
int smc_llc_v2_unwrap(const void *buf, size_t len, u8 out[SMC_LLC_MSG_LEN])
{
	const struct smc_llc_hdr *hdr = buf;
	struct smc_llc_hdr *o = (struct smc_llc_hdr *)out;
	bool reject;
	u8 type;

	if (len < SMC_LLC_MSG_LEN)
		return -EPROTO;
	if (smc_llc_msg_type_optional(hdr->type))
		return -EOPNOTSUPP;
	type = hdr->type & ~SMC_LLC_TYPE_V2;
	if (!(hdr->type & SMC_LLC_TYPE_V2))
		return -EPROTO;
	if (type == SMC_LLC_REQ_ADD_LINK) {
		if (smc_llc_v2_req_add_link_check(buf, len))
			return -EPROTO;
	} else if (!smc_llc_v2_type(type)) {
		return -EPROTO;
	}
	reject = type == SMC_LLC_ADD_LINK &&
		 (hdr->flags & SMC_LLC_FLAG_RESP) &&
		 (hdr->flags & SMC_LLC_FLAG_ADD_LINK_REJ);
	memcpy(out, buf, SMC_LLC_MSG_LEN);
	o->type = type;
	o->length = SMC_LLC_MSG_LEN;
	o->add_link_rsn = reject ? SMC_LLC_REJ_RSN_NO_ALT_PATH : 0;
	return 0;
}

/**
 * smc_llc_v2_wrap() - turn a built 44-byte message into its version 2 form
 * @msg: a message smc_llc_msg_build() filled
 *
 * Return: 0, or -EOPNOTSUPP for a type without a version 2 form.
 */
int smc_llc_v2_wrap(void *msg)
{
	u8 *b = msg;

	if (!smc_llc_v2_type(b[0]))
		return -EOPNOTSUPP;
	b[0] |= SMC_LLC_TYPE_V2;
	smc_llc_v2_set_len(b, SMC_LLC_MSG_LEN);
	return 0;
}

/**
 * smc_llc_v2_add_link_rkeys() - the RKey pairs of a version 2 ADD LINK
 * @buf: the whole received message, of which smc_llc_v2_unwrap() took the
 *	first 44 bytes
 * @len: its length
 * @pairs: room for SMC_LLC_V2_RKEYS_MAX pairs
 *
 * The length must end on a pair. Linux counts connections, not the RMBs
 * it found, so a count above the pairs that are there takes those there.
 *
 * Return: the number of pairs (0 without an extension, as in a reject),
 * or -EPROTO for an extension cut short or a count in neither byte order.
 */
int smc_llc_v2_add_link_rkeys(const void *buf, size_t len,
			      struct smc_llc_rkey_pair_info *pairs)
{
	const struct smc_llc_v2_add_link_ext *ext = buf + SMC_LLC_MSG_LEN;
	size_t room;
	u16 n;

	if (len == SMC_LLC_MSG_LEN)
		return 0;
	if (len < SMC_LLC_MSG_LEN + sizeof(*ext) || len > SMC_LLC_V2_MSG_MAX)
		return -EPROTO;
	room = len - SMC_LLC_MSG_LEN - sizeof(*ext);
	if (room % sizeof(ext->pairs[0]))
		return -EPROTO;
	room /= sizeof(ext->pairs[0]);
	n = le16_to_cpu(ext->num_rkeys);
	if (n > SMC_LLC_V2_RKEYS_MAX)
		n = swab16(n);		/* a big-endian sender */
	if (n > SMC_LLC_V2_RKEYS_MAX)
		return -EPROTO;
	n = min_t(size_t, n, room);
	smc_llc_msg_rkey_pairs_get(ext->pairs, pairs, n);
	return n;
}

/**
 * smc_llc_v2_add_link_ext_build() - append the RKey pairs to an ADD LINK
 * @msg: SMC_LLC_V2_MSG_MAX bytes, the first 44 a wrapped ADD LINK
 * @direct: the link group's GIDs reach each other without a router
 * @pairs: per RMB its RKey on the link that carries the message, its RKey
 *	and address on the new link
 * @n: how many, at most SMC_LLC_V2_RKEYS_MAX
 *
 * Return: the length of the message, or -EINVAL.
 */
int smc_llc_v2_add_link_ext_build(void *msg, bool direct,
				  const struct smc_llc_rkey_pair_info *pairs,
				  u16 n)
{
	struct smc_llc_add_link *al = msg;
	struct smc_llc_v2_add_link_ext *ext = msg + SMC_LLC_MSG_LEN;
	size_t len = SMC_LLC_MSG_LEN + struct_size(ext, pairs, n);

	if (n > SMC_LLC_V2_RKEYS_MAX || al->hdr.type != SMC_LLC_ADD_LINK_V2)
		return -EINVAL;
	memset(ext, 0, len - SMC_LLC_MSG_LEN);
	ext->flags = direct ? SMC_LLC_V2_ADD_LINK_DIRECT : 0;
	memcpy(ext->target_gid, al->sender_gid, SMC_GID_LEN);
	ext->num_rkeys = cpu_to_le16(n);
	smc_llc_msg_rkey_pairs_put(pairs, ext->pairs, n);
	smc_llc_v2_set_len(msg, len);
	return len;
}

/**
 * smc_llc_v2_req_add_link_check() - does a REQ ADD LINK hold its GIDs
 * @buf: the received message, a version 2 REQ ADD LINK
 * @len: its length
 *
 * The length only: who may send it, in which link state, its flags and
 * that it counts at least one GID are the type table's and
 * smc_llc_msg_parse_unwrapped()'s.
 *
 * Return: 0 for a message of 44 to SMC_LLC_V2_MSG_MAX bytes that holds
 * every GID its count announces; -EPROTO otherwise.
 */
int smc_llc_v2_req_add_link_check(const void *buf, size_t len)
{
	const struct smc_llc_v2_req_add_link *req = buf;

	if (len < SMC_LLC_MSG_LEN || len > SMC_LLC_V2_MSG_MAX ||
	    len < struct_size(req, gids, req->gid_cnt))
		return -EPROTO;
	return 0;
}

/**
 * smc_llc_v2_req_add_link_reply() - the server's "no link added" reply
 * @msg: 44 bytes to fill
 */
void smc_llc_v2_req_add_link_reply(void *msg)
{
	struct smc_llc_hdr *hdr = msg;

	memset(msg, 0, SMC_LLC_MSG_LEN);
	hdr->type = SMC_LLC_REQ_ADD_LINK_V2;
	hdr->flags = SMC_LLC_FLAG_RESP;
	smc_llc_v2_set_len(msg, SMC_LLC_MSG_LEN);
}
