#!/bin/bash
# DESC: SO_LINGER with a time: close() waits for the peer's close, at most the linger time
# SMOKE: no
# PEER: yes
# TIMEOUT: 120
#
# a's client sends 1 KiB over SMC-R, sets SO_LINGER {1, T} and closes.
#   1. T = 20 s; b's application reads, holds its socket 3 s, closes.
#      Asserts: a's close() returned only after b's close (it took at
#      least 2 s) and well before T (less than 15 s).
#   2. T = 3 s; b's application holds its socket until a is done.
#      Asserts: a's close() took at least 2 s (it waited) and returned
#      without b (less than 15 s); once b closes, no connection is left.
# The bounds only tell waiting from not waiting; durations are for
# `make bench`. Both applications are Python under smc_run.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
st_param data_path Y || exit 1
vm_sync "$ST_KEY-params" || exit 1

case $SMCR_ROLE in
b) rm -f "$ST_TMP/go"
   st_py_server "$P" <<'EOF2' || exit 1
n = len(c.recv(65536))
time.sleep(3)
c.close()
print(f"server 1: read {n} bytes, closed after 3 s", flush=True)
c, _ = ls.accept()
n = len(c.recv(65536))
for _ in range(600):
    if os.path.exists(tmp + "/go"):
        break
    time.sleep(0.1)
c.close()
print(f"server 2: read {n} bytes, closed when a was done", flush=True)
EOF2
   pid=$ST_PY_PID
   vm_put "$ST_KEY-srv" ok
   vm_get "$ST_KEY-a-done" 120 >/dev/null
   : >"$ST_TMP/go"
   wait "$pid" || st_fail "b: the server failed" ;;
a) vm_get "$ST_KEY-srv" 60 >/dev/null || st_fail "server never listened"
   "$ST_SMC_RUN" /usr/bin/python3 - "$SMCR_PEER_IP" "$P" <<'EOF2'
import socket, struct, sys, time
addr, port = sys.argv[1], int(sys.argv[2])
ok = True
for t, lo, what in ((20, 2, "b's close"), (3, 2, "the linger time")):
    s = socket.create_connection((addr, port))
    s.sendall(b"x" * 1024)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, t))
    t0 = time.monotonic()
    s.close()
    d = time.monotonic() - t0
    good = lo <= d < 15
    print(f"client: SO_LINGER {t} s: close() took {d:.1f} s, waiting for {what}: {'ok' if good else 'WRONG'}", flush=True)
    ok = ok and good
sys.exit(0 if ok else 1)
EOF2
   rc=$?
   vm_put "$ST_KEY-a-done" "$rc"
   [[ $rc == 0 ]] || st_fail "a: close() did not linger for the peer's close" ;;
esac
vm_sync "$ST_KEY-done" || exit 1
st_await_lgr_conns 0 10 || st_fail "connections left in the link group"
