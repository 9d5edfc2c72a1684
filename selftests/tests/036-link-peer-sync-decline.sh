#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): a Decline with the S-bit after a subsequent contact's Accept ends the link group; one in place of the Proposal does not
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Role b runs smcr servers (test_clc_without_option=1, lgr_linger_ms=600000
# so that only an explicit end makes an idle link group go) on ports
# P..P+3; role a's link-peer (script sync-decline) opens a link group with
# a first contact on P and runs the duplex exchange, then three more TCP
# connections with the same peer ID. Asserts (RFC 7609 A.2.5: on the S-bit "the receiving
# peer must clean up its representation of the link group"):
#  - P: SMC-R, byte-exact both ways;
#  - P+1, a Decline SYNCERR with the S-bit in place of the Proposal (it
#    names no link group): b's server falls back with PEERDECL/SYNCERR,
#    duplex data over TCP byte-exact, and the link lives (TEST LINK
#    answered);
#  - P+2, Proposal, b's Accept reusing the link (F clear, the link's QP),
#    then a Decline SYNCERR with the S-bit: b's server falls back
#    (PEERDECL/SYNCERR, data byte-exact) and b ends the link group:
#    link-peer gets DELETE LINK (before, the link lived on);
#  - P+3, a Proposal with the same peer ID is a first contact (F set, a
#    new QP); link-peer declines it, data byte-exact;
#  - b has no link group at the end.
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
   S="--family smc --conns 1 --mode duplex --bytes $B --timeout 90s"
   # shellcheck disable=SC2086
   { st_serve_bg honest server $S --port "$P" --expect-mode smcr &&
     st_serve_bg noprop server $S --port $((P + 1)) --expect-mode fallback \
	--expect-reason PEERDECL --expect-peer-diag SYNCERR &&
     st_serve_bg sync server $S --port $((P + 2)) --expect-mode fallback \
	--expect-reason PEERDECL --expect-peer-diag SYNCERR &&
     st_serve_bg again server $S --port $((P + 3)) --expect-mode fallback \
	--expect-reason PEERDECL --expect-peer-diag NOSMCRDEV; } || exit 1
   rc=0
   st_wait_all || rc=1
   st_no_lgrs 30 || rc=1
   exit $rc ;;
a) st_await honest && st_await noprop && st_await sync && st_await again || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$P" --script sync-decline --bytes "$B" \
	--timeout 120s ;;
esac
