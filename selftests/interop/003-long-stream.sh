#!/bin/bash
# DESC: smcr <-> Linux smc.ko: a 256 MiB SMC-R stream a->b (64 MiB on the debug kernel), SMC-R on both sides, FNV checksums equal on both ends
# SMOKE: no
# DEBUG: no
# PEER: yes
# TIMEOUT: 900
#
# One VM runs smcr, the other Linux's in-tree SMC (selftests/run --interop).
# A sink of 256 MiB (64 MiB on the debug kernel; until 2026-11-28 1 GiB,
# 73 s per role: 256 MiB still wraps the RMBE a thousand times or more),
# 256 KiB per send, from a's
# client to b's server. make check runs the group with Linux on b and then
# on a, so each implementation sends and receives the whole volume over
# RDMA (ST_BOTH_WAYS=1 adds b's client to a's server in one run).
# Asserts for each direction:
#   - both ends are SMC-R (each side's own sock_diag, --expect-mode smcr);
#   - the receiver counted exactly the bytes sent, and the FNV-1a checksum
#     it computed over them equals the sender's, as compared by the sender's
#     smctest (the server reports it back) and again here: the receiving VM
#     publishes its checksum (vm_put) and the sending VM compares it with
#     its own.
# The checksums are printed as "CHECKSUM a->b sender=... receiver=...".
source "$ST_DIR/lib.sh"
st_need_rxe
P=$ST_PORT
B=$(st_size 256M 64M)
want=$(numfmt --from=iec "$B")

# recv DIR PORT: the receiving end of DIR; publishes "BYTES FNV"
recv() {
	local dir=$1 port=$2 line
	st_serve "$dir" server --port "$port" --mode sink --msgsize 256K --expect-mode smcr \
		--timeout 800s >"$ST_TMP/$dir.out" 2>&1
	local rc=$?
	cat "$ST_TMP/$dir.out"
	line=$(grep -o "sink bytes=[0-9]* fnv=[0-9a-f]*" "$ST_TMP/$dir.out" | head -n1)
	[[ $line =~ bytes=([0-9]+)\ fnv=([0-9a-f]+) ]] || { vm_put "$ST_KEY-$dir-sum" "none"; return 1; }
	vm_put "$ST_KEY-$dir-sum" "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
	echo "$dir: $ST_IMPL received ${BASH_REMATCH[1]} bytes, fnv=${BASH_REMATCH[2]}"
	return $rc
}

# send DIR PORT: the sending end of DIR; compares with the receiver's sum
send() {
	local dir=$1 port=$2 rc sum mine=
	st_await "$dir" || return 1
	st_smctest client --addr "$SMCR_PEER_IP" --port "$port" --mode sink --bytes "$B" --msgsize 256K \
		--expect-mode smcr --timeout 800s >"$ST_TMP/$dir.out" 2>&1
	rc=$?
	cat "$ST_TMP/$dir.out"
	[[ $(<"$ST_TMP/$dir.out") =~ sink\ ok\ bytes=[0-9]+\ fnv=([0-9a-f]+) ]] && mine=${BASH_REMATCH[1]}
	sum=$(vm_get "$ST_KEY-$dir-sum" 120) || sum="none"
	echo "CHECKSUM $dir ($ST_IMPL -> $ST_PEER_IMPL, $B): sender=fnv:${mine:-none} receiver=${sum#* } bytes=${sum%% *}"
	((rc == 0)) || { echo "$dir: the sending smctest failed"; return 1; }
	[[ -n $mine && $sum == "$want $mine" ]] ||
		{ echo "$dir: receiver has '$sum', sender sent $want bytes with fnv ${mine:-?}"; return 1; }
}

rc=0
case $SMCR_ROLE in
b) recv a-b "$P" || rc=1 ;;
a) send a-b "$P" || rc=1 ;;
esac
if [[ ${ST_BOTH_WAYS:-0} == 1 ]]; then
	vm_sync "$ST_KEY-half" || exit 1
	case $SMCR_ROLE in
	b) send b-a $((P + 1)) || rc=1 ;;
	a) recv b-a $((P + 1)) || rc=1 ;;
	esac
fi
((rc == 0)) || st_fail "a stream failed on $ST_IMPL (role $SMCR_ROLE)"
