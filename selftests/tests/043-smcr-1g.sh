#!/bin/bash
# DESC: long stream over SMC-R (1 GiB in the soak tier, 128 MiB in make check, 16 MiB on the debug kernel), byte-exact, no fallback, RDMA counters move
# SMOKE: yes
# SOAK: yes
# DEBUG: no
# PEER: yes
# TIMEOUT: 400
#
# Asserts: a sink of 1 GiB (soak tier) or 128 MiB (make check) from a to b
# runs over SMC-R on both sides (diag mode smcr, checked by smctest) with
# matching FNV checksums, and `smcr -j stats` on each VM counts at least
# that many SMC-R payload bytes in its direction (tx on a, rx on b): the
# bytes moved by RDMA, not by TCP. Not on the debug kernel (DEBUG: no): its
# kernel paths are 040's stream and 066/102's counters, which run there.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
P=$ST_PORT
B=$(st_size 128M 16M 1G)
S=$SMCR_TOOLS/bin/smcr

bytes_of() { "$S" -j stats | jq ".smcr.$1.bytes"; }
case $SMCR_ROLE in
b) before=$(bytes_of rx) || st_fail "smcr stats failed"
   st_serve srv server --family smc --port "$P" --mode sink --msgsize 256K --expect-mode smcr \
	--timeout 350s || exit 1
   after=$(bytes_of rx)
   dir=rx ;;
a) before=$(bytes_of tx) || st_fail "smcr stats failed"
   st_await srv || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes "$B" \
	--msgsize 256K --expect-mode smcr --timeout 350s || exit 1
   after=$(bytes_of tx)
   dir=tx ;;
esac
want=$(numfmt --from=iec "$B")
echo "SMC-R $dir bytes: $before -> $after (transfer: $want)"
((after - before >= want)) || st_fail "SMC-R $dir byte counter grew by $((after - before)), less than $want"
