#include <gtest/gtest.h>

#include "format.hpp"

using namespace smcr::admin;

namespace {

Stats fake_stats()
{
	Stats s;
	s.smcr.clnt_v1 = 3;
	s.smcr.srv_v2 = 4;
	s.smcr.tx.calls = 10;
	s.smcr.tx.bytes = 123456;
	s.smcr.tx.payload[0] = 7;
	s.smcr.tx.payload[8] = 3;
	s.smcr.rx.buf.alloc = 2;
	s.smcr.rx.buf_usage = 65536;
	s.clnt_hs_err = 1;
	return s;
}

FallbackStats fake_fback()
{
	FallbackStats f;
	f.clnt_total = 12;
	f.srv_total = 5;
	f.entries.push_back({false, 0x03030002, 12});
	f.entries.push_back({true, 0x05000000, 5});
	f.entries.push_back({true, 0x12345678, 0});
	return f;
}

} // namespace

TEST(SmcrJson, WriterNestingAndCommas)
{
	Json j;
	j.begin_object();
	j.key("a").value(uint64_t{1});
	j.key("b").begin_array().value("x").value(true).begin_object().end_object().end_array();
	j.key("c").value("q\"\\\n\x01");
	j.end_object();
	EXPECT_EQ(j.str(), "{\"a\":1,\"b\":[\"x\",true,{}],\"c\":\"q\\\"\\\\\\n\\u0001\"}\n");
}

TEST(SmcrFormat, InfoTableAndJson)
{
	SysInfo i;
	i.version = 1;
	i.hostname = "vm-a";
	i.ueid_cnt = 2;
	auto t = format_info(i, false);
	EXPECT_NE(t.find("SMC version: 1.0\n"), std::string::npos);
	EXPECT_NE(t.find("Host name:   vm-a\n"), std::string::npos);
	EXPECT_NE(t.find("User EIDs:   2\n"), std::string::npos);
	EXPECT_EQ(t.find("System EID"), std::string::npos);
	EXPECT_EQ(format_info(i, true),
		  "{\"version\":1,\"release\":0,\"smcr_v2\":false,\"smcd_v2\":false,"
		  "\"hostname\":\"vm-a\",\"ueid_count\":2}\n");
	i.ueid_cnt.reset();
	i.seid = "SEID-X";
	EXPECT_EQ(format_info(i, true),
		  "{\"version\":1,\"release\":0,\"smcr_v2\":false,\"smcd_v2\":false,"
		  "\"hostname\":\"vm-a\",\"seid\":\"SEID-X\"}\n");
}

TEST(SmcrFormat, StatsTable)
{
	auto t = format_stats(fake_stats(), fake_fback(), false);
	EXPECT_NE(t.find("  total             16      9\n"), std::string::npos) << t;
	EXPECT_NE(t.find("  fallback to TCP   12      5\n"), std::string::npos) << t;
	EXPECT_NE(t.find("  client  0x03030002  NOSMCRDEV  12     no usable RoCE device\n"), std::string::npos)
		<< t;
	EXPECT_NE(t.find("  server  0x05000000  PEERDECL   5      peer sent a CLC Decline\n"),
		  std::string::npos)
		<< t;
	EXPECT_NE(t.find("0x12345678  unknown"), std::string::npos) << t;
	EXPECT_NE(t.find("    calls > 1024K"), std::string::npos) << t;
	EXPECT_NE(t.find("    buffers <= 8K"), std::string::npos) << t;
}

TEST(SmcrFormat, StatsNoFallbacks)
{
	auto t = format_stats(Stats{}, FallbackStats{}, false);
	EXPECT_NE(t.find("Fallback reasons\n  none\n"), std::string::npos) << t;
	auto j = format_stats(Stats{}, FallbackStats{}, true);
	EXPECT_NE(j.find("\"fallback\":{\"client\":0,\"server\":0,\"reasons\":[]}"), std::string::npos)
		<< j;
}

