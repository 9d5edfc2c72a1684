#!/bin/bash
# DESC: SMC-R v2 through an IPv4 gateway route on both sides: v2, data intact, link groups not direct
# SMOKE: no
# PEER: yes
# TIMEOUT: 200
#
# Each VM gets 203.0.113.<1|2>/32 on eth0 and a route to the other's /32
# via the other's 192.0.2.x address, so the RoCE v2 GIDs (the /32
# addresses) are on no common subnet and each side's route to the other's
# GID has a gateway. A duplex connection a -> 203.0.113.2 asserts:
#   - SMC-R on both sides (each side's own sock_diag, --expect-mode) and
#     the data byte-exact (duplex: both sides verify what they receive);
#   - on both sides, the link group whose link has the peer's 203.0.113.x
#     GID is version 2.1 and reports direct=false (netlink
#     SMC_NLA_LGR_R_V2_DIRECT through `smcr -j lgr show`), and no other
#     link group is there.
# Before routed SMC-R v2 this connection fell back: the server refused
# version 2 (NOROUTE) and version 1's subnet rule (DIFFPREFIX). The
# addresses and routes are removed at the end (EXIT trap).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
S=$SMCR_TOOLS/bin/smcr
B=$(st_size 4M 256K)
# this VM's and the peer's routed address: 203.0.113.<host part of 192.0.2.x>
ME=203.0.113.${SMCR_LOCAL_IP##*.}
PEER=203.0.113.${SMCR_PEER_IP##*.}

cleanup() {
	ip route del "$PEER/32" via "$SMCR_PEER_IP" dev eth0 2>/dev/null
	ip addr del "$ME/32" dev eth0 2>/dev/null
	"$S" ueid flush >/dev/null
	st_params_restore
}

# long enough for the checks after the connection ended
st_param lgr_linger_ms 5000 || exit 1
trap cleanup EXIT
# earlier tests' link groups linger out first
st_no_lgrs 60 || st_fail "earlier link groups did not end"
if ! "$S" ueid flush >/dev/null || ! "$S" ueid add SMCR-V2-ROUTED >/dev/null; then
	st_fail "ueid add"
fi
ip addr add "$ME/32" dev eth0 || st_fail "ip addr add $ME/32"
st_host_route_via "$PEER" "$SMCR_PEER_IP" "$ME" eth0 || st_fail "no gateway route"
vm_sync "$ST_KEY-routes" || exit 1

st_duplex_smcr routed "$PEER" "$B" || st_fail "not SMC-R or data wrong"

got=$(st_lgr_of_peer "$(st_gid4 "$PEER")") || st_fail "smcr lgr/link show"
[[ $got == "2.1 direct=false" ]] || st_fail "link group to $PEER: '$got', want '2.1 direct=false'"
[[ $(st_lgr_count) == 1 ]] || st_fail "link groups: $("$S" -j lgr show)"
vm_sync "$ST_KEY-done" || exit 1
st_no_lgrs 60 || st_fail "link groups did not end"
