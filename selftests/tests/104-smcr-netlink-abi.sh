#!/bin/bash
# DESC: SMC_GEN_NETLINK wire format as Linux's (raw generic netlink client), kernel-side UEID validation; smc-tools if installed
# SMOKE: no
# PEER: no
# TIMEOUT: 60
#
# Asserts (role a), with a generic netlink client written independently of
# tools/smcr (python3, raw sockets, the numbers of Linux's uapi smc.h):
# GET_SYS_INFO is a one-message dump whose SMC_GEN_SYS_INFO nest has VER=2,
# REL=1, IS_ISM_V2, IS_SMCR_V2=1 (SMC-R v2.1) as u8 and LOCAL_HOST as a 33-byte string;
# GET_STATS nests SMCD_TECH and SMCR_TECH with the histogram / buffer nests
# and every counter as 8 bytes (the two buffer usage gauges, NLA_UINT, as 4
# bytes while they fit), plus the two u64 handshake error counters;
# GET_FBACK_STATS entries (after one fallback) carry TYPE u8, RSN_CODE u32,
# RSN_CNT u16, the totals as u64 in the first entry; the UEID commands take
# smc-tools' format (32 blank-padded characters + NUL) and the kernel
# refuses: lower case, a leading '.', an inner blank, a missing NUL, a wrong
# length (EINVAL or ERANGE), duplicates (EEXIST), a fifth entry (ERANGE), an
# absent UEID on remove (ENOENT); an unknown command gets EOPNOTSUPP; the
# smcr-only reset command rejects attributes. When IBM's smc-tools is
# installed, `smcd info`/`smcr stats` run against the module without error
# (not in Debian 12's amd64 archive: that part is reported as not run).
source "$ST_DIR/lib.sh"
P=$ST_PORT

