#!/bin/bash
# DESC: smcr <-> Linux smc.ko: close and abort from each side over SMC-R: the other side sees the data then EOF after a close, a reset after an abort
# SMOKE: no
# DEBUG: no
# PEER: yes
# TIMEOUT: 240
#
# One VM runs smcr, the other Linux's in-tree SMC (selftests/run --interop).
# Four connections from a to b, each first exchanging 4 KiB both ways
# (read completely), then checked SMC-R on both
# sides (each side's own sock_diag: mode SMCR with connection info):
#   0. the client closes first: it sends 64 KiB more and close()s; the
#      server reads exactly the 64 KiB, then EOF with SO_ERROR 0;
#   1. the server closes first: likewise the other way round;
#   2. the client aborts: the server sends it 1 KiB that it never reads,
#      and once that arrived (FIONREAD) it sets SO_LINGER {1, 0} and
#      close()s. TCP sends a RST for either reason; SMC-R a CDC with the
#      abort flag (RFC 7609 4.8.2). Linux applies SO_LINGER to its CLC
#      (TCP) socket only and closes an SMC-R connection normally unless
#      unread data is left (smc_close_final()), hence the unread 1 KiB:
#      both implementations abort then;
#   3. the server aborts, likewise.
# The applications are Python under smc_run. The side that did not act is
# blocked in recv() and must see what TCP gives: EOF after a close; after
# an abort, recv() failing with ECONNRESET. Linux's smc_rx_recvmsg() checks
# RCV_SHUTDOWN (set with the abort) before sk_err (ECONNRESET), so on Linux
# recv() returns 0 instead; there SO_ERROR must then hold ECONNRESET (a
# normal close leaves it 0), which still tells the abort from a close.
# smcr, as the receiver of an abort, must fail recv() with ECONNRESET.
# Afterwards neither VM's link groups hold a connection (both ends freed
# theirs, within 20 s).
source "$ST_DIR/lib.sh"
st_need_rxe
P=$ST_PORT
ACTOR=(client server client server)
ACTION=(close close abort abort)

cat >"$ST_TMP/close.py" <<'PY'
import errno, os, socket, struct, sys, time
role, addr, port, actor, action, tmp = sys.argv[1:7]
port = int(port)
def log(*a):
    print(f"{role}:", *a, flush=True)
def recv_exact(s, n):
    got = b""
    while len(got) < n:
        b = s.recv(n - len(got))
        if not b:
            raise RuntimeError(f"EOF after {len(got)} of {n} bytes")
        got += b
    return got
if role == "server":
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", port))
    ls.listen(1)
    open(tmp + "/ready", "w").close()
    s, _ = ls.accept()
    ls.close()
else:
    s = socket.create_connection((addr, port))
mine, theirs = (b"c" if role == "client" else b"s"), (b"s" if role == "client" else b"c")
s.sendall(mine * 4096)
got = recv_exact(s, 4096)
assert got == theirs * 4096, "4 KiB exchange: wrong bytes"
if action == "abort" and role != actor:
    s.sendall(b"u" * 1024)	# left unread by the actor
open(tmp + "/exchanged", "w").close()
log("exchanged 4 KiB each way")
if role == actor:
    for _ in range(600):
        if os.path.exists(tmp + "/act"):
            break
        time.sleep(0.1)
    else:
        log("no go to act")
        sys.exit(1)
    if action == "close":
        s.sendall(b"x" * 65536)
        s.close()
        log("sent 64 KiB and closed")
    else:
        import fcntl, termios
        for _ in range(100):
            inq = struct.unpack("i", fcntl.ioctl(s, termios.FIONREAD, b"\0" * 4))[0]
            if inq >= 1024:
                break
            time.sleep(0.1)
        log(f"{inq} bytes unread")
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
        log("aborted (SO_LINGER 0)")
    sys.exit(0)
