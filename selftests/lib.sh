# shellcheck shell=bash
# Helpers for selftests/tests/*.sh (sourced by each test; the driver exports
# ST_* and the harness SMCR_*).
#
#   ST_ID      test id ("001-stream-100m")
#   ST_KEY     unique prefix for vm_sync/vm_put/vm_get names (run + test id)
#   ST_PORT    first of 20 TCP ports reserved for this test
#   ST_TMP     per-test scratch directory (VM-local)
#   ST_FAMILY  smc (default) or tcp (--family tcp: debugging without module)
#   SMCTEST    path of the smctest binary
set -u
# shellcheck source=/dev/null
source "${SMCR_LIB:-$ST_DIR/../tools/testing/vm/lib.sh}"

ST_FAMILY=${ST_FAMILY:-smc}
ST_KEY=${ST_KEY:-$ST_ID}
SMCTEST=${SMCTEST:-$SMCR_TOOLS/bin/smctest}
ST_PIDS=()
# smc_run as built, else the tree's script
ST_SMC_RUN=$SMCR_TOOLS/bin/smc_run
[[ -x $ST_SMC_RUN ]] || ST_SMC_RUN=${SMCR_TREE:-$ST_DIR/..}/tools/preload/smc_run

st_log() { echo "[$SMCR_ROLE] $*"; }
st_skip() { echo "SKIP: $*"; exit 4; }
st_fail() { echo "FAIL: $*"; exit 1; }

# st_size FULL DEBUG [SOAK]: a data size that scales with the kernel: FULL on
# stock kernels, DEBUG on the debug kernel (KASAN + lockdep + kmemleak under
# TCG move only ~8 Mbit/s; the debug run is about kernel checks, not volume),
# SOAK (if given) on stock kernels in the soak tier (selftests/run --soak).
st_size() {
	if [[ ${SMCR_KERNEL:-} == debug ]]; then
		echo "$2"
	elif [[ ${ST_SOAK:-0} == 1 && -n ${3-} ]]; then
		echo "$3"
	else
		echo "$1"
	fi
}

