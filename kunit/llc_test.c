// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for net/smc/llc_msg.c: LLC encoding, validation and the
 * serialization tables of RFC 7609 3.5.5.3.
 *
 * Golden vectors are written by hand from RFC 7609, Appendix A.3
 * (Figures 31 to 40), with the departures that follow Linux 6.12's
 * smc_llc.c noted where they occur; none is produced by the code under
 * test. Byte offsets in the comments are from the start of the message.
 */
#include <kunit/test.h>
#include <smcr/llc.h>

static const u8 test_mac[SMC_MAC_LEN] = { 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc };
static const u8 test_gid[SMC_GID_LEN] = {
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc,
};

static const u8 test_uid[SMC_LLC_LINK_UID_LEN] = { 0x12, 0x34, 0x56, 0x78 };

/* Figure 31: the server's CONFIRM LINK (Figure 8: QP 8), as Linux sends it */
static const u8 golden_confirm_link_req[SMC_LLC_MSG_LEN] = {
	0x01,				/*  0: type 1, CONFIRM LINK */
	0x2C,				/*  1: length 44 */
	0x00,				/*  2: reserved */
	0x03,				/*  3: R = 0; Linux's no RMBE eye
					 *     catcher bits 0x03
					 */
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, /* 4-9: sender's RoCE MAC */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 10-25: GID */
	0x00, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc,
	0x00, 0x00, 0x08,		/* 26-28: sender's QP number 8 */
	0x01,				/* 29: link number 1 */
	0x12, 0x34, 0x56, 0x78,		/* 30-33: sender's link user ID */
	0x02,				/* 34: max links 2 */
	0x00,				/* 35: reserved (Linux v2: max conns) */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 36-43: reserved */
};

/* Figure 31: the client's reply (Figure 8: QP 64), R set */
static const u8 golden_confirm_link_rsp[SMC_LLC_MSG_LEN] = {
	0x01, 0x2C, 0x00,
	0x83,				/*  3: R = 1, Linux's 0x03 */
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc,
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc,
	0x00, 0x00, 0x40,		/* 26-28: QP 64 */
	0x01,				/* 29: link number echoed */
	0x9a, 0xbc, 0xde, 0xf0,		/* 30-33: client's link user ID */
	0x02,				/* 34: max links */
	0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/*
 * Figure 32 (Figure 9: QP 9, link number 2) in Linux's layout: two
 * reserved bytes after the MAC, so the GID starts at 12, not 10.
 */
static const u8 golden_add_link_req[SMC_LLC_MSG_LEN] = {
	0x02,				/*  0: type 2, ADD LINK */
	0x2C,				/*  1: length 44 */
	0x00,				/*  2: reserved, reject reason 0 */
	0x00,				/*  3: R = 0, Z = 0 */
	0x02, 0x00, 0x00, 0xdd, 0xee, 0xff, /* 4-9: sender's RoCE MAC */
	0x00, 0x00,			/* 10-11: reserved (Linux) */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 12-27: GID */
	0x00, 0x00, 0x00, 0xff, 0xfe, 0xdd, 0xee, 0xff,
	0x00, 0x00, 0x09,		/* 28-30: sender's QP number 9 */
	0x02,				/* 31: link number 2 */
	0x05,				/* 32: reserved nibble, MTU 5 (4096) */
	0x12, 0x34, 0x56,		/* 33-35: initial PSN */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 36-43: reserved */
};

/* Figure 32: the client rejects, echoing the request (as Linux does) */
static const u8 golden_add_link_rej[SMC_LLC_MSG_LEN] = {
	0x02, 0x2C,
	0x01,				/*  2: RsnCode 1, no alternate path */
	0xC0,				/*  3: R = 1, Z = 1 */
	0x02, 0x00, 0x00, 0xdd, 0xee, 0xff,
	0x00, 0x00,
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0xff, 0xfe, 0xdd, 0xee, 0xff,
	0x00, 0x00, 0x09, 0x02, 0x05, 0x12, 0x34, 0x56,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* Figures 33/34: the server's first of two, 3 pairs left ((X,U),(Y,V)) */
static const u8 golden_add_link_cont_req[SMC_LLC_MSG_LEN] = {
	0x03,				/*  0: type 3, ADD LINK CONTINUATION */
	0x2C,				/*  1: length 44 */
	0x00,				/*  2: reserved */
	0x00,				/*  3: R = 0 */
	0x02,				/*  4: link number 2 */
	0x03,				/*  5: NumRTokens 3 (more follow) */
	0x00, 0x00,			/*  6-7: reserved */
	0x00, 0x00, 0x11, 0x11,		/*  8-11: reference RKey X */
	0x00, 0x00, 0x22, 0x22,		/* 12-15: new RKey U */
	0x00, 0x00, 0x00, 0x01, 0x23, 0x45, 0x60, 0x00, /* 16-23: new vaddr */
	0x00, 0x00, 0x33, 0x33,		/* 24-27: reference RKey Y */
	0x00, 0x00, 0x44, 0x44,		/* 28-31: new RKey V */
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0, 0x00, /* 32-39: new vaddr */
	0x00, 0x00, 0x00, 0x00,		/* 40-43: reserved */
};

/* Figure 35 (Figure 10): the server deletes link 1, lost path */
static const u8 golden_delete_link_req[SMC_LLC_MSG_LEN] = {
	0x04,				/*  0: type 4, DELETE LINK */
	0x2C,				/*  1: length 44 */
	0x00,				/*  2: reserved */
	0x00,				/*  3: R = 0, A = 0, O = 0 */
	0x01,				/*  4: link number 1 */
	0x00, 0x01, 0x00, 0x00,		/*  5-8: reason: lost path */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 9-43: reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00,
};

/* Figure 35: delete the link group, orderly, operator initiated */
static const u8 golden_delete_link_all[SMC_LLC_MSG_LEN] = {
	0x04, 0x2C, 0x00,
	0x60,				/*  3: R = 0, A = 1, O = 1 */
	0x00,				/*  4: link number 0 (A set) */
	0x00, 0x02, 0x00, 0x00,		/*  5-8: operator initiated */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00,
};

/* Figures 36/37 (Figure 12): new RMB on link 1, its RToken on link 2 */
static const u8 golden_confirm_rkey_req[SMC_LLC_MSG_LEN] = {
	0x06,				/*  0: type 6, CONFIRM RKEY */
	0x2C,				/*  1: length 44 */
	0x00,				/*  2: reserved */
	0x00,				/*  3: R = 0, 0, Z = 0, C = 0 */
	0x01,				/*  4: NumTkns 1 */
	0x00, 0x00, 0x0a, 0x0a,		/*  5-8: RKey X on this link */
	0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, /* 9-16: vaddr */
	0x02,				/* 17: link number 2 */
	0x00, 0x00, 0x0c, 0x0c,		/* 18-21: RKey Z on link 2 */
	0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, /* 22-29: vaddr */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 30-42: zeros */
	0x00, 0x00, 0x00, 0x00, 0x00,
	0x00,				/* 43: reserved */
};

/* Figure 36: negative reply with C (what Linux sends on an error) */
static const u8 golden_confirm_rkey_neg[SMC_LLC_MSG_LEN] = {
	0x06, 0x2C, 0x00,
	0xB0,				/*  3: R = 1, Z = 1, C = 1 */
	0x01,
	0x00, 0x00, 0x0a, 0x0a,
	0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
	0x02,
	0x00, 0x00, 0x0c, 0x0c,
	0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00,
	0x00,
};

/*
 * Figure 38: 4 RTokens left, 3 here. Three 13-byte entries after
 * NumTknsLeft end at byte 43 (the figure's reserved byte cannot exist).
 */
static const u8 golden_confirm_rkey_cont_req[SMC_LLC_MSG_LEN] = {
	0x08,				/*  0: type 8, CONFIRM RKEY CONT. */
	0x2C,				/*  1: length 44 */
	0x00,				/*  2: reserved */
	0x00,				/*  3: R = 0 */
	0x04,				/*  4: NumTknsLeft 4 */
	0x04,				/*  5: link 4 */
	0x00, 0x00, 0x04, 0x44,		/*  6-9: RKey */
	0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, /* 10-17: vaddr */
	0x05,				/* 18: link 5 */
	0x00, 0x00, 0x05, 0x55,		/* 19-22: RKey */
	0x00, 0x00, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00, /* 23-30: vaddr */
	0x06,				/* 31: link 6 */
	0x00, 0x00, 0x06, 0x66,		/* 32-35: RKey */
	0x00, 0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, /* 36-43: vaddr */
};

/* Figure 39: negative reply, RKeys 2 and 4 of 4 not deleted (b'01010000') */
static const u8 golden_delete_rkey_neg[SMC_LLC_MSG_LEN] = {
	0x09,				/*  0: type 9, DELETE RKEY */
	0x2C,				/*  1: length 44 */
	0x00,				/*  2: reserved */
	0xA0,				/*  3: R = 1, Z = 1 */
	0x04,				/*  4: count 4 */
	0x50,				/*  5: error mask */
	0x00, 0x00,			/*  6-7: reserved */
	0x00, 0x00, 0x00, 0x01,		/*  8-11: first RKey */
	0x00, 0x00, 0x00, 0x02,		/* 12-15: second */
	0x00, 0x00, 0x00, 0x03,		/* 16-19: third */
	0x80, 0x00, 0x00, 0x04,		/* 20-23: fourth */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 24-39: zeros */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,		/* 40-43: reserved */
};

/* Figure 40 */
static const u8 golden_test_link_req[SMC_LLC_MSG_LEN] = {
	0x07,				/*  0: type 7, TEST LINK */
	0x2C,				/*  1: length 44 */
	0x00,				/*  2: reserved */
	0x00,				/*  3: R = 0 */
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, /* 4-19: user data */
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 20-43: reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* Parse a copy of a const vector */
static int llc_parse_vec(const u8 *vec, struct smc_llc_msg_info *info)
{
	u8 buf[SMC_LLC_MSG_LEN];

	memcpy(buf, vec, sizeof(buf));
	return smc_llc_msg_parse(buf, sizeof(buf), info);
}

/* Build @in, parse it back and expect @in again */
static void llc_roundtrip(struct kunit *test, const struct smc_llc_msg_info *in)
{
	struct smc_llc_msg_info out;
	union smc_llc_msg msg;

	memset(&msg, 0xa5, sizeof(msg));
	KUNIT_ASSERT_EQ(test, smc_llc_msg_build(&msg, in), 0);
	KUNIT_EXPECT_EQ(test, msg.hdr.length, SMC_LLC_MSG_LEN);
	KUNIT_ASSERT_EQ(test, smc_llc_msg_parse(&msg, sizeof(msg), &out), 0);
	KUNIT_EXPECT_MEMEQ(test, &out, in, sizeof(out));
}

static void llc_info_init(struct smc_llc_msg_info *info, u8 type, bool resp)
{
	memset(info, 0, sizeof(*info));
	info->type = type;
	info->response = resp;
}

/* Version 2 ADD LINK: the RKey pairs after the 44 bytes (llc_v2.c) */
static void llc_v2_add_link_ext(struct kunit *test)
{
	struct smc_llc_msg_info in = {
		.type = SMC_LLC_ADD_LINK,
		.add_link = { .link_num = 2, .mtu = 3, .qpn = 0x123456 },
	};
	struct smc_llc_rkey_pair_info pairs[3] = {
		{ 0x11111111, 0x22222222, 0x3333333344444444ULL },
		{ 0x55555555, 0x66666666, 0x7777777788888888ULL },
		{ 0x0a0b0c0d, 0x01020304, 0x1000 },
	};
	struct smc_llc_rkey_pair_info *out;
	u8 *msg;
	int len;

	msg = kunit_kzalloc(test, SMC_LLC_V2_MSG_MAX, GFP_KERNEL);
	out = kunit_kcalloc(test, SMC_LLC_V2_RKEYS_MAX, sizeof(*out),
			    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_ASSERT_NOT_NULL(test, out);
	in.add_link.gid[15] = 0x42;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_build((void *)msg, &in), 0);
	/* a version 1 message takes no extension */
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_ext_build(msg, true, pairs,
							    3), -EINVAL);
	KUNIT_ASSERT_EQ(test, smc_llc_v2_wrap(msg), 0);
	len = smc_llc_v2_add_link_ext_build(msg, true, pairs, 3);
	KUNIT_ASSERT_EQ(test, len, 44 + 28 + 3 * 16);
	/* bytes 1-2: the length, big endian; the extension's fields */
	KUNIT_EXPECT_EQ(test, msg[1], 0);
	KUNIT_EXPECT_EQ(test, msg[2], len);
	KUNIT_EXPECT_EQ(test, msg[44], SMC_LLC_V2_ADD_LINK_DIRECT);
	KUNIT_EXPECT_EQ(test, msg[44 + 2 + 15], 0x42);	/* target GID */
	KUNIT_EXPECT_EQ(test, msg[44 + 26], 3);		/* count, LE */
	KUNIT_EXPECT_EQ(test, msg[44 + 27], 0);
	KUNIT_EXPECT_EQ(test, msg[72], 0x11);		/* big endian RKey */
	KUNIT_EXPECT_EQ(test, msg[72 + 16 + 15], 0x88);
	KUNIT_ASSERT_EQ(test, smc_llc_v2_add_link_rkeys(msg, len, out), 3);
	KUNIT_EXPECT_MEMEQ(test, out, pairs, sizeof(pairs));
	/* the count in big endian (IBM's order) is taken too */
	msg[44 + 26] = 0;
	msg[44 + 27] = 3;
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_rkeys(msg, len, out), 3);
	/* a count above the pairs there: those there (Linux counts
	 * connections); below: that many
	 */
	msg[44 + 26] = 9;
	msg[44 + 27] = 0;
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_rkeys(msg, len, out), 3);
	msg[44 + 26] = 1;
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_rkeys(msg, len, out), 1);
	/* no extension: no pairs; cut short or not on a pair: malformed */
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_rkeys(msg, 44, out), 0);
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_rkeys(msg, 71, out), -EPROTO);
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_rkeys(msg, len - 1, out),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_rkeys(msg, 72, out), 0);
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_rkeys(msg,
							SMC_LLC_V2_MSG_MAX + 16,
							out), -EPROTO);
	/* more than 255 in either order */
	msg[44 + 26] = 0x00;
	msg[44 + 27] = 0x01;	/* LE 256, BE 1: one pair */
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_rkeys(msg, len, out), 1);
	msg[44 + 26] = 0x01;
	msg[44 + 27] = 0x01;	/* 257 both ways */
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_rkeys(msg, len, out),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, smc_llc_v2_add_link_ext_build(msg, false, out,
							    256), -EINVAL);
}

