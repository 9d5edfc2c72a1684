#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): a receive completion that is not a plain 44-byte SEND takes the link down
# SMOKE: no
# PEER: yes
# TIMEOUT: 240
#
# Every LLC and CDC message is a 44-byte RDMA SEND (RFC 7609 A.3, A.4). Role
# b runs an smcr server (test_clc_without_option=1), role a link-peer, which
# after CONFIRM LINK sends one message of the wrong kind:
#  - send-imm: a TEST LINK request as SEND with immediate data;
#  - write-imm: an RDMA write with immediate data, which consumes a receive
#    buffer whose old content is no message (before the fix smcr handled
#    that stale buffer again, as if the peer had sent it once more);
#  - send-short: a 20-byte SEND.
# Asserts per script: link-peer sees smcr end the link (its TEST LINK
# requests go unanswered and fail, or a DELETE LINK comes); the smcr
# server's connection fails with ECONNRESET; b's kernel log names the
# violation ("sent a N-byte message", logged during that script's run); and
# at the end b has no link group.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
scripts=(send-imm write-imm send-short)
if [[ $SMCR_ROLE == b ]]; then
	st_param test_clc_without_option Y || exit 1
	st_param lgr_linger_ms 1000 || exit 1
fi
rc=0 i=0
failed=()
for script in "${scripts[@]}"; do
	port=$((ST_PORT + i))
	i=$((i + 1))
	echo "=== $script"
	if [[ $SMCR_ROLE == b ]]; then
		st_dmesg_mark "$script" || { rc=1; failed+=("$script-mark"); }
	fi
	st_link_peer "$script" "$port" 16K --expect-mode smcr --expect-data-error ECONNRESET ||
		{ rc=1; failed+=("$script"); }
	if [[ $SMCR_ROLE == b ]]; then
		n=$(st_dmesg_count "sent a .*-byte message" "$script") || n=0
		((n > 0)) || { echo "no violation logged for $script"; rc=1; failed+=("$script-log"); }
	fi
done
if [[ $SMCR_ROLE == b ]]; then
	st_no_lgrs 60 || { rc=1; failed+=("link groups left"); }
fi
((rc == 0)) || echo "FAILED on role $SMCR_ROLE: ${failed[*]}"
exit $rc