# st_param NAME VALUE: sets smcr's module parameter NAME on this VM for the
# rest of the test; the old value is restored when the test exits (EXIT trap,
# also on SIGTERM from the driver's timeout). The driver also puts back the
# values it saw at load time after every test, even after a SIGKILL.
ST_PARAMS_SAVED=()
ST_CLEANUPS=()
st_params_restore() {
	local i n
	# only the shell that set the trap: a subshell (`( ... ) &`) keeps the
	# test's traps from its fork until bash resets them, and a signal in
	# that window (the test killing it at once) runs them there - it once
	# put eth1 up again under 090's check of the failed link
	[[ $BASHPID == "${ST_TRAP_PID-}" ]] || return 0
	for ((i = ${#ST_CLEANUPS[@]} - 1; i >= 0; i--)); do
		eval "${ST_CLEANUPS[i]}"
	done
	ST_CLEANUPS=()
	for ((i = ${#ST_PARAMS_SAVED[@]} - 1; i >= 0; i--)); do
		n=${ST_PARAMS_SAVED[i]%%=*}
		echo "${ST_PARAMS_SAVED[i]#*=}" >"/sys/module/smcr/parameters/$n" ||
			echo "st_params_restore: cannot restore $n"
	done
	ST_PARAMS_SAVED=()
}
# the EXIT trap, set by the first st_param or st_cleanup only: a test that
# sets its own trap later calls st_params_restore from it
ST_TRAP_SET=
st_exit_trap() {
	[[ -z $ST_TRAP_SET ]] || return 0
	ST_TRAP_SET=1
	ST_TRAP_PID=$BASHPID
	trap st_params_restore EXIT
	trap 'exit 143' TERM
}

# st_cleanup CMD: runs the shell command CMD when the test exits, however
# it ends (also on the driver's timeout), before the parameters are put
# back; the last registered first. For what a test adds to the VM beyond
# smcr's parameters: addresses, namespaces, background processes.
st_cleanup() {
	ST_CLEANUPS+=("$1")
	st_exit_trap
}
st_param() {
	local f=/sys/module/smcr/parameters/$1 old
	if [[ ! -r $f ]] || ! IFS= read -r old <"$f"; then
		echo "st_param: no parameter $1"
		return 1
	fi
	st_exit_trap
	ST_PARAMS_SAVED+=("$1=$old")
	echo "$2" >"$f" || { echo "st_param: cannot set $1=$2"; return 1; }
	echo "smcr.$1=$2 (was $old)"
}

# smctest with logging of the command line.
st_smctest() {
	echo "+ smctest $*"
	"$SMCTEST" "$@"
}

# st_serve_bg NAME SMCTEST-ARGS...
# Starts a server-side smctest in the background with --ready-file, waits until
# it listens and tells the peer ("$ST_KEY-NAME" = ok|fail). The pid is kept
# for st_wait_all. Returns 1 if the server died before becoming ready.
st_serve_bg() {
	local name=$1 ready=$ST_TMP/$1.ready i pid
	shift
	rm -f "$ready"
	echo "+ smctest $* --ready-file $ready &"
	"$SMCTEST" "$@" --ready-file "$ready" &
	pid=$!
	for ((i = 0; i < 300; i++)); do
		[[ -e $ready ]] && break
		if ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid"
			echo "server $name exited with $? before listening"
			vm_put "$ST_KEY-$name" fail
			return 1
		fi
		vm_nap 0.1
	done
	if [[ ! -e $ready ]]; then
		echo "server $name not listening after 30s"
		kill "$pid" 2>/dev/null
		vm_put "$ST_KEY-$name" fail
		return 1
	fi
	ST_PIDS+=("$pid")
	vm_put "$ST_KEY-$name" ok
}

# Waits for all servers started by st_serve_bg; non-zero if any failed.
st_wait_all() {
	local p rc=0
	for p in "${ST_PIDS[@]}"; do
		wait "$p" || rc=1
	done
	ST_PIDS=()
	return $rc
}

# st_serve NAME ARGS...: st_serve_bg + wait for it.
st_serve() {
	st_serve_bg "$@" || return 1
	st_wait_all
}

# st_await NAME: waits until the peer's server NAME listens (fails if the
# peer reported that it could not start).
st_await() {
	local v
	v=$(vm_get "$ST_KEY-$1" "${2:-120}") || { echo "peer server $1: no word"; return 1; }
	[[ $v == ok ]] || { echo "peer server $1 failed to start"; return 1; }
}

# st_link_peer SCRIPT PORT BYTES [SERVER-ARGS...]: one smctest link-peer
# script against an smcr server (test_clc_without_option=1 on role b):
# role b serves one duplex connection of BYTES (plus SERVER-ARGS, e.g.
# --expect-mode smcr), role a plays SCRIPT with the link-peer options in
# the array ST_LINK_PEER_ARGS (e.g. --clc-version 2). Returns this role's
# result.
ST_LINK_PEER_ARGS=()
st_link_peer() {
	local script=$1 port=$2 bytes=$3
	shift 3
	case $SMCR_ROLE in
	b) st_serve "$script" server --family smc --port "$port" --conns 1 --mode duplex --bytes "$bytes" \
		--timeout 90s "$@" ;;
	a) st_await "$script" || return 1
	   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$port" --script "$script" --bytes "$bytes" \
		--timeout 90s "${ST_LINK_PEER_ARGS[@]}" ;;
	esac
}

# st_link_peer_each FUNC SCRIPT...: for each SCRIPT, FUNC SCRIPT PORT
# (ports $ST_PORT + 0..19 in turn; FUNC usually calls st_link_peer), one
# link group each; then role b waits until every link group is gone (their
# linger). Returns 1 if any failed, naming them.
st_link_peer_each() {
	local func=$1 script rc=0 i=0 failed=()
	shift
	for script in "$@"; do
		echo "=== $script"
		"$func" "$script" $((ST_PORT + i % 20)) || { rc=1; failed+=("$script"); }
		i=$((i + 1))
	done
	if [[ $SMCR_ROLE == b ]]; then
		st_no_lgrs 60 || { rc=1; failed+=("link groups left"); }
	fi
	((rc == 0)) || echo "FAILED on role $SMCR_ROLE: ${failed[*]}"
	return $rc
}

# st_silent_peer OUT DROP_WAIT TIMEOUT [SCRIPT [READY [ARGS...]]]: starts
# a `clc-peer --script SCRIPT ARGS` client (default silence) towards the
# peer's port $ST_PORT in the background (output in OUT) and waits until
# its output says READY (default "connected"); sets SILENT_PID. Fails the
# test if it does not get there.
st_silent_peer() {
	local out=$1 drop=$2 tmo=$3 script=${4:-silence} ready=${5:-connected} i
	shift $(($# < 5 ? $# : 5))
	"$SMCTEST" clc-peer --role client --family tcp --addr "$SMCR_PEER_IP" --port "$ST_PORT" \
		--script "$script" --drop-wait "$drop" --timeout "$tmo" "$@" >"$out" 2>&1 &
	SILENT_PID=$!
	for ((i = 0; i < 300; i++)); do
		grep -q "$ready" "$out" && return 0
		kill -0 "$SILENT_PID" 2>/dev/null || break
		vm_nap 0.1
	done
	cat "$out"
	st_fail "clc-peer $script did not get to \"$ready\""
}

# st_probe_pair PROBE PORT [ARGS...]: runs a two-sided probe, server on role
# b, client on role a.
st_probe_pair() {
	local probe=$1 port=$2
	shift 2
	case $SMCR_ROLE in
	b) st_serve "probe-$probe" probe "$probe" --role server --port "$port" --family "$ST_FAMILY" \
		--timeout 90s "$@" ;;
	a) st_await "probe-$probe" || return 1
	   st_smctest probe "$probe" --role client --addr "$SMCR_PEER_IP" --port "$port" \
		--family "$ST_FAMILY" --timeout 90s "$@" ;;
	esac
}

# Runs each listed probe pair on consecutive ports; returns non-zero if any
# failed (all are run).
st_probe_pairs() {
	local p port=$ST_PORT rc=0
	for p in "$@"; do
		st_probe_pair "$p" "$port" || { echo "probe $p FAILED"; rc=1; }
		port=$((port + 1))
	done
	return $rc
}

# st_smcr_data: true if connections between two smcr peers move their data
# over SMC-R here: Soft-RoCE and the data_path parameter on (its default).
st_smcr_data() {
	local v=
	[[ ${SMCR_RXE:-0} == 1 && -d /sys/module/smcr ]] && read -r v </sys/module/smcr/parameters/data_path
	[[ $v == Y ]]
}

# st_need_rxe: fails the test unless this VM has its Soft-RoCE ports
# (SMCR_RXE=1). Every test VM has them (a VM without is an infrastructure
# failure), so their absence is never a reason to skip.
st_need_rxe() {
	[[ ${SMCR_RXE:-0} == 1 ]] ||
		st_fail "no Soft-RoCE in this VM (SMCR_RXE=${SMCR_RXE:-unset}): the test needs its RoCE ports"
}

# st_dmesg_mark NAME: writes the mark NAME of this test and VM into the
# kernel log, after which st_dmesg_count looks: a line an earlier test (or
# an earlier phase) logged must not count.
st_dmesg_mark() {
	echo "smcr-selftest: $ST_KEY $SMCR_ROLE mark <$1>" >/dev/kmsg ||
		{ echo "st_dmesg_mark: cannot write /dev/kmsg"; return 1; }
}

# st_dmesg_count ERE NAME: the number of kernel log lines matching ERE
# (awk) that came after this VM's mark NAME (st_dmesg_mark). Fails, with a
# message on stderr, if the mark is not in the log (never made, or the ring
# buffer wrapped past it): then nothing can be said about the lines after it.
st_dmesg_count() {
	local mark="smcr-selftest: $ST_KEY $SMCR_ROLE mark <$2>"
	dmesg | awk -v m="$mark" -v p="$1" '
		f && $0 ~ p { n++ }
		index($0, m) { f = 1; n = 0 }
		END { print n + 0; exit !f }' && return 0
	echo "st_dmesg_count: the mark \"$mark\" is not in the kernel log" >&2
	return 1
}

# st_await_hs_child PORT SECONDS: waits until this VM lists a server child
# on its listener's PORT in the CLC handshake (sock_diag state SMC_INIT,
# which smctest names SYN_SENT): the listener's accept worker took the
# connection and counts it against hs_limit. Returns 1 (with the listing)
# if none came.
st_await_hs_child() {
	local end=$((SECONDS + $2)) out line
	while :; do
		out=$("$SMCTEST" diag --kv --port "$1")
		while IFS= read -r line; do
			[[ $line == *" state=SYN_SENT "*" local="*":$1 peer="* ]] && return 0
		done <<<"$out"
		((SECONDS < end)) || break
		vm_nap 0.1
	done
	echo "no server child in its handshake on port $1 after $2 s:"
	echo "$out"
	return 1
}

# st_have_ipproto_smc: true on kernels that take socket(AF_INET or AF_INET6,
# SOCK_STREAM, IPPROTO_SMC) (Linux 6.11+), where smcr registers it
st_have_ipproto_smc() {
	local v maj min
	v=$(uname -r)
	maj=${v%%.*}
	v=${v#*.}
	min=${v%%[!0-9]*}
	((maj > 6 || (maj == 6 && min >= 11)))
}

# st_ipproto_smc_refused WHEN: asserts that socket(AF_INET and AF_INET6,
# SOCK_STREAM, IPPROTO_SMC) fail with EPROTONOSUPPORT (as any unknown IP
# protocol); WHEN ("on 6.1", "without smcr") goes into the failure.
st_ipproto_smc_refused() {
	local v6 out
	for v6 in "" --ipv6; do
		# shellcheck disable=SC2086 # $v6 is one flag or none
		if out=$("$SMCTEST" hold --family ipproto-smc $v6 --hold 1ms 2>&1); then
			st_fail "socket(..., IPPROTO_SMC) ${v6:+(IPv6) }succeeded $1"
		fi
		echo "$out"
		[[ $out == *EPROTONOSUPPORT* ]] || st_fail "expected EPROTONOSUPPORT $1"
	done
}

# st_ipproto_smc_absent: for kernels without IPPROTO_SMC: the socket() is
# refused (st_ipproto_smc_refused), then the test is skipped.
st_ipproto_smc_absent() {
	st_ipproto_smc_refused "on $(uname -r)"
	st_skip "IPPROTO_SMC needs Linux 6.11+: $(uname -r) refuses it with EPROTONOSUPPORT"
}

# Expectation flags for an AF_SMC socket talking to another smcr peer:
# SMC-R. Every test VM has Soft-RoCE and smcr loads with data_path=Y, so a
# fallback there is a failure, never a result to accept (with --family tcp
# smctest ignores these flags).
# shellcheck disable=SC2034 # for the tests
ST_EXPECT_SMC_PEER=(--expect-mode smcr)

# st_conn_kv PORT: the `smctest diag --kv` line of this VM's first SMC-R
# socket with connection info on PORT, once there is one (up to 10 s;
# empty if none came)
st_conn_kv() {
	local i line
	for ((i = 0; i < 100; i++)); do
		line=$("$SMCTEST" diag --kv --port "$1" | grep "mode=smcr.*token=" | head -n1)
		[[ -n $line ]] && break
		vm_nap 0.1
	done
	echo "$line"
}

# st_conn_state PORT: the sock_diag state (ESTABLISHED, PEERCLOSEWAIT1,
# CLOSE, ...) of this VM's first SMC-R socket on PORT (st_conn_kv)
st_conn_state() {
	local kv
	kv=$(st_conn_kv "$1")
	[[ $kv =~ state=([A-Z0-9_]+) ]] && echo "${BASH_REMATCH[1]}"
}

# st_client_kv PORT CLIENT-ARGS...: an smctest client (AF_SMC) to the
# peer's PORT in the background (its output to stderr); prints its SMC-R
# socket's st_conn_kv line taken while it runs (give it a --hold), and
# returns the client's exit status.
st_client_kv() {
	local port=$1 pid kv rc
	shift
	"$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port "$port" "$@" >&2 &
	pid=$!
	kv=$(st_conn_kv "$port")
	wait "$pid"
	rc=$?
	echo "$kv"
	return $rc
}

# st_py_server PORT: runs the Python program on stdin under smc_run (an
# unmodified TCP program on AF_SMC) in the background, its pid in
# ST_PY_PID. The program starts with `c`, the first connection accepted
# on PORT, and `tmp` ($ST_TMP) defined, and errno, os, socket, struct, sys
# and time imported. Returns once it listens (1 if it never does).
st_py_server() {
	local i
	rm -f "$ST_TMP/py.ready"
	{
		cat <<'EOF'
import errno, os, socket, struct, sys, time
port, tmp = int(sys.argv[1]), sys.argv[2]
ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("0.0.0.0", port))
ls.listen(1)
open(tmp + "/py.ready", "w").close()
c, _ = ls.accept()
EOF
		cat
	} | "$ST_SMC_RUN" /usr/bin/python3 - "$1" "$ST_TMP" &
	# shellcheck disable=SC2034 # for the tests
	ST_PY_PID=$!
	for ((i = 0; i < 100; i++)); do
		[[ -e $ST_TMP/py.ready ]] && return 0
		vm_nap 0.1
	done
	echo "the Python server never listened on port $1"
	return 1
}

# st_links: "LGR-ID ROLE LINK-ID STATE" per link of this VM's SMC-R link groups
# (from `smcr -j link show` and `smcr -j lgr show`), sorted.
st_links() {
	local lgrs links
	lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || return 1
	links=$("$SMCR_TOOLS/bin/smcr" -j link show) || return 1
	jq -r --argjson g "$lgrs" '.[] | . as $l |
		($g[] | select(.id == $l.lgr_id) | .role) as $r |
		"\($l.lgr_id) \($r) \($l.link_id) \($l.state)"' <<<"$links" | sort
}

# st_links_active ROLE: prints this VM's links (st_links); true if they
# are those of one link group of role ROLE, link 1 among them, all ACTIVE:
# one link, or two when both sides allow two (smcr_max_links_per_lgr, the
# default) and the server has a second RoCE port for it.
st_links_active() {
	local links
	links=$(st_links) || return 1
	echo "$links"
	[[ -n $links ]] && ! grep -qvE "^[0-9]+ $1 [0-9]+ ACTIVE$" <<<"$links" &&
		[[ $(cut -d' ' -f1 <<<"$links" | sort -u | wc -l) == 1 ]] &&
		grep -qE "^[0-9]+ $1 1 ACTIVE$" <<<"$links"
}

# st_lgr_count: number of SMC-R link groups on this VM
st_lgr_count() {
	"$SMCR_TOOLS/bin/smcr" -j lgr show | jq length
}

# st_lgr_versions: the SMC-R version of each link group of this VM, one per
# line ("1", or "2.R" for version 2 release R); reads smcr's or Linux's SMC
st_lgr_versions() {
	"$SMCR_TOOLS/bin/smcr" -j lgr show |
		jq -r '.[] | if .v2 then "\(.v2.version).\(.v2.release)" else "1" end'
}

# st_gid4 ADDR: the IPv4-mapped RoCE v2 GID of IPv4 address ADDR as smcr's
# and Linux's netlink print it (0000:...:ffff:c000:0201 for 192.0.2.1)
st_gid4() {
	local o
	IFS=. read -ra o <<<"$1"
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "${o[@]}"
}

# st_lgr_of_peer GID: "VERSION.RELEASE direct=BOOL" of each of this VM's link
# groups with a link to peer GID (st_gid4), version 1 as "1.0 direct=null";
# reads smcr's or Linux's SMC
st_lgr_of_peer() {
	local lgrs links
	lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || return 1
	links=$("$SMCR_TOOLS/bin/smcr" -j link show) || return 1
	jq -r --arg g "$1" --argjson l "$links" '
		([$l[] | select(.peer_gid == $g) | .lgr_id] | unique) as $ids |
		.[] | select(.id as $i | $ids | index($i)) |
		"\(.v2.version // 1).\(.v2.release // 0) direct=\(.v2.direct)"' <<<"$lgrs"
}

# st_host_route_via PEER GW SRC DEV [ARGS...]: adds the route PEER/32 via GW
# dev DEV src SRC (ARGS, e.g. onlink) and checks that the route to PEER
# from SRC goes through GW. Returns 1 (with a message) if not.
st_host_route_via() {
	local peer=$1 gw=$2 src=$3 dev=$4 got
	shift 4
	ip route add "$peer/32" via "$gw" dev "$dev" src "$src" "$@" ||
		{ echo "ip route add $peer/32 via $gw failed"; return 1; }
	got=$(ip -j route get "$peer" from "$src" | jq -r '.[0].gateway // empty')
	[[ $got == "$gw" ]] || { echo "route to $peer: gateway '$got', want $gw"; return 1; }
	st_log "route to $peer via $gw dev $dev"
}

# st_duplex_smcr NAME ADDR BYTES: one duplex connection a -> ADDR port
# $ST_PORT of BYTES each way, served by role b: SMC-R on each side (its own
# sock_diag) and the data verified on both. Returns this role's result.
st_duplex_smcr() {
	local name=$1 addr=$2 bytes=$3
	case $SMCR_ROLE in
	b) st_serve "$name" server --port "$ST_PORT" --mode duplex --bytes "$bytes" \
		--expect-mode smcr --timeout 120s ;;
	a) st_await "$name" &&
	   st_smctest client --addr "$addr" --port "$ST_PORT" --mode duplex --bytes "$bytes" \
		--expect-mode smcr --timeout 120s ;;
	esac
}

# st_release_held [TIMEOUT]: both VMs meet once each counted the held
# connections (vm_sync), then a removes the hold file its client waits
# on (smctest --hold-file "$ST_TMP/hold"). Fails if the other VM did not
# come.
st_release_held() {
	local rc=0
	vm_sync "$ST_KEY-counted" ${1:+"$1"} || rc=1
	[[ $SMCR_ROLE == a ]] && rm -f "$ST_TMP/hold"
	return $rc
}

# st_held_conns_split N BYTES LGRS MAX: N concurrent duplex connections of
# BYTES from a to b (port $ST_PORT), SMC-R on both sides and held open
# until both VMs have counted them (at most 100 s: a fixed 8 s hold let the
# first ones end before the last had connected on a slow debug machine),
# spread as st_lgrs_split N LGRS MAX says. Returns 1 on any failure.
st_held_conns_split() {
	local n=$1 bytes=$2 rc=0 cpid
	case $SMCR_ROLE in
	b) st_serve_bg held server --port "$ST_PORT" --conns "$n" --concurrent --bytes "$bytes" \
		--mode duplex --expect-mode smcr --timeout 150s || return 1 ;;
	a) st_await held || { st_release_held 30; return 1; }
	   touch "$ST_TMP/hold"
	   st_smctest client --addr "$SMCR_PEER_IP" --port "$ST_PORT" --conns "$n" --bytes "$bytes" \
		--mode duplex --expect-mode smcr --hold 100s --hold-file "$ST_TMP/hold" --timeout 150s &
	   cpid=$! ;;
	esac
	st_lgrs_split "$n" "$3" "$4" || rc=1
	st_release_held || rc=1
	case $SMCR_ROLE in
	b) st_wait_all || rc=1 ;;
	a) wait "$cpid" || rc=1 ;;
	esac
	return $rc
}

