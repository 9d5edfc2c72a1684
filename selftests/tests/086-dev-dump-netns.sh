#!/bin/bash
# DESC: the RoCE device dump (unprivileged netlink) counts each port's links of the caller's namespace only: another namespace sees none of this one's
# SMOKE: yes
# PEER: yes
# TIMEOUT: 120
#
# With one SMC-R connection held between the VMs (a link group of one
# link on each, in the initial namespace: smcr_max_links_per_lgr 1, so
# that no second link is being added while the test counts), each VM
# dumps its RoCE devices (`smcr -j dev show`) in the initial namespace
# and in a namespace of its own without SMC. Asserts, on both VMs: the
# initial namespace's ports count exactly the links `smcr link show`
# lists there (one); the other namespace's ports count 0 links (it still
# sees the devices). Before,
# every port reported its device's users of every namespace, so the other
# namespace saw this one's link (and a two-port device counted each link
# on both ports). Soft-RoCE only carries traffic in the initial namespace
# (tools/testing/vm/README.md), so the links are there and the other
# namespace only looks. Cost: one connection, a few dumps.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
st_param smcr_max_links_per_lgr 1 || exit 1
NS=smcr-st086
SMCR=$SMCR_TOOLS/bin/smcr

# port_links [NETNS]: the links the device dump counts on all ports
port_links() {
	local pre=()
	[[ -n ${1-} ]] && pre=(ip netns exec "$1")
	"${pre[@]}" "$SMCR" -j dev show | jq '[.. | objects | .links? | numbers] | add // 0'
}

# devices [NETNS]: RoCE devices the dump lists
devices() {
	local pre=()
	[[ -n ${1-} ]] && pre=(ip netns exec "$1")
	"${pre[@]}" "$SMCR" -j dev show | jq length
}

check() {
	local own mine other devs
	own=$("$SMCR" -j link show | jq length) || st_fail "smcr link show failed"
	mine=$(port_links) || st_fail "smcr dev show failed"
	other=$(port_links "$NS") || st_fail "smcr dev show in $NS failed"
	devs=$(devices "$NS")
	echo "links listed here: $own; the dump counts $mine here, $other in $NS ($devs devices there)"
	((own == 1)) || st_fail "expected one link here, listed $own"
	((devs >= 1)) || st_fail "namespace $NS sees no RoCE device: nothing tested"
	((mine == own)) || st_fail "the dump counts $mine links here, the link listing $own"
	((other == 0)) || st_fail "namespace $NS sees $other links of another namespace"
}

st_no_lgrs 60 || st_fail "link groups of earlier tests did not end"
st_await_dev_links 0 60 || st_fail "links of earlier tests were not torn down"
ip netns del "$NS" 2>/dev/null
ip netns add "$NS" || st_fail "cannot make namespace $NS"
st_cleanup "ip netns del $NS 2>/dev/null"

hold=$ST_TMP/hold
case $SMCR_ROLE in
b) st_serve_bg srv server --family smc --port "$P" --conns 1 --mode sink --bytes 4K \
	--expect-mode smcr --timeout 100s || exit 1
   st_await_lgr_count 1 60 || st_fail "no link group"
   vm_sync "$ST_KEY-held" || exit 1
   check
   vm_sync "$ST_KEY-checked" || exit 1
   st_wait_all || exit 1 ;;
a) st_await srv || exit 1
   : >"$hold"
   "$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes 4K \
	--hold 100s --hold-file "$hold" --expect-mode smcr --timeout 110s &
   cpid=$!
   st_await_lgr_count 1 60 || st_fail "no link group"
   vm_sync "$ST_KEY-held" || exit 1
   check
   vm_sync "$ST_KEY-checked" || exit 1
   rm -f "$hold"
   wait "$cpid" || st_fail "the client failed" ;;
esac
