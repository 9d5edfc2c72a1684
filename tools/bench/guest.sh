#!/bin/bash
# smcr benchmark, run by the VM harness in both VMs of one boot (make bench):
# VM b serves, VM a measures. Round by round, on the same rxe link:
#
#   tcp     smcr-bench over AF_INET
#   smcr    smcr-bench over AF_SMC with smcr.ko loaded
#   intree  smcr-bench over AF_SMC with Linux's smc.ko instead (rmmod smcr,
#           modprobe smc, a UEID on both sides: SMC-R v2 is all it can do
#           over rxe)
#   raw     perftest's ib_write_bw / ib_write_lat on rxe0
#
# Then, with smcr (when BENCH_SYSTEMS has it), link groups of one and two
# links (RFC 7609 2.3, 4.6; smcr_max_links_per_lgr 1, then 2, on both
# sides, the module reloaded in between):
#
#   links     8 concurrent 64 KiB streams, BENCH_LINKS_REPEAT times with one
#             link and as many with two (new connections go to the link
#             with the fewest: four on each), on one link group each
#   failover  BENCH_FAILOVER_TRIALS trials on the two-link group: 8 streams
#             of 16 KiB messages (64 KiB socket buffers), VM a takes eth1
#             (rxe1: link 2) down 2 s after all are writing, the streams go
#             on over link 1, eth1 comes up again at the end and the trial
#             after waits until the link group has two ACTIVE links again
#             (the port event re-adds link 2). The figure: ms from `ip link
#             set eth1 down` to the end of the last pause (>= 10 ms between
#             two sends) of any stream that spans the down or begins within
#             500 ms of it (the stall of link 2's connections until the
#             failover frees their send buffer: data moving on link 1).
#
# The order of the systems rotates from round to round. Every record is one
# JSON line in $SMCR_SHARED/bench/results.jsonl, with "system" and "round";
# tools/bench/report.py turns them into the table, JSON and plot on the host.
# A failed measurement is recorded with "error" and the run goes on.
#
# Knobs (environment, passed through by make bench):
#   BENCH_ROUNDS   rounds, the first is warm-up            (default 4)
#   BENCH_TIME     seconds per measurement                  (default 4)
#   BENCH_SIZES    stream message sizes in bytes            (64 ... 1 MiB)
#   BENCH_SYSTEMS  systems to measure                       (tcp smcr intree raw)
#   BENCH_MANY     concurrent connections, tcp and smcr     (default 10000)
#   BENCH_MANY_INTREE  the same for the in-tree smc.ko      (default 1000)
#   BENCH_MANY_BUF SO_RCVBUF and SO_SNDBUF of those connections (default
#                  32768: SMC-R RMB elements of 16 KiB)
#   BENCH_EQ_BUF   SO_RCVBUF and SO_SNDBUF of one more 64 KiB stream per
#                  system, so that all use the same buffers (default 131072:
#                  RMB elements of 128 KiB for both SMC-R implementations)
#   BENCH_LINKS_REPEAT     8-stream measurements per link count (default 3;
#                  0 skips the links and failover cases)
#   BENCH_FAILOVER_TRIALS  failover trials (default 5; 0 skips them)
#   BENCH_FAILOVER_TIME    seconds per failover trial's streams (default 10;
#                  a trial whose streams stop sending less than 1 s after the
#                  down counts as not measured)
set -u
tree=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=/dev/null
source "${SMCR_LIB:-$tree/tools/testing/vm/lib.sh}"
tools=${SMCR_TOOLS:-$tree/build/tools}
bench=$tools/bin/smcr-bench
smcr=$tools/bin/smcr

rounds=${BENCH_ROUNDS:-4}
secs=${BENCH_TIME:-4}
sizes=${BENCH_SIZES:-64 1024 16384 65536 1048576}
systems=${BENCH_SYSTEMS:-tcp smcr intree raw}
many=${BENCH_MANY:-10000}
many_intree=${BENCH_MANY_INTREE:-1000}
many_buf=${BENCH_MANY_BUF:-32768}
eq_buf=${BENCH_EQ_BUF:-131072}
links_repeat=${BENCH_LINKS_REPEAT:-3}
fo_trials=${BENCH_FAILOVER_TRIALS:-5}
fo_secs=${BENCH_FAILOVER_TIME:-10}
gid=${BENCH_GID:-1}	# rxe: index 1 is the IPv4-mapped RoCE v2 GID
ueid=SMCR-BENCH
out=$SMCR_SHARED/bench
res=$out/results.jsonl
peer=$SMCR_PEER_IP
port=5300

