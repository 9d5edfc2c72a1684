#!/bin/bash
# DESC: smc_run moves unmodified TCP programs to SMC-R: iperf3 and 32 threads calling socket() at once; diag, lgr show and stats agree
# SMOKE: yes
# DEBUG: no
# PEER: yes
# TIMEOUT: 240
#
# Asserts (with Soft-RoCE; the module's data path on):
#   - `smc_run iperf3` (server on b, client on a sending for 6 s): while it
#     runs, sock_diag on each VM lists AF_SMC sockets of the iperf3 port in
#     mode smcr and `smcr lgr show` a link group with connections;
#     afterwards `smcr stats` counts at least the bytes iperf3 reports
#     (sent on a, received on b) as SMC-R payload (tx on a, rx on b): they
#     went by RDMA, not TCP;
#   - `smc_run smctest client --family tcp --conns 32` against an AF_SMC
#     server: 32 threads create their AF_INET sockets at once; each one is
#     an AF_SMC socket in mode smcr (smctest finds it in sock_diag by
#     inode) and moves its data byte-exact: the preload library is
#     thread-safe.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
command -v iperf3 >/dev/null || st_fail "iperf3 not installed (tools/deps.txt)"
P=$ST_PORT
RUN=$SMCR_TOOLS/bin/smc_run
S=$SMCR_TOOLS/bin/smcr

st_smcr_data || st_fail "the data path is off"
tx_bytes() { "$S" -j stats | jq ".smcr.$1.bytes"; }
# watch_start / watch_stop: append "diag N" and "lgr_conns M" samples to
# $samples, each as often as it can (a round takes a while on the debug
# kernel)
watch_start() {
	(while :; do
		echo "diag $("$SMCTEST" diag --kv --port "$P" | grep -c "mode=smcr.*token=")" >>"$samples"
	done) &
	W1=$!
	(while :; do
		echo "lgr_conns $("$S" -j lgr show | jq '[.[].conns] | add // 0')" >>"$samples"
	done) &
	W2=$!
}
watch_stop() {
	kill "$W1" "$W2" 2>/dev/null
	wait "$W1" "$W2" 2>/dev/null
}
samples=$ST_TMP/samples
: >"$samples"

case $SMCR_ROLE in
b) before=$(tx_bytes rx)
   "$RUN" iperf3 -s -1 -p "$P" -J >"$ST_TMP/iperf3-s.json" 2>"$ST_TMP/iperf3-s.err" &
   srv=$!
   for ((i = 0; i < 100; i++)); do
	ss -tlnH "( sport = :$P )" | grep -q . && break
	vm_nap 0.1
   done
   vm_put "$ST_KEY-iperf3" ok
   watch_start
   wait "$srv"
   rc=$?
   watch_stop
   ((rc == 0)) || { cat "$ST_TMP/iperf3-s.json" "$ST_TMP/iperf3-s.err"; st_fail "iperf3 server failed"; }
   after=$(tx_bytes rx)
   # what the server read: the last bytes in flight at the end are not
   want=$(jq '.end.sum_received.bytes' "$ST_TMP/iperf3-s.json")
   echo "iperf3 server received $want bytes"
   st_serve c32 server --family smc --port $((P + 1)) --conns 32 --concurrent --mode duplex --bytes 16K \
	--timeout 150s || exit 1
   dir=rx ;;
a) before=$(tx_bytes tx)
   vm_get "$ST_KEY-iperf3" 30 >/dev/null || st_fail "no iperf3 server on b"
   watch_start
   "$RUN" iperf3 -c "$SMCR_PEER_IP" -p "$P" -t 6 -l 64K -J >"$ST_TMP/iperf3.json"
   rc=$?
   watch_stop
   ((rc == 0)) || { cat "$ST_TMP/iperf3.json"; st_fail "iperf3 client failed"; }
   after=$(tx_bytes tx)
   want=$(jq '.end.sum_sent.bytes' "$ST_TMP/iperf3.json")
   echo "iperf3 sent $want bytes: $(jq '.end.sum_sent.bits_per_second / 1e6 | floor' \
	"$ST_TMP/iperf3.json") Mbit/s"
   st_await c32 || exit 1
   echo "+ smc_run smctest client --family tcp --conns 32 ..."
   out=$("$RUN" "$SMCTEST" client --family tcp --addr "$SMCR_PEER_IP" --port $((P + 1)) --conns 32 \
	--mode duplex --bytes 16K --expect-mode smcr --timeout 150s 2>&1)
   rc=$?
   echo "$out"
   ((rc == 0)) || st_fail "32 threads under smc_run"
   # the mode is checked only on AF_SMC sockets: all were converted
   ! grep -q "ignored for --family tcp" <<<"$out" || st_fail "smc_run left a socket AF_INET"
   dir=tx ;;
esac
max_diag=$(awk '$1 == "diag" && $2 > m { m = $2 } END { print m + 0 }' "$samples")
max_conns=$(awk '$1 == "lgr_conns" && $2 > m { m = $2 } END { print m + 0 }' "$samples")
echo "during iperf3: up to $max_diag AF_SMC socket(s) in mode smcr, link group connections up to $max_conns"
echo "SMC-R $dir bytes: $before -> $after (iperf3: $want)"
((max_diag >= 1)) || st_fail "sock_diag never listed an SMC-R socket of iperf3"
((max_conns >= 1)) || st_fail "smcr lgr show never counted a connection"
((after - before >= want)) || st_fail "SMC-R $dir bytes grew by $((after - before)), less than $want"
