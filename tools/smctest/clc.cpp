#include "clc.hpp"

#include <algorithm>
#include <cctype>
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
	Bytes m = header(Decline, 0, static_cast<uint8_t>(version << 4 | (sync ? kDeclineSync : 0)));
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

Eid eid(const std::string &name)
{
	Eid e;
	e.fill(' ');
	for (size_t i = 0; i < name.size() && i < e.size(); ++i)
		e[i] = static_cast<uint8_t>(std::toupper(static_cast<unsigned char>(name[i])));
	return e;
}

Bytes proposal_v2(const ProposalSpec &s)
{
	Bytes m = header(Proposal, 0, 0x22); // version 2, type v2 R, type v1 N
	put(m, s.peer_id);
	put(m, s.gid);
	put(m, s.mac);
	put16(m, 0);	// iparea_offset: no prefix area without version 1
	zeros(m, 8);	// SMC-D area: ISM GID
	zeros(m, 2);	// ISM CHID
	put16(m, 28);	// v2_ext_offset: the area's end, counted from its byte 12
	zeros(m, 3 + 5 + 20);
	m.push_back(1);	// one user EID
	m.push_back(0);	// no ISM GIDs
	m.push_back(0);
	m.push_back(static_cast<uint8_t>(s.release << 4));
	zeros(m, 2);
	put16(m, 0);	// no SMC-D v2 extension
	put(m, s.v2_gid);
	m.push_back(s.max_conns);
	m.push_back(s.max_links);
	put16(m, 0);	// feature mask
	zeros(m, 12);
	put(m, s.eid);
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

Bytes accept_confirm(uint8_t type, const AcceptConfirmSpec &s)
{
	uint8_t flags = static_cast<uint8_t>(s.version << 4); // SMC-R
	if ((type == Accept || s.version == 2) && s.first_contact)
		flags |= 0x08;
	Bytes m = header(type, 0, flags);
	put(m, s.peer_id);
	put(m, s.gid);
	put(m, s.mac);
	m.push_back(static_cast<uint8_t>(s.qpn >> 16));
	put16(m, static_cast<uint16_t>(s.qpn));
	put32(m, s.rmb_rkey);
	m.push_back(s.rmbe_idx);
	put32(m, s.alert_token);
	m.push_back(static_cast<uint8_t>(s.rmbe_size_code << 4 | (s.mtu & 0x0f)));
	m.push_back(0); // reserved
	put32(m, static_cast<uint32_t>(s.rmb_vaddr >> 32));
	put32(m, static_cast<uint32_t>(s.rmb_vaddr));
	m.push_back(0); // reserved
	m.push_back(static_cast<uint8_t>(s.psn >> 16));
	put16(m, static_cast<uint16_t>(s.psn));
	if (s.version == 2) {
		put(m, s.eid);
		zeros(m, 8);
		if (s.first_contact) {
			m.push_back(s.fce_flags);
			m.push_back(static_cast<uint8_t>(s.os_type << 4 | (s.release & 0x0f)));
			zeros(m, 2);
			m.insert(m.end(), 32, ' '); // host name
			if (s.release) {
				m.push_back(s.max_conns);
				m.push_back(s.max_links);
				put16(m, 0); // feature mask
				zeros(m, 4 + 8);
			}
			if (type == Confirm) {
				m.push_back(static_cast<uint8_t>(s.gids.size()));
				zeros(m, 3);
				for (const Gid &g : s.gids)
					put(m, g);
			}
		}
	}
	finish(m);
	return m;
}

std::optional<AcceptConfirmSpec> accept_confirm_parse(const Bytes &m)
{
	if (m.size() < kAcceptLen || !trailer_ok(m))
		return std::nullopt;
	Header h = parse_header(m.data());
	if (!h.eye_ok || (h.type != Accept && h.type != Confirm) || h.length != m.size())
		return std::nullopt;
	if (h.version() != 1 && h.version() != 2)
		return std::nullopt;
	if (h.version() == 1 && m.size() != kAcceptLen)
		return std::nullopt;
	auto be = [&](size_t off, size_t n) {
		uint64_t v = 0;
		for (size_t i = 0; i < n; ++i)
			v = v << 8 | m[off + i];
		return v;
	};
	AcceptConfirmSpec s;
	std::copy_n(&m[8], 8, s.peer_id.begin());
	std::copy_n(&m[16], 16, s.gid.begin());
	std::copy_n(&m[32], 6, s.mac.begin());
	s.qpn = static_cast<uint32_t>(be(38, 3));
	s.rmb_rkey = static_cast<uint32_t>(be(41, 4));
	s.rmbe_idx = m[45];
	s.alert_token = static_cast<uint32_t>(be(46, 4));
	s.rmbe_size_code = m[50] >> 4;
	s.mtu = m[50] & 0x0f;
	s.rmb_vaddr = be(52, 8);
	s.psn = static_cast<uint32_t>(be(61, 3));
	s.first_contact = h.flags & 0x08;
	s.version = h.version();
	if (s.version == 1)
		return s;
	// version 2: EID, 8 reserved, then on first contact the extension
	const size_t end = m.size() - kTrailerLen;
	size_t pos = kAcceptLen - kTrailerLen;
	if (end < kAcceptV2Len - kTrailerLen)
		return std::nullopt;
	std::copy_n(&m[pos], kEidLen, s.eid.begin());
	pos += kEidLen + 8;
	// no first contact extension: no limits (release 0 says the same)
	s.release = s.max_conns = s.max_links = 0;
	if (!s.first_contact)
		return pos == end ? std::optional(s) : std::nullopt;
	if (end - pos < 36)
		return std::nullopt;
	s.fce_flags = m[pos];
	s.os_type = m[pos + 1] >> 4;
	s.release = m[pos + 1] & 0x0f;
	if (s.release) {
		if (end - pos < 52)
			return std::nullopt;
		s.max_conns = m[pos + 36];
		s.max_links = m[pos + 37];
		pos += 52;
	} else {
		pos += 36;
	}
	if (h.type == Confirm) {
		if (end - pos < 4 || m[pos] > 8 || end - pos - 4 < size_t{m[pos]} * 16)
			return std::nullopt;
		const uint8_t n = m[pos];
		pos += 4;
		for (uint8_t i = 0; i < n; ++i, pos += 16) {
			Gid g;
			std::copy_n(&m[pos], 16, g.begin());
			s.gids.push_back(g);
		}
	}
	return pos == end ? std::optional(s) : std::nullopt;
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