# st_lgrs_split N LGRS MAX: once N connections are counted in this VM's link
# groups (waits up to 90 s), they must be spread over exactly LGRS link
# groups of at most MAX connections each, all of version 2.1 (release 1
# max_conns). Prints the table; returns 1 with the reason otherwise.
st_lgrs_split() {
	local n=$1 want=$2 max=$3 lgrs rc=0
	st_await_lgr_conns "$n" 90 || rc=1
	lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || return 1
	"$SMCR_TOOLS/bin/smcr" lgr show
	echo "connections per link group: $(jq -r '[.[].conns] | sort | join(" ")' <<<"$lgrs")"
	[[ $(jq 'length' <<<"$lgrs") == "$want" ]] || { echo "expected $want link groups"; rc=1; }
	[[ $(jq --argjson m "$max" '[.[] | select(.conns > $m)] | length' <<<"$lgrs") == 0 ]] ||
		{ echo "a link group above $max connections"; rc=1; }
	[[ $(st_lgr_versions | sort -u) == 2.1 ]] || { echo "not all of version 2.1"; rc=1; }
	return $rc
}

# st_lgr_conns: connections in the SMC-R link groups of this VM
st_lgr_conns() {
	"$SMCR_TOOLS/bin/smcr" -j lgr show | jq '[.[].conns] | add // 0'
}

