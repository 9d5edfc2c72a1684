// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for net/smc/clc.c: CLC encoding and validation.
 *
 * Golden vectors are written by hand from RFC 7609, Appendix A.2
 * (Figures 25 to 30) and, for version 2, from the layout Linux 6.12's
 * smc_clc_send_proposal() sends; none is produced by the code under test.
 * Byte offsets in the comments are from the start of the message.
 */
#include <kunit/test.h>
#include <linux/smcr.h>
#include <smcr/clc.h>

static const u8 test_peer_id[SMC_PEER_ID_LEN] = {
	0x12, 0x34,				/* instance ID */
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc,	/* RoCE MAC */
};

/* Figure 30: v1 Decline, diagnosis NOSMCRDEV, S-bit clear */
static const u8 golden_decline_v1[28] = {
	0xE2, 0xD4, 0xC3, 0xD9,		/* eye catcher "SMCR" */
	0x04,				/* type 4: Decline */
	0x00, 0x1C,			/* length 28 */
	0x10,				/* version 1, S = 0 */
	0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, /* peer ID */
	0x03, 0x03, 0x00, 0x02,		/* peer diagnosis */
	0x00, 0x00, 0x00, 0x00,		/* reserved */
	0xE2, 0xD4, 0xC3, 0xD9,		/* trailer eye catcher */
};

/* Linux's version 2 Decline: 44 bytes, four more diagnosis words */
static const u8 golden_decline_v2[44] = {
	0xE2, 0xD4, 0xC3, 0xD9, 0x04, 0x00, 0x2C, 0x20,
	0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc,
	0x03, 0x01, 0x00, 0x00,		/* PEERNOSMC */
	0x10, 0x00, 0x00, 0x00,		/* os type Linux, reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xE2, 0xD4, 0xC3, 0xD9,
};

static void clc_decline_build_golden(struct kunit *test)
{
	struct smc_clc_decline dcl;
	size_t len;

	len = smc_clc_decline_build(&dcl, test_peer_id,
				    SMC_CLC_DECL_NOSMCRDEV, false);
	KUNIT_ASSERT_EQ(test, len, sizeof(golden_decline_v1));
	KUNIT_EXPECT_MEMEQ(test, &dcl, golden_decline_v1, len);
}

static void clc_decline_sync_bit(struct kunit *test)
{
	struct smc_clc_decline_info info;
	struct smc_clc_decline dcl;
	size_t len;

	len = smc_clc_decline_build(&dcl, test_peer_id, SMC_CLC_DECL_SYNCERR,
				    true);
	KUNIT_EXPECT_EQ(test, ((u8 *)&dcl)[7], 0x18);
	KUNIT_ASSERT_EQ(test, smc_clc_decline_parse(&dcl, len, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.out_of_sync);
	KUNIT_EXPECT_EQ(test, info.diagnosis, (u32)SMC_CLC_DECL_SYNCERR);
}

static void clc_decline_parse_golden_v1(struct kunit *test)
{
	struct smc_clc_decline_info info;

	KUNIT_ASSERT_EQ(test, smc_clc_decline_parse(golden_decline_v1,
						    sizeof(golden_decline_v1),
						    &info), 0);
	KUNIT_EXPECT_EQ(test, info.diagnosis, (u32)SMC_CLC_DECL_NOSMCRDEV);
	KUNIT_EXPECT_EQ(test, info.version, 1);
	KUNIT_EXPECT_FALSE(test, info.out_of_sync);
	KUNIT_EXPECT_MEMEQ(test, info.peer_id, test_peer_id, SMC_PEER_ID_LEN);
}

static void clc_decline_parse_golden_v2(struct kunit *test)
{
	struct smc_clc_decline_info info;

	KUNIT_ASSERT_EQ(test, smc_clc_decline_parse(golden_decline_v2,
						    sizeof(golden_decline_v2),
						    &info), 0);
	KUNIT_EXPECT_EQ(test, info.diagnosis, (u32)SMC_CLC_DECL_PEERNOSMC);
	KUNIT_EXPECT_EQ(test, info.version, 2);
}

static void clc_hdr_bad_eyecatcher(struct kunit *test)
{
	u8 msg[28];
	int i;

	for (i = 0; i < SMC_EYECATCHER_LEN; i++) {
		memcpy(msg, golden_decline_v1, sizeof(msg));
		msg[i] ^= 0x01;
		KUNIT_EXPECT_EQ(test, smc_clc_hdr_check((void *)msg), -EPROTO);
	}
	/* "SMCD" (SMC-D eye catcher) is not accepted for SMC-R */
	memcpy(msg, golden_decline_v1, sizeof(msg));
	msg[3] = 0xC4;
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check((void *)msg), -EPROTO);
}

static void clc_hdr_bad_type(struct kunit *test)
{
	static const u8 bad[] = { 0x00, 0x05, 0x7f, 0xff };
	u8 msg[28];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(msg, golden_decline_v1, sizeof(msg));
		msg[4] = bad[i];
		KUNIT_EXPECT_EQ(test, smc_clc_hdr_check((void *)msg), -EPROTO);
	}
}

static void clc_hdr_version_zero(struct kunit *test)
{
	u8 msg[28];

	memcpy(msg, golden_decline_v1, sizeof(msg));
	msg[7] = 0x00;
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check((void *)msg), -EPROTO);
}

static void clc_hdr_length_bounds(struct kunit *test)
{
	struct smc_clc_hdr hdr;

	memcpy(&hdr, golden_decline_v1, sizeof(hdr));
	hdr.type = SMC_CLC_PROPOSAL;
	hdr.length = cpu_to_be16(SMC_CLC_MIN_LEN);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), -EPROTO);
	/* the smallest Proposal: 40 fixed + 8 prefix area + 4 trailer */
	hdr.length = cpu_to_be16(51);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), -EPROTO);
	hdr.length = cpu_to_be16(52);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), 0);
	hdr.length = cpu_to_be16(SMC_CLC_MAX_LEN);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), 0);
	hdr.length = cpu_to_be16(SMC_CLC_MAX_LEN + 1);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), -EPROTO);
	hdr.length = cpu_to_be16(0xffff);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), -EPROTO);
	/* Accept and Confirm: at least the 68 bytes of A.2.3 */
	hdr.type = SMC_CLC_ACCEPT;
	hdr.length = cpu_to_be16(67);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), -EPROTO);
	hdr.length = cpu_to_be16(68);
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), 0);
	hdr.type = SMC_CLC_CONFIRM;
	hdr.length = cpu_to_be16(48);	/* an SMC-D v1 Confirm */
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), -EPROTO);
}

static void clc_decline_bad_length(struct kunit *test)
{
	static const u16 bad[] = { 12, 27, 29, 43, 45, 100 };
	struct smc_clc_hdr hdr;
	size_t i;

	memcpy(&hdr, golden_decline_v1, sizeof(hdr));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		hdr.length = cpu_to_be16(bad[i]);
		KUNIT_EXPECT_EQ(test, smc_clc_hdr_check(&hdr), -EPROTO);
	}
}

static void clc_decline_bad_trailer(struct kunit *test)
{
	struct smc_clc_decline_info info;
	u8 msg[28];

	memcpy(msg, golden_decline_v1, sizeof(msg));
	msg[27] = 0x00;
	KUNIT_EXPECT_EQ(test, smc_clc_trailer_check(msg, sizeof(msg)), -EPROTO);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_parse(msg, sizeof(msg), &info),
			-EPROTO);
}

static void clc_decline_parse_len_mismatch(struct kunit *test)
{
	struct smc_clc_decline_info info;
	u8 msg[44];

	/* a valid v1 Decline inside a longer buffer is not a 44-byte one */
	memset(msg, 0, sizeof(msg));
	memcpy(msg, golden_decline_v1, sizeof(golden_decline_v1));
	KUNIT_EXPECT_EQ(test, smc_clc_decline_parse(msg, sizeof(msg), &info),
			-EPROTO);
	/* and a short buffer is refused before any field is read */
	KUNIT_EXPECT_EQ(test, smc_clc_decline_parse(msg, 27, &info), -EPROTO);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_parse(msg, 0, &info), -EPROTO);
}

static void clc_decline_parse_wrong_type(struct kunit *test)
{
	struct smc_clc_decline_info info;
	u8 msg[28];

	memcpy(msg, golden_decline_v1, sizeof(msg));
	msg[4] = SMC_CLC_PROPOSAL;
	KUNIT_EXPECT_EQ(test, smc_clc_decline_parse(msg, sizeof(msg), &info),
			-EPROTO);
}

static void clc_trailer_short(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, smc_clc_trailer_check(golden_decline_v1, 11),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, smc_clc_trailer_check(golden_decline_v1, 28), 0);
}

/* RoCE GID fe80::200:ff:feaa:bbcc and MAC 02:00:00:aa:bb:cc */
static const u8 test_gid[SMC_GID_LEN] = {
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc,
};

static const u8 test_mac[SMC_MAC_LEN] = {
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc,
};

/* Figure 26: v1 Proposal over IPv4, 192.0.2.0/24 (length 52, per A.2.2) */
static const u8 golden_prop_v4[52] = {
	0xE2, 0xD4, 0xC3, 0xD9,		/*  0: eye catcher "SMCR" */
	0x01,				/*  4: type 1: Proposal */
	0x00, 0x34,			/*  5: length 52 */
	0x10,				/*  7: version 1, reserved 0 */
	0x12, 0x34,			/*  8: peer ID: instance ID */
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, /* 10: peer ID: RoCE MAC */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16: GID */
	0x02, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc,
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, /* 32: RoCE MAC */
	0x00, 0x00,			/* 38: offset to prefix area: 0 */
	0xc0, 0x00, 0x02, 0x00,		/* 40: IPv4 subnet 192.0.2.0 */
	0x18,				/* 44: IPv4 mask length 24 */
	0x00, 0x00,			/* 45: reserved */
	0x00,				/* 47: number of IPv6 prefixes */
	0xE2, 0xD4, 0xC3, 0xD9,		/* 48: trailer */
};

