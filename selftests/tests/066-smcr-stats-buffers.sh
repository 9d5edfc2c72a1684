#!/bin/bash
# DESC: smcr --json stats buffer events: sequential SMC-R connections reuse their link group's elements, and the usage gauge returns to 0
# SMOKE: yes
# PEER: yes
# TIMEOUT: 240
#
# Asserts, on each VM, after `smcr stats reset` and N sequential SMC-R
# connections (1 KiB each way) in one link group: for the RMB (rx) and the
# send buffer (tx) every connection counted one buffer event, at most one
# of them an allocation (a new buffer; none if an earlier test's link group
# still lingers) and the others reuses (an element of a buffer the link
# group already had: no registration, no LLC exchange); once the
# connections ended, buffer_usage is 0 again. Before the fix every
# connection counted an allocation and the gauge only grew (by each
# element's size).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
S=$SMCR_TOOLS/bin/smcr
[[ -x $S ]] || st_fail "$S not built"
P=$ST_PORT
N=$(st_size 20 10)

st_param data_path Y || exit 1
st_param lgr_linger_ms 60000 || exit 1
st_await_lgr_conns 0 20 || st_fail "connections of earlier tests still open"
"$S" stats reset || st_fail "smcr stats reset failed"
vm_sync "$ST_KEY-reset" || exit 1
case $SMCR_ROLE in
b) st_serve srv server --family smc --port "$P" --mode duplex --bytes 1K --conns "$N" \
	--expect-mode smcr --timeout 200s || exit 1 ;;
a) st_await srv || exit 1
   for ((i = 0; i < N; i++)); do
	"$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes 1K \
		--expect-mode smcr --timeout 30s >"$ST_TMP/c.out" 2>&1 || { tail -2 "$ST_TMP/c.out"; st_fail "connection $i"; }
   done ;;
esac
vm_sync "$ST_KEY-done" || exit 1
st_await_lgr_conns 0 20 || st_fail "connections left in the link group"
rc=0
for dir in rx tx; do
	usage=-1
	for ((t = 0; t < 20; t++)); do	# the last element goes back as its connection ends
		js=$("$S" --json stats) || st_fail "smcr --json stats failed"
		usage=$(jq -r ".smcr.$dir.buffer_usage" <<<"$js")
		[[ $usage == 0 ]] && break
		vm_nap 0.5
	done
	alloc=$(jq -r ".smcr.$dir.buffer_events.alloc" <<<"$js")
	reuse=$(jq -r ".smcr.$dir.buffer_events.reuse" <<<"$js")
	st_log "$dir: alloc $alloc reuse $reuse usage $usage after $N connections"
	if ((alloc + reuse != N)); then
		echo "$dir: $((alloc + reuse)) buffer events for $N connections"
		rc=1
	fi
	if ((alloc > 1)); then
		echo "$dir: $alloc allocations: sequential connections should reuse their elements"
		rc=1
	fi
	if [[ $usage != 0 ]]; then
		echo "$dir: buffer_usage $usage with no connection open"
		rc=1
	fi
done
exit $rc
