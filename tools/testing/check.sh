#!/bin/bash
# `make check`: run the smcr tests in QEMU VMs on every kernel and summarize.
#
# In this order (the stock kernels first: the debug kernel may still be
# building in the background (SCHED_IDLE) and takes the CPU they leave):
#   host: ctest --test-dir build/tools (GoogleTest + loopback); checkpatch
#   --strict and sparse (C=1 W=1), in the background (SCHED_IDLE), counted at the end
#   substrate: one short VM boot showing that cpu-check refuses a CPU whose
#   emulated cmpxchg16b corrupts RFLAGS (QEMU 7.2's TCG)
#   stock 6.12 (2 VMs): selftests/run --smoke; then the interop group on
#   6.12: selftests/run --interop, smcr against Linux's smc.ko, once with
#   Linux as the server (role b), once as the client (role a)
#   stock 6.1 (2 VMs): selftests/run --smoke (6.1's rxe cannot carry Linux's
#   SMC-R: no interop)
#   6.12-intree (1 VM of stock 6.12 that may load Linux's smc.ko, run
#   --allow-intree-smc): selftests/run --intree, the tests comparing smcr
#   with smc.ko
#   debug kernel: waits for its build, builds smcr.ko and the KUnit module
#   for it, then (2 VMs, one boot) the KUnit module (role a) + every
#   selftest but those tagged "# DEBUG: no"; then the interop group but
#   those tagged "# DEBUG: no" (or "# DEBUG: linux-a"), with Linux as the
#   server (role b) only: smcr's server paths run under the debug kernel in
#   the smcr-to-smcr selftests, and a second debug boot cost ~400 s
#
# Expects the top-level Makefile to have built build/mod-test/<kver>/smcr.ko
# for the stock kernels, with the test hooks (SMCR_TEST_HOOKS=y, as make
# check builds them), and build/tools/. The debug kernel's module it builds
# itself, with them too.
# Ends with exactly one line "N passed, N failed" (ctest tests, static
# checks, KUnit cases + selftests, all kernels; a VM run failing on a kernel
# splat/leak/taint, an infrastructure failure (Soft-RoCE not up included),
# a kernel that ran no test or only skips, a skip that
# selftests/expected-skips.txt does not list, or a kernel over its budget
# count as one failure each) and exits non-zero on any failure or if no
# test ran.
set -euo pipefail
# the selftests need the test hooks (net/smc/test_hooks.h)
export SMCR_TEST_HOOKS=y

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tree=$(git -C "$here" rev-parse --show-toplevel 2>/dev/null) || tree=$(cd "$here/../.." && pwd)
vm=$tree/tools/testing/vm

usage() {
	cat <<EOF
Usage: ${0##*/} [OPTIONS]
  --kernels "LIST"    kernels to test, in order (default: "6.12 6.1
                      6.12-intree debug"; env SMCR_CHECK_KERNELS); 6.12-intree
                      is stock 6.12 allowing smc.ko, for the INTREE tests
  --logdir DIR        logs (default build/check/<time>); one subdir per kernel
  --timeout SEC       guest command timeout for stock kernels (default 600)
  --debug-timeout SEC guest command timeout for the debug kernel (default 3600,
                      above its budget: the budget is the gate, this a hang guard)
  --selftests CMD     selftest driver run in the guests (default selftests/run;
                      must be visible in the guest: tree or host root, not /tmp)
  --kunit-ko PATH     KUnit module instead of build/mod-test/<debug kver>/smcr_kunit.ko
  --no-ctest          skip the host ctest run (build/tools)
  --no-static         skip the static checks (checkpatch --strict on every
                      kernel file, sparse C=1 with W=1 on the module)
  --no-substrate      skip the cpu-check test of the VM substrate
  --no-interop        skip the interop group
  --soak              the soak tier instead: selftests tagged SOAK at their
                      soak sizes on the stock kernels (selftests/run --soak),
                      then tools/testing/vm/soak --boots \$SOAK_BOOTS (10) of
                      the stream tests on stock 6.12; no budgets
  -h, --help          this text
EOF
}

unset kernels		# set by --kernels or SMCR_CHECK_KERNELS, else below
[[ -z ${SMCR_CHECK_KERNELS+set} ]] || kernels=$SMCR_CHECK_KERNELS
# Budgets (seconds) for each kernel's test phase: KUnit + selftests, VM boot
# and kmemleak scans excluded. Each is a measured figure plus 30 % or more
# (the table of tools/testing/vm/README.md, "Budgets"); a kernel over its
# budget fails make check. SMCR_CHECK_BUDGETS="debug=N 6.12=N 6.1=N" overrides, 0 = none.
declare -A budget=([debug]=2800 [6.12]=440 [6.1]=440 [6.12-intree]=60)
for kv in ${SMCR_CHECK_BUDGETS:-}; do
	[[ $kv =~ ^(debug|6\.12|6\.1|6\.12-intree)=([0-9]+)$ ]] || { echo "check: bad SMCR_CHECK_BUDGETS entry '$kv'" >&2; exit 2; }
	budget[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
done
logdir=''
timeout=600
debug_timeout=3600
selftests=selftests/run
kunit_ko=''
ctest=1
static=1
substrate=1
interop=1
soak=0
while [[ $# -gt 0 ]]; do
	case $1 in
	--kernels) kernels=$2; shift 2 ;;
	--logdir) logdir=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--debug-timeout) debug_timeout=$2; shift 2 ;;
	--selftests) selftests=$2; shift 2 ;;
	--kunit-ko) kunit_ko=$2; shift 2 ;;
	--no-ctest) ctest=0; shift ;;
	--no-substrate) substrate=0; shift ;;
	--no-static) static=0; shift ;;
	--no-interop) interop=0; shift ;;
	--soak) soak=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "check: unknown option $1" >&2; usage >&2; exit 2 ;;
	esac
