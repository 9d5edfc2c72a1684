// SPDX-License-Identifier: GPL-2.0
/*
 * Randomized decoder run for net/smc/clc.c (suite smcr_clc_fuzz).
 *
 * Valid messages of every kind are mutated (bit flips, byte writes,
 * truncation, extension, inserted and removed chunks, rewritten length,
 * count and offset fields) and fed to every parser. Each input lives in a
 * kmalloc() buffer of exactly its length, so KASAN reports any read past
 * it; one such buffer per length is allocated on first use and reused, as
 * allocating under KASAN costs more than the parsing. Whatever a parser
 * accepts must satisfy the format's invariants and survive a re-encode and
 * re-parse unchanged. The PRNG seeds are fixed, so a failure reproduces.
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/smcr.h>
#include <smcr/clc.h>

#define FUZZ_ITERATIONS		26000	/* per case; 4 cases */
#define FUZZ_MAX_LEN		(SMC_CLC_MAX_LEN + 64)

static const u8 fz_ec[SMC_EYECATCHER_LEN] = SMC_EYECATCHER_R;

struct fuzz_seed {
	u8	msg[SMC_CLC_PROPOSAL_LINUX_MAX_LEN];
	size_t	len;
	u8	fields[8];	/* offsets of count/offset/flag bytes */
	int	nfields;
};

struct fuzz_ctx {
	struct kunit			*test;
	struct rnd_state		rnd;
	struct fuzz_seed		seeds[8];
	int				nseeds;
	u8				work[FUZZ_MAX_LEN];
	u8				out[SMC_CLC_MAX_LEN];
	struct smc_clc_proposal_info	prop, prop2;
	struct smc_clc_accept_info	acc, acc2;
	struct smc_clc_decline_info	dcl, dcl2;
	unsigned int			accepted[4];
	u8				*bufs[FUZZ_MAX_LEN + 1];
};

static u32 fz_rand(struct fuzz_ctx *c, u32 n)
{
	return n ? prandom_u32_state(&c->rnd) % n : 0;
}

static void fz_put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static struct fuzz_seed *fz_seed(struct fuzz_ctx *c, size_t len)
{
	struct fuzz_seed *s = &c->seeds[c->nseeds++];

	s->len = len;
	return s;
}

static void fz_field(struct fuzz_seed *s, u8 off)
{
	if (s->nfields < ARRAY_SIZE(s->fields))
		s->fields[s->nfields++] = off;
}

/* Linux's version 2 Proposal layout, as in clc_test.c */
static void fz_seed_prop_v2(struct fuzz_ctx *c, u8 t1, u8 t2, u8 n6, u8 neid,
			    u8 nism)
{
	bool d2 = t2 == SMC_CLC_TYPE_D || t2 == SMC_CLC_TYPE_B;
	struct fuzz_seed *s = fz_seed(c, 0);
	size_t pos = 80, ext = 0;
	u8 *b = s->msg;
	int i;

	memcpy(b, fz_ec, 4);
	b[4] = SMC_CLC_PROPOSAL;
	b[7] = 0x20 | t2 << 2 | t1;
	memset(b + 8, 0x5a, 30);
	fz_field(s, 7);
	fz_field(s, 39);	/* iparea_offset, low byte */
	fz_field(s, 51);	/* v2_ext_offset, low byte */
	if (t1 != SMC_CLC_TYPE_N) {
		b[39] = 40;
		b[80] = 10;
		b[84] = 8;
		b[87] = n6;
		fz_field(s, 87);
		pos = 88;
		for (i = 0; i < n6; i++, pos += 17) {
			b[pos] = 0xfd;
			b[pos + 16] = 64;
		}
	}
	if (t2 != SMC_CLC_TYPE_N) {
		fz_put16(b + 50, pos - 52);
		ext = pos;
		b[ext] = neid;
		b[ext + 1] = d2 ? nism : 0;
		b[ext + 3] = 0x11;
		b[ext + 32] = 255;
		b[ext + 33] = 2;
		fz_field(s, ext);
		fz_field(s, ext + 1);
		fz_field(s, ext + 7);
		pos += 40;
		for (i = 0; i < neid; i++, pos += 32)
			memset(b + pos, 'A' + i, 32);
		if (d2) {
			fz_put16(b + ext + 6, pos - (ext + 8));
			pos += 48 + nism * 10;
		}
	}
	memcpy(b + pos, fz_ec, 4);
	pos += 4;
	fz_put16(b + 5, pos);
	s->len = pos;
}

