#!/bin/bash
# DESC: smcr to smcr: subsequent contacts that need new RMBs on both sides (other SO_RCVBUF size classes) stay SMC-R, one link group, data byte-exact
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Starting without link groups, a's clients connect one after the other to
# b's servers on P..P+3 (duplex, both directions at once). Connection 0 is
# the first contact, with the default RMB element size class (net.smc.rmem,
# 128 KiB) on both sides; connections 1-3 are subsequent contacts whose
# server and client sockets set SO_RCVBUF (and SO_SNDBUF) so that each
# side's RMB element comes from a size class its link group has no RMB of
# yet - server 16K/64K/256K, client 64K/256K/16K (half the doubled
# SO_RCVBUF, rounded up to a class: 200K gives 256 KiB, below rmem_max):
# each new RMB is announced with CONFIRM RKEY (RFC 7609 3.5.5.2.1), by the
# server before its Accept and by the client before its Confirm. Asserts:
#   - every connection is SMC-R on both sides (sock_diag), its data
#     byte-exact both ways;
#   - after the last one, each VM has one link group holding four 256 KiB
#     RMBs (RMB memory 1 MiB): one per size class, all in the link group
#     of the first contact.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
P=$ST_PORT
B=$(st_size 1M 128K)
RMB=262144	# bytes per RMB (buf.c) for every class up to 256 KiB
# per connection: "RCVBUF SNDBUF" of the server and of the client ("-": unset)
SRV=("- -" "16K 32K" "64K 200K" "200K 16K")
CLI=("- -" "64K 16K" "200K 64K" "16K 200K")

bufs() {
	local r s
	read -r r s <<<"$1"
	[[ $r == - ]] || echo "--rcvbuf $r --sndbuf $s"
}

# one link group holding four RMBs
check_lgr() {
	local lgrs n rmb
	lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || { echo "smcr lgr show failed"; return 1; }
	n=$(jq length <<<"$lgrs")
	rmb=$(jq '.[0].rmb_alloc' <<<"$lgrs")
	echo "link groups: $n, RMB memory of the first: $rmb (expected 1 and $((4 * RMB)))"
	[[ $n == 1 && $rmb == $((4 * RMB)) ]] || { echo "$lgrs"; return 1; }
}

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
rc=0
case $SMCR_ROLE in
b) for i in 0 1 2 3; do
	# shellcheck disable=SC2046
	st_serve_bg "s$i" server --family smc --port $((P + i)) --conns 1 --mode duplex --bytes "$B" \
		--expect-mode smcr --timeout 120s $(bufs "${SRV[i]}") || exit 1
   done
   st_wait_all || rc=1 ;;
a) for i in 0 1 2 3; do
	st_await "s$i" || exit 1
	# shellcheck disable=SC2046
	st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + i)) --conns 1 --mode duplex \
		--bytes "$B" --expect-mode smcr --timeout 60s $(bufs "${CLI[i]}") || rc=1
   done ;;
esac
check_lgr || rc=1
exit $rc