/* Unwrap, parse and check a version 2 REQ ADD LINK as smc_llc_rx() does */
static int llc_v2_req_rx(const u8 *msg, size_t len, bool from_server,
			 enum smc_llc_link_state state)
{
	struct smc_llc_msg_info info;
	u8 v1[SMC_LLC_MSG_LEN];
	int rc;

	rc = smc_llc_v2_unwrap(msg, len, v1);
	if (!rc)
		rc = smc_llc_msg_parse_unwrapped(v1, sizeof(v1), &info);
	if (!rc && info.type != SMC_LLC_REQ_ADD_LINK)
		rc = -EINVAL;
	if (!rc)
		rc = smc_llc_msg_check_sender(&info, from_server, state);
	return rc;
}

/*
 * Version 2 REQ ADD LINK: a client's request with its GIDs goes through
 * the type table like any other message; the server's reply
 */
static void llc_v2_req_add_link(struct kunit *test)
{
	const enum smc_llc_link_state act = SMC_LLC_LINK_ACTIVE;
	u8 msg[28 + 2 * 16] = { SMC_LLC_REQ_ADD_LINK_V2, 0, 60, 0 };
	struct smc_llc_msg_info info;
	u8 v1[SMC_LLC_MSG_LEN];

	msg[24] = 2;			/* gid_cnt */
	KUNIT_EXPECT_EQ(test, smc_llc_v2_req_add_link_check(msg, 60), 0);
	KUNIT_EXPECT_EQ(test, llc_v2_req_rx(msg, 60, false, act), 0);
	/* the second GID cut short */
	KUNIT_EXPECT_EQ(test, smc_llc_v2_req_add_link_check(msg, 59), -EPROTO);
	KUNIT_EXPECT_EQ(test, llc_v2_req_rx(msg, 59, false, act), -EPROTO);
	/* the server never asks; not on a link being confirmed */
	KUNIT_EXPECT_EQ(test, llc_v2_req_rx(msg, 60, true, act), -EPROTO);
	KUNIT_EXPECT_EQ(test, llc_v2_req_rx(msg, 60, false,
					    SMC_LLC_LINK_ACTIVATING), -EPROTO);
	/* no GID: all there, but the type's parser refuses it */
	msg[24] = 0;
	KUNIT_EXPECT_EQ(test, smc_llc_v2_req_add_link_check(msg, 60), 0);
	KUNIT_EXPECT_EQ(test, llc_v2_req_rx(msg, 60, false, act), -EPROTO);
	msg[24] = 1;
	KUNIT_EXPECT_EQ(test, llc_v2_req_rx(msg, 44, false, act), 0);
	msg[24] = 255;			/* 255 GIDs in 44 bytes */
	KUNIT_EXPECT_EQ(test, llc_v2_req_rx(msg, 44, false, act), -EPROTO);
	msg[24] = 1;
	/* the reply is the server's: a client's is refused */
	msg[3] = SMC_LLC_FLAG_RESP;
	KUNIT_EXPECT_EQ(test, llc_v2_req_rx(msg, 44, false, act), -EPROTO);
	KUNIT_EXPECT_EQ(test, llc_v2_req_rx(msg, 44, true, act), 0);
	msg[3] = 0x40;			/* a reserved flag */
	KUNIT_EXPECT_EQ(test, llc_v2_req_rx(msg, 44, false, act), -EPROTO);
	msg[3] = 0;
	KUNIT_EXPECT_EQ(test, smc_llc_v2_req_add_link_check(msg, 43), -EPROTO);
	KUNIT_EXPECT_EQ(test, llc_v2_req_rx(msg, 43, false, act), -EPROTO);
	KUNIT_EXPECT_EQ(test, smc_llc_v2_req_add_link_check(msg,
							    SMC_LLC_V2_MSG_MAX + 1),
			-EPROTO);
	/* its version 1 form exists in version 2 link groups only */
	KUNIT_ASSERT_EQ(test, smc_llc_v2_unwrap(msg, 44, v1), 0);
	KUNIT_EXPECT_EQ(test, v1[0], SMC_LLC_REQ_ADD_LINK);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(v1, sizeof(v1), &info),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse_unwrapped(v1, sizeof(v1), &info),
			0);

	memset(msg, 0xff, sizeof(msg));
	smc_llc_v2_req_add_link_reply(msg);
	KUNIT_EXPECT_EQ(test, msg[0], SMC_LLC_REQ_ADD_LINK_V2);
	KUNIT_EXPECT_EQ(test, msg[1], 0);
	KUNIT_EXPECT_EQ(test, msg[2], 44);
	KUNIT_EXPECT_EQ(test, msg[3], SMC_LLC_FLAG_RESP);
	KUNIT_EXPECT_EQ(test, msg[43], 0);
	KUNIT_EXPECT_EQ(test, msg[44], 0xff);	/* 44 bytes, no more */
}

/* Version 2 framing (llc_v2.c): type | 0x20, 16-bit length in bytes 1-2 */
static void llc_v2_wrap_unwrap(struct kunit *test)
{
	struct smc_llc_msg_info in = {
		.type = SMC_LLC_TEST_LINK,
	}, out;
	union smc_llc_msg msg;
	u8 big[64], v1[SMC_LLC_MSG_LEN];

	memset(in.test_link.user_data, 0x3c, SMC_LLC_TEST_DATA_LEN);
	KUNIT_ASSERT_EQ(test, smc_llc_msg_build(&msg, &in), 0);
	KUNIT_ASSERT_EQ(test, smc_llc_v2_wrap(&msg), 0);
	KUNIT_EXPECT_EQ(test, ((u8 *)&msg)[0], 0x27);
	KUNIT_EXPECT_EQ(test, ((u8 *)&msg)[1], 0);
	KUNIT_EXPECT_EQ(test, ((u8 *)&msg)[2], 44);
	KUNIT_ASSERT_EQ(test, smc_llc_v2_unwrap(&msg, 44, v1), 0);
	KUNIT_ASSERT_EQ(test, smc_llc_msg_parse(v1, sizeof(v1), &out), 0);
	KUNIT_EXPECT_EQ(test, out.type, SMC_LLC_TEST_LINK);
	KUNIT_EXPECT_MEMEQ(test, out.test_link.user_data,
			   in.test_link.user_data, SMC_LLC_TEST_DATA_LEN);
	/* Linux on x86: the length little endian, more bytes than 44 */
	memset(big, 0, sizeof(big));
	memcpy(big, &msg, 44);
	big[1] = 44;
	big[2] = 0;
	KUNIT_ASSERT_EQ(test, smc_llc_v2_unwrap(big, sizeof(big), v1), 0);
	KUNIT_EXPECT_EQ(test, v1[0], SMC_LLC_TEST_LINK);
	KUNIT_EXPECT_EQ(test, v1[1], 44);
	KUNIT_EXPECT_EQ(test, v1[2], 0);
	/* too short; a version 1 type; a REQ ADD LINK without the GIDs it
	 * counts (byte 24: 2, in 44 bytes); an unknown v2 type
	 */
	KUNIT_EXPECT_EQ(test, smc_llc_v2_unwrap(big, 43, v1), -EPROTO);
	big[0] = SMC_LLC_TEST_LINK;
	KUNIT_EXPECT_EQ(test, smc_llc_v2_unwrap(big, 44, v1), -EPROTO);
	big[0] = SMC_LLC_REQ_ADD_LINK_V2;
	big[24] = 2;
	KUNIT_EXPECT_EQ(test, smc_llc_v2_unwrap(big, 44, v1), -EPROTO);
	big[24] = 0;
	big[0] = 0x23;	/* no version 2 ADD LINK CONTINUATION */
	KUNIT_EXPECT_EQ(test, smc_llc_v2_unwrap(big, 44, v1), -EPROTO);
	/* an ADD LINK request, length big endian: byte 2 is no reason */
	big[0] = SMC_LLC_ADD_LINK_V2;
	big[1] = 0;
	big[2] = 44;
	KUNIT_ASSERT_EQ(test, smc_llc_v2_unwrap(big, 44, v1), 0);
	KUNIT_EXPECT_EQ(test, v1[2], 0);
	/* an ADD LINK reject: its reason was overwritten by the length */
	big[3] = SMC_LLC_FLAG_RESP | SMC_LLC_FLAG_ADD_LINK_REJ;
	KUNIT_ASSERT_EQ(test, smc_llc_v2_unwrap(big, 44, v1), 0);
	KUNIT_EXPECT_EQ(test, v1[2], SMC_LLC_REJ_RSN_NO_ALT_PATH);
	/* no version 2 form of the CONTINUATIONs */
	in.type = SMC_LLC_ADD_LINK_CONT;
	memset(&in.add_link_cont, 0, sizeof(in.add_link_cont));
	KUNIT_ASSERT_EQ(test, smc_llc_msg_build(&msg, &in), 0);
	KUNIT_EXPECT_EQ(test, smc_llc_v2_wrap(&msg), -EOPNOTSUPP);
}

