#!/bin/bash
# DESC: streams over SMC-R (RDMA writes + CDC), both directions and duplex, byte-exact, RMBE smaller than the data
# SMOKE: no
# PEER: yes
# TIMEOUT: 200
#
# Asserts, with data_path=Y on both VMs: diag reports mode
# SMCR on both sides (no fallback) for
#   - a sink from a to b (16 MiB; 1 MiB on the debug kernel), far more than
#     one RMBE (64 KiB with the default socket buffers), so cursors wrap
#     and the writer blocks and resumes;
#   - a duplex transfer (each side verifies the other's pattern checksum);
#   - 1-byte transfers;
# and the link group carries the connections (one link group on each VM).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
B=${ST_BYTES:-$(st_size 16M 1M)}

st_param data_path Y || exit 1
vm_sync "$ST_KEY-params" || exit 1
case $SMCR_ROLE in
b) st_serve_bg sink server --family smc --port "$P" --mode sink --expect-mode smcr --timeout 120s || exit 1
   st_serve_bg duplex server --family smc --port $((P + 1)) --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 120s || exit 1
   st_serve_bg one server --family smc --port $((P + 2)) --mode duplex --bytes 1 \
	--expect-mode smcr --timeout 120s || exit 1
   st_wait_all || exit 1 ;;
a) st_await sink && st_await duplex && st_await one || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes "$B" \
	--expect-mode smcr --timeout 120s || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 120s || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 2)) --mode duplex --bytes 1 \
	--expect-mode smcr --timeout 120s || exit 1 ;;
esac
[[ $(st_lgr_count) == 1 ]] || st_fail "expected one link group"
