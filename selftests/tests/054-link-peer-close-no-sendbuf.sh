#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): a close that finds no send buffer on a live link ends the link group, not just the connection
# SMOKE: no
# PEER: yes
# TIMEOUT: 120
#
# Role b runs an smcr server (test_clc_without_option=1, llc_timeout_ms
# 1000, keepalive off, link groups linger 10 minutes) in duplex mode with
# --bytes 0: it sends D at once and closes on the peer's EOF. Role a's
# link-peer (script withhold-recv-close) stops reposting its receive
# buffers and sends 64 TEST LINK requests: smcr's replies use up its
# receive queue, then wait on RNR for ever, holding every send buffer.
# Then link-peer sends D and C; the server application reads EOF and
# closes, and smcr's C finds no send buffer for llc_timeout_ms. Asserts:
#  - the server application's exchange succeeds (0 bytes, EOF);
#  - b's link group ends within 8 s of the server's exit, while link-peer
#    still holds its QP, although it would linger 10 minutes, and b logs
#    the reason "no send buffer free for 1000 ms, link down" during the
#    test (rxe also ends sends stuck in RNR after a while, with another
#    message):
#    the send-buffer timeout on an ACTIVE link is link failure (before the
#    fix the connection alone ended and gave its RMB element back to the
#    pool while the peer could still write into it, and the link group
#    stayed up).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
case $SMCR_ROLE in
b) st_param test_clc_without_option Y || exit 1
   st_param lgr_linger_ms 600000 || exit 1
   st_param llc_timeout_ms 1000 || exit 1
   st_param keepalive_ms 0 || exit 1
   st_dmesg_mark start || exit 1
   rc=0
   st_serve close server --family smc --port "$P" --conns 1 --mode duplex --bytes 0 \
	--expect-mode smcr --timeout 60s || rc=1
   st_await_lgr_count 0 8 || { echo "the link group outlived the failed close"; rc=1; }
   n=$(st_dmesg_count "no send buffer free for" start) || n=0
   ((n > 0)) || { echo "no \"no send buffer free\" link down logged"; rc=1; }
   exit $rc ;;
a) st_await close || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$P" --script withhold-recv-close --bytes 0 \
	--timeout 60s ;;
esac
