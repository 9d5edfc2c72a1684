// Byte-exact checks of the hostile peer's CLC builders against the RFC 7609
// figures, using the same golden vectors as kunit/clc_test.c.
#include <gtest/gtest.h>

#include "clc.hpp"

using namespace smctest::clc;

namespace {

const Bytes golden_decline_v1 = {
	0xE2, 0xD4, 0xC3, 0xD9, 0x04, 0x00, 0x1C, 0x10, // header: Decline, 28, v1
	0x56, 0x78, 0x02, 0x00, 0x00, 0x11, 0x22, 0x33, // peer ID
	0x03, 0x03, 0x00, 0x02,				// NOSMCRDEV
	0x00, 0x00, 0x00, 0x00, 0xE2, 0xD4, 0xC3, 0xD9,
};

// kunit/clc_test.c golden_prop_v4
const Bytes golden_prop_v4 = {
	0xE2, 0xD4, 0xC3, 0xD9, 0x01, 0x00, 0x34, 0x10, 0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc,
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc,
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, 0x00, 0x00, 0xc0, 0x00, 0x02, 0x00, 0x18, 0x00, 0x00, 0x00,
	0xE2, 0xD4, 0xC3, 0xD9,
};

// kunit/clc_test.c golden_accept
const Bytes golden_accept = {
	0xE2, 0xD4, 0xC3, 0xD9, 0x02, 0x00, 0x44, 0x18, 0x12, 0x34, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc,
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc,
	0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, 0x12, 0x34, 0x56, 0xde, 0xad, 0xbe, 0xef, 0x01, 0x00, 0x00,
	0x10, 0x01, 0x23, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x12, 0x34, 0x50, 0x00, 0x00, 0xab, 0xcd, 0xef,
	0xE2, 0xD4, 0xC3, 0xD9,
};

} // namespace

TEST(Clc, DeclineV1Golden)
{
	EXPECT_EQ(decline(0x03030002), golden_decline_v1);
	EXPECT_EQ(decline_diagnosis(golden_decline_v1), 0x03030002u);
	auto s = decline(0x04000000, 1, true);
	EXPECT_EQ(s[7], 0x18);
	EXPECT_EQ(decline(1, 0)[7], 0x00);
}

TEST(Clc, ProposalV4Golden)
{
	ProposalSpec s;
	s.ipv4_subnet = 0xc0000200;
	s.ipv4_prefix_len = 24;
	EXPECT_EQ(proposal_v1(s), golden_prop_v4);
}

TEST(Clc, ProposalV6CountAndOffset)
{
	ProposalSpec s;
	Ipv6Prefix p;
	p.prefix = {0x20, 0x01, 0x0d, 0xb8};
	p.len = 64;
	s.ipv6 = {p, p};
	auto m = proposal_v1(s);
	ASSERT_EQ(m.size(), 86u); // 48 + 2 * 17 + 4, as golden_prop_v6
	EXPECT_EQ(m[6], 86);
	EXPECT_EQ(m[47], 2);
	s.ipv6_count_override = 3;
	s.iparea_offset = 200;
	m = proposal_v1(s);
	EXPECT_EQ(m[47], 3);
	EXPECT_EQ(m[38], 0);
	EXPECT_EQ(m[39], 200);
	EXPECT_TRUE(trailer_ok(m));
}

TEST(Clc, AcceptGoldenAndConfirm)
{
	EXPECT_EQ(accept_confirm(Accept), golden_accept);
	auto c = accept_confirm(Confirm);
	EXPECT_EQ(c.size(), 68u);
	EXPECT_EQ(c[4], Confirm);
	EXPECT_EQ(c[7], 0x10);
}

TEST(Clc, LinuxV2ProposalShape)
{
	auto m = proposal_linux_v2(0xc0000200, 24);
	ASSERT_EQ(m.size(), 164u); // kunit golden_prop_linux_v2
	auto h = parse_header(m.data());
	EXPECT_TRUE(h.eye_ok);
	EXPECT_EQ(h.type, Proposal);
	EXPECT_EQ(h.length, 164);
	EXPECT_EQ(h.version(), 2);
	EXPECT_EQ(m[38], 0x00);
	EXPECT_EQ(m[39], 0x28); // iparea_offset 40
	EXPECT_EQ(m[51], 0x24); // v2_ext_offset 36
	EXPECT_EQ(m[80], 0xc0); // IPv4 subnet at 80
	EXPECT_EQ(m[84], 24);
	EXPECT_EQ(m[88], 1);	// one EID
	EXPECT_EQ(m[91], 0x10); // release 1
	EXPECT_EQ(m[111], 0x01); // ::ffff:192.0.2.1
	EXPECT_EQ(m[128], 'S');
	EXPECT_TRUE(trailer_ok(m));
}

TEST(Clc, ReaderRejectsMalformed)
{
	auto m = decline(0x03030002);
	m[3] = 0;
	EXPECT_FALSE(parse_header(m.data()).eye_ok);
	EXPECT_FALSE(decline_diagnosis(m));
	m = decline(0x03030002);
	m.back() = 0;
	EXPECT_FALSE(trailer_ok(m));
	EXPECT_FALSE(decline_diagnosis(m));
	EXPECT_FALSE(decline_diagnosis(accept_confirm(Accept)));
}

