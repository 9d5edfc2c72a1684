#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): a request smcr holds for its ADD LINK flow is answered after the flow, also when the flow ends just as smcr decides to hold it
# SMOKE: no
# PEER: yes
# TIMEOUT: 120
#
# Role b runs an smcr server with test_clc_without_option=1,
# smcr_max_links_per_lgr 2, llc_timeout_ms 10000 and
# test_llc_work_delay_ms 2000: its LLC work waits 2 s before it takes a
# request. Role a's link-peer (script add-link-held-request) sends a
# DELETE RKEY during b's ADD LINK flow (RFC 7609 3.5.5.3.1: it waits for
# the flow) and rejects the ADD LINK 3 s later, so that the flow ends
# around the time b takes the request and decides to hold it. Asserts: b
# answers the DELETE RKEY (error mask 0x80: an rkey it never had) after
# its flow; the link lives, data byte-exact. Before a0dc92f the work put
# a request on the held queue after the decision, and a flow ending in
# between put back the queue without it: no reply ever (this test, with a
# second 2 s delay between the decision and the holding, showed it). Now
# the request joins the held queue in the decision's critical section.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
B=$(st_size 256K 64K)
case $SMCR_ROLE in
b) st_no_lgrs 60 || st_fail "link groups of earlier tests did not end"
   st_param test_clc_without_option Y || exit 1
   st_param smcr_max_links_per_lgr 2 || exit 1
   st_param llc_timeout_ms 10000 || exit 1
   st_param test_llc_work_delay_ms 2000 || exit 1
   rc=0
   st_link_peer add-link-held-request "$ST_PORT" "$B" --expect-mode smcr || rc=1
   st_no_lgrs 30 || rc=1
   exit $rc ;;
a) st_await add-link-held-request || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$ST_PORT" --script add-link-held-request \
	--bytes "$B" --llc-timeout 10s --timeout 90s ;;
esac
