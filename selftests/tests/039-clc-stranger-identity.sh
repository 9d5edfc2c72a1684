#!/bin/bash
# DESC: a stranger claiming another peer's v1 identity (peer ID, GID, MAC, QP) from another address gets nothing of that peer's link group, as client or as server, and ends nothing of it
# SMOKE: no
# PEER: yes
# TIMEOUT: 150
#
# A version 1 CLC message's peer ID, GID, MAC and QP are the sender's
# word; the TCP handshake proves only its address. Both VMs run with
# test_clc_without_option=1 and a with test_clc_version=1. a's smcr client
# first proposes to b's clc-peer (script srv-decline), which logs a's peer
# ID, GID and MAC. Then a holds an honest SMC-R connection to b's server
# (port P+1) while strangers - secondary addresses on eth0, other hosts of
# the LAN - claim the identities of that link group's ends:
#  - stranger client (a's 192.0.2.250 -> b:P+2, clc-peer script
#    stranger-sync-decline): a's identity in its Proposal. Its Accept must
#    be a first contact (F set: a link group of its own; before, a
#    subsequent contact on a's link group naming b's QP of the link); its
#    Decline with the S-bit then ends nothing of a's (before: the link
#    group). b's server falls back PEERDECL/SYNCERR, data byte-exact.
#  - stranger server (b's 192.0.2.251:P+3, script srv-stranger-accept):
#    an Accept with F clear naming b's peer ID, GID and MAC (from the first
#    stranger's Accept) and b's QP of the link (rdma res on a). a's client
#    must decline NOSMCRDEV without the S-bit and fall back, data
#    byte-exact (before, it joined the link: its RDMA writes went to b with
#    the stranger's rkey, which ended the link).
#  - the honest connection then moves its data byte-exact over SMC-R.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module (test_clc_without_option)"
st_need_rxe
P=$ST_PORT
B=$(st_size 1M 256K)
# the stranger of this VM: another host on eth0's LAN
stranger=${SMCR_LOCAL_IP%.*}.$([[ $SMCR_ROLE == a ]] && echo 250 || echo 251)
st_no_lgrs 30 || st_fail "link groups of earlier tests did not end"
st_param test_clc_without_option Y || exit 1
case $SMCR_ROLE in
b) st_serve_bg harvest clc-peer --role server --family tcp --port "$P" --script srv-decline \
	--bytes 64K --drop-wait 20s --timeout 60s >"$ST_TMP/harvest.log" || { cat "$ST_TMP/harvest.log"; exit 1; }
   st_wait_all || { cat "$ST_TMP/harvest.log"; exit 1; }
   cat "$ST_TMP/harvest.log"
   id=$(sed -n 's/.*Proposal ([0-9]* bytes, peer ID \([0-9a-f]*\) GID \([0-9a-f]*\) MAC \([0-9a-f]*\)).*/\1 \2 \3/p' \
	"$ST_TMP/harvest.log")
   [[ -n $id ]] || st_fail "no peer ID, GID and MAC in clc-peer's log"
   vm_put "$ST_KEY-id" "$id"
   S="--family smc --conns 1 --mode duplex --timeout 120s"
   # shellcheck disable=SC2086
   { st_serve_bg honest server $S --port $((P + 1)) --bytes "$B" --expect-mode smcr &&
     st_serve_bg stranger server $S --port $((P + 2)) --bytes 64K --expect-mode fallback \
	--expect-reason PEERDECL --expect-peer-diag SYNCERR; } || exit 1
   read -r id gid mac qpn <<<"$(vm_get "$ST_KEY-claims" 90)"
   rc=0
   if [[ -n $qpn ]] && ip addr add "$stranger/24" dev eth0; then
	st_cleanup "ip addr del $stranger/24 dev eth0 2>/dev/null"
	st_serve_bg impostor clc-peer --role server --family tcp --bind "$stranger" --port $((P + 3)) \
		--script srv-stranger-accept --claim-peer-id "$id" --claim-gid "$gid" --claim-mac "$mac" \
		--claim-qpn "$qpn" --bytes 64K --drop-wait 20s --timeout 60s || rc=1
	st_wait_all || rc=1
	ip addr del "$stranger/24" dev eth0
   else
	vm_put "$ST_KEY-impostor" fail
	st_wait_all
	rc=1
   fi
   # the strangers' link groups and a's version 1 one are no later test's
   st_no_lgrs 30 || rc=1
   exit $rc ;;
a) st_param test_clc_version 1 || exit 1
   st_await harvest || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes 64K \
	--expect-reason PEERDECL --expect-peer-diag NOSMCRDEV --timeout 60s || exit 1
   read -r id gid mac <<<"$(vm_get "$ST_KEY-id")"
   [[ -n $mac ]] || st_fail "b sent no identity"
   echo "a's identity: peer ID $id GID $gid MAC $mac"
   st_await honest && st_await stranger || exit 1
   ip addr add "$stranger/24" dev eth0 || st_fail "cannot add $stranger to eth0"
   st_cleanup "ip addr del $stranger/24 dev eth0 2>/dev/null"
   rc=0
   : >"$ST_TMP/hold"
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode duplex --bytes "$B" \
	--expect-mode smcr --hold 90s --hold-file "$ST_TMP/hold" --timeout 120s &
   cpid=$!
   st_cleanup "kill $cpid 2>/dev/null"
   claims=
   if st_await_lgr_conns 1 60; then
	st_smctest clc-peer --role client --addr "$SMCR_PEER_IP" --port $((P + 2)) --bind "$stranger" \
		--script stranger-sync-decline --claim-peer-id "$id" --claim-gid "$gid" --claim-mac "$mac" \
		--bytes 64K --drop-wait 20s --timeout 60s >"$ST_TMP/stranger.log" 2>&1 || rc=1
	cat "$ST_TMP/stranger.log"
	# b's end of the link group: the Accept's identity, the QP of our link
	# on rxe0, the device of that identity's GID (a second link is on rxe1)
	qpn=$(rdma -j res show qp | jq -r '[.[] | select(.type == "RC" and (.ifname | split("/")[0]) == "rxe0") |
		.rqpn] | first // empty')
	claims="$(sed -n 's/.*got Accept, .* contact, peer ID \([0-9a-f]*\) GID \([0-9a-f]*\) MAC \([0-9a-f]*\) QP.*/\1 \2 \3/p' \
		"$ST_TMP/stranger.log") $qpn"
	echo "b's identity and QP: $claims"
   else
	rc=1
   fi
   ip addr del "$stranger/24" dev eth0
   vm_put "$ST_KEY-claims" "$claims"
   if st_await impostor; then
	st_smctest client --family smc --addr "${SMCR_PEER_IP%.*}.251" --port $((P + 3)) --mode duplex \
		--bytes 64K --expect-mode fallback --expect-reason NOSMCRDEV --timeout 60s || rc=1
   else
	rc=1
   fi
   rm -f "$ST_TMP/hold"
   wait "$cpid" || { echo "the honest connection failed"; rc=1; }
   st_no_lgrs 30 || rc=1
   exit $rc ;;
esac
