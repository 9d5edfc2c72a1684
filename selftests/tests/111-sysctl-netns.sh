#!/bin/bash
# DESC: net.smc.* per network namespace: a new namespace starts from the module parameters, its writes stay in it and apply to its sockets (limit_smc_hs)
# SMOKE: yes
# PEER: no
# TIMEOUT: 150
#
# Runs locally on each VM, in two new network namespaces A and B (loopback).
# Asserts:
#   1. a new namespace has the per-namespace sysctls (Linux's rmem, wmem,
#      smcr_max_links_per_lgr, smcr_max_conns_per_lgr, limit_smc_hs,
#      autocorking_size, smcr_testlink_time, and keepalive_ms) with the module parameters'
#      values at its creation (rmem set to 32768 before), and none of the
#      module-wide ones (clc_timeout_ms, hs_limit, ...);
#   2. writes in A (rmem 16384, smcr_testlink_time 5, limit_smc_hs 0) show
#      in A (keepalive_ms 5000) and change neither the initial namespace's
#      sysctls nor the module parameters, nor B's values;
#   3. they take effect for A's sockets: with hs_limit=1 and a silent CLC
#      peer holding a listener's one handshake (started with
#      test_clc_without_option, off again for the client; sock_diag lists
#      the silent child in its handshake before the client starts), a new AF_SMC
#      client in B
#      (limit_smc_hs 1) falls back with PEERNOSMC (the SYN-ACK left the SMC
#      option out), in A (limit_smc_hs 0) it runs its handshake and falls
#      back with NOSMCRDEV (no RoCE device on loopback).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
P=$ST_PORT
NETNS_KNOBS=(keepalive_ms rmem wmem smcr_max_links_per_lgr smcr_max_conns_per_lgr limit_smc_hs autocorking_size
	smcr_testlink_time)
GLOBAL_KNOBS=(clc_timeout_ms hs_limit llc_timeout_ms lgr_linger_ms close_timeout_ms max_links_per_netns
	tcp_keepidle_min_s)

st_param rmem 32768 || exit 1
st_param limit_smc_hs 1 || exit 1
st_param keepalive_ms 30000 || exit 1

# a namespace: a process that holds it, and a smctest that runs in it
HOLDERS=()
trap 'kill "${HOLDERS[@]}" 2>/dev/null; st_params_restore' EXIT
new_ns() {	# new_ns NAME: sets NS_<NAME> to the holder's pid
	local pid end=$((SECONDS + 10))
	unshare -n sleep 1000 &
	pid=$!
	HOLDERS+=("$pid")
	# until it left this namespace (nsenter would enter this one before)
	while [[ /proc/$pid/ns/net -ef /proc/$$/ns/net ]]; do
		{ ((SECONDS < end)) && kill -0 "$pid" 2>/dev/null; } || st_fail "netns $1: unshare -n did not make one"
		vm_nap 0.05
	done
	nsenter -t "$pid" -n ip link set lo up || st_fail "netns $1: lo"
	printf '#!/bin/sh\nexec nsenter -t %s -n %s "$@"\n' "$pid" "$SMCTEST" >"$ST_TMP/smctest-$1"
	chmod +x "$ST_TMP/smctest-$1"
	printf -v "NS_$1" %s "$pid"
}
in_ns() {	# in_ns PID CMD...
	local pid=$1
	shift
	nsenter -t "$pid" -n "$@"
}
get() { in_ns "$1" cat "/proc/sys/net/smc/$2"; }
set_() { in_ns "$1" sh -c "echo $3 >/proc/sys/net/smc/$2" || st_fail "netns: net.smc.$2=$3 refused"; }

new_ns A
new_ns B
for k in "${NETNS_KNOBS[@]}"; do
	[[ $(get "$NS_A" "$k") == "$(</proc/sys/net/smc/"$k")" ]] ||
		st_fail "new netns: net.smc.$k is $(get "$NS_A" "$k"), the initial one's $(</proc/sys/net/smc/"$k")"
