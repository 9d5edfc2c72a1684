#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): a subsequent contact whose Confirm names an RMB element an open connection uses aborts that connection; the new one proceeds
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Role b runs smcr servers (test_clc_without_option=1, lgr_linger_ms=600000
# as 036/037, so that only an explicit end makes the link group go) on
# ports P and P+1; role a's link-peer (script rmbe-conflict) opens a link
# group with a first contact on P and runs the duplex exchange without its
# close (connection 1 stays open, b's application waits in recv for the
# end of data), then a subsequent contact on P+1 whose Confirm names
# exactly the RMB element connection 1's Confirm named (same rkey,
# address, index and size). RFC 7609 3.5.2.3 and 4.4.2: the server must
# abort the connection that used the element - no more RDMA writes into
# it, its application told of the reset - and go on with the new one.
# Asserts:
#  - P (connection 1): b's application fails with ECONNRESET, and ends
#    before connection 2's (before: only when link-peer exited); its TCP
#    connection ends with a reset (before: it stayed open); b sends connection
#    1 no CDC message after the Confirm but one with A, and none that
#    moves its producer cursor (no write into the element);
#  - P+1 (connection 2): SMC-R, duplex data byte-exact both ways through
#    the element, orderly close;
#  - the link lives (TEST LINK answered); link-peer's DELETE LINK then ends
#    the link group, and b has none at the end.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
B=$(st_size 256K 64K)
case $SMCR_ROLE in
b) # an idle link group must not end by its linger during the test
   st_no_lgrs 60 || st_fail "link groups of earlier tests did not expire"
   st_param lgr_linger_ms 600000 || exit 1
   st_param test_clc_without_option Y || exit 1
   S="--family smc --conns 1 --mode duplex --bytes $B --timeout 90s --expect-mode smcr"
   # shellcheck disable=SC2086
   { st_serve_bg old server $S --port "$P" --expect-data-error ECONNRESET &&
     st_serve_bg new server $S --port $((P + 1)); } || exit 1
   # connection 1 ends at connection 2's Confirm, so its server before
   # connection 2's (before the fix: only once link-peer exited)
   old=${ST_PIDS[0]} new=${ST_PIDS[1]} rc=0
   wait -n -p first "$old" "$new" || rc=1
   if [[ $first != "$old" ]]; then
	echo "connection 2's server ended before connection 1's: connection 1 was not aborted at the Confirm"
	rc=1
   fi
   st_wait_all || rc=1
   st_no_lgrs 30 || rc=1
   exit $rc ;;
a) st_await old && st_await new || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$P" --script rmbe-conflict --bytes "$B" \
	--timeout 120s ;;
esac