# st_await_lgr_conns N SECONDS: waits until the link groups of this VM
# count N connections
st_await_lgr_conns() {
	local n end=$((SECONDS + $2))
	while ((SECONDS < end)); do
		n=$(st_lgr_conns) && [[ $n == "$1" ]] && return 0
		vm_nap 0.1
	done
	echo "link group connections: ${n:-?}, expected $1"
	return 1
}

# st_await_dev_links N SECONDS: waits until this VM's RoCE ports count N
# links in all (`smcr -j dev show`). A link stays counted, against
# max_links_per_netns too, until its teardown ends, after its link group
# left the listing.
st_await_dev_links() {
	local n end=$((SECONDS + $2))
	while ((SECONDS < end)); do
		n=$("$SMCR_TOOLS/bin/smcr" -j dev show |
			jq '[.. | objects | .links? | numbers] | add // 0') &&
			[[ $n == "$1" ]] && return 0
		vm_nap 0.2
	done
	echo "RoCE port links: ${n:-?}, expected $1"
	return 1
}

# st_await_two_links SECONDS: prints "TYPE DEV1 DEV2" once the only link
# group has two ACTIVE links
st_await_two_links() {
	local end=$((SECONDS + $1)) lgrs links
	while ((SECONDS < end)); do
		lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || return 1
		links=$("$SMCR_TOOLS/bin/smcr" -j link show) || return 1
		if [[ $(jq length <<<"$lgrs") == 1 &&
		      $(jq '[.[] | select(.state == "ACTIVE")] | length' <<<"$links") == 2 ]]; then
			echo "$(jq -r '.[0].type' <<<"$lgrs") $(jq -r '[.[].ibdev] | sort | join(" ")' <<<"$links")"
			return 0
		fi
		vm_nap 0.2
	done
	echo "no link group with two ACTIVE links:"
	echo "$lgrs"
	echo "$links"
	return 1
}

