#!/bin/bash
# DESC: smcr to smcr: both links of a link group lost under busy connections (b's eth1, then its eth0): every connection fails with ECONNRESET on both sides within the bound, no link group is left, and once the ports are back a new connection is SMC-R
# SMOKE: no
# PEER: yes
# TIMEOUT: 240
#
# RFC 7609 4.6, 4.8.3 (no surviving link: the link group ends).
# st_two_links_up makes a link group of two links; then 8 duplex
# connections that never finish (1 GiB each way) on port P + 1, SMC-R.
# b takes eth1 down: link 2 is lost and its connections move to link 1
# (090); once b's only ACTIVE link is link 1, b takes eth0 down. b's
# ports see it (PORT_ERR): its link group ends at once. a's writes go
# unanswered (rxe retries for ever, qp_attr.c) and its writers block on
# b's full elements, so a finds its link down by TEST LINK: keepalive_ms
# (5 s here, both sides, for the test's time) after the last message from
# b, plus llc_timeout_ms (first run, 6.12, default keepalive_ms: 35 s).
# Asserts:
#   - every connection on both sides fails with ECONNRESET (not a hang,
#     not another error): b within 10 s of its eth0 down, a within
#     keepalive_ms + llc_timeout_ms + 10 s (architecture.rst, "Keepalive":
#     the bound for a path lost where no port of ours sees it) of b's
#     word that it took eth0 down;
#   - neither side has a link group 15 s after its connections ended;
#   - with eth0 and eth1 up again (b), rxe0 and rxe1 ACTIVE within 20 s,
#     a new connection is SMC-R and byte-exact.
# The debug kernel's run checks the teardown with no surviving link for
# leaks (kmemleak) and splats.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 2 || exit 1
st_param keepalive_ms 5000 || exit 1
P=$ST_PORT
N=8
s=$SMCR_TOOLS/bin/smcr
keep=$(</sys/module/smcr/parameters/keepalive_ms)
llc=$(</sys/module/smcr/parameters/llc_timeout_ms)
bound_a=$(((keep + llc) / 1000 + 10))
bound_b=10

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
[[ $SMCR_ROLE == b ]] && st_cleanup 'ip link set eth0 up; ip link set eth1 up'
st_two_links_up 64K || exit 1
rc=0
case $SMCR_ROLE in
b) st_serve_bg s1 server --family smc --port $((P + 1)) --conns $N --concurrent --mode duplex \
	--bytes 1G --expect-mode smcr --expect-data-error ECONNRESET --timeout 150s || exit 1 ;;
a) st_await s1 || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --conns $N --mode duplex \
	--bytes 1G --expect-mode smcr --expect-data-error ECONNRESET --timeout 150s &
   cpid=$! ;;
esac
st_await_lgr_conns $N 60 || exit 1
"$s" link show
if [[ $SMCR_ROLE == b ]]; then
	before=$(st_active_links)
	echo "ip link set eth1 down at $(date +%s.%N)"
	ip link set eth1 down || exit 1
	st_await_links_change "$before" 20 || exit 1
	[[ $(st_active_links) == 1 ]] || { echo "ACTIVE links $(st_active_links), expected 1"; exit 1; }
	echo "ip link set eth0 down at $(date +%s.%N)"
	ip link set eth0 down || exit 1
	t0=$SECONDS
	vm_put "$ST_KEY-down" 1
	st_wait_all || { echo "a connection did not fail with ECONNRESET (server side)"; rc=1; }
	bound=$bound_b
else
	vm_get "$ST_KEY-down" 60 >/dev/null || exit 1
	t0=$SECONDS
	wait "$cpid" || { echo "a connection did not fail with ECONNRESET (client side)"; rc=1; }
	bound=$bound_a
fi
took=$((SECONDS - t0))
echo "the connections ended $took s after eth0 went down (bound $bound s)"
((took <= bound)) || { echo "past the bound"; rc=1; }
st_await_lgr_count 0 15 || rc=1
vm_sync "$ST_KEY-gone" 120 || exit 1
if [[ $SMCR_ROLE == b ]]; then
	ip link set eth0 up && ip link set eth1 up || exit 1
fi
for ((i = 0; i < 100; i++)); do
	up=$(rdma -j link show | jq -r '[.[] | select(.state == "ACTIVE")] | length')
	[[ $up == 2 ]] && break
	vm_nap 0.2
done
[[ $up == 2 ]] || { rdma link show; echo "rxe0 and rxe1 not both ACTIVE"; exit 1; }
vm_sync "$ST_KEY-back" 60 || exit 1
case $SMCR_ROLE in
b) st_serve s2 server --family smc --port $((P + 2)) --conns 1 --mode duplex --bytes 256K \
	--expect-mode smcr --timeout 60s || rc=1 ;;
a) st_await s2 || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 2)) --conns 1 --mode duplex \
	--bytes 256K --expect-mode smcr --timeout 60s || rc=1 ;;
esac
exit $rc