done
[[ $(get "$NS_A" rmem) == 32768 ]] || st_fail "new netns: rmem $(get "$NS_A" rmem), not the parameter's 32768"
for k in "${GLOBAL_KNOBS[@]}"; do
	in_ns "$NS_A" test -e "/proc/sys/net/smc/$k" && st_fail "module-wide net.smc.$k exists in a new netns"
done
echo "ok: a new netns has ${NETNS_KNOBS[*]} from the module parameters, no module-wide ones"

set_ "$NS_A" rmem 16384
set_ "$NS_A" smcr_testlink_time 5
set_ "$NS_A" limit_smc_hs 0
[[ $(get "$NS_A" rmem) == 16384 ]] || st_fail "netns A: rmem $(get "$NS_A" rmem) after writing 16384"
[[ $(get "$NS_A" keepalive_ms) == 5000 ]] || st_fail "netns A: keepalive_ms $(get "$NS_A" keepalive_ms) after smcr_testlink_time=5"
[[ $(get "$NS_A" limit_smc_hs) == 0 ]] || st_fail "netns A: limit_smc_hs not 0"
for k in rmem:32768 keepalive_ms:30000 smcr_testlink_time:30 limit_smc_hs:1; do
	n=${k%%:*} v=${k#*:}
	[[ $(</proc/sys/net/smc/"$n") == "$v" ]] || st_fail "a write in netns A changed the initial net.smc.$n"
	[[ $(get "$NS_B" "$n") == "$v" ]] || st_fail "a write in netns A changed netns B's net.smc.$n"
	[[ $n == smcr_testlink_time ]] && continue
	[[ $(</sys/module/smcr/parameters/"$n") == "$v" ]] || st_fail "a write in netns A changed smcr.$n"
done
echo "ok: writes in netns A stay in A (the initial netns, netns B and the parameters keep theirs)"

st_param hs_limit 1 || exit 1
st_param clc_timeout_ms "$(st_size 10000 30000)" || exit 1
st_param test_clc_without_option N || exit 1
# try NS REASON PORT: a listener in NS, a silent CLC peer holding its one
# handshake, then an AF_SMC client in NS that must fall back with REASON.
# (The helpers run $SMCTEST, here smctest in NS.)
try() {
	local ns=$1 reason=$2 port=$3 nsv="NS_$1" rc=0 spid
	# shellcheck disable=SC2034 # read by st_silent_peer
	local SMCTEST=$ST_TMP/smctest-$ns SMCR_PEER_IP=127.0.0.1 ST_PORT=$3

	echo "--- netns $ns: limit_smc_hs $(get "${!nsv}" limit_smc_hs), expect $reason"
	st_serve_bg "srv$ns" server --family smc --port "$port" --conns 1 --mode duplex --bytes 64K \
		--expect-mode fallback --expect-fallback-any --timeout 60s || return 1
	# clc-peer is plain TCP: its handshake runs with test_clc_without_option
	# only, which the client must not have (it would ignore a SYN-ACK
	# without the option)
	echo Y >/sys/module/smcr/parameters/test_clc_without_option
	st_silent_peer "$ST_TMP/silent-$ns.out" 60s 90s
	spid=$SILENT_PID
	# the listener's accept worker started the silent child's handshake
	st_await_hs_child "$port" 30 || rc=1
	echo N >/sys/module/smcr/parameters/test_clc_without_option
	st_smctest client --family smc --addr 127.0.0.1 --port "$port" --mode duplex --bytes 64K \
		--expect-reason "$reason" --timeout 60s || rc=1
	st_wait_all || rc=1
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	return $rc
}
try B PEERNOSMC "$P" || st_fail "netns B (limit_smc_hs 1): no PEERNOSMC with the handshake slot taken"
try A NOSMCRDEV $((P + 1)) || st_fail "netns A (limit_smc_hs 0): the handshake limit applied"
echo "ok: limit_smc_hs of each netns applies to its listeners"
