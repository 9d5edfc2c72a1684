#!/bin/bash
# DESC: tracepoints smcr_hs_done, smcr_fallback and smcr_link_state fire with the connection's ports, mode and reason
# SMOKE: yes
# PEER: yes
# TIMEOUT: 150
#
# Asserts on each VM, with tracefs's events/smcr enabled and no link group
# to start with:
#   - an SMC-R connection (a new link group) logs smcr_link_state with
#     ACTIVATING and then ACTIVE, and smcr_hs_done with the connection's
#     ports (client: dport = the server's port; server: sport) and
#     mode=smcr;
#   - a connection with use_roce=N on a logs smcr_fallback and
#     smcr_hs_done mode=fallback, on a with reason NOSMCRDEV (0x03030002),
#     on b with PEERDECL (0x05000000) and peer_diag NOSMCRDEV.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_smcr_data || st_fail "the data path is off"
P=$ST_PORT
T=/sys/kernel/tracing
[[ -d $T/events ]] || mount -t tracefs nodev "$T" 2>/dev/null
[[ -d $T/events/smcr ]] || st_fail "no smcr events in $T/events"

trace_off() { echo 0 >"$T/events/smcr/enable"; }
trap trace_off EXIT
echo 0 >"$T/tracing_on"
: >"$T/trace"
echo 1 >"$T/events/smcr/enable"
echo 1 >"$T/tracing_on"

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-traced" || exit 1
case $SMCR_ROLE in
b) st_serve_bg r server --family smc --port "$P" --mode sink --bytes 4K --expect-mode smcr --timeout 60s || exit 1
   st_serve_bg f server --family smc --port $((P + 1)) --mode sink --bytes 4K --timeout 60s || exit 1
   st_wait_all || exit 1 ;;
a) st_await r && st_await f || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes 4K \
	--expect-mode smcr --timeout 60s || exit 1
   st_param use_roce N || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode sink --bytes 4K \
	--expect-mode fallback --expect-reason NOSMCRDEV --timeout 60s || exit 1 ;;
esac
trace_off
out=$(grep -o "smcr_[a-z_]*: .*" "$T/trace")
echo "$out"

# has PATTERN WHAT: the trace has a line matching the extended regex
has() { grep -Eq "$1" <<<"$out" || st_fail "no trace line for $2 ($1)"; }
has "smcr_link_state: lgr=[0-9]+ link=[0-9]+ role=[a-z]+ state=ACTIVATING" "the new link"
has "smcr_link_state: lgr=[0-9]+ link=1 role=[a-z]+ state=ACTIVE" "the confirmed link"
case $SMCR_ROLE in
a) has "smcr_hs_done: sport=[0-9]+ dport=$P role=client mode=smcr reason=0x00000000" "the SMC-R connection"
   has "smcr_fallback: sport=[0-9]+ dport=$((P + 1)) role=client reason=0x03030002" "the fallback"
   has "smcr_hs_done: sport=[0-9]+ dport=$((P + 1)) role=client mode=fallback reason=0x03030002" \
	"the fallback's handshake" ;;
b) has "smcr_hs_done: sport=$P dport=[0-9]+ role=server mode=smcr reason=0x00000000" "the SMC-R connection"
   has "smcr_fallback: sport=$((P + 1)) dport=[0-9]+ role=server reason=0x05000000 peer_diag=0x03030002" \
	"the fallback"
   has "smcr_hs_done: sport=$((P + 1)) dport=[0-9]+ role=server mode=fallback reason=0x05000000" \
	"the fallback's handshake" ;;
esac
