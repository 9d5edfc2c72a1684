#include "wire.hpp"

#include <cstring>

namespace smctest::wire {

namespace {

void put16(uint8_t *p, uint16_t v)
{
	p[0] = static_cast<uint8_t>(v >> 8);
	p[1] = static_cast<uint8_t>(v);
}

void put24(uint8_t *p, uint32_t v)
{
	p[0] = static_cast<uint8_t>(v >> 16);
	p[1] = static_cast<uint8_t>(v >> 8);
	p[2] = static_cast<uint8_t>(v);
}

void put32(uint8_t *p, uint32_t v)
{
	put16(p, static_cast<uint16_t>(v >> 16));
	put16(p + 2, static_cast<uint16_t>(v));
}

uint16_t get16(const uint8_t *p)
{
	return static_cast<uint16_t>(p[0] << 8 | p[1]);
}

uint32_t get24(const uint8_t *p)
{
	return static_cast<uint32_t>(p[0]) << 16 | static_cast<uint32_t>(p[1]) << 8 | p[2];
}

uint32_t get32(const uint8_t *p)
{
	return static_cast<uint32_t>(get16(p)) << 16 | get16(p + 2);
}

void put64(uint8_t *p, uint64_t v)
{
	put32(p, static_cast<uint32_t>(v >> 32));
	put32(p + 4, static_cast<uint32_t>(v));
}

uint64_t get64(const uint8_t *p)
{
	return static_cast<uint64_t>(get32(p)) << 32 | get32(p + 4);
}

// Figure 37: link number, RKey, virtual address (13 bytes)
void put_rtoken(uint8_t *p, const Rtoken &t)
{
	p[0] = t.link_num;
	put32(p + 1, t.rkey);
	put64(p + 5, t.vaddr);
}

Rtoken get_rtoken(const uint8_t *p)
{
	return {p[0], get32(p + 1), get64(p + 5)};
}

// A.4: 2 reserved bytes, wrap (16 bits), count (32 bits)
void put_cursor(uint8_t *p, const Cursor &c)
{
	put16(p, 0);
	put16(p + 2, c.wrap);
	put32(p + 4, c.count);
}

Cursor get_cursor(const uint8_t *p)
{
	return {get16(p + 2), get32(p + 4)};
}

} // namespace

Msg cdc_build(const Cdc &c)
{
	Msg m{};
	m[0] = kCdcType;
	m[1] = kMsgLen;
	put16(&m[2], c.seqno);
	put32(&m[4], c.token);
	put_cursor(&m[8], c.prod);
	put_cursor(&m[16], c.cons);
	m[24] = c.prod_flags;
	m[25] = c.conn_flags;
	return m;
}

std::optional<Cdc> cdc_parse(const uint8_t *p, size_t len)
{
	if (len < kMsgLen || p[0] != kCdcType || p[1] != kMsgLen)
		return std::nullopt;
	Cdc c;
	c.seqno = get16(&p[2]);
	c.token = get32(&p[4]);
	c.prod = get_cursor(&p[8]);
	c.cons = get_cursor(&p[16]);
	c.prod_flags = p[24];
	c.conn_flags = p[25];
	return c;
}

Msg llc_build(uint8_t type, uint8_t flags, const uint8_t *body, size_t body_len)
{
	Msg m{};
	m[0] = type;
	m[1] = kMsgLen;
	m[3] = flags;
	if (body)
		std::memcpy(&m[4], body, std::min(body_len, kMsgLen - 4));
	return m;
}

// A.3.1, Figure 31: MAC 4, GID 10, QPN 26, link 29, UID 30, max links 34
Msg confirm_link_build(const ConfirmLink &c)
{
	Msg m = llc_build(kConfirmLink, static_cast<uint8_t>((c.response ? kLlcResp : 0) | c.flags));
	std::memcpy(&m[4], c.mac.data(), 6);
	std::memcpy(&m[10], c.gid.data(), 16);
	put24(&m[26], c.qpn);
	m[29] = c.link_num;
	std::memcpy(&m[30], c.link_uid.data(), 4);
	m[34] = c.max_links;
	return m;
}

std::optional<ConfirmLink> confirm_link_parse(const uint8_t *p, size_t len)
{
	if (len < kMsgLen || p[0] != kConfirmLink || p[1] != kMsgLen)
		return std::nullopt;
	ConfirmLink c;
	c.response = p[3] & kLlcResp;
	c.flags = p[3] & ~kLlcResp;
	std::memcpy(c.mac.data(), &p[4], 6);
	std::memcpy(c.gid.data(), &p[10], 16);
	c.qpn = get24(&p[26]);
	c.link_num = p[29];
	std::memcpy(c.link_uid.data(), &p[30], 4);
	c.max_links = p[34];
	return c;
}

Msg add_link_build(const AddLink &a)
{
	Msg m = llc_build(kAddLink, static_cast<uint8_t>((a.response ? kLlcResp : 0) | (a.reject ? kAddLinkRej : 0)));
	m[2] = a.reason;
	std::memcpy(&m[4], a.mac.data(), 6);
	std::memcpy(&m[12], a.gid.data(), 16);
	put24(&m[28], a.qpn);
	m[31] = a.link_num;
	m[32] = a.mtu & 0x0f;
	put24(&m[33], a.psn);
	return m;
}

std::optional<AddLink> add_link_parse(const uint8_t *p, size_t len)
{
	if (len < kMsgLen || p[0] != kAddLink || p[1] != kMsgLen)
		return std::nullopt;
	AddLink a;
	a.response = p[3] & kLlcResp;
	a.reject = p[3] & kAddLinkRej;
	a.reason = p[2];
	std::memcpy(a.mac.data(), &p[4], 6);
	std::memcpy(a.gid.data(), &p[12], 16);
	a.qpn = get24(&p[28]);
	a.link_num = p[31];
	a.mtu = p[32];
	a.psn = get24(&p[33]);
	return a;
}

// A.3.3, Figures 33/34
Msg add_link_cont_build(const AddLinkCont &c)
{
	Msg m = llc_build(kAddLinkCont, c.response ? kLlcResp : 0);
	m[4] = c.link_num;
	m[5] = c.num_rkeys;
	for (size_t i = 0; i < c.pairs.size(); ++i) {
		put32(&m[8 + 16 * i], c.pairs[i].ref_rkey);
		put32(&m[12 + 16 * i], c.pairs[i].new_rkey);
		put64(&m[16 + 16 * i], c.pairs[i].new_vaddr);
	}
	return m;
}

std::optional<AddLinkCont> add_link_cont_parse(const uint8_t *p, size_t len)
{
	if (len < kMsgLen || p[0] != kAddLinkCont || p[1] != kMsgLen)
		return std::nullopt;
	AddLinkCont c;
	c.response = p[3] & kLlcResp;
	c.link_num = p[4];
	c.num_rkeys = p[5];
	for (size_t i = 0; i < c.pairs.size(); ++i)
		c.pairs[i] = {get32(&p[8 + 16 * i]), get32(&p[12 + 16 * i]), get64(&p[16 + 16 * i])};
	return c;
}

// A.3.4, Figure 35: link number 4, reason 5..8
Msg delete_link_build(bool response, bool all, bool orderly, uint8_t link_num, uint32_t reason)
{
	uint8_t flags = static_cast<uint8_t>((response ? kLlcResp : 0) | (all ? 0x40 : 0) | (orderly ? 0x20 : 0));
	Msg m = llc_build(kDeleteLink, flags);
	m[4] = link_num;
	put32(&m[5], reason);
	return m;
}

std::optional<DeleteLink> delete_link_parse(const uint8_t *p, size_t len)
{
	if (len < kMsgLen || p[0] != kDeleteLink || p[1] != kMsgLen)
		return std::nullopt;
	return DeleteLink{p[3], p[4], get32(&p[5])};
}

// A.3.5, Figure 36
Msg confirm_rkey_build(const ConfirmRkey &c)
{
	Msg m = llc_build(kConfirmRkey, c.flags);
	m[4] = c.num_tkns;
	put32(&m[5], c.rkey);
	put64(&m[9], c.vaddr);
	put_rtoken(&m[17], c.others[0]);
	put_rtoken(&m[30], c.others[1]);
	return m;
}

std::optional<ConfirmRkey> confirm_rkey_parse(const uint8_t *p, size_t len)
{
	if (len < kMsgLen || p[0] != kConfirmRkey || p[1] != kMsgLen)
		return std::nullopt;
	ConfirmRkey c;
	c.flags = p[3];
	c.num_tkns = p[4];
	c.rkey = get32(&p[5]);
	c.vaddr = get64(&p[9]);
	c.others = {get_rtoken(&p[17]), get_rtoken(&p[30])};
	return c;
}

// A.3.6, Figure 38: three 13-byte RTokens after NumTknsLeft end at byte 43
Msg confirm_rkey_cont_build(uint8_t flags, uint8_t num_left, const std::array<Rtoken, 3> &tokens)
{
	Msg m = llc_build(kConfirmRkeyCont, flags);
	m[4] = num_left;
	for (size_t i = 0; i < tokens.size(); ++i)
		put_rtoken(&m[5 + 13 * i], tokens[i]);
	return m;
}

// A.3.7, Figure 39
Msg delete_rkey_build(const DeleteRkey &d)
{
	Msg m = llc_build(kDeleteRkey, d.flags);
	m[4] = d.count;
	m[5] = d.err_mask;
	for (size_t i = 0; i < d.rkeys.size(); ++i)
		put32(&m[8 + 4 * i], d.rkeys[i]);
	return m;
}

std::optional<DeleteRkey> delete_rkey_parse(const uint8_t *p, size_t len)
{
	if (len < kMsgLen || p[0] != kDeleteRkey || p[1] != kMsgLen)
		return std::nullopt;
	DeleteRkey d;
	d.flags = p[3];
	d.count = p[4];
	d.err_mask = p[5];
	for (size_t i = 0; i < d.rkeys.size(); ++i)
		d.rkeys[i] = get32(&p[8 + 4 * i]);
	return d;
}

std::string llc_name(uint8_t type)
{
	switch (type) {
	case kConfirmLink: return "CONFIRM LINK";
	case kAddLink: return "ADD LINK";
	case kAddLinkCont: return "ADD LINK CONTINUATION";
	case kDeleteLink: return "DELETE LINK";
	case kReqAddLink: return "REQ ADD LINK";
	case kConfirmRkey: return "CONFIRM RKEY";
	case kTestLink: return "TEST LINK";
	case kConfirmRkeyCont: return "CONFIRM RKEY CONTINUATION";
	case kDeleteRkey: return "DELETE RKEY";
	case kCdcType: return "CDC";
	}
	return "type " + std::to_string(type);
}

} // namespace smctest::wire