[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
[[ $SMCR_ROLE == a ]] || exit 0
command -v python3 >/dev/null || st_fail "python3 not installed (tools/testing/vm/deps.txt)"
S=$SMCR_TOOLS/bin/smcr

"$S" stats reset || st_fail "reset failed"
"$S" ueid flush || st_fail "flush failed"
# One fallback per role for the table: AF_SMC client and server on loopback.
st_serve_bg lo server --family smc --bind 127.0.0.1 --port "$P" --mode sink \
	--timeout 30s || exit 1
st_smctest client --family smc --addr 127.0.0.1 --port "$P" --mode sink --bytes 4K --timeout 30s ||
	st_fail "loopback client failed"
st_wait_all || st_fail "loopback server failed"

python3 - "$(hostname)" <<'PY' || st_fail "wire format check failed"
import errno, os, socket, struct, sys

host = sys.argv[1][:32]
NLMSG_ERROR, NLMSG_DONE = 2, 3
F_REQUEST, F_ACK, F_DUMP = 1, 4, 0x300
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
s.bind((0, 0))
seq = 0
fails = 0

def check(cond, what):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails += 1

def nla(t, data):
    n = 4 + len(data)
    return struct.pack("=HH", n, t) + data + b"\0" * ((4 - n % 4) % 4)

def attrs(b):
    out = []
    while len(b) >= 4:
        n, t = struct.unpack_from("=HH", b)
        if n < 4:
            break
        out.append((t & 0x3fff, b[4:n]))
        b = b[(n + 3) & ~3:]
    return out

def amap(b):
    return dict(attrs(b))

def request(fam, cmd, flags, payload=b"", version=1, reserved=0):
    """Returns (errno or 0, [(cmd, attr bytes)])."""
    global seq
    seq += 1
    body = struct.pack("=BBH", cmd, version, reserved) + payload
    s.send(struct.pack("=IHHII", 16 + len(body), fam, F_REQUEST | flags, seq, 0) + body)
    msgs = []
    while True:
        data = s.recv(1 << 16)
        while len(data) >= 16:
            n, t, f, sq, pid = struct.unpack_from("=IHHII", data)
            m = data[16:n]
            data = data[(n + 3) & ~3:]
            if t == NLMSG_DONE:
                return 0, msgs
            if t == NLMSG_ERROR:
                return -struct.unpack_from("=i", m)[0], msgs
            msgs.append((m[0], m[4:]))  # a do-request ends with its ACK

# family id from the controller (GENL_ID_CTRL=16, CTRL_CMD_GETFAMILY=3)
err, msgs = request(16, 3, F_ACK, nla(2, b"SMC_GEN_NETLINK\0"))
check(err == 0 and msgs, "controller knows SMC_GEN_NETLINK")
ctrl = amap(msgs[0][1])
fam = struct.unpack("=H", ctrl[1])[0]
check(struct.unpack("=I", ctrl[3])[0] == 1, "family version 1")

def dump(cmd):
    err, msgs = request(fam, cmd, F_DUMP)
    check(err == 0, "dump %d: no error" % cmd)
    return msgs

def sizes(nest, want, what):
    for t, size in want.items():
        v = nest.get(t)
        check(v is not None and len(v) == size, "%s attr %d is %d bytes" % (what, t, size))

m = dump(1)
check(len(m) == 1 and m[0][0] == 1, "SYS_INFO: one message, cmd 1")
top = amap(m[0][1])
si = amap(top[1])
sizes(si, {1: 1, 2: 1, 3: 1, 6: 1, 4: 33}, "SYS_INFO")
check(si[1] == b"\x02", "SYS_INFO VER = 2")
check(si[2] == b"\x01", "SYS_INFO REL = 1")
check(si[6] == b"\x01", "SYS_INFO IS_SMCR_V2 = 1")
check(si[4] == (host.ljust(32) + "\0").encode(), "LOCAL_HOST is the host name, blank padded")
check(struct.unpack("=I", si[0x100])[0] == 0, "smcr UEID count (0x100) = 0")

m = dump(7)
check(len(m) == 1, "STATS: one message")
st = amap(amap(m[0][1])[7])
sizes(st, {3: 8, 4: 8}, "STATS")
for tech in (1, 2):
    t = amap(st[tech])
    for k in range(1, 5):
        sizes(amap(t[k]), {i: 8 for i in range(1, 10)}, "tech %d hist %d" % (tech, k))
    for k in (5, 6):
        sizes(amap(t[k]), {i: 8 for i in range(1, 8)}, "tech %d buffer events %d" % (tech, k))
    sizes(t, {i: 8 for i in range(7, 20)}, "tech %d" % tech)
    for i in (20, 21):  # NLA_UINT as Linux's nla_put_uint(): 4 bytes if the value fits
        v = t.get(i, b"")
        check(len(v) == 4 or (len(v) == 8 and struct.unpack("=Q", v)[0] >> 32),
              "tech %d attr %d (uint) is 4 bytes, or 8 above 32 bits: %d" % (tech, i, len(v)))

m = dump(8)
check(len(m) == 2, "FBACK_STATS: one client and one server entry (loopback)")
seen = set()
for i, (cmd, body) in enumerate(m):
    e = amap(amap(body)[8])
    sizes(e, {1: 1, 4: 4, 5: 2, 0x100: 8}, "FBACK entry")
    if i == 0:
        sizes(e, {2: 8, 3: 8}, "first FBACK entry totals")
    seen.add((e[1][0], struct.unpack("=I", e[4])[0], struct.unpack("=H", e[5])[0]))
check({(r, n) for r, _, n in seen} == {(0, 1), (1, 1)},
      "one client and one server fallback counted: %s" % ["%d 0x%08x %d" % e for e in sorted(seen)])

def ueid(cmd, raw):
    return request(fam, cmd, F_ACK, nla(1, raw))[0]

pad = lambda s: s.ljust(32).encode() + b"\0"
check(ueid(10, pad("SMCTOOLS-FORMAT")) == 0, "ADD_UEID in smc-tools' format")
m = dump(9)
check([amap(b)[1] for _, b in m] == [pad("SMCTOOLS-FORMAT")], "DUMP_UEID returns 33 bytes, padded")
check(ueid(10, pad("SMCTOOLS-FORMAT")) == errno.EEXIST, "duplicate: EEXIST")
for bad, why in ((pad("lower"), "lower case"), (pad(".DOT"), "leading dot"),
                 (pad("IN NER"), "inner blank"), (pad("") , "empty"),
                 (("X" * 32 + "Y").encode(), "no NUL"),
                 (b"SHORT\0", "short"), (("X" * 33).encode() + b"\0", "too long")):
    e = ueid(10, bad)
    check(e in (errno.EINVAL, errno.ERANGE), "refused %s: %s" % (why, errno.errorcode.get(e, e)))
check(request(fam, 10, F_ACK)[0] == errno.EINVAL, "ADD_UEID without attribute: EINVAL")
for n in ("B", "C", "D"):
    ueid(10, pad(n))
check(ueid(10, pad("E")) == errno.ERANGE, "fifth UEID: ERANGE")
check(ueid(11, pad("NOPE")) == errno.ENOENT, "remove absent: ENOENT")
check(ueid(11, pad("C")) == 0, "remove")
check(request(fam, 12, F_ACK)[0] == 0, "flush")
check(dump(9) == [], "empty after flush")
check(request(fam, 0x20, F_ACK)[0] == errno.EOPNOTSUPP, "unknown command: EOPNOTSUPP")
check(request(fam, 0xc0, F_ACK, nla(1, b"\0\0\0\0"))[0] != 0, "reset with an attribute refused")
check(request(fam, 0xc0, F_ACK)[0] == 0, "reset")
check(dump(8) == [], "fallback table empty after reset")
sys.exit(1 if fails else 0)
PY

found=
for t in smcd smc_dbg; do command -v "$t" >/dev/null && found=1; done
if [[ -n $found ]] && [[ $(command -v smcr) != "$S" ]] && command -v smcd >/dev/null; then
	echo "+ IBM smc-tools"
	smcd info || st_fail "smc-tools: smcd info failed"
	smcr stats || st_fail "smc-tools: smcr stats failed"
	smcr ueid show || st_fail "smc-tools: smcr ueid show failed"
else
	echo "IBM smc-tools not installed (not in Debian 12's amd64 archive): compatibility checked with the raw client above"
fi
echo "ok"
