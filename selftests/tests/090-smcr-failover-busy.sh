#!/bin/bash
# DESC: busy failover: 16 duplex connections over a two-link group (half on each link), `ip link set eth1 down` on the server at about a third of the data: every connection completes byte-exact over SMC-R in the same link group, now of one link
# SMOKE: no
# PEER: yes
# TIMEOUT: 420
#
# RFC 7609 2.3, 4.6. Both VMs allow two links per link group; st_two_links_up
# makes the group (SYM, link 1 on rxe0/eth0, link 2 on rxe1/eth1). Then 16
# concurrent duplex connections of 32 MiB each way (2 MiB on the debug
# kernel: 1 GiB and 64 MiB in all), FNV-checked by smctest, SMC-R on both
# sides (--expect-mode smcr), spread over both links. Once b has sent about
# a third of its bytes, b takes eth1 down: link 2 fails under its busy
# connections (its work requests fail on both sides), they move to link 1
# with what the peer may lack resent (failover.c). Asserts:
#   - every connection on both sides completes, checksums equal;
#   - afterwards (within 30 s, 60 s on the debug kernel: the DELETE LINK
#     exchange and the teardown may end after the data) each side lists
#     the same link group as before, one ACTIVE link (link 1), type
#     SINGLE.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
N=16
B=${ST090_B:-$(st_size 32M 2M)}
S=$SMCR_TOOLS/bin/smcr

st_cleanup 'ip link set eth1 up'
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 2 || exit 1
[[ $SMCR_ROLE == b ]] && { st_param hs_limit 256 || exit 1; }

tx_bytes() { "$S" -j stats | jq '.smcr.tx.bytes'; }

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
st_two_links_up 64K || exit 1
lgr=$("$S" -j lgr show | jq -r '.[0].id')

case $SMCR_ROLE in
b) st_serve_bg s1 server --family smc --port $((P + 1)) --conns $N --concurrent \
	--bytes "$B" --mode duplex --expect-mode smcr --timeout 360s || exit 1 ;;
a) st_await s1 || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --conns $N \
	--bytes "$B" --mode duplex --expect-mode smcr --timeout 360s &
   cpid=$! ;;
esac
st_await_lgr_conns $N 60 || exit 1
"$S" link show
if [[ $SMCR_ROLE == b ]]; then
	want=$(( $(tx_bytes) + $(numfmt --from=iec "$B") * N / 3 ))
	while (( $(tx_bytes) < want )); do
		[[ -n $(jobs -r) ]] || st_fail "the connections ended before a third of the data"
		vm_nap 0.1
	done
	echo "eth1 down after $(tx_bytes) tx bytes"
	ip link set eth1 down || st_fail "ip link set eth1 down failed"
fi
case $SMCR_ROLE in
b) st_wait_all || st_fail "a connection failed (server side)" ;;
a) wait "$cpid" || st_fail "a connection failed (client side)" ;;
esac
# the link's deletion (DELETE LINK, teardown) may end after the data
end=$((SECONDS + $(st_size 30 60)))
while :; do
	got=$("$S" -j lgr show | jq -r '"\(length) \(.[0].id) \(.[0].type)"')
	links=$("$S" -j link show | jq -r '[.[] | select(.state == "ACTIVE") | .link_id] | join(",")')
	[[ $got == "1 $lgr SINGLE" && $links == 1 ]] && break
	if ((SECONDS >= end)); then
		"$S" lgr show
		"$S" link show
		st_fail "expected link group $lgr alone, SINGLE, link 1 ACTIVE alone: $got, links $links"
	fi
	vm_nap 0.5
done
echo "after: link group $lgr, SINGLE, link 1"
vm_sync "$ST_KEY-done" || exit 1
