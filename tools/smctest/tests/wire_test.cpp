// Byte-exact checks of link-peer's CDC and LLC builders and parsers against
// the RFC 7609 figures, using the golden vectors of kunit/cdc_test.c and
// kunit/llc_test.c.
#include <gtest/gtest.h>

#include "wire.hpp"

using namespace smctest::wire;

namespace {

// kunit/cdc_test.c golden_cdc
const Msg golden_cdc = {
	0xFE, 0x2C, 0x01, 0x02, 0xA1, 0xB2, 0xC3, 0xD4, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x10,
	0x04, 0x00, 0x00, 0xFF, 0xFE, 0x00, 0x00, 0x00, 0x04, 0xC0, 0x80, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

// kunit/llc_test.c golden_confirm_link_req
const Msg golden_confirm_link_req = {
	0x01, 0x2C, 0x00, 0x03, 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc, 0xfe, 0x80, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xfe, 0xaa, 0xbb, 0xcc, 0x00, 0x00, 0x08, 0x01,
	0x12, 0x34, 0x56, 0x78, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

Cdc golden_cdc_fields()
{
	Cdc c;
	c.seqno = 0x0102;
	c.token = 0xA1B2C3D4;
	c.prod = {3, 0x1004};
	c.cons = {0xfffe, 4};
	c.prod_flags = kProdWriteBlocked | kProdUrgPending;
	c.conn_flags = kConnDoneWriting;
	return c;
}

} // namespace

TEST(Wire, CdcBuildGolden)
{
	EXPECT_EQ(cdc_build(golden_cdc_fields()), golden_cdc);
}

TEST(Wire, CdcParseGolden)
{
	auto c = cdc_parse(golden_cdc.data(), golden_cdc.size());
	ASSERT_TRUE(c);
	Cdc want = golden_cdc_fields();
	EXPECT_EQ(c->seqno, want.seqno);
	EXPECT_EQ(c->token, want.token);
	EXPECT_EQ(c->prod, want.prod);
	EXPECT_EQ(c->cons, want.cons);
	EXPECT_EQ(c->prod_flags, want.prod_flags);
	EXPECT_EQ(c->conn_flags, want.conn_flags);
}

TEST(Wire, CdcParseRejectsOtherMessages)
{
	EXPECT_FALSE(cdc_parse(golden_confirm_link_req.data(), kMsgLen));
	EXPECT_FALSE(cdc_parse(golden_cdc.data(), kMsgLen - 1));
}

TEST(Wire, ConfirmLinkGolden)
{
	ConfirmLink c;
	c.flags = kNoRmbeEyec;
	c.mac = {0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc};
	c.gid = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xfe, 0xaa, 0xbb, 0xcc};
	c.qpn = 8;
	c.link_num = 1;
	c.link_uid = {0x12, 0x34, 0x56, 0x78};
	c.max_links = 2;
	EXPECT_EQ(confirm_link_build(c), golden_confirm_link_req);
	auto p = confirm_link_parse(golden_confirm_link_req.data(), kMsgLen);
	ASSERT_TRUE(p);
	EXPECT_FALSE(p->response);
	EXPECT_EQ(p->flags, kNoRmbeEyec);
	EXPECT_EQ(p->qpn, 8u);
	EXPECT_EQ(p->link_num, 1);
	EXPECT_EQ(p->gid, c.gid);
	EXPECT_EQ(p->mac, c.mac);
}

TEST(Wire, DeleteLinkLayout)
{
	Msg m = delete_link_build(false, true, true, 0, 0x00020000);
	EXPECT_EQ(m[0], kDeleteLink);
	EXPECT_EQ(m[1], kMsgLen);
	EXPECT_EQ(m[3], 0x60);
	EXPECT_EQ(m[4], 0);
	EXPECT_EQ(m[5], 0x00);
	EXPECT_EQ(m[6], 0x02);
	EXPECT_EQ(m[7], 0x00);
	EXPECT_EQ(m[8], 0x00);
}