static void fz_seed_prop_v1(struct fuzz_ctx *c, u8 n6)
{
	struct smc_clc_proposal_info *info = &c->prop;
	struct fuzz_seed *s;
	int i, len;

	memset(info, 0, sizeof(*info));
	memset(info->peer_id, 0x11, SMC_PEER_ID_LEN);
	memset(info->gid, 0x22, SMC_GID_LEN);
	memset(info->mac, 0x33, SMC_MAC_LEN);
	if (!n6) {
		info->prefixes.ipv4_cnt = 1;
		info->prefixes.ipv4[0].addr = cpu_to_be32(0xc0000200);
		info->prefixes.ipv4[0].len = 24;
	}
	info->prefixes.ipv6_cnt = n6;
	for (i = 0; i < n6; i++) {
		memset(info->prefixes.ipv6[i].prefix, 0x20 + i, 16);
		info->prefixes.ipv6[i].prefix_len = 56 + i;
	}
	s = fz_seed(c, 0);
	len = smc_clc_proposal_build(s->msg, sizeof(s->msg), info);
	KUNIT_ASSERT_GT(c->test, len, 0);
	s->len = len;
	fz_field(s, 7);
	fz_field(s, 39);
	fz_field(s, 44);
	fz_field(s, 47);
}

static void fz_seed_acc(struct fuzz_ctx *c, u8 type, bool fc)
{
	struct smc_clc_accept_info info = {
		.qpn = 0xfffffe, .rmb_rkey = 0x1234, .rmbe_idx = 1,
		.rmbe_alert_token = 77, .rmbe_size_code = 3, .mtu_code = 4,
		.rmb_vaddr = 0xffff888012340000ULL, .psn = 0x10000,
		.first_contact = fc, .version = SMC_CLC_V1,
	};
	struct fuzz_seed *s = fz_seed(c, 68);

	memset(info.gid, 0x44, SMC_GID_LEN);
	if (type == SMC_CLC_ACCEPT)
		KUNIT_ASSERT_EQ(c->test, smc_clc_accept_build((void *)s->msg, 68,
							      &info), 68);
	else
		KUNIT_ASSERT_EQ(c->test, smc_clc_confirm_build((void *)s->msg, 68,
							       &info), 68);
	fz_field(s, 7);
	fz_field(s, 50);
}

/* Linux's v2 SMC-R Accept/Confirm: 104 + extension (+ GID list) + 4 */
static void fz_seed_acc_v2(struct fuzz_ctx *c, u8 type, u8 gids)
{
	struct fuzz_seed *s;

	fz_seed_acc(c, type, true);
	s = &c->seeds[c->nseeds - 1];
	s->msg[7] = 0x28;
	memset(s->msg + 64, 'E', 32);
	s->len = 104 + 52;
	if (type == SMC_CLC_CONFIRM) {
		s->msg[s->len] = gids;
		fz_field(s, s->len);
		s->len += 4 + gids * SMC_GID_LEN;
	}
	memcpy(s->msg + s->len, fz_ec, 4);
	s->len += 4;
	fz_put16(s->msg + 5, s->len);
}

static void fz_seed_decline(struct fuzz_ctx *c, bool v2)
{
	static const u8 pid[SMC_PEER_ID_LEN] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct fuzz_seed *s = fz_seed(c, 0);

	s->len = smc_clc_decline_build((void *)s->msg, pid,
				       SMC_CLC_DECL_SYNCERR, true);
	if (v2) {
		memmove(s->msg + 40, s->msg + 24, 4);
		memset(s->msg + 24, 0, 16);
		s->msg[6] = 44;
		s->msg[7] = 0x28;
		s->len = 44;
	}
	fz_field(s, 7);
}

