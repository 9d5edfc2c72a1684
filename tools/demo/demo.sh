#!/bin/bash
# smcr demo, run by the VM harness in both VMs (same environment as the
# selftests: SMCR_ROLE, SMCR_PEER_IP, SMCR_TOOLS, SMCR_LIB, ...).
#
#   role b: smc_run iperf3 -s -1          (one-shot server over AF_SMC)
#   role a: smc_run iperf3 -c PEER -t 5   (client over AF_SMC)
#
# While the transfer runs, each side prints `smctest diag` (the AF_SMC
# sockets with mode and fallback reason) and a short human summary.
set -u
tree=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=/dev/null
source "${SMCR_LIB:-$tree/tools/testing/vm/lib.sh}"
tools=${SMCR_TOOLS:-$tree/build/tools}
smctest=$tools/bin/smctest
smc_run=$tools/bin/smc_run
[[ -x $smc_run ]] || smc_run=$tree/tools/preload/smc_run
port=5201
secs=${DEMO_SECONDS:-5}

say() { echo "demo[$SMCR_ROLE]: $*"; }
die() { say "ERROR: $*"; vm_put demo-server fail 2>/dev/null; exit 1; }

command -v iperf3 >/dev/null || die "iperf3 not installed (apt-get install iperf3)"
[[ -x $smctest ]] || die "$smctest not built (cmake --build build/tools)"

smcr_load || die "smcr_load failed"
say "smcr loaded ($(uname -r))"

show_diag() {
	say "AF_SMC sockets (smctest diag):"
	"$smctest" diag --summary 2>&1 | sed 's/^/    /'
}

case $SMCR_ROLE in
b)
	SMC_DEBUG=1 "$smc_run" iperf3 -s -1 -p "$port" >/tmp/demo-iperf3-server.log 2>&1 &
	srv=$!
	for ((i = 0; i < 100; i++)); do
		"$smctest" diag --kv --port "$port" 2>/dev/null | grep -q 'state=LISTEN' && break
		kill -0 "$srv" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$srv" 2>/dev/null || { cat /tmp/demo-iperf3-server.log; die "iperf3 server exited"; }
	say "iperf3 server up on port $port (via smc_run)"
	vm_put demo-server ok
	sleep 2
	show_diag
	wait "$srv"
	rc=$?
	sed 's/^/    /' /tmp/demo-iperf3-server.log
	say "iperf3 server exited $rc"
	vm_sync demo-done 120
	exit $rc
	;;
a)
	st=$(vm_get demo-server 120) || die "no word from the server VM"
	[[ $st == ok ]] || die "server VM could not start iperf3"
	stats0=$("$tools/bin/smcr" -j stats 2>/dev/null)
	SMC_DEBUG=1 "$smc_run" iperf3 -c "$SMCR_PEER_IP" -p "$port" -t "$secs" >/tmp/demo-iperf3-client.log 2>&1 &
	cli=$!
	sleep 2
	show_diag
	# Keep what the connection looked like while it was up.
	dump=$("$smctest" diag --kv --port "$port" 2>&1)
	summary=$("$smctest" diag --summary --port "$port" 2>/dev/null | sed -n 's/^summary: /  /p')
	wait "$cli"
	rc=$?
	sed 's/^/    /' /tmp/demo-iperf3-client.log
	say "iperf3 client exited $rc"
	stats1=$("$tools/bin/smcr" -j stats 2>/dev/null)
	say "SMC-R link groups (smcr lgr show):"
	"$tools/bin/smcr" lgr show 2>&1 | sed 's/^/    /'
	echo
	echo "==== summary ===="
	# counters of this VM (the client) during the run, from smcr -j stats
	delta() { echo $(($(jq "$1" <<<"$stats1") - $(jq "$1" <<<"$stats0"))); }
	if [[ -n $stats0 && -n $stats1 ]]; then
		echo "  bytes sent by RDMA (SMC-R):    $(delta .smcr.tx.bytes)"
		echo "  bytes received by RDMA:        $(delta .smcr.rx.bytes)"
		echo "  SMC-R handshakes (client):     $(delta .smcr.handshakes.client.v1)"
		echo "  fallbacks to TCP (client):     $(delta .fallback.client)"
	fi
	line=$(grep -m1 'state=ESTABLISHED' <<<"$dump")
	if [[ -z $line ]]; then
		echo "No AF_SMC connection was seen during the transfer (did the preload apply?)."
	elif [[ $line == *mode=smcr* ]]; then
		echo "iperf3's connections used the SMC-R data path (RDMA)."
	else
		reason=$(sed -n 's/.* reason=\(0x[0-9a-f]*\).*/\1/p' <<<"$line")
		# Reason names come from the one table in tools/common (smctest diag --summary).
		echo "$summary"
		echo "iperf3's connections ran over AF_SMC in TCP fallback mode (reason $reason):"
		echo "the data went over the internal TCP socket."
	fi
	grep -E 'receiver$' /tmp/demo-iperf3-client.log | sed 's/^/  throughput: /'
	vm_sync demo-done 120
	exit $rc
	;;
esac