static void llc_confirm_link_golden_build(struct kunit *test)
{
	struct smc_llc_confirm_link_info cl = {};
	union smc_llc_msg msg;

	memcpy(cl.mac, test_mac, SMC_MAC_LEN);
	memcpy(cl.gid, test_gid, SMC_GID_LEN);
	cl.qpn = 8;
	cl.link_num = 1;
	memcpy(cl.link_uid, test_uid, SMC_LLC_LINK_UID_LEN);
	cl.max_links = 2;
	cl.no_rmbe_eyec = true;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_confirm_link_build(&msg, &cl, false), 0);
	KUNIT_EXPECT_MEMEQ(test, msg.raw, golden_confirm_link_req,
			   SMC_LLC_MSG_LEN);
}

static void llc_confirm_link_golden_parse(struct kunit *test)
{
	static const u8 client_uid[] = { 0x9a, 0xbc, 0xde, 0xf0 };
	struct smc_llc_msg_info info;

	KUNIT_ASSERT_EQ(test, llc_parse_vec(golden_confirm_link_req, &info), 0);
	KUNIT_EXPECT_EQ(test, info.type, SMC_LLC_CONFIRM_LINK);
	KUNIT_EXPECT_FALSE(test, info.response);
	KUNIT_EXPECT_MEMEQ(test, info.confirm_link.mac, test_mac, SMC_MAC_LEN);
	KUNIT_EXPECT_MEMEQ(test, info.confirm_link.gid, test_gid, SMC_GID_LEN);
	KUNIT_EXPECT_EQ(test, info.confirm_link.qpn, 8U);
	KUNIT_EXPECT_EQ(test, info.confirm_link.link_num, 1);
	KUNIT_EXPECT_MEMEQ(test, info.confirm_link.link_uid, test_uid,
			   SMC_LLC_LINK_UID_LEN);
	KUNIT_EXPECT_EQ(test, info.confirm_link.max_links, 2);
	KUNIT_EXPECT_TRUE(test, info.confirm_link.no_rmbe_eyec);

	KUNIT_ASSERT_EQ(test, llc_parse_vec(golden_confirm_link_rsp, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.response);
	KUNIT_EXPECT_EQ(test, info.confirm_link.qpn, 64U);
	KUNIT_EXPECT_MEMEQ(test, info.confirm_link.link_uid, client_uid,
			   SMC_LLC_LINK_UID_LEN);
}

/* Linux tests either flag bit; an RFC peer sets neither */
static void llc_confirm_link_eyec_flag(struct kunit *test)
{
	struct smc_llc_msg_info info;
	u8 buf[SMC_LLC_MSG_LEN];
	static const u8 vals[] = { 0x00, 0x01, 0x02, 0x03 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		memcpy(buf, golden_confirm_link_req, sizeof(buf));
		buf[3] = vals[i];
		KUNIT_ASSERT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
		KUNIT_EXPECT_EQ(test, info.confirm_link.no_rmbe_eyec,
				vals[i] != 0);
	}
	/* Linux v2.1 puts max_conns in byte 35: ignored, still valid */
	memcpy(buf, golden_confirm_link_req, sizeof(buf));
	buf[35] = 255;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
}

static void llc_add_link_golden(struct kunit *test)
{
	static const u8 mac[] = { 0x02, 0x00, 0x00, 0xdd, 0xee, 0xff };
	struct smc_llc_msg_info info, in;
	union smc_llc_msg msg;

	KUNIT_ASSERT_EQ(test, llc_parse_vec(golden_add_link_req, &info), 0);
	KUNIT_EXPECT_EQ(test, info.type, SMC_LLC_ADD_LINK);
	KUNIT_EXPECT_FALSE(test, info.response);
	KUNIT_EXPECT_MEMEQ(test, info.add_link.mac, mac, SMC_MAC_LEN);
	KUNIT_EXPECT_EQ(test, info.add_link.gid[0], 0xfe);
	KUNIT_EXPECT_EQ(test, info.add_link.gid[15], 0xff);
	KUNIT_EXPECT_EQ(test, info.add_link.qpn, 9U);
	KUNIT_EXPECT_EQ(test, info.add_link.link_num, 2);
	KUNIT_EXPECT_EQ(test, info.add_link.mtu, 5);
	KUNIT_EXPECT_EQ(test, info.add_link.psn, 0x123456U);
	KUNIT_EXPECT_FALSE(test, info.add_link.reject);

	in = info;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_build(&msg, &in), 0);
	KUNIT_EXPECT_MEMEQ(test, msg.raw, golden_add_link_req, SMC_LLC_MSG_LEN);

	KUNIT_ASSERT_EQ(test, llc_parse_vec(golden_add_link_rej, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.response);
	KUNIT_EXPECT_TRUE(test, info.add_link.reject);
	KUNIT_EXPECT_EQ(test, info.add_link.reject_rsn,
			SMC_LLC_REJ_RSN_NO_ALT_PATH);
	in.response = true;
	in.add_link.reject = true;
	in.add_link.reject_rsn = SMC_LLC_REJ_RSN_NO_ALT_PATH;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_build(&msg, &in), 0);
	KUNIT_EXPECT_MEMEQ(test, msg.raw, golden_add_link_rej, SMC_LLC_MSG_LEN);
}

static void llc_add_link_cont_golden(struct kunit *test)
{
	struct smc_llc_add_link_cont_info *ac;
	struct smc_llc_msg_info info, in;
	union smc_llc_msg msg;

	KUNIT_ASSERT_EQ(test, llc_parse_vec(golden_add_link_cont_req, &info), 0);
	ac = &info.add_link_cont;
	KUNIT_EXPECT_EQ(test, ac->link_num, 2);
	KUNIT_EXPECT_EQ(test, ac->num_rkeys, 3);
	KUNIT_EXPECT_EQ(test, ac->pairs[0].ref_rkey, 0x1111U);
	KUNIT_EXPECT_EQ(test, ac->pairs[0].new_rkey, 0x2222U);
	KUNIT_EXPECT_EQ(test, ac->pairs[0].new_vaddr, 0x123456000ULL);
	KUNIT_EXPECT_EQ(test, ac->pairs[1].ref_rkey, 0x3333U);
	KUNIT_EXPECT_EQ(test, ac->pairs[1].new_rkey, 0x4444U);
	KUNIT_EXPECT_EQ(test, ac->pairs[1].new_vaddr, 0xfffffffffffff000ULL);

	in = info;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_build(&msg, &in), 0);
	KUNIT_EXPECT_MEMEQ(test, msg.raw, golden_add_link_cont_req,
			   SMC_LLC_MSG_LEN);
}

static void llc_delete_link_golden(struct kunit *test)
{
	struct smc_llc_delete_link_info dl = {};
	struct smc_llc_msg_info info;
	union smc_llc_msg msg;

	KUNIT_ASSERT_EQ(test, llc_parse_vec(golden_delete_link_req, &info), 0);
	KUNIT_EXPECT_EQ(test, info.delete_link.link_num, 1);
	KUNIT_EXPECT_FALSE(test, info.delete_link.all);
	KUNIT_EXPECT_FALSE(test, info.delete_link.orderly);
	KUNIT_EXPECT_EQ(test, info.delete_link.reason,
			(u32)SMC_LLC_DEL_LOST_PATH);
	dl.link_num = 1;
	dl.reason = SMC_LLC_DEL_LOST_PATH;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_delete_link_build(&msg, &dl, false), 0);
	KUNIT_EXPECT_MEMEQ(test, msg.raw, golden_delete_link_req,
			   SMC_LLC_MSG_LEN);

	KUNIT_ASSERT_EQ(test, llc_parse_vec(golden_delete_link_all, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.delete_link.all);
	KUNIT_EXPECT_TRUE(test, info.delete_link.orderly);
	KUNIT_EXPECT_EQ(test, info.delete_link.link_num, 0);
	KUNIT_EXPECT_EQ(test, info.delete_link.reason,
			(u32)SMC_LLC_DEL_OP_INIT_TERM);
	/* the link number is sent as 0 with A, whatever the caller says */
	dl.link_num = 7;
	dl.all = true;
	dl.orderly = true;
	dl.reason = SMC_LLC_DEL_OP_INIT_TERM;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_delete_link_build(&msg, &dl, false), 0);
	KUNIT_EXPECT_MEMEQ(test, msg.raw, golden_delete_link_all,
			   SMC_LLC_MSG_LEN);
}

static void llc_confirm_rkey_golden(struct kunit *test)
{
	struct smc_llc_confirm_rkey_info *cr;
	struct smc_llc_msg_info info, in;
	union smc_llc_msg msg;

	KUNIT_ASSERT_EQ(test, llc_parse_vec(golden_confirm_rkey_req, &info), 0);
	cr = &info.confirm_rkey;
	KUNIT_EXPECT_EQ(test, cr->num_tkns, 1);
	KUNIT_EXPECT_EQ(test, cr->rkey, 0x0a0aU);
	KUNIT_EXPECT_EQ(test, cr->vaddr, 0x10000000ULL);
	KUNIT_EXPECT_EQ(test, cr->others[0].link_num, 2);
	KUNIT_EXPECT_EQ(test, cr->others[0].rkey, 0x0c0cU);
	KUNIT_EXPECT_EQ(test, cr->others[0].vaddr, 0x20000000ULL);
	KUNIT_EXPECT_FALSE(test, cr->negative);
	in = info;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_build(&msg, &in), 0);
	KUNIT_EXPECT_MEMEQ(test, msg.raw, golden_confirm_rkey_req,
			   SMC_LLC_MSG_LEN);

	KUNIT_ASSERT_EQ(test, llc_parse_vec(golden_confirm_rkey_neg, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.response);
	KUNIT_EXPECT_TRUE(test, cr->negative);
	KUNIT_EXPECT_TRUE(test, cr->retry);
	in = info;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_build(&msg, &in), 0);
	KUNIT_EXPECT_MEMEQ(test, msg.raw, golden_confirm_rkey_neg,
			   SMC_LLC_MSG_LEN);
}

static void llc_confirm_rkey_cont_golden(struct kunit *test)
{
	struct smc_llc_confirm_rkey_cont_info *cc;
	struct smc_llc_msg_info info, in;
	union smc_llc_msg msg;

	KUNIT_ASSERT_EQ(test,
			llc_parse_vec(golden_confirm_rkey_cont_req, &info), 0);
	cc = &info.confirm_rkey_cont;
	KUNIT_EXPECT_EQ(test, cc->num_left, 4);
	KUNIT_EXPECT_EQ(test, cc->rt[0].link_num, 4);
	KUNIT_EXPECT_EQ(test, cc->rt[0].rkey, 0x0444U);
	KUNIT_EXPECT_EQ(test, cc->rt[0].vaddr, 0x40000000ULL);
	KUNIT_EXPECT_EQ(test, cc->rt[2].link_num, 6);
	KUNIT_EXPECT_EQ(test, cc->rt[2].rkey, 0x0666U);
	KUNIT_EXPECT_EQ(test, cc->rt[2].vaddr, 0x60000000ULL);
	in = info;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_build(&msg, &in), 0);
	KUNIT_EXPECT_MEMEQ(test, msg.raw, golden_confirm_rkey_cont_req,
			   SMC_LLC_MSG_LEN);
}

