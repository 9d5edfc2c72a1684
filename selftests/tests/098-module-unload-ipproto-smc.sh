#!/bin/bash
# DESC: rmmod smcr fails while IPPROTO_SMC sockets (listener, accepted, never accepted) exist; after: EPROTONOSUPPORT, reload
# SMOKE: no
# PEER: no
# TIMEOUT: 150
#
# Asserts (each VM on its own; kernels with IPPROTO_SMC): rmmod smcr fails,
# and the module stays, while there is (1) an AF_INET IPPROTO_SMC listener,
# (2) an accepted AF_INET connection and its client, the listener closed -
# the accepted socket being AF_INET with SO_PROTOCOL IPPROTO_SMC - or (3) an
# AF_INET6 listener with a connection nobody accepted; each time the
# module's refcount is back to 0 within 30 s after the process exits. Then
# rmmod succeeds, socket(AF_INET/AF_INET6, SOCK_STREAM, IPPROTO_SMC) fails
# with EPROTONOSUPPORT (no longer registered), and after smcr_load both
# work again. On 6.1: EPROTONOSUPPORT there, then skip. It starts without
# link groups: a lingering one of an earlier test holds the module too.
source "$ST_DIR/lib.sh"

[[ $ST_FAMILY == smc ]] || st_skip "module test needs the module"
st_have_ipproto_smc || st_ipproto_smc_absent
[[ -d /sys/module/smcr ]] || st_fail "smcr not loaded at start"
st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"

# held SCENARIO: a process that holds IPPROTO_SMC sockets until killed;
# sets HPID once it holds them
held() {
	local ready=$ST_TMP/$1.ready i
	rm -f "$ready"
	python3 - "$1" "$ready" <<'PY' &
import socket, sys, time
IPPROTO_SMC = 256
what, ready = sys.argv[1], sys.argv[2]
fam, addr = (socket.AF_INET6, "::1") if what == "pending6" else (socket.AF_INET, "127.0.0.1")
ls = socket.socket(fam, socket.SOCK_STREAM, IPPROTO_SMC)
ls.bind((addr, 0))
ls.listen(4)
c = socket.socket(fam, socket.SOCK_STREAM, IPPROTO_SMC)
c.connect(ls.getsockname()[:2])
c.sendall(b"x")
if what == "accepted":
    a, _ = ls.accept()
    ls.close()
    dom = a.getsockopt(socket.SOL_SOCKET, socket.SO_DOMAIN)
    proto = a.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL)
    print(f"accepted: SO_DOMAIN {dom} SO_PROTOCOL {proto}", flush=True)
    if dom != fam or proto != IPPROTO_SMC:
        sys.exit(1)
    if a.recv(1) != b"x":
        sys.exit(1)
open(ready, "w").close()
time.sleep(120)
PY
	HPID=$!
	for ((i = 0; i < 100; i++)); do [[ -e $ready ]] && return 0; vm_nap 0.1; done
	kill $HPID 2>/dev/null
	st_fail "$1: the sockets were not set up"
}

# busy WHAT PID: rmmod must fail while PID holds its sockets; then kill it
# and wait for the module's refcount to drop to 0
busy() {
	local out i
	echo "$1: refcnt $(</sys/module/smcr/refcnt)"
	if out=$(rmmod smcr 2>&1); then
		kill "$2"
		st_fail "rmmod smcr succeeded with $1"
	fi
	echo "$1: rmmod failed as expected: $out"
	[[ -d /sys/module/smcr ]] || st_fail "module gone after a failed rmmod"
	kill "$2"
	wait "$2" 2>/dev/null
	for ((i = 0; i < 300; i++)); do
		[[ $(</sys/module/smcr/refcnt) == 0 ]] && return 0
		vm_nap 0.1
	done
	st_fail "$1: refcnt $(</sys/module/smcr/refcnt) 30 s after the sockets closed"
}

ready=$ST_TMP/hold.ready
"$SMCTEST" hold --family ipproto-smc --port "$ST_PORT" --ready-file "$ready" --hold 60s &
hpid=$!
for ((i = 0; i < 100; i++)); do [[ -e $ready ]] && break; vm_nap 0.1; done
[[ -e $ready ]] || { kill $hpid; st_fail "the IPPROTO_SMC listener did not open"; }
busy "an IPPROTO_SMC listener" $hpid

held accepted
busy "an accepted IPPROTO_SMC connection" "$HPID"
held pending6
busy "an AF_INET6 IPPROTO_SMC listener with a connection not accepted" "$HPID"

out=$(rmmod smcr 2>&1) || st_fail "rmmod smcr failed after all sockets closed: $out"
[[ ! -d /sys/module/smcr ]] || st_fail "module still present after rmmod"
echo "rmmod ok"
st_ipproto_smc_refused "without smcr"
smcr_load || st_fail "smcr_load after rmmod failed"
"$SMCTEST" hold --family ipproto-smc --hold 100ms || st_fail "IPPROTO_SMC socket after reload failed"
"$SMCTEST" hold --family ipproto-smc --ipv6 --hold 100ms || st_fail "IPv6 IPPROTO_SMC socket after reload failed"
echo "reload ok"
