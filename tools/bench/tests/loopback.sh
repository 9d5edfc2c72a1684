#!/bin/bash
# ctest: smcr-bench end to end over TCP on 127.0.0.1 and ::1 (no module
# needed): a server on a free port, every client mode with sanity checks on
# its JSON, a bad hello, --once, --timeout, rr over IPv6, usage and connect
# errors.
#   loopback.sh PATH/TO/smcr-bench
# A host without IPv6 loopback fails the IPv6 part; SMCR_NO_IPV6=1 skips it
# (and says so) instead.
set -u
B=$1
command -v jq >/dev/null || { echo "jq is needed"; exit 1; }
tmp=$(mktemp -d)
trap 'kill -CONT $(jobs -p) 2>/dev/null; kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0 n=0

ok() { n=$((n + 1)); echo "ok - $1"; }
bad() { n=$((n + 1)); fail=$((fail + 1)); echo "FAIL - $1"; [[ -e $tmp/err ]] && cat "$tmp/err"; }

# start_server NAME ARGS...: background server; sets srv_pid, srv_port
start_server() {
	local name=$1; shift
	"$B" server "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	srv_pid=$!
	for ((i = 0; i < 200; i++)); do
		if grep -qs '^listening on ' "$tmp/$name.out"; then
			srv_port=$(sed -n 's/^listening on .*:\([0-9]*\) family .*/\1/p' "$tmp/$name.out")
			return 0
		fi
		kill -0 $srv_pid 2>/dev/null || break
		sleep 0.05
	done
	echo "server $name did not start"; cat "$tmp/$name.err"; exit 1
}

# run DESC JQ_FILTER CLIENT_ARGS...: client must exit 0 with one JSON line
# for which the jq filter is true.
run() {
	local desc=$1 filter=$2 rc; shift 2
	"$B" client "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [[ $rc != 0 ]]; then bad "$desc (rc $rc)"; return; fi
	if [[ $(wc -l <"$tmp/out") != 1 ]] || ! jq -e "$filter" "$tmp/out" >/dev/null; then
		bad "$desc: JSON check failed: $filter"; cat "$tmp/out"; return
	fi
	ok "$desc: $(cat "$tmp/out")"
}

# expect_rc DESC RC STDERR_REGEX CMD...
expect_rc() {
	local desc=$1 want=$2 re=$3 rc; shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [[ $rc == "$want" ]] && grep -Eq "$re" "$tmp/err"; then ok "$desc"; else bad "$desc (rc $rc, want $want)"; fi
}

start_server main --bind 127.0.0.1 --port 0 --threads 2
P=$srv_port main_pid=$srv_pid
peer=(--peer 127.0.0.1 --port "$P")

common='.family == "inet" and .peer == "127.0.0.1" and .port == '$P
run "stream 1s 2 conns" "$common"' and .mode == "stream" and .conns == 2 and .msg_size == 65536
	and .bytes > 0 and .bytes % 65536 == 0 and .secs >= 0.9 and .secs < 30 and .mbit_s > 0
	and ((.mbit_s - .bytes * 8 / .secs / 1e6) / .mbit_s | fabs) < 0.001' \
	"${peer[@]}" stream --time 1s --conns 2
# the longest pause between sends: within the run, its end after its start
run "stream max gap" '.max_gap_ms > 0 and .max_gap_ms < .secs * 1000 and .max_gap_conn < 2
	and .max_gap_end_realtime_ns > .max_gap_start_realtime_ns
	and ((.max_gap_end_realtime_ns - .max_gap_start_realtime_ns) / 1e6 - .max_gap_ms | fabs) < 0.01
	and (now * 1e9 - .max_gap_end_realtime_ns) < 60e9 and (now * 1e9 - .max_gap_end_realtime_ns) > 0
	and .start_realtime_ns <= .max_gap_start_realtime_ns and .max_gap_end_realtime_ns <= .sends_end_realtime_ns + 1e9
	and (.sends_end_realtime_ns - .start_realtime_ns) >= 0.45e9
	and (.pauses | all(length == 3 and .[0] < 2 and .[2] - .[1] >= 1e7))' \
	"${peer[@]}" stream --time 500ms --conns 2 --msg-size 16K
run "rr 1s" "$common"' and .mode == "rr" and .msg_size == 1 and .count > 0 and .secs >= 0.9
	and .rtt_min_us > 0 and .rtt_min_us <= .rtt_p50_us and .rtt_p50_us <= .rtt_p99_us
	and .rtt_p99_us <= .rtt_p999_us and .rtt_p999_us <= .rtt_max_us
	and .rtt_mean_us >= .rtt_min_us and .rtt_mean_us <= .rtt_max_us
	and (.one_way_p50_us - .rtt_p50_us / 2 | fabs) < 0.002 and .transactions_per_s > 0' \
	"${peer[@]}" rr --time 1s --warmup 100ms
run "rr 100K messages, label" "$common"' and .mode == "rr" and .msg_size == 102400 and .count > 0
	and .label == "run \"1\"\tx"' \
	"${peer[@]}" rr --time 300ms --warmup 0 --msg-size 100K --label "$(printf 'run "1"\tx')"
