#!/bin/bash
# DESC: smcr <-> Linux smc.ko: SMC-R v2 streams a->b, duplex and 1 byte, mode SMC-R on both sides, byte-exact
# SMOKE: yes
# PEER: yes
# TIMEOUT: 200
#
# One VM runs smcr, the other Linux's in-tree SMC (selftests/run --interop).
# Asserts on each side, from its own sock_diag (smcr's or smc_diag's): mode
# SMC-R, no fallback, for a sink of 16 MiB (1 MiB on the debug kernel) from
# a to b, a duplex transfer of the same size checked on both sides, and a
# 1-byte duplex transfer; then one link group on each side, of SMC-R
# version 2 release 1 (as each side's netlink reports it).
source "$ST_DIR/lib.sh"
st_need_rxe
P=$ST_PORT
B=$(st_size 16M 1M)

case $SMCR_ROLE in
b) st_serve_bg sink server --port "$P" --mode sink --expect-mode smcr --timeout 120s || exit 1
   st_serve_bg duplex server --port $((P + 1)) --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 120s || exit 1
   st_serve_bg one server --port $((P + 2)) --mode duplex --bytes 1 \
	--expect-mode smcr --timeout 120s || exit 1
   st_wait_all || exit 1 ;;
a) st_await sink && st_await duplex && st_await one || exit 1
   st_smctest client --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes "$B" \
	--expect-mode smcr --timeout 120s || exit 1
   st_smctest client --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 120s || exit 1
   st_smctest client --addr "$SMCR_PEER_IP" --port $((P + 2)) --mode duplex --bytes 1 \
	--expect-mode smcr --timeout 120s || exit 1 ;;
esac
st_log "$ST_IMPL: $("$SMCR_TOOLS/bin/smcr" lgr show 2>&1)"
[[ $(st_lgr_count) == 1 ]] || st_fail "expected one link group"
[[ $(st_lgr_versions) == 2.1 ]] || st_fail "expected SMC-R v2.1, got '$(st_lgr_versions)'"
