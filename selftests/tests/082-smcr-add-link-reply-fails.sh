#!/bin/bash
# DESC: a client's added link that fails after its CONFIRM LINK reply went out, with a connection already on it: deleted as a lost link, the connection moves to the first link and its data arrives byte-exact
# SMOKE: no
# PEER: yes
# TIMEOUT: 150
#
# With smcr_max_links_per_lgr 2 on both VMs, a's first connection to b
# makes the link group and b adds a second link. a, the client, makes the
# new link ACTIVE before it replies to b's CONFIRM LINK on it (b may name
# it in an Accept as soon as the reply is there); test_add_link_fail_ms
# 20000 on a fails a's ADD LINK flow 20 s after that reply went out, as if
# the send had failed. Meanwhile a's second connection comes: b puts it on
# the new link (the least used), a finds it there. Asserts:
#  - the second connection is on link 2 on a before the flow fails (else
#    the test proved nothing);
#  - a's link group then has one link, link 1, ACTIVE: link 2 was deleted
#    as a lost link (a's DELETE LINK, b's exchange);
#  - both connections are on link 1 then, and move their data byte-exact
#    over SMC-R (the hook is off by then: b may add a link again).
# Before, the failed flow tore link 2 down as a link that never came up,
# without moving its connection: the second connection was left on a link
# without device (conn->lnk->sdev NULL), and its next send or receive
# (or a sock_diag dump of it) dereferenced NULL.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
B=$(st_size 1M 256K)
st_no_lgrs 60 || st_fail "link groups of earlier tests did not end"
st_param smcr_max_links_per_lgr 2 || exit 1
st_param lgr_linger_ms 60000 || exit 1
if [[ $SMCR_ROLE == a ]]; then
	# 20 s: the second connection's handshake and the polls of `smcr -j
	# link show | jq` (1-3 s each on a slow machine's debug kernel) must
	# see it on link 2 before the flow fails; 8 s were too few there
	st_param test_add_link_fail_ms 20000 || exit 1
fi
vm_sync "$ST_KEY-params" || exit 1

# link2_conns: connections on link 2 of this VM's link group ("" if none)
link2_conns() {
	"$SMCR_TOOLS/bin/smcr" -j link show | jq -r '.[] | select(.link_id == 2 and .state == "ACTIVE") | .conns'
}

case $SMCR_ROLE in
b) S="--family smc --conns 1 --mode duplex --bytes $B --expect-mode smcr --timeout 120s"
   # shellcheck disable=SC2086
   { st_serve_bg c1 server $S --port "$P" && st_serve_bg c2 server $S --port $((P + 1)); } || exit 1
   rc=0
   st_wait_all || rc=1
   st_no_lgrs 30 || rc=1
   exit $rc ;;
a) st_await c1 && st_await c2 || exit 1
   : >"$ST_TMP/hold"
   C=(client --family smc --addr "$SMCR_PEER_IP" --mode duplex --bytes "$B" --expect-mode smcr
      --hold 100s --hold-file "$ST_TMP/hold" --timeout 120s)
   rc=0
   "$SMCTEST" "${C[@]}" --port "$P" &
   p1=$!
   st_cleanup "kill $p1 2>/dev/null"
   # the new link is ACTIVE here from just before a's reply
   if got=$(st_await_two_links 30); then
	"$SMCTEST" "${C[@]}" --port $((P + 1)) &
	p2=$!
	st_cleanup "kill $p2 2>/dev/null"
	on2=
	for ((i = 0; i < 60; i++)); do
		on2=$(link2_conns)
		[[ $on2 == 1 ]] && break
		vm_nap 0.1
	done
	"$SMCR_TOOLS/bin/smcr" link show
	[[ $on2 == 1 ]] || { echo "the second connection is not on link 2 (${on2:-no link 2}): nothing tested"; rc=1; }
	# the flow fails; link 2 is deleted
	for ((i = 0; i < 150; i++)); do
		links=$(st_links)
		[[ $links =~ ^[0-9]+\ client\ 1\ ACTIVE$ ]] && break
		vm_nap 0.2
	done
	echo "links after the failed flow: $links"
	[[ $links =~ ^[0-9]+\ client\ 1\ ACTIVE$ ]] || { echo "expected link 1 alone, ACTIVE"; rc=1; }
	on1=$("$SMCR_TOOLS/bin/smcr" -j link show | jq -r '.[] | select(.link_id == 1) | .conns')
	[[ $on1 == 2 ]] || { echo "link 1 carries ${on1:-no} connection(s), expected both"; rc=1; }
	st_param test_add_link_fail_ms 0 || rc=1
   else
	echo "$got"
	rc=1
   fi
   rm -f "$ST_TMP/hold"
   wait "$p1" || { echo "the first connection failed"; rc=1; }
   [[ -n ${p2:-} ]] && { wait "$p2" || { echo "the second connection failed"; rc=1; }; }
   st_no_lgrs 30 || rc=1
   exit $rc ;;
esac
