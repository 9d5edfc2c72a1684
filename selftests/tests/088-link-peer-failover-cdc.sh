#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): the receiver of the failover validation CDC (F) - no gap does nothing, a gap resets the connection, a stale CDC after it is ignored
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Role b runs an smcr server with test_clc_without_option=1; role a's
# link-peer plays one script per link group (fresh peer ID each), on the
# group's only link, so no other link's receive completions can lag
# behind the F (net/smc/cdc.c, smc_cdc_rx_failover()). Both sides assert:
# link-peer checks every CDC message smcr sends; the smcr application
# checks what it read (duplex, --expect-mode smcr) or the error it must
# get. Per script (RFC 7609 4.6.1, A.4):
#  - failover-no-gap (F with SS the last number we sent - the RFC's SS -,
#    one behind - Linux's -, three behind; cursors and A/C/D set): nothing
#    - no reply, no reset, the number not taken; data byte-exact, link
#    alive;
#  - failover-gap (F with SS five after the last number we sent): smcr
#    resets the connection - A, nothing after it - and the application
#    fails with ECONNRESET; link alive;
#  - failover-stale-cdc (after F and a newer message, one with an older
#    number whose producer cursor claims 100 unwritten bytes and asks for
#    a consumer update): dropped - no answer, no byte of it read; data
#    byte-exact, link alive;
# and at the end every one of those link groups is gone on b (linger 3 s).
#
# Until smcr acted on F (#32) it dropped every one, so failover-gap
# would see no A.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
B=$(st_size 256K 128K)
scripts=(failover-no-gap failover-gap failover-stale-cdc)
if [[ $SMCR_ROLE == b ]]; then
	st_param test_clc_without_option Y || exit 1
	st_param lgr_linger_ms 3000 || exit 1
fi
one() {
	local expect=()
	[[ $1 == failover-gap ]] && expect=(--expect-data-error ECONNRESET)
	st_link_peer "$1" "$2" "$B" --expect-mode smcr "${expect[@]}"
}
st_link_peer_each one "${scripts[@]}"
