#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): an LLC request flood meets a bounded queue, the link lives
# SMOKE: no
# PEER: yes
# TIMEOUT: 150
#
# Role b runs an smcr server (test_clc_without_option=1) with
# test_llc_work_delay_ms 50, so that its LLC work handles one queued
# request per 50 ms: slower than any flood. Role a's link-peer (script
# llc-flood) sends 256 CONFIRM RKEY requests back to back. Asserts:
#  - link-peer gets fewer than 64 replies (positive: the first request's
#    zero body is a valid new RToken, rkey 0 at address 0, the others
#    identical repeats of it): smcr queued at most 16 requests and dropped
#    the rest, and b logs "LLC request queue full" during the test (before
#    the fix every request was queued - one GFP_ATOMIC allocation each,
#    without limit - and all 256 were answered);
#  - the link lives (TEST LINK answered) and the duplex exchange after the
#    flood is byte-exact on both sides.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
B=$(st_size 256K 64K)
case $SMCR_ROLE in
b) st_param test_clc_without_option Y || exit 1
   st_param test_llc_work_delay_ms 50 || exit 1
   st_dmesg_mark start || exit 1
   rc=0
   st_serve flood server --family smc --port "$P" --conns 1 --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 100s || rc=1
   n=$(st_dmesg_count "LLC request queue full" start) || n=0
   ((n > 0)) || { echo "no \"LLC request queue full\" logged"; rc=1; }
   exit $rc ;;
a) st_await flood || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$P" --script llc-flood --bytes "$B" \
	--timeout 100s ;;
esac