static void llc_delete_rkey_golden(struct kunit *test)
{
	struct smc_llc_delete_rkey_info *dr;
	struct smc_llc_msg_info info, in;
	union smc_llc_msg msg;

	KUNIT_ASSERT_EQ(test, llc_parse_vec(golden_delete_rkey_neg, &info), 0);
	dr = &info.delete_rkey;
	KUNIT_EXPECT_TRUE(test, info.response);
	KUNIT_EXPECT_TRUE(test, dr->negative);
	KUNIT_EXPECT_EQ(test, dr->count, 4);
	KUNIT_EXPECT_EQ(test, dr->err_mask, 0x50);
	KUNIT_EXPECT_EQ(test, dr->rkeys[0], 1U);
	KUNIT_EXPECT_EQ(test, dr->rkeys[3], 0x80000004U);
	KUNIT_EXPECT_EQ(test, dr->rkeys[4], 0U);
	in = info;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_build(&msg, &in), 0);
	KUNIT_EXPECT_MEMEQ(test, msg.raw, golden_delete_rkey_neg,
			   SMC_LLC_MSG_LEN);
}

static void llc_test_link_golden(struct kunit *test)
{
	struct smc_llc_test_link_info tl;
	struct smc_llc_msg_info info;
	union smc_llc_msg msg;
	int i;

	for (i = 0; i < SMC_LLC_TEST_DATA_LEN; i++)
		tl.user_data[i] = i;
	KUNIT_ASSERT_EQ(test, smc_llc_msg_test_link_build(&msg, &tl, false), 0);
	KUNIT_EXPECT_MEMEQ(test, msg.raw, golden_test_link_req,
			   SMC_LLC_MSG_LEN);
	KUNIT_ASSERT_EQ(test, llc_parse_vec(golden_test_link_req, &info), 0);
	KUNIT_EXPECT_MEMEQ(test, info.test_link.user_data, tl.user_data,
			   SMC_LLC_TEST_DATA_LEN);
	/* the reply echoes the data with R set */
	KUNIT_ASSERT_EQ(test, smc_llc_msg_test_link_build(&msg, &tl, true), 0);
	KUNIT_EXPECT_EQ(test, msg.raw[3], 0x80);
	KUNIT_EXPECT_MEMEQ(test, msg.raw + 4, golden_test_link_req + 4,
			   SMC_LLC_MSG_LEN - 4);
}

static void llc_roundtrip_confirm_link(struct kunit *test)
{
	struct smc_llc_msg_info in;
	int resp, eyec;

	for (resp = 0; resp < 2; resp++) {
		for (eyec = 0; eyec < 2; eyec++) {
			llc_info_init(&in, SMC_LLC_CONFIRM_LINK, resp);
			memset(in.confirm_link.mac, 0xff, SMC_MAC_LEN);
			memset(in.confirm_link.gid, 0xff, SMC_GID_LEN);
			in.confirm_link.qpn = SMC_CLC_U24_MAX;
			in.confirm_link.link_num = 255;
			memset(in.confirm_link.link_uid, 0xff,
			       SMC_LLC_LINK_UID_LEN);
			in.confirm_link.max_links = 255;
			in.confirm_link.no_rmbe_eyec = eyec;
			llc_roundtrip(test, &in);
			llc_info_init(&in, SMC_LLC_CONFIRM_LINK, resp);
			in.confirm_link.no_rmbe_eyec = eyec;
			llc_roundtrip(test, &in);
		}
	}
}

static void llc_roundtrip_add_link(struct kunit *test)
{
	struct smc_llc_msg_info in;
	u8 rsn;

	llc_info_init(&in, SMC_LLC_ADD_LINK, false);
	memset(in.add_link.mac, 0xff, SMC_MAC_LEN);
	memset(in.add_link.gid, 0xff, SMC_GID_LEN);
	in.add_link.qpn = SMC_CLC_U24_MAX;
	in.add_link.link_num = 255;
	in.add_link.mtu = SMC_LLC_MTU_MASK;
	in.add_link.psn = SMC_CLC_U24_MAX;
	llc_roundtrip(test, &in);
	in.response = true;
	llc_roundtrip(test, &in);
	for (rsn = 1; rsn <= SMC_LLC_ADD_LINK_RSN_MASK; rsn++) {
		in.add_link.reject = true;
		in.add_link.reject_rsn = rsn;
		llc_roundtrip(test, &in);
	}
	/* a client's hint: no link, QP, MTU or PSN yet (what Linux sends) */
	llc_info_init(&in, SMC_LLC_ADD_LINK, false);
	memcpy(in.add_link.mac, test_mac, SMC_MAC_LEN);
	memcpy(in.add_link.gid, test_gid, SMC_GID_LEN);
	llc_roundtrip(test, &in);
}

static void llc_roundtrip_add_link_cont(struct kunit *test)
{
	static const u8 nums[] = { 0, 1, 2, 3, 254, 255 };
	struct smc_llc_msg_info in;
	size_t i;
	int resp, p;

	for (resp = 0; resp < 2; resp++) {
		for (i = 0; i < ARRAY_SIZE(nums); i++) {
			llc_info_init(&in, SMC_LLC_ADD_LINK_CONT, resp);
			in.add_link_cont.link_num = 255;
			in.add_link_cont.num_rkeys = nums[i];
			for (p = 0; p < min_t(int, nums[i], 2); p++) {
				in.add_link_cont.pairs[p].ref_rkey = U32_MAX - p;
				in.add_link_cont.pairs[p].new_rkey = p + 1;
				in.add_link_cont.pairs[p].new_vaddr = U64_MAX - p;
			}
			llc_roundtrip(test, &in);
		}
	}
}

static void llc_roundtrip_delete_link(struct kunit *test)
{
	static const u32 reasons[] = {
		SMC_LLC_DEL_LOST_PATH, SMC_LLC_DEL_OP_INIT_TERM,
		SMC_LLC_DEL_PROG_INIT_TERM, SMC_LLC_DEL_PROT_VIOL,
		SMC_LLC_DEL_NO_ASYM_NEEDED, SMC_LLC_DEL_NOLNK,
		SMC_LLC_DEL_NOLGR, 0, U32_MAX,
	};
	struct smc_llc_msg_info in;
	int resp, all, ord;
	size_t i;

	for (resp = 0; resp < 2; resp++)
		for (all = 0; all < 2; all++)
			for (ord = 0; ord < 2; ord++)
				for (i = 0; i < ARRAY_SIZE(reasons); i++) {
					if (all && resp)
						continue;
					llc_info_init(&in, SMC_LLC_DELETE_LINK,
						      resp);
					in.delete_link.link_num = all ? 0 : 255;
					in.delete_link.all = all;
					in.delete_link.orderly = ord;
					in.delete_link.reason = reasons[i];
					llc_roundtrip(test, &in);
				}
}

static void llc_roundtrip_confirm_rkey(struct kunit *test)
{
	struct smc_llc_msg_info in;
	int n, i, flags;

	/* flags: request; reply; negative reply; negative reply with C */
	for (flags = 0; flags < 4; flags++) {
		for (n = 0; n <= SMC_LLC_MAX_LINKS - 1; n++) {
			llc_info_init(&in, SMC_LLC_CONFIRM_RKEY, flags > 0);
			in.confirm_rkey.negative = flags >= 2;
			in.confirm_rkey.retry = flags == 3;
			in.confirm_rkey.num_tkns = n;
			in.confirm_rkey.rkey = U32_MAX;
			in.confirm_rkey.vaddr = U64_MAX;
			for (i = 0; i < min_t(int, n, 2); i++) {
				in.confirm_rkey.others[i].link_num = 255 - i;
				in.confirm_rkey.others[i].rkey = U32_MAX - i;
				in.confirm_rkey.others[i].vaddr = U64_MAX - i;
			}
			llc_roundtrip(test, &in);
		}
	}
}

static void llc_roundtrip_confirm_rkey_cont(struct kunit *test)
{
	struct smc_llc_msg_info in;
	int n, i, flags;

	for (flags = 0; flags < 3; flags++) {
		for (n = 1; n <= 5; n++) {
			llc_info_init(&in, SMC_LLC_CONFIRM_RKEY_CONT, flags > 0);
			in.confirm_rkey_cont.negative = flags == 2;
			in.confirm_rkey_cont.num_left = n;
			for (i = 0; i < min_t(int, n, 3); i++) {
				in.confirm_rkey_cont.rt[i].link_num = 255 - i;
				in.confirm_rkey_cont.rt[i].rkey = U32_MAX - i;
				in.confirm_rkey_cont.rt[i].vaddr = U64_MAX - i;
			}
			llc_roundtrip(test, &in);
		}
	}
}

static void llc_roundtrip_delete_rkey(struct kunit *test)
{
	struct smc_llc_msg_info in;
	int n, i, flags;

	for (flags = 0; flags < 3; flags++) {
		for (n = 1; n <= SMC_LLC_DELETE_RKEY_MAX; n++) {
			llc_info_init(&in, SMC_LLC_DELETE_RKEY, flags > 0);
			in.delete_rkey.negative = flags == 2;
			in.delete_rkey.count = n;
			/* all listed RKeys failed: the top n bits */
			if (flags == 2)
				in.delete_rkey.err_mask = (u8)(0xff00 >> n);
			for (i = 0; i < n; i++)
				in.delete_rkey.rkeys[i] = U32_MAX - i;
			llc_roundtrip(test, &in);
		}
	}
}

static void llc_roundtrip_test_link(struct kunit *test)
{
	struct smc_llc_msg_info in;
	int resp;

	for (resp = 0; resp < 2; resp++) {
		llc_info_init(&in, SMC_LLC_TEST_LINK, resp);
		memset(in.test_link.user_data, 0xff, SMC_LLC_TEST_DATA_LEN);
		llc_roundtrip(test, &in);
		llc_info_init(&in, SMC_LLC_TEST_LINK, resp);
		llc_roundtrip(test, &in);
	}
}

