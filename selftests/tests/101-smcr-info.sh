#!/bin/bash
# DESC: smcr info / linkgroup / link / device: tables, JSON, unprivileged reads, exit 3 without the module
# SMOKE: yes
# PEER: no
# TIMEOUT: 60
#
# Asserts: `smcr info` reports SMC version 2.1 with SMC-R v2 and this VM's
# host name (as the kernel reports it: at most 32 characters), in the table
# and in --json (version 2, release 1, smcr_v2 true, hostname,
# ueid_count); linkgroup,
# link and device print their table header and --json prints a JSON array;
# a user without privileges (uid 65534) gets the same info; the family is
# registered as SMC_GEN_NETLINK version 1. Role a also unloads smcr: then
# `smcr info` exits 3 with "SMC_GEN_NETLINK family not found: is smcr.ko
# loaded?"; smcr is loaded again afterwards.
source "$ST_DIR/lib.sh"

[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
S=$SMCR_TOOLS/bin/smcr
[[ -x $S ]] || st_fail "$S not built"
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

host=$(hostname)
host=${host:0:32}

echo "+ smcr info"
out=$("$S" info) || st_fail "smcr info exit $?"
echo "$out"
grep -qx "SMC version: 2.1" <<<"$out" && grep -qx "SMC-R v2:    yes" <<<"$out" ||
	st_fail "no 'SMC version: 2.1' with SMC-R v2"
grep -qx "Host name:   $host" <<<"$out" || st_fail "host name is not '$host'"

echo "+ smcr --json info"
js=$("$S" --json info) || st_fail "smcr --json info exit $?"
echo "$js"
jq -e --arg h "$host" '.version == 2 and .release == 1 and .smcr_v2 == true and
	.hostname == $h and (.ueid_count | type) == "number"' <<<"$js" >/dev/null ||
	st_fail "unexpected JSON: $js"

for obj in linkgroup link device; do
	echo "+ smcr $obj show"
	out=$("$S" "$obj" show) || st_fail "smcr $obj exit $?"
	echo "$out"
	[[ $(head -n1 <<<"$out") =~ ^(LG-ID|IB-DEV) ]] || st_fail "smcr $obj: no table header"
	js=$("$S" -j "$obj") || st_fail "smcr -j $obj exit $?"
	echo "$js"
	jq -e 'type == "array"' <<<"$js" >/dev/null || st_fail "smcr -j $obj: not a JSON array"
done

echo "+ (uid 65534) smcr --json info"
js2=$("${NOBODY[@]}" "$S" --json info) || st_fail "unprivileged smcr info exit $?"
jq -e --arg h "$host" '.hostname == $h' <<<"$js2" >/dev/null || st_fail "unprivileged info differs: $js2"
"${NOBODY[@]}" "$S" -j link >/dev/null || st_fail "unprivileged smcr link failed"

if command -v genl >/dev/null; then
	echo "+ genl ctrl get name SMC_GEN_NETLINK"
	g=$(genl ctrl get name SMC_GEN_NETLINK) || st_fail "genl ctrl get failed"
	echo "$g"
	grep -q "Version: 0x1" <<<"$g" || st_fail "family version is not 1"
fi

[[ $SMCR_ROLE == a ]] || exit 0
echo "+ rmmod smcr; smcr info"
smcr_unload || st_fail "cannot unload smcr"
err=$("$S" info 2>&1)
rc=$?
smcr_load || st_fail "cannot load smcr again"
echo "$err (exit $rc)"
[[ $rc == 3 ]] || st_fail "exit $rc without the module, want 3"
[[ $err == "smcr: SMC_GEN_NETLINK family not found: is smcr.ko loaded?" ]] || st_fail "message: $err"
"$S" info >/dev/null || st_fail "smcr info after reload failed"
echo "ok"
