#!/bin/bash
# DESC: SMC_NETLINK_DISABLE_HS_LIMITATION lifts hs_limit: with the only handshake slot taken, a new client still gets SMC-R
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# As 025, with the namespace's handshake limitation switched off on role b
# by Linux's netlink commands (raw generic netlink, SMC_NETLINK_*_HS_LIMITATION):
# b: hs_limit=1, test_clc_without_option=1, SMC_NETLINK_DISABLE_HS_LIMITATION
# (DUMP_HS_LIMITATION then reports 0); a `clc-peer --script silence`
# client of role a holds the only handshake slot (b waits until sock_diag
# lists the silent child in its handshake). Asserts: a new smcr
# client then does not fall back but runs SMC-R (mode smcr on both sides,
# duplex data byte-exact), where 025 asserts PEERNOSMC with the limitation
# on. b switches the limitation on again at the end (also on failure) and
# checks that the dump reports 1.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module (hs_limit)"
command -v python3 >/dev/null || st_fail "python3 not installed (tools/testing/vm/deps.txt)"
P=$ST_PORT
TMO=$(st_size 5000 15000)

# hs CMD: SMC_NETLINK_{DUMP,ENABLE,DISABLE}_HS_LIMITATION (16, 17, 18);
# prints the dumped SMC_NLA_HS_LIMITATION_ENABLED for 16; exit 1 on error.
hs() {
	python3 - "$1" <<'PY'
import socket, struct, sys
cmd = int(sys.argv[1])
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
s.bind((0, 0))
def req(fam, cmd, flags, payload=b""):
    body = struct.pack("=BBH", cmd, 1, 0) + payload
    s.send(struct.pack("=IHHII", 16 + len(body), fam, 1 | flags, 1, 0) + body)
    msgs = []
    while True:
        data = s.recv(65536)
        while len(data) >= 16:
            n, t = struct.unpack_from("=IH", data)
            m, data = data[16:n], data[(n + 3) & ~3:]
            if t in (2, 3):  # NLMSG_ERROR, NLMSG_DONE
                return -struct.unpack_from("=i", m)[0], msgs
            msgs.append(m[4:])
name = b"SMC_GEN_NETLINK\0"
attr = struct.pack("=HH", 4 + len(name), 2) + name
err, msgs = req(16, 3, 4, attr + b"\0" * (-len(attr) % 4))
b, fam = msgs[0], None
while len(b) >= 4:  # CTRL_ATTR_FAMILY_ID (1), u16
    n, t = struct.unpack_from("=HH", b)
    if t == 1:
        fam = struct.unpack_from("=H", b, 4)[0]
    b = b[(n + 3) & ~3:]
err, msgs = req(fam, cmd, 0x300 if cmd == 16 else 4)
if err:
    sys.exit("hs %d: errno %d" % (cmd, err))
if cmd == 16:
    print(msgs[0][4])  # SMC_NLA_HS_LIMITATION_ENABLED, u8
PY
}

case $SMCR_ROLE in
b) st_param hs_limit 1 || exit 1
   st_param clc_timeout_ms "$TMO" || exit 1
   st_param test_clc_without_option Y || exit 1
   trap 'hs 17 || echo "FAIL: cannot switch the limitation on again"; st_params_restore' EXIT
   # a failure before the server listens: tell role a at once
   early_fail() { vm_put "$ST_KEY-srv" fail; st_fail "$*"; }
   hs 18 || early_fail "DISABLE_HS_LIMITATION failed"
   [[ $(hs 16) == 0 ]] || early_fail "DUMP_HS_LIMITATION does not report 0 after DISABLE"
   st_serve_bg srv server --family smc --port "$P" --conns 1 --mode duplex --bytes "$(st_size 4M 256K)" \
	--expect-mode smcr --timeout 150s || exit 1
   vm_get "$ST_KEY-silent-connected" 60 >/dev/null || st_fail "no word from role a"
   # the listener's accept worker started the silent child's handshake:
   # the only slot is taken
   st_await_hs_child "$P" 30 || { vm_put "$ST_KEY-ready" fail; st_fail "the silent connection holds no handshake"; }
   vm_put "$ST_KEY-ready" ok
   st_wait_all || st_fail "server side failed"
   hs 17 || st_fail "ENABLE_HS_LIMITATION failed"
   [[ $(hs 16) == 1 ]] || st_fail "DUMP_HS_LIMITATION does not report 1 after ENABLE" ;;
a) st_await srv || exit 1
   out=$ST_TMP/silent.out
   st_silent_peer "$out" "$((TMO / 1000 + 60))s" 150s
   spid=$SILENT_PID
   vm_put "$ST_KEY-silent-connected" 1
   [[ $(vm_get "$ST_KEY-ready" 60) == ok ]] || st_fail "b saw no handshake of the silent connection"
   rc=0
   kill -0 "$spid" 2>/dev/null || { echo "FAIL: silent connection already ended"; rc=1; }
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode duplex \
	--bytes "$(st_size 4M 256K)" --expect-mode smcr --timeout 120s || rc=1
   wait "$spid"
   cat "$out"
   exit $rc ;;
esac
