#!/bin/bash
# DESC: smcr <-> Linux smc.ko: urgent data (MSG_OOB) both ways over SMC-R v2, as on TCP, counted as SMC-R urgent data on both sides
# SMOKE: no
# DEBUG: no
# PEER: yes
# TIMEOUT: 200
#
# One VM runs smcr, the other Linux's in-tree SMC (selftests/run --interop).
# Urgent data first from a to b, then from b to a: the receiving VM runs a
# Python server, the sending VM a Python client, both under smc_run, three
# connections each way:
#   1. "abcdefgh", send(MSG_OOB) "X", "ijkl": the receiver gets POLLPRI and
#      SIGURG; a read stops at the mark ("abcdefgh"); recv(MSG_OOB) returns
#      "X" once, a second one fails with EINVAL; the stream goes on with
#      "ijkl" (the byte is not in it), then EOF;
#   2. the same with SO_OOBINLINE on the receiver: the read stops at the
#      mark, SIOCATMARK is 1 there, recv(MSG_OOB) fails with EINVAL, the
#      stream goes on with "Xijkl";
#   3. the sender fills the receiver's window (sends until EAGAIN, until
#      another try 1 s later still finds no room) while the receiver does
#      not read, says so (file -> vm_put -> file), then sends the urgent
#      byte (blocking in send(MSG_OOB): it is announced as pending, RFC
#      7609 4.7.6) and an 8-byte trailer with the fill length; the
#      receiver, told the window is full, then reads everything: the
#      urgent byte once by recv(MSG_OOB) on POLLPRI, the fill and the
#      trailer intact around it. A Linux receiver takes this connection
#      with SO_OOBINLINE (the urgent byte must then follow the fill in
#      the stream): without it Linux never moves its consumer cursor past
#      an urgent byte that came while its reader already stood just before
#      it (smc_rx_recv_urg() sets SMC_URG_READ before its
#      smc_rx_update_consumer() call, which skips the byte only in state
#      SMC_URG_VALID), so a sender that holds further data until the
#      peer's cursor passes its urgent byte (RFC 7609 4.7.5 step 3; smcr,
#      and Linux's own sender, which waits for an empty peer RMBE) waits
#      for ever: seen here with smcr sending, the 8-byte trailer never
#      went out.
# SIOCATMARK at the mark without SO_OOBINLINE (connection 1) is asserted
# on an smcr receiver only: Linux skips the urgent byte as soon as a read
# reaches it (smc_rx_update_consumer()), so its SIOCATMARK (consumer cursor
# one before the urgent cursor) reads 0 there, also between two Linux
# peers. (smctest probe oob, used between smcr peers, is not used here: its
# full-window case takes the first EAGAIN as a full peer window, but a
# Linux sender returns EAGAIN once its own 64 KiB send buffer is full, with
# room left in smcr's 128 KiB RMB, so its urgent byte arrives at once.)
# SMC-R is asserted through each side's own SMC statistics (`smcr -j
# stats`, smcr's or Linux's netlink, SMC-R technology): the urgent data
# counter grows by at least 3 send(MSG_OOB) as sender plus the
# recv(MSG_OOB) returning the byte as receiver (2 on smcr, 1 on Linux) on
# each VM, and no connection fell back to TCP (fallback counters
# unchanged).
source "$ST_DIR/lib.sh"
st_need_rxe
P=$ST_PORT
S=$SMCR_TOOLS/bin/smcr

cat >"$ST_TMP/oob.py" <<'PY'
import errno, fcntl, os, select, signal, socket, struct, sys, time
role, addr, port, tmp, impl = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
SIOCATMARK = 0x8905
def check(ok, what):
    if not ok:
        print(f"{role} on {impl}: FAIL: {what}", flush=True)
        sys.exit(1)
def say(what):
    print(f"{role} on {impl}: {what}", flush=True)
def diag():		# this side's SMC sockets on the port, for a failure
    import subprocess
    subprocess.run([os.environ.get("SMCTEST", "smctest"), "diag", "--kv", "--port", str(port)])