static void llc_build_invalid(struct kunit *test)
{
	struct smc_llc_confirm_rkey_cont_info cc = {};
	struct smc_llc_confirm_link_info cl = {};
	struct smc_llc_confirm_rkey_info cr = {};
	struct smc_llc_delete_rkey_info dr = {};
	struct smc_llc_delete_link_info dl = {};
	struct smc_llc_add_link_info al = {};
	struct smc_llc_msg_info info;
	union smc_llc_msg msg;

	cl.qpn = SMC_CLC_U24_MAX + 1;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_confirm_link_build(&msg, &cl, false),
			-EINVAL);

	al.qpn = SMC_CLC_U24_MAX + 1;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_add_link_build(&msg, &al, false), -EINVAL);
	al.qpn = 0;
	al.psn = SMC_CLC_U24_MAX + 1;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_add_link_build(&msg, &al, false), -EINVAL);
	al.psn = 0;
	al.mtu = 16;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_add_link_build(&msg, &al, false), -EINVAL);
	al.mtu = 0;
	al.reject = true;
	al.reject_rsn = 1;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_add_link_build(&msg, &al, false), -EINVAL);
	al.reject_rsn = 0;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_add_link_build(&msg, &al, true), -EINVAL);
	al.reject_rsn = 16;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_add_link_build(&msg, &al, true), -EINVAL);
	al.reject = false;
	al.reject_rsn = 1;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_add_link_build(&msg, &al, true), -EINVAL);

	dl.all = true;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_delete_link_build(&msg, &dl, true),
			-EINVAL);

	cr.num_tkns = 8;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_confirm_rkey_build(&msg, &cr, false),
			-EINVAL);
	cr.num_tkns = 0;
	cr.negative = true;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_confirm_rkey_build(&msg, &cr, false),
			-EINVAL);
	cr.negative = false;
	cr.retry = true;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_confirm_rkey_build(&msg, &cr, true),
			-EINVAL);

	KUNIT_EXPECT_EQ(test, smc_llc_msg_confirm_rkey_cont_build(&msg, &cc, false),
			-EINVAL);
	cc.num_left = 6;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_confirm_rkey_cont_build(&msg, &cc, false),
			-EINVAL);
	cc.num_left = 1;
	cc.negative = true;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_confirm_rkey_cont_build(&msg, &cc, false),
			-EINVAL);

	KUNIT_EXPECT_EQ(test, smc_llc_msg_delete_rkey_build(&msg, &dr, false),
			-EINVAL);
	dr.count = 9;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_delete_rkey_build(&msg, &dr, false),
			-EINVAL);
	dr.count = 2;
	dr.negative = true;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_delete_rkey_build(&msg, &dr, false),
			-EINVAL);
	dr.err_mask = 0x20;		/* third RKey of two */
	KUNIT_EXPECT_EQ(test, smc_llc_msg_delete_rkey_build(&msg, &dr, true),
			-EINVAL);
	dr.err_mask = 0x40;
	dr.negative = false;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_delete_rkey_build(&msg, &dr, true),
			-EINVAL);

	/* types smcr does not send */
	llc_info_init(&info, SMC_LLC_REQ_ADD_LINK, false);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_build(&msg, &info), -EOPNOTSUPP);
	llc_info_init(&info, SMC_LLC_CONFIRM_LINK_V2, false);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_build(&msg, &info), -EOPNOTSUPP);
}

static void llc_reject_length(struct kunit *test)
{
	static const u8 lens[] = { 0, 1, 4, 43, 45, 48, 88, 255 };
	struct smc_llc_msg_info info;
	u8 buf[SMC_LLC_MSG_LEN + 4];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		memcpy(buf, golden_test_link_req, SMC_LLC_MSG_LEN);
		buf[1] = lens[i];
		KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, SMC_LLC_MSG_LEN, &info),
				-EPROTO);
	}
	/* fewer than 44 bytes received */
	memcpy(buf, golden_test_link_req, SMC_LLC_MSG_LEN);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, 0, &info), -EPROTO);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, 3, &info), -EPROTO);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, SMC_LLC_MSG_LEN - 1, &info),
			-EPROTO);
	/* a larger receive buffer: bytes beyond 44 are not the message's */
	memset(buf + SMC_LLC_MSG_LEN, 0xff, 4);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
}

static void llc_reject_unknown_type(struct kunit *test)
{
	/* class b'00' unknown, b'01' undefined, b'11' CDC (0xFE: Linux's) */
	static const u8 bad[] = {
		0x00, 0x0a, 0x0f, 0x10, 0x1f, 0x20, 0x23, 0x28, 0x2a, 0x3f,
		0x40, 0x41, 0x7f, 0xc0, 0xfe, 0xff,
	};
	struct smc_llc_msg_info info;
	u8 buf[SMC_LLC_MSG_LEN];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(buf, golden_test_link_req, sizeof(buf));
		buf[0] = bad[i];
		KUNIT_EXPECT_EQ_MSG(test, smc_llc_msg_parse(buf, sizeof(buf), &info),
				    -EPROTO, "type 0x%02x", bad[i]);
		KUNIT_EXPECT_NULL(test, smc_llc_msg_type_desc(bad[i]));
	}
}

/* A.3: optional types (b'10') are discarded silently: -EOPNOTSUPP */
static void llc_optional_types(struct kunit *test)
{
	struct smc_llc_msg_info info;
	u8 buf[SMC_LLC_MSG_LEN];
	unsigned int t;

	for (t = 0x80; t <= 0xbf; t++) {
		memcpy(buf, golden_test_link_req, sizeof(buf));
		buf[0] = t;
		buf[1] = 0;	/* even with a length smcr cannot judge */
		KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info),
				-EOPNOTSUPP);
		KUNIT_EXPECT_EQ(test, info.type, t);
		KUNIT_EXPECT_TRUE(test, smc_llc_msg_type_optional(t));
	}
	KUNIT_EXPECT_FALSE(test, smc_llc_msg_type_optional(SMC_LLC_TEST_LINK));
	KUNIT_EXPECT_FALSE(test, smc_llc_msg_type_optional(0xfe));
}

/*
 * Linux's REQ ADD LINK and v2 types: known, not supported, any length
 * (REQ ADD LINK: not in version 1 framing, llc_v2_req_add_link)
 */
static void llc_linux_v2_types(struct kunit *test)
{
	static const u8 v2[] = {
		SMC_LLC_REQ_ADD_LINK, SMC_LLC_CONFIRM_LINK_V2,
		SMC_LLC_ADD_LINK_V2, SMC_LLC_DELETE_LINK_V2,
		SMC_LLC_REQ_ADD_LINK_V2, SMC_LLC_CONFIRM_RKEY_V2,
		SMC_LLC_TEST_LINK_V2, SMC_LLC_DELETE_RKEY_V2,
	};
	struct smc_llc_msg_info info;
	u8 buf[SMC_LLC_MSG_LEN];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v2); i++) {
		memset(buf, 0, sizeof(buf));
		buf[0] = v2[i];
		buf[1] = 0x00;		/* v2: 16-bit length 0x0800 */
		buf[2] = 0x08;
		KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info),
				-EOPNOTSUPP);
		KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, 4, &info),
				-EOPNOTSUPP);
		KUNIT_EXPECT_EQ(test, info.type, v2[i]);
		KUNIT_ASSERT_NOT_NULL(test, smc_llc_msg_type_desc(v2[i]));
		/* REQ ADD LINK: only in its unwrapped version 2 form */
		if (v2[i] == SMC_LLC_REQ_ADD_LINK)
			KUNIT_EXPECT_TRUE(test,
					  smc_llc_msg_type_desc(v2[i])->v2_only);
		else
			KUNIT_EXPECT_FALSE(test,
					   smc_llc_msg_type_desc(v2[i])->supported);
	}
}

/*
 * Byte 3 bits each type leaves reserved, written from Figures 31-40
 * (CONFIRM LINK: Linux's 0x03 is allowed), for requests and replies.
 */
struct llc_flag_case {
	const u8 *vec;
	u8 reserved_req;
	u8 reserved_resp;
};

static const struct llc_flag_case llc_flag_cases[] = {
	{ golden_confirm_link_req, 0x7c, 0x7c },
	{ golden_add_link_req, 0x7f, 0x3f },
	{ golden_add_link_cont_req, 0x7f, 0x7f },
	{ golden_delete_link_req, 0x1f, 0x5f },	/* A: no reply */
	{ golden_confirm_rkey_req, 0x7f, 0x4f },	/* Z, C: reply only */
	{ golden_confirm_rkey_cont_req, 0x7f, 0x5f },
	{ golden_test_link_req, 0x7f, 0x7f },
};

static void llc_reject_reserved_flags(struct kunit *test)
{
	struct smc_llc_msg_info info;
	u8 buf[SMC_LLC_MSG_LEN];
	size_t i;
	int bit, resp;

	for (i = 0; i < ARRAY_SIZE(llc_flag_cases); i++) {
		const struct llc_flag_case *c = &llc_flag_cases[i];

		for (resp = 0; resp < 2; resp++) {
			u8 rsvd = resp ? c->reserved_resp : c->reserved_req;

			for (bit = 0; bit < 7; bit++) {
				if (!(rsvd & BIT(bit)))
					continue;
				memcpy(buf, c->vec, sizeof(buf));
				buf[3] = (buf[3] & SMC_LLC_FLAG_NO_RMBE_EYEC) |
					 (resp ? SMC_LLC_FLAG_RESP : 0) |
					 BIT(bit);
				KUNIT_EXPECT_EQ_MSG(test,
						    smc_llc_msg_parse(buf, sizeof(buf),
								      &info),
						    -EPROTO,
						    "type %u resp %d bit 0x%02lx",
						    buf[0], resp, BIT(bit));
			}
			/* the same message without the bit is valid */
			memcpy(buf, c->vec, sizeof(buf));
			buf[3] = (buf[3] & SMC_LLC_FLAG_NO_RMBE_EYEC) |
				 (resp ? SMC_LLC_FLAG_RESP : 0);
			KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf),
								&info), 0);
		}
	}
	/* DELETE RKEY: Z on a request; the golden is a negative reply */
	memcpy(buf, golden_delete_rkey_neg, sizeof(buf));
	buf[3] = SMC_LLC_FLAG_RKEY_NEG;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), -EPROTO);
	buf[3] = 0x80 | 0x40 | 0x20;	/* reserved "0" bit */
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), -EPROTO);
	buf[3] = 0x80 | 0x20 | 0x10;	/* no C in DELETE RKEY */
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), -EPROTO);
}

/* Byte 2: reserved; in ADD LINK the reason of a reject only */
static void llc_reject_reserved_byte2(struct kunit *test)
{
	const u8 *vecs[] = {
		golden_confirm_link_req, golden_add_link_req,
		golden_add_link_cont_req, golden_delete_link_req,
		golden_confirm_rkey_req, golden_confirm_rkey_cont_req,
		golden_delete_rkey_neg, golden_test_link_req,
	};
	struct smc_llc_msg_info info;
	u8 buf[SMC_LLC_MSG_LEN];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vecs); i++) {
		memcpy(buf, vecs[i], sizeof(buf));
		buf[2] = 0x01;
		KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info),
				-EPROTO);
		buf[2] = 0x80;
		KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info),
				-EPROTO);
	}
	/* reject: reason 0 or the reserved high nibble */
	memcpy(buf, golden_add_link_rej, sizeof(buf));
	buf[2] = 0x00;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), -EPROTO);
	buf[2] = 0x11;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), -EPROTO);
	buf[2] = SMC_LLC_REJ_RSN_INVALID_MTU;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
	KUNIT_EXPECT_EQ(test, info.add_link.reject_rsn,
			SMC_LLC_REJ_RSN_INVALID_MTU);
	buf[2] = 0x0f;		/* unknown reasons are the engine's business */
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
}

/* Reply-only flags on requests, and A on a reply */
static void llc_reject_reply_flags_on_request(struct kunit *test)
{
	struct smc_llc_msg_info info;
	u8 buf[SMC_LLC_MSG_LEN];

	memcpy(buf, golden_add_link_rej, sizeof(buf));
	buf[3] = SMC_LLC_FLAG_ADD_LINK_REJ;		/* Z, no R */
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), -EPROTO);

	memcpy(buf, golden_confirm_rkey_neg, sizeof(buf));
	buf[3] = SMC_LLC_FLAG_RKEY_NEG | SMC_LLC_FLAG_RKEY_RETRY;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), -EPROTO);
	buf[3] = SMC_LLC_FLAG_RESP | SMC_LLC_FLAG_RKEY_RETRY;	/* C, no Z */
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), -EPROTO);
	buf[3] = SMC_LLC_FLAG_RESP | SMC_LLC_FLAG_RKEY_NEG;	/* Z alone */
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
	KUNIT_EXPECT_FALSE(test, info.confirm_rkey.retry);

	/* DELETE LINK of the link group has no reply */
	memcpy(buf, golden_delete_link_all, sizeof(buf));
	buf[3] |= SMC_LLC_FLAG_RESP;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), -EPROTO);
}