s.settimeout(60)
n, end = 0, None
while end is None:
    try:
        b = s.recv(65536)
    except socket.timeout:
        end = "TIMEOUT"
        break
    except OSError as e:
        end = errno.errorcode.get(e.errno, str(e.errno))
        break
    if not b:
        end = "EOF"
    elif b != b"x" * len(b):
        end = "BADDATA"
    n += len(b)
err = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
s.close()
print(f"RESULT bytes={n} end={end} so_error={errno.errorcode.get(err, err) if err else 0}", flush=True)
PY

# check_smcr PORT: this VM's connection on PORT is SMC-R
check_smcr() {
	local kv
	kv=$(st_conn_kv "$1")
	echo "$ST_IMPL diag: ${kv:-no SMC-R connection on port $1}"
	[[ $kv == *mode=smcr* ]]
}

rc=0
for i in 0 1 2 3; do
	port=$((P + i)) actor=${ACTOR[i]} action=${ACTION[i]} t=$ST_TMP/c$i
	mkdir -p "$t"
	me=client
	[[ $SMCR_ROLE == b ]] && me=server
	echo "=== $i: the $actor ${action}s ($me on $ST_IMPL)"
	if [[ $me == server ]]; then
		"$ST_SMC_RUN" /usr/bin/python3 "$ST_TMP/close.py" server - "$port" "$actor" "$action" "$t" \
			>"$t/out" 2>&1 &
		pid=$!
		for ((k = 0; k < 100; k++)); do [[ -e $t/ready ]] && break; vm_nap 0.1; done
		r=fail
		[[ -e $t/ready ]] && r=ok
		vm_put "$ST_KEY-srv$i" "$r"
	else
		[[ $(vm_get "$ST_KEY-srv$i" 60) == ok ]] || st_fail "server $i never listened"
		"$ST_SMC_RUN" /usr/bin/python3 "$ST_TMP/close.py" client "$SMCR_PEER_IP" "$port" "$actor" \
			"$action" "$t" >"$t/out" 2>&1 &
		pid=$!
	fi
	for ((k = 0; k < 300; k++)); do [[ -e $t/exchanged ]] && break; vm_nap 0.1; done
	ok=ok
	check_smcr "$port" || ok=fail
	vm_put "$ST_KEY-chk$i-$SMCR_ROLE" "$ok"
	peer=a
	[[ $SMCR_ROLE == a ]] && peer=b
	pok=$(vm_get "$ST_KEY-chk$i-$peer" 60)
	[[ $ok == ok && $pok == ok ]] || { echo "connection $i not SMC-R on both sides (a/b: $ok/$pok)"; rc=1; }
	# act even so, so that both applications end
	[[ $me == "$actor" ]] && : >"$t/act"
	wait "$pid" || { echo "$me application failed"; rc=1; }
	cat "$t/out"
	if [[ $me != "$actor" ]]; then
		res=$(grep "^RESULT" "$t/out")
		case $action:$ST_IMPL in
		close:*) want="RESULT bytes=65536 end=EOF so_error=0" ;;
		abort:smcr) want="RESULT bytes=0 end=ECONNRESET so_error=0" ;;
		abort:linux) want="RESULT bytes=0 end=EOF so_error=ECONNRESET" ;;
		esac
		if [[ $res == "$want" || ($action:$ST_IMPL == abort:linux &&
			$res == "RESULT bytes=0 end=ECONNRESET so_error=0") ]]; then
			echo "ok: $me on $ST_IMPL saw the $actor's $action: ${res#RESULT }"
		else
			echo "FAILED: $me on $ST_IMPL after the $actor's $action: '$res', expected '$want'"
			rc=1
		fi
	fi
	vm_sync "$ST_KEY-end$i" || exit 1
done
st_await_lgr_conns 0 20 || { echo "$ST_IMPL: connections left in the link groups"; rc=1; }
((rc == 0)) || st_fail "close/abort semantics on $ST_IMPL (role $SMCR_ROLE)"
