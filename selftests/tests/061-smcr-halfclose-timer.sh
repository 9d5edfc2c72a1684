#!/bin/bash
# DESC: close timer after shutdown(SHUT_WR): a silent peer is aborted, a peer that keeps sending is not
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# RFC 7609 4.8.1 asks for a close timer in PeerCloseWait1/2, also when
# the application only shut down writing. With close_timeout_ms=2000 on
# a, two connections whose client (a) sends 1 KiB and shuts down writing:
#   1. b's application reads to EOF and then stays silent, holding its
#      socket. Asserts: a's blocked recv() fails with ECONNRESET (a
#      aborted: A); b's socket reports ECONNRESET; a's connection leaves
#      its link group while b's application still holds its socket (b
#      answered the A).
#   2. b's application keeps sending 100 bytes every 0.5 s for 6 s (three
#      timer periods), then closes. Asserts: meanwhile sock_diag shows a
#      in PEERCLOSEWAIT1 and b in APPCLOSEWAIT1; a receives all 1200
#      bytes and then EOF, no error (each message of b restarted a's
#      timer).
#   3. b's application sends 1 MiB at once and closes; a's application
#      reads nothing for 6 s, then everything. Asserts: a reads the 1 MiB
#      and EOF, no error (b waited for room in a's RMBE: the wait was
#      a's, and its timer restarted).
# Both applications are a few lines of Python under smc_run.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
st_param data_path Y || exit 1
st_param close_timeout_ms 2000 || exit 1
vm_sync "$ST_KEY-params" || exit 1

case $SMCR_ROLE in
b) rm -f "$ST_TMP/go1" "$ST_TMP/eof2"
   st_py_server "$P" <<'EOF' || exit 1
def drain(s):
    n = 0
    while True:
        b = s.recv(65536)
        if not b:
            return n
        n += len(b)
n = drain(c)
print(f"server 1: {n} bytes, EOF; silent now", flush=True)
for _ in range(600):
    if os.path.exists(tmp + "/go1"):
        break
    time.sleep(0.1)
err = c.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
print(f"server 1: SO_ERROR {errno.errorcode.get(err, err)}", flush=True)
c.close()
c, _ = ls.accept()
n = drain(c)
print(f"server 2: {n} bytes, EOF; sending for 6 s", flush=True)
open(tmp + "/eof2", "w").close()
for _ in range(12):
    c.sendall(b"y" * 100)
    time.sleep(0.5)
c.close()
print("server 2: closed", flush=True)
c, _ = ls.accept()
n = drain(c)
c.sendall(b"z" * 1048576)
c.close()
print(f"server 3: {n} bytes, EOF; sent 1 MiB, closed", flush=True)
sys.exit(0 if err == errno.ECONNRESET else 1)
EOF
   pid=$ST_PY_PID
   vm_put "$ST_KEY-srv" ok
   freed=$(vm_get "$ST_KEY-freed" 60)
   : >"$ST_TMP/go1"
   for ((i = 0; i < 300; i++)); do [[ -e $ST_TMP/eof2 ]] && break; vm_nap 0.1; done
   st=$(st_conn_state "$P")
   echo "b, half-closed by a, sending: $st"
   wait "$pid" || st_fail "b: a's abort did not reach b's socket (SO_ERROR is not ECONNRESET)"
   [[ $freed == 0 ]] || st_fail "a's connection still held its RMBE after the abort"
   [[ $st == APPCLOSEWAIT1 ]] || st_fail "b's socket in state '$st', not APPCLOSEWAIT1" ;;
a) vm_get "$ST_KEY-srv" 60 >/dev/null || st_fail "server never listened"
   rm -f "$ST_TMP/done1" "$ST_TMP/go2" "$ST_TMP/shut2"
   "$ST_SMC_RUN" /usr/bin/python3 - "$SMCR_PEER_IP" "$P" "$ST_TMP" <<'EOF' &
import errno, os, socket, sys, time
addr, port, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def half_closed():
    s = socket.create_connection((addr, port))
    s.sendall(b"x" * 1024)
    s.shutdown(socket.SHUT_WR)
    s.settimeout(30)
    return s
def read_all(s, label):
    got = 0
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            got += len(b)
        print(f"{label}: {got} bytes, then EOF", flush=True)
    except OSError as e:
        print(f"{label}: {got} bytes, then {errno.errorcode.get(e.errno, e)}", flush=True)
        got = -1
    s.close()
    return got
s = half_closed()
try:
    b = s.recv(100)
    print(f"client 1: recv returned {len(b)} bytes", flush=True)
    ok1 = False
except OSError as e:
    print(f"client 1: recv failed: {errno.errorcode.get(e.errno, e)}", flush=True)
    ok1 = e.errno == errno.ECONNRESET
s.close()
open(tmp + "/done1", "w").close()
for _ in range(600):
    if os.path.exists(tmp + "/go2"):
        break
    time.sleep(0.1)
s = half_closed()
open(tmp + "/shut2", "w").close()
ok2 = read_all(s, "client 2") == 1200
s = half_closed()
time.sleep(6)
ok3 = read_all(s, "client 3, after reading nothing for 6 s") == 1048576
sys.exit(0 if ok1 and ok2 and ok3 else 1)
EOF
   pid=$!
   for ((i = 0; i < 600; i++)); do [[ -e $ST_TMP/done1 ]] && break; vm_nap 0.1; done
   [[ -e $ST_TMP/done1 ]] || st_fail "a: the first connection never ended"
   st_await_lgr_conns 0 10
   n=$(st_lgr_conns)
   vm_put "$ST_KEY-freed" "$n"
   : >"$ST_TMP/go2"
   for ((i = 0; i < 300; i++)); do [[ -e $ST_TMP/shut2 ]] && break; vm_nap 0.1; done
   st=$(st_conn_state "$P")
   echo "a, half-closed, b sending: $st"
   wait "$pid" || st_fail "a: the silent peer was not aborted (ECONNRESET), or a talking or waiting one was"
   [[ $n == 0 ]] || st_fail "a: the aborted connection still holds its RMBE"
   [[ $st == PEERCLOSEWAIT1 ]] || st_fail "a's socket in state '$st', not PEERCLOSEWAIT1" ;;
esac
vm_sync "$ST_KEY-done" || exit 1
st_await_lgr_conns 0 10 || st_fail "connections left in the link group"