# st_two_links N BYTES: with smcr_max_links_per_lgr 2 on both sides, a's
# first connection to b (port $ST_PORT) makes the link group, which gets a
# second link within 30 s (60 s on the debug kernel): SYM, on two RoCE
# devices. Then N concurrent duplex connections of BYTES (port
# $ST_PORT + 1), held open until both VMs counted them (at most 100 s; a
# fixed hold could let the first ones end before the last connected):
# SMC-R, byte-exact, and each link carries at least a quarter of them on
# both sides. Returns 1 on any failure. The link group lingers 60 s meanwhile:
# on the debug kernel the second link took long enough that the first
# connection's link group lingered out (10 s) before the N came, and they
# made a new one (the next test's st_no_lgrs ends it).
st_two_links() {
	local n=$1 b=$2 p=$ST_PORT rc=0 counts c1 c2 cpid
	st_two_links_up "$b" || return 1

	# each side samples its per-link counts while they are all open
	case $SMCR_ROLE in
	b) st_serve_bg s1 server --family smc --port $((p + 1)) --conns "$n" --concurrent \
		--bytes "$b" --mode duplex --expect-mode smcr --timeout 160s || return 1 ;;
	a) st_await s1 || { st_release_held 30; return 1; }
	   touch "$ST_TMP/hold"
	   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((p + 1)) --conns "$n" \
		--bytes "$b" --mode duplex --expect-mode smcr --hold 100s --hold-file "$ST_TMP/hold" \
		--timeout 160s &
	   cpid=$! ;;
	esac
	st_await_lgr_conns "$n" 60 || rc=1
	"$SMCR_TOOLS/bin/smcr" lgr show
	"$SMCR_TOOLS/bin/smcr" link show
	counts=$("$SMCR_TOOLS/bin/smcr" -j link show | jq -r '[.[].conns] | sort | join(" ")')
	echo "connections per link: $counts (of $n)"
	read -r c1 c2 <<<"$counts"
	((c1 >= n / 4 && c2 >= n / 4 && c1 + c2 == n)) ||
		{ echo "connections not spread over both links"; rc=1; }
	st_release_held || rc=1
	case $SMCR_ROLE in
	b) st_wait_all || rc=1 ;;
	a) wait "$cpid" || rc=1 ;;
	esac
	return $rc
}

