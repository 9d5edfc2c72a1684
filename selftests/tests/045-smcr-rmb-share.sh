#!/bin/bash
# DESC: 64 SMC-R connections from 8 processes share RMBs: one link group, elements packed into 256 KiB RMBs (dumps)
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Asserts: starting without link groups, 8 client processes on a with 8
# connections each (64 connections, held idle for a while, then a 4 KiB
# sink each) give, on both VMs while all are connected:
#   - sock_diag: 64 SMC-R sockets on the test port with connection info,
#     64 different alert tokens, one RMB element size E;
#   - `smcr lgr show`: one link group with 64 connections whose RMB memory
#     is exactly ceil(64 / (256 KiB / E)) RMBs of 256 KiB: the elements of
#     one registered RMB serve connections of different processes
#     (RFC 7609 2.1, 4.1);
# and every transfer is byte-exact over SMC-R.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
P=$ST_PORT
PROCS=8 PER=8
T=$((PROCS * PER))
RMB=262144	# bytes per RMB (buf.c), at least one element

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1

conns_kv() { "$SMCTEST" diag --kv --port "$P" | grep "mode=smcr.*token="; }

await_conns() {
	local i n
	# a dump of 64 sockets takes a while on the debug kernel: leave the
	# connections being set up most of the CPU
	for ((i = 0; i < 120; i++)); do
		n=$(conns_kv | wc -l)
		((n >= T)) && return 0
		vm_nap 0.5
	done
	echo "SMC-R sockets with connection info: $n, expected $T"
	return 1
}

check_share() {
	local kv tokens sizes e per rmbs want lgrs got conns
	kv=$(conns_kv)
	[[ $(wc -l <<<"$kv") == "$T" ]] || st_fail "$(wc -l <<<"$kv") SMC-R sockets, expected $T"
	tokens=$(grep -o "token=0x[0-9a-f]*" <<<"$kv" | sort -u | wc -l)
	((tokens == T)) || st_fail "$tokens different alert tokens for $T connections"
	sizes=$(grep -o " rmbe=[0-9]*" <<<"$kv" | sort -u)
	[[ $(wc -l <<<"$sizes") == 1 ]] || st_fail "RMB element sizes differ: $sizes"
	e=${sizes# rmbe=}
	per=$((RMB / e))
	((per >= 1)) || per=1
	rmbs=$(((T + per - 1) / per))
	want=$((rmbs * (e > RMB ? e : RMB)))
	lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || st_fail "smcr lgr show failed"
	[[ $(jq length <<<"$lgrs") == 1 ]] || st_fail "expected one link group: $lgrs"
	conns=$(jq '.[0].conns' <<<"$lgrs")
	got=$(jq '.[0].rmb_alloc' <<<"$lgrs")
	echo "$T connections, RMB elements of $e bytes, $per per RMB: RMB memory $got (expected $want, $rmbs RMBs)"
	((conns == T)) || st_fail "link group has $conns connections, expected $T"
	((got == want)) || st_fail "RMB memory $got, expected $want"
}

case $SMCR_ROLE in
b) st_serve_bg srv server --family smc --port "$P" --conns "$T" --concurrent --mode sink --bytes 4K \
	--expect-mode smcr --timeout 150s || exit 1
   await_conns || exit 1
   check_share
   vm_sync "$ST_KEY-checked" || exit 1
   st_wait_all || exit 1 ;;
a) st_await srv || exit 1
   pids=()
   # the clients hold their connections until the hold file is gone (both
   # VMs checked), bounded by --hold within the test timeout
   : >"$ST_TMP/hold"
   for ((i = 0; i < PROCS; i++)); do
	"$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port "$P" --conns "$PER" --hold 140s \
		--hold-file "$ST_TMP/hold" --mode sink --bytes 4K --expect-mode smcr --timeout 150s &
	pids+=($!)
   done
   await_conns || exit 1
   check_share
   vm_sync "$ST_KEY-checked" || exit 1
   rm -f "$ST_TMP/hold"
   rc=0
   for p in "${pids[@]}"; do wait "$p" || rc=1; done
   ((rc == 0)) || st_fail "a client process failed" ;;
esac
