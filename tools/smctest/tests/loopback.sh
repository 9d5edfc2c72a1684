#!/bin/bash
# ctest: smctest end to end over TCP on 127.0.0.1 / ::1 (no module needed):
# every server mode with both I/O styles, concurrent connections, nonblocking
# connect/accept, a held shutdown, every two-sided probe, and the failure paths (a checksum
# mismatch and a refused connect must exit 1).
#   loopback.sh PATH/TO/smctest
# A host without IPv6 loopback fails the IPv6 part; SMCR_NO_IPV6=1 skips it
# (and says so) instead.
set -u
S=$1
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
port=$((40000 + ($$ % 1000) * 20))
fail=0 n=0

# serve NAME ARGS...: background server with ready file
serve() {
	local name=$1; shift
	"$S" "$@" --family tcp --timeout 60s --ready-file "$tmp/$name" -q &
	for ((i = 0; i < 100; i++)); do [[ -e $tmp/$name ]] && return 0; sleep 0.05; done
	echo "server $name did not start"; return 1
}
check() { # check DESC EXPECTED_RC CMD...
	local desc=$1 want=$2 rc; shift 2
	"$@" >"$tmp/out" 2>&1; rc=$?
	n=$((n + 1))
	if [[ $rc == "$want" ]]; then echo "ok - $desc"; else echo "FAIL - $desc (rc $rc, want $want)"; cat "$tmp/out"; fail=$((fail + 1)); fi
}

for mode in sink echo source duplex; do
	for io in block poll; do
		p=$((port++))
		serve "$mode-$io" server --port $p --mode $mode --bytes 3M --io $io
		check "$mode/$io" 0 "$S" client --family tcp --addr 127.0.0.1 --port $p --mode $mode --bytes 3M \
			--io $io --msgsize 7000 --timeout 60s
		wait $!
	done
done
p=$((port++))
serve conc server --port $p --conns 50 --concurrent --mode echo --accept nonblock --accept4-flags nonblock,cloexec
check "50 concurrent echo, nonblocking accept4" 0 "$S" client --family tcp --addr 127.0.0.1 --port $p --conns 50 \
	--mode echo --bytes 64K --connect epoll --timeout 60s
wait $!
p=$((port++))
if [[ ${SMCR_NO_IPV6:-0} == 1 ]]; then
	echo "skip - ipv6 duplex (SMCR_NO_IPV6=1)"
else
	serve v6 server --ipv6 --port $p --mode duplex --bytes 1M
	check "ipv6 duplex, poll connect" 0 "$S" client --family tcp --addr ::1 --port $p --mode duplex --bytes 1M \
		--connect poll --timeout 60s
	wait $!
fi
p=$((port++))
serve uneven server --port $p --mode duplex --bytes 1M --peer-bytes 3M --late-shutdown
check "uneven duplex, late shutdown" 0 "$S" client --family tcp --addr 127.0.0.1 --port $p --mode duplex \
	--bytes 3M --peer-bytes 1M --late-shutdown --timeout 60s
wait $!
p=$((port++))
for io in block poll; do
	: >"$tmp/shut-hold"
	serve "held-$io" server --port $p --mode duplex --bytes 1M --io $io --late-shutdown \
		--shutdown-hold-file "$tmp/shut-hold"
	"$S" client --family tcp --addr 127.0.0.1 --port $p --mode duplex --bytes 1M --timeout 60s -q &
	c=$!
	sleep 1
	n=$((n + 1))
	if kill -0 $c 2>/dev/null; then
		echo "ok - $io: the server's SHUT_WR waits for --shutdown-hold-file"
	else
		echo "FAIL - $io: the client ended while the server's shutdown was held"; fail=$((fail + 1))
	fi
	rm -f "$tmp/shut-hold"
	n=$((n + 1))
	if wait $c && wait $!; then
		echo "ok - $io: held duplex completes once the file is gone"
	else
		echo "FAIL - $io: held duplex did not complete"; fail=$((fail + 1))
	fi
	p=$((port++))
done
p=$((port++))
serve short server --port $p --mode duplex --bytes 1M
check "fewer bytes than --peer-bytes fail" 1 "$S" client --family tcp --addr 127.0.0.1 --port $p --mode duplex \
	--bytes 1M --peer-bytes 2M --timeout 60s
wait $!
p=$((port++))
serve bad server --port $p --mode duplex --bytes 1M --seed 5
check "seed mismatch is detected" 1 "$S" client --family tcp --addr 127.0.0.1 --port $p --mode duplex --bytes 1M \
	--seed 6 --timeout 60s
wait $!
check "refused connect fails" 1 "$S" client --family tcp --addr 127.0.0.1 --port $((port++)) --timeout 10s

for probe in $("$S" probe --list | cut -f1); do
	p=$((port++))
	case $probe in
	bad-type | no-tls | tcp-hooks) continue ;; # AF_SMC only (TCP takes kTLS, repair...)
	sockopts) check "probe sockopts" 0 "$S" probe sockopts --family tcp; continue ;;
	refused) check "probe refused" 0 "$S" probe refused --role client --family tcp --addr 127.0.0.1 --port $p \
		--timeout 30s; continue ;;
	esac
	serve "probe-$probe" probe "$probe" --role server --port $p
	check "probe $probe" 0 "$S" probe "$probe" --role client --family tcp --addr 127.0.0.1 --port $p --timeout 60s
	wait $! || { echo "FAIL - probe $probe server side"; fail=$((fail + 1)); }
done
echo "$((n - fail)) passed, $fail failed"
[[ $fail == 0 ]]