# st_two_links_up BYTES: st_two_links' first part, the link group of two
# links: a's first connection to b (port $ST_PORT, BYTES) makes it, and
# within 30 s (60 s on the debug kernel) it is SYM with two ACTIVE links on
# two RoCE devices.
st_two_links_up() {
	local b=$1 p=$ST_PORT rc=0 got type d1 d2
	if [[ ${ST_IMPL:-smcr} == smcr ]]; then	# (interop: Linux's linger is 10 min)
		st_param lgr_linger_ms 60000 || return 1
	fi
	case $SMCR_ROLE in
	b) st_serve_bg s0 server --family smc --port "$p" --conns 1 --bytes "$b" \
		--expect-mode smcr --timeout 60s || return 1
	   st_wait_all || rc=1 ;;
	a) st_await s0 || return 1
	   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$p" --conns 1 \
		--bytes "$b" --expect-mode smcr --timeout 30s || rc=1 ;;
	esac
	got=$(st_await_two_links "$(st_size 30 60)") || { echo "$got"; return 1; }
	echo "link group: $got"
	read -r type d1 d2 <<<"$got"
	[[ $type == SYM && $d1 != "$d2" ]] || { echo "expected type SYM on two devices"; rc=1; }
	"$SMCR_TOOLS/bin/smcr" link show
	vm_sync "$ST_KEY-two" || return 1
	return $rc
}

# st_no_lgrs SECONDS: ends the lingers of this VM's idle link groups (smcr's
# test_lgr_expire_idle: a server's now, a client's a second later) and
# waits until this VM has no link group. For a test that starts without
# one: earlier tests' link groups would otherwise linger lgr_linger_ms
# (10 s in the suite, some tests set 60 s). With Linux's smc.ko here,
# smcr's DELETE LINK from the other VM ends them. The hook is written again
# every 3 s: it passes over a link group that is not idle yet (its last
# connection still closing), which would then linger on; not more often,
# as each write moves a client's expiry a second on.
st_no_lgrs() {
	local p=/sys/module/smcr/parameters/test_lgr_expire_idle left
	local end=$((SECONDS + $1))
	while left=$((end - SECONDS)); ((left > 3)); do
		[[ -w $p ]] && echo Y >"$p"
		st_await_lgr_count 0 3 >/dev/null && return 0
	done
	[[ -w $p ]] && echo Y >"$p"
	st_await_lgr_count 0 $((left > 1 ? left : 1))
}

# st_await_lgr_count N SECONDS: waits until this VM has N link groups
st_await_lgr_count() {
	local n end=$((SECONDS + $2))
	# by the clock: one smcr + jq round takes a while on the debug kernel
	while ((SECONDS < end)); do
		n=$(st_lgr_count) && [[ $n == "$1" ]] && return 0
		vm_nap 0.1
	done
	echo "link groups: ${n:-?}, expected $1"
	return 1
}

# st_rxe_restore N: adds rxeN on ethN again if `rdma link del` removed it
st_rxe_restore() {
	rdma link show "rxe$1/1" >/dev/null 2>&1 ||
		rdma link add "rxe$1" type rxe netdev "eth$1"
}