def receiver():
    sigurg = [0]
    signal.signal(signal.SIGURG, lambda *_: sigurg.__setitem__(0, sigurg[0] + 1))
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", port))
    ls.listen(4)
    open(tmp + "/ready", "w").close()
    def accept(inline):
        c, _ = ls.accept()
        if inline:
            c.setsockopt(socket.SOL_SOCKET, socket.SO_OOBINLINE, 1)
        fcntl.fcntl(c, fcntl.F_SETOWN, os.getpid())
        c.sendall(b"g")		# the sender goes on once the options are set
        return c
    def wait(c, ev):
        p = select.poll()
        p.register(c, ev)
        r = p.poll(20000)
        return r[0][1] if r else 0
    def atmark(c):
        return struct.unpack("i", fcntl.ioctl(c, SIOCATMARK, b"\0" * 4))[0]
    def oob_einval(c, what):
        try:
            b = c.recv(1, socket.MSG_OOB)
            check(False, f"{what}: recv(MSG_OOB) returned {b!r}, expected EINVAL")
        except OSError as e:
            check(e.errno == errno.EINVAL, f"{what}: recv(MSG_OOB) failed with {errno.errorcode.get(e.errno)}, expected EINVAL")
    def rest(c):
        out = b""
        while True:
            check(wait(c, select.POLLIN) != 0, "no data or EOF in 20 s")
            b = c.recv(65536)
            if not b:
                return out
            out += b

    c = accept(False)
    check(wait(c, select.POLLPRI) & select.POLLPRI, "conn1: no POLLPRI")
    a = c.recv(100)
    check(a == b"abcdefgh", f"conn1: read before the mark returned {a!r}")
    m = atmark(c)
    if impl == "smcr":
        check(m == 1, "conn1: SIOCATMARK 0 at the mark")
    u = c.recv(1, socket.MSG_OOB)
    check(u == b"X", f"conn1: recv(MSG_OOB) returned {u!r}")
    oob_einval(c, "conn1, second")
    r = rest(c)
    check(r == b"ijkl", f"conn1: after the mark {r!r}, expected b'ijkl'")
    check(sigurg[0] > 0, "conn1: no SIGURG")
    c.close()
    say(f"conn1 ok: POLLPRI, SIGURG, read stops at the mark (SIOCATMARK {m}), recv(MSG_OOB) once, byte not in the stream")

    c = accept(True)
    check(wait(c, select.POLLPRI) & select.POLLPRI, "conn2: no POLLPRI")
    a = c.recv(100)
    check(a == b"abcdefgh", f"conn2: read before the mark returned {a!r}")
    check(atmark(c) == 1, "conn2: SIOCATMARK 0 at the mark")
    oob_einval(c, "conn2, SO_OOBINLINE")
    r = rest(c)
    check(r == b"Xijkl", f"conn2: from the mark {r!r}, expected b'Xijkl'")
    c.close()
    say("conn2 ok: SO_OOBINLINE: read stops at the mark, SIOCATMARK 1, the byte stays in the stream")

    inline = impl == "linux"	# see the test's header
    c = accept(inline)
    for _ in range(600):	# until the sender filled the window
        if os.path.exists(tmp + "/go"):
            break
        time.sleep(0.1)
    else:
        check(False, "conn3: the sender never filled the window")
    time.sleep(1)		# the sender blocks in send(MSG_OOB)
    stream, urgent = b"", 0
    while True:
        ev = wait(c, select.POLLIN | select.POLLPRI)
        if ev == 0:
            say(f"conn3: {len(stream)} bytes and {urgent} urgent byte(s) read, then no event in 20 s")
            diag()
        check(ev != 0, "conn3: no event in 20 s")
        if ev & select.POLLPRI and not inline and urgent == 0:
            u = c.recv(1, socket.MSG_OOB)
            check(u == b"X", f"conn3: recv(MSG_OOB) returned {u!r}")
            urgent += 1
            continue
        b = c.recv(65536)
        if not b:
            break
        stream += b
    c.close()
    check(len(stream) >= 8, "conn3: short stream")
    fill = struct.unpack("Q", stream[-8:])[0]
    check(stream[:fill] == b"f" * fill, "conn3: the fill is damaged")
    if inline:
        check(fill + 9 == len(stream), f"conn3: {len(stream)} bytes, the sender sent {fill} + 1 + 8")
        check(stream[fill:fill + 1] == b"X", "conn3: the urgent byte is not in the stream after the fill")
        say(f"conn3 ok: urgent byte into a full window ({fill} bytes), SO_OOBINLINE: in the stream, intact around it")
    else:
        check(urgent == 1, f"conn3: urgent byte read {urgent} times")
        check(fill + 8 == len(stream), f"conn3: {len(stream)} bytes, the sender sent {fill} + 8")
        say(f"conn3 ok: urgent byte into a full window ({fill} bytes), read once, the stream intact around it")

