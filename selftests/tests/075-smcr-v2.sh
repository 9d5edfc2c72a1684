#!/bin/bash
# DESC: SMC-R v2 between smcr peers: chosen with a common user EID, v1 without, version knobs, NOUEID/VERSMISMAT declines
# SMOKE: yes
# PEER: yes
# TIMEOUT: 200
#
# Each phase asserts mode and fallback reasons on both sides (sock_diag)
# and the link group's version on both sides (netlink):
#   1. both VMs have the user EID SMCR-V2-A: the connection runs SMC-R and
#      the link groups are version 2.1 on both sides, direct (no router:
#      v2.direct true; 078 has the routed case);
#   2. the server's only user EID is SMCR-V2-B (none in common): the server
#      cannot take version 2 and takes the version 1 the client offered as
#      well: SMC-R, link groups of version 1;
#   3. the server takes version 2 only (test_clc_version=2), still no EID in
#      common: it declines with NOUEID (0x03030008); the client records
#      PEERDECL with that diagnosis; TCP, data intact;
#   4. common EID again, the client offers version 1 only
#      (test_clc_version=1), the server still version 2 only: MODEUNSUPP
#      (0x03040000) from the server.
# Between phases the link groups end (st_no_lgrs), so each
# phase makes its first contact.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
S=$SMCR_TOOLS/bin/smcr
P=$ST_PORT
B=$(st_size 4M 256K)
trap '"$S" ueid flush >/dev/null' EXIT

# phase NAME PORT CLIENT-EXPECT SERVER-EXPECT VERSION: one duplex
# connection a->b; VERSION: the link groups' version afterwards ("" none)
phase() {
	local name=$1 port=$2 cexp=$3 sexp=$4 ver=$5
	st_log "phase $name"
	case $SMCR_ROLE in
	b) # shellcheck disable=SC2086 # expectations are option lists
	   st_serve_bg "$name" server --port "$port" --mode duplex --bytes "$B" $sexp --timeout 100s || return 1
	   st_wait_all || return 1 ;;
	a) st_await "$name" || return 1
	   # shellcheck disable=SC2086
	   st_smctest client --addr "$SMCR_PEER_IP" --port "$port" --mode duplex --bytes "$B" \
		$cexp --timeout 100s || return 1 ;;
	esac
	local got
	got=$(st_lgr_versions | sort -u | tr '\n' ' ')
	[[ ${got% } == "$ver" ]] || { st_log "link group versions '$got', want '$ver'"; return 1; }
	if [[ $ver == 2.1 ]]; then	# same subnet: no router between the GIDs
		got=$("$S" -j lgr show | jq -r '.[] | .v2.direct' | sort -u | tr '\n' ' ')
		[[ ${got% } == true ]] || { st_log "link groups' direct '$got', want 'true'"; return 1; }
	fi
	vm_sync "$ST_KEY-$name-done" || return 1
	st_no_lgrs 60 || return 1
}

# long enough for the version check after each phase's connection ended
st_param lgr_linger_ms 5000 || exit 1
# earlier tests' link groups (version 1) linger out first
st_no_lgrs 60 || st_fail "earlier link groups did not end"
{ "$S" ueid flush >/dev/null && "$S" ueid add SMCR-V2-A >/dev/null; } || st_fail "ueid add"
vm_sync "$ST_KEY-p1" || exit 1
phase common "$P" "--expect-mode smcr" "--expect-mode smcr" 2.1 || st_fail "phase 1: common EID"

if [[ $SMCR_ROLE == b ]]; then
	{ "$S" ueid flush >/dev/null && "$S" ueid add SMCR-V2-B >/dev/null; } || st_fail "ueid add"
fi
vm_sync "$ST_KEY-p2" || exit 1
phase no-common $((P + 1)) "--expect-mode smcr" "--expect-mode smcr" 1 || st_fail "phase 2: no common EID"

[[ $SMCR_ROLE == b ]] && { st_param test_clc_version 2 || exit 1; }
vm_sync "$ST_KEY-p3" || exit 1
phase nouid $((P + 2)) "--expect-mode fallback --expect-reason PEERDECL --expect-peer-diag NOUEID" \
	"--expect-mode fallback --expect-reason NOUEID" "" || st_fail "phase 3: v2 only, no common EID"

if [[ $SMCR_ROLE == b ]]; then
	{ "$S" ueid flush >/dev/null && "$S" ueid add SMCR-V2-A >/dev/null; } || st_fail "ueid add"
else
	st_param test_clc_version 1 || exit 1
fi
vm_sync "$ST_KEY-p4" || exit 1
phase v1-v2 $((P + 3)) "--expect-mode fallback --expect-reason PEERDECL --expect-peer-diag MODEUNSUPP" \
	"--expect-mode fallback --expect-reason MODEUNSUPP" "" || st_fail "phase 4: v1 client, v2-only server"
