#!/bin/bash
# DESC: a peer that stalls its first contact after the Accept does not hold up another peer's first contact
# SMOKE: no
# PEER: yes
# TIMEOUT: 150
#
# Role b: smcr server with test_clc_without_option=1 and clc_timeout_ms
# 12000. Role a: first a `clc-peer --script silent-after-accept` client
# (plain TCP, its own peer ID) sends a valid Proposal: b creates a link
# group and its QP for it, sends the Accept (first contact) and waits 12 s
# for a Confirm that never comes. Meanwhile a's own smcr client (another
# peer ID, a's clc_timeout_ms 4000 for the Accept) connects to the same
# listener. Asserts:
#  - that connection is SMC-R on both sides (first contact, data
#    byte-exact) while the silent one is still pending - only connections
#    with the silent one's peer ID may wait for its first contact (before
#    the fix a global first-contact mutex made b hold the Accept until the
#    silent one timed out: a's client gave up after 4 s and fell back);
#  - the silent connection is dropped by b later (its Confirm timeout).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
case $SMCR_ROLE in
b) st_param test_clc_without_option Y || exit 1
   st_param clc_timeout_ms 12000 || exit 1
   # --hold: the silent handshake ends by its timeout, not by the listener
   st_serve_bg srv server --family smc --port "$P" --conns 1 --mode sink --expect-mode smcr \
	--hold 60s --timeout 90s || exit 1
   vm_get "$ST_KEY-done" 80 >/dev/null || echo "no word from role a"
   rm -f "$ST_TMP/srv.ready"
   st_wait_all ;;
a) st_param clc_timeout_ms 4000 || exit 1
   st_await srv || exit 1
   out=$ST_TMP/silent.out
   st_silent_peer "$out" 60s 90s silent-after-accept "got Accept"
   spid=$SILENT_PID
   rc=0
   if ! st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink \
	--bytes "$(st_size 1M 256K)" --expect-mode smcr --timeout 60s; then
	echo "FAIL: the other peer's first contact did not complete over SMC-R"
	rc=1
   elif kill -0 "$spid" 2>/dev/null; then
	echo "ordering ok: the first contact completed while the silent one is still pending"
   else
	echo "FAIL: the silent connection ended before the other first contact completed"
	rc=1
   fi
   wait "$spid" || { echo "FAIL: silent clc-peer did not see its connection dropped"; rc=1; }
   cat "$out"
   vm_put "$ST_KEY-done" 1
   exit $rc ;;
esac