/* Check what a parser accepted, re-encode it and parse that again */
static void fz_check_proposal(struct fuzz_ctx *c, size_t len)
{
	struct smc_clc_proposal_info *a = &c->prop, *b = &c->prop2;
	struct kunit *test = c->test;
	bool r1;
	int i, n;

	c->accepted[0]++;
	KUNIT_ASSERT_GE(test, len, 52);
	KUNIT_ASSERT_GE(test, a->version, 1);
	KUNIT_ASSERT_LE(test, a->prefixes.ipv6_cnt, SMC_CLC_MAX_V6_PREFIX);
	KUNIT_ASSERT_LE(test, a->prefixes.ipv4_cnt, 1);
	KUNIT_ASSERT_LE(test, a->eid_cnt, SMC_CLC_MAX_EID);
	KUNIT_ASSERT_LE(test, a->ism_gid_cnt, SMC_CLC_MAX_ISM_GID);
	r1 = a->type_v1 == SMC_CLC_TYPE_R || a->type_v1 == SMC_CLC_TYPE_B;
	KUNIT_ASSERT_EQ(test, a->smcr_v1, r1);
	if (!a->prefixes.ipv4_cnt && !a->prefixes.ipv6_cnt)
		return;
	/* its version 1 part, rebuilt as a version 1 Proposal */
	a->smcr_v2 = false;
	n = smc_clc_proposal_build(c->out, sizeof(c->out), a);
	KUNIT_ASSERT_EQ(test, n, 52 + a->prefixes.ipv6_cnt * 17);
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_parse(c->out, n, b), 0);
	KUNIT_ASSERT_TRUE(test, b->smcr_v1);
	KUNIT_ASSERT_EQ(test, memcmp(a->peer_id, b->peer_id, SMC_PEER_ID_LEN) |
			      memcmp(a->gid, b->gid, SMC_GID_LEN) |
			      memcmp(a->mac, b->mac, SMC_MAC_LEN), 0);
	KUNIT_ASSERT_EQ(test, a->prefixes.ipv4_cnt, b->prefixes.ipv4_cnt);
	KUNIT_ASSERT_EQ(test, a->prefixes.ipv6_cnt, b->prefixes.ipv6_cnt);
	if (a->prefixes.ipv4_cnt) {
		KUNIT_ASSERT_EQ(test, be32_to_cpu(a->prefixes.ipv4[0].addr),
				be32_to_cpu(b->prefixes.ipv4[0].addr));
		KUNIT_ASSERT_EQ(test, a->prefixes.ipv4[0].len,
				b->prefixes.ipv4[0].len);
	}
	for (i = 0; i < a->prefixes.ipv6_cnt; i++)
		KUNIT_ASSERT_EQ(test, memcmp(&a->prefixes.ipv6[i],
					     &b->prefixes.ipv6[i], 17), 0);
}

