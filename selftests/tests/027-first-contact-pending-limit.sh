#!/bin/bash
# DESC: at most 8 first contacts pending per namespace on a server: peers that never send their Confirm cannot take every link of the device
# SMOKE: no
# PEER: yes
# TIMEOUT: 150
#
# Role b: smcr server with test_clc_without_option=1 and clc_timeout_ms
# 20000. Role a: eight `clc-peer --script silent-after-accept` clients,
# each with its own peer ID (--peer-id-tag), each get an Accept: b now has
# eight link groups in their first contact, each holding a QP of rxe0.
# Then a's own smcr client (a ninth peer ID) connects. Asserts:
#  - b declines that first contact with MEM (the client: PEERDECL with
#    diagnosis MEM) and both fall back to TCP, data byte-exact - instead
#    of a ninth pending link group (without the limit, enough silent
#    clients take all of a device's links, in every namespace);
#  - the eight silent connections are all still pending then, and each is
#    dropped by b later (its Confirm timeout);
#  - after that a new connection is SMC-R again (first contact).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
B=$(st_size 256K 64K)
case $SMCR_ROLE in
b) st_param test_clc_without_option Y || exit 1
   st_param clc_timeout_ms 20000 || exit 1
   # --hold: the silent handshakes end by their timeout, not by the listener
   st_serve_bg srv server --family smc --port "$P" --conns 1 --mode sink --expect-mode fallback \
	--expect-reason MEM --hold 60s --timeout 90s || exit 1
   vm_get "$ST_KEY-done" 80 >/dev/null || echo "no word from role a"
   rm -f "$ST_TMP/srv.ready"
   st_wait_all || exit 1
   st_serve again server --family smc --port $((P + 1)) --conns 1 --mode sink --expect-mode smcr \
	--timeout 60s ;;
a) st_await srv || exit 1
   pids=()
   for i in 1 2 3 4 5 6 7 8; do
	st_silent_peer "$ST_TMP/silent$i.out" 60s 90s silent-after-accept "got Accept" --peer-id-tag "$i"
	pids+=("$SILENT_PID")
   done
   rc=0
   if ! st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes "$B" \
	--expect-mode fallback --expect-reason PEERDECL --expect-peer-diag MEM --timeout 60s; then
	echo "FAIL: the ninth first contact was not declined with MEM"
	rc=1
   fi
   for i in "${!pids[@]}"; do
	kill -0 "${pids[i]}" 2>/dev/null ||
		{ echo "FAIL: silent connection $((i + 1)) ended too early"; rc=1; }
   done
   for i in "${!pids[@]}"; do
	wait "${pids[i]}" || { cat "$ST_TMP/silent$((i + 1)).out"; echo "FAIL: silent $((i + 1))"; rc=1; }
   done
   vm_put "$ST_KEY-done" 1
   st_await again || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode sink --bytes "$B" \
	--expect-mode smcr --timeout 60s || rc=1
   exit $rc ;;
esac
