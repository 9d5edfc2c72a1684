#!/bin/bash
# DESC: a client's CONFIRM RKEY that meets the server's ADD LINK flow is confirmed at once, and the client's RKey pairs give the new link its RToken: the connection is SMC-R, the link group ends up with two links
# SMOKE: no
# PEER: yes
# TIMEOUT: 120
#
# Both VMs allow two links per link group; b (the server) holds its ADD
# LINK flow open for 2 s before its ADD LINK (test_add_link_hold_ms). Right
# after a's first contact, a second connection whose client socket sets
# SO_RCVBUF 16K needs a new RMB on a (another size class), so a's CONFIRM
# RKEY reaches b during that flow. b confirms it at once (not with RFC
# 7609 3.5.5.3.1's C: net/smc/llc_msg.c says why); a joins the ADD LINK
# exchange once its own is complete, and its continuation names that RMB
# with its RKey on the new link. Asserts: both connections SMC-R and
# byte-exact on both sides, and afterwards one link group of type SYM with
# two ACTIVE links on both sides.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 2 || exit 1
[[ $SMCR_ROLE == b ]] && { st_param test_add_link_hold_ms 2000 || exit 1; }
P=$ST_PORT
B=$(st_size 256K 64K)

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
rc=0
case $SMCR_ROLE in
b) st_serve_bg s server --family smc --port "$P" --conns 2 --concurrent --bytes "$B" \
	--expect-mode smcr --timeout 60s || exit 1
   st_wait_all || rc=1 ;;
a) st_await s || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --conns 1 --bytes "$B" \
	--expect-mode smcr --timeout 30s || rc=1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --conns 1 --bytes "$B" \
	--rcvbuf 16K --expect-mode smcr --timeout 30s || rc=1 ;;
esac
for ((i = 0; i < 100; i++)); do
	lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || exit 1
	got="$(jq -r '[.[].type] | join(",")' <<<"$lgrs") $("$SMCR_TOOLS/bin/smcr" -j link show |
		jq '[.[] | select(.state == "ACTIVE")] | length')"
	[[ $got == "SYM 2" ]] && break
	vm_nap 0.2
done
echo "link group: $got"
[[ $got == "SYM 2" ]] || rc=1
exit $rc