def sender():
    def dial():
        s = socket.create_connection((addr, port))
        check(s.recv(1) == b"g", "no go from the receiver")
        return s
    for _ in range(2):
        s = dial()
        s.sendall(b"abcdefgh")
        check(s.send(b"X", socket.MSG_OOB) == 1, "send(MSG_OOB)")
        s.sendall(b"ijkl")
        s.close()
    s = dial()
    s.setblocking(False)
    fill, chunk = 0, b"f" * 16384
    while True:
        grew = 0
        while True:
            try:
                n = s.send(chunk)
            except BlockingIOError:
                break
            fill += n
            grew += n
        if not grew and fill:
            break
        time.sleep(1)
    open(tmp + "/filled", "w").close()
    s.setblocking(True)
    check(s.send(b"X", socket.MSG_OOB) == 1, "send(MSG_OOB) into a full window")
    say(f"conn3: urgent byte sent after {fill} bytes")
    s.settimeout(30)
    try:
        s.sendall(struct.pack("Q", fill))
    except socket.timeout:
        say("conn3: the trailer after the urgent byte not sent in 30 s")
        diag()
        sys.exit(1)
    s.close()
    say(f"sent 3 urgent bytes, the last after {fill} bytes that filled the window")

receiver() if role == "receiver" else sender()
PY

counters() { "$S" -j stats | jq -r '"\(.smcr.urgent) \(.fallback.client + .fallback.server)"'; }
read -r urg0 fb0 <<<"$(counters)" || st_fail "smcr stats failed"
[[ -n ${fb0:-} ]] || st_fail "smcr stats gave no counters"
vm_sync "$ST_KEY-start" || exit 1

# oob FROM PORT: urgent data from role FROM to the other role
oob() {
	local from=$1 port=$2 t=$ST_TMP/$1 pid rc
	mkdir -p "$t"
	if [[ $SMCR_ROLE != "$from" ]]; then
		"$ST_SMC_RUN" /usr/bin/python3 "$ST_TMP/oob.py" receiver - "$port" "$t" "$ST_IMPL" &
		pid=$!
		for ((i = 0; i < 100; i++)); do [[ -e $t/ready ]] && break; vm_nap 0.1; done
		vm_put "$ST_KEY-rcv-$from" ok
		# connection 3: read once the sender filled the window
		[[ $(vm_get "$ST_KEY-filled-$from" 60) == 1 ]] && : >"$t/go"
		wait "$pid"
	else
		vm_get "$ST_KEY-rcv-$from" 60 >/dev/null || { echo "no receiver"; return 1; }
		"$ST_SMC_RUN" /usr/bin/python3 "$ST_TMP/oob.py" sender "$SMCR_PEER_IP" "$port" "$t" "$ST_IMPL" &
		pid=$!
		for ((i = 0; i < 600; i++)); do
			[[ -e $t/filled ]] && break
			kill -0 "$pid" 2>/dev/null || break
			vm_nap 0.1
		done
		vm_put "$ST_KEY-filled-$from" "$([[ -e $t/filled ]] && echo 1 || echo 0)"
		wait "$pid"
	fi
	rc=$?
	vm_sync "$ST_KEY-end-$from" || return 1
	return $rc
}

rc=0
echo "=== urgent data a -> b"
oob a "$P" || rc=1
echo "=== urgent data b -> a"
oob b $((P + 1)) || rc=1
((rc == 0)) || st_fail "urgent data semantics on $ST_IMPL (role $SMCR_ROLE)"
read -r urg1 fb1 <<<"$(counters)"
echo "$ST_IMPL: SMC-R urgent data count $urg0 -> $urg1, fallbacks $fb0 -> $fb1"
want=5
[[ $ST_IMPL == linux ]] && want=4
((urg1 - urg0 >= want)) ||
	st_fail "$ST_IMPL: urgent data count grew by $((urg1 - urg0)), expected at least $want"
((fb1 == fb0)) || st_fail "$ST_IMPL: $((fb1 - fb0)) connection(s) fell back to TCP"
