#!/bin/bash
# DESC: an Accept claiming a subsequent contact on a link the smcr client does not have: Decline SYNCERR with the S-bit, fallback
# SMOKE: no
# PEER: yes
# TIMEOUT: 90
#
# Role b's smcr client (test_clc_without_option=1, a real RoCE offer on
# rxe) proposes to role a's plain-TCP clc-peer (script
# srv-accept-subsequent), which answers with a valid Accept whose F bit is
# clear: a subsequent contact on a link group b has never had with that
# peer. RFC 7609 C.4: the client is out of sync with the server and
# declines; A.2.5: with the S-bit, so that the server ends its stale link
# group. Asserts:
#  - clc-peer receives a Decline SYNCERR whose header flags carry the
#    S-bit (0x08; before, a Decline NOSRVLINK without it);
#  - the client socket falls back with reason SYNCERR and moves duplex
#    data byte-exact both ways over TCP;
#  - b has as many link groups afterwards as before (none was made).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module (test_clc_without_option)"
st_need_rxe
B=$(st_size 1M 64K)
case $SMCR_ROLE in
a) st_serve sync clc-peer --role server --family tcp --port "$ST_PORT" --script srv-accept-subsequent \
	--bytes "$B" --drop-wait 20s --timeout 60s ;;
b) st_param test_clc_without_option Y || exit 1
   st_param test_fake_offer N || exit 1
   # not while an earlier test's link group lingers out: it would end
   # between the two counts
   st_no_lgrs 60 || st_fail "link groups of earlier tests did not end"
   n0=$(st_lgr_count) || st_fail "smcr lgr show failed"
   st_await sync || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$ST_PORT" --mode duplex --bytes "$B" \
	--expect-mode fallback --expect-reason SYNCERR --timeout 60s || exit 1
   n=$(st_lgr_count) || st_fail "smcr lgr show failed"
   [[ $n == "$n0" ]] || st_fail "$n link group(s) on b after declining the Accept, $n0 before" ;;
esac
