#!/bin/bash
# DESC: rdma link del of the RoCE device under a live link group tears it down on both sides; re-added, first contact works again
# SMOKE: no
# PEER: yes
# TIMEOUT: 150
#
# Asserts: with a link group up (after one connection), `rdma link del rxe0`
# on VM a returns, a's link group is gone at once and b's within 10 s (a's
# DELETE LINK); smcr no longer lists rxe0 on a. After `rdma link add` the
# device is listed again and a new connection builds a new link group (a
# different id) with an ACTIVE link on both VMs. The debug kernel checks the
# teardown for leaks and lockdep splats. With smcr_max_links_per_lgr 1 on
# both VMs, rxe0 is the link group's only device: a second link on rxe1
# would take its connections over instead (071, 091).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 1 || exit 1
P=$ST_PORT

[[ $SMCR_ROLE == a ]] && trap 'st_rxe_restore 0; st_params_restore' EXIT

st_no_lgrs 90 || st_fail "link groups of earlier tests did not expire"
# the first link group must not end by its linger, only by the removal; the
# second one lingers as usual, so that the next test does not wait a minute
LINGER=$(</sys/module/smcr/parameters/lgr_linger_ms)
st_param lgr_linger_ms 60000 || exit 1
vm_sync "$ST_KEY-params" || exit 1
case $SMCR_ROLE in
b) st_serve_bg c1 server --family smc --port "$P" --mode sink --timeout 60s || exit 1
   st_wait_all || exit 1
   vm_get "$ST_KEY-deleted" 60 >/dev/null || st_fail "a never deleted rxe0"
   st_await_lgr_count 0 10 || st_fail "b's link group survived a's device removal"
   st_param lgr_linger_ms "$LINGER" || exit 1
   st_serve_bg c2 server --family smc --port $((P + 1)) --mode sink --timeout 60s || exit 1
   st_wait_all || exit 1
   vm_get "$ST_KEY-a-done" 60 >/dev/null || st_fail "a failed"
   links=$(st_links) && echo "b after re-add: $links"
   [[ $links =~ ^[0-9]+\ server\ 1\ ACTIVE$ ]] || st_fail "no new ACTIVE link on b" ;;
a) st_await c1 || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes 64K \
	--expect-mode smcr --timeout 60s || exit 1
   l1=$(st_links) && echo "before: $l1"
   [[ $(st_lgr_count) == 1 ]] || st_fail "no link group"
   rdma link del rxe0 || st_fail "rdma link del rxe0 failed"
   vm_put "$ST_KEY-deleted" 1
   st_await_lgr_count 0 5 || st_fail "link group survived the removal of its device"
   "$SMCR_TOOLS/bin/smcr" dev show | grep -qw rxe0 && st_fail "rxe0 still listed"
   rdma link add rxe0 type rxe netdev eth0 || st_fail "rdma link add failed"
   st_param lgr_linger_ms "$LINGER" || exit 1
   for ((i = 0; i < 50; i++)); do
	"$SMCR_TOOLS/bin/smcr" dev show | grep -qw 'rxe0.*ACTIVE' && break
	vm_nap 0.1
   done
   "$SMCR_TOOLS/bin/smcr" dev show
   st_await c2 || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode sink --bytes 64K \
	--expect-mode smcr --timeout 60s || exit 1
   l2=$(st_links) && echo "after re-add: $l2"
   [[ $l2 =~ ^[0-9]+\ client\ 1\ ACTIVE$ ]] || st_fail "no new ACTIVE link on a"
   [[ ${l2%% *} != "${l1%% *}" ]] || st_fail "link group id did not change"
   vm_put "$ST_KEY-a-done" 1 ;;
esac