static void llc_reject_counts(struct kunit *test)
{
	struct smc_llc_msg_info info;
	u8 buf[SMC_LLC_MSG_LEN];
	unsigned int n;

	/* CONFIRM RKEY: NumTkns 0..7 */
	for (n = 0; n <= 255; n++) {
		memcpy(buf, golden_confirm_rkey_req, sizeof(buf));
		buf[4] = n;
		KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info),
				n <= 7 ? 0 : -EPROTO);
	}
	/* CONFIRM RKEY CONTINUATION: NumTknsLeft 1..5 */
	for (n = 0; n <= 255; n++) {
		memcpy(buf, golden_confirm_rkey_cont_req, sizeof(buf));
		buf[4] = n;
		KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info),
				n >= 1 && n <= 5 ? 0 : -EPROTO);
	}
	/* DELETE RKEY: Count 1..8 */
	for (n = 0; n <= 255; n++) {
		memcpy(buf, golden_delete_rkey_neg, sizeof(buf));
		buf[4] = n;
		buf[5] = 0;
		KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info),
				n >= 1 && n <= 8 ? 0 : -EPROTO);
	}
	/* error mask: only listed RKeys (count 4: 0xf0), only with Z */
	for (n = 0; n <= 255; n++) {
		memcpy(buf, golden_delete_rkey_neg, sizeof(buf));
		buf[5] = n;
		KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info),
				n & 0x0f ? -EPROTO : 0);
	}
	memcpy(buf, golden_delete_rkey_neg, sizeof(buf));
	buf[3] = SMC_LLC_FLAG_RESP;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), -EPROTO);
	buf[5] = 0;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
	/* ADD LINK CONTINUATION: any count, 0 is an empty message */
	for (n = 0; n <= 255; n++) {
		memcpy(buf, golden_add_link_cont_req, sizeof(buf));
		buf[5] = n;
		KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
	}
}

/* Reserved body bytes, RToken slots beyond a count, MTU: not validated */
static void llc_parse_lenient_body(struct kunit *test)
{
	struct smc_llc_msg_info info;
	u8 buf[SMC_LLC_MSG_LEN];

	memcpy(buf, golden_add_link_req, sizeof(buf));
	buf[10] = 0xff;			/* Linux's reserved bytes */
	buf[32] = 0xf0;			/* reserved nibble, MTU 0 */
	memset(buf + 36, 0xff, 8);
	KUNIT_ASSERT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
	KUNIT_EXPECT_EQ(test, info.add_link.mtu, 0);
	KUNIT_EXPECT_EQ(test, info.add_link.gid[0], 0xfe);

	memcpy(buf, golden_confirm_rkey_req, sizeof(buf));
	memset(buf + 30, 0xee, 14);	/* slot 3 and byte 43 */
	KUNIT_ASSERT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
	KUNIT_EXPECT_EQ(test, info.confirm_rkey.others[1].rkey, 0U);
	KUNIT_EXPECT_EQ(test, info.confirm_rkey.others[1].link_num, 0);

	memcpy(buf, golden_delete_link_all, sizeof(buf));
	buf[4] = 3;			/* no meaning with A */
	KUNIT_ASSERT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
	KUNIT_EXPECT_EQ(test, info.delete_link.link_num, 0);

	memcpy(buf, golden_test_link_req, sizeof(buf));
	memset(buf + 20, 0xff, 24);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_parse(buf, sizeof(buf), &info), 0);
}

/* Type table: who sends which flavor, on which link state */
struct llc_sender_case {
	u8	type;
	bool	resp;
	bool	from_server;
	u8	state;
	int	rc;
};

static const struct llc_sender_case llc_sender_cases[] = {
	/* 3.5.1.5: the server confirms, the client replies; new link only */
	{ SMC_LLC_CONFIRM_LINK, false, true, SMC_LLC_LINK_ACTIVATING, 0 },
	{ SMC_LLC_CONFIRM_LINK, true, false, SMC_LLC_LINK_ACTIVATING, 0 },
	{ SMC_LLC_CONFIRM_LINK, false, false, SMC_LLC_LINK_ACTIVATING, -EPROTO },
	{ SMC_LLC_CONFIRM_LINK, true, true, SMC_LLC_LINK_ACTIVATING, -EPROTO },
	{ SMC_LLC_CONFIRM_LINK, false, true, SMC_LLC_LINK_ACTIVE, -EPROTO },
	/* 3.5.5.1.2: the client's ADD LINK gets no reply from the server */
	{ SMC_LLC_ADD_LINK, false, true, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_ADD_LINK, false, false, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_ADD_LINK, true, false, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_ADD_LINK, true, true, SMC_LLC_LINK_ACTIVE, -EPROTO },
	{ SMC_LLC_ADD_LINK, false, true, SMC_LLC_LINK_ACTIVATING, -EPROTO },
	/* A.3.3: the server asks, the client answers */
	{ SMC_LLC_ADD_LINK_CONT, false, true, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_ADD_LINK_CONT, true, false, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_ADD_LINK_CONT, false, false, SMC_LLC_LINK_ACTIVE, -EPROTO },
	{ SMC_LLC_ADD_LINK_CONT, true, true, SMC_LLC_LINK_ACTIVE, -EPROTO },
	/* 3.5.5.1.4: the server answers a client's DELETE LINK with a
	 * request of its own, never a reply
	 */
	{ SMC_LLC_DELETE_LINK, false, false, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_DELETE_LINK, false, true, SMC_LLC_LINK_ACTIVATING, 0 },
	{ SMC_LLC_DELETE_LINK, true, false, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_DELETE_LINK, true, true, SMC_LLC_LINK_ACTIVE, -EPROTO },
	/* RKeys and TEST LINK: both sides, active links */
	{ SMC_LLC_CONFIRM_RKEY, false, false, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_CONFIRM_RKEY, true, true, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_CONFIRM_RKEY, false, true, SMC_LLC_LINK_ACTIVATING, -EPROTO },
	{ SMC_LLC_CONFIRM_RKEY_CONT, true, false, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_DELETE_RKEY, false, true, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_DELETE_RKEY, true, false, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_TEST_LINK, false, false, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_TEST_LINK, true, true, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_TEST_LINK, false, true, SMC_LLC_LINK_ACTIVATING, -EPROTO },
	/* Linux's REQ ADD LINK (version 2): the client asks, the server
	 * answers, on active links
	 */
	{ SMC_LLC_REQ_ADD_LINK, false, false, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_REQ_ADD_LINK, true, true, SMC_LLC_LINK_ACTIVE, 0 },
	{ SMC_LLC_REQ_ADD_LINK, false, true, SMC_LLC_LINK_ACTIVE, -EPROTO },
	{ SMC_LLC_REQ_ADD_LINK, true, false, SMC_LLC_LINK_ACTIVE, -EPROTO },
	{ SMC_LLC_REQ_ADD_LINK, false, false, SMC_LLC_LINK_ACTIVATING,
	  -EPROTO },
	/* not supported */
	{ SMC_LLC_CONFIRM_LINK_V2, false, true, SMC_LLC_LINK_ACTIVE, -EPROTO },
	{ 0x7e, false, false, SMC_LLC_LINK_ACTIVE, -EPROTO },
};

static void llc_check_sender_table(struct kunit *test)
{
	struct smc_llc_msg_info info;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(llc_sender_cases); i++) {
		const struct llc_sender_case *c = &llc_sender_cases[i];

		llc_info_init(&info, c->type, c->resp);
		KUNIT_EXPECT_EQ_MSG(test,
				    smc_llc_msg_check_sender(&info, c->from_server,
							     c->state),
				    c->rc, "case %zu", i);
	}
}

#define F(x)	SMC_LLC_FLOW_##x
#define EV(x)	BIT(SMC_LLC_EV_##x)
#define ACT(x)	SMC_LLC_ACT_##x

/**
 * struct llc_rfc_rule - one statement of RFC 7609 3.5.5.3, as the RFC says it
 * @sec: its section
 * @flow: the exchange in progress the section is about
 * @msg: the "Colliding LLC message" (the request that comes in), verbatim
 * @resolve: the "Action to resolve", verbatim as far as it names the action
 * @events: the requests @msg names, BIT(enum smc_llc_event)
 * @action: the action @resolve names
 *
 * The texts are copied from the RFC, line breaks joined with one space
 * (its two spaces after a full stop kept), so that a reviewer can find
 * each in the RFC and judge @events and @action against it.
 */
struct llc_rfc_rule {
	const char	*sec;
	u8		flow;
	const char	*msg;
	const char	*resolve;
	u32		events;
	u8		action;
};