/* Figures 26 and 27: v1 Proposal over IPv6, two prefixes (length 86) */
static const u8 golden_prop_v6[86] = {
	0xE2, 0xD4, 0xC3, 0xD9,		/*  0: eye catcher */
	0x01,				/*  4: Proposal */
	0x00, 0x56,			/*  5: length 86 = 48 + 2 * 17 + 4 */
	0x10,				/*  7: version 1 */
	0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, /* 8: peer ID */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16: GID */
	0x02, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc,
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, /* 32: MAC */
	0x00, 0x00,			/* 38: offset 0 */
	0x00, 0x00, 0x00, 0x00,		/* 40: IPv4 subnet: zero on IPv6 */
	0x00,				/* 44: IPv4 mask length: zero */
	0x00, 0x00,			/* 45: reserved */
	0x02,				/* 47: two IPv6 prefixes */
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, /* 48: 2001:db8::/64 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x40,				/* 64: prefix length 64 */
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00, /* 65: 2001:db8:1::/48 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x30,				/* 81: prefix length 48 */
	0xE2, 0xD4, 0xC3, 0xD9,		/* 82: trailer */
};

/*
 * Linux 6.12 smc_clc_send_proposal() for SMC-R v2 + SMC-R v1 over IPv4
 * with one user EID and default sysctls (length 164).
 */
static const u8 golden_prop_linux_v2[164] = {
	0xE2, 0xD4, 0xC3, 0xD9,		/*   0: eye catcher */
	0x01,				/*   4: Proposal */
	0x00, 0xa4,			/*   5: length 164 */
	0x20,				/*   7: version 2, typev2 R, typev1 R */
	0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, /* 8: peer ID */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16: v1 GID */
	0x02, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc,
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, /* 32: MAC */
	0x00, 0x28,			/*  38: iparea_offset 40 (SMC-D area) */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 40: ISM GID */
	0x00, 0x00,			/*  48: ISM CHID */
	0x00, 0x24,			/*  50: v2_ext_offset 36: 28 + 8 */
	0x00, 0x00, 0x00,		/*  52: vendor OUI */
	0x00, 0x00, 0x00, 0x00, 0x00,	/*  55: vendor options */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 60: reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0xc0, 0x00, 0x02, 0x00,		/*  80: IPv4 subnet 192.0.2.0 */
	0x18, 0x00, 0x00, 0x00,		/*  84: /24, reserved, no IPv6 */
	0x01,				/*  88: v2 ext: one user EID */
	0x00,				/*  89: no ISM GIDs */
	0x00,				/*  90: reserved */
	0x10,				/*  91: release 1, SEID 0 */
	0x00, 0x00,			/*  92: reserved */
	0x00, 0x00,			/*  94: no SMC-D v2 extension */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 96: RoCE v2 GID */
	0x00, 0x00, 0xff, 0xff, 0xc0, 0x00, 0x02, 0x01, /* ::ffff:192.0.2.1 */
	0xff,				/* 112: max_conns 255 (sysctl) */
	0x02,				/* 113: max_links 2 (sysctl) */
	0x00, 0x01,			/* 114: feature mask: emulated ISM */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 116: reserved */
	0x00, 0x00, 0x00, 0x00,
	'S', 'M', 'C', 'R', '-', 'T', 'E', 'S', /* 128: user EID, blanks */
	'T', '-', 'E', 'I', 'D', ' ', ' ', ' ',
	' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
	' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
	0xE2, 0xD4, 0xC3, 0xD9,		/* 160: trailer */
};

/* Figure 28: v1 Accept, first contact */
static const u8 golden_accept[68] = {
	0xE2, 0xD4, 0xC3, 0xD9,		/*  0: eye catcher */
	0x02,				/*  4: type 2: Accept */
	0x00, 0x44,			/*  5: length 68 */
	0x18,				/*  7: version 1, F = 1 */
	0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, /* 8: peer ID */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16: GID */
	0x02, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc,
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, /* 32: MAC */
	0x12, 0x34, 0x56,		/* 38: QP number 0x123456 */
	0xde, 0xad, 0xbe, 0xef,		/* 41: RMB rkey */
	0x01,				/* 45: RMBE index 1 */
	0x00, 0x00, 0x10, 0x01,		/* 46: alert token 0x1001 */
	0x23,				/* 50: Bsize 2 (64K), MTU 3 (1024) */
	0x00,				/* 51: reserved */
	0x00, 0x00, 0x7f, 0x00, 0x12, 0x34, 0x50, 0x00, /* 52: RMB address */
	0x00,				/* 60: reserved */
	0xab, 0xcd, 0xef,		/* 61: initial PSN */
	0xE2, 0xD4, 0xC3, 0xD9,		/* 64: trailer */
};

/* Figure 29: v1 Confirm */
static const u8 golden_confirm[68] = {
	0xE2, 0xD4, 0xC3, 0xD9,		/*  0: eye catcher */
	0x03,				/*  4: type 3: Confirm */
	0x00, 0x44,			/*  5: length 68 */
	0x10,				/*  7: version 1 */
	0x56, 0x78, 0x02, 0x00, 0x00, 0x11, 0x22, 0x33, /* 8: peer ID */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16: GID */
	0x02, 0x00, 0x00, 0xff, 0xfe, 0x11, 0x22, 0x33,
	0x02, 0x00, 0x00, 0x11, 0x22, 0x33, /* 32: MAC */
	0x00, 0x00, 0x11,		/* 38: QP number 17 */
	0x00, 0x00, 0x01, 0x00,		/* 41: RMB rkey 0x100 */
	0x02,				/* 45: RMBE index 2 */
	0x80, 0x00, 0x00, 0x02,		/* 46: alert token */
	0x55,				/* 50: Bsize 5 (512K), MTU 5 (4096) */
	0x00,				/* 51: reserved */
	0xff, 0xff, 0x88, 0x80, 0x00, 0x00, 0x00, 0x00, /* 52: RMB address */
	0x00,				/* 60: reserved */
	0x00, 0x00, 0x01,		/* 61: initial PSN 1 */
	0xE2, 0xD4, 0xC3, 0xD9,		/* 64: trailer */
};

static const u8 ec[SMC_EYECATCHER_LEN] = SMC_EYECATCHER_R;

static void put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void set_v4(struct smc_clc_prefixes *p, u32 addr, u8 len)
{
	memset(p, 0, sizeof(*p));
	p->ipv4_cnt = 1;
	p->ipv4[0].addr = cpu_to_be32(addr);
	p->ipv4[0].len = len;
}

static void test_info_init(struct smc_clc_proposal_info *info)
{
	memset(info, 0, sizeof(*info));
	memcpy(info->peer_id, test_peer_id, SMC_PEER_ID_LEN);
	memcpy(info->gid, test_gid, SMC_GID_LEN);
	memcpy(info->mac, test_mac, SMC_MAC_LEN);
}

/*
 * Assemble a Proposal in Linux's version 2 layout (test-side, written
 * from Linux's send path): @t1/@t2 SMC types, @n6 IPv6 prefixes (0: IPv4),
 * @neid user EIDs, @nism ISM GIDs. Returns its length.
 */
static size_t tb_prop_v2(u8 *b, u8 t1, u8 t2, u8 n6, u8 neid, u8 nism)
{
	bool d2 = t2 == SMC_CLC_TYPE_D || t2 == SMC_CLC_TYPE_B;
	size_t pos = 80, ext;
	int i;

	memset(b, 0, SMC_CLC_MAX_LEN);
	memcpy(b, ec, 4);
	b[4] = SMC_CLC_PROPOSAL;
	b[7] = 0x20 | t2 << 2 | t1;
	memcpy(b + 8, test_peer_id, 8);
	memcpy(b + 16, test_gid, 16);
	memcpy(b + 32, test_mac, 6);
	if (t1 != SMC_CLC_TYPE_N) {
		put16(b + 38, 40);
		if (!n6) {
			b[80] = 192;
			b[82] = 2;
			b[84] = 24;
		}
		b[87] = n6;
		pos = 88;
		for (i = 0; i < n6; i++, pos += 17) {
			b[pos] = 0x20;
			b[pos + 1] = 0x01;
			b[pos + 2] = i;
			b[pos + 16] = 64;
		}
	}
	if (t2 != SMC_CLC_TYPE_N) {
		put16(b + 50, pos - 52);
		ext = pos;
		b[ext] = neid;
		b[ext + 1] = d2 ? nism : 0;
		b[ext + 3] = 0x10 | (d2 ? 1 : 0);
		b[ext + 8 + 15] = 0x42;		/* RoCE v2 GID */
		b[ext + 32] = 255;
		b[ext + 33] = 2;
		b[ext + 35] = 1;
		pos += 40;
		for (i = 0; i < neid; i++, pos += 32) {
			memset(b + pos, ' ', 32);
			b[pos] = 'A' + i;
		}
		if (d2) {
			put16(b + ext + 6, pos - (ext + 8));
			memset(b + pos, 'S', 32);	/* system EID */
			pos += 48 + nism * 10;
		}
	}
	memcpy(b + pos, ec, 4);
	pos += 4;
	put16(b + 5, pos);
	return pos;
}

static void clc_proposal_build_golden_v4(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 buf[SMC_CLC_PROPOSAL_V1_MAX_LEN];

	test_info_init(&info);
	set_v4(&info.prefixes, 0xc0000200, 24);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_build(buf, sizeof(buf), &info),
			52);
	KUNIT_EXPECT_MEMEQ(test, buf, golden_prop_v4, 52);
}

static void clc_proposal_build_golden_v6(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 buf[SMC_CLC_PROPOSAL_V1_MAX_LEN];

	test_info_init(&info);
	info.prefixes.ipv6_cnt = 2;
	memcpy(&info.prefixes.ipv6[0], golden_prop_v6 + 48, 17);
	memcpy(&info.prefixes.ipv6[1], golden_prop_v6 + 65, 17);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_build(buf, sizeof(buf), &info),
			86);
	KUNIT_EXPECT_MEMEQ(test, buf, golden_prop_v6, 86);
}

