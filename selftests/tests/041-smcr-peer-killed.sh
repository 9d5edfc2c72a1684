#!/bin/bash
# DESC: peer process killed (kill -9) mid-transfer over SMC-R: the sender gets ECONNRESET, both link groups lose the connection
# SMOKE: no
# PEER: yes
# TIMEOUT: 150
#
# Asserts: an SMC-R client streaming to an smcr server whose process is
# stopped 2 s after sock_diag lists their SMC-R connection and killed with
# SIGKILL 2 s later fails with ECONNRESET
# (the dying socket had unread data, so it closes with an abnormal close,
# as TCP resets), well
# before its timeout; afterwards the link group of each VM counts 0
# connections (the RMBEs were given back) and its links are still ACTIVE
# (one, or two: smcr_max_links_per_lgr).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
P=$ST_PORT

st_param lgr_linger_ms 60000 || exit 1
vm_sync "$ST_KEY-params" || exit 1
case $SMCR_ROLE in
b) # a slow reader: 4 KiB per read, so the client's data piles up
   st_serve_bg srv server --family smc --port "$P" --mode sink --msgsize 4K --timeout 100s || exit 1
   pid=${ST_PIDS[0]}
   # the client's connection is up (SMC-R), then it streams for 2 s
   end=$((SECONDS + 60))
   until kv=$(st_conn_kv "$P") && [[ -n $kv ]]; do
	((SECONDS < end)) || { kill -9 "$pid"; st_fail "no SMC-R connection from the client"; }
   done
   echo "connection: $kv"
   sleep 2
   # stopped first, so that data is left unread when it dies: a reader
   # that happened to have drained the RMBE would close with C (no reset,
   # as TCP sends FIN then) and the client would see EPIPE
   kill -STOP "$pid"
   sleep 2
   kill -9 "$pid"
   wait "$pid" 2>/dev/null
   echo "server killed" ;;
a) st_await srv || exit 1
   out=$("$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink \
	--bytes 4G --timeout 60s 2>&1)
   rc=$?
   echo "$out" | tail -3
   ((rc != 0)) || st_fail "client did not fail"
   grep -q ECONNRESET <<<"$out" || st_fail "client did not see ECONNRESET" ;;
esac
vm_sync "$ST_KEY-done" || exit 1
st_await_lgr_conns 0 10 || st_fail "connections left in the link group"
"$SMCR_TOOLS/bin/smcr" lgr show
role=$([[ $SMCR_ROLE == a ]] && echo client || echo server)
st_links_active "$role" || st_fail "a link not ACTIVE after the abort"
