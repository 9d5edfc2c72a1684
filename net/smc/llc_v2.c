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
 * through smc_llc_parse() like any other, and a message to send is built
 * in version 1 and wrapped. What is lost on the way is what version 2
 * does not carry: the ADD LINK reject reason (Linux writes the length over
 * it; a reject reads back as "no alternate path").
 *
 * The length field: IBM's format is big endian, which is what smcr sends.
 * Linux writes it in host order (little endian on x86) and checks only
 * that it is at least 44, so either order passes there. smcr does not read
 * it: the receive completion's byte count is the length.
 *
 * Not yet: messages longer than 44 bytes (ADD LINK with its RToken
 * extension, REQ ADD LINK with GIDs, DELETE RKEY with more than 8 RKeys).
 * Until they are, a version 2 link group has one link (hs_v2.c), and Linux
 * sends none of them to a link group of one link.
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <smcr/llc.h>

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
 * @out: the first 44 bytes with a version 1 header, for smc_llc_parse()
 *
 * Return: 0; -EOPNOTSUPP for a type to discard silently (an optional
 * type, REQ ADD LINK); -EPROTO for a message a version 2 link group must
 * not carry: shorter than 44 bytes, a version 1 type, an unknown type.
 */
int smc_llc_v2_unwrap(const void *buf, size_t len, u8 out[SMC_LLC_MSG_LEN])
{
	const struct smc_llc_hdr *hdr = buf;
	struct smc_llc_hdr *o = (struct smc_llc_hdr *)out;
	bool reject;
	u8 type;

	if (len < SMC_LLC_MSG_LEN)
		return -EPROTO;
	if (smc_llc_type_optional(hdr->type) ||
	    hdr->type == SMC_LLC_REQ_ADD_LINK_V2)
		return -EOPNOTSUPP;
	type = hdr->type & ~SMC_LLC_TYPE_V2;
	if (!(hdr->type & SMC_LLC_TYPE_V2) || !smc_llc_v2_type(type))
		return -EPROTO;
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
 * @msg: a message smc_llc_build() filled
 *
 * Return: 0, or -EOPNOTSUPP for a type without a version 2 form.
 */
int smc_llc_v2_wrap(void *msg)
{
	u8 *b = msg;

	if (!smc_llc_v2_type(b[0]))
		return -EOPNOTSUPP;
	b[0] |= SMC_LLC_TYPE_V2;
	b[1] = 0;			/* bytes 1-2: length, big endian */
	b[2] = SMC_LLC_MSG_LEN;
	return 0;
}
