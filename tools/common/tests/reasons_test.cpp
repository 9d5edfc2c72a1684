#include <gtest/gtest.h>

#include <linux/smcr.h>

#include "smcr/reasons.hpp"

using namespace smcr;

TEST(Reasons, Lookup)
{
	auto r = reason_lookup(SMC_CLC_DECL_PEERNOSMC);
	ASSERT_TRUE(r);
	EXPECT_EQ(r->name, "PEERNOSMC");
	EXPECT_FALSE(reason_lookup(0x12345678));
	EXPECT_EQ(reason_lookup(SMC_CLC_DECL_NOSMCRDEV)->name, "NOSMCRDEV");
	EXPECT_EQ(reason_lookup(SMC_CLC_DECL_PEERDECL)->description, "peer sent a CLC Decline");
	EXPECT_EQ(reason_lookup(SMC_CLC_DECL_ERR_REGBUF)->name, "ERR_REGBUF");
}

TEST(Reasons, ToString)
{
	EXPECT_EQ(reason_to_string(0), "0 (none)");
	EXPECT_EQ(reason_to_string(0x03030002), "0x03030002 (NOSMCRDEV)");
	EXPECT_EQ(reason_to_string(0x05000000), "0x05000000 (PEERDECL)");
	EXPECT_EQ(reason_to_string(0x7), "0x00000007 (unknown)");
}

TEST(Reasons, Parse)
{
	EXPECT_EQ(reason_parse("0x03010000"), SMC_CLC_DECL_PEERNOSMC);
	EXPECT_EQ(reason_parse("03010000"), SMC_CLC_DECL_PEERNOSMC);
	EXPECT_EQ(reason_parse("PEERNOSMC"), SMC_CLC_DECL_PEERNOSMC);
	EXPECT_EQ(reason_parse("smc_clc_decl_peerdecl"), SMC_CLC_DECL_PEERDECL);
	EXPECT_EQ(reason_parse("17"), 17u);
	EXPECT_FALSE(reason_parse("bogus"));
	EXPECT_FALSE(reason_parse(""));
}

TEST(Reasons, TableSortedUnique)
{
	auto t = reason_table();
	for (size_t i = 1; i < t.size(); ++i)
		EXPECT_LT(t[i - 1].code, t[i].code);
}
