#!/bin/bash
# selftests/lib.sh's exit trap runs a test's cleanups in the test's shell
# only: not in a background subshell that the test kills right after
# forking it (bash runs the inherited traps there if the signal comes
# before it resets them). Run by ctest on the host (selftests_lib).
# Usage: selftests-lib.sh TREE
set -euo pipefail
tree=${1:?usage: selftests-lib.sh TREE}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

SMCR_SHARED=$work SMCR_ROLE=a ST_DIR=$tree/selftests ST_ID=lib-test \
	SMCR_TOOLS=$work ST_TMP=$work bash -c '
	source "$ST_DIR/lib.sh"
	st_cleanup "echo \$BASHPID >>$ST_TMP/ran"
	echo $BASHPID >"$ST_TMP/main"
	for ((i = 0; i < 50; i++)); do
		(
			trap "exit 0" TERM
			sleep 0.1
		) &
		kill $!
		wait $! || :
	done
' 2>"$work/err" || { cat "$work/err"; exit 1; }
# (bash's own "wait_for: No record of process" from the killed subshells
# is in err: not the subject)
main=$(<"$work/main")
ran=$(cat "$work/ran" 2>/dev/null || :)
if [[ $ran != "$main" ]]; then
	echo "FAIL: the cleanup ran in: ${ran//$'\n'/ } (want the test shell $main alone)"
	exit 1
fi
echo "ok: the cleanup ran once, in the test shell"
