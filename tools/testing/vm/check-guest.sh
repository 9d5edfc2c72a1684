#!/bin/bash
# Guest side of tools/testing/check.sh; runs in every VM of one `run`.
#
# Usage: check-guest.sh [--kunit] [--kunit-ko PATH] [--selftests CMD] [-- SELFTEST-ARGS...]
#   --kunit          role a first loads the KUnit module (default
#                    $SMCR_MODDIR/smcr_kunit.ko or $SMCR_MODDIR/kunit/smcr_kunit.ko;
#                    its suites run at insmod),
#                    collects /sys/kernel/debug/kunit/smcr*/results into one
#                    KTAP document $SMCR_SHARED/kunit.ktap and unloads it;
#                    role b waits for that. Problems are written to
#                    $SMCR_SHARED/kunit.error (the host counts them as failures).
#   --kunit-ko PATH  use this module instead (stand-ins, debugging)
#   --selftests CMD  selftest driver (default: selftests/run), run in both VMs
#                    with SELFTEST-ARGS (e.g. --smoke); its exit status is ours.
# KUnit progress goes to stderr; stdout is left to the selftests' TAP.
set -euo pipefail

kunit=0
ko=
selftests=selftests/run
while [[ $# -gt 0 ]]; do
	case $1 in
	--kunit) kunit=1; shift ;;
	--kunit-ko) ko=$2; shift 2 ;;
	--selftests) selftests=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "check-guest: unknown option $1" >&2; exit 2 ;;
	esac
done
# shellcheck source=tools/testing/vm/lib.sh
. "${SMCR_LIB:-$(dirname "${BASH_SOURCE[0]}")/lib.sh}"
# The KUnit module is built beside the smcr.ko with test hooks (the one
# selftests/run loads): build/mod-test/<kver>/smcr_kunit.ko by the
# contract; Kbuild puts it into the kunit/ subdir of that: take whichever
# exists.
SMCR_MODDIR=${SMCR_TEST_MODDIR:-$SMCR_MODDIR}
if [[ -z $ko ]]; then
	ko=$SMCR_MODDIR/smcr_kunit.ko
	[[ -e $ko || ! -e $SMCR_MODDIR/kunit/smcr_kunit.ko ]] || ko=$SMCR_MODDIR/kunit/smcr_kunit.ko
fi

kunit_error() {
	echo "check-guest: KUnit: $*" >&2
	echo "$*" >>"$SMCR_SHARED/kunit.error"
}

# Merge the per-suite debugfs results (each a complete KTAP document with
# plan 1..1 and a top-level "ok 1 <suite>") into one document with plan
# 1..N and renumbered top-level results.
merge_ktap() {
	local n=$# i=0 f
	echo "KTAP version 1"
	echo "1..$n"
	for f in "$@"; do
		i=$((i + 1))
		awk -v i="$i" '
			NR <= 2 && (/^KTAP version/ || /^1\.\.1$/) { next }
			/^(not )?ok 1 / { sub(/ok 1 /, "ok " i " ") }
			{ print }' "$f"
	done
}

run_kunit() {
	local kdbg=/sys/kernel/debug/kunit dep d suites=() name
	rm -f "$SMCR_SHARED/kunit.ktap" "$SMCR_SHARED/kunit.error"
	mkdir -p "$SMCR_SHARED/kunit"
	[[ -r $ko ]] || { kunit_error "$ko not found (not built for $(uname -r)?)"; return; }
	[[ -d $kdbg ]] || { kunit_error "$kdbg missing (kernel without CONFIG_KUNIT_DEBUGFS?)"; return; }
	# insmod does not resolve dependencies (e.g. on smcr.ko itself).
	for dep in $(modinfo -F depends "$ko" | tr ',' ' '); do
		if [[ $dep == smcr ]]; then
			# shellcheck disable=SC2119 # no module parameters
			smcr_load || { kunit_error "cannot load smcr.ko needed by $ko"; return; }
		else
			modprobe "$dep" || { kunit_error "modprobe $dep (needed by $ko) failed"; return; }
		fi
	done
	echo "check-guest: insmod $ko (suites run now)" >&2
	local t0=$SECONDS
	if ! insmod "$ko"; then
		kunit_error "insmod $ko failed"
		return
	fi
	echo "check-guest: KUnit module ran in $((SECONDS - t0)) s" >&2
	echo "$((SECONDS - t0))" >"$SMCR_SHARED/kunit.secs"
	for d in "$kdbg"/smcr*/; do
		[[ -r $d/results ]] || continue
		name=$(basename "$d")
		cat "$d/results" >"$SMCR_SHARED/kunit/$name.ktap"
		suites+=("$SMCR_SHARED/kunit/$name.ktap")
	done
	name=$(basename "$ko" .ko)
	rmmod "$name" || kunit_error "rmmod $name failed"
	smcr_unload || kunit_error "rmmod smcr (after KUnit) failed"
	if ((${#suites[@]} == 0)); then
		kunit_error "no suite named smcr* in $kdbg after insmod"
		return
	fi
	merge_ktap "${suites[@]}" >"$SMCR_SHARED/kunit.ktap"
	echo "check-guest: ${#suites[@]} KUnit suite(s) -> kunit.ktap" >&2
}

if [[ $kunit == 1 ]]; then
	if [[ $SMCR_ROLE == a ]]; then
		run_kunit
	fi
	# The KUnit run may take long on the debug kernel; role b waits for it.
	vm_sync kunit-done 1800
fi

if [[ $selftests != /* && ! -e $selftests ]]; then
	echo "check-guest: selftest driver $selftests not found in $PWD" >&2
	exit 127
fi
exec "$selftests" "$@"
