#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): DELETE LINK while the server holds a send buffer; the teardown waits for it
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Role b runs an smcr server (test_clc_without_option=1) with the test-only
# test_tx_hold_ms=300: every CDC message's send buffer is held 300 ms
# between taking it and filling it. Role a's link-peer (script
# delete-link-mid-transfer) runs the duplex exchange and half-way through
# sends DELETE LINK (all), so b tears the link group down while its
# application is inside such a hold. Asserts:
#  - link-peer sees b end the link;
#  - b's connection fails with ECONNRESET;
#  - no kernel report on b (before the fix the teardown freed the send
#    buffers while one was held, and the holder built its CDC message into
#    freed memory and indexed the slot table with a garbage index);
#  - at the end b has no link group.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
B=$(st_size 1M 256K)
case $SMCR_ROLE in
b) st_param test_clc_without_option Y || exit 1
   st_param lgr_linger_ms 1000 || exit 1
   st_param test_tx_hold_ms 300 || exit 1
   rc=0
   st_serve held server --family smc --port "$P" --conns 1 --mode duplex --bytes "$B" \
	--expect-mode smcr --expect-data-error ECONNRESET --timeout 120s || rc=1
   st_no_lgrs 60 || rc=1
   exit $rc ;;
a) st_await held || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$P" --script delete-link-mid-transfer --bytes "$B" \
	--timeout 120s ;;
esac