static const struct llc_rfc_rule llc_rfc_rules[] = {
	/* 3.5.5.3: the RKey exchanges of both peers do not collide */
	{ "3.5.5.3", F(RKEY),
	  "This allows each peer to concurrently change their RKeys and therefore concurrently send CONFIRM RKEY or DELETE RKEY requests.",
	  "The concurrent CONFIRM RKEY or DELETE RKEY requests can be independently processed and do not represent a collision.",
	  EV(CONFIRM_RKEY) | EV(DELETE_RKEY), ACT(PROCESS) },

	/* 3.5.5.3.1. Collisions with ADD LINK / CONFIRM LINK Exchange */
	{ "3.5.5.3.1", F(ADD_LINK),
	  "TEST LINK",
	  "Send immediate TEST LINK reply.",
	  EV(TEST_LINK), ACT(REPLY) },
	{ "3.5.5.3.1", F(ADD_LINK),
	  "ADD LINK from client to server",
	  "Server ignores the ADD LINK message.  When client receives server's ADD LINK, client will consider that message to be in response to its ADD LINK message and the flow works.",
	  EV(ADD_LINK_CLNT), ACT(IGNORE) },
	{ "3.5.5.3.1", F(ADD_LINK),
	  "DELETE LINK from client to server, specific link specified",
	  "Server queues the DELETE LINK message and processes it after the ADD LINK exchange completes.",
	  EV(DEL_LINK_CLNT_ONE), ACT(QUEUE) },
	{ "3.5.5.3.1", F(ADD_LINK),
	  "DELETE LINK from client to server, entire link group to be deleted",
	  "Immediately clean up the link group.",
	  EV(DEL_LINK_CLNT_ALL), ACT(TERMINATE) },
	{ "3.5.5.3.1", F(ADD_LINK),
	  "CONFIRM RKEY from client",
	  "Send a negative CONFIRM RKEY response to the client.",
	  EV(CONFIRM_RKEY), ACT(REJECT) },

	/* 3.5.5.3.2. Collisions during DELETE LINK Exchange */
	{ "3.5.5.3.2", F(DEL_LINK),
	  "TEST LINK from either peer",
	  "Send immediate TEST LINK response.",
	  EV(TEST_LINK), ACT(REPLY) },
	{ "3.5.5.3.2", F(DEL_LINK),
	  "ADD LINK from client to server",
	  "Server queues the ADD LINK and processes it after the current exchange completes.",
	  EV(ADD_LINK_CLNT), ACT(QUEUE) },
	{ "3.5.5.3.2", F(DEL_LINK),
	  "DELETE LINK from client to server (specific link)",
	  "Server queues the DELETE LINK message and processes it after the current exchange completes.",
	  EV(DEL_LINK_CLNT_ONE), ACT(QUEUE) },
	{ "3.5.5.3.2", F(DEL_LINK),
	  "DELETE LINK from either client or server, deleting the entire link group",
	  "Immediately clean up the link group.",
	  EV(DEL_LINK_CLNT_ALL) | EV(DEL_LINK_SERV_ALL), ACT(TERMINATE) },
	{ "3.5.5.3.2", F(DEL_LINK),
	  "CONFIRM RKEY from client to server",
	  "Send a negative CONFIRM RKEY response to the client.",
	  EV(CONFIRM_RKEY), ACT(REJECT) },

	/* 3.5.5.3.3. Collisions during CONFIRM RKEY Exchange */
	{ "3.5.5.3.3", F(RKEY),
	  "TEST LINK",
	  "Send immediate TEST LINK reply.",
	  EV(TEST_LINK), ACT(REPLY) },
	{ "3.5.5.3.3", F(RKEY),
	  "ADD LINK from client to server",
	  "Queue the ADD LINK, and process it after the current exchange completes.",
	  EV(ADD_LINK_CLNT), ACT(QUEUE) },
	{ "3.5.5.3.3", F(RKEY),
	  "ADD LINK from server to client (CONFIRM RKEY exchange was initiated by the client, and it crossed with the server initiating an ADD LINK exchange)",
	  "Process the ADD LINK.  Client will receive a negative CONFIRM RKEY from the server and will have to redo this CONFIRM RKEY exchange after the ADD LINK exchange completes.",
	  EV(ADD_LINK_SERV), ACT(YIELD) },
	{ "3.5.5.3.3", F(RKEY),
	  "DELETE LINK from client to server, specific link to be deleted (CONFIRM RKEY exchange was initiated by the server, and it crossed with the client's DELETE LINK request)",
	  "Server queues the DELETE LINK message and processes it after the CONFIRM RKEY exchange completes.",
	  EV(DEL_LINK_CLNT_ONE), ACT(QUEUE) },
	{ "3.5.5.3.3", F(RKEY),
	  "DELETE LINK from server to client, specific link deleted (CONFIRM RKEY exchange was initiated by the client, and it crossed with the server's DELETE LINK)",
	  "Process the DELETE LINK.  Client will receive a negative CONFIRM RKEY from the server and will have to redo this CONFIRM RKEY exchange after the ADD LINK exchange completes.",
	  EV(DEL_LINK_SERV_ONE), ACT(YIELD) },
	{ "3.5.5.3.3", F(RKEY),
	  "DELETE LINK from either client or server, entire link group deleted",
	  "Immediately clean up the link group.",
	  EV(DEL_LINK_CLNT_ALL) | EV(DEL_LINK_SERV_ALL), ACT(TERMINATE) },
	{ "3.5.5.3.3", F(RKEY),
	  "CONFIRM LINK from the peer that did not start the current CONFIRM LINK exchange",
	  "Queue the request, and process it after the current exchange completes.",
	  EV(CONFIRM_LINK), ACT(QUEUE) },
};

/*
 * How the RFC's words name each action: an "Action to resolve" names
 * the action of its rule if it holds one of these (the rules' texts are
 * checked against them, so an action cannot be paired with a text that
 * says another).
 */
static const char *const llc_rfc_says[][2] = {
	[ACT(PROCESS)]		= { "independently processed" },
	[ACT(REPLY)]		= { "Send immediate TEST LINK" },
	[ACT(QUEUE)]		= { "queues the", "Queue the" },
	[ACT(IGNORE)]		= { "ignores the" },
	[ACT(REJECT)]		= { "Send a negative CONFIRM RKEY" },
	[ACT(YIELD)]		= { "Process the" },
	[ACT(TERMINATE)]	= { "Immediately clean up the link group" },
};

static bool llc_rfc_names(const struct llc_rfc_rule *r)
{
	const char *const *says = llc_rfc_says[r->action];

	return (says[0] && strstr(r->resolve, says[0])) ||
	       (says[1] && strstr(r->resolve, says[1]));
}

/**
 * struct llc_deviation - a cell the RFC names where smcr does otherwise
 * @flow: the exchange in progress
 * @event: the request
 * @action: smcr's action, not the RFC's
 *
 * Each is a decision llc_msg.c explains; this list is where a reviewer
 * sees all of them at once.
 */
struct llc_deviation {
	u8	flow;
	u8	event;
	u8	action;
};

static const struct llc_deviation llc_deviations[] = {
	/* Linux's client fails on C and waits for its answer: confirm it */
	{ F(ADD_LINK), SMC_LLC_EV_CONFIRM_RKEY, ACT(PROCESS_KNOWN) },
};

static const struct llc_deviation *llc_deviation_of(unsigned int f,
						    unsigned int e)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(llc_deviations); i++)
		if (llc_deviations[i].flow == f && llc_deviations[i].event == e)
			return &llc_deviations[i];
	return NULL;
}

/*
 * The cells the RFC names no action for: smcr's own choice, written
 * here, not taken from the RFC (llc_msg.c says why). No flow in
 * progress: nothing collides, every request is handled, TEST LINK is
 * answered, DELETE LINK of all links ends the link group. During a flow
 * of adding or deleting a link: the server's requests (which wait behind
 * the client's flow in the LLC work anyway), CONFIRM LINK and DELETE
 * RKEY wait ("RKeys cannot change while links are being added or
 * deleted"); the server's DELETE LINK of the link group ends it. The
 * RKey row is all the RFC's. A cell 0 here (SMC_LLC_ACT_UNDEFINED) is
 * one the RFC must name.
 */
static const u8 llc_own_cells[SMC_LLC_FLOW_CNT][SMC_LLC_EV_CNT] = {
	[F(NONE)] = {
		[SMC_LLC_EV_TEST_LINK]		= ACT(REPLY),
		[SMC_LLC_EV_CONFIRM_LINK]	= ACT(PROCESS),
		[SMC_LLC_EV_ADD_LINK_CLNT]	= ACT(PROCESS),
		[SMC_LLC_EV_ADD_LINK_SERV]	= ACT(PROCESS),
		[SMC_LLC_EV_DEL_LINK_CLNT_ONE]	= ACT(PROCESS),
		[SMC_LLC_EV_DEL_LINK_CLNT_ALL]	= ACT(TERMINATE),
		[SMC_LLC_EV_DEL_LINK_SERV_ONE]	= ACT(PROCESS),
		[SMC_LLC_EV_DEL_LINK_SERV_ALL]	= ACT(TERMINATE),
		[SMC_LLC_EV_CONFIRM_RKEY]	= ACT(PROCESS),
		[SMC_LLC_EV_DELETE_RKEY]	= ACT(PROCESS),
	},
	[F(ADD_LINK)] = {
		[SMC_LLC_EV_CONFIRM_LINK]	= ACT(QUEUE),
		[SMC_LLC_EV_ADD_LINK_SERV]	= ACT(QUEUE),
		[SMC_LLC_EV_DEL_LINK_SERV_ONE]	= ACT(QUEUE),
		[SMC_LLC_EV_DEL_LINK_SERV_ALL]	= ACT(TERMINATE),
		[SMC_LLC_EV_DELETE_RKEY]	= ACT(QUEUE),
	},
	[F(DEL_LINK)] = {
		[SMC_LLC_EV_CONFIRM_LINK]	= ACT(QUEUE),
		[SMC_LLC_EV_ADD_LINK_SERV]	= ACT(QUEUE),
		[SMC_LLC_EV_DEL_LINK_SERV_ONE]	= ACT(QUEUE),
		[SMC_LLC_EV_DELETE_RKEY]	= ACT(QUEUE),
	},
};

/*
 * The collision table against RFC 7609 3.5.5.3 (llc_rfc_rules[]): every
 * cell a statement of the RFC names is marked .rfc and holds the action
 * the statement says, or is marked .deviates and holds the action
 * llc_deviations[] says; no cell is named twice, every .rfc cell is
 * named by a statement, and only the cells llc_deviations[] lists are
 * .deviates. The out-of-range lookups fail.
 */
static void llc_collision_table(struct kunit *test)
{
	u32 named[SMC_LLC_FLOW_CNT] = {};
	const struct smc_llc_collision *c;
	const struct llc_deviation *d;
	unsigned int f, e;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(llc_rfc_rules); i++) {
		const struct llc_rfc_rule *r = &llc_rfc_rules[i];

		KUNIT_EXPECT_TRUE_MSG(test, llc_rfc_names(r),
				      "%s \"%s\": the text names no action %u",
				      r->sec, r->msg, r->action);
		KUNIT_EXPECT_NE_MSG(test, r->events, 0, "%s \"%s\"", r->sec,
				    r->msg);
		for (e = 0; e < SMC_LLC_EV_CNT; e++) {
			if (!(r->events & BIT(e)))
				continue;
			KUNIT_EXPECT_FALSE_MSG(test, named[r->flow] & BIT(e),
					       "%s \"%s\": event %u named twice",
					       r->sec, r->msg, e);
			named[r->flow] |= BIT(e);
			c = smc_llc_msg_collision_lookup(r->flow, e);
			KUNIT_ASSERT_NOT_NULL(test, c);
			KUNIT_EXPECT_TRUE_MSG(test, c->rfc,
					      "%s \"%s\": event %u not .rfc",
					      r->sec, r->msg, e);
			d = llc_deviation_of(r->flow, e);
			KUNIT_EXPECT_EQ_MSG(test, c->action,
					    d ? d->action : r->action,
					    "%s \"%s\": event %u", r->sec,
					    r->msg, e);
			if (d)
				KUNIT_EXPECT_NE_MSG(test, d->action, r->action,
						    "%s \"%s\": event %u: a deviation that is none",
						    r->sec, r->msg, e);
		}
		KUNIT_EXPECT_EQ_MSG(test, r->events & ~GENMASK(SMC_LLC_EV_CNT - 1, 0),
				    0, "%s \"%s\"", r->sec, r->msg);
	}
	for (f = 0; f < SMC_LLC_FLOW_CNT; f++) {
		for (e = 0; e < SMC_LLC_EV_CNT; e++) {
			c = smc_llc_msg_collision_lookup(f, e);
			KUNIT_ASSERT_NOT_NULL(test, c);
			KUNIT_EXPECT_EQ_MSG(test, c->rfc, !!(named[f] & BIT(e)),
					    "flow %u, event %u: .rfc without an RFC statement, or an RFC statement without .rfc",
					    f, e);
			d = llc_deviation_of(f, e);
			KUNIT_EXPECT_EQ_MSG(test, c->deviates, !!d,
					    "flow %u, event %u: .deviates without an entry in llc_deviations[], or the reverse",
					    f, e);
			if (d)
				KUNIT_EXPECT_TRUE_MSG(test, named[f] & BIT(e),
						      "flow %u, event %u: a deviation from no RFC statement",
						      f, e);
		}
	}
	KUNIT_EXPECT_NULL(test, smc_llc_msg_collision_lookup(SMC_LLC_FLOW_CNT, 0));
	KUNIT_EXPECT_NULL(test, smc_llc_msg_collision_lookup(0, SMC_LLC_EV_CNT));
	KUNIT_EXPECT_NULL(test, smc_llc_msg_collision_lookup(-1, 0));
}

/*
 * The cells that are smcr's own choice (llc_own_cells[]): each holds
 * the action written there and is not marked .rfc; a cell without an
 * own action must be the RFC's.
 */