say() { echo "bench[$SMCR_ROLE]: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

mkdir -p "$out"
[[ -x $bench ]] || die "$bench not built (make tools)"
command -v jq >/dev/null || die "jq not installed"
# 10,000 connections need more descriptors than init's 4096
{ ulimit -Hn 65536 && ulimit -n 65536; } || die "cannot raise the open-files limit"

# record JSON [SYSTEM ROUND]: stdin's JSON object + system and round
record() {
	jq -c --arg s "$1" --argjson r "$2" '. + {system: $s, round: $r}' >>"$res"
}

record_error() {	# SYSTEM ROUND MODE TEXT [MSG_SIZE]
	jq -nc --arg s "$1" --argjson r "$2" --arg m "$3" --arg e "$4" --argjson z "${5:-0}" \
		'{system: $s, round: $r, mode: $m, msg_size: $z, error: $e}' >>"$res"
}

# ------------------------------------------------------------ modules
# unload MODULE..., retrying while closed connections wind down
unload() {
	local m i
	for m in "$@"; do
		[[ -d /sys/module/$m ]] || continue
		for ((i = 0; i < 60; i++)); do
			rmmod "$m" 2>/dev/null && break
			sleep 0.5
		done
		[[ -d /sys/module/$m ]] && { say "cannot unload $m"; return 1; }
	done
	return 0
}

enter() {	# SYSTEM: load what it needs in this VM
	case $1 in
	smcr)
		unload smc_diag smc || return 1
		smcr_load ;;
	intree)
		unload smcr || return 1
		modprobe smc || return 1
		"$smcr" ueid add "$ueid" >/dev/null 2>&1 ||
			"$smcr" ueid show 2>/dev/null | grep -q "$ueid" ;;
	tcp | raw) return 0 ;;
	esac
}

family_of() { [[ $1 == tcp ]] && echo inet || echo smc; }

# SMC-R counters of this VM (smcr.ko's or smc.ko's: the same netlink ABI)
counters() {
	"$smcr" -j stats 2>/dev/null |
		jq -c '{tx: .smcr.tx.bytes, rx: .smcr.rx.bytes, fb: (.fallback.client + .fallback.server)}' 2>/dev/null ||
		echo '{}'
}

# ------------------------------------------------------------ socket systems
# Client side: one measurement. ARGS... are smcr-bench client arguments
measure() {	# SYSTEM ROUND ARGS... ($mport: another server port)
	local sys=$1 r=$2 line
	shift 2
	line=$(timeout $((secs + 120)) "$bench" client --peer "$peer" --port "${mport:-$port}" \
		--family "$(family_of "$sys")" --timeout $((secs + 90))s "$@" 2>/tmp/bench.err)
	if [[ $? == 0 && -n $line ]]; then
		record "$sys" "$r" <<<"$line"
	else
		say "$sys round $r: $* failed: $(tail -n1 /tmp/bench.err)"
		record_error "$sys" "$r" "$1" "$(tail -n1 /tmp/bench.err)"
	fi
}

srvs=()
server_start() {	# SYSTEM PORT [SERVER OPTIONS...]
	local out=/tmp/bench-server-$2.out pid i
	"$bench" server --family "$(family_of "$1")" --port "$2" "${@:3}" >"$out" 2>&1 &
	pid=$!
	srvs+=("$pid")
	for ((i = 0; i < 100; i++)); do
		grep -q '^listening' "$out" && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	cat "$out" >&2
	return 1
}

server_stop() {
	local pid
	for pid in "${srvs[@]}"; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	srvs=()
}

