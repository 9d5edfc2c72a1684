#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer --script fuzz): seeded mutated CDC and LLC messages while an honest link group streams byte-exact
# SMOKE: no
# SOAK: yes
# PEER: yes
# TIMEOUT: 1800
#
# Role b runs two smcr servers: one for link-peer's fuzz connection
# (test_clc_without_option=1, duplex 64K: what it reads is our lies)
# and one for an honest duplex stream from a's smcr client (another peer
# ID, so another link group). Role a runs both at once: link-peer --script
# fuzz --count N (make check: 20000 stock, 5000 debug; the soak tier and
# make fuzz: 1000000) and a loop of checksummed duplex connections that
# runs as long as the fuzz does. Asserts:
#  - link-peer: every message sent, smcr's TEST LINK answers all along and
#    at the end (the link never went down), every message smcr sent was
#    its own: right token, sequence numbers, no failover flag;
#  - every honest connection is SMC-R and byte-exact both ways;
#  - with ST_SOAK=1 (make fuzz): after the link groups ended, smcr unloads
#    (no leaked reference); the harness then checks kmemleak and the logs.
# SMCR_FUZZ_CLC_VERSION=2 (make fuzz's second run): link-peer proposes
# SMC-R version 2 (b gets the user EID SMCR-LINK-PEER) and fuzzes in
# version 2 framing, long messages included; make check's short version 2
# fuzz is in 059.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
N=$(st_size 20000 5000 1000000)
B=$(st_size 1M 256K)
SEED=${SMCR_FUZZ_SEED:-1}
V=${SMCR_FUZZ_CLC_VERSION:-1}
case $SMCR_ROLE in
b) st_param test_clc_without_option Y || exit 1
   st_param lgr_linger_ms 3000 || exit 1
   if ((V == 2)); then
	st_cleanup '"$SMCR_TOOLS/bin/smcr" ueid del SMCR-LINK-PEER >/dev/null'
	"$SMCR_TOOLS/bin/smcr" ueid add SMCR-LINK-PEER >/dev/null || st_fail "ueid add"
   fi
   # duplex: link-peer waits for its first CDC message; what it reads is our lies
   st_serve_bg fuzz server --family smc --port "$P" --conns 1 --mode duplex --bytes 64K --timeout 1700s || exit 1
   fuzz_pid=${ST_PIDS[-1]}
   # --conns 0: until a is done (the ready file removed)
   st_serve_bg honest server --family smc --port $((P + 1)) --conns 0 --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 1700s || exit 1
   honest_pid=${ST_PIDS[-1]}
   ST_PIDS=()
   vm_get "$ST_KEY-done" 1750 >/dev/null || echo "no word from role a"
   rm -f "$ST_TMP/honest.ready"
   rc=0
   wait "$honest_pid" || { echo "the honest server failed"; rc=1; }
   # what became of the fuzzed connection is not asserted
   kill "$fuzz_pid" 2>/dev/null
   wait "$fuzz_pid" ;;
a) st_await fuzz && st_await honest || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$P" --script fuzz --count "$N" --seed "$SEED" --clc-version "$V" \
	--timeout 1700s >"$ST_TMP/fuzz.out" 2>&1 &
   fpid=$!
   rc=0 conns=0
   while kill -0 "$fpid" 2>/dev/null || ((conns == 0)); do
	"$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode duplex --bytes "$B" \
		--expect-mode smcr --timeout 120s -q || { echo "honest connection $conns failed"; rc=1; break; }
	conns=$((conns + 1))
   done
   wait "$fpid" || { echo "link-peer fuzz failed"; rc=1; }
   cat "$ST_TMP/fuzz.out"
   echo "honest connections during the fuzz: $conns, all byte-exact: $((rc == 0))"
   vm_put "$ST_KEY-done" 1 ;;
esac
if [[ ${ST_SOAK:-0} == 1 ]] && ((rc == 0)); then
	st_await_lgr_count 0 60 || rc=1
	st_params_restore	# while the parameters are still there
	smcr_unload || { echo "smcr did not unload after the fuzz"; rc=1; }
fi
exit "$rc"
