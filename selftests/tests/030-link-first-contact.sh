#!/bin/bash
# DESC: first contact builds one link group with one ACTIVE link per side; later connections reuse it, also with data_path=N
# SMOKE: yes
# PEER: yes
# TIMEOUT: 120
#
# Asserts, between the two VMs over rxe (no link group at the start):
#   - connection 1 (first contact) leaves exactly one link group on each VM,
#     client role on a, server role on b, each with exactly one link, link id
#     1, state ACTIVE (reached only after CONFIRM LINK both ways, with the QP
#     in RTS);
#   - connection 2 (subsequent contact) leaves the same single link group
#     (same id) on both VMs;
#   - both connections move their data over SMC-R, byte-exact;
#   - connection 3, with data_path=N on both VMs, reuses the link group too
#     and continues over TCP: the server declines after the link with
#     ERR_REGBUF (client: PEERDECL with that diagnosis), data byte-exact.
# With smcr_max_links_per_lgr 1 on both VMs: the first contact's link
# alone, which the server would otherwise join by a second one on rxe1
# moments later (070 and 079 test that).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 1 || exit 1
P=$ST_PORT
B=$(st_size 1M 64K)

st_no_lgrs 90 || st_fail "link groups of earlier tests did not expire"
case $SMCR_ROLE in
b) st_serve_bg c1 server --family smc --port "$P" --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 60s || exit 1
   st_serve_bg c2 server --family smc --port $((P + 1)) --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 60s || exit 1
   st_wait_all || exit 1
   st_param data_path N || exit 1
   st_serve_bg c3 server --family smc --port $((P + 2)) --mode duplex --bytes "$B" \
	--expect-mode fallback --expect-reason ERR_REGBUF --timeout 60s || exit 1
   st_wait_all || exit 1
   vm_get "$ST_KEY-a-links" 30 >/dev/null || st_fail "client never reported"
   links=$(st_links) || st_fail "smcr link show failed"
   echo "links: $links"
   [[ $(wc -l <<<"$links") == 1 && $links =~ ^[0-9]+\ server\ 1\ ACTIVE$ ]] ||
	st_fail "expected one server link group with link 1 ACTIVE"
   vm_put "$ST_KEY-b-checked" 1 ;;
a) st_await c1 && st_await c2 || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 60s || exit 1
   l1=$(st_links) || st_fail "smcr link show failed"
   echo "after connection 1: $l1"
   [[ $(wc -l <<<"$l1") == 1 && $l1 =~ ^[0-9]+\ client\ 1\ ACTIVE$ ]] ||
	st_fail "expected one client link group with link 1 ACTIVE"
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 60s || exit 1
   l2=$(st_links) || st_fail "smcr link show failed"
   echo "after connection 2: $l2"
   [[ $l2 == "$l1" ]] || st_fail "connection 2 did not reuse the link group"
   st_param data_path N || exit 1
   st_await c3 || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 2)) --mode duplex --bytes "$B" \
	--expect-mode fallback --expect-reason PEERDECL --expect-peer-diag ERR_REGBUF --timeout 60s || exit 1
   l3=$(st_links) || st_fail "smcr link show failed"
   echo "after connection 3: $l3"
   [[ $l3 == "$l1" ]] || st_fail "connection 3 did not reuse the link group"
   vm_put "$ST_KEY-a-links" 1
   vm_get "$ST_KEY-b-checked" 30 >/dev/null || st_fail "server side check failed" ;;
esac
