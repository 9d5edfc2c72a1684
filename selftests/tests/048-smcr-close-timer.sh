#!/bin/bash
# DESC: close timer: a peer that never closes its end does not strand our RMBE; after close_timeout_ms we reuse it, silently after our C
# SMOKE: no
# PEER: yes
# TIMEOUT: 120
#
# a closes an SMC-R connection (after an echo of 64 KiB) whose server
# application on b echoes to EOF and shuts down writing but keeps its
# socket open, so b never sends its C (RFC 7609 4.8.1, PeerCloseWait2).
# With close_timeout_ms=1000 on a, asserts:
#   - the connection leaves a's link group (its RMBE is given back) while
#     b's application still holds its socket;
#   - b's socket then reports no error (SO_ERROR 0): a's C said it sends
#     no more control messages (A.4), so its timer gives the RMBE back
#     without an A (4.8.1: "no additional RDMA writes ... can occur");
#   - once b closes, no connection is left in either link group.
# b's server is a few lines of Python under smc_run (AF_INET -> AF_SMC).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
st_param data_path Y || exit 1
st_param close_timeout_ms 1000 || exit 1
vm_sync "$ST_KEY-params" || exit 1

case $SMCR_ROLE in
b) rm -f "$ST_TMP/go"
   st_py_server "$P" <<'EOF' || exit 1
n = 0
while True:
    b = c.recv(65536)
    if not b:
        break
    c.sendall(b)
    n += len(b)
c.shutdown(socket.SHUT_WR)
print(f"server: echoed {n} bytes, EOF; shut down writing, holding the socket", flush=True)
for _ in range(600):
    if os.path.exists(tmp + "/go"):
        break
    time.sleep(0.1)
err = c.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
print(f"server: SO_ERROR {errno.errorcode.get(err, err)}", flush=True)
sys.exit(0 if err == 0 else 1)
EOF
   pid=$ST_PY_PID
   vm_put "$ST_KEY-srv" ok
   vm_get "$ST_KEY-freed" 60 >/dev/null
   [[ $(st_lgr_conns) == 1 ]] || st_fail "b: the held connection is not in the link group"
   : >"$ST_TMP/go"
   wait "$pid" || st_fail "b: a sent something after its C (SO_ERROR set)" ;;
a) vm_get "$ST_KEY-srv" 60 >/dev/null || st_fail "server never listened"
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode echo --bytes 64K \
	--expect-mode smcr --timeout 30s || st_fail "client failed"
   st_await_lgr_conns 0 10
   "$SMCR_TOOLS/bin/smcr" lgr show
   n=$(st_lgr_conns)
   vm_put "$ST_KEY-freed" "$n"
   [[ $n == 0 ]] || st_fail "a: the connection still holds its RMBE after the close timer" ;;
esac
vm_sync "$ST_KEY-done" || exit 1
st_await_lgr_conns 0 10 || st_fail "connections left in the link group"