static void fz_check_acc(struct fuzz_ctx *c, const u8 *msg, size_t len,
			 u8 type)
{
	struct smc_clc_accept_confirm *out = (void *)c->out;
	struct kunit *test = c->test;
	const u8 *o = c->out;
	int n;
	size_t i;

	c->accepted[type == SMC_CLC_ACCEPT ? 1 : 2]++;
	KUNIT_ASSERT_LE(test, c->acc.qpn, SMC_CLC_U24_MAX);
	KUNIT_ASSERT_LE(test, c->acc.psn, SMC_CLC_U24_MAX);
	KUNIT_ASSERT_LE(test, c->acc.rmbe_size_code, 15);
	if (type == SMC_CLC_ACCEPT)
		n = smc_clc_accept_build(out, sizeof(c->out), &c->acc);
	else
		n = smc_clc_confirm_build(out, sizeof(c->out), &c->acc);
	if (smc_clc_mtu_to_bytes(c->acc.mtu_code) < 0) {
		/* only possible without first contact; never sent by us */
		KUNIT_ASSERT_FALSE(test, c->acc.first_contact);
		KUNIT_ASSERT_EQ(test, n, -EINVAL);
		return;
	}
	if (c->acc.version == SMC_CLC_V2) {
		/* a fuzzed header byte made it a valid v2 message: what it
		 * says builds a message of its length that says the same
		 */
		KUNIT_ASSERT_EQ(test, n, len);
		if (type == SMC_CLC_ACCEPT)
			n = smc_clc_accept_parse(out, len, &c->acc2);
		else
			n = smc_clc_confirm_parse(out, len, &c->acc2);
		KUNIT_ASSERT_EQ(test, n, 0);
		KUNIT_ASSERT_EQ(test, memcmp(&c->acc, &c->acc2, sizeof(c->acc)),
				0);
		return;
	}
	KUNIT_ASSERT_EQ(test, len, 68);
	KUNIT_ASSERT_EQ(test, n, 68);
	/* same bytes, except reserved ones (51, 60, flag bit 0x04) */
	for (i = 0; i < 68; i++) {
		if (i == 51 || i == 60)
			continue;
		if (i == 7)
			KUNIT_ASSERT_EQ(test, o[i], msg[i] & ~0x04);
		else
			KUNIT_ASSERT_EQ(test, o[i], msg[i]);
	}
	if (type == SMC_CLC_ACCEPT)
		n = smc_clc_accept_parse(out, 68, &c->acc2);
	else
		n = smc_clc_confirm_parse(out, 68, &c->acc2);
	KUNIT_ASSERT_EQ(test, n, 0);
	KUNIT_ASSERT_EQ(test, memcmp(&c->acc, &c->acc2, sizeof(c->acc)), 0);
}

static void fz_check_decline(struct fuzz_ctx *c, size_t len)
{
	struct smc_clc_decline *out = (void *)c->out;
	struct kunit *test = c->test;
	size_t n;

	c->accepted[3]++;
	KUNIT_ASSERT_TRUE(test, len == 28 || len == 44);
	n = smc_clc_decline_build(out, c->dcl.peer_id, c->dcl.diagnosis,
				  c->dcl.out_of_sync);
	KUNIT_ASSERT_EQ(test, smc_clc_decline_parse(out, n, &c->dcl2), 0);
	KUNIT_ASSERT_EQ(test, memcmp(c->dcl.peer_id, c->dcl2.peer_id,
				     SMC_PEER_ID_LEN), 0);
	KUNIT_ASSERT_EQ(test, c->dcl.diagnosis, c->dcl2.diagnosis);
	KUNIT_ASSERT_EQ(test, c->dcl.out_of_sync, c->dcl2.out_of_sync);
}