static void clc_proposal_parse_golden_v4(struct kunit *test)
{
	struct smc_clc_proposal_info info;

	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(golden_prop_v4, 52, &info),
			0);
	KUNIT_EXPECT_EQ(test, info.version, 1);
	KUNIT_EXPECT_EQ(test, info.type_v1, SMC_CLC_TYPE_R);
	KUNIT_EXPECT_EQ(test, info.type_v2, SMC_CLC_TYPE_N);
	KUNIT_EXPECT_TRUE(test, info.smcr_v1);
	KUNIT_EXPECT_FALSE(test, info.smcr_v2);
	KUNIT_EXPECT_MEMEQ(test, info.peer_id, test_peer_id, SMC_PEER_ID_LEN);
	KUNIT_EXPECT_MEMEQ(test, info.gid, test_gid, SMC_GID_LEN);
	KUNIT_EXPECT_MEMEQ(test, info.mac, test_mac, SMC_MAC_LEN);
	KUNIT_EXPECT_EQ(test, info.prefixes.ipv4_cnt, 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(info.prefixes.ipv4[0].addr),
			0xc0000200U);
	KUNIT_EXPECT_EQ(test, info.prefixes.ipv4[0].len, 24);
	KUNIT_EXPECT_EQ(test, info.prefixes.ipv6_cnt, 0);
	KUNIT_EXPECT_FALSE(test, info.has_v2_ext);
}

static void clc_proposal_parse_golden_v6(struct kunit *test)
{
	struct smc_clc_proposal_info info;

	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(golden_prop_v6, 86, &info),
			0);
	KUNIT_EXPECT_TRUE(test, info.smcr_v1);
	KUNIT_EXPECT_EQ(test, info.prefixes.ipv4_cnt, 0);
	KUNIT_ASSERT_EQ(test, info.prefixes.ipv6_cnt, 2);
	KUNIT_EXPECT_MEMEQ(test, &info.prefixes.ipv6[0], golden_prop_v6 + 48,
			   17);
	KUNIT_EXPECT_EQ(test, info.prefixes.ipv6[1].prefix_len, 48);
}

static void proposal_roundtrip(struct kunit *test, u8 n6)
{
	struct smc_clc_proposal_info in, out;
	u8 buf[SMC_CLC_PROPOSAL_V1_MAX_LEN];
	int i, len;

	test_info_init(&in);
	if (!n6)
		set_v4(&in.prefixes, 0x0a010000, 16);
	in.prefixes.ipv6_cnt = n6;
	for (i = 0; i < n6; i++) {
		memset(in.prefixes.ipv6[i].prefix, 0xa0 + i, 16);
		in.prefixes.ipv6[i].prefix_len = 8 * (i + 1) + i;
	}
	len = smc_clc_proposal_build(buf, sizeof(buf), &in);
	KUNIT_ASSERT_EQ(test, len, 52 + n6 * 17);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(buf, len, &out), 0);
	KUNIT_EXPECT_MEMEQ(test, out.peer_id, in.peer_id, SMC_PEER_ID_LEN);
	KUNIT_EXPECT_MEMEQ(test, out.gid, in.gid, SMC_GID_LEN);
	KUNIT_EXPECT_MEMEQ(test, out.mac, in.mac, SMC_MAC_LEN);
	KUNIT_EXPECT_EQ(test, out.prefixes.ipv4_cnt, in.prefixes.ipv4_cnt);
	KUNIT_EXPECT_EQ(test, out.prefixes.ipv6_cnt, n6);
	if (!n6) {
		KUNIT_EXPECT_EQ(test, be32_to_cpu(out.prefixes.ipv4[0].addr),
				be32_to_cpu(in.prefixes.ipv4[0].addr));
		KUNIT_EXPECT_EQ(test, out.prefixes.ipv4[0].len, 16);
	}
	for (i = 0; i < n6; i++)
		KUNIT_EXPECT_MEMEQ(test, &out.prefixes.ipv6[i],
				   &in.prefixes.ipv6[i], 17);
	/* a buffer one byte short is refused */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_build(buf, len - 1, &in),
			-EMSGSIZE);
}

static void clc_proposal_roundtrip_ipv4(struct kunit *test)
{
	proposal_roundtrip(test, 0);
}

static void clc_proposal_roundtrip_ipv6_1(struct kunit *test)
{
	proposal_roundtrip(test, 1);
}

static void clc_proposal_roundtrip_ipv6_8(struct kunit *test)
{
	proposal_roundtrip(test, 8);
}

static void clc_proposal_build_invalid(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 buf[SMC_CLC_PROPOSAL_V1_MAX_LEN + 17];

	test_info_init(&info);
	/* neither an IPv4 subnet nor IPv6 prefixes */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_build(buf, sizeof(buf), &info),
			-EINVAL);
	set_v4(&info.prefixes, 0x0a000000, 33);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_build(buf, sizeof(buf), &info),
			-EINVAL);
	info.prefixes.ipv4_cnt = 2;
	info.prefixes.ipv4[0].len = 8;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_build(buf, sizeof(buf), &info),
			-EINVAL);
	memset(&info.prefixes, 0, sizeof(info.prefixes));
	info.prefixes.ipv6_cnt = 9;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_build(buf, sizeof(buf), &info),
			-EINVAL);
	info.prefixes.ipv6_cnt = 1;
	info.prefixes.ipv6[0].prefix_len = 129;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_build(buf, sizeof(buf), &info),
			-EINVAL);
	info.prefixes.ipv6[0].prefix_len = 128;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_build(buf, 10, &info),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_build(buf, sizeof(buf), &info),
			69);
}

static void clc_proposal_parse_linux_v2(struct kunit *test)
{
	struct smc_clc_proposal_info info;

	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(golden_prop_linux_v2,
						     164, &info), 0);
	KUNIT_EXPECT_EQ(test, info.version, 2);
	KUNIT_EXPECT_EQ(test, info.type_v1, SMC_CLC_TYPE_R);
	KUNIT_EXPECT_EQ(test, info.type_v2, SMC_CLC_TYPE_R);
	KUNIT_EXPECT_TRUE(test, info.smcr_v1);
	KUNIT_EXPECT_MEMEQ(test, info.peer_id, test_peer_id, SMC_PEER_ID_LEN);
	KUNIT_EXPECT_MEMEQ(test, info.gid, test_gid, SMC_GID_LEN);
	KUNIT_EXPECT_MEMEQ(test, info.mac, test_mac, SMC_MAC_LEN);
	KUNIT_EXPECT_EQ(test, info.prefixes.ipv4_cnt, 1);
	KUNIT_EXPECT_EQ(test, info.prefixes.ipv4[0].len, 24);
	KUNIT_EXPECT_TRUE(test, info.has_v2_ext);
	KUNIT_EXPECT_EQ(test, info.release, 1);
	KUNIT_EXPECT_FALSE(test, info.seid);
	KUNIT_EXPECT_MEMEQ(test, info.roce_v2_gid, golden_prop_linux_v2 + 96,
			   16);
	KUNIT_EXPECT_EQ(test, info.max_conns, 255);
	KUNIT_EXPECT_EQ(test, info.max_links, 2);
	KUNIT_EXPECT_EQ(test, info.feature_mask, 1);
	KUNIT_ASSERT_EQ(test, info.eid_cnt, 1);
	KUNIT_EXPECT_MEMEQ(test, info.eids[0], golden_prop_linux_v2 + 128, 32);
	KUNIT_EXPECT_FALSE(test, info.has_smcd_v2_ext);
}

static void clc_proposal_parse_v2_all_parts(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 *b = kunit_kzalloc(test, SMC_CLC_MAX_LEN, GFP_KERNEL);
	size_t len;

	KUNIT_ASSERT_NOT_NULL(test, b);
	/* every optional part at Linux's maximum: 652 bytes */
	len = tb_prop_v2(b, SMC_CLC_TYPE_B, SMC_CLC_TYPE_B, 8, 8, 8);
	KUNIT_ASSERT_EQ(test, len, SMC_CLC_PROPOSAL_LINUX_MAX_LEN);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(b, len, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.smcr_v1);
	KUNIT_EXPECT_EQ(test, info.prefixes.ipv6_cnt, 8);
	KUNIT_EXPECT_EQ(test, info.eid_cnt, 8);
	KUNIT_EXPECT_EQ(test, info.eids[7][0], 'H');
	KUNIT_EXPECT_TRUE(test, info.seid);
	KUNIT_EXPECT_TRUE(test, info.has_smcd_v2_ext);
	KUNIT_EXPECT_EQ(test, info.ism_gid_cnt, 8);
	/* SMC-D v2 only, SMC-R v1 + SMC-D v1 */
	len = tb_prop_v2(b, SMC_CLC_TYPE_B, SMC_CLC_TYPE_D, 1, 0, 2);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(b, len, &info), 0);
	KUNIT_EXPECT_EQ(test, info.type_v2, SMC_CLC_TYPE_D);
	KUNIT_EXPECT_EQ(test, info.ism_gid_cnt, 2);
	KUNIT_EXPECT_EQ(test, info.eid_cnt, 0);
	/* v2 type N: no v2 extension at all */
	len = tb_prop_v2(b, SMC_CLC_TYPE_R, SMC_CLC_TYPE_N, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, len, 92);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(b, len, &info), 0);
	KUNIT_EXPECT_FALSE(test, info.has_v2_ext);
	KUNIT_EXPECT_TRUE(test, info.smcr_v1);
}

