#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): a subsequent contact that fails after the server's Accept is reset, not declined, and its RMB element is not reused
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Role b runs smcr servers (test_clc_without_option=1, lgr_linger_ms=600000
# so that only an explicit end makes an idle link group go) on ports P..P+2;
# role a's link-peer (script subsequent-abort) opens a link group with a
# first contact on P and runs the duplex exchange, then subsequent
# contacts with the same peer ID. After the server's Accept on a
# subsequent contact the client may write into the element it names as
# soon as its Confirm is out (RFC 7609 3.5.2.4), and the server cannot
# decline any more (C.1, C.3). Asserts:
#  - P+1, a Confirm with RMBE size code 15 (which smcr cannot use): b
#    resets the TCP connection without sending a byte (before: a Decline
#    ERR_REGBUF after its Accept); b's application never sees it;
#  - link-peer's RDMA write into the element that Accept named lands, and
#    the next subsequent contact on P+1 gets an Accept naming another
#    element (before: the same one, freed for reuse while the first
#    client could write into it); link-peer declines that one, b falls
#    back (PEERDECL/NOSMCRDEV), duplex data over TCP byte-exact; the link
#    lives;
#  - P+2, a Confirm naming another QP than link-peer's: reset without a
#    byte, and b ends the link group (out of sync, C.4): DELETE LINK;
#  - the next Proposal on P+2 is a first contact; link-peer declines it,
#    data byte-exact; b has no link group at the end.
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
   # each fallback server's only connection is the one after the reset
   # shellcheck disable=SC2086
   { st_serve_bg honest server $S --port "$P" --expect-mode smcr &&
     st_serve_bg rmbe server $S --port $((P + 1)) --expect-mode fallback \
	--expect-reason PEERDECL --expect-peer-diag NOSMCRDEV &&
     st_serve_bg qp server $S --port $((P + 2)) --expect-mode fallback \
	--expect-reason PEERDECL --expect-peer-diag NOSMCRDEV; } || exit 1
   rc=0
   st_wait_all || rc=1
   st_no_lgrs 30 || rc=1
   exit $rc ;;
a) st_await honest && st_await rmbe && st_await qp || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$P" --script subsequent-abort --bytes "$B" \
	--timeout 120s ;;
esac