static void fz_mutate(struct fuzz_ctx *c, const struct fuzz_seed *s,
		      size_t *lenp)
{
	static const u8 values[] = { 0, 1, 2, 8, 9, 16, 40, 0x7f, 0x80, 0xff };
	static const u8 chunks[] = { 1, 4, 10, 16, 17, 32, 40 };
	size_t len = *lenp, pos, n;
	int i, rounds = 1 + fz_rand(c, 3);

	for (i = 0; i < rounds; i++) {
		pos = fz_rand(c, len);
		switch (fz_rand(c, 9)) {
		case 0:		/* flip a bit */
			if (len)
				c->work[pos] ^= 1 << fz_rand(c, 8);
			break;
		case 1:		/* random byte */
			if (len)
				c->work[pos] = fz_rand(c, 256);
			break;
		case 2:		/* interesting byte in a count/offset field */
			if (s->nfields && s->fields[0] < len) {
				pos = s->fields[fz_rand(c, s->nfields)];
				if (pos < len)
					c->work[pos] = values[fz_rand(c,
							ARRAY_SIZE(values))];
			}
			break;
		case 3:		/* truncate */
			len = fz_rand(c, len + 1);
			break;
		case 4:		/* extend with random bytes */
			n = 1 + fz_rand(c, 48);
			if (len + n <= FUZZ_MAX_LEN) {
				for (; n; n--)
					c->work[len++] = fz_rand(c, 256);
			}
			break;
		case 5:		/* insert a chunk of a field's size */
			n = chunks[fz_rand(c, ARRAY_SIZE(chunks))];
			if (len + n <= FUZZ_MAX_LEN) {
				memmove(c->work + pos + n, c->work + pos,
					len - pos);
				memset(c->work + pos, fz_rand(c, 256), n);
				len += n;
			}
			break;
		case 6:		/* remove a chunk */
			n = chunks[fz_rand(c, ARRAY_SIZE(chunks))];
			if (pos + n <= len) {
				memmove(c->work + pos, c->work + pos + n,
					len - pos - n);
				len -= n;
			}
			break;
		case 7:		/* rewrite the header length */
			if (len >= 8)
				fz_put16(c->work + 5, fz_rand(c, 2) ?
					 fz_rand(c, 0x10000) :
					 len + fz_rand(c, 9) - 4);
			break;
		default:	/* rewrite a 16-bit offset near a field */
			if (s->nfields) {
				pos = s->fields[fz_rand(c, s->nfields)];
				if (pos >= 1 && pos < len)
					fz_put16(c->work + pos - 1,
						 fz_rand(c, 2) ?
						 fz_rand(c, 0x10000) :
						 fz_rand(c, 700));
			}
			break;
		}
	}
	/* mostly keep the framing right so the parsers look deeper */
	if (fz_rand(c, 4)) {
		if (len >= 8)
			fz_put16(c->work + 5, len);
		if (len >= SMC_CLC_MIN_LEN)
			memcpy(c->work + len - 4, fz_ec, 4);
	}
	*lenp = len;
}

static bool fz_acc_rc_ok(int rc)
{
	return rc == 0 || rc == -EPROTO || rc == -EPROTONOSUPPORT;
}

static void fz_one(struct fuzz_ctx *c, const u8 *msg, size_t len)
{
	struct kunit *test = c->test;
	int rc;

	if (len >= sizeof(struct smc_clc_hdr))
		smc_clc_hdr_check((const void *)msg);
	smc_clc_trailer_check(msg, len);

	rc = smc_clc_proposal_parse(msg, len, &c->prop);
	KUNIT_ASSERT_TRUE(test, rc == 0 || rc == -EPROTO);
	if (!rc)
		fz_check_proposal(c, len);

	rc = smc_clc_accept_parse(msg, len, &c->acc);
	KUNIT_ASSERT_TRUE(test, fz_acc_rc_ok(rc));
	if (!rc)
		fz_check_acc(c, msg, len, SMC_CLC_ACCEPT);
	else if (rc == -EPROTONOSUPPORT)
		KUNIT_ASSERT_GE(test, len, SMC_CLC_ACCEPT_V2_LEN);

	rc = smc_clc_confirm_parse(msg, len, &c->acc);
	KUNIT_ASSERT_TRUE(test, fz_acc_rc_ok(rc));
	if (!rc)
		fz_check_acc(c, msg, len, SMC_CLC_CONFIRM);

	rc = smc_clc_decline_parse(msg, len, &c->dcl);
	KUNIT_ASSERT_TRUE(test, rc == 0 || rc == -EPROTO);
	if (!rc)
		fz_check_decline(c, len);
}

static void fz_run(struct kunit *test, u64 seed,
		   void (*add_seeds)(struct fuzz_ctx *c))
{
	struct fuzz_ctx *c;
	const struct fuzz_seed *s;
	size_t len;
	u64 start;
	u8 *buf;
	int i;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->test = test;
	prandom_seed_state(&c->rnd, seed);
	add_seeds(c);
	KUNIT_ASSERT_GT(test, c->nseeds, 0);

	/* every seed is valid for exactly one parser */
	for (i = 0; i < c->nseeds; i++)
		fz_one(c, c->seeds[i].msg, c->seeds[i].len);
	KUNIT_ASSERT_GT(test, c->accepted[0] + c->accepted[1] +
			      c->accepted[2] + c->accepted[3], 0);
	memset(c->accepted, 0, sizeof(c->accepted));

	start = ktime_get_ns();
	for (i = 0; i < FUZZ_ITERATIONS; i++) {
		s = &c->seeds[fz_rand(c, c->nseeds)];
		memcpy(c->work, s->msg, s->len);
		len = s->len;
		fz_mutate(c, s, &len);
		buf = c->bufs[len];
		if (!buf) {
			buf = kunit_kmalloc(test, len, GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, buf);
			c->bufs[len] = buf;
		}
		memcpy(buf, c->work, len);
		fz_one(c, buf, len);
	}
	kunit_info(test, "%d inputs in %llu ms; accepted: %u Proposal, %u Accept, %u Confirm, %u Decline\n",
		   FUZZ_ITERATIONS, div_u64(ktime_get_ns() - start, NSEC_PER_MSEC),
		   c->accepted[0], c->accepted[1], c->accepted[2],
		   c->accepted[3]);
}

