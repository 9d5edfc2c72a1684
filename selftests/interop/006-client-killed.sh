#!/bin/bash
# DESC: smcr <-> Linux smc.ko: a client killed (SIGKILL) mid-stream: the server's connection ends, the link group stays and carries a new SMC-R connection
# SMOKE: no
# DEBUG: no
# PEER: yes
# TIMEOUT: 200
#
# One VM runs smcr, the other Linux's in-tree SMC (selftests/run --interop).
# a's smctest client streams (sink, up to 4 GiB) to a reader on b (Python
# under smc_run, reading until EOF or an error); both ends are checked
# SMC-R (each side's own sock_diag), then a kills its client with SIGKILL
# while it sends. Asserts:
#   - b's reader sees its connection end (EOF or ECONNRESET: the killed
#     client had no unread data, so its close is a normal one with its
#     data sent, or an abort) within 30 s of the kill;
#   - neither VM's link groups hold a connection afterwards (20 s);
#   - a new connection a->b (sink, 1 MiB; 256 KiB on the debug kernel) is
#     SMC-R on both sides and byte-exact, and each VM then has the same
#     link groups (ids) as during the killed stream: the link group was
#     kept and reused, not replaced.
# It starts without link groups: one of an earlier test that ended its
# linger during this one failed the comparison (make check, 2026-12-04,
# Linux the client: [2,3] during the stream, [2] after).
source "$ST_DIR/lib.sh"
st_need_rxe
st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
P=$ST_PORT
B2=$(st_size 1M 256K)
lgr_ids() { "$SMCR_TOOLS/bin/smcr" -j lgr show | jq -c '[.[].id] | sort'; }

rc=0
case $SMCR_ROLE in
b) st_py_server "$P" >"$ST_TMP/reader.out" 2>&1 <<'PY' ||
n, end = 0, None
while end is None:
    try:
        b = c.recv(262144)
    except OSError as e:
        end = errno.errorcode.get(e.errno, str(e.errno))
        break
    if not b:
        end = "EOF"
    n += len(b)
c.close()
print(f"reader: connection ended with {end} after {n} bytes", flush=True)
PY
	{ vm_put "$ST_KEY-srv" fail; cat "$ST_TMP/reader.out"; st_fail "the reader never listened"; }
   pid=$ST_PY_PID
   vm_put "$ST_KEY-srv" ok
   kv=$(st_conn_kv "$P")
   echo "$ST_IMPL diag: ${kv:-no SMC-R connection on port $P}"
   r=fail
   [[ $kv == *mode=smcr* ]] && r=ok
   vm_put "$ST_KEY-b-smcr" "$r"
   [[ $r == ok ]] || rc=1
   ids=$(lgr_ids)
   vm_get "$ST_KEY-killed" 90 >/dev/null || st_fail "the client was never killed"
   t0=$SECONDS
   while kill -0 "$pid" 2>/dev/null && ((SECONDS - t0 < 30)); do vm_nap 0.2; done
   if kill -0 "$pid" 2>/dev/null; then
	echo "FAILED: the reader's connection did not end within 30 s of the kill"
	"$SMCTEST" diag --port "$P"
	kill -9 "$pid"
	rc=1
   else
	wait "$pid" || rc=1
	echo "the reader ended $((SECONDS - t0)) s after the kill"
   fi
   cat "$ST_TMP/reader.out"
   grep -Eq "ended with (EOF|ECONNRESET) after [0-9]+ bytes" "$ST_TMP/reader.out" || rc=1 ;;
a) [[ $(vm_get "$ST_KEY-srv" 60) == ok ]] || st_fail "the reader never listened"
   "$SMCTEST" client --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes 4G --timeout 150s \
	>"$ST_TMP/client.out" 2>&1 &
   pid=$!
   kv=$(st_conn_kv "$P")
   echo "$ST_IMPL diag: ${kv:-no SMC-R connection on port $P}"
   [[ $kv == *mode=smcr* ]] || rc=1
   [[ $(vm_get "$ST_KEY-b-smcr" 60) == ok ]] || rc=1
   ids=$(lgr_ids)
   sleep 2
   kv2=$("$SMCTEST" diag --kv --port "$P" | grep "mode=smcr.*token=" | head -n1)
   echo "sending: $kv2"
   kill -9 "$pid"
   wait "$pid" 2>/dev/null
   vm_put "$ST_KEY-killed" 1
   echo "client killed" ;;
esac
((rc == 0)) || st_fail "the killed stream: not SMC-R on both sides, or the reader did not end cleanly"
vm_sync "$ST_KEY-ended" || exit 1
st_await_lgr_conns 0 20 || st_fail "$ST_IMPL: connections left in the link groups after the kill"

case $SMCR_ROLE in
b) st_serve again server --port $((P + 1)) --mode sink --expect-mode smcr --timeout 90s || rc=1 ;;
a) st_await again && st_smctest client --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode sink --bytes "$B2" \
	--expect-mode smcr --timeout 90s || rc=1 ;;
esac
((rc == 0)) || st_fail "the connection after the kill failed or was not SMC-R"
after=$(lgr_ids)
echo "$ST_IMPL link groups: during the stream $ids, after the new connection $after"
[[ $after == "$ids" && $ids != "[]" ]] || st_fail "$ST_IMPL: the link groups changed"