# st_failover_busy_test WHO [WORDS...]: the smcr-to-smcr busy failover
# tests (090, 091): SMC-R data path, two links per link group, 16
# connections of 32 MiB each way (1 MiB on the debug kernel), b's
# handshake limit raised for them, no link group of an earlier test
# left; then st_failover_busy WHO 16 BYTES WORDS. Exits the test.
st_failover_busy_test() {
	local who=$1 b
	shift
	[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
	st_need_rxe
	b=$(st_size 32M 1M)
	st_param data_path Y || exit 1
	st_param smcr_max_links_per_lgr 2 || exit 1
	[[ $SMCR_ROLE == b ]] && { st_param hs_limit 256 || exit 1; }
	st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
	vm_sync "$ST_KEY-clean" || exit 1
	st_failover_busy "$who" 16 "$b" "$@" || exit 1
	exit 0
}

# st_failover_busy WHO N BYTES [any] [rdma-del]: failover under busy
# connections (RFC 7609 4.6). st_two_links_up makes a link group of two
# links (port $ST_PORT), then N concurrent duplex connections of BYTES each
# way (port $ST_PORT + 1), SMC-R and FNV-checked by smctest, spread over
# both links. Once WHO (a or b) has sent about a third of its bytes, WHO
# takes eth1 down (with rdma-del: removes rxe1, `rdma link del`): link 2
# is lost under its busy connections, which move to link 1.
# Against Linux each side shuts its connections down only once it
# received all their bytes (--late-shutdown), and Linux's side not before
# its own link set changed and 2 s more (--shutdown-hold-file): Linux
# moves a connection in a closing state without resending what the lost
# link dropped (6.12's smc_switch_conns() resends only for an ACTIVE one),
# so a connection of Linux's that had shut down with its last write in
# flight on the lost link missed exactly that write (64 KiB of 8 MiB, 2
# runs of 5 of interop 012 `--interop b`, 2026-12-04). smcr-to-smcr,
# closing connections fail over too: our C waits until the peer has every
# byte (architecture.rst "Failover"). Every connection must complete
# byte-exact on both sides;
# then, within 30 s (60 s on the debug kernel: DELETE LINK and the
# teardown may end after the data), this VM lists the same link group
# alone, of type SINGLE with link 1 its only ACTIVE link - or, with "any",
# still the same link group with at least one ACTIVE link (Linux may add
# a link on the one port left). Against Linux, too, smcr's side sends half
# of BYTES and Linux's all of them: Linux's consumer cursor update that
# was due when its link failed is not sent again until Linux has data to
# send (smc_tx_pending(); interop 012), so a Linux side that is done
# sending leaves a writer of ours blocked on an RMBE Linux emptied.
# Sending more than it receives, Linux is the last to finish sending.
# Restores eth1 (rxe1) at exit. The connections' watchdogs end them a minute
# before the driver's TIMEOUT would kill the test (the test's clock:
# SECONDS), so that a stalled connection fails the test itself, and 15 s
# before that this VM prints the state of the connections still open
# (st_failover_dump).
st_failover_busy() {
	local who=$1 n=$2 b=$3 p=$ST_PORT s=$SMCR_TOOLS/bin/smcr loose='' w
	local lgr want cpid end got links dl=$((ST_TIMEOUT - 60)) dpid xopts=()
	local mine=$b down=(ip link set eth1 down)
	shift 3
	for w; do
		case $w in
		any) loose=any ;;
		rdma-del) down=(rdma link del rxe1) ;;
		*) echo "st_failover_busy: unknown word $w"; return 1 ;;
		esac
	done
	local hold=$ST_TMP/shut-hold before=''
	if [[ ${ST_IMPL:-smcr} == linux || ${ST_PEER_IMPL:-smcr} == linux ]]; then
		local half=$(($(numfmt --from=iec "$b") / 2))
		if [[ ${ST_IMPL:-smcr} == linux ]]; then
			touch "$hold"
			st_cleanup "rm -f $hold"
			xopts=(--late-shutdown --shutdown-hold-file "$hold" --peer-bytes "$half")
		else
			mine=$half
			xopts=(--late-shutdown --peer-bytes "$b")
		fi
	fi
	if [[ ${down[0]} == rdma ]]; then
		st_cleanup 'st_rxe_restore 1'
	else
		st_cleanup 'ip link set eth1 up'
	fi
	# the debug kernel's receive path, under 16 busy duplex connections,
	# left send completions away for over the suite's 5 s: a working link
	# was taken down for want of a send buffer (wr.c) before the test's
	# own failure - with the 67 ms ACK timeout of then (qp_attr.c); kept
	# as that slow kernel's margin
	if [[ ${ST_IMPL:-smcr} == smcr && ${SMCR_KERNEL:-} == debug ]]; then
		st_param llc_timeout_ms 20000 || return 1
	fi
	st_two_links_up 64K || return 1
	lgr=$("$s" -j lgr show | jq -r '.[0].id')
	[[ ${ST_IMPL:-smcr} == linux ]] && before=$(st_active_links)
	local wd=$((dl - SECONDS))
	((wd >= 30)) || { echo "no time left for the connections (TIMEOUT $ST_TIMEOUT s)"; return 1; }
	case $SMCR_ROLE in
	b) st_serve_bg s1 server --family smc --port $((p + 1)) --conns "$n" --concurrent \
		--bytes "$mine" --mode duplex "${xopts[@]}" --expect-mode smcr --timeout "${wd}s" || return 1 ;;
	a) st_await s1 || return 1
	   touch "$ST_TMP/hold"
	   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((p + 1)) --conns "$n" \
		--bytes "$mine" --mode duplex "${xopts[@]}" --expect-mode smcr --hold 120s \
		--hold-file "$ST_TMP/hold" --timeout "${wd}s" &
	   cpid=$! ;;
	esac
	# all connected first: handshakes under the data are not the subject
	st_await_lgr_conns "$n" 60 || return 1
	# hand runs: ST_FAILOVER_TRACE=SEC prints the links and rxe's
	# counters every SEC seconds
	local tpid=0
	if [[ -n ${ST_FAILOVER_TRACE:-} ]]; then
		[[ $ST_FAILOVER_TRACE =~ ^[0-9]+$ && $ST_FAILOVER_TRACE -gt 0 ]] ||
			{ echo "ST_FAILOVER_TRACE: seconds, not '$ST_FAILOVER_TRACE'"; return 1; }
		(
			sp=
			trap '[[ -n $sp ]] && kill "$sp" 2>/dev/null; exit 0' TERM
			while :; do
				echo "trace $(date +%T.%N) smcr tx bytes $("$s" -j stats | jq .smcr.tx.bytes)"
				st_rxe_counters
				"$s" link show
				sleep "$ST_FAILOVER_TRACE" & sp=$!
				wait "$sp"
			done
		) &
		tpid=$!
		st_cleanup "kill $tpid 2>/dev/null"
	fi
	"$s" link show
	[[ $SMCR_ROLE == a ]] && rm -f "$ST_TMP/hold"
	if [[ $SMCR_ROLE == "$who" ]]; then
		want=$(( $("$s" -j stats | jq '.smcr.tx.bytes') + $(numfmt --from=iec "$mine") * n / 3 ))
		while (( $("$s" -j stats | jq '.smcr.tx.bytes') < want )); do
			jobs -rp | grep -qvx "$tpid" ||
				{ echo "the connections ended before a third of the data"; return 1; }
			vm_nap 0.1
		done
		echo "${down[*]} at $(date +%s.%N)"
		"${down[@]}" || { echo "${down[*]} failed"; return 1; }
	fi
	if [[ ${ST_IMPL:-smcr} == linux ]]; then
		st_await_links_change "$before" 30 || return 1
		sleep 2
		rm -f "$hold"
	fi
	# the dumper's sleep ends with it, not as a leftover of the test
	(
		sp=
		trap '[[ -n $sp ]] && kill "$sp" 2>/dev/null; exit 0' TERM
		sleep $((dl - 15 - SECONDS > 0 ? dl - 15 - SECONDS : 0)) & sp=$!
		wait "$sp"
		st_failover_dump
	) &
	dpid=$!
	st_cleanup "kill $dpid 2>/dev/null"
	case $SMCR_ROLE in
	b) st_wait_all || { echo "a connection failed (server side)"; return 1; } ;;
	a) wait "$cpid" || { echo "a connection failed (client side)"; return 1; } ;;
	esac
	kill "$dpid" 2>/dev/null
	end=$((SECONDS + $(st_size 30 60)))
	while :; do
		got=$("$s" -j lgr show | jq -r '"\(length) \(.[0].id) \(.[0].type)"')
		links=$(st_active_links)
		if [[ $loose == any ]]; then
			[[ $got == "1 $lgr "* && -n $links ]] && break
		else
			[[ $got == "1 $lgr SINGLE" && $links == 1 ]] && break
		fi
		if ((SECONDS >= end)); then
			"$s" lgr show
			"$s" link show
			echo "expected link group $lgr alone, SINGLE, link 1 ACTIVE alone: $got, links $links"
			return 1
		fi
		vm_nap 0.5
	done
	echo "after: link group $got, ACTIVE links $links"
	vm_sync "$ST_KEY-done"
}