static void fz_seeds_v1_proposal(struct fuzz_ctx *c)
{
	fz_seed_prop_v1(c, 0);
	fz_seed_prop_v1(c, 1);
	fz_seed_prop_v1(c, 3);
	fz_seed_prop_v1(c, 8);
}

static void fz_seeds_v2_proposal(struct fuzz_ctx *c)
{
	fz_seed_prop_v2(c, SMC_CLC_TYPE_R, SMC_CLC_TYPE_R, 0, 1, 0);
	fz_seed_prop_v2(c, SMC_CLC_TYPE_B, SMC_CLC_TYPE_B, 2, 2, 2);
	fz_seed_prop_v2(c, SMC_CLC_TYPE_N, SMC_CLC_TYPE_R, 0, 0, 0);
	fz_seed_prop_v2(c, SMC_CLC_TYPE_R, SMC_CLC_TYPE_N, 1, 0, 0);
	fz_seed_prop_v2(c, SMC_CLC_TYPE_D, SMC_CLC_TYPE_D, 0, 0, 1);
	fz_seed_prop_v2(c, SMC_CLC_TYPE_B, SMC_CLC_TYPE_B, 8, 8, 8);
}

static void fz_seeds_accept_confirm(struct fuzz_ctx *c)
{
	fz_seed_acc(c, SMC_CLC_ACCEPT, true);
	fz_seed_acc(c, SMC_CLC_ACCEPT, false);
	fz_seed_acc(c, SMC_CLC_CONFIRM, true);
	fz_seed_acc(c, SMC_CLC_CONFIRM, false);
	fz_seed_acc_v2(c, SMC_CLC_ACCEPT, 0);
	fz_seed_acc_v2(c, SMC_CLC_CONFIRM, 2);
}

static void fz_seeds_decline(struct fuzz_ctx *c)
{
	fz_seed_decline(c, false);
	fz_seed_decline(c, true);
	fz_seed_prop_v1(c, 0);
	fz_seed_acc(c, SMC_CLC_CONFIRM, true);
}

static void clc_fuzz_v1_proposal(struct kunit *test)
{
	fz_run(test, 0x534d435201ULL, fz_seeds_v1_proposal);
}

static void clc_fuzz_v2_proposal(struct kunit *test)
{
	fz_run(test, 0x534d435202ULL, fz_seeds_v2_proposal);
}

static void clc_fuzz_accept_confirm(struct kunit *test)
{
	fz_run(test, 0x534d435203ULL, fz_seeds_accept_confirm);
}

static void clc_fuzz_decline(struct kunit *test)
{
	fz_run(test, 0x534d435204ULL, fz_seeds_decline);
}

static struct kunit_case smcr_clc_fuzz_cases[] = {
	KUNIT_CASE_SLOW(clc_fuzz_v1_proposal),
	KUNIT_CASE_SLOW(clc_fuzz_v2_proposal),
	KUNIT_CASE_SLOW(clc_fuzz_accept_confirm),
	KUNIT_CASE_SLOW(clc_fuzz_decline),
	{}
};

static struct kunit_suite smcr_clc_fuzz_suite = {
	.name = "smcr_clc_fuzz",
	.test_cases = smcr_clc_fuzz_cases,
};

kunit_test_suite(smcr_clc_fuzz_suite);