TEST(SmcrFormat, StatsJson)
{
	auto j = format_stats(fake_stats(), fake_fback(), true);
	EXPECT_EQ(j.back(), '\n');
	EXPECT_EQ(j.find('\n'), j.size() - 1); // one line
	EXPECT_NE(j.find("\"handshakes\":{\"client\":{\"v1\":3,\"v2\":0},\"server\":{\"v1\":0,\"v2\":4}}"),
		  std::string::npos)
		<< j;
	EXPECT_NE(j.find("\"tx\":{\"calls\":10,\"bytes\":123456,\"payload_sizes\":{\"8K\":7,"),
		  std::string::npos)
		<< j;
	EXPECT_NE(j.find("\">1024K\":3}"), std::string::npos) << j;
	EXPECT_NE(j.find("\"buffer_usage\":65536"), std::string::npos) << j;
	EXPECT_NE(j.find("\"handshake_errors\":{\"client\":1,\"server\":0}"), std::string::npos) << j;
	EXPECT_NE(j.find("{\"role\":\"client\",\"code\":\"0x03030002\",\"name\":\"NOSMCRDEV\",\"count\":12,"
			 "\"description\":\"no usable RoCE device\"}"),
		  std::string::npos)
		<< j;
	EXPECT_NE(j.find("\"fallback\":{\"client\":12,\"server\":5,"), std::string::npos) << j;
	// balanced brackets
	int depth = 0;
	bool in_str = false;
	for (size_t i = 0; i < j.size(); ++i) {
		char c = j[i];
		if (in_str) {
			if (c == '\\')
				++i;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"')
			in_str = true;
		else if (c == '{' || c == '[')
			++depth;
		else if (c == '}' || c == ']')
			--depth;
		ASSERT_GE(depth, 0);
	}
	EXPECT_EQ(depth, 0);
}

TEST(SmcrFormat, LinkGroupsAndLinks)
{
	LinkGroup g;
	g.id = 0x100;
	g.role = 1;
	g.type = 1;
	g.conns = 3;
	g.pnetid = "NET1";
	Link l;
	l.id = 1;
	l.state = 3;
	l.conn_cnt = 3;
	l.ibdev = "rxe0";
	l.ibport = 1;
	l.gid = "fe80::1";
	l.peer_gid = "fe80::2";
	g.links.push_back(l);
	std::vector<LinkGroup> v{g};
	EXPECT_EQ(format_lgrs(v, false), "LG-ID     LG-ROLE  LG-TYPE  VERSION  VLAN  #CONNS  PNET-ID\n"
					 "00000100  server   SINGLE   1        0     3       NET1\n");
	auto v2 = v;
	v2[0].v2_version = 2;
	v2[0].v2_release = 1;
	EXPECT_EQ(format_lgrs(v2, false), "LG-ID     LG-ROLE  LG-TYPE  VERSION  VLAN  #CONNS  PNET-ID\n"
					  "00000100  server   SINGLE   2.1      0     3       NET1\n");
	EXPECT_EQ(format_links(v, false),
		  "LG-ID     LNK-ID  STATE   #CONNS  IB-DEV  PORT  GID      PEER-GID\n"
		  "00000100  1       ACTIVE  3       rxe0    1     fe80::1  fe80::2\n");
	auto j = format_lgrs(v, true);
	EXPECT_EQ(j.rfind("[{\"id\":256,\"role\":\"server\",\"type\":\"SINGLE\"", 0), 0u) << j;
	// a v2 link group's JSON says whether the peer is reached directly
	v2[0].v2_direct = false;
	auto j2 = format_lgrs(v2, true);
	EXPECT_NE(j2.find("\"v2\":{\"version\":2,\"release\":1,\"direct\":false,"),
		  std::string::npos) << j2;
	EXPECT_EQ(format_lgrs({}, true), "[]\n");
	EXPECT_EQ(format_links({}, true), "[]\n");
	EXPECT_EQ(format_lgrs({}, false), "LG-ID  LG-ROLE  LG-TYPE  VERSION  VLAN  #CONNS  PNET-ID\n");
	auto lj = format_links(v, true);
	EXPECT_NE(lj.find("\"lgr_id\":256,\"link_id\":1,\"state\":\"ACTIVE\""), std::string::npos) << lj;
}

TEST(SmcrFormat, Devices)
{
	Device d;
	d.ibname = "rxe0";
	d.ports.push_back({1, false, "", 2, 1, 0});
	std::vector<Device> v{d};
	EXPECT_EQ(format_devices(v, false),
		  "IB-DEV  PORT  STATE   #LINKS  CRIT  PCI-ID  PNET-ID\n"
		  "rxe0    1     ACTIVE  0       no    -       -\n");
	EXPECT_EQ(format_devices(v, true),
		  "[{\"ibdev\":\"rxe0\",\"critical\":false,\"pci_id\":\"\",\"ports\":[{\"port\":1,"
		  "\"pnetid\":\"\",\"pnetid_by_user\":false,\"ifindex\":2,\"active\":true,\"links\":0}]}]\n");
	EXPECT_EQ(format_devices({}, true), "[]\n");
}

TEST(SmcrFormat, Ueids)
{
	EXPECT_EQ(format_ueids({"A", "B.C"}, false), "A\nB.C\n");
	EXPECT_EQ(format_ueids({"A", "B.C"}, true), "[\"A\",\"B.C\"]\n");
	EXPECT_EQ(format_ueids({}, true), "[]\n");
	EXPECT_EQ(format_ueids({}, false), "");
}

TEST(SmcrFormat, Names)
{
	EXPECT_EQ(lgr_type_name(2), "SYM");
	EXPECT_EQ(lgr_type_name(9), "9");
	EXPECT_EQ(link_state_name(1), "INACTIVE");
	EXPECT_EQ(bucket_name(0), "8K");
	EXPECT_EQ(bucket_name(8), ">1024K");
}
