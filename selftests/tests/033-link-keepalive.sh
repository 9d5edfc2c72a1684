#!/bin/bash
# DESC: TEST LINK keepalive: an answered probe keeps the link, an unanswered one takes it down
# SMOKE: no
# PEER: yes
# TIMEOUT: 150
#
# Asserts, with keepalive_ms=500 and llc_timeout_ms=2000 on VM a:
#   - phase 1, b answers TEST LINK: 5 s after the connection (about ten
#     probes) a's link is still ACTIVE;
#   - phase 2, b stops answering (test_ignore_test_link): a's link group is
#     gone within 10 s and a logged "no reply to TEST LINK" after b stopped
#     answering (lines of earlier tests do not count). b's ends by its own
#     linger (its DELETE LINK cannot reach a's destroyed QP), which the
#     test ends at once (test_lgr_expire_idle) instead of waiting 30 s.
# One link (smcr_max_links_per_lgr 1 on both VMs): with a second, the
# connection would move to it (090) and the server could add another on
# the path that is fine but for TEST LINK.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 1 || exit 1
P=$ST_PORT

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
st_param lgr_linger_ms 30000 || exit 1
if [[ $SMCR_ROLE == a ]]; then
	st_param keepalive_ms 500 || exit 1
	st_param llc_timeout_ms 2000 || exit 1
fi
vm_sync "$ST_KEY-params" || exit 1
case $SMCR_ROLE in
b) st_serve_bg c1 server --family smc --port "$P" --mode sink --timeout 60s || exit 1
   st_wait_all || exit 1
   vm_get "$ST_KEY-phase1" 60 >/dev/null || st_fail "phase 1 failed on a"
   st_param test_ignore_test_link Y || exit 1
   vm_put "$ST_KEY-ignoring" 1
   vm_get "$ST_KEY-a-done" 60 >/dev/null || st_fail "phase 2 failed on a"
   # idle: its linger ends it (now, test_lgr_expire_idle), sending DELETE
   # LINK to a's QP that is gone
   st_no_lgrs 40 || st_fail "b's link group never ended" ;;
a) st_await c1 || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes 64K \
	--expect-mode smcr --timeout 60s || exit 1
   sleep 5
   links=$(st_links) && echo "after 5 s: $links"
   [[ $links =~ ^[0-9]+\ client\ 1\ ACTIVE$ ]] || st_fail "answered keepalive lost the link"
   st_dmesg_mark phase2 || exit 1
   vm_put "$ST_KEY-phase1" 1
   vm_get "$ST_KEY-ignoring" 60 >/dev/null || st_fail "b never stopped answering"
   st_await_lgr_count 0 10 || st_fail "link stayed up without TEST LINK replies"
   n=$(st_dmesg_count "no reply to TEST LINK, link down" phase2) || st_fail "cannot read the kernel log"
   ((n > 0)) || st_fail "no log line for the lost link"
   vm_put "$ST_KEY-a-done" 1 ;;
esac