run "crr 1s" "$common"' and .mode == "crr" and .conns > 0 and .conns == .attempts and .failed == 0
	and .errors == {} and .conns_per_s > 0 and .lat_p50_us > 0 and .lat_p50_us <= .lat_p99_us
	and .lat_p99_us <= .lat_max_us' \
	"${peer[@]}" crr --time 1s
run "many 200 conns" "$common"' and .mode == "many" and .conns == 200 and .opened == 200
	and .failed == 0 and .errors == {} and .secs_to_open > 0 and .conns_per_s > 0 and .hold_secs == 0.2
	and (.mem_avail_delta_kib | type) == "number" and (.kib_per_conn | type) == "number"' \
	"${peer[@]}" many --conns 200 --hold 0.2 --ready-file "$tmp/ready"
if [[ $(cat "$tmp/ready" 2>/dev/null) == 200 ]]; then ok "ready file says 200"; else bad "ready file"; fi
run "stream with --sndbuf/--rcvbuf, small messages" '.bytes > 0 and .sndbuf == 65536 and .rcvbuf == 131072
	and .msg_size == 64' "${peer[@]}" stream --time 300ms --msg-size 64 --sndbuf 64K --rcvbuf 128K

# A bad hello is dropped with a message; the server keeps serving.
exec 3<>/dev/tcp/127.0.0.1/"$P"
printf 'GARBAGE-GARBAGE!' >&3
if IFS= read -r -t 10 -u 3 _; [[ $? == 1 ]]; then ok "bad hello: server closes"; else bad "bad hello: no close"; fi
exec 3<&-
# A hello byte by byte with an absurd message size.
exec 3<>/dev/tcp/127.0.0.1/"$P"
for b in 'S' 'M' 'B' 'N' '\0' '\0' '\0' '\2' '\377' '\377' '\377' '\377' '\0' '\0' '\0' '\0'; do
	# shellcheck disable=SC2059 # $b is a printf escape (\0, \377)
	printf "$b" >&3; sleep 0.01
done
if IFS= read -r -t 10 -u 3 _; [[ $? == 1 ]]; then ok "huge msg_size: server closes"; else bad "huge msg_size: no close"; fi
exec 3<&-
sleep 0.2
if grep -q 'bad magic 0x47415242' "$tmp/main.err" && grep -q 'bad msg_size 4294967295' "$tmp/main.err"; then
	ok "server logged the bad hellos"
else
	bad "server log: $(cat "$tmp/main.err")"
fi
run "rr after the bad hellos" '.count > 0' "${peer[@]}" rr --time 200ms --warmup 0

# --timeout: a stopped server accepts (backlog) but never answers.
kill -STOP $main_pid
expect_rc "--timeout ends a hung rr" 1 'timeout after 1000 ms' "$B" client "${peer[@]}" rr --timeout 1s
kill -CONT $main_pid

# SIGTERM: clean exit 0.
kill -TERM $main_pid
wait $main_pid; rc=$?
if [[ $rc == 0 ]]; then ok "server exits 0 on SIGTERM"; else bad "server exit $rc on SIGTERM"; fi

# --once: the server ends after the first stream connection.
start_server once --bind 127.0.0.1 --port 0 --once --threads 1
run "stream against --once server" '.bytes > 0' --peer 127.0.0.1 --port "$srv_port" stream --time 200ms
for ((i = 0; i < 100; i++)); do kill -0 $srv_pid 2>/dev/null || break; sleep 0.05; done
if ! kill -0 $srv_pid 2>/dev/null && wait $srv_pid; then ok "--once server exited 0"; else bad "--once server still running or failed"; fi

# IPv6 loopback: a failure where the host has none, unless SMCR_NO_IPV6=1.
if [[ ${SMCR_NO_IPV6:-0} == 1 ]]; then
	echo "skip - rr over ::1 (SMCR_NO_IPV6=1)"
else
	"$B" server --bind ::1 --port 0 --once >"$tmp/v6.out" 2>"$tmp/v6.err" &
	v6=$!
	for ((i = 0; i < 100; i++)); do
		grep -qs '^listening on ' "$tmp/v6.out" && break
		kill -0 $v6 2>/dev/null || break
		sleep 0.05
	done
	if grep -qs '^listening on ' "$tmp/v6.out"; then
		p6=$(sed -n 's/^listening on .*:\([0-9]*\) family .*/\1/p' "$tmp/v6.out")
		run "rr over ::1" '.peer == "::1" and .count > 0' --peer ::1 --port "$p6" rr --time 200ms --warmup 0
		wait $v6
	else
		cp "$tmp/v6.err" "$tmp/err"
		bad "no server on ::1 (no IPv6 loopback? SMCR_NO_IPV6=1 skips this part)"
		kill $v6 2>/dev/null
	fi
fi

# Errors.
expect_rc "refused connect exits 1" 1 'connect 127.0.0.1:[0-9]+: Connection refused' \
	"$B" client --peer 127.0.0.1 --port "$P" rr --time 1s
expect_rc "usage error exits 64" 64 'msg-size must be 64' "$B" client --peer 127.0.0.1 stream --msg-size 1
expect_rc "unknown option exits 64" 64 "unknown option '--frob'" "$B" server --frob
if "$B" --help | grep -q '^usage: smcr-bench'; then ok "--help"; else bad "--help"; fi

echo "$((n - fail)) passed, $fail failed"
[[ $fail == 0 ]]