# st_active_links: this VM's ACTIVE links' ids, comma-separated
st_active_links() {
	"$SMCR_TOOLS/bin/smcr" -j link show |
		jq -r '[.[] | select(.state == "ACTIVE") | .link_id] | join(",")'
}

# st_await_links_change BEFORE SECONDS: waits until this VM's ACTIVE links
# (st_active_links) are no longer BEFORE
st_await_links_change() {
	local now end=$((SECONDS + $2))
	while ((SECONDS < end)); do
		now=$(st_active_links) && [[ $now != "$1" ]] && return 0
		vm_nap 0.1
	done
	echo "ACTIVE links still $1 after $2 s"
	return 1
}

# st_failover_dump: the state of a stalled failover test - this VM's AF_SMC
# sockets (cursors, flags, link), links, link groups and the kernel's last
# smc lines.
st_failover_dump() {
	local s=$SMCR_TOOLS/bin/smcr
	echo "--- connections still open (role $SMCR_ROLE, $ST_IMPL)"
	"$SMCTEST" diag --kv 2>&1 | grep -v 'state=LISTEN' | head -n 40
	if [[ ${ST_IMPL:-smcr} == smcr ]]; then
		"$s" lgr show
		"$s" link show
	fi
	st_rxe_counters
	dmesg | grep -iE 'smc|rxe|link' | tail -n 30
}

# st_rxe_counters: every Soft-RoCE device's non-zero hardware counters on
# one line each (RNR NAKs, sequence errors, retries exceeded: what tells a
# stalled queue pair from a slow one), after the UDP drops (rxe's packets
# are UDP datagrams: a receive buffer overflow is a lost RoCE packet)
st_rxe_counters() {
	local d f line name
	awk '$1 == "Udp:" && $2 !~ /^[0-9]/ { split($0, k) }
	     $1 == "Udp:" && $2 ~ /^[0-9]/ { print "udp: " k[4] "=" $4 " " k[6] "=" $6 " " k[10] "=" $10 }' /proc/net/snmp
	for d in /sys/class/infiniband/rxe*/ports/1/hw_counters; do
		[[ -d $d ]] || continue
		line=
		for f in "$d"/*; do
			[[ $(<"$f") == 0 ]] || line+=" ${f##*/}=$(<"$f")"
		done
		name=${d#/sys/class/infiniband/}
		echo "${name%%/*}:${line:- all zero}"
	done
}

# st_interop_two_links: both sides of an interop test allow two links per
# link group. Linux (net.smc.smcr_max_links_per_lgr) takes a second RoCE
# port for a version 2 link group only if its interface has an address in
# the subnet of the connection's own address (192.0.2.0/24; eth1 is on
# 198.18.0.0/15), so Linux's eth1 also gets 192.0.2.1x/24, without a prefix
# route (nothing is routed differently). smcr: smcr_max_links_per_lgr 2 and
# hs_limit 256. Restored when the test exits.
st_interop_two_links() {
	local sys=/proc/sys/net/smc/smcr_max_links_per_lgr old alias
	if [[ $ST_IMPL == linux ]]; then
		[[ -w $sys ]] || { echo "Linux without $sys (6.12 and the debug kernel have it)"; return 1; }
		old=$(<"$sys")
		alias=192.0.2.1$([[ $SMCR_ROLE == a ]] && echo 1 || echo 2)/24
		st_cleanup "echo $old >$sys; ip addr del $alias dev eth1 2>/dev/null"
		echo 2 >"$sys" || { echo "cannot set $sys"; return 1; }
		ip addr add "$alias" dev eth1 noprefixroute || { echo "cannot add $alias to eth1"; return 1; }
	else
		st_param smcr_max_links_per_lgr 2 || return 1
		st_param hs_limit 256 || return 1
	fi
}
