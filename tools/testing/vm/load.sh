#!/bin/bash
# Plain TCP load between the two test VMs, no smcr: what `make bench`'s TCP
# round does to the substrate (QEMU, virtio-net, the guest kernel), without
# the benchmark. Run in both VMs by tools/testing/vm/run, e.g. from `soak`:
#
#   tools/testing/vm/soak --boots 10 -- tools/testing/vm/load.sh tcp 30
#
#   load.sh tcp SECONDS   VM b serves iperf3 on eth0 and eth1; VM a runs, one
#                         after the other for SECONDS/3 each: 4 streams a->b
#                         on eth0, 4 streams b->a (-R) on eth1, and 64-byte
#                         writes a->b on eth0 (one segment, ACK and interrupt
#                         per write)
# Exits non-zero if a phase fails (iperf3's own error is printed).
set -u
# shellcheck source=tools/testing/vm/lib.sh
. "${SMCR_LIB:-$(dirname "${BASH_SOURCE[0]}")/lib.sh}"

[[ ${1-} == tcp && ${2-} =~ ^[0-9]+$ && $2 -ge 3 ]] || {
	echo "usage: load.sh tcp SECONDS (>= 3)" >&2
	exit 2
}
secs=$2
phase=$((secs / 3))
port=5201

if [[ $SMCR_ROLE == b ]]; then
	pids=()
	for ip in "$SMCR_LOCAL_IP" "$SMCR_LOCAL_IP2"; do
		iperf3 -s -B "$ip" -p "$port" >/dev/null &
		pids+=($!)
	done
	vm_put load-ready 1
	vm_sync load-done $((secs + 120))
	rc=$?
	kill "${pids[@]}" 2>/dev/null
	wait 2>/dev/null
	exit "$rc"
fi

vm_get load-ready >/dev/null || exit 1
sleep 0.5 # the servers listen once b said so; leave them time to bind
rc=0
run_phase() {
	local what=$1
	shift
	echo "load: $what (${phase}s)"
	if ! iperf3 -p "$port" -t "$phase" -f m "$@" | tail -n 4; then
		echo "load: $what failed" >&2
		rc=1
	fi
}
run_phase "4 streams a->b, eth0" -c "$SMCR_PEER_IP" -P 4
run_phase "4 streams b->a, eth1" -c "$SMCR_PEER_IP2" -P 4 -R
run_phase "64-byte writes a->b, eth0" -c "$SMCR_PEER_IP" -l 64 -N
vm_sync load-done || rc=1
exit "$rc"
