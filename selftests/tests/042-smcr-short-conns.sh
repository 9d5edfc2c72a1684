#!/bin/bash
# DESC: 1000 short SMC-R connections one after another (50 on the debug kernel), each byte-exact; nothing left behind
# SMOKE: no
# PEER: yes
# TIMEOUT: 400
#
# Asserts: N sequential connections (connect, 1 KiB each way, close) all run
# over SMC-R with matching checksums, all in one link group per VM, and
# afterwards the link groups count 0 connections.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
P=$ST_PORT
N=$(st_size 1000 50)

st_param lgr_linger_ms 60000 || exit 1
vm_sync "$ST_KEY-params" || exit 1
case $SMCR_ROLE in
b) st_serve srv server --family smc --port "$P" --mode duplex --bytes 1K --conns "$N" \
	--expect-mode smcr --timeout 350s || exit 1 ;;
a) st_await srv || exit 1
   fails=0
   for ((i = 0; i < N; i++)); do
	"$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes 1K \
		--expect-mode smcr --timeout 30s >"$ST_TMP/c.out" 2>&1 || { fails=$((fails + 1)); tail -2 "$ST_TMP/c.out"; }
	((fails > 5)) && break
   done
   echo "$N connections, $fails failed"
   ((fails == 0)) || st_fail "$fails connections failed" ;;
esac
vm_sync "$ST_KEY-done" || exit 1
[[ $(st_lgr_count) == 1 ]] || st_fail "expected one link group"
st_await_lgr_conns 0 10 || st_fail "connections left in the link group"
