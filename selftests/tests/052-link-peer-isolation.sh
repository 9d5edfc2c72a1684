#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): an RDMA write with another link group's rkey, or past the RMB, fails at the MR; the other link group's data stays intact
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Role b runs two smcr servers (test_clc_without_option=1) on ports P and
# P+1; role a one link-peer (script cross-lgr-write) that opens a link
# group to each with a fresh peer ID - two link groups on b's rxe0. The
# second one RDMA-writes 4 KiB into the first one's RMBE with the first
# one's rkey and address. Asserts:
#  - the write fails (remote access error at b's MR check: every link group
#    has its own protection domain, so an rkey of one is no key for the QP
#    of another; before, one PD per device let it land);
#  - the second link group's connection on b fails with ECONNRESET (its
#    link went down on the access error);
#  - the first link group's duplex exchange afterwards is byte-exact on
#    both sides (server --expect-mode smcr and its checksum; link-peer's
#    pattern check) and its link lives;
#  - then (script write-beyond-rmb, port P+2, a third link group) an RDMA
#    write just past the end of b's RMB fails at the MR bound (remote
#    access error) and that link group's connection fails with ECONNRESET;
#  - at the end b has no link group.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
B=$(st_size 256K 64K)
case $SMCR_ROLE in
b) st_param test_clc_without_option Y || exit 1
   st_param lgr_linger_ms 1000 || exit 1
   st_serve_bg first server --family smc --port "$P" --conns 1 --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 90s || exit 1
   st_serve_bg second server --family smc --port $((P + 1)) --conns 1 --mode duplex --bytes "$B" \
	--expect-mode smcr --expect-data-error ECONNRESET --timeout 90s || exit 1
   st_serve_bg beyond server --family smc --port $((P + 2)) --conns 1 --mode duplex --bytes "$B" \
	--expect-mode smcr --expect-data-error ECONNRESET --timeout 90s || exit 1
   rc=0
   st_wait_all || rc=1
   st_no_lgrs 60 || rc=1
   exit $rc ;;
a) st_await first && st_await second && st_await beyond || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$P" --script cross-lgr-write --bytes "$B" \
	--timeout 90s || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port $((P + 2)) --script write-beyond-rmb --bytes "$B" \
	--timeout 90s ;;
esac