static void clc_proposal_no_smcr_v1(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 *b = kunit_kzalloc(test, SMC_CLC_MAX_LEN, GFP_KERNEL);
	size_t len;

	KUNIT_ASSERT_NOT_NULL(test, b);
	/* SMC-R v2 only: no prefix area, iparea_offset 0 (as Linux) */
	len = tb_prop_v2(b, SMC_CLC_TYPE_N, SMC_CLC_TYPE_R, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, len, 124);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(b, len, &info), 0);
	KUNIT_EXPECT_FALSE(test, info.smcr_v1);
	KUNIT_EXPECT_TRUE(test, info.smcr_v2);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_code(-EOPNOTSUPP),
			(u32)SMC_CLC_DECL_MODEUNSUPP);
	/* SMC-D v1 only */
	len = tb_prop_v2(b, SMC_CLC_TYPE_D, SMC_CLC_TYPE_N, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(b, len, &info), 0);
	KUNIT_EXPECT_FALSE(test, info.smcr_v1);
	/* neither, neither */
	len = tb_prop_v2(b, SMC_CLC_TYPE_N, SMC_CLC_TYPE_N, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(b, len, &info), 0);
	KUNIT_EXPECT_FALSE(test, info.smcr_v1);
	KUNIT_EXPECT_FALSE(test, info.smcr_v2);
}

static void clc_proposal_v1_area_offset(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 b[52 + 40];

	/* a v1 Proposal with 40 bytes of "future growth" (Linux SMC-D v1) */
	memset(b, 0, sizeof(b));
	memcpy(b, golden_prop_v4, 40);
	b[6] = sizeof(b);
	b[7] = 0x10 | SMC_CLC_TYPE_B;
	b[39] = 40;
	memcpy(b + 80, golden_prop_v4 + 40, 12);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(b, sizeof(b), &info), 0);
	KUNIT_EXPECT_TRUE(test, info.smcr_v1);
	KUNIT_EXPECT_EQ(test, info.type_v1, SMC_CLC_TYPE_B);
	KUNIT_EXPECT_EQ(test, info.prefixes.ipv4[0].len, 24);
	/* the offset must land exactly on the prefix area */
	b[39] = 39;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, sizeof(b), &info),
			-EPROTO);
	b[39] = 41;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, sizeof(b), &info),
			-EPROTO);
}

static void clc_proposal_reject_short_long(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 b[53];
	size_t len;

	/* every truncation, with a header length that matches or not */
	for (len = 0; len < 52; len++) {
		memcpy(b, golden_prop_v4, 52);
		KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, len, &info),
				-EPROTO);
		b[6] = len;
		if (len >= 4)
			memcpy(b + len - 4, ec, 4);
		KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, len, &info),
				-EPROTO);
	}
	/* one byte too many, header and trailer adjusted */
	memcpy(b, golden_prop_v4, 52);
	b[6] = 53;
	memcpy(b + 49, ec, 4);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 53, &info), -EPROTO);
	/* the info is cleared on failure */
	KUNIT_EXPECT_EQ(test, info.prefixes.ipv4_cnt, 0);
}

static void clc_proposal_reject_eyecatchers(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 b[52];
	int i;

	for (i = 0; i < 4; i++) {
		memcpy(b, golden_prop_v4, 52);
		b[i] ^= 0x40;
		KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 52, &info),
				-EPROTO);
		memcpy(b, golden_prop_v4, 52);
		b[48 + i] ^= 0x40;
		KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 52, &info),
				-EPROTO);
	}
	/* trailer "SMCD" */
	memcpy(b, golden_prop_v4, 52);
	b[51] = 0xC4;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 52, &info), -EPROTO);
}

static void clc_proposal_reject_prefix_count(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 b[86];

	memcpy(b, golden_prop_v6, 86);
	b[47] = 3;	/* three announced, two present */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 86, &info), -EPROTO);
	b[47] = 1;	/* one announced, two present */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 86, &info), -EPROTO);
	b[47] = 9;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 86, &info), -EPROTO);
	b[47] = 0xff;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 86, &info), -EPROTO);
	b[47] = 2;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 86, &info), 0);
}

static void clc_proposal_reject_area_offset(struct kunit *test)
{
	static const u16 bad[] = { 1, 4, 12, 13, 100, 0x7fff, 0xffff };
	struct smc_clc_proposal_info info;
	u8 b[52];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(b, golden_prop_v4, 52);
		put16(b + 38, bad[i]);
		KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 52, &info),
				-EPROTO);
	}
}

static void clc_proposal_reject_prefix_len(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 b[86];

	memcpy(b, golden_prop_v4, 52);
	b[44] = 33;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 52, &info), -EPROTO);
	b[44] = 32;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 52, &info), 0);
	memcpy(b, golden_prop_v6, 86);
	b[81] = 129;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 86, &info), -EPROTO);
	/* IPv4 fields of an IPv6 Proposal are not looked at */
	memcpy(b, golden_prop_v6, 86);
	b[44] = 0xff;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 86, &info), 0);
}

static void clc_proposal_reject_version_type(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 b[52];

	memcpy(b, golden_prop_v4, 52);
	b[7] = 0x00;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 52, &info), -EPROTO);
	b[7] = 0x10;
	b[4] = SMC_CLC_ACCEPT;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 52, &info), -EPROTO);
	b[4] = 0x09;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 52, &info), -EPROTO);
	/* v2 bits in a v1 header are reserved: ignored */
	b[4] = SMC_CLC_PROPOSAL;
	b[7] = 0x1c;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 52, &info), 0);
	KUNIT_EXPECT_EQ(test, info.type_v2, SMC_CLC_TYPE_N);
	/* a v2 header on a v1 body: no SMC-D area, so malformed */
	b[7] = 0x20;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 52, &info), -EPROTO);
}

static void clc_proposal_reject_v2_ext_offset(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 b[164];

	memcpy(b, golden_prop_linux_v2, 164);
	put16(b + 50, 0);	/* SMC-R v2 offered but no v2 extension */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 164, &info), -EPROTO);
	put16(b + 50, 35);	/* overlaps the prefix area */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 164, &info), -EPROTO);
	put16(b + 50, 37);	/* extension runs into the trailer */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 164, &info), -EPROTO);
	put16(b + 50, 200);	/* past the end */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 164, &info), -EPROTO);
	put16(b + 50, 0xffff);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 164, &info), -EPROTO);
	/* v2 iparea_offset must be the SMC-D area when v1 is offered */
	memcpy(b, golden_prop_linux_v2, 164);
	put16(b + 38, 0);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 164, &info), -EPROTO);
}

static void clc_proposal_reject_v2_eid_count(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 *b = kunit_kzalloc(test, SMC_CLC_MAX_LEN, GFP_KERNEL);
	size_t len;

	KUNIT_ASSERT_NOT_NULL(test, b);
	memcpy(b, golden_prop_linux_v2, 164);
	b[88] = 0;	/* one EID present, none announced */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 164, &info), -EPROTO);
	b[88] = 2;	/* two announced */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, 164, &info), -EPROTO);
	/* nine EIDs, with a length that matches them */
	len = tb_prop_v2(b, SMC_CLC_TYPE_R, SMC_CLC_TYPE_R, 0, 9, 0);
	KUNIT_ASSERT_EQ(test, len, 164 + 8 * 32);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, len, &info), -EPROTO);
	len = tb_prop_v2(b, SMC_CLC_TYPE_R, SMC_CLC_TYPE_R, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, len, &info), 0);
}

static void clc_proposal_reject_v2_smcd_ext(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	u8 *b = kunit_kzalloc(test, SMC_CLC_MAX_LEN, GFP_KERNEL);
	size_t len, ext;

	KUNIT_ASSERT_NOT_NULL(test, b);
	len = tb_prop_v2(b, SMC_CLC_TYPE_B, SMC_CLC_TYPE_B, 0, 1, 1);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(b, len, &info), 0);
	ext = 88;
	KUNIT_ASSERT_EQ(test, b[ext + 7], 64);	/* 40 - 8 + 32 */
	put16(b + ext + 6, 0);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, len, &info), -EPROTO);
	put16(b + ext + 6, 63);	/* overlaps the user EID */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, len, &info), -EPROTO);
	put16(b + ext + 6, 65);	/* runs into the trailer */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, len, &info), -EPROTO);
	put16(b + ext + 6, 0xfff0);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, len, &info), -EPROTO);
	put16(b + ext + 6, 64);
	b[ext + 1] = 2;		/* ISM count inconsistent with the length */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, len, &info), -EPROTO);
	/* nine ISM GIDs, with a length that matches them */
	len = tb_prop_v2(b, SMC_CLC_TYPE_B, SMC_CLC_TYPE_B, 0, 1, 9);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_parse(b, len, &info), -EPROTO);
}

static const struct smc_clc_accept_info golden_accept_info = {
	.peer_id = { 0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc },
	.gid = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		 0x02, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc },
	.mac = { 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc },
	.qpn = 0x123456,
	.rmb_rkey = 0xdeadbeef,
	.rmbe_idx = 1,
	.rmbe_alert_token = 0x1001,
	.rmbe_size_code = 2,
	.mtu_code = 3,
	.rmb_vaddr = 0x00007f0012345000ULL,
	.psn = 0xabcdef,
	.first_contact = true,
	.version = 1,
};

static const struct smc_clc_accept_info golden_confirm_info = {
	.peer_id = { 0x56, 0x78, 0x02, 0x00, 0x00, 0x11, 0x22, 0x33 },
	.gid = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		 0x02, 0x00, 0x00, 0xff, 0xfe, 0x11, 0x22, 0x33 },
	.mac = { 0x02, 0x00, 0x00, 0x11, 0x22, 0x33 },
	.qpn = 17,
	.rmb_rkey = 0x100,
	.rmbe_idx = 2,
	.rmbe_alert_token = 0x80000002,
	.rmbe_size_code = 5,
	.mtu_code = 5,
	.rmb_vaddr = 0xffff888000000000ULL,
	.psn = 1,
	.first_contact = false,
	.version = 1,
};

