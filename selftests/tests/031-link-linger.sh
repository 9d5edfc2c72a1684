#!/bin/bash
# DESC: an unused link group lingers lgr_linger_ms, a connection meanwhile keeps it, then DELETE LINK ends it on both sides
# SMOKE: no
# PEER: yes
# TIMEOUT: 150
#
# Asserts, with lgr_linger_ms=10000 on both VMs:
#   - after connection 1 each VM has one link group;
#   - connection 2, 2 s later (inside the linger time), reuses it (same id);
#   - afterwards the link group is gone on both VMs within 30 s: the server's
#     linger expires first and its DELETE LINK (all) ends the client's too.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
P=$ST_PORT

st_no_lgrs 90 || st_fail "link groups of earlier tests did not expire"
st_param lgr_linger_ms 10000 || exit 1
vm_sync "$ST_KEY-params" || exit 1
case $SMCR_ROLE in
b) st_serve_bg c1 server --family smc --port "$P" --mode sink --timeout 60s || exit 1
   st_serve_bg c2 server --family smc --port $((P + 1)) --mode sink --timeout 60s || exit 1
   st_wait_all || exit 1 ;;
a) st_await c1 && st_await c2 || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes 64K \
	--expect-mode smcr --timeout 60s || exit 1
   l1=$(st_links) && echo "after connection 1: $l1"
   [[ $(st_lgr_count) == 1 ]] || st_fail "no link group after connection 1"
   sleep 2
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode sink --bytes 64K \
	--expect-mode smcr --timeout 60s || exit 1
   l2=$(st_links) && echo "after connection 2: $l2"
   [[ $l2 == "$l1" ]] || st_fail "connection 2 did not reuse the lingering link group" ;;
esac
vm_sync "$ST_KEY-done" || exit 1
[[ $(st_lgr_count) == 1 ]] || st_fail "expected one link group while lingering"
st_await_lgr_count 0 30 || st_fail "link group still there 30 s after its last connection"
