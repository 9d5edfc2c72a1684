#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): CDC lies are ignored, data stays byte-exact, a late CDC after the close finds no connection
# SMOKE: no
# PEER: yes
# TIMEOUT: 300
#
# Role b runs an smcr server with test_clc_without_option=1, so that the
# userspace link-peer on role a (a plain TCP socket, its own RC QP on rxe0)
# can run CLC, CONFIRM LINK and then SMC-R with it. One link group per
# script (link-peer proposes with a fresh peer ID). Asserts per script, on
# both sides: link-peer checks every CDC message smcr sends against the
# rings and what smcr writes into its RMB against the pattern; the smcr
# server application checks the bytes it read (duplex, --expect-mode smcr):
#  - honest: byte-exact both ways, C answered with C, the link alive after;
#  - cdc-bad-token, cdc-prod-beyond, cdc-prod-wrap2, cdc-prod-backwards,
#    cdc-cons-ahead, cdc-seq-replay: the lie is ignored - the data that
#    follows is byte-exact on both sides and the link lives;
#  - urg-after-close (with test_cdc_rx_delay_ms=300 on b, so that the
#    connection ends while a CDC message flagged urgent that came after the
#    peer's C is still in smcr's receive path): the server's application
#    completes, smcr closes with C and the link lives (before the fix the
#    receive path read the urgent byte from the freed element: NULL
#    dereference);
# and at the end every one of those link groups is gone on b (linger 3 s).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
B=$(st_size 256K 128K)
scripts=(honest cdc-bad-token cdc-prod-beyond cdc-prod-wrap2 cdc-prod-backwards cdc-cons-ahead
	cdc-seq-replay urg-after-close)
if [[ $SMCR_ROLE == b ]]; then
	st_param test_clc_without_option Y || exit 1
	st_param lgr_linger_ms 3000 || exit 1
fi
one() {
	local bytes=$B delay=0 rc
	[[ $1 == urg-after-close ]] && bytes=16K delay=300
	[[ $SMCR_ROLE == b ]] && echo "$delay" >/sys/module/smcr/parameters/test_cdc_rx_delay_ms
	st_link_peer "$1" "$2" "$bytes" --expect-mode smcr
	rc=$?
	[[ $SMCR_ROLE == b ]] && echo 0 >/sys/module/smcr/parameters/test_cdc_rx_delay_ms
	return $rc
}
st_link_peer_each one "${scripts[@]}"
