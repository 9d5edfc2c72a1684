#!/bin/bash
# DESC: smcr to smcr with smcr_max_links_per_lgr 2: the server adds a second link on rxe1/eth1 after the first contact; the link group is symmetric with 2 ACTIVE links on both sides, and the connections made after it spread over both links, SMC-R, byte-exact
# SMOKE: yes
# PEER: yes
# TIMEOUT: 240
#
# Both VMs allow two links per link group. a's first connection to b is the
# first contact (link 1 on rxe0/eth0); the server then adds link 2 on its
# other RoCE port (rxe1/eth1, 198.18.0.0/15), the client answering from its
# own rxe1 (RFC 7609 3.5.1.6: ADD LINK, ADD LINK CONTINUATION with the
# first RMB's rkey on the new link, CONFIRM LINK on the new link). Asserts:
#   - within 30 s both sides list one link group of type SYM with two
#     ACTIVE links on distinct RoCE devices, the client's link numbers
#     those of the server;
#   - 100 concurrent connections (20 on the debug kernel) made then
#     (subsequent contacts: new RMBs on both links, CONFIRM RKEY with the
#     other link's RToken) are all
#     SMC-R and byte-exact, and while they are open each link carries at
#     least a quarter of them on both sides (the server gives each new
#     connection the link with the fewest).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
[[ ${SMCR_RXE:-0} == 1 ]] || st_skip "needs Soft-RoCE"
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 2 || exit 1
# all N handshakes at once, none turned to TCP by the listener's limit
[[ $SMCR_ROLE == b ]] && { st_param hs_limit 256 || exit 1; }
P=$ST_PORT
# 100 on stock kernels; the debug kernel serializes the CONFIRM RKEY exchanges
# of new RMBs too slowly for 100 within the CLC timeout
N=$(st_size 100 20)
B=$(st_size 256K 64K)

# "TYPE DEV1 DEV2" once the only link group has two ACTIVE links
await_two_links() {
	local end=$((SECONDS + $1)) lgrs links
	while ((SECONDS < end)); do
		lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || return 1
		links=$("$SMCR_TOOLS/bin/smcr" -j link show) || return 1
		if [[ $(jq length <<<"$lgrs") == 1 &&
		      $(jq '[.[] | select(.state == "ACTIVE")] | length' <<<"$links") == 2 ]]; then
			echo "$(jq -r '.[0].type' <<<"$lgrs") $(jq -r '[.[].ibdev] | sort | join(" ")' <<<"$links")"
			return 0
		fi
		vm_nap 0.2
	done
	echo "no link group with two ACTIVE links:"
	echo "$lgrs"
	echo "$links"
	return 1
}

st_await_lgr_count 0 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
rc=0
case $SMCR_ROLE in
b) st_serve_bg s0 server --family smc --port "$P" --conns 1 --bytes "$B" \
	--expect-mode smcr --timeout 60s || exit 1
   st_wait_all || rc=1 ;;
a) st_await s0 || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --conns 1 \
	--bytes "$B" --expect-mode smcr --timeout 30s || rc=1 ;;
esac
got=$(await_two_links 30) || { echo "$got"; exit 1; }
echo "link group: $got"
read -r type d1 d2 <<<"$got"
[[ $type == SYM && $d1 != "$d2" ]] || { echo "expected type SYM on two devices"; rc=1; }
"$SMCR_TOOLS/bin/smcr" link show
vm_sync "$ST_KEY-two" || exit 1

# N concurrent connections, each held open 10 s before its data: each
# side samples its per-link counts while they are all open
case $SMCR_ROLE in
b) st_serve_bg s1 server --family smc --port $((P + 1)) --conns $N --concurrent --bytes "$B" \
	--mode duplex --expect-mode smcr --timeout 120s || exit 1 ;;
a) st_await s1 || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --conns $N \
	--bytes "$B" --mode duplex --expect-mode smcr --hold 10s --timeout 120s &
   cpid=$! ;;
esac
st_await_lgr_conns $N 60 || rc=1
"$SMCR_TOOLS/bin/smcr" lgr show
"$SMCR_TOOLS/bin/smcr" link show
counts=$("$SMCR_TOOLS/bin/smcr" -j link show | jq -r '[.[].conns] | sort | join(" ")')
echo "connections per link: $counts (of $N)"
read -r c1 c2 <<<"$counts"
((c1 >= N / 4 && c2 >= N / 4 && c1 + c2 == N)) || { echo "connections not spread over both links"; rc=1; }
case $SMCR_ROLE in
b) st_wait_all || rc=1 ;;
a) wait "$cpid" || rc=1 ;;
esac
exit $rc
