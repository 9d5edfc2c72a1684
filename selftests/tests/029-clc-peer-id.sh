#!/bin/bash
# DESC: our CLC peer ID is a random instance ID and the MAC of one of our RoCE ports (RFC 7609 A.2.1), the same in every message
# SMOKE: no
# PEER: yes
# TIMEOUT: 90
#
# Role b's smcr clients (test_clc_without_option=1) propose to role a's
# plain-TCP clc-peer (script srv-decline: it declines, the clients fall back
# with PEERDECL and move their data over TCP), twice. Asserts: both
# Proposals carry one peer ID whose last 6 bytes are the MAC of b's eth0 or
# eth1 (the netdevs of b's RoCE ports rxe0 and rxe1). Before, they were
# zero: the peer ID was 2 random bytes and nothing else.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module (test_clc_without_option)"
st_need_rxe
P=$ST_PORT
case $SMCR_ROLE in
a) macs=$(vm_get "$ST_KEY-macs") || exit 1
   echo "b's eth0 and eth1: $macs"
   ids=()
   for i in 0 1; do
	st_serve_bg "srv$i" clc-peer --role server --family tcp --port $((P + i)) --script srv-decline \
		--bytes 64K --drop-wait 20s --timeout 60s >"$ST_TMP/clc$i.log" || { cat "$ST_TMP/clc$i.log"; exit 1; }
	st_wait_all || { cat "$ST_TMP/clc$i.log"; exit 1; }
	cat "$ST_TMP/clc$i.log"
	ids+=("$(sed -n 's/.*Proposal ([0-9]* bytes, peer ID \([0-9a-f]*\) .*/\1/p' "$ST_TMP/clc$i.log")")
   done
   echo "peer IDs: ${ids[*]}"
   [[ -n ${ids[0]} && ${ids[0]} == "${ids[1]}" ]] || st_fail "the two Proposals carry different peer IDs: ${ids[*]}"
   mac=${ids[0]:4}
   [[ " ${macs//:/} " == *" $mac "* ]] || st_fail "peer ID ${ids[0]}: its MAC part $mac is none of b's RoCE netdevs' ($macs)" ;;
b) st_param test_clc_without_option Y || exit 1
   vm_put "$ST_KEY-macs" "$(cat /sys/class/net/eth0/address /sys/class/net/eth1/address | tr '\n' ' ')"
   for i in 0 1; do
	st_await "srv$i" || exit 1
	st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + i)) --mode duplex --bytes 64K \
		--expect-reason PEERDECL --expect-peer-diag NOSMCRDEV --timeout 60s || exit 1
   done ;;
esac
