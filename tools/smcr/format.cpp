#include "format.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

#include "smcr/reasons.hpp"
#include "smcr/text.hpp"

namespace smcr::admin {

// ---- JSON ----------------------------------------------------------------

std::string Json::escape(std::string_view s)
{
	return json_escape(s);
}

void Json::sep()
{
	if (after_key_) {
		after_key_ = false;
		return;
	}
	if (!first_.empty()) {
		if (!first_.back())
			out_ += ',';
		first_.back() = false;
	}
}

Json &Json::begin_object()
{
	sep();
	out_ += '{';
	first_.push_back(true);
	return *this;
}

Json &Json::end_object()
{
	out_ += '}';
	first_.pop_back();
	return *this;
}

Json &Json::begin_array()
{
	sep();
	out_ += '[';
	first_.push_back(true);
	return *this;
}

Json &Json::end_array()
{
	out_ += ']';
	first_.pop_back();
	return *this;
}

Json &Json::key(std::string_view k)
{
	sep();
	out_ += '"' + escape(k) + "\":";
	after_key_ = true;
	return *this;
}

Json &Json::value(std::string_view s)
{
	sep();
	out_ += '"' + escape(s) + '"';
	return *this;
}

Json &Json::value(uint64_t v)
{
	sep();
	out_ += std::to_string(v);
	return *this;
}

Json &Json::value(bool b)
{
	sep();
	out_ += b ? "true" : "false";
	return *this;
}

// ---- names ---------------------------------------------------------------

std::string lgr_type_name(uint8_t type)
{
	switch (type) {
	case 0: return "NONE";
	case 1: return "SINGLE";
	case 2: return "SYM";
	case 3: return "ASYMP";
	case 4: return "ASYML";
	}
	return std::to_string(type);
}

std::string link_state_name(uint32_t state)
{
	switch (state) {
	case 0: return "UNUSED";
	case 1: return "INACTIVE";
	case 2: return "ACTIVATING";
	case 3: return "ACTIVE";
	}
	return std::to_string(state);
}

std::string bucket_name(size_t i)
{
	static const char *const names[kBuckets] = {"8K",   "16K",  "32K",   "64K",   "128K",
						     "256K", "512K", "1024K", ">1024K"};
	return i < kBuckets ? names[i] : "?";
}

namespace {

std::string hex32(uint32_t v)
{
	char b[16];
	std::snprintf(b, sizeof(b), "0x%08x", v);
	return b;
}

const char *role_name(bool server)
{
	return server ? "server" : "client";
}

// Left-aligned columns; the last column is not padded.
class Table {
public:
	explicit Table(std::vector<std::string> head) { rows_.push_back(std::move(head)); }
	void row(std::vector<std::string> r) { rows_.push_back(std::move(r)); }
	std::string str(const std::string &indent = "") const
	{
		std::vector<size_t> w;
		for (const auto &r : rows_)
			for (size_t i = 0; i < r.size(); ++i) {
				if (w.size() <= i)
					w.push_back(0);
				w[i] = std::max(w[i], r[i].size());
			}
		std::string o;
		for (const auto &r : rows_) {
			std::string line = indent;
			for (size_t i = 0; i < r.size(); ++i) {
				line += r[i];
				if (i + 1 < r.size())
					line += std::string(w[i] - r[i].size() + 2, ' ');
			}
			while (!line.empty() && line.back() == ' ')
				line.pop_back();
			o += line + "\n";
		}
		return o;
	}

private:
	std::vector<std::vector<std::string>> rows_;
};

std::string u(uint64_t v)
{
	return std::to_string(v);
}

// "<= 8K" ... "<= 1024K", "> 1024K"
std::string bucket_label(size_t i)
{
	return i + 1 < kBuckets ? "<= " + bucket_name(i) : "> " + bucket_name(i - 1);
}

void json_lgr_fields(Json &j, const LinkGroup &g)
{
	j.key("id").value(uint64_t{g.id});
	j.key("role").value(role_name(g.role));
	j.key("type").value(lgr_type_name(g.type));
	j.key("version").value(uint64_t{g.v2_version.value_or(1)});
	j.key("vlan").value(uint64_t{g.vlan});
	j.key("conns").value(uint64_t{g.conns});
	j.key("pnetid").value(g.pnetid);
	j.key("net_cookie").value(g.net_cookie);
	j.key("sndbuf_alloc").value(g.sndbuf_alloc);
	j.key("rmb_alloc").value(g.rmb_alloc);
	if (g.v2_version) {
		j.key("v2").begin_object();
		j.key("version").value(uint64_t{*g.v2_version});
		j.key("release").value(uint64_t{g.v2_release});
		if (g.v2_direct)
			j.key("direct").value(*g.v2_direct);
		j.key("peer_host").value(g.peer_host);
		j.key("negotiated_eid").value(g.neg_eid);
		j.end_object();
	}
}

std::string lgr_id_hex(uint32_t id)
{
	char b[16];
	std::snprintf(b, sizeof(b), "%08x", id);
	return b;
}

void json_hist(Json &j, std::string_view name, const std::array<uint64_t, kBuckets> &h)
{
	j.key(name).begin_object();
	for (size_t i = 0; i < kBuckets; ++i)
		j.key(bucket_name(i)).value(h[i]);
	j.end_object();
}

void json_dir(Json &j, std::string_view name, const Dir &d)
{
	j.key(name).begin_object();
	j.key("calls").value(d.calls);
	j.key("bytes").value(d.bytes);
	json_hist(j, "payload_sizes", d.payload);
	json_hist(j, "buffer_sizes", d.buf_size);
	j.key("buffer_events").begin_object();
	j.key("alloc").value(d.buf.alloc);
	j.key("reuse").value(d.buf.reuse);
	j.key("downgrade").value(d.buf.dgrade);
	j.key("full").value(d.buf.full);
	j.key("full_peer").value(d.buf.full_peer);
	j.key("too_small").value(d.buf.small);
	j.key("too_small_peer").value(d.buf.small_peer);
	j.end_object();
	j.key("buffer_usage").value(d.buf_usage);
	j.end_object();
}

} // namespace

// ---- commands ------------------------------------------------------------

std::string format_info(const SysInfo &info, bool json)
{
	if (json) {
		Json j;
		j.begin_object();
		j.key("version").value(uint64_t{info.version});
		j.key("release").value(uint64_t{info.release});
		j.key("smcr_v2").value(info.smcr_v2);
		j.key("smcd_v2").value(info.ism_v2);
		j.key("hostname").value(info.hostname);
		if (info.seid)
			j.key("seid").value(*info.seid);
		if (info.ueid_cnt)
			j.key("ueid_count").value(uint64_t{*info.ueid_cnt});
		j.end_object();
		return j.str();
	}
	std::ostringstream o;
	o << "SMC version: " << unsigned(info.version) << "." << unsigned(info.release) << "\n";
	o << "SMC-R v2:    " << (info.smcr_v2 ? "yes" : "no") << "\n";
	o << "SMC-D v2:    " << (info.ism_v2 ? "yes" : "no") << "\n";
	o << "Host name:   " << info.hostname << "\n";
	if (info.seid)
		o << "System EID:  " << *info.seid << "\n";
	if (info.ueid_cnt)
		o << "User EIDs:   " << *info.ueid_cnt << "\n";
	return o.str();
}

std::string format_lgrs(const std::vector<LinkGroup> &lgrs, bool json)
{
	if (json) {
		Json j;
		j.begin_array();
		for (const auto &g : lgrs) {
			j.begin_object();
			json_lgr_fields(j, g);
			j.end_object();
		}
		j.end_array();
		return j.str();
	}
	// VERSION: the SMC-R version, with the release for version 2 (2.1)
	Table t({"LG-ID", "LG-ROLE", "LG-TYPE", "VERSION", "VLAN", "#CONNS", "PNET-ID"});
	for (const auto &g : lgrs)
		t.row({lgr_id_hex(g.id), role_name(g.role), lgr_type_name(g.type),
		       g.v2_version ? u(*g.v2_version) + "." + u(g.v2_release) : "1", u(g.vlan),
		       u(g.conns), g.pnetid.empty() ? "-" : g.pnetid});
	return t.str();
}

std::string format_links(const std::vector<LinkGroup> &lgrs, bool json)
{
	if (json) {
		Json j;
		j.begin_array();
		for (const auto &g : lgrs)
			for (const auto &l : g.links) {
				j.begin_object();
				j.key("lgr_id").value(uint64_t{g.id});
				j.key("link_id").value(uint64_t{l.id});
				j.key("state").value(link_state_name(l.state));
				j.key("conns").value(uint64_t{l.conn_cnt});
				j.key("ibdev").value(l.ibdev);
				j.key("ibport").value(uint64_t{l.ibport});
				j.key("ifindex").value(uint64_t{l.ifindex});
				j.key("gid").value(l.gid);
				j.key("peer_gid").value(l.peer_gid);
				j.key("uid").value(uint64_t{l.uid});
				j.key("peer_uid").value(uint64_t{l.peer_uid});
				j.end_object();
			}
		j.end_array();
		return j.str();
	}
	Table t({"LG-ID", "LNK-ID", "STATE", "#CONNS", "IB-DEV", "PORT", "GID", "PEER-GID"});
	for (const auto &g : lgrs)
		for (const auto &l : g.links)
			t.row({lgr_id_hex(g.id), u(l.id), link_state_name(l.state), u(l.conn_cnt), l.ibdev,
			       u(l.ibport), l.gid, l.peer_gid});
	return t.str();
}

std::string format_devices(const std::vector<Device> &devs, bool json)
{
	if (json) {
		Json j;
		j.begin_array();
		for (const auto &d : devs) {
			j.begin_object();
			j.key("ibdev").value(d.ibname);
			j.key("critical").value(d.is_crit);
			j.key("pci_id").value(d.pci_id);
			j.key("ports").begin_array();
			for (const auto &p : d.ports) {
				j.begin_object();
				j.key("port").value(uint64_t{p.number});
				j.key("pnetid").value(p.pnetid);
				j.key("pnetid_by_user").value(p.pnet_usr);
				j.key("ifindex").value(uint64_t{p.ifindex});
				j.key("active").value(p.state != 0);
				j.key("links").value(uint64_t{p.lnk_cnt});
				j.end_object();
			}
			j.end_array();
			j.end_object();
		}
		j.end_array();
		return j.str();
	}
	Table t({"IB-DEV", "PORT", "STATE", "#LINKS", "CRIT", "PCI-ID", "PNET-ID"});
	for (const auto &d : devs)
		for (const auto &p : d.ports)
			t.row({d.ibname, u(p.number), p.state ? "ACTIVE" : "INACTIVE", u(p.lnk_cnt),
			       d.is_crit ? "yes" : "no", d.pci_id.empty() ? "-" : d.pci_id,
			       p.pnetid.empty() ? "-" : p.pnetid + (p.pnet_usr ? " (user)" : "")});
	return t.str();
}

std::string format_stats(const Stats &st, const FallbackStats &fb, bool json)
{
	const TechStats &r = st.smcr;
	if (json) {
		Json j;
		j.begin_object();
		j.key("smcr").begin_object();
		j.key("handshakes").begin_object();
		j.key("client").begin_object().key("v1").value(r.clnt_v1).key("v2").value(r.clnt_v2).end_object();
		j.key("server").begin_object().key("v1").value(r.srv_v1).key("v2").value(r.srv_v2).end_object();
		j.end_object();
		json_dir(j, "tx", r.tx);
		json_dir(j, "rx", r.rx);
		j.key("sendpage").value(r.sendpage);
		j.key("splice").value(r.splice);
		j.key("cork").value(r.cork);
		j.key("nodelay").value(r.nodelay);
		j.key("urgent").value(r.urg);
		j.end_object();
		j.key("handshake_errors").begin_object();
		j.key("client").value(st.clnt_hs_err).key("server").value(st.srv_hs_err);
		j.end_object();
		j.key("fallback").begin_object();
		j.key("client").value(fb.clnt_total);
		j.key("server").value(fb.srv_total);
		j.key("reasons").begin_array();
		for (const auto &e : fb.entries) {
			auto info = reason_lookup(e.code);
			j.begin_object();
			j.key("role").value(role_name(e.server));
			j.key("code").value(hex32(e.code));
			j.key("name").value(info ? info->name : "unknown");
			j.key("count").value(e.count);
			j.key("description").value(info ? info->description : "");
			j.end_object();
		}
		j.end_array();
		j.end_object();
		j.end_object();
		return j.str();
	}

	std::string o;
	uint64_t smc_clnt = r.clnt_v1 + r.clnt_v2, smc_srv = r.srv_v1 + r.srv_v2;
	uint64_t all_clnt = smc_clnt + fb.clnt_total + st.clnt_hs_err;
	uint64_t all_srv = smc_srv + fb.srv_total + st.srv_hs_err;
	o += "Connections\n";
	Table c({"", "CLIENT", "SERVER"});
	c.row({"total", u(all_clnt), u(all_srv)});
	c.row({"SMC-R v1", u(r.clnt_v1), u(r.srv_v1)});
	c.row({"SMC-R v2", u(r.clnt_v2), u(r.srv_v2)});
	c.row({"fallback to TCP", u(fb.clnt_total), u(fb.srv_total)});
	c.row({"handshake errors", u(st.clnt_hs_err), u(st.srv_hs_err)});
	o += c.str("  ");

	o += "\nSMC-R data\n";
	Table d({"", "TX", "RX"});
	d.row({"calls", u(r.tx.calls), u(r.rx.calls)});
	d.row({"bytes", u(r.tx.bytes), u(r.rx.bytes)});
	for (size_t i = 0; i < kBuckets; ++i)
		d.row({"  calls " + bucket_label(i), u(r.tx.payload[i]), u(r.rx.payload[i])});
	d.row({"buffers allocated", u(r.tx.buf.alloc), u(r.rx.buf.alloc)});
	d.row({"buffers reused", u(r.tx.buf.reuse), u(r.rx.buf.reuse)});
	d.row({"buffers downgraded", u(r.tx.buf.dgrade), u(r.rx.buf.dgrade)});
	for (size_t i = 0; i < kBuckets; ++i)
		d.row({"  buffers " + bucket_label(i), u(r.tx.buf_size[i]), u(r.rx.buf_size[i])});
	d.row({"buffer bytes in use", u(r.tx.buf_usage), u(r.rx.buf_usage)});
	d.row({"buffer full", u(r.tx.buf.full), u(r.rx.buf.full)});
	d.row({"peer buffer full", u(r.tx.buf.full_peer), u(r.rx.buf.full_peer)});
	d.row({"buffer too small", u(r.tx.buf.small), u(r.rx.buf.small)});
	d.row({"peer buffer too small", u(r.tx.buf.small_peer), u(r.rx.buf.small_peer)});
	o += d.str("  ");
	o += "  TCP_CORK " + u(r.cork) + ", TCP_NODELAY " + u(r.nodelay) + ", splice " + u(r.splice) +
	     ", urgent data " + u(r.urg) + "\n";

	o += "\nFallback reasons\n";
	if (fb.entries.empty()) {
		o += "  none\n";
		return o;
	}
	Table f({"ROLE", "CODE", "NAME", "COUNT", "DESCRIPTION"});
	for (const auto &e : fb.entries) {
		auto info = reason_lookup(e.code);
		f.row({role_name(e.server), hex32(e.code), std::string(info ? info->name : "unknown"),
		       u(e.count), std::string(info ? info->description : "")});
	}
	o += f.str("  ");
	return o;
}

std::string format_ueids(const std::vector<std::string> &ueids, bool json)
{
	if (json) {
		Json j;
		j.begin_array();
		for (const auto &e : ueids)
			j.value(e);
		j.end_array();
		return j.str();
	}
	std::string o;
	for (const auto &e : ueids)
		o += e + "\n";
	return o;
}

} // namespace smcr::admin
