#!/bin/bash
# phase.sh FILE NAME CMD [ARGS...]: run CMD and append "NAME SECONDS" to
# FILE (one row of make check's phase table), whatever CMD returns; exit
# with CMD's status.
[[ $# -ge 3 ]] || { echo "usage: phase.sh FILE NAME CMD [ARGS...]" >&2; exit 2; }
file=$1 name=$2
shift 2
start=$(date +%s)
"$@"
rc=$?
echo "$name $(($(date +%s) - start))" >>"$file"
exit "$rc"
