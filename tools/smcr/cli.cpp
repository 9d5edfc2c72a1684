#include "cli.hpp"

#include <cctype>

namespace smcr::admin {

namespace {

constexpr size_t kEidLen = 32;

bool is(std::string_view a, std::initializer_list<std::string_view> names)
{
	for (auto n : names)
		if (a == n)
			return true;
	return false;
}

} // namespace

std::string usage_text()
{
	return "usage: smcr [-j|--json] OBJECT [COMMAND]\n"
	       "  smcr info                       system: SMC version, host name, UEIDs\n"
	       "  smcr linkgroup|lgr [show]       SMC-R link groups\n"
	       "  smcr link [show]                SMC-R links (per link group)\n"
	       "  smcr device|dev [show]          RoCE devices\n"
	       "  smcr stats [show]               counters and fallback reasons\n"
	       "  smcr stats reset                zero the counters (CAP_NET_ADMIN)\n"
	       "  smcr ueid [show]                user EIDs\n"
	       "  smcr ueid add|del UEID          (CAP_NET_ADMIN)\n"
	       "  smcr ueid flush                 remove all user EIDs (CAP_NET_ADMIN)\n"
	       "options: -j, --json  machine-readable output; -h, --help; -V, --version\n"
	       "exit: 0 ok, 1 failed, 2 usage, 3 module not loaded, 4 permission denied\n";
}

std::string trim_right(std::string_view s)
{
	while (!s.empty() && s.back() == ' ')
		s.remove_suffix(1);
	return std::string(s);
}

std::optional<std::string> ueid_normalize(std::string_view in)
{
	if (in.empty() || in.size() > kEidLen)
		return std::nullopt;
	std::string out;
	for (size_t i = 0; i < in.size(); ++i) {
		unsigned char c = static_cast<unsigned char>(in[i]);
		c = static_cast<unsigned char>(std::toupper(c));
		bool alnum = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		if (!alnum && !(i > 0 && (c == '.' || c == '-')))
			return std::nullopt;
		out.push_back(static_cast<char>(c));
	}
	return out;
}

std::string ueid_pad(std::string_view ueid)
{
	std::string s(ueid.substr(0, kEidLen));
	s.resize(kEidLen, ' ');
	return s;
}

Options parse_cli(const std::vector<std::string> &args)
{
	Options o;
	std::vector<std::string> words;
	for (const auto &a : args) {
		if (a == "-j" || a == "--json")
			o.json = true;
		else if (a == "-h" || a == "--help")
			return Options{Cmd::Help, o.json, {}};
		else if (a == "-V" || a == "--version")
			return Options{Cmd::Version, o.json, {}};
		else if (a.size() > 1 && a[0] == '-')
			throw UsageError("unknown option " + a);
		else
			words.push_back(a);
	}
	if (words.empty())
		throw UsageError("no object given");

	const std::string &obj = words[0];
	std::string verb = words.size() > 1 ? words[1] : "show";
	size_t want = words.size() > 1 ? 2 : 1; // words consumed

	auto done = [&](Cmd c) {
		if (words.size() > want)
			throw UsageError("unexpected argument '" + words[want] + "'");
		o.cmd = c;
		return o;
	};
	auto only_show = [&](Cmd c) {
		if (!is(verb, {"show", "list", "ls"}))
			throw UsageError("unknown command '" + verb + "' for " + obj);
		return done(c);
	};

	if (is(obj, {"help"}))
		return done(Cmd::Help);
	if (is(obj, {"info"})) {
		if (words.size() > 1)
			throw UsageError("unexpected argument '" + words[1] + "'");
		return done(Cmd::Info);
	}
	if (is(obj, {"linkgroup", "lgr", "linkgroups"}))
		return only_show(Cmd::LinkGroupShow);
	if (is(obj, {"link", "links"}))
		return only_show(Cmd::LinkShow);
	if (is(obj, {"device", "dev", "devices"}))
		return only_show(Cmd::DeviceShow);
	if (is(obj, {"stats", "statistics"})) {
		if (verb == "reset")
			return done(Cmd::StatsReset);
		return only_show(Cmd::StatsShow);
	}
	if (is(obj, {"ueid"})) {
		if (is(verb, {"add", "del", "delete", "remove"})) {
			if (words.size() < 3)
				throw UsageError("ueid " + verb + " needs a UEID");
			want = 3;
			auto n = ueid_normalize(words[2]);
			if (!n)
				throw UsageError("invalid UEID '" + words[2] +
						 "': 1-32 characters A-Z 0-9 . -, starting with A-Z or 0-9");
			o.ueid = *n;
			return done(verb == "add" ? Cmd::UeidAdd : Cmd::UeidDel);
		}
		if (verb == "flush")
			return done(Cmd::UeidFlush);
		return only_show(Cmd::UeidShow);
	}
	throw UsageError("unknown object '" + obj + "'");
}

} // namespace smcr::admin
