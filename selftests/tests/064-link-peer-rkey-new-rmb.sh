#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): a subsequent contact with a new RMB pauses for CONFIRM RKEY before the Accept; a refused one declines with ERR_RTOK and is asked again; an unanswered one takes the link down
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Role b runs smcr servers (test_clc_without_option=1, lgr_linger_ms=600000
# as 036-038, so that only link-peer's DELETE LINK ends a link group):
# P and P+2 with the default RMB element size class (net.smc.rmem, 128
# KiB), P+1 and P+3 with SO_RCVBUF 32K on the listening socket (class 32
# KiB, an RMB the link group does not have yet). Role a's link-peer opens
# a link group on P and runs the duplex exchange, then (RFC 7609
# 3.5.5.2.1, Figure 13 with the server adding the RMB):
#  - rkey-new-rmb, two subsequent contacts on P+1: on the first, b sends
#    CONFIRM RKEY (NumTkns 0, the new RMB's rkey and address) on the link
#    before its Accept, link-peer echoes it with R, and the Accept names
#    that rkey and address; link-peer confirms (its element under a new
#    alert token), duplex data over SMC-R byte-exact on both sides. The
#    second gets no LLC message before its Accept, which names the same
#    rkey; data byte-exact. One CONFIRM RKEY in all; link alive, then
#    link-peer's DELETE LINK ends the link group;
#  - rkey-new-rmb-refused, a second link group opened on P+2, then P+3:
#    link-peer answers b's CONFIRM RKEY negatively (Z, no C); b declines
#    in place of its Accept with ERR_RTOK (0x09990001), no S-bit, and the
#    connection falls back: duplex data over TCP byte-exact; the link
#    lives. The next contact on P+3 gets CONFIRM RKEY again for the same
#    rkey and address (the RMB stayed unconfirmed; natural stimulus),
#    link-peer now answers positively, the Accept names it, SMC-R data
#    byte-exact;
#  - rkey-new-rmb-unanswered, with llc_timeout_ms=2000 on b from here to
#    the end of the test (st_param restores it on exit): a third link
#    group opened on P+4, then P+5: link-peer never answers b's CONFIRM
#    RKEY; no Accept: b declines with ERR_RTOK 2-7 s after the request
#    (or ends the TCP connection, if the link group's end got there
#    first), duplex data over TCP byte-exact; the link is down (TEST LINK
#    unanswered, or b's DELETE LINK) and b's link group gone within 15 s;
#  - b has no link group at the end.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
B=$(st_size 256K 64K)
LLC_TMO=2000
case $SMCR_ROLE in
b) # an idle link group must not end by its linger during the test
   st_no_lgrs 60 || st_fail "link groups of earlier tests did not expire"
   st_param lgr_linger_ms 600000 || exit 1
   st_param test_clc_without_option Y || exit 1
   S="--family smc --mode duplex --bytes $B --timeout 120s"
   # shellcheck disable=SC2086
   { st_serve_bg first server $S --port "$P" --conns 1 --expect-mode smcr &&
     st_serve_bg new server $S --port $((P + 1)) --conns 2 --rcvbuf 32K --expect-mode smcr &&
     st_serve_bg rfirst server $S --port $((P + 2)) --conns 1 --expect-mode smcr &&
     st_serve_bg refused server $S --port $((P + 3)) --conns 2 --rcvbuf 32K; } || exit 1
   rc=0
   st_wait_all || rc=1
   st_no_lgrs 30 || rc=1
   st_param llc_timeout_ms $LLC_TMO || exit 1
   # shellcheck disable=SC2086
   { st_serve_bg ufirst server $S --port $((P + 4)) --conns 1 --expect-mode smcr &&
     st_serve_bg unanswered server $S --port $((P + 5)) --conns 1 --rcvbuf 32K \
	--expect-mode fallback --expect-reason 0x09990001; } || exit 1
   st_wait_all || rc=1
   st_await_lgr_count 0 15 || { echo "the unanswered CONFIRM RKEY left the link group"; rc=1; }
   exit $rc ;;
a) st_await first && st_await new && st_await rfirst && st_await refused || exit 1
   rc=0
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$P" --script rkey-new-rmb --bytes "$B" \
	--timeout 120s || rc=1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port $((P + 2)) --script rkey-new-rmb-refused \
	--bytes "$B" --timeout 120s || rc=1
   st_await ufirst 180 && st_await unanswered || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port $((P + 4)) --script rkey-new-rmb-unanswered \
	--bytes "$B" --llc-timeout "${LLC_TMO}ms" --timeout 60s || rc=1
   exit $rc ;;
esac
