#!/bin/bash
# DESC: smcr <-> Linux smc.ko: SMC-R v2 through an IPv4 gateway route on both sides, SMC-R both sides, both link groups not direct
# SMOKE: no
# DEBUG: no
# PEER: yes
# TIMEOUT: 240
#
# One VM runs smcr, the other Linux's in-tree SMC (selftests/run --interop).
# For this test only, eth1 trades its 198.18.0.x/24 for 203.0.113.<1|2>/32
# with a route to the other's /32 via 198.18.0.<peer> (onlink, a permanent
# neighbour entry with the peer's eth1 MAC: no host owns that address), so
# each side's route to the other's RoCE v2 GID has a gateway (Linux:
# smc_ib_find_route(), uses_gateway; smcr: smc_ib_v2_route()). eth1 keeps
# no other IPv4 address because Linux's v2 GID is the first IPv4-mapped
# RoCE v2 GID of the interface, not necessarily the connection's address
# (smc_ib_determine_gid_rcu()): on eth0, next to 192.0.2.x, Linux would
# name 192.0.2.x and smcr declines NOSMCRDEV (the GID must be the TCP
# address). Everything is put back at the end, also on failure.
# A duplex connection a -> 203.0.113.2 asserts on each side, from its own
# sock_diag: SMC-R, data byte-exact; then the link group whose link has
# the peer GID 203.0.113.x is of version 2.1 and reports direct=false
# (SMC_NLA_LGR_R_V2_DIRECT, smc.ko's and smcr's netlink). The link groups
# end (the smcr side's linger) before the addresses go.
source "$ST_DIR/lib.sh"
st_need_rxe
B=$(st_size 4M 1M)
# this VM's and the peer's routed address: 203.0.113.<host part of 192.0.2.x>
ME=203.0.113.${SMCR_LOCAL_IP##*.}
PEER=203.0.113.${SMCR_PEER_IP##*.}
GW=198.18.0.${SMCR_PEER_IP##*.}

OLD=$(ip -j -4 addr show dev eth1 | jq -r '.[0].addr_info[] | "\(.local)/\(.prefixlen)"')
cleanup() {
	local a
	ip route del "$PEER/32" via "$GW" dev eth1 2>/dev/null
	ip neigh del "$GW" dev eth1 2>/dev/null
	ip addr del "$ME/32" dev eth1 2>/dev/null
	for a in $OLD; do
		ip addr replace "$a" dev eth1 || echo "cannot restore $a on eth1"
	done
}
trap cleanup EXIT
trap 'exit 143' TERM
st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_put "$ST_KEY-mac" "$(</sys/class/net/eth1/address)" || exit 1
mac=$(vm_get "$ST_KEY-mac" 60) || st_fail "no eth1 MAC from the peer"
ip -4 addr flush dev eth1 || st_fail "ip addr flush eth1"
ip addr add "$ME/32" dev eth1 || st_fail "ip addr add $ME/32"
ip neigh replace "$GW" lladdr "$mac" dev eth1 nud permanent || st_fail "ip neigh $GW"
st_host_route_via "$PEER" "$GW" "$ME" eth1 onlink || st_fail "no gateway route"
vm_sync "$ST_KEY-routes" || exit 1

st_duplex_smcr routed "$PEER" "$B" || st_fail "$ST_IMPL: not SMC-R or data wrong"

got=$(st_lgr_of_peer "$(st_gid4 "$PEER")") || st_fail "smcr lgr/link show"
[[ $got == "2.1 direct=false" ]] || st_fail "$ST_IMPL: link group to $PEER: '$got', want '2.1 direct=false'"
vm_sync "$ST_KEY-done" || exit 1
st_await_lgr_count 0 90 || st_fail "$ST_IMPL: link groups did not end"