static void expect_accept_info_eq(struct kunit *test,
				  const struct smc_clc_accept_info *a,
				  const struct smc_clc_accept_info *b)
{
	KUNIT_EXPECT_MEMEQ(test, a->peer_id, b->peer_id, SMC_PEER_ID_LEN);
	KUNIT_EXPECT_MEMEQ(test, a->gid, b->gid, SMC_GID_LEN);
	KUNIT_EXPECT_MEMEQ(test, a->mac, b->mac, SMC_MAC_LEN);
	KUNIT_EXPECT_EQ(test, a->qpn, b->qpn);
	KUNIT_EXPECT_EQ(test, a->rmb_rkey, b->rmb_rkey);
	KUNIT_EXPECT_EQ(test, a->rmbe_idx, b->rmbe_idx);
	KUNIT_EXPECT_EQ(test, a->rmbe_alert_token, b->rmbe_alert_token);
	KUNIT_EXPECT_EQ(test, a->rmbe_size_code, b->rmbe_size_code);
	KUNIT_EXPECT_EQ(test, a->mtu_code, b->mtu_code);
	KUNIT_EXPECT_EQ(test, a->rmb_vaddr, b->rmb_vaddr);
	KUNIT_EXPECT_EQ(test, a->psn, b->psn);
	KUNIT_EXPECT_EQ(test, a->first_contact, b->first_contact);
	KUNIT_EXPECT_EQ(test, a->version, b->version);
}

static void clc_accept_build_golden(struct kunit *test)
{
	struct smc_clc_accept_confirm msg;

	KUNIT_ASSERT_EQ(test, smc_clc_accept_build(&msg, sizeof(msg), &golden_accept_info),
			68);
	KUNIT_EXPECT_MEMEQ(test, &msg, golden_accept, 68);
}

static void clc_confirm_build_golden(struct kunit *test)
{
	struct smc_clc_accept_confirm msg;

	KUNIT_ASSERT_EQ(test,
			smc_clc_confirm_build(&msg, sizeof(msg), &golden_confirm_info), 68);
	KUNIT_EXPECT_MEMEQ(test, &msg, golden_confirm, 68);
}

static void clc_accept_parse_golden(struct kunit *test)
{
	struct smc_clc_accept_info info;

	KUNIT_ASSERT_EQ(test, smc_clc_accept_parse(golden_accept, 68, &info),
			0);
	expect_accept_info_eq(test, &info, &golden_accept_info);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_size(info.rmbe_size_code),
			65536U);
	KUNIT_EXPECT_EQ(test, smc_clc_mtu_to_bytes(info.mtu_code), 1024);
}

static void clc_confirm_parse_golden(struct kunit *test)
{
	struct smc_clc_accept_info info;

	KUNIT_ASSERT_EQ(test, smc_clc_confirm_parse(golden_confirm, 68, &info),
			0);
	expect_accept_info_eq(test, &info, &golden_confirm_info);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_size(info.rmbe_size_code),
			512U * 1024);
}

static void clc_accept_roundtrip_first_contact(struct kunit *test)
{
	struct smc_clc_accept_info in = golden_accept_info, out;
	struct smc_clc_accept_confirm msg;
	int fc;

	for (fc = 0; fc < 2; fc++) {
		in.first_contact = fc;
		KUNIT_ASSERT_EQ(test, smc_clc_accept_build(&msg, sizeof(msg), &in), 68);
		KUNIT_EXPECT_EQ(test, msg.hdr.flags, fc ? 0x18 : 0x10);
		KUNIT_ASSERT_EQ(test, smc_clc_accept_parse(&msg, 68, &out), 0);
		expect_accept_info_eq(test, &out, &in);
		KUNIT_ASSERT_EQ(test, smc_clc_confirm_build(&msg, sizeof(msg), &in), 68);
		KUNIT_ASSERT_EQ(test, smc_clc_confirm_parse(&msg, 68, &out), 0);
		expect_accept_info_eq(test, &out, &in);
	}
}

static void clc_accept_roundtrip_maxima(struct kunit *test)
{
	struct smc_clc_accept_info in = golden_accept_info, out;
	struct smc_clc_accept_confirm msg;
	const u8 *b = (const u8 *)&msg;

	in.qpn = 0xffffff;
	in.psn = 0xffffff;
	in.rmb_rkey = 0xffffffff;
	in.rmbe_idx = 0xff;
	in.rmbe_alert_token = 0xffffffff;
	in.rmbe_size_code = 15;
	in.mtu_code = 5;
	in.rmb_vaddr = ~0ULL;
	KUNIT_ASSERT_EQ(test, smc_clc_accept_build(&msg, sizeof(msg), &in), 68);
	KUNIT_EXPECT_EQ(test, b[38], 0xff);
	KUNIT_EXPECT_EQ(test, b[40], 0xff);
	KUNIT_EXPECT_EQ(test, b[50], 0xf5);
	KUNIT_EXPECT_EQ(test, b[51], 0x00);	/* reserved stays zero */
	KUNIT_EXPECT_EQ(test, b[60], 0x00);	/* reserved stays zero */
	KUNIT_EXPECT_EQ(test, b[63], 0xff);
	KUNIT_ASSERT_EQ(test, smc_clc_accept_parse(&msg, 68, &out), 0);
	expect_accept_info_eq(test, &out, &in);
	/* and at their minima */
	in.qpn = 0;
	in.psn = 0;
	in.rmbe_size_code = 0;
	in.mtu_code = 1;
	in.rmb_vaddr = 0;
	KUNIT_ASSERT_EQ(test, smc_clc_confirm_build(&msg, sizeof(msg), &in), 68);
	KUNIT_ASSERT_EQ(test, smc_clc_confirm_parse(&msg, 68, &out), 0);
	expect_accept_info_eq(test, &out, &in);
}

static void clc_accept_build_invalid(struct kunit *test)
{
	struct smc_clc_accept_info in = golden_accept_info;
	struct smc_clc_accept_confirm msg;

	in.qpn = 0x1000000;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_build(&msg, sizeof(msg), &in), -EINVAL);
	in = golden_accept_info;
	in.psn = 0x1000000;
	KUNIT_EXPECT_EQ(test, smc_clc_confirm_build(&msg, sizeof(msg), &in), -EINVAL);
	in = golden_accept_info;
	in.rmbe_size_code = 16;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_build(&msg, sizeof(msg), &in), -EINVAL);
	in = golden_accept_info;
	in.mtu_code = 0;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_build(&msg, sizeof(msg), &in), -EINVAL);
	in.mtu_code = 6;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_build(&msg, sizeof(msg), &in), -EINVAL);
}

static void clc_accept_reject_length(struct kunit *test)
{
	struct smc_clc_accept_info info;
	u8 b[72];
	size_t len;

	for (len = 0; len < 68; len++) {
		memcpy(b, golden_accept, 68);
		KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, len, &info),
				-EPROTO);
	}
	/* v1 with 72 bytes, header and trailer consistent */
	memset(b, 0, sizeof(b));
	memcpy(b, golden_accept, 64);
	b[6] = 72;
	memcpy(b + 68, ec, 4);
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 72, &info), -EPROTO);
	/* header length disagrees with the bytes received */
	memcpy(b, golden_accept, 68);
	b[6] = 67;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info), -EPROTO);
}

static void clc_accept_reject_eyecatchers(struct kunit *test)
{
	struct smc_clc_accept_info info;
	u8 b[68];
	int i;

	for (i = 0; i < 4; i++) {
		memcpy(b, golden_accept, 68);
		b[i] = 0;
		KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info),
				-EPROTO);
		memcpy(b, golden_confirm, 68);
		b[64 + i] = 0;
		KUNIT_EXPECT_EQ(test, smc_clc_confirm_parse(b, 68, &info),
				-EPROTO);
	}
}

static void clc_accept_mtu_first_contact(struct kunit *test)
{
	struct smc_clc_accept_info info;
	u8 b[68];

	/* reserved MTU codes are refused only on first contact (A.2.3) */
	memcpy(b, golden_accept, 68);
	b[50] = 0x20;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info), -EPROTO);
	b[50] = 0x26;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info), -EPROTO);
	b[7] = 0x10;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info), 0);
	KUNIT_EXPECT_EQ(test, info.mtu_code, 6);
	/* all 16 size codes are accepted */
	b[50] = 0xf3;
	b[7] = 0x18;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rmbe_size_code, 15);
}

static void clc_accept_reject_type(struct kunit *test)
{
	struct smc_clc_accept_info info;
	u8 b[68];

	/* an Accept is not a Confirm, and vice versa */
	KUNIT_EXPECT_EQ(test, smc_clc_confirm_parse(golden_accept, 68, &info),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(golden_confirm, 68, &info),
			-EPROTO);
	/* SMC-D (typev1 1), "neither" and "both" are not SMC-R */
	memcpy(b, golden_accept, 68);
	b[7] = 0x19;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info), -EPROTO);
	b[7] = 0x1a;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info), -EPROTO);
	b[7] = 0x1b;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info), -EPROTO);
	/* version 0 */
	b[7] = 0x08;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info), -EPROTO);
	/* the reserved bit 0x04 is ignored */
	b[7] = 0x1c;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info), 0);
}

/*
 * Assemble Linux's v2 SMC-R Accept/Confirm: 104 bytes (v1 body + EID + 8
 * reserved), then on first contact @fce bytes and, in a Confirm, a GID
 * list of @gids, then the trailer.
 */
#define TB_ACC_SIZE	512

static size_t tb_acc_v2(u8 *b, u8 type, bool fc, size_t fce, u8 gids)
{
	size_t len = 104;

	memset(b, 0, TB_ACC_SIZE);
	memcpy(b, golden_accept, 64);
	b[4] = type;
	b[7] = 0x20 | (fc ? 0x08 : 0);
	memset(b + 64, 'E', 32);	/* EID */
	if (fc) {
		b[len] = 0x80;		/* v2 direct */
		/* Linux; release 1 has the long extension */
		b[len + 1] = fce == 36 ? 0x20 : 0x21;
		if (fce == 52) {
			b[len + 36] = 200;	/* max_conns */
			b[len + 37] = 2;	/* max_links */
		}
		len += fce;
		if (type == SMC_CLC_CONFIRM) {
			b[len] = gids;
			len += 4 + gids * 16;
		}
	}
	memcpy(b + len, ec, 4);
	len += 4;
	put16(b + 5, len);
	return len;
}

