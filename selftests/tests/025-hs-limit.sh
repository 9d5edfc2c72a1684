#!/bin/bash
# DESC: hs_limit=1 with a silent handshake pending: a new smcr client gets PEERNOSMC and data flows
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Role b: smcr server, hs_limit=1, clc_timeout_ms 5 s (15 s debug). Role a: a
# `clc-peer --script silence` client takes the only handshake slot (b waits
# until sock_diag lists the silent child in its handshake; b has
# test_clc_without_option=1 throughout: the override must not apply to a
# connection whose SYN-ACK the limit stripped of the SMC option). Asserts: a new smcr
# client then falls back with exactly PEERNOSMC 0x03010000 (the server's
# SYN-ACK lacked the SMC option: no CLC byte), the server's accepted socket
# records PEERNOSMC too, duplex data is byte-exact both ways, and the silent
# connection is later dropped by the server (EOF/reset, no byte).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module (hs_limit)"
P=$ST_PORT
TMO=$(st_size 5000 15000)

case $SMCR_ROLE in
b) st_param hs_limit 1 || exit 1
   st_param clc_timeout_ms "$TMO" || exit 1
   st_param test_clc_without_option Y || exit 1
   st_serve_bg srv server --family smc --port "$P" --conns 1 --mode duplex --bytes "$(st_size 4M 256K)" \
	--expect-reason PEERNOSMC --timeout 150s || exit 1
   vm_get "$ST_KEY-silent-connected" 60 >/dev/null || st_fail "no word from role a"
   # the listener's accept worker started the silent child's handshake:
   # the only slot is taken
   st_await_hs_child "$P" 30 || { vm_put "$ST_KEY-param-off" fail; st_fail "the silent connection holds no handshake"; }
   vm_put "$ST_KEY-param-off" ok
   st_wait_all ;;
a) st_await srv || exit 1
   out=$ST_TMP/silent.out
   st_silent_peer "$out" "$((TMO / 1000 + 60))s" 150s
   spid=$SILENT_PID
   vm_put "$ST_KEY-silent-connected" 1
   [[ $(vm_get "$ST_KEY-param-off" 60) == ok ]] || st_fail "b saw no handshake of the silent connection"
   rc=0
   kill -0 "$spid" 2>/dev/null || { echo "FAIL: silent connection already ended"; rc=1; }
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode duplex \
	--bytes "$(st_size 4M 256K)" --expect-reason PEERNOSMC --timeout 120s || rc=1
   wait "$spid" || { echo "FAIL: silent clc-peer did not see its connection dropped"; rc=1; }
   cat "$out"
   exit $rc ;;
esac