done
if [[ $soak == 1 ]]; then
	# endurance, not behaviour: the stock kernels only, no budgets
	kernels=${kernels-6.12 6.1}
	ctest=0 static=0 substrate=0 interop=0
	budget=([debug]=0 [6.12]=0 [6.1]=0 [6.12-intree]=0)
fi
kernels=${kernels-6.12 6.1 6.12-intree debug}
suffix=
[[ $soak == 0 ]] || suffix=-soak
logdir=${logdir:-$tree/build/check/$(date -u +%Y%m%d-%H%M%S)$suffix}
mkdir -p "$logdir"
logdir=$(cd "$logdir" && pwd)

say() { printf 'check: %s\n' "$*"; }

total_pass=0 total_fail=0 total_skip=0
failures=()   # one line per failure (named)
summaries=()
phases=()     # "what seconds" rows of the phase table
timings=()    # "seconds kernel test" of every selftest

# note_fail KERNEL TEXT: count one extra failure that no test line accounts for.
note_fail() {
	failures+=("$1: $2")
	total_fail=$((total_fail + 1))
	say "FAILURE ($1): $2"
}

# host_test WHAT OK PASSED FAILED: count one test run outside the VMs' TAP
# output (OK 1: passed) with the summary line PASSED or the failure FAILED;
# its seconds since $start go into the phase table.
host_test() {
	local what=$1 ok=$2
	if ((ok)); then
		total_pass=$((total_pass + 1))
		summaries+=("$what: $3: ok ($((SECONDS - start))s)")
	else
		note_fail "$what" "$4"
		summaries+=("$what: FAILED ($((SECONDS - start))s)")
	fi
	phases+=("$what $((SECONDS - start))")
	say "${summaries[-1]}"
}

