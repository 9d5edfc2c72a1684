#!/bin/bash
# DESC: passive abort: the peer's A is answered at once, unread data is purged, while our application still holds the socket
# SMOKE: no
# PEER: yes
# TIMEOUT: 120
#
# a's client writes 64 KiB over SMC-R that b's server application does not
# read, then resets the connection (SO_LINGER 0: a sends A, RFC 7609 4.8.2
# 1A, and waits in PeerAbortWait for b's A). b's application keeps its
# socket open, unread. Asserts (close_timeout_ms stays 60 s, so a's close
# timer cannot be what ends it):
#   - b answers A without waiting for its application (4.8.2 2B): a's
#     connection leaves a's link group within 10 s;
#   - b purged the unread bytes (2A): b's first recv() then fails with
#     ECONNRESET, returning none of the 64 KiB;
#   - meanwhile sock_diag shows b's socket Closed (state CLOSE): its A
#     went out, the RMBE waits only for the application's close();
#   - once b closes, neither link group holds a connection.
# Both applications are a few lines of Python under smc_run.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
st_param data_path Y || exit 1
vm_sync "$ST_KEY-params" || exit 1

case $SMCR_ROLE in
b) rm -f "$ST_TMP/inq" "$ST_TMP/go"
   st_py_server "$P" <<'EOF' || exit 1
import fcntl, termios
def inq():
    return struct.unpack("i", fcntl.ioctl(c, termios.FIONREAD, b"\0" * 4))[0]
for _ in range(300):
    if inq() >= 65536:
        break
    time.sleep(0.1)
n = inq()
print(f"server: {n} bytes wait unread", flush=True)
with open(tmp + "/inq", "w") as f:
    f.write(str(n))
for _ in range(600):
    if os.path.exists(tmp + "/go"):
        break
    time.sleep(0.1)
try:
    b = c.recv(65536)
    print(f"server: recv returned {len(b)} bytes after the abort", flush=True)
    sys.exit(1)
except OSError as e:
    print(f"server: recv failed with {errno.errorcode.get(e.errno, e.errno)}", flush=True)
    sys.exit(0 if e.errno == errno.ECONNRESET else 1)
EOF
   pid=$ST_PY_PID
   vm_put "$ST_KEY-srv" ok
   for ((i = 0; i < 300; i++)); do [[ -s $ST_TMP/inq ]] && break; vm_nap 0.1; done
   vm_put "$ST_KEY-inq" "$(<"$ST_TMP/inq")"
   freed=$(vm_get "$ST_KEY-freed" 60)
   # its TCP connection is reset, so its local port reads 0: the only
   # SMC-R socket on b with connection info
   st=''
   kv=$("$SMCTEST" diag --kv | grep "mode=smcr.*token=" | head -n1)
   [[ $kv =~ state=([A-Z0-9_]+) ]] && st=${BASH_REMATCH[1]}
   echo "b's socket after the abort: ${st:-not found}"
   : >"$ST_TMP/go"
   wait "$pid" || st_fail "b: unread data was not purged, or recv did not fail with ECONNRESET"
   [[ $freed == 0 ]] || st_fail "b did not answer a's A while its application held the socket"
   [[ $st == CLOSE ]] || st_fail "b's socket in state '$st' after answering the abort, not CLOSE" ;;
a) vm_get "$ST_KEY-srv" 60 >/dev/null || st_fail "server never listened"
   "$ST_SMC_RUN" /usr/bin/python3 - "$SMCR_PEER_IP" "$P" "$ST_TMP" <<'EOF' &
import os, socket, struct, sys, time
addr, port, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = socket.create_connection((addr, port))
s.sendall(b"x" * 65536)
print("client: 64 KiB sent", flush=True)
for _ in range(600):
    if os.path.exists(tmp + "/abort"):
        break
    time.sleep(0.1)
s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
s.close()
print("client: reset (SO_LINGER 0)", flush=True)
EOF
   pid=$!
   inq=$(vm_get "$ST_KEY-inq" 60)
   echo "b holds $inq unread bytes"
   [[ $(st_lgr_conns) == 1 ]] || st_fail "a: the connection is not in the link group (fell back?)"
   : >"$ST_TMP/abort"
   wait "$pid" || st_fail "a: the client failed"
   st_await_lgr_conns 0 10
   n=$(st_lgr_conns)
   vm_put "$ST_KEY-freed" "$n"
   ((inq == 65536)) || st_fail "b never had the 64 KiB waiting"
   [[ $n == 0 ]] || st_fail "a: the aborted connection still holds its RMBE (no A from b)" ;;
esac
vm_sync "$ST_KEY-done" || exit 1
st_await_lgr_conns 0 10 || st_fail "connections left in the link group"