static void clc_accept_v2_parse(struct kunit *test)
{
	struct smc_clc_accept_info info;
	u8 *b = kunit_kzalloc(test, TB_ACC_SIZE, GFP_KERNEL);
	u8 eid[SMC_EID_LEN];
	size_t len;

	KUNIT_ASSERT_NOT_NULL(test, b);
	memset(eid, 'E', sizeof(eid));
	len = tb_acc_v2(b, SMC_CLC_ACCEPT, false, 0, 0);
	KUNIT_ASSERT_EQ(test, len, 108);
	KUNIT_ASSERT_EQ(test, smc_clc_accept_parse(b, len, &info), 0);
	KUNIT_EXPECT_EQ(test, info.version, 2);
	KUNIT_EXPECT_FALSE(test, info.first_contact);
	KUNIT_EXPECT_FALSE(test, info.v2.has_fce);
	KUNIT_EXPECT_MEMEQ(test, info.v2.eid, eid, SMC_EID_LEN);
	KUNIT_EXPECT_EQ(test, info.qpn, golden_accept_info.qpn);
	KUNIT_EXPECT_EQ(test, info.rmb_vaddr, golden_accept_info.rmb_vaddr);

	len = tb_acc_v2(b, SMC_CLC_ACCEPT, true, 52, 0);
	KUNIT_ASSERT_EQ(test, len, 160);
	KUNIT_ASSERT_EQ(test, smc_clc_accept_parse(b, len, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.v2.has_fce);
	KUNIT_EXPECT_TRUE(test, info.v2.v2_direct);
	KUNIT_EXPECT_EQ(test, info.v2.os_type, SMC_CLC_OS_LINUX);
	KUNIT_EXPECT_EQ(test, info.v2.release, 1);
	KUNIT_EXPECT_EQ(test, info.v2.max_conns, 200);
	KUNIT_EXPECT_EQ(test, info.v2.max_links, 2);

	len = tb_acc_v2(b, SMC_CLC_ACCEPT, true, 36, 0);
	KUNIT_ASSERT_EQ(test, smc_clc_accept_parse(b, len, &info), 0);
	KUNIT_EXPECT_EQ(test, info.v2.release, 0);
	KUNIT_EXPECT_EQ(test, info.v2.max_conns, 0);

	len = tb_acc_v2(b, SMC_CLC_CONFIRM, true, 52, 2);
	KUNIT_ASSERT_EQ(test, len, 196);
	KUNIT_ASSERT_EQ(test, smc_clc_confirm_parse(b, len, &info), 0);
	KUNIT_EXPECT_EQ(test, info.v2.gid_cnt, 2);
	len = tb_acc_v2(b, SMC_CLC_CONFIRM, false, 0, 0);
	KUNIT_ASSERT_EQ(test, smc_clc_confirm_parse(b, len, &info), 0);
	KUNIT_EXPECT_EQ(test, info.v2.gid_cnt, 0);
}

/* Field by field: the struct has padding */
static void clc_expect_v2_info(struct kunit *test,
			       const struct smc_clc_v2_info *a,
			       const struct smc_clc_v2_info *b)
{
	KUNIT_EXPECT_MEMEQ(test, a->eid, b->eid, SMC_EID_LEN);
	KUNIT_EXPECT_EQ(test, a->has_fce, b->has_fce);
	KUNIT_EXPECT_EQ(test, a->os_type, b->os_type);
	KUNIT_EXPECT_EQ(test, a->release, b->release);
	KUNIT_EXPECT_EQ(test, a->v2_direct, b->v2_direct);
	KUNIT_EXPECT_EQ(test, a->max_conns, b->max_conns);
	KUNIT_EXPECT_EQ(test, a->max_links, b->max_links);
	KUNIT_EXPECT_EQ(test, a->feature_mask, b->feature_mask);
	KUNIT_ASSERT_EQ(test, a->gid_cnt, b->gid_cnt);
	KUNIT_EXPECT_MEMEQ(test, a->gids, b->gids, a->gid_cnt * SMC_GID_LEN);
}

/* What smcr builds in version 2 reads back the same */
static void clc_accept_v2_roundtrip(struct kunit *test)
{
	struct smc_clc_accept_info in = golden_accept_info, out;
	u8 *b = kunit_kzalloc(test, TB_ACC_SIZE, GFP_KERNEL);
	int len;

	KUNIT_ASSERT_NOT_NULL(test, b);
	in.version = 2;
	in.first_contact = true;
	memset(in.v2.eid, 'X', SMC_EID_LEN);
	in.v2.has_fce = true;
	in.v2.os_type = SMC_CLC_OS_LINUX;
	in.v2.release = 1;
	in.v2.v2_direct = true;
	in.v2.max_conns = 255;
	in.v2.max_links = 1;
	in.v2.gid_cnt = 1;
	memset(in.v2.gids[0], 0x5a, SMC_GID_LEN);
	len = smc_clc_confirm_build(b, TB_ACC_SIZE, &in);
	KUNIT_ASSERT_EQ(test, len, 104 + 52 + 4 + 16 + 4);
	KUNIT_EXPECT_EQ(test, b[7], 0x28);
	KUNIT_EXPECT_EQ(test, b[104], 0x80);
	KUNIT_EXPECT_EQ(test, b[105], 0x21);
	KUNIT_ASSERT_EQ(test, smc_clc_confirm_parse(b, len, &out), 0);
	clc_expect_v2_info(test, &out.v2, &in.v2);
	KUNIT_EXPECT_EQ(test, out.qpn, in.qpn);
	KUNIT_EXPECT_EQ(test, out.psn, in.psn);
	/* an Accept has no GID list; release 0 the short extension */
	in.v2.release = 0;
	in.v2.max_conns = 0;
	in.v2.max_links = 0;
	in.v2.gid_cnt = 0;
	memset(in.v2.gids, 0, sizeof(in.v2.gids));
	len = smc_clc_accept_build(b, TB_ACC_SIZE, &in);
	KUNIT_ASSERT_EQ(test, len, 104 + 36 + 4);
	KUNIT_ASSERT_EQ(test, smc_clc_accept_parse(b, len, &out), 0);
	clc_expect_v2_info(test, &out.v2, &in.v2);
	/* too small a buffer; an extension without first contact */
	KUNIT_EXPECT_EQ(test, smc_clc_accept_build(b, len - 1, &in), -EMSGSIZE);
	in.first_contact = false;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_build(b, TB_ACC_SIZE, &in),
			-EINVAL);
}

/* A v2 Proposal of smcr: Linux's layout, parsed back by our parser */
static void clc_proposal_v2_build(struct kunit *test)
{
	struct smc_clc_proposal_info in = {}, out;
	u8 *b = kunit_kzalloc(test, SMC_CLC_MAX_LEN, GFP_KERNEL);
	int len;

	KUNIT_ASSERT_NOT_NULL(test, b);
	in.smcr_v1 = true;
	in.smcr_v2 = true;
	memcpy(in.peer_id, test_peer_id, SMC_PEER_ID_LEN);
	in.prefixes.ipv4_cnt = 1;
	in.prefixes.ipv4[0].addr = cpu_to_be32(0xc0000200);
	in.prefixes.ipv4[0].len = 24;
	in.release = 1;
	memset(in.roce_v2_gid + 10, 0xff, 2);
	in.max_conns = 255;
	in.max_links = 2;
	in.eid_cnt = 2;
	memset(in.eids[0], 'A', SMC_EID_LEN);
	memset(in.eids[1], 'B', SMC_EID_LEN);
	len = smc_clc_proposal_build(b, SMC_CLC_MAX_LEN, &in);
	/* 40 + SMC-D area 40 + prefixes 8 + v2 ext 40 + 2 EIDs + trailer */
	KUNIT_ASSERT_EQ(test, len, 40 + 40 + 8 + 40 + 64 + 4);
	KUNIT_EXPECT_EQ(test, b[7], 0x20);	/* v2, typev2 R, typev1 R (0) */
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(b, len, &out), 0);
	KUNIT_EXPECT_TRUE(test, out.smcr_v1);
	KUNIT_EXPECT_TRUE(test, out.smcr_v2);
	KUNIT_EXPECT_EQ(test, out.release, 1);
	KUNIT_EXPECT_EQ(test, out.max_conns, 255);
	KUNIT_EXPECT_EQ(test, out.max_links, 2);
	KUNIT_EXPECT_EQ(test, out.eid_cnt, 2);
	KUNIT_EXPECT_MEMEQ(test, out.eids, in.eids, 2 * SMC_EID_LEN);
	KUNIT_EXPECT_MEMEQ(test, out.roce_v2_gid, in.roce_v2_gid, SMC_GID_LEN);
	KUNIT_EXPECT_EQ(test, out.prefixes.ipv4[0].len, 24);
	/* v2 only: no prefix area, IP area offset 0 (as Linux) */
	in.smcr_v1 = false;
	len = smc_clc_proposal_build(b, SMC_CLC_MAX_LEN, &in);
	KUNIT_ASSERT_EQ(test, len, 40 + 40 + 40 + 64 + 4);
	KUNIT_EXPECT_EQ(test, b[7], 0x22);	/* typev1 N (2) */
	KUNIT_EXPECT_EQ(test, b[38] << 8 | b[39], 0);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(b, len, &out), 0);
	KUNIT_EXPECT_FALSE(test, out.smcr_v1);
	KUNIT_EXPECT_TRUE(test, out.smcr_v2);
	in.eid_cnt = SMC_CLC_MAX_EID + 1;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_build(b, SMC_CLC_MAX_LEN, &in),
			-EINVAL);
}