# count_tap FILE -> sets tap_pass tap_fail tap_skip; only top-level
# (unindented) "ok N" / "not ok N" lines count; "# SKIP" is a skip, a
# "not ok ... # TODO" does not count as a failure.
count_tap() {
	local f=$1
	tap_pass=0 tap_fail=0 tap_skip=0
	[[ -r $f ]] || return 0
	read -r tap_pass tap_fail tap_skip < <(awk '
		/^ok [0-9]+/ { if (tolower($0) ~ /# *skip/) s++; else p++; next }
		/^not ok [0-9]+/ { if (tolower($0) ~ /# *(todo|skip)/) s++; else { f++; print "  " $0 > "/dev/stderr" } next }
		END { printf "%d %d %d\n", p, f, s }' "$f")
}

# count_kunit KTAP -> sets ku_pass ku_fail ku_skip ku_total, prints the parse.
count_kunit() {
	local ktap=$1 out line rc=0
	ku_pass=0 ku_fail=0 ku_skip=0 ku_total=0
	out=$(python3 "$ksrc/tools/testing/kunit/kunit.py" parse "$ktap" 2>&1) || rc=$?
	# Strip colors and "[hh:mm:ss] " timestamps.
	out=$(sed -e 's/\x1b\[[0-9;]*m//g' -e 's/^\[[0-9:]*\] //' <<<"$out")
	printf '%s\n' "$out" >"$klog"
	grep -E '^(\[FAILED\]|\[CRASHED\]|\[SKIPPED\]|#|Testing complete)' <<<"$out" | sed 's/^/  kunit: /' || true
	line=$(grep -E 'Testing complete\. Ran [0-9]+ tests' <<<"$out" | tail -n1) || true
	if [[ -z $line ]]; then
		note_fail "$k" "kunit.py parse produced no summary (exit $rc, see $klog)"
		return
	fi
	ku_total=$(sed -E 's/.*Ran ([0-9]+) tests.*/\1/' <<<"$line")
	local key n
	for key in passed failed crashed skipped errors; do
		n=$(grep -oE "$key: [0-9]+" <<<"$line" | grep -oE '[0-9]+$' || echo 0)
		case $key in
		passed) ku_pass=$n ;;
		skipped) ku_skip=$n ;;
		*) ku_fail=$((ku_fail + n)) ;;
		esac
	done
	((ku_total > 0)) || note_fail "$k" "KUnit ran no test case"
	local skipped
	while read -r skipped; do
		check_skips kunit "$skipped" 1 "KUnit"
	done < <(sed -n 's/^\[SKIPPED\] *//p' <<<"$out")
	if ((rc != 0 && ku_fail == 0)); then
		note_fail "$k" "kunit.py parse exited $rc without a failed test (see $klog)"
	fi
}

# Expected skips (selftests/expected-skips.txt): "STEP TEST WHY" lines.
skips_file=$tree/selftests/expected-skips.txt
declare -A expected_skip=()
while read -r step id why; do
	[[ -z $step || $step == \#* ]] && continue
	expected_skip["$step $id"]=$why
done <"$skips_file"
expected_seen=()	# "step id" of every expected skip that happened

# check_skips STEP ID SKIPPED [WHY]: a test ID of STEP either skipped
# (SKIPPED 1) or ran; fails the run on a skip the list does not name and on
# a listed skip that did not happen.
check_skips() {
	local step=$1 id=$2 skipped=$3 why=${4-}
	if ((skipped)); then
		if [[ -n ${expected_skip["$step $id"]+set} ]]; then
			expected_seen+=("$step $id")
		else
			note_fail "$step" "unexpected skip of $id ($why): not in selftests/expected-skips.txt"
		fi
	elif [[ -n ${expected_skip["$step $id"]+set} ]]; then
		note_fail "$step" "$id ran, but selftests/expected-skips.txt expects it to skip here: update the list"
	fi
}

# check_tap_skips STEP TAPFILE: check_skips for every selftest in TAPFILE
check_tap_skips() {
	local step=$1 id skipped why
	[[ -r $2 ]] || return 0
	while IFS=$'\t' read -r id skipped why; do
		check_skips "$step" "$id" "$skipped" "$why"
	done < <(awk '
		/^(not )?ok [0-9]+ - / {
			id = $0; sub(/^(not )?ok [0-9]+ - /, "", id); sub(/ .*/, "", id)
			why = ""; sk = 0
			if ($0 ~ /^ok / && tolower($0) ~ /# *skip/) { sk = 1; why = $0; sub(/.*# *[Ss][Kk][Ii][Pp] */, "", why) }
			printf "%s\t%d\t%s\n", id, sk, why
		}' "$2")
}

# the debug kernel's source tree, for kunit.py (debug_kernel_ready)
ksrc=
check_t0=$SECONDS

# Host unit tests first (seconds): every ctest test counts as one test.
if [[ $ctest == 1 ]]; then
	say "===== host: ctest --test-dir build/tools (log: $logdir/ctest.log)"
	start=$SECONDS
	crc=0
	ctest --test-dir "$tree/build/tools" --output-on-failure -j2 >"$logdir/ctest.log" 2>&1 || crc=$?
	line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$logdir/ctest.log" | tail -n1) || true
	if [[ -z $line ]]; then
		note_fail host "ctest produced no summary (exit $crc; build/tools built? see $logdir/ctest.log)"
		summaries+=("host: ctest: no result ($((SECONDS - start))s)")
	else
		c_fail=$(sed -E 's/.*tests passed, ([0-9]+) tests failed.*/\1/' <<<"$line")
		c_all=$(sed -E 's/.*failed out of ([0-9]+).*/\1/' <<<"$line")
		c_pass=$((c_all - c_fail))
		grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Not Run|Subprocess)' "$logdir/ctest.log" |
			sed 's/^/  ctest: /' || true
		if ((c_all == 0)); then
			note_fail host "ctest ran no test"
		elif ((crc != 0 && c_fail == 0)); then
			note_fail host "ctest exited $crc without a failed test (see $logdir/ctest.log)"
		fi
		total_pass=$((total_pass + c_pass))
		total_fail=$((total_fail + c_fail))
		summaries+=("host: ctest: $c_pass passed, $c_fail failed ($((SECONDS - start))s)")
	fi
	phases+=("host: ctest $((SECONDS - start))")
	say "${summaries[-1]}"
fi

# Static checks, counted as tests: checkpatch --strict on every kernel
# source (make checkpatch); sparse (C=1) with W=1 on the module for stock
# 6.12, test hooks in, in an output tree of its own (build/static) so that
# every file is compiled and checked; and the production build for stock
# 6.12 and 6.1 (make module: no test hooks, W=1, build/prod), which must be
# free of warnings and list no test_* parameter. They run in the background while the VMs run, as
# SCHED_IDLE (see Makefile, check), and are counted at the end
# (static_collect).
static_pids=()
static_start() {
	local kdir
	kdir=$(ls -d /lib/modules/6.12.*-amd64/build 2>/dev/null | sort -V | tail -n1 || true)
	mkdir -p "$logdir/static"
	say "===== host: checkpatch --strict, sparse C=1 W=1 (in the background; logs: $logdir/static)"
	# each writes "EXIT-STATUS SECONDS" to its .rc file
	(t0=$SECONDS; cd "$tree" && chrt --idle 0 nice -n 19 make --no-print-directory checkpatch \
		>"$logdir/static/checkpatch.log" 2>&1
	 echo "$? $((SECONDS - t0))" >"$logdir/static/checkpatch.rc") &
	static_pids+=($!)
	(t0=$SECONDS; cd "$tree" && rm -rf build/static &&
	 chrt --idle 0 nice -n 19 make --no-print-directory BUILD="$tree/build/static" module \
		KDIR="${kdir:-/nonexistent}" W=1 C=1 >"$logdir/static/sparse.log" 2>&1
	 echo "$? $((SECONDS - t0))" >"$logdir/static/sparse.rc") &
	static_pids+=($!)
	# the production module (no test hooks) for both stock kernels, as
	# DKMS builds it: W=1, and modinfo of each
	(set +e; t0=$SECONDS rc=0
	 cd "$tree" && rm -rf build/prod || rc=1
	 for k in "${kdir:-/nonexistent}" \
		"$(ls -d /lib/modules/6.1.*-amd64/build 2>/dev/null | sort -V | tail -n1)"; do
		chrt --idle 0 nice -n 19 env -u SMCR_TEST_HOOKS make --no-print-directory \
			BUILD="$tree/build/prod" module KDIR="$k" W=1 SMCR_TEST_HOOKS= || rc=1
	 done >"$logdir/static/prod.log" 2>&1
	 for ko in build/prod/mod/*/smcr.ko; do
		echo "== $ko"
		PATH=$PATH:/usr/sbin:/sbin modinfo -F parm "$ko" || rc=1
	 done >"$logdir/static/prod.parm" 2>&1
	 echo "$rc $((SECONDS - t0))" >"$logdir/static/prod.rc") &
	static_pids+=($!)
}

# static_collect: wait for the static checks and count them
static_collect() {
	local rc n secs
	wait "${static_pids[@]}" 2>/dev/null || true
	read -r rc secs <"$logdir/static/checkpatch.rc" || rc=1 secs=0
	start=$((SECONDS - secs))
	n=$(grep -cE '(ERROR|WARNING|CHECK):' "$logdir/static/checkpatch.log" || true)
	grep -E '(ERROR|WARNING|CHECK):' "$logdir/static/checkpatch.log" | head -n 20 | sed 's/^/  checkpatch: /' || true
	host_test "host: checkpatch --strict" "$((rc == 0 && n == 0))" "no report" \
		"$n report(s), exit $rc (see $logdir/static/checkpatch.log)"
	read -r rc secs <"$logdir/static/sparse.rc" || rc=1 secs=0
	start=$((SECONDS - secs))
	# compiler (W=1) and sparse diagnostics: "file:line:col: warning|error: ..."
	n=$(grep -cE '^[^ ]+:[0-9]+:([0-9]+:)? (warning|error):' "$logdir/static/sparse.log" || true)
	grep -E '^[^ ]+:[0-9]+:([0-9]+:)? (warning|error):' "$logdir/static/sparse.log" | head -n 20 | sed 's/^/  sparse: /' || true
	grep -q 'CHECK ' "$logdir/static/sparse.log" || { rc=1; echo "  sparse: no file was checked"; }
	host_test "host: sparse C=1 W=1 (6.12)" "$((rc == 0 && n == 0))" "no warning" \
		"$n warning(s), build exit $rc (see $logdir/static/sparse.log)"
	read -r rc secs <"$logdir/static/prod.rc" || rc=1 secs=0
	start=$((SECONDS - secs))
	n=$(grep -cE '^[^ ]+:[0-9]+:([0-9]+:)? (warning|error):' "$logdir/static/prod.log" || true)
	grep -E '^[^ ]+:[0-9]+:([0-9]+:)? (warning|error):' "$logdir/static/prod.log" | head -n 20 | sed 's/^/  production build: /' || true
	hooks=$(grep -c '^test_' "$logdir/static/prod.parm" 2>/dev/null || true)
	# one module per stock kernel, each with its parameters listed
	kos=$(grep -c '^== ' "$logdir/static/prod.parm" 2>/dev/null || true)
	[[ ${kos:-0} == 2 && $(grep -c '^use_roce:' "$logdir/static/prod.parm") == 2 ]] ||
		{ rc=1; echo "  production build: ${kos:-0} modules, expected 2 (6.12, 6.1) each listing use_roce"; }
	host_test "host: production build W=1 (6.12, 6.1), no test_* parameter" \
		"$((rc == 0 && n == 0 && ${hooks:-1} == 0))" "no warning, no test hook" \
		"$n warning(s), ${hooks:-?} test_* parameter(s), exit $rc (see $logdir/static/prod.log, prod.parm)"
}
# With the debug kernel in the run, they start once it is built: as
# SCHED_IDLE as its background build, they would take the CPU that build
# needs while the stock kernels' VMs run (~600 CPU-seconds of the
# critical path), where the debug kernel's VMs leave CPU idle. Else now.
[[ $static == 0 || " $kernels " == *" debug "* ]] || static_start

# The substrate: cpu-check (tools/testing/vm/cpu-check.cpp) must refuse a
# CPU with CMPXCHG16B where QEMU's TCG corrupts the flags of that
# instruction (before QEMU 8.0), and accept it where it does not. The test
# VMs themselves run without the instruction (run's default CPU model).
if [[ $substrate == 1 ]]; then
	say "===== substrate: cpu-check against QEMU's qemu64 (with CMPXCHG16B)"
	start=$SECONDS
	qver=$(qemu-system-x86_64 --version | sed -nE '1s/.*version ([0-9]+)\..*/\1/p')
	src=0
	"$vm/run" --kernel 6.12 --vms 1 --cpu qemu64 --timeout 60 --logdir "$logdir/substrate" -- true \
		>"$logdir/substrate.log" 2>&1 || src=$?
	reason=$(sed -n 's/^status=[0-9]* reason=//p' "$logdir/substrate/result" 2>/dev/null || true)
	if ((${qver:-0} < 8)); then
		want="refused (QEMU $qver's TCG has the cmpxchg16b flags bug)"
		[[ $src == 3 && $reason == *"CMPXCHG16B corrupts RFLAGS"* ]] && ok=1 || ok=0
	else
		want="accepted (QEMU $qver)"
		[[ $src == 0 ]] && ok=1 || ok=0
	fi
	host_test "substrate: cpu-check" "$ok" "$want" \
		"should have $want: run exited $src, ${reason:-no reason} (see $logdir/substrate.log)"
fi

# Budgets scale with this machine: calib_secs is the CPU time (user + sys)
# of a fixed single-threaded workload (one core, as one TCG vCPU) at the
# start of this run; calib_ref_secs what it took on the machine the budgets
# were measured on (2 cores, 2026-11-27). A slower machine gets budgets
# larger in proportion (never smaller), so a budget fails a run that got
# slower, not one that ran on a slower machine; the summary says when the
# scaling was needed. (CPU time, not wall time: other load on the machine
# is not this machine being slow, and the budgets' margin is for that.)
calib_ref_secs=1.8
calib_secs=
calibrate() {
	local TIMEFORMAT='%U %S' t
	t=$( { time python3 -c 'x = 0
for i in range(12_000_000):
    x += i * i'; } 2>&1) || true
	calib_secs=$(awk '{ printf "%.2f", $1 + $2 }' <<<"$t")
	calib_factor=$(awk -v t="$calib_secs" -v r="$calib_ref_secs" 'BEGIN { f = t / r; printf "%.2f", f < 1 ? 1 : f }')
	say "calibration: the reference workload took $calib_secs s of CPU ($calib_ref_secs s on the reference machine): budgets x $calib_factor"
}
calib_factor=1.00
slow_notes=()

# budget_check K SECONDS: kernel K's KUnit + selftests took SECONDS
budget_check() {
	local k=$1 secs=$2 b=${budget[$1]} scaled
	((b > 0)) || return 0
	scaled=$(awk -v b="$b" -v f="$calib_factor" 'BEGIN { printf "%.0f", b * f }')
	if ((secs > scaled)); then
		note_fail "$k" "over budget: KUnit + selftests took $secs s, the budget is $b s x $calib_factor = $scaled s (tools/testing/vm/README.md, \"Budgets\")"
	elif ((secs > b)); then
		slow_notes+=("$k took $secs s, over its budget of $b s but within $scaled s: this machine ran the reference workload ${calib_factor}x slower than the reference machine")
	fi
}

# run_interop K: the interop group, smcr against Linux's smc.ko
# (selftests/interop/) on kernel K, in two VM runs - Linux as the server
# (role b), then as the client; on the debug kernel the first run only. On the debug kernel selftests/run leaves
# out the tests tagged "# DEBUG: no" (selftests/README.md, "Kernels"): the
# debug kernel checks smcr's side of each kind of exchange, stock 6.12 runs
# them all. A run's failures that no test line shows count as in the main
# loop.
run_interop() {
	local k=$1 side sides='b a' kl vrc reason t=$timeout
	local i_pass=0 i_fail=0 i_skip=0 fail_before=$total_fail start=$SECONDS
	[[ $k == debug ]] && t=$debug_timeout sides=b
	for side in $sides; do
		kl=$logdir/interop-$k-linux-$side
		say "===== interop, kernel $k: Linux's smc.ko on role $side (logs: $kl)"
		vrc=0
		"$vm/run" --kernel "$k" --vms 2 --allow-intree-smc --timeout "$t" --logdir "$kl" -- \
			selftests/run --interop "$side" || vrc=$?
		reason=$(sed -n 's/^status=[0-9]* reason=//p' "$kl/result" 2>/dev/null || true)
		count_tap "$kl/a.out"
		check_tap_skips "interop-$k" "$kl/a.out"
		((tap_pass > 0 || tap_skip == 0)) || note_fail "interop $k" "every test skipped (Linux on role $side)"
		i_pass=$((i_pass + tap_pass)) i_fail=$((i_fail + tap_fail)) i_skip=$((i_skip + tap_skip))
		case $vrc in
		0) ;;
		1) ((tap_fail > 0)) || note_fail "interop $k" "selftests exited non-zero without a 'not ok' line: $reason" ;;
		2) note_fail "interop $k" "kernel problem: $reason" ;;
		*) note_fail "interop $k" "run exited $vrc: $reason" ;;
		esac
		# no test at all: a failure of its own unless the run's was counted
		((tap_pass + tap_fail + tap_skip > 0 || vrc > 1)) || note_fail "interop $k" "no test ran (Linux on role $side)"
		while read -r tsecs id; do
			timings+=("$tsecs interop-$k-$side $id")
		done < <(sed -nE 's/^(not )?ok [0-9]+ - ([^ ]+) \(([0-9]+) s\).*/\3 \2/p' "$kl/a.out" 2>/dev/null)
	done
	total_pass=$((total_pass + i_pass))
	total_fail=$((total_fail + i_fail))
	total_skip=$((total_skip + i_skip))
	local extra=$((total_fail - fail_before - i_fail))
	local s="interop-$k: $i_pass passed, $i_fail failed, $i_skip skipped"
	((extra > 0)) && s+="; $extra other failure(s)"
	s+=" ($((SECONDS - start))s)"
	summaries+=("$s")
	phases+=("interop-$k $((SECONDS - start))")
	say "$s"
}

# debug_kernel_ready: wait for the debug kernel (make check started its
# build in the background) and build smcr.ko and the KUnit module for it;
# both are rows of the phase table. Non-zero if either failed.
debug_kernel_ready() {
	start=$SECONDS
	say "===== setup: the debug kernel (its build went on in the background)"
	"$vm/debug-kernel.sh" >"$logdir/debug-kernel.log" 2>&1 ||
		{ tail -n 20 "$logdir/debug-kernel.log"; note_fail debug "the debug kernel did not build (see $logdir/debug-kernel.log)"; return 1; }
	phases+=("setup: debug kernel (waited for its build) $((SECONDS - start))")
	start=$SECONDS
	make -C "$tree" --no-print-directory -j"$(nproc)" module-debug >"$logdir/module-debug.log" 2>&1 ||
		{ tail -n 20 "$logdir/module-debug.log"; note_fail debug "smcr.ko for the debug kernel did not build (see $logdir/module-debug.log)"; return 1; }
	phases+=("setup: smcr.ko for the debug kernel $((SECONDS - start))")
	ksrc=$("$vm/debug-kernel.sh" --print-src) ||
		{ note_fail debug "debug-kernel.sh --print-src failed"; return 1; }
}

calibrate
for k in $kernels; do
	kl=$logdir/$k
	klog=$kl/kunit-parse.log
	mkdir -p "$kl"
	guest=(tools/testing/vm/check-guest.sh --selftests "$selftests")
	run_opts=(--kernel "$k" --vms 2)
	case $k in
	debug)
		debug_ok=1
		debug_kernel_ready || debug_ok=0
		[[ $static == 0 ]] || static_start
		if ((!debug_ok)); then
			summaries+=("$k: not run (no debug kernel or module)")
			continue
		fi
		guest+=(--kunit)
		[[ -n $kunit_ko ]] && guest+=(--kunit-ko "$kunit_ko")
		t=$debug_timeout
		;;
	6.12 | 6.1)
		if [[ $soak == 1 ]]; then guest+=(-- --soak); else guest+=(-- --smoke); fi
		t=$timeout
		;;
	6.12-intree)
		# smc.ko loadable (no module_blacklist): only the tests that
		# load it themselves (selftests/README.md, "In-tree SMC")
		[[ $soak == 1 ]] && continue
		run_opts=(--kernel 6.12 --vms 1 --allow-intree-smc)
		guest+=(-- --intree)
		t=$timeout
		;;
	*) echo "check: unknown kernel $k" >&2; exit 2 ;;
	esac
	say "===== kernel $k: ${guest[*]} (logs: $kl)"
	start=$SECONDS
	vrc=0
	"$vm/run" "${run_opts[@]}" --timeout "$t" --logdir "$kl" -- "${guest[@]}" || vrc=$?
	secs=$((SECONDS - start))
	reason=$(sed -n 's/^status=[0-9]* reason=//p' "$kl/result" 2>/dev/null || true)
	fail_before=$total_fail
	k_pass=0 k_fail=0 k_skip=0
	kunit_txt=''

	if [[ $k == debug ]]; then
		if [[ -s $kl/shared/kunit.error ]]; then
			while IFS= read -r l; do note_fail "$k" "KUnit: $l"; done <"$kl/shared/kunit.error"
		fi
		if [[ -s $kl/shared/kunit.ktap ]]; then
			if [[ -z $ksrc || ! -r $ksrc/tools/testing/kunit/kunit.py ]]; then
				note_fail "$k" "no kernel source with tools/testing/kunit/kunit.py"
			else
				count_kunit "$kl/shared/kunit.ktap"
				kunit_txt="kunit: $ku_pass passed, $ku_fail failed, $ku_skip skipped; "
				k_pass=$((k_pass + ku_pass)) k_fail=$((k_fail + ku_fail)) k_skip=$((k_skip + ku_skip))
			fi
		elif [[ ! -s $kl/shared/kunit.error ]] && ((vrc != 2 && vrc != 3)); then
			note_fail "$k" "no KUnit results (kunit.ktap missing)"
		fi
	fi

	# Phases of this kernel's run (the guest's own uptime figures) and the
	# wall time of each selftest (from its TAP line).
	g_boot=$(awk '$1 == "boot" { print $2 }' "$kl/shared/a.phases" 2>/dev/null || true)
	g_cmd=$(awk '$1 == "command" { print $2 }' "$kl/shared/a.phases" 2>/dev/null || true)
	g_after=$(awk '$1 == "after" { print $2 }' "$kl/shared/a.phases" 2>/dev/null || true)
	g_kunit=$(cat "$kl/shared/kunit.secs" 2>/dev/null || echo 0)
	phases+=("$k: VM boot and setup ${g_boot:-?}")
	[[ $k == debug ]] && phases+=("$k: KUnit $g_kunit")
	if [[ -n $g_cmd ]]; then
		tests_secs=$(awk -v c="$g_cmd" -v k="$g_kunit" 'BEGIN { printf "%.0f", c - k }')
		phases+=("$k: selftests $tests_secs")
		budget_check "$k" $((g_kunit + tests_secs))
	fi
	phases+=("$k: after the tests (kmemleak scans, poweroff) ${g_after:-?}")
	while read -r tsecs id; do
		timings+=("$tsecs $k $id")
	done < <(sed -nE 's/^(not )?ok [0-9]+ - ([^ ]+) \(([0-9]+) s\).*/\3 \2/p' "$kl/a.out" 2>/dev/null)

	count_tap "$kl/a.out"
	check_tap_skips "$k" "$kl/a.out"
	k_pass=$((k_pass + tap_pass)) k_fail=$((k_fail + tap_fail)) k_skip=$((k_skip + tap_skip))
	((k_pass > 0 || k_skip == 0)) || note_fail "$k" "every test skipped"
	case $vrc in
	0) ;;
	1) ((tap_fail > 0)) || note_fail "$k" "selftests exited non-zero without a 'not ok' line: $reason" ;;
	2) note_fail "$k" "kernel problem: $reason" ;;
	3) note_fail "$k" "infrastructure: $reason" ;;
	*) note_fail "$k" "run exited $vrc: $reason" ;;
	esac
	# No test at all on this kernel: a failure of its own, unless the reason
	# was already counted above (infra failure, splat, ...).
	if ((k_pass + k_fail + k_skip == 0 && total_fail == fail_before)); then
		note_fail "$k" "no test ran"
	fi
	total_pass=$((total_pass + k_pass))
	total_fail=$((total_fail + k_fail))
	total_skip=$((total_skip + k_skip))
	extra=$((total_fail - fail_before - k_fail))
	s="$k: ${kunit_txt}selftests: $tap_pass passed, $tap_fail failed, $tap_skip skipped; run: $([[ $vrc == 0 ]] && echo ok || echo "status $vrc")"
	((extra > 0)) && s+="; $extra other failure(s)"
	s+=" (${secs}s)"
	summaries+=("$s")
	say "$s"
	if [[ $interop == 1 && ( $k == debug || $k == 6.12 ) ]]; then
		run_interop "$k"
	fi
