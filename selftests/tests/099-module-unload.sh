#!/bin/bash
# DESC: rmmod smcr fails while an AF_SMC socket is open, succeeds after close; insmod again works
# SMOKE: yes
# PEER: no
# TIMEOUT: 90
#
# Asserts (on each VM independently; runs last): with an AF_SMC listening
# socket open, rmmod smcr fails and the module stays loaded; after the socket's
# process exits, the module refcount drops to 0 within 30 s, rmmod succeeds,
# smcr_load loads it again and a new AF_SMC socket can be created. The driver
# reloads smcr at the end if this test left it unloaded.
source "$ST_DIR/lib.sh"
P=$ST_PORT

[[ $ST_FAMILY == smc ]] || st_skip "module test needs AF_SMC"
[[ -d /sys/module/smcr ]] || st_fail "smcr not loaded at start"
port=$((P + ($([[ $SMCR_ROLE == a ]] && echo 1 || echo 2))))
ready=$ST_TMP/hold.ready
"$SMCTEST" hold --family smc --port "$port" --ready-file "$ready" --hold 60s &
hpid=$!
for ((i = 0; i < 100; i++)); do [[ -e $ready ]] && break; vm_nap 0.1; done
[[ -e $ready ]] || { kill $hpid; st_fail "holder did not open its socket"; }
echo "refcnt with socket open: $(cat /sys/module/smcr/refcnt 2>/dev/null)"
if out=$(rmmod smcr 2>&1); then
	kill $hpid
	st_fail "rmmod smcr succeeded with an AF_SMC socket open"
fi
echo "rmmod while in use failed as expected: $out"
[[ -d /sys/module/smcr ]] || st_fail "module gone after failed rmmod"
kill $hpid
wait $hpid 2>/dev/null
for ((i = 0; i < 300; i++)); do
	[[ $(cat /sys/module/smcr/refcnt 2>/dev/null) == 0 ]] && break
	vm_nap 0.1
done
echo "refcnt after close: $(cat /sys/module/smcr/refcnt 2>/dev/null)"
out=$(rmmod smcr 2>&1) || st_fail "rmmod smcr failed after closing all sockets: $out"
[[ ! -d /sys/module/smcr ]] || st_fail "module still present after rmmod"
echo "rmmod ok"
smcr_load || st_fail "smcr_load after rmmod failed"
[[ -d /sys/module/smcr ]] || st_fail "module not loaded after smcr_load"
"$SMCTEST" hold --family smc --hold 100ms || st_fail "AF_SMC socket after reload failed"
echo "reload ok"
