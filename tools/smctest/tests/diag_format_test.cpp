#include <gtest/gtest.h>

#include <sys/socket.h>

#include "commands.hpp"

using namespace smctest;

namespace {

std::vector<smcr::DiagEntry> sample()
{
	smcr::DiagEntry lis;
	lis.family = AF_INET;
	lis.state = 10;
	lis.mode = 1;
	lis.src = "0.0.0.0";
	lis.dst = "0.0.0.0";
	lis.sport = 20360;
	lis.inode = 100;
	smcr::DiagEntry est;
	est.family = AF_INET;
	est.state = 1;
	est.mode = 1; // SMC_DIAG_MODE_FALLBACK_TCP
	est.src = "192.0.2.2";
	est.dst = "192.0.2.1";
	est.sport = 20360;
	est.dport = 40000;
	est.reason = 0x05000000;
	est.peer_diagnosis = 0x03030002;
	est.inode = 101;
	smcr::DiagEntry v6 = est;
	v6.family = AF_INET6;
	v6.src = "2001:db8::2";
	v6.dst = "2001:db8::1";
	v6.sport = 5201;
	v6.inode = 102;
	return {lis, est, v6};
}

} // namespace

TEST(DiagFormat, KvLines)
{
	Config c;
	c.diag_kv = true;
	c.diag_port = 20360;
	std::string out = format_diag(c, sample());
	EXPECT_NE(out.find("state=LISTEN mode=fallback local=0.0.0.0:20360 peer=0.0.0.0:0 "), std::string::npos);
	EXPECT_NE(out.find("family=inet state=ESTABLISHED mode=fallback local=192.0.2.2:20360 peer=192.0.2.1:40000 "
			   "reason=0x05000000 peer_diag=0x03030002 inode=101 "),
		  std::string::npos)
		<< out;
	EXPECT_EQ(out.find("2001:db8"), std::string::npos); // filtered by port
}

TEST(DiagFormat, TableAndSummary)
{
	Config c;
	c.diag_summary = true;
	std::string out = format_diag(c, sample());
	EXPECT_NE(out.find("[2001:db8::2]:5201"), std::string::npos) << out;
	EXPECT_NE(out.find("0x05000000 PEERDECL"), std::string::npos) << out;
	EXPECT_NE(out.find("3 AF_SMC socket(s)"), std::string::npos) << out;
	EXPECT_NE(out.find("summary: 2 connection(s) used TCP fallback, reason 0x05000000 (peer sent a CLC Decline), "
			   "peer diagnosis 0x03030002 (no usable RoCE device)"),
		  std::string::npos)
		<< out;
}

TEST(DiagFormat, Empty)
{
	Config c;
	c.diag_summary = true;
	std::string out = format_diag(c, {});
	EXPECT_NE(out.find("0 AF_SMC socket(s)"), std::string::npos);
	EXPECT_NE(out.find("summary: no AF_SMC connections"), std::string::npos);
}