static void clc_v2_eid_match(struct kunit *test)
{
	struct smc_clc_proposal_info prop = { .eid_cnt = 2 };
	u8 ours[2][SMC_EID_LEN], eid[SMC_EID_LEN];

	memset(prop.eids[0], 'A', SMC_EID_LEN);
	memset(prop.eids[1], 'B', SMC_EID_LEN);
	memset(ours[0], 'C', SMC_EID_LEN);
	memset(ours[1], 'B', SMC_EID_LEN);
	KUNIT_EXPECT_EQ(test, smc_clc_v2_eid_match(&prop, ours[0], 2, eid), 0);
	KUNIT_EXPECT_MEMEQ(test, eid, ours[1], SMC_EID_LEN);
	/* the client's order decides */
	memset(ours[0], 'A', SMC_EID_LEN);
	KUNIT_EXPECT_EQ(test, smc_clc_v2_eid_match(&prop, ours[0], 2, eid), 0);
	KUNIT_EXPECT_MEMEQ(test, eid, prop.eids[0], SMC_EID_LEN);
	KUNIT_EXPECT_EQ(test, smc_clc_v2_eid_match(&prop, ours[0], 0, eid), -ENOENT);
	prop.eid_cnt = 0;
	KUNIT_EXPECT_EQ(test, smc_clc_v2_eid_match(&prop, ours[0], 2, eid), -ENOENT);
}

/* Release 1 negotiation, server, client and Confirm (Linux's rules) */
static void clc_v2_limits(struct kunit *test)
{
	const struct smc_clc_v2_limits ours = { 1, 255, 2 };
	struct smc_clc_proposal_info prop = {
		.release = 1, .max_conns = 100, .max_links = 1,
	};
	struct smc_clc_v2_limits out;
	struct smc_clc_v2_info acc = {
		.has_fce = true, .release = 1, .max_conns = 100, .max_links = 1,
	};

	KUNIT_EXPECT_EQ(test, smc_clc_v2_server_limits(&prop, &ours, &out), 0);
	KUNIT_EXPECT_EQ(test, out.release, 1);
	KUNIT_EXPECT_EQ(test, out.max_conns, 100);
	KUNIT_EXPECT_EQ(test, out.max_links, 1);
	prop.max_conns = 15;
	KUNIT_EXPECT_EQ(test, smc_clc_v2_server_limits(&prop, &ours, &out),
			(u32)SMC_CLC_DECL_MAXCONNERR);
	prop.max_conns = 16;
	prop.max_links = 0;
	KUNIT_EXPECT_EQ(test, smc_clc_v2_server_limits(&prop, &ours, &out),
			(u32)SMC_CLC_DECL_MAXLINKERR);
	/* release 0 negotiates nothing */
	prop.release = 0;
	KUNIT_EXPECT_EQ(test, smc_clc_v2_server_limits(&prop, &ours, &out), 0);
	KUNIT_EXPECT_EQ(test, out.release, 0);
	KUNIT_EXPECT_EQ(test, out.max_conns, 255);

	KUNIT_EXPECT_EQ(test, smc_clc_v2_client_limits(&acc, &ours, &out), 0);
	KUNIT_EXPECT_EQ(test, out.max_conns, 100);
	KUNIT_EXPECT_EQ(test, smc_clc_v2_confirm_check(&acc, &out), 0);
	/* a Confirm that does not echo max_conns */
	acc.max_conns = 99;
	KUNIT_EXPECT_EQ(test, smc_clc_v2_confirm_check(&acc, &out),
			(u32)SMC_CLC_DECL_MAXCONNERR);
	acc.max_conns = 100;
	/* more links than we proposed, or none */
	acc.max_links = 0;
	KUNIT_EXPECT_EQ(test, smc_clc_v2_client_limits(&acc, &ours, &out),
			(u32)SMC_CLC_DECL_MAXLINKERR);
	acc.max_links = 3;
	KUNIT_EXPECT_EQ(test, smc_clc_v2_client_limits(&acc, &ours, &out),
			(u32)SMC_CLC_DECL_MAXLINKERR);
	KUNIT_EXPECT_EQ(test, smc_clc_v2_confirm_check(&acc, &out),
			(u32)SMC_CLC_DECL_MAXLINKERR);
	acc.max_links = 1;
	acc.max_conns = 8;
	KUNIT_EXPECT_EQ(test, smc_clc_v2_client_limits(&acc, &ours, &out),
			(u32)SMC_CLC_DECL_MAXCONNERR);
	/* release 0: nothing negotiated, whatever the extension says */
	acc.release = 0;
	KUNIT_EXPECT_EQ(test, smc_clc_v2_client_limits(&acc, &ours, &out), 0);
	KUNIT_EXPECT_EQ(test, out.release, 0);
	KUNIT_EXPECT_EQ(test, out.max_conns, 255);
	KUNIT_EXPECT_EQ(test, out.max_links, 2);
	acc.release = 2;
	KUNIT_EXPECT_EQ(test, smc_clc_v2_client_limits(&acc, &ours, &out),
			(u32)SMC_CLC_DECL_RELEASEERR);
	KUNIT_EXPECT_EQ(test, smc_clc_v2_confirm_check(&acc, &out),
			(u32)SMC_CLC_DECL_RELEASEERR);
}

static void clc_accept_v2_malformed(struct kunit *test)
{
	struct smc_clc_accept_info info;
	u8 *b = kunit_kzalloc(test, TB_ACC_SIZE, GFP_KERNEL);
	size_t len;

	KUNIT_ASSERT_NOT_NULL(test, b);
	/* v2 header on a 68-byte body */
	memcpy(b, golden_accept, 68);
	b[7] = 0x20;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, 68, &info), -EPROTO);
	/* first contact flag, but no extension */
	len = tb_acc_v2(b, SMC_CLC_ACCEPT, false, 0, 0);
	b[7] |= 0x08;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, len, &info), -EPROTO);
	/* extension of an unknown size */
	len = tb_acc_v2(b, SMC_CLC_ACCEPT, true, 40, 0);
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, len, &info), -EPROTO);
	/* extra bytes without first contact */
	len = tb_acc_v2(b, SMC_CLC_ACCEPT, true, 52, 0);
	b[7] &= ~0x08;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_parse(b, len, &info), -EPROTO);
	/* Confirm GID count inconsistent with the length, or above 8 */
	len = tb_acc_v2(b, SMC_CLC_CONFIRM, true, 52, 2);
	b[104 + 52] = 3;
	KUNIT_EXPECT_EQ(test, smc_clc_confirm_parse(b, len, &info), -EPROTO);
	len = tb_acc_v2(b, SMC_CLC_CONFIRM, true, 52, 9);
	KUNIT_EXPECT_EQ(test, smc_clc_confirm_parse(b, len, &info), -EPROTO);
}

static void clc_decline_code_map(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, smc_clc_decline_code(-EPROTO),
			(u32)SMC_CLC_DECL_SYNCERR);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_code(-EPROTONOSUPPORT),
			(u32)SMC_CLC_DECL_VERSMISMAT);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_code(-EOPNOTSUPP),
			(u32)SMC_CLC_DECL_MODEUNSUPP);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_code(-ENETUNREACH),
			(u32)SMC_CLC_DECL_DIFFPREFIX);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_code(-ENOMEM),
			(u32)SMC_CLC_DECL_MEM);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_code(-EIO),
			(u32)SMC_CLC_DECL_INTERR);
}

static void clc_rmbe_size_codes(struct kunit *test)
{
	u32 expect = 16 * 1024;
	int code;

	for (code = 0; code <= 15; code++, expect *= 2) {
		KUNIT_EXPECT_EQ(test, smc_clc_rmbe_size(code), expect);
		KUNIT_EXPECT_EQ(test, smc_clc_rmbe_code(expect), code);
	}
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_size(5), 512U * 1024);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_size(16), 0U);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_size(255), 0U);
}

static void clc_rmbe_code_rounding(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_code(1), 0);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_code(16384), 0);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_code(16385), 1);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_code(65535), 2);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_code(65537), 3);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_code(512U << 20), 15);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_code((512U << 20) + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_code(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_clc_rmbe_code(0xffffffff), -EINVAL);
}

