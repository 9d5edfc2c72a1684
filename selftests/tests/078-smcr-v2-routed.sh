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
#   - the link groups are version 2.1 on both sides and report
#     direct=false (netlink SMC_NLA_LGR_R_V2_DIRECT through
#     `smcr -j lgr show`);
#   - the link's GIDs are the 203.0.113.x addresses.
# Before routed SMC-R v2 the server declined this connection with NOROUTE
# (0x030e0000) and it ran over TCP. The addresses and routes are removed
# at the end (EXIT trap).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
[[ ${SMCR_RXE:-0} == 1 ]] || st_skip "needs Soft-RoCE"
st_smcr_data || st_skip "needs data_path=Y"
S=$SMCR_TOOLS/bin/smcr
P=$ST_PORT
B=$(st_size 4M 256K)
case $SMCR_ROLE in
a) me=1 peer=2 ;;
b) me=2 peer=1 ;;
esac
ME=203.0.113.$me
PEER=203.0.113.$peer
# the IPv4-mapped GID of 203.0.113.N as netlink prints it
gid() { printf '0000:0000:0000:0000:0000:ffff:cb00:71%02x' "$1"; }

cleanup() {
	ip route del "$PEER/32" via "192.0.2.$peer" dev eth0 2>/dev/null
	ip addr del "$ME/32" dev eth0 2>/dev/null
	"$S" ueid flush >/dev/null
	st_params_restore
}

# long enough for the checks after the connection ended
st_param lgr_linger_ms 5000 || exit 1
trap cleanup EXIT
# earlier tests' link groups linger out first
st_await_lgr_count 0 60 || st_fail "earlier link groups did not end"
if ! "$S" ueid flush >/dev/null || ! "$S" ueid add SMCR-V2-ROUTED >/dev/null; then
	st_fail "ueid add"
fi
ip addr add "$ME/32" dev eth0 || st_fail "ip addr add $ME/32"
ip route add "$PEER/32" via "192.0.2.$peer" dev eth0 src "$ME" ||
	st_fail "ip route add $PEER/32 via 192.0.2.$peer"
gw=$(ip -j route get "$PEER" from "$ME" | jq -r '.[0].gateway // empty')
[[ $gw == "192.0.2.$peer" ]] || st_fail "route to $PEER: gateway '$gw', want 192.0.2.$peer"
st_log "route to $PEER via $gw"
vm_sync "$ST_KEY-routes" || exit 1

case $SMCR_ROLE in
b) st_serve_bg routed server --port "$P" --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 100s || st_fail "server"
   st_wait_all || st_fail "server: not SMC-R or data wrong" ;;
a) st_await routed || st_fail "no server"
   st_smctest client --addr "$PEER" --port "$P" --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 100s || st_fail "client: not SMC-R or data wrong" ;;
esac

lgrs=$("$S" -j lgr show) || st_fail "smcr lgr show"
st_log "link groups: $lgrs"
got=$(jq -r '.[] | if .v2 then "\(.v2.version).\(.v2.release)" else "1" end' <<<"$lgrs" |
	sort -u | tr '\n' ' ')
[[ ${got% } == 2.1 ]] || st_fail "link group versions '$got', want '2.1'"
got=$(jq -r '.[] | .v2.direct' <<<"$lgrs" | sort -u | tr '\n' ' ')
[[ ${got% } == false ]] || st_fail "link groups' direct '$got', want 'false'"
links=$("$S" -j link show) || st_fail "smcr link show"
got=$(jq -r '.[] | "\(.gid) \(.peer_gid)"' <<<"$links" | sort -u | tr '\n' ' ')
want="$(gid "$me") $(gid "$peer")"
[[ ${got% } == "$want" ]] || st_fail "link GIDs '$got', want '$want'"
vm_sync "$ST_KEY-done" || exit 1
st_await_lgr_count 0 60 || st_fail "link groups did not end"
