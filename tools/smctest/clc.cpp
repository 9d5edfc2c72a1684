#include "clc.hpp"

#include <cstdio>

namespace smctest::clc {

namespace {

void put16(Bytes &m, uint16_t v)
{
	m.push_back(static_cast<uint8_t>(v >> 8));
	m.push_back(static_cast<uint8_t>(v));
}

void put32(Bytes &m, uint32_t v)
{
	put16(m, static_cast<uint16_t>(v >> 16));
	put16(m, static_cast<uint16_t>(v));
}

template <size_t N> void put(Bytes &m, const std::array<uint8_t, N> &a)
{
	m.insert(m.end(), a.begin(), a.end());
}

void zeros(Bytes &m, size_t n)
{
	m.insert(m.end(), n, 0);
}

} // namespace

Bytes header(uint8_t type, uint16_t length, uint8_t flags)
{
	Bytes m;
	put(m, kEyeCatcher);
	m.push_back(type);
	put16(m, length);
	m.push_back(flags);
	return m;
}

void finish(Bytes &m)
{
	size_t len = m.size() + kTrailerLen;
	m[5] = static_cast<uint8_t>(len >> 8);
	m[6] = static_cast<uint8_t>(len);
	put(m, kEyeCatcher);
}

Bytes decline(uint32_t diagnosis, uint8_t version, bool sync)
{
	Bytes m = header(Decline, 0, static_cast<uint8_t>(version << 4 | (sync ? 0x08 : 0)));
	put(m, std::array<uint8_t, 8>{0x56, 0x78, 0x02, 0x00, 0x00, 0x11, 0x22, 0x33}); // peer ID
	put32(m, diagnosis);
	zeros(m, 4);
	finish(m);
	return m;
}

Bytes proposal_v1(const ProposalSpec &s)
{
	Bytes m = header(Proposal, 0, s.flags);
	put(m, s.peer_id);
	put(m, s.gid);
	put(m, s.mac);
	put16(m, s.iparea_offset);
	put32(m, s.ipv4_subnet);
	m.push_back(s.ipv4_prefix_len);
	zeros(m, 2);
	m.push_back(s.ipv6_count_override ? *s.ipv6_count_override : static_cast<uint8_t>(s.ipv6.size()));
	for (const auto &p : s.ipv6) {
		put(m, p.prefix);
		m.push_back(p.len);
	}
	finish(m);
	return m;
}

Bytes proposal_linux_v2(uint32_t ipv4_subnet, uint8_t prefix_len)
{
	ProposalSpec s;
	Bytes m = header(Proposal, 0, 0x20); // version 2, type v2 R, type v1 R
	put(m, s.peer_id);
	put(m, s.gid);
	put(m, s.mac);
	put16(m, 40);	// iparea_offset: the SMC-D area comes first
	zeros(m, 8);	// ISM GID
	zeros(m, 2);	// ISM CHID
	put16(m, 36);	// v2_ext_offset: 28 + 8 (counted from byte 12 of the area)
	zeros(m, 3 + 5 + 20); // OUI, vendor options, reserved
	put32(m, ipv4_subnet);
	m.push_back(prefix_len);
	zeros(m, 2);
	m.push_back(0); // no IPv6 prefixes
	// v2 extension
	m.push_back(1);	   // one user EID
	m.push_back(0);	   // no ISM GIDs
	m.push_back(0);	   // reserved
	m.push_back(0x10); // release 1, no SEID
	zeros(m, 2);
	put16(m, 0); // no SMC-D v2 extension
	std::array<uint8_t, 16> gid{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	gid[12] = static_cast<uint8_t>(ipv4_subnet >> 24);
	gid[13] = static_cast<uint8_t>(ipv4_subnet >> 16);
	gid[14] = static_cast<uint8_t>(ipv4_subnet >> 8);
	gid[15] = static_cast<uint8_t>(ipv4_subnet | 1);
	put(m, gid);	// RoCE v2 GID (IPv4-mapped)
	m.push_back(0xff); // max_conns
	m.push_back(0x02); // max_links
	put16(m, 0x0001);  // feature mask
	zeros(m, 12);
	std::string eid = "SMCR-TEST-EID";
	eid.resize(32, ' ');
	m.insert(m.end(), eid.begin(), eid.end());
	finish(m);
	return m;
}

Bytes accept_confirm(uint8_t type)
{
	Bytes m = header(type, 0, type == Accept ? 0x18 : 0x10); // v1; Accept: first contact
	ProposalSpec s;
	put(m, s.peer_id);
	put(m, s.gid);
	put(m, s.mac);
	put(m, std::array<uint8_t, 3>{0x12, 0x34, 0x56});	     // QP number
	put32(m, 0xdeadbeef);					     // RMB rkey
	m.push_back(1);						     // RMBE index
	put32(m, 0x1001);					     // alert token
	m.push_back(0x23);					     // Bsize 2 (64K), MTU 3 (1024)
	m.push_back(0);						     // reserved
	put(m, std::array<uint8_t, 8>{0, 0, 0x7f, 0, 0x12, 0x34, 0x50, 0}); // RMB address
	m.push_back(0);						     // reserved
	put(m, std::array<uint8_t, 3>{0xab, 0xcd, 0xef});	     // PSN
	finish(m);
	return m;
}

Header parse_header(const uint8_t *p)
{
	Header h;
	h.eye_ok = p[0] == kEyeCatcher[0] && p[1] == kEyeCatcher[1] && p[2] == kEyeCatcher[2] &&
		   p[3] == kEyeCatcher[3];
	h.type = p[4];
	h.length = static_cast<uint16_t>(p[5] << 8 | p[6]);
	h.flags = p[7];
	return h;
}

bool trailer_ok(const Bytes &m)
{
	if (m.size() < kHdrLen + kTrailerLen)
		return false;
	for (size_t i = 0; i < kTrailerLen; ++i)
		if (m[m.size() - kTrailerLen + i] != kEyeCatcher[i])
			return false;
	return true;
}

std::optional<uint32_t> decline_diagnosis(const Bytes &m)
{
	if (m.size() < kDeclineLen)
		return std::nullopt;
	Header h = parse_header(m.data());
	if (!h.eye_ok || h.type != Decline || h.length != m.size() || !trailer_ok(m))
		return std::nullopt;
	if (h.length != kDeclineLen && h.length != 44)
		return std::nullopt;
	return static_cast<uint32_t>(m[16]) << 24 | static_cast<uint32_t>(m[17]) << 16 |
	       static_cast<uint32_t>(m[18]) << 8 | m[19];
}

std::string type_name(uint8_t type)
{
	switch (type) {
	case Proposal: return "Proposal";
	case Accept: return "Accept";
	case Confirm: return "Confirm";
	case Decline: return "Decline";
	}
	return "type " + std::to_string(type);
}

std::string hex(const Bytes &m, size_t max)
{
	std::string s;
	char b[4];
	for (size_t i = 0; i < m.size() && i < max; ++i) {
		std::snprintf(b, sizeof(b), "%02x", m[i]);
		s += b;
	}
	if (m.size() > max)
		s += "...";
	return s;
}

} // namespace smctest::clc
