#!/bin/bash
# DESC: smcr client -> hostile CLC server (smctest clc-peer): drops, exact Declines, fallback data
# SMOKE: no
# PEER: yes
# TIMEOUT: 240
#
# Role b runs smcr clients with test_clc_without_option=1 and
# test_fake_offer=1 (so they send a Proposal to the plain-TCP clc-peer) and
# clc_timeout_ms=1000; role a runs `smctest clc-peer --role server --script S`,
# which first asserts that it receives a well-framed Proposal. Asserts:
#  - Proposal or Confirm in place of the Accept: clc-peer gets a Decline
#    SYNCERR, the client socket records SYNCERR, duplex data byte-exact;
#  - a valid Decline: client PEERDECL with peer_diagnosis NOSMCRDEV (the
#    code clc-peer sent), duplex data byte-exact;
#  - a valid Accept: the client declines in place of its Confirm with
#    ERR_RDYLNK (clc-peer checks the code, the client socket records it),
#    duplex data byte-exact;
#  - bad eye catcher, length 0xFFFF, truncated Accept then FIN: the client's
#    connect() fails and clc-peer sees EOF/reset without a byte;
#  - no answer at all: connect() fails with ETIMEDOUT after clc_timeout_ms.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module (test_clc_without_option, test_fake_offer)"
B=$(st_size 1M 64K)
cases=(
	"srv-proposal|--expect-reason SYNCERR"
	"srv-confirm|--expect-reason SYNCERR"
	"srv-decline|--expect-reason PEERDECL --expect-peer-diag NOSMCRDEV"
	"srv-accept|--expect-reason ERR_RDYLNK"
	"srv-bad-eyecatcher|--expect-connect-error any"
	"srv-len-big|--expect-connect-error any"
	"srv-trunc-close|--expect-connect-error any"
	"srv-silence|--expect-connect-error ETIMEDOUT"
)
if [[ $SMCR_ROLE == b ]]; then
	st_param test_clc_without_option Y || exit 1
	st_param test_fake_offer Y || exit 1
	st_param clc_timeout_ms 1000 || exit 1
fi
rc=0 i=0
failed=()
for c in "${cases[@]}"; do
	IFS='|' read -r script cexp <<<"$c"
	port=$((ST_PORT + i))
	i=$((i + 1))
	echo "=== $script"
	case $SMCR_ROLE in
	a) st_serve "$script" clc-peer --role server --family tcp --port "$port" --script "$script" \
		--bytes "$B" --drop-wait 20s --timeout 60s || { rc=1; failed+=("$script"); } ;;
	b) st_await "$script" || { rc=1; failed+=("$script"); continue; }
	   # shellcheck disable=SC2086
	   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$port" --mode duplex --bytes "$B" \
		$cexp --timeout 60s || { rc=1; failed+=("$script"); } ;;
	esac
done
((rc == 0)) || echo "FAILED scripts on role $SMCR_ROLE: ${failed[*]}"
exit $rc