static void clc_mtu_codes(struct kunit *test)
{
	static const int bytes[] = { 256, 512, 1024, 2048, 4096 };
	int code;

	for (code = 1; code <= 5; code++) {
		KUNIT_EXPECT_EQ(test, smc_clc_mtu_to_bytes(code),
				bytes[code - 1]);
		KUNIT_EXPECT_EQ(test, smc_clc_mtu_from_bytes(bytes[code - 1]),
				code);
	}
	KUNIT_EXPECT_EQ(test, smc_clc_mtu_to_bytes(0), -EINVAL);
	for (code = 6; code <= 15; code++)
		KUNIT_EXPECT_EQ(test, smc_clc_mtu_to_bytes(code), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_clc_mtu_to_bytes(255), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_clc_mtu_from_bytes(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_clc_mtu_from_bytes(128), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_clc_mtu_from_bytes(1500), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_clc_mtu_from_bytes(8192), -EINVAL);
}

struct prefix_case {
	const char *name;
	u32 local4, peer4;	/* host order */
	u8 local4_len, peer4_len;
	bool v4;		/* both sides have an IPv4 subnet */
	u8 local6[16], peer6[16];
	u8 local6_len, peer6_len;
	bool v6;		/* both sides have one IPv6 prefix */
	bool match;
};

static const struct prefix_case prefix_cases[] = {
	{ .name = "v4 same subnet", .v4 = true, .match = true,
	  .local4 = 0xc0000201, .local4_len = 24,
	  .peer4 = 0xc0000200, .peer4_len = 24 },
	{ .name = "v4 other subnet", .v4 = true, .match = false,
	  .local4 = 0xc0000301, .local4_len = 24,
	  .peer4 = 0xc0000200, .peer4_len = 24 },
	{ .name = "v4 prefix length mismatch", .v4 = true, .match = false,
	  .local4 = 0xc0000201, .local4_len = 16,
	  .peer4 = 0xc0000200, .peer4_len = 24 },
	{ .name = "v4 /31 odd bit", .v4 = true, .match = false,
	  .local4 = 0x0a000003, .local4_len = 31,
	  .peer4 = 0x0a000000, .peer4_len = 31 },
	{ .name = "v4 /32 equal", .v4 = true, .match = true,
	  .local4 = 0x0a000003, .local4_len = 32,
	  .peer4 = 0x0a000003, .peer4_len = 32 },
	{ .name = "v6 common prefix", .v6 = true, .match = true,
	  .local6 = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		      1 },
	  .local6_len = 64,
	  .peer6 = { 0x20, 0x01, 0x0d, 0xb8 }, .peer6_len = 64 },
	{ .name = "v6 no common prefix", .v6 = true, .match = false,
	  .local6 = { 0x20, 0x01, 0x0d, 0xb9 }, .local6_len = 64,
	  .peer6 = { 0x20, 0x01, 0x0d, 0xb8 }, .peer6_len = 64 },
	{ .name = "v6 length mismatch", .v6 = true, .match = false,
	  .local6 = { 0x20, 0x01, 0x0d, 0xb8 }, .local6_len = 48,
	  .peer6 = { 0x20, 0x01, 0x0d, 0xb8 }, .peer6_len = 64 },
	{ .name = "v6 /52 differs in first host bit", .v6 = true,
	  .match = true,
	  .local6 = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0x18 }, .local6_len = 52,
	  .peer6 = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0x10 }, .peer6_len = 52 },
	{ .name = "v6 /52 differs in last prefix bit", .v6 = true,
	  .match = false,
	  .local6 = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0x10 }, .local6_len = 52,
	  .peer6 = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0x00 }, .peer6_len = 52 },
	{ .name = "empty lists", .match = false },
};

static void clc_prefix_match_table(struct kunit *test)
{
	struct smc_clc_prefixes *l, *p;
	size_t i;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < ARRAY_SIZE(prefix_cases); i++) {
		const struct prefix_case *c = &prefix_cases[i];

		memset(l, 0, sizeof(*l));
		memset(p, 0, sizeof(*p));
		if (c->v4) {
			set_v4(l, c->local4, c->local4_len);
			set_v4(p, c->peer4, c->peer4_len);
		}
		if (c->v6) {
			l->ipv6_cnt = 1;
			memcpy(l->ipv6[0].prefix, c->local6, 16);
			l->ipv6[0].prefix_len = c->local6_len;
			p->ipv6_cnt = 1;
			memcpy(p->ipv6[0].prefix, c->peer6, 16);
			p->ipv6[0].prefix_len = c->peer6_len;
		}
		KUNIT_EXPECT_EQ_MSG(test, smc_clc_prefix_match(l, p), c->match,
				    "%s", c->name);
	}
}

static void clc_prefix_match_lists(struct kunit *test)
{
	struct smc_clc_prefixes *l, *p;
	int i;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	KUNIT_ASSERT_NOT_NULL(test, p);
	/* several local IPv4 addresses, the last one on the peer's subnet */
	l->ipv4_cnt = SMC_CLC_MAX_V4_PREFIX;
	for (i = 0; i < SMC_CLC_MAX_V4_PREFIX; i++) {
		l->ipv4[i].addr = cpu_to_be32(0x0a000001 + (i << 16));
		l->ipv4[i].len = 16;
	}
	set_v4(p, 0x0a070000, 16);
	KUNIT_EXPECT_TRUE(test, smc_clc_prefix_match(l, p));
	set_v4(p, 0x0a080000, 16);
	KUNIT_EXPECT_FALSE(test, smc_clc_prefix_match(l, p));
	/* an empty local list matches nothing */
	memset(l, 0, sizeof(*l));
	KUNIT_EXPECT_FALSE(test, smc_clc_prefix_match(l, p));
	/* eight peer IPv6 prefixes, only the last one is ours */
	memset(p, 0, sizeof(*p));
	p->ipv6_cnt = 8;
	for (i = 0; i < 8; i++) {
		p->ipv6[i].prefix[0] = 0x20;
		p->ipv6[i].prefix[1] = i;
		p->ipv6[i].prefix_len = 64;
	}
	l->ipv6_cnt = 1;
	l->ipv6[0].prefix[0] = 0x20;
	l->ipv6[0].prefix[1] = 7;
	l->ipv6[0].prefix[15] = 1;
	l->ipv6[0].prefix_len = 64;
	KUNIT_EXPECT_TRUE(test, smc_clc_prefix_match(l, p));
	/* counts above the arrays are clamped, not read past */
	p->ipv6_cnt = 200;
	KUNIT_EXPECT_TRUE(test, smc_clc_prefix_match(l, p));
	l->ipv6[0].prefix[1] = 9;
	KUNIT_EXPECT_FALSE(test, smc_clc_prefix_match(l, p));
}

static void clc_prefix_match_parsed(struct kunit *test)
{
	struct smc_clc_proposal_info info;
	struct smc_clc_prefixes *l;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(golden_prop_v6, 86, &info),
			0);
	l->ipv6_cnt = 1;
	memcpy(l->ipv6[0].prefix, golden_prop_v6 + 65, 16);
	l->ipv6[0].prefix[15] = 0x22;	/* host part of our address */
	l->ipv6[0].prefix_len = 48;
	KUNIT_EXPECT_TRUE(test, smc_clc_prefix_match(l, &info.prefixes));
	set_v4(l, 0xc0000202, 24);
	KUNIT_EXPECT_FALSE(test, smc_clc_prefix_match(l, &info.prefixes));
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(golden_prop_v4, 52, &info),
			0);
	KUNIT_EXPECT_TRUE(test, smc_clc_prefix_match(l, &info.prefixes));
}

static struct kunit_case smcr_clc_cases[] = {
	KUNIT_CASE(clc_decline_build_golden),
	KUNIT_CASE(clc_decline_sync_bit),
	KUNIT_CASE(clc_decline_parse_golden_v1),
	KUNIT_CASE(clc_decline_parse_golden_v2),
	KUNIT_CASE(clc_hdr_bad_eyecatcher),
	KUNIT_CASE(clc_hdr_bad_type),
	KUNIT_CASE(clc_hdr_version_zero),
	KUNIT_CASE(clc_hdr_length_bounds),
	KUNIT_CASE(clc_decline_bad_length),
	KUNIT_CASE(clc_decline_bad_trailer),
	KUNIT_CASE(clc_decline_parse_len_mismatch),
	KUNIT_CASE(clc_decline_parse_wrong_type),
	KUNIT_CASE(clc_trailer_short),
	KUNIT_CASE(clc_proposal_build_golden_v4),
	KUNIT_CASE(clc_proposal_build_golden_v6),
	KUNIT_CASE(clc_proposal_parse_golden_v4),
	KUNIT_CASE(clc_proposal_parse_golden_v6),
	KUNIT_CASE(clc_proposal_roundtrip_ipv4),
	KUNIT_CASE(clc_proposal_roundtrip_ipv6_1),
	KUNIT_CASE(clc_proposal_roundtrip_ipv6_8),
	KUNIT_CASE(clc_proposal_build_invalid),
	KUNIT_CASE(clc_proposal_parse_linux_v2),
	KUNIT_CASE(clc_proposal_parse_v2_all_parts),
	KUNIT_CASE(clc_proposal_no_smcr_v1),
	KUNIT_CASE(clc_proposal_v1_area_offset),
	KUNIT_CASE(clc_proposal_reject_short_long),
	KUNIT_CASE(clc_proposal_reject_eyecatchers),
	KUNIT_CASE(clc_proposal_reject_prefix_count),
	KUNIT_CASE(clc_proposal_reject_area_offset),
	KUNIT_CASE(clc_proposal_reject_prefix_len),
	KUNIT_CASE(clc_proposal_reject_version_type),
	KUNIT_CASE(clc_proposal_reject_v2_ext_offset),
	KUNIT_CASE(clc_proposal_reject_v2_eid_count),
	KUNIT_CASE(clc_proposal_reject_v2_smcd_ext),
	KUNIT_CASE(clc_accept_build_golden),
	KUNIT_CASE(clc_confirm_build_golden),
	KUNIT_CASE(clc_accept_parse_golden),
	KUNIT_CASE(clc_confirm_parse_golden),
	KUNIT_CASE(clc_accept_roundtrip_first_contact),
	KUNIT_CASE(clc_accept_roundtrip_maxima),
	KUNIT_CASE(clc_accept_build_invalid),
	KUNIT_CASE(clc_accept_reject_length),
	KUNIT_CASE(clc_accept_reject_eyecatchers),
	KUNIT_CASE(clc_accept_mtu_first_contact),
	KUNIT_CASE(clc_accept_reject_type),
	KUNIT_CASE(clc_accept_v2_parse),
	KUNIT_CASE(clc_accept_v2_roundtrip),
	KUNIT_CASE(clc_proposal_v2_build),
	KUNIT_CASE(clc_v2_eid_match),
	KUNIT_CASE(clc_v2_limits),
	KUNIT_CASE(clc_accept_v2_malformed),
	KUNIT_CASE(clc_decline_code_map),
	KUNIT_CASE(clc_rmbe_size_codes),
	KUNIT_CASE(clc_rmbe_code_rounding),
	KUNIT_CASE(clc_mtu_codes),
	KUNIT_CASE(clc_prefix_match_table),
	KUNIT_CASE(clc_prefix_match_lists),
	KUNIT_CASE(clc_prefix_match_parsed),
	{}
};

static struct kunit_suite smcr_clc_suite = {
	.name = "smcr_clc",
	.test_cases = smcr_clc_cases,
};

kunit_test_suite(smcr_clc_suite);