done

# The soak tier ends with boots of the substrate under the stream tests.
if [[ $soak == 1 ]]; then
	n=${SOAK_BOOTS:-10}
	say "===== soak: $n boots of stock 6.12 with selftests 001 040 (logs: $logdir/boots)"
	start=$SECONDS
	src=0
	"$vm/soak" --boots "$n" --logdir "$logdir/boots" -- selftests/run 001 040 || src=$?
	host_test "soak: $n boots" "$((src == 0))" "every boot clean" \
		"not every one of $n boots was clean (see $logdir/boots)"
fi

[[ $static == 0 ]] || static_collect

say "===== summary (logs: $logdir, $((SECONDS - check_t0))s)"
for s in "${summaries[@]}"; do say "  $s"; done
say "  phases (seconds):"
# Set up by make check before this script: apt, the debug kernel, the build.
setup=()
[[ -r ${SMCR_PHASES:-} ]] && mapfile -t setup <"$SMCR_PHASES"
for p in "${setup[@]}" "${phases[@]}"; do say "    $(printf '%-52s %6s' "${p% *}" "${p##* }")"; done
if ((${#timings[@]})); then
	say "  slowest selftests:"
	printf '%s\n' "${timings[@]}" | sort -rn | sed -n 1,10p |
		while read -r tsecs k id; do say "    $(printf '%5s s  %-6s %s' "$tsecs" "$k" "$id")"; done
fi
for f in "${failures[@]}"; do say "  FAILURE $f"; done
if ((${#expected_seen[@]})); then
	say "  expected skips (selftests/expected-skips.txt):"
	for e in "${expected_seen[@]}"; do say "    $e: ${expected_skip[$e]}"; done
fi
for n in "${slow_notes[@]}"; do say "  slow: $n"; done
((total_skip == 0)) || say "  $total_skip skipped"
echo "$total_pass passed, $total_fail failed"
((total_fail == 0 && total_pass > 0))
