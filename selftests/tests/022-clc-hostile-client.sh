#!/bin/bash
# DESC: hostile CLC client (smctest clc-peer) -> smcr server: drops, exact Declines, fallback data
# SMOKE: no
# PEER: yes
# TIMEOUT: 300
#
# Role b runs an smcr server with test_clc_without_option=1 (it runs CLC with
# the plain-TCP clc-peer) and clc_timeout_ms=1000; role a runs one
# `smctest clc-peer --role client --script S` per script. Asserts per script:
#  - drop scripts (bad eye catcher, bad trailer, unknown type, version 0,
#    length 8 / 0xFFFF, truncated then FIN, truncated then silence, silence,
#    and a Confirm after the server's Accept with test_fake_offer=1 on b):
#    clc-peer sees EOF/reset without a single byte back; the smcr server
#    never accepts that connection: the next connection it accepts (its only
#    one, --conns 1) is a good smcr client started after the drop was seen,
#    and it must carry that client's outcome (PEERDECL / NOSMCRDEV) and pass
#    checksummed duplex data;
#  - Decline scripts: clc-peer receives a Decline with the exact code
#    (Accept/Confirm first -> SYNCERR; v1 Proposal and Linux-6.12-shaped v2
#    Proposal -> NOSMCRDEV; inconsistent IPv6 prefix count or IP area offset
#    beyond the end -> SYNCERR; no SMC-R v1 offered -> MODEUNSUPP), the server
#    application's socket records that reason, and duplex data is byte-exact
#    both ways over the fallback;
#  - a valid Decline from clc-peer: server reason PEERDECL with the peer's
#    diagnosis, data byte-exact both ways.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module (test_clc_without_option)"
B=$(st_size 1M 64K)
MARK="--expect-reason PEERDECL --expect-peer-diag NOSMCRDEV"
# script|kind|server expectation
cases=(
	"bad-eyecatcher|drop|$MARK"
	"bad-trailer|drop|$MARK"
	"unknown-type|drop|$MARK"
	"version0|drop|$MARK"
	"len-small|drop|$MARK"
	"len-big|drop|$MARK"
	"trunc-close|drop|$MARK"
	"trunc-silence|drop|$MARK"
	"silence|drop|$MARK"
	"accept-first|fallback|--expect-reason SYNCERR"
	"confirm-first|fallback|--expect-reason SYNCERR"
	"decline|fallback|--expect-reason PEERDECL --expect-peer-diag NOSMCRDEV"
	"proposal-v1|fallback|--expect-reason NOSMCRDEV"
	"proposal-linux-v2|fallback|--expect-reason NOSMCRDEV"
	"proposal-bad-v6count|fallback|--expect-reason SYNCERR"
	"proposal-bad-iparea|fallback|--expect-reason SYNCERR"
	"proposal-no-smcr-v1|fallback|--expect-reason MODEUNSUPP"
	"confirm-after-accept|drop|$MARK"
)
# no RoCE offers on either side: the smcr marker connections assert NOSMCRDEV
st_param use_roce N || exit 1
if [[ $SMCR_ROLE == b ]]; then
	st_param test_clc_without_option Y || exit 1
	st_param clc_timeout_ms 1000 || exit 1
	st_param test_fake_offer N || exit 1
fi
# The cases are independent (a port each): they run at once, logs in
# order - but the last one, which needs test_fake_offer=Y on b, alone after.
run_case() {
	local script=$1 kind=$2 port=$3
	st_await "$script" || return 1
	st_smctest clc-peer --role client --family tcp --addr "$SMCR_PEER_IP" --port "$port" --script "$script" \
		--bytes "$B" --drop-wait 20s --timeout 60s || return 1
	[[ $kind == drop ]] || return 0
	# The good connection after the drop: the server's first and only accept.
	st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$port" --mode duplex --bytes "$B" \
		--expect-reason NOSMCRDEV --timeout 60s
}
# run_cases FIRST LAST: cases[FIRST..LAST] at once
run_cases() {
	local i script kind sexp pids=()
	for ((i = $1; i <= $2; i++)); do
		IFS='|' read -r script kind sexp <<<"${cases[i]}"
		case $SMCR_ROLE in
		b) # shellcheck disable=SC2086
		   st_serve_bg "$script" server --family smc --port $((ST_PORT + i)) --conns 1 --mode duplex \
			--bytes "$B" --expect-mode fallback $sexp --timeout 90s || { rc=1; failed+=("$script"); } ;;
		a) run_case "$script" "$kind" $((ST_PORT + i)) >"$ST_TMP/$script.log" 2>&1 &
		   pids+=($!) ;;
		esac
	done
	if [[ $SMCR_ROLE == b ]]; then
		st_wait_all || { rc=1; failed+=("a server"); }
		return
	fi
	for ((i = $1; i <= $2; i++)); do
		IFS='|' read -r script kind _ <<<"${cases[i]}"
		echo "=== $script ($kind)"
		wait "${pids[i - $1]}" || { rc=1; failed+=("$script"); }
		cat "$ST_TMP/$script.log"
	done
}
rc=0
failed=()
last=$((${#cases[@]} - 1))
run_cases 0 $((last - 1))
[[ $SMCR_ROLE == b ]] && echo Y >/sys/module/smcr/parameters/test_fake_offer
run_cases "$last" "$last"
((rc == 0)) || echo "FAILED scripts on role $SMCR_ROLE: ${failed[*]}"
exit $rc
