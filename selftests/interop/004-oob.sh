#!/bin/bash
# DESC: smcr <-> Linux smc.ko: urgent data (MSG_OOB) both ways over SMC-R v2, as on TCP, counted as SMC-R urgent data on both sides
# SMOKE: no
# PEER: yes
# TIMEOUT: 200
#
# One VM runs smcr, the other Linux's in-tree SMC (selftests/run --interop).
# smctest probe oob twice: first b serves and a's client sends the urgent
# data, then a serves and b's client sends it. Each probe pair asserts on
# the receiver: POLLPRI and SIGURG, a read stops at the mark, SIOCATMARK 1
# there, recv(MSG_OOB) returns the byte once (then EINVAL) and the byte is
# not in the stream; with SO_OOBINLINE it stays in the stream; an urgent
# byte with no data before it; an urgent byte sent into a full window.
# The probe does not read sock_diag, so SMC-R is asserted through each
# side's own SMC statistics (`smcr -j stats`, smcr's or Linux's netlink,
# SMC-R technology): the urgent data counter grows by at least 7 on each VM
# (4 send(MSG_OOB) as client, 3 recv(MSG_OOB) returning the byte as server)
# and no connection fell back to TCP (fallback counters unchanged).
source "$ST_DIR/lib.sh"
[[ ${SMCR_RXE:-0} == 1 ]] || st_skip "needs Soft-RoCE"
P=$ST_PORT
S=$SMCR_TOOLS/bin/smcr

counters() { "$S" -j stats | jq -r '"\(.smcr.urgent) \(.fallback.client + .fallback.server)"'; }
read -r urg0 fb0 <<<"$(counters)" || st_fail "smcr stats failed"
[[ -n ${fb0:-} ]] || st_fail "smcr stats gave no counters"
vm_sync "$ST_KEY-start" || exit 1

rc=0
# b serves, a sends the urgent data
case $SMCR_ROLE in
b) st_serve ab probe oob --role server --port "$P" --timeout 90s || rc=1 ;;
a) st_await ab && st_smctest probe oob --role client --addr "$SMCR_PEER_IP" --port "$P" --timeout 90s || rc=1 ;;
esac
vm_sync "$ST_KEY-half" || exit 1
# a serves, b sends the urgent data
case $SMCR_ROLE in
a) st_serve ba probe oob --role server --port $((P + 1)) --timeout 90s || rc=1 ;;
b) st_await ba && st_smctest probe oob --role client --addr "$SMCR_PEER_IP" --port $((P + 1)) \
	--timeout 90s || rc=1 ;;
esac
((rc == 0)) || st_fail "an oob probe failed on $ST_IMPL (role $SMCR_ROLE)"
read -r urg1 fb1 <<<"$(counters)"
echo "$ST_IMPL: SMC-R urgent data count $urg0 -> $urg1, fallbacks $fb0 -> $fb1"
((urg1 - urg0 >= 7)) || st_fail "$ST_IMPL: urgent data count grew by $((urg1 - urg0)), expected at least 7"
((fb1 == fb0)) || st_fail "$ST_IMPL: $((fb1 - fb0)) connection(s) fell back to TCP"
