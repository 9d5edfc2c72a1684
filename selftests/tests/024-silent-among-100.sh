#!/bin/bash
# DESC: 100 concurrent handshakes complete while one silent CLC client is pending; the silent one is dropped later
# SMOKE: no
# PEER: yes
# TIMEOUT: 240
#
# Role b: smcr server with test_clc_without_option=1 and clc_timeout_ms long
# enough (8 s stock, 15 s debug) that the silent connection is still in its
# handshake when the others are done; --conns 100 --concurrent, every
# accepted socket must be PEERDECL / NOSMCRDEV and pass a checksummed sink.
# Role a: first a `clc-peer --script silence` client connects and sends
# nothing; then 100 concurrent smcr clients (NOSMCRDEV, tiny checksummed
# sink payloads). Asserts (ordering, not timing): all 100 complete while the
# silent clc-peer is still waiting (its process has not seen a drop yet), and
# afterwards the silent connection is dropped by the server (EOF/reset, no
# byte) and was never accepted (the server accepted exactly the 100, each
# with the expected reason). The server keeps its listener open (--hold) until
# role a has seen that drop, so it comes from clc_timeout_ms, not from the
# listener closing.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module (test_clc_without_option)"
P=$ST_PORT
TMO=$(st_size 8000 15000)
st_param use_roce N || exit 1	# the outcome asserted is NOSMCRDEV

case $SMCR_ROLE in
b) st_param test_clc_without_option Y || exit 1
   st_param clc_timeout_ms "$TMO" || exit 1
   # --hold: the listener stays open after the 100 (closing it would abort
   # the silent handshake) until role a has seen the silent one dropped.
   st_serve_bg srv server --family smc --port "$P" --conns 100 --concurrent --mode sink \
	--expect-reason PEERDECL --expect-peer-diag NOSMCRDEV --hold 180s --timeout 200s || exit 1
   vm_get "$ST_KEY-done" 190 >/dev/null || echo "no word from role a"
   rm -f "$ST_TMP/srv.ready"
   st_wait_all ;;
a) st_await srv || exit 1
   out=$ST_TMP/silent.out
   st_silent_peer "$out" "$((TMO / 1000 + 60))s" 200s
   spid=$SILENT_PID
   cat "$out"
   rc=0
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --conns 100 --mode sink \
	--bytes "$(st_size 16K 1K)" --expect-reason NOSMCRDEV --timeout 200s || rc=1
   if kill -0 "$spid" 2>/dev/null; then
	echo "ordering ok: the 100 handshakes completed while the silent one is still pending"
   else
	cat "$out"
	echo "FAIL: the silent connection ended before the 100 others completed"
	rc=1
   fi
   wait "$spid" || { echo "FAIL: silent clc-peer did not see its connection dropped"; rc=1; }
   vm_put "$ST_KEY-done" 1
   cat "$out"
   exit $rc ;;
esac