socket_round() {	# SYSTEM ROUND
	local sys=$1 r=$2 key=$1-$2 c0 c1 s
	case $SMCR_ROLE in
	b)
		if server_start "$sys" "$port" &&
			server_start "$sys" $((port + 1)) --rcvbuf "$eq_buf" --sndbuf "$eq_buf"; then
			vm_put "up-$key" ok
		else
			vm_put "up-$key" fail
		fi
		vm_get "done-$key" 1200 >/dev/null
		server_stop ;;
	a)
		[[ $(vm_get "up-$key" 120) == ok ]] || { record_error "$sys" "$r" server "server did not start"; return; }
		c0=$(counters)
		for s in $sizes; do
			measure "$sys" "$r" stream --msg-size "$s" --time "${secs}s"
		done
		measure "$sys" "$r" stream --msg-size 65536 --conns 4 --time "${secs}s"
		# the same socket buffers everywhere (smcr's and smc.ko's defaults differ)
		mport=$((port + 1)) measure "$sys" "$r" stream --msg-size 65536 --time "${secs}s" \
			--rcvbuf "$eq_buf" --sndbuf "$eq_buf"
		measure "$sys" "$r" rr --msg-size 1 --time "${secs}s"
		measure "$sys" "$r" rr --msg-size 1024 --time "${secs}s"
		measure "$sys" "$r" crr --time "${secs}s"
		c1=$(counters)
		# what carried the bytes: SMC-R counters and fallbacks of this VM
		jq -nc --arg s "$sys" --argjson r "$r" --argjson a "$c0" --argjson b "$c1" \
			'{system: $s, round: $r, mode: "counters",
			  smcr_tx_bytes: (($b.tx // 0) - ($a.tx // 0)),
			  smcr_rx_bytes: (($b.rx // 0) - ($a.rx // 0)),
			  fallbacks: (($b.fb // 0) - ($a.fb // 0))}' >>"$res"
		vm_put "done-$key" ok ;;
	esac
}

# ------------------------------------------------------------ raw verbs
# perftest prints a header line and a figures line; take the figures.
perf_figures() { awk '/^ *#bytes/ { getline; print; exit }'; }

raw_one() {	# ROUND INDEX TOOL ARGS...
	local r=$1 i=$2 tool=$3 key=raw-$1-$2 f
	shift 3
	case $SMCR_ROLE in
	b)
		timeout $((secs + 60)) "$tool" -d rxe0 -x "$gid" -F "$@" >/tmp/perf-s.out 2>&1 &
		local p=$!
		sleep 0.5
		vm_put "up-$key" ok
		wait "$p"
		vm_sync "end-$key" 300 ;;
	a)
		vm_get "up-$key" 120 >/dev/null
		sleep 1
		if timeout $((secs + 60)) "$tool" -d rxe0 -x "$gid" -F "$@" "$peer" >/tmp/perf-c.out 2>&1 &&
			f=$(perf_figures </tmp/perf-c.out) && [[ -n $f ]]; then
			if [[ $tool == ib_write_bw ]]; then
				# #bytes #iterations BW-peak BW-average[MB/sec] MsgRate
				read -r -a v <<<"$f"
				jq -nc --argjson r "$r" --argjson z "${v[0]}" --argjson bw "${v[3]}" \
					'{system: "raw", round: $r, mode: "stream", tool: "ib_write_bw",
					  msg_size: $z, conns: 1, mbit_s: ($bw * 1048576 * 8 / 1e6)}' >>"$res"
			else
				# #bytes #iter t_min t_max t_typical t_avg t_stdev p99 p99.9 (one-way, us)
				read -r -a v <<<"$f"
				jq -nc --argjson r "$r" --argjson z "${v[0]}" --argjson p50 "${v[4]}" \
					--argjson p99 "${v[7]}" --argjson p999 "${v[8]}" --argjson avg "${v[5]}" \
					'{system: "raw", round: $r, mode: "rr", tool: "ib_write_lat", msg_size: $z,
					  one_way_p50_us: $p50, one_way_p99_us: $p99, one_way_p999_us: $p999,
					  one_way_mean_us: $avg}' >>"$res"
			fi
		else
			say "raw round $r: $tool $* failed: $(tail -n2 /tmp/perf-c.out | tr '\n' ' ')"
			record_error raw "$r" "$tool" "$(tail -n1 /tmp/perf-c.out)"
		fi
		vm_sync "end-$key" 300 ;;
	esac
}

raw_round() {	# ROUND
	local r=$1 i=0 s
	command -v ib_write_bw >/dev/null || { [[ $SMCR_ROLE == a ]] && record_error raw "$r" raw "perftest not installed"; return; }
	for s in $sizes; do
		raw_one "$r" $((i++)) ib_write_bw -s "$s" -D "$secs"
	done
	raw_one "$r" $((i++)) ib_write_lat -s 1 -n 2000
	raw_one "$r" $((i++)) ib_write_lat -s 1024 -n 2000
}

# ------------------------------------------------------------ many connections
meminfo() { awk '/^(MemTotal|MemAvailable):/ { v[$1] = $2 } END { print v["MemTotal:"] - v["MemAvailable:"] }' /proc/meminfo; }

many_round() {	# SYSTEM COUNT
	local sys=$1 n=$2 key=many-$1 m0 m1 lgr cli
	case $SMCR_ROLE in
	b)
		m0=$(meminfo)
		if server_start "$sys" "$port" --rcvbuf "$many_buf" --sndbuf "$many_buf"; then vm_put "up-$key" ok; else vm_put "up-$key" fail; fi
		if [[ $(vm_get "held-$key" 1200) == ok ]]; then
			m1=$(meminfo)
			lgr='{}'
			[[ $sys != tcp ]] && lgr=$("$smcr" -j lgr show 2>/dev/null |
				jq -c '{server_lgrs: length, server_lgr_conns: ([.[].conns] | add // 0),
					server_rmb_bytes: ([.[].rmb_alloc // 0] | add // 0)}' 2>/dev/null || echo '{}')
			vm_put "mem-$key" "$(jq -nc --argjson d $((m1 - m0)) --argjson l "$lgr" '$l + {server_mem_delta_kib: $d}')"
		fi
		vm_get "done-$key" 1200 >/dev/null
		server_stop ;;
	a)
		[[ $(vm_get "up-$key" 120) == ok ]] || { record_error "$sys" 0 many "server did not start"; vm_put "held-$key" fail; return; }
		rm -f /tmp/bench-ready
		timeout 1200 "$bench" client --peer "$peer" --port "$port" --family "$(family_of "$sys")" \
			--timeout 1100s --rcvbuf "$many_buf" --sndbuf "$many_buf" \
			many --conns "$n" --hold 20s --ready-file /tmp/bench-ready \
			>/tmp/bench-many.out 2>/tmp/bench.err &
		cli=$!
		while [[ ! -e /tmp/bench-ready ]] && kill -0 "$cli" 2>/dev/null; do sleep 0.5; done
		if [[ -e /tmp/bench-ready ]]; then
			lgr='{}'
			[[ $sys != tcp ]] && lgr=$("$smcr" -j lgr show 2>/dev/null |
				jq -c '{client_rmb_bytes: ([.[].rmb_alloc // 0] | add // 0)}' 2>/dev/null || echo '{}')
			vm_put "held-$key" ok
			m1=$(vm_get "mem-$key" 300) || m1='{}'
		else
			vm_put "held-$key" fail
			m1='{}' lgr='{}'
		fi
		wait "$cli"
		if [[ -s /tmp/bench-many.out ]]; then
			jq -c --argjson m "$m1" --argjson l "$lgr" '. + $m + $l' /tmp/bench-many.out | record "$sys" 0
		else
			record_error "$sys" 0 many "$(tail -n1 /tmp/bench.err)"
		fi
		vm_put "done-$key" ok ;;
	esac
}

# ------------------------------------------------------------ one link, two links
max_links_param=/sys/module/smcr/parameters/smcr_max_links_per_lgr

# links_enter N: smcr.ko loaded afresh in this VM with smcr_max_links_per_lgr
# N (a link group takes the value when it is made: reloading ends the old ones)
links_enter() {
	unload smc_diag smc smcr || return 1
	smcr_load "smcr_max_links_per_lgr=$1" || return 1
	[[ $(<"$max_links_param") == "$1" ]] || { say "smcr_max_links_per_lgr is $(<"$max_links_param"), not $1"; return 1; }
}

# await_links N SECONDS: this VM has one link group with N ACTIVE links
await_links() {
	local end=$((SECONDS + $2)) lgrs links
	while ((SECONDS < end)); do
		lgrs=$("$smcr" -j lgr show 2>/dev/null) && links=$("$smcr" -j link show 2>/dev/null) &&
			[[ $(jq length <<<"$lgrs") == 1 &&
			   $(jq '[.[] | select(.state == "ACTIVE")] | length' <<<"$links") == "$1" ]] && return 0
		sleep 0.2
	done
	say "no link group with $1 ACTIVE links: $(jq -c . <<<"${lgrs:-null}") $(jq -c '[.[] | {ibdev, state, conns}]' <<<"${links:-null}")"
	return 1
}

# link_conns: this VM's links, {ibdev: connections}
link_conns() {
	"$smcr" -j link show 2>/dev/null | jq -c 'map({(.ibdev): .conns}) | add // {}' 2>/dev/null || echo '{}'
}

# links_phase N: the 8-stream measurements with N links (and, with 2, the
# failover trials). Both VMs; a measures, b serves.
links_phase() {
	local n=$1 key=links-$1 i ok=ok line cli t_down conns
	vm_sync "$key-enter" 300 || die "peer lost"
	links_enter "$n" || ok=fail
	[[ $SMCR_ROLE == b ]] && { server_start smcr "$port" || ok=fail; }
	vm_put "$key-up-$SMCR_ROLE" "$ok"
	[[ $(vm_get "$key-up-$SMCR_PEER_ROLE" 300) == ok && $ok == ok ]] ||
		{ [[ $SMCR_ROLE == a ]] && record_error smcr 0 links "cannot load smcr with $n links"; server_stop; return; }
	# the link group: a's first connection makes it, the second link (if
	# any) comes within 30 s
	[[ $SMCR_ROLE == a ]] && timeout 60 "$bench" client --peer "$peer" --port "$port" --family smc \
		--timeout 30s stream --msg-size 65536 --time 1s >/dev/null 2>/tmp/bench.err
	ok=ok
	await_links "$n" 60 || ok=fail
	vm_put "$key-lgr-$SMCR_ROLE" "$ok"
	[[ $(vm_get "$key-lgr-$SMCR_PEER_ROLE" 300) == ok && $ok == ok ]] ||
		{ [[ $SMCR_ROLE == a ]] && record_error smcr 0 links "no link group of $n links"; vm_sync "$key-end" 600; server_stop; return; }
	if [[ $SMCR_ROLE == a ]]; then
		for ((i = 0; i < links_repeat; i++)); do
			timeout $((secs + 120)) "$bench" client --peer "$peer" --port "$port" --family smc \
				--timeout $((secs + 90))s --label "$key" stream --msg-size 65536 --conns 8 \
				--time "${secs}s" >/tmp/bench-links.out 2>/tmp/bench.err &
			cli=$!
			sleep "$(awk -v s="$secs" 'BEGIN { print s / 2 }')"
			conns=$(link_conns)
			if wait "$cli" && line=$(head -n1 /tmp/bench-links.out) && [[ -n $line ]]; then
				jq -c --argjson l "$n" --argjson c "$conns" --argjson i "$i" \
					'. + {mode: "links", links: $l, link_conns: $c, trial: $i}' <<<"$line" | record smcr 0
			else
				say "links $n: $(tail -n1 /tmp/bench.err)"
				record_error smcr 0 links "$n links: $(tail -n1 /tmp/bench.err)"
			fi
		done
	fi
	((n == 2)) && failover_trials
	vm_sync "$key-end" 600
	server_stop
}

# failover_trials: on the two-link group; a takes its eth1 down under 8 streams
failover_trials() {
	local t key ok cli lc line t_down conns
	for ((t = 0; t < fo_trials; t++)); do
		key=failover-$t
		ok=ok
		await_links 2 60 || ok=fail
		vm_put "$key-two-$SMCR_ROLE" "$ok"
		if [[ $(vm_get "$key-two-$SMCR_PEER_ROLE" 120) != ok || $ok != ok ]]; then
			[[ $SMCR_ROLE == a ]] && record_error smcr "$t" failover "trial $t: no link group of two ACTIVE links"
			vm_sync "$key-done" 600
			break
		fi
		if [[ $SMCR_ROLE == a ]]; then
			rm -f /tmp/bench-ready
			timeout $((fo_secs + 120)) "$bench" client --peer "$peer" --port "$port" --family smc \
				--timeout $((fo_secs + 90))s --label "$key" --sndbuf 65536 --rcvbuf 65536 \
				stream --msg-size 16384 --conns 8 --time "${fo_secs}s" \
				--ready-file /tmp/bench-ready >/tmp/bench-fo.out 2>/tmp/bench.err &
			cli=$!
			# 2 s after all 8 are connected and writing
			while [[ ! -e /tmp/bench-ready ]] && kill -0 "$cli" 2>/dev/null; do sleep 0.05; done
			# (in the background: smcr + jq take seconds under TCG)
			link_conns >/tmp/bench-link-conns &
			lc=$!
			sleep 2
			t_down=$(date +%s%N)
			ip link set eth1 down
			wait "$cli"
			ok=$?
			ip link set eth1 up
			wait "$lc"
			conns=$(</tmp/bench-link-conns)
			[[ -n $conns ]] || conns='{}'
			"$smcr" -j stats >"$out/failover-$t-stats.json" 2>/dev/null
			if [[ $ok == 0 ]] && line=$(head -n1 /tmp/bench-fo.out) && [[ -n $line ]]; then
				# the pauses (>= 10 ms) that end after the down and begin
				# before it or within 500 ms: the stalls of link 2's streams
				jq -c --argjson d "$t_down" --argjson c "$conns" --argjson t "$t" \
					'[.pauses[] | select(.[2] > $d and .[1] < $d + 5e8)] as $s |
					 ($s | max_by(.[2])) as $m |
					 . + {mode: "failover", trial: $t, link_conns: $c, down_realtime_ns: $d,
					      down_after_start_ms: (($d - .start_realtime_ns) / 1e6),
					      down_before_end_ms: ((.sends_end_realtime_ns - $d) / 1e6),
					      stalled_conns: ($s | map(.[0]) | unique | length),
					      down_to_resume_ms: (if $m then ($m[2] - $d) / 1e6 else 0 end),
					      stall_ms: (if $m then ($m[2] - $m[1]) / 1e6 else 0 end),
					      stall_starts_after_down_ms: (if $m then ($m[1] - $d) / 1e6 else null end)}' \
					<<<"$line" | record smcr 0
			else
				say "failover trial $t: $(tail -n1 /tmp/bench.err)"
				record_error smcr "$t" failover "trial $t (links before: $conns): $(tail -n1 /tmp/bench.err)"
			fi
		fi
		vm_sync "$key-done" 600 || die "peer lost"
	done
	[[ $SMCR_ROLE == a ]] && ip link set eth1 up
}

# ------------------------------------------------------------ main
say "$(uname -r), $rounds rounds of ${secs} s measurements: $systems"
[[ $SMCR_ROLE == a ]] && : >"$res"
read -r -a sys_list <<<"$systems"
nsys=${#sys_list[@]}
for ((r = 0; r < rounds; r++)); do
	for ((k = 0; k < nsys; k++)); do
		sys=${sys_list[$(((k + r) % nsys))]}
		vm_sync "enter-$sys-$r" 300 || die "peer lost"
		enter "$sys" || say "cannot enter $sys (round $r)"
		vm_sync "ready-$sys-$r" 300 || die "peer lost"
		say "round $r: $sys"
		case $sys in
		raw) raw_round "$r" ;;
		*) socket_round "$sys" "$r" ;;
		esac
	done
done
for sys in $systems; do
	[[ $sys == raw ]] && continue
	vm_sync "enter-many-$sys" 300 || die "peer lost"
	enter "$sys" || say "cannot enter $sys (many)"
	vm_sync "ready-many-$sys" 300 || die "peer lost"
	n=$many
	[[ $sys == intree ]] && n=$many_intree
	say "many: $n connections over $sys"
	many_round "$sys" "$n"
done
if [[ " $systems " == *" smcr "* ]] && ((links_repeat > 0)); then
	say "links: 8 streams over one link, then two; $fo_trials failover trials"
	links_phase 1
	links_phase 2
fi
vm_sync bench-end 600
unload smc_diag smc
say "done: $(wc -l <"$res" 2>/dev/null) records"
exit 0