static void llc_collision_own(struct kunit *test)
{
	const struct smc_llc_collision *c;
	unsigned int f, e;

	for (f = 0; f < SMC_LLC_FLOW_CNT; f++) {
		for (e = 0; e < SMC_LLC_EV_CNT; e++) {
			c = smc_llc_msg_collision_lookup(f, e);
			KUNIT_ASSERT_NOT_NULL(test, c);
			if (llc_own_cells[f][e] == ACT(UNDEFINED)) {
				KUNIT_EXPECT_TRUE_MSG(test, c->rfc,
						      "flow %u, event %u", f, e);
				continue;
			}
			KUNIT_EXPECT_FALSE_MSG(test, c->rfc, "flow %u, event %u",
					       f, e);
			KUNIT_EXPECT_EQ_MSG(test, c->action, llc_own_cells[f][e],
					    "flow %u, event %u", f, e);
		}
	}
}

#undef F
#undef EV
#undef ACT

/*
 * Every flow smcr runs has a row, and every row a cell for every request:
 * a cell left out of the table is an error here, not "process" in the
 * kernel (which refuses it and ends the link group). Every row answers
 * TEST LINK at once.
 */
static void llc_collision_complete(struct kunit *test)
{
	const struct smc_llc_collision *c;
	unsigned int f, e;

	for (f = 0; f < SMC_LLC_FLOW_CNT; f++) {
		for (e = 0; e < SMC_LLC_EV_CNT; e++) {
			c = smc_llc_msg_collision_lookup(f, e);
			/* NULL: the cell is SMC_LLC_ACT_UNDEFINED */
			KUNIT_EXPECT_NOT_NULL_MSG(test, c, "flow %u, event %u",
						  f, e);
		}
		c = smc_llc_msg_collision_lookup(f, SMC_LLC_EV_TEST_LINK);
		if (c)
			KUNIT_EXPECT_EQ_MSG(test, c->action, SMC_LLC_ACT_REPLY,
					    "flow %u", f);
	}
}

/*
 * The server numbers a new link with the lowest number no other link of
 * the link group has; a free slot (0) takes none.
 */
static void llc_link_num_next(struct kunit *test)
{
	static const u8 none[3], one[3] = { 1 }, two[3] = { 1, 0, 2 };
	static const u8 gap[3] = { 0, 2, 3 }, high[3] = { 7, 255, 1 };
	u8 all[255];
	unsigned int i;

	KUNIT_EXPECT_EQ(test, smc_llc_msg_link_num_next(none, 3), 1);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_link_num_next(one, 3), 2);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_link_num_next(two, 3), 3);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_link_num_next(gap, 3), 1);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_link_num_next(high, 3), 2);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_link_num_next(NULL, 0), 1);
	for (i = 0; i < ARRAY_SIZE(all); i++)
		all[i] = i + 1;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_link_num_next(all, ARRAY_SIZE(all)), 0);
	all[100] = 0;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_link_num_next(all, ARRAY_SIZE(all)), 101);
}

/* 2.2.2: which side uses one port for both links decides the type */
static void llc_lgr_type(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, smc_llc_msg_lgr_type(false, false),
			SMC_LGR_SYMMETRIC);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_lgr_type(false, true),
			SMC_LGR_ASYMMETRIC_PEER);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_lgr_type(true, false),
			SMC_LGR_ASYMMETRIC_LOCAL);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_lgr_type(true, true),
			SMC_LGR_ASYMMETRIC_LOCAL);
	/* Linux's numbers, which netlink reports */
	KUNIT_EXPECT_EQ(test, SMC_LGR_SINGLE, 1);
	KUNIT_EXPECT_EQ(test, SMC_LGR_SYMMETRIC, 2);
	KUNIT_EXPECT_EQ(test, SMC_LGR_ASYMMETRIC_PEER, 3);
	KUNIT_EXPECT_EQ(test, SMC_LGR_ASYMMETRIC_LOCAL, 4);
}

static void llc_event_mapping(struct kunit *test)
{
	struct smc_llc_msg_info info;

	llc_info_init(&info, SMC_LLC_TEST_LINK, false);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, true),
			SMC_LLC_EV_TEST_LINK);
	llc_info_init(&info, SMC_LLC_CONFIRM_LINK, false);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, true),
			SMC_LLC_EV_CONFIRM_LINK);
	llc_info_init(&info, SMC_LLC_ADD_LINK, false);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, false),
			SMC_LLC_EV_ADD_LINK_CLNT);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, true),
			SMC_LLC_EV_ADD_LINK_SERV);
	llc_info_init(&info, SMC_LLC_DELETE_LINK, false);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, false),
			SMC_LLC_EV_DEL_LINK_CLNT_ONE);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, true),
			SMC_LLC_EV_DEL_LINK_SERV_ONE);
	info.delete_link.all = true;
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, false),
			SMC_LLC_EV_DEL_LINK_CLNT_ALL);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, true),
			SMC_LLC_EV_DEL_LINK_SERV_ALL);
	llc_info_init(&info, SMC_LLC_CONFIRM_RKEY, false);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, false),
			SMC_LLC_EV_CONFIRM_RKEY);
	llc_info_init(&info, SMC_LLC_DELETE_RKEY, false);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, true),
			SMC_LLC_EV_DELETE_RKEY);
	/* replies and continuations belong to the flow in progress */
	llc_info_init(&info, SMC_LLC_CONFIRM_RKEY, true);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, true), -EINVAL);
	llc_info_init(&info, SMC_LLC_ADD_LINK_CONT, false);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, true), -EINVAL);
	llc_info_init(&info, SMC_LLC_CONFIRM_RKEY_CONT, false);
	KUNIT_EXPECT_EQ(test, smc_llc_msg_event_of(&info, true), -EINVAL);
}

/* Type table: RFC type numbers, flows, every supported type parses */
static void llc_type_table(struct kunit *test)
{
	static const struct { u8 type; u8 flow; } rfc[] = {
		{ 1, SMC_LLC_FLOW_ADD_LINK }, { 2, SMC_LLC_FLOW_ADD_LINK },
		{ 3, SMC_LLC_FLOW_ADD_LINK }, { 4, SMC_LLC_FLOW_DEL_LINK },
		{ 6, SMC_LLC_FLOW_RKEY }, { 7, SMC_LLC_FLOW_NONE },
		{ 8, SMC_LLC_FLOW_RKEY }, { 9, SMC_LLC_FLOW_RKEY },
	};
	const struct smc_llc_type_desc *d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rfc); i++) {
		d = smc_llc_msg_type_desc(rfc[i].type);
		KUNIT_ASSERT_NOT_NULL(test, d);
		KUNIT_EXPECT_TRUE(test, d->supported);
		KUNIT_EXPECT_EQ(test, d->flow, rfc[i].flow);
		KUNIT_EXPECT_NOT_NULL(test, d->name);
		KUNIT_EXPECT_NE(test, d->req_from, 0);
		KUNIT_EXPECT_NE(test, d->resp_from, 0);
		KUNIT_EXPECT_EQ(test, d->flags_req & SMC_LLC_FLAG_RESP, 0);
		KUNIT_EXPECT_EQ(test, d->flags_resp & SMC_LLC_FLAG_RESP, 0);
	}
}

/* xorshift32: the same sequence on every run */
static u32 llc_rand(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/*
 * Random messages, biased to valid headers: parse only returns 0, -EPROTO
 * or -EOPNOTSUPP, and whatever it accepts builds and parses back alike.
 */
static void llc_fuzz_parse_build(struct kunit *test)
{
	static const u8 types[] = { 1, 2, 3, 4, 6, 7, 8, 9 };
	struct smc_llc_msg_info info, again;
	unsigned int i, j, accepted = 0;
	union smc_llc_msg msg;
	u32 seed = 0x5eed1234;
	int rc;

	for (i = 0; i < 20000; i++) {
		for (j = 0; j < SMC_LLC_MSG_LEN; j++)
			msg.raw[j] = llc_rand(&seed);
		if (i % 4) {
			msg.hdr.type = types[llc_rand(&seed) % ARRAY_SIZE(types)];
			msg.hdr.length = SMC_LLC_MSG_LEN;
			msg.hdr.add_link_rsn = i % 8 == 1 ?
					       llc_rand(&seed) & 0x0f : 0;
			msg.hdr.flags &= i % 3 ? SMC_LLC_FLAG_RESP : 0xf3;
			if (i % 5)
				msg.raw[4] &= 0x07;
		}
		rc = smc_llc_msg_parse(&msg, sizeof(msg), &info);
		KUNIT_ASSERT_TRUE(test, rc == 0 || rc == -EPROTO ||
				  rc == -EOPNOTSUPP);
		if (rc)
			continue;
		accepted++;
		KUNIT_ASSERT_EQ(test, smc_llc_msg_build(&msg, &info), 0);
		KUNIT_ASSERT_EQ(test, smc_llc_msg_parse(&msg, sizeof(msg), &again),
				0);
		KUNIT_ASSERT_EQ(test, memcmp(&info, &again, sizeof(info)), 0);
	}
	kunit_info(test, "%u of 20000 random messages accepted\n", accepted);
	KUNIT_EXPECT_GT(test, accepted, 100U);
}

static struct kunit_case smcr_llc_cases[] = {
	KUNIT_CASE(llc_v2_wrap_unwrap),
	KUNIT_CASE(llc_v2_add_link_ext),
	KUNIT_CASE(llc_v2_req_add_link),
	KUNIT_CASE(llc_confirm_link_golden_build),
	KUNIT_CASE(llc_confirm_link_golden_parse),
	KUNIT_CASE(llc_confirm_link_eyec_flag),
	KUNIT_CASE(llc_add_link_golden),
	KUNIT_CASE(llc_add_link_cont_golden),
	KUNIT_CASE(llc_delete_link_golden),
	KUNIT_CASE(llc_confirm_rkey_golden),
	KUNIT_CASE(llc_confirm_rkey_cont_golden),
	KUNIT_CASE(llc_delete_rkey_golden),
	KUNIT_CASE(llc_test_link_golden),
	KUNIT_CASE(llc_roundtrip_confirm_link),
	KUNIT_CASE(llc_roundtrip_add_link),
	KUNIT_CASE(llc_roundtrip_add_link_cont),
	KUNIT_CASE(llc_roundtrip_delete_link),
	KUNIT_CASE(llc_roundtrip_confirm_rkey),
	KUNIT_CASE(llc_roundtrip_confirm_rkey_cont),
	KUNIT_CASE(llc_roundtrip_delete_rkey),
	KUNIT_CASE(llc_roundtrip_test_link),
	KUNIT_CASE(llc_build_invalid),
	KUNIT_CASE(llc_reject_length),
	KUNIT_CASE(llc_reject_unknown_type),
	KUNIT_CASE(llc_optional_types),
	KUNIT_CASE(llc_linux_v2_types),
	KUNIT_CASE(llc_reject_reserved_flags),
	KUNIT_CASE(llc_reject_reserved_byte2),
	KUNIT_CASE(llc_reject_reply_flags_on_request),
	KUNIT_CASE(llc_reject_counts),
	KUNIT_CASE(llc_parse_lenient_body),
	KUNIT_CASE(llc_check_sender_table),
	KUNIT_CASE(llc_collision_table),
	KUNIT_CASE(llc_collision_own),
	KUNIT_CASE(llc_collision_complete),
	KUNIT_CASE(llc_link_num_next),
	KUNIT_CASE(llc_lgr_type),
	KUNIT_CASE(llc_event_mapping),
	KUNIT_CASE(llc_type_table),
	KUNIT_CASE(llc_fuzz_parse_build),
	{}
};

static struct kunit_suite smcr_llc_suite = {
	.name = "smcr_llc",
	.test_cases = smcr_llc_cases,
};

kunit_test_suite(smcr_llc_suite);