TEST(Clc, AcceptConfirmRoundTrip)
{
	AcceptConfirmSpec s;
	s.qpn = 0xabcdef;
	s.rmb_rkey = 0x01020304;
	s.rmbe_idx = 7;
	s.alert_token = 0x5a000001;
	s.rmbe_size_code = 3;
	s.mtu = 5;
	s.rmb_vaddr = 0x0123456789abcdefULL;
	s.psn = 0x123456;
	auto m = accept_confirm(Confirm, s);
	ASSERT_EQ(m.size(), kAcceptLen);
	auto p = accept_confirm_parse(m);
	ASSERT_TRUE(p);
	EXPECT_EQ(p->qpn, s.qpn);
	EXPECT_EQ(p->rmb_rkey, s.rmb_rkey);
	EXPECT_EQ(p->rmbe_idx, s.rmbe_idx);
	EXPECT_EQ(p->alert_token, s.alert_token);
	EXPECT_EQ(p->rmbe_size_code, s.rmbe_size_code);
	EXPECT_EQ(p->mtu, s.mtu);
	EXPECT_EQ(p->rmb_vaddr, s.rmb_vaddr);
	EXPECT_EQ(p->psn, s.psn);
	EXPECT_FALSE(p->first_contact); // a Confirm has no F bit
	auto a = accept_confirm_parse(golden_accept);
	ASSERT_TRUE(a);
	EXPECT_TRUE(a->first_contact);
	EXPECT_EQ(accept_confirm(Accept, *a), golden_accept);
	m.back() ^= 0xff;
	EXPECT_FALSE(accept_confirm_parse(m));
	EXPECT_FALSE(accept_confirm_parse(golden_decline_v1));
}

// The v2-only Proposal: the layout of kunit golden_prop_linux_v2 without
// the prefix area (version 1 type N), the offsets counted the same way.
TEST(Clc, ProposalV2OnlyShape)
{
	ProposalSpec s;
	s.v2_gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1};
	s.eid = eid("smcr-link-peer");
	auto m = proposal_v2(s);
	ASSERT_EQ(m.size(), 40u + 40 + 40 + 32 + 4);
	EXPECT_EQ(m[7], 0x22);			// version 2, type v2 R, type v1 N
	EXPECT_EQ(m[38] << 8 | m[39], 0);	// no prefix area
	EXPECT_EQ(m[50] << 8 | m[51], 28);	// v2 extension right after the SMC-D area
	EXPECT_EQ(m[80], 1);			// one EID
	EXPECT_EQ(m[83], 0x10);			// release 1
	EXPECT_EQ(m[100], 192);			// GID ::ffff:192.0.2.1 at 88
	EXPECT_EQ(m[104], 255);			// max conns
	EXPECT_EQ(m[105], 1);			// max links
	EXPECT_EQ(std::string(m.begin() + 120, m.begin() + 134), "SMCR-LINK-PEER");
	EXPECT_EQ(m[151], ' ');			// blank padded
	EXPECT_TRUE(trailer_ok(m));
}

// Accept and Confirm of version 2: 108 bytes, then on first contact the
// release 1 extension (52) and, in a Confirm, the GID list - round trip,
// and the parser takes nothing whose lengths do not add up.
TEST(Clc, AcceptConfirmV2RoundTrip)
{
	AcceptConfirmSpec s;
	s.version = 2;
	s.eid = eid("E1");
	s.max_conns = 100;
	s.max_links = 2;
	s.gids = {Gid{1}, Gid{2}};
	auto acc = accept_confirm(Accept, s);
	ASSERT_EQ(acc.size(), kAcceptV2Len + 52);
	EXPECT_EQ(acc[7], 0x28); // version 2, F
	auto a = accept_confirm_parse(acc);
	ASSERT_TRUE(a);
	EXPECT_EQ(a->version, 2);
	EXPECT_TRUE(a->first_contact);
	EXPECT_EQ(a->eid, s.eid);
	EXPECT_EQ(a->release, 1);
	EXPECT_EQ(a->max_conns, 100);
	EXPECT_EQ(a->max_links, 2);
	EXPECT_TRUE(a->gids.empty()); // an Accept has no GID list
	auto conf = accept_confirm(Confirm, s);
	ASSERT_EQ(conf.size(), kAcceptV2Len + 52 + 4 + 32);
	EXPECT_EQ(conf[7], 0x28); // a version 2 Confirm has F on first contact
	auto c = accept_confirm_parse(conf);
	ASSERT_TRUE(c);
	EXPECT_EQ(c->gids, s.gids);
	s.first_contact = false;
	auto sub = accept_confirm(Accept, s);
	ASSERT_EQ(sub.size(), kAcceptV2Len);
	ASSERT_TRUE(accept_confirm_parse(sub));
	// one byte more before the trailer, a GID count beyond the message
	acc.insert(acc.end() - kTrailerLen, 0);
	acc[6] = static_cast<uint8_t>(acc.size());
	EXPECT_FALSE(accept_confirm_parse(acc));
	conf[kAcceptV2Len - kTrailerLen + 52] = 3;
	EXPECT_FALSE(accept_confirm_parse(conf));
}
