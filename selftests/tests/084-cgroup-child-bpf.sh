#!/bin/bash
# DESC: an accepted SMC socket is in its listener's cgroup: a cgroup BPF setsockopt program of that cgroup applies to it, as to a TCP child
# SMOKE: yes
# PEER: yes
# TIMEOUT: 90
#
# Role b mounts cgroup v2 (the VMs' init does not), makes a child cgroup
# and runs a Python server under smc_run (AF_SMC) in it. Once it listens,
# it loads a two-instruction cgroup/setsockopt BPF program (return 0: the
# call fails with EPERM; raw bpf(2), no libbpf) and attaches it to that
# cgroup. Role a connects (SMC-R). Asserts: the listener is an AF_SMC
# socket and setsockopt on it now fails with EPERM (the program works);
# setsockopt on the accepted socket fails with EPERM too; the connection
# is SMC-R (sock_diag). Before, accept_work (a kernel worker) allocated
# the child in the worker's root cgroup: the program did not apply, and
# the child's setsockopt succeeded. Skips on a kernel without cgroup v2 or
# cgroup BPF (the debug kernel). Cost: one connection.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT

case $SMCR_ROLE in
b) grep -qw cgroup2 /proc/filesystems || { vm_put "$ST_KEY-srv" skip; st_skip "kernel without cgroup v2"; }
   CG_ROOT=$ST_TMP/cgroup2
   mkdir -p "$CG_ROOT"
   mount -t cgroup2 none "$CG_ROOT" || { vm_put "$ST_KEY-srv" fail; st_fail "cannot mount cgroup2"; }
   st_cleanup "umount $CG_ROOT"
   CG=$CG_ROOT/smcr-st084
   rmdir "$CG" 2>/dev/null
   mkdir "$CG" || { vm_put "$ST_KEY-srv" fail; st_fail "cannot make cgroup $CG"; }
   st_cleanup "rmdir $CG 2>/dev/null"
   rm -f "$ST_TMP/ready" "$ST_TMP/accepted" "$ST_TMP/go"
   "$ST_SMC_RUN" /usr/bin/python3 - "$CG" "$P" "$ST_TMP" >"$ST_TMP/py.out" 2>&1 <<'EOF' &
import ctypes, errno, os, socket, struct, sys, time
cg, port, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
AF_SMC, NR_BPF = 43, 321
BPF_PROG_LOAD, BPF_PROG_ATTACH = 5, 8
BPF_PROG_TYPE_CGROUP_SOCKOPT, BPF_CGROUP_SETSOCKOPT = 25, 22

def touch(name, text=""):
    with open(os.path.join(tmp, name), "w") as f:
        f.write(text)

def wait_for(name, secs):
    end = time.time() + secs
    while not os.path.exists(os.path.join(tmp, name)):
        if time.time() > end:
            sys.exit("no " + name)
        time.sleep(0.1)

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

def bpf(cmd, attr):
    buf = ctypes.create_string_buffer(attr, len(attr))
    r = libc.syscall(NR_BPF, cmd, buf, len(attr))
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, "bpf(%d): %s" % (cmd, os.strerror(e)))
    return r

def setsockopt_errno(s):
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        return 0
    except OSError as e:
        return e.errno

with open(os.path.join(cg, "cgroup.procs"), "w") as f:
    f.write(str(os.getpid()))
ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("0.0.0.0", port))
ls.listen(1)
fam = ls.getsockopt(socket.SOL_SOCKET, socket.SO_DOMAIN)
# r0 = 0; exit: every setsockopt of the cgroup's sockets fails with EPERM
insns = struct.pack("<BBhi", 0xb7, 0, 0, 0) + struct.pack("<BBhi", 0x95, 0, 0, 0)
ibuf = ctypes.create_string_buffer(insns, len(insns))
lic = ctypes.create_string_buffer(b"GPL")
try:
    prog = bpf(BPF_PROG_LOAD, struct.pack("<IIQQIIQII16sII",
               BPF_PROG_TYPE_CGROUP_SOCKOPT, 2, ctypes.addressof(ibuf),
               ctypes.addressof(lic), 0, 0, 0, 0, 0, b"smcr_st084", 0,
               BPF_CGROUP_SETSOCKOPT))
    cgfd = os.open(cg, os.O_RDONLY | os.O_DIRECTORY)
    bpf(BPF_PROG_ATTACH, struct.pack("<IIII", cgfd, prog,
                                     BPF_CGROUP_SETSOCKOPT, 0))
except OSError as e:
    print("no cgroup BPF:", e)
    touch("ready", "nobpf")
    sys.exit(4)
print("listener: family %d, setsockopt errno %d" % (fam, setsockopt_errno(ls)))
touch("ready", "ok")
c, _ = ls.accept()
print("child: family %d, setsockopt errno %d" %
      (c.getsockopt(socket.SOL_SOCKET, socket.SO_DOMAIN), setsockopt_errno(c)))
touch("accepted")
wait_for("go", 60)
c.close()
EOF
   pid=$!
   # at exit, if not reaped by then (a reaped pid may be another's):
   # killed and reaped before the cgroup's rmdir
   st_cleanup '[[ -n $pid ]] && kill $pid 2>/dev/null; [[ -n $pid ]] && wait $pid'
   for ((i = 0; i < 100; i++)); do [[ -s $ST_TMP/ready ]] && break; vm_nap 0.1; done
   ready=$(cat "$ST_TMP/ready" 2>/dev/null)
   if [[ $ready != ok ]]; then
	wait "$pid"
	rc=$?
	pid=
	cat "$ST_TMP/py.out"
	if [[ $ready == nobpf ]] && ((rc == 4)); then
		vm_put "$ST_KEY-srv" skip
		st_skip "kernel without cgroup BPF setsockopt programs"
	fi
	vm_put "$ST_KEY-srv" fail
	st_fail "the Python server did not come up"
   fi
   vm_put "$ST_KEY-srv" ok
   for ((i = 0; i < 300; i++)); do [[ -e $ST_TMP/accepted ]] && break; vm_nap 0.1; done
   kv=$(st_conn_kv "$P")
   : >"$ST_TMP/go"
   wait "$pid"
   rc=$?
   pid=
   cat "$ST_TMP/py.out"
   ((rc == 0)) || st_fail "the Python server failed"
   echo "sock_diag: $kv"
   [[ -n $kv ]] || st_fail "the accepted connection is not SMC-R"
   grep -q "^listener: family 43, setsockopt errno 1$" "$ST_TMP/py.out" ||
	st_fail "the listener is not AF_SMC, or the program did not apply to it: nothing tested"
   grep -q "^child: family 43, setsockopt errno 1$" "$ST_TMP/py.out" ||
	st_fail "the listener's cgroup BPF program did not apply to the accepted socket" ;;
a) v=$(vm_get "$ST_KEY-srv" 60) || st_fail "no word from the server"
   [[ $v == skip ]] && st_skip "the server's kernel lacks cgroup v2 or cgroup BPF"
   [[ $v == ok ]] || st_fail "the server did not come up"
   "$ST_SMC_RUN" /usr/bin/python3 - "$SMCR_PEER_IP" "$P" <<'EOF' || st_fail "the client failed"
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=60)
while s.recv(4096):
    pass
EOF
   ;;
esac
