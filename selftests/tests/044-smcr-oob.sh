#!/bin/bash
# DESC: urgent data over SMC-R (RFC 7609 4.7.5/4.7.6) behaves as on TCP: POLLPRI, SIGURG, SIOCATMARK, MSG_OOB, SO_OOBINLINE
# SMOKE: no
# PEER: yes
# TIMEOUT: 120
#
# Asserts (smctest probe oob, whose expectations also hold on plain TCP):
#   1. the last byte of send(MSG_OOB) raises POLLPRI and SIGURG; a read
#      stops at the mark; SIOCATMARK is 1 there; recv(MSG_OOB) returns the
#      byte once (then EINVAL); the byte is not in the stream;
#   2. with SO_OOBINLINE the read stops at the mark and the byte stays in
#      the stream, recv(MSG_OOB) fails with EINVAL;
#   3. an urgent byte with no data before it, then data: both arrive
#      (the receiver skips the byte at once, so the sender's wait for the
#      mark's acknowledgement ends);
#   4. an urgent byte sent into a full window (writer blocked, "urgent data
#      pending"): read once, the stream around it intact;
# and `smcr stats` counts the urgent sends (a) and receives (b) under SMC-R,
# so the connections did not fall back to TCP.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
S=$SMCR_TOOLS/bin/smcr

urgent() { "$S" -j stats | jq '.smcr.urgent'; }
before=$(urgent) || st_fail "smcr stats failed"
vm_sync "$ST_KEY-params" || exit 1
st_probe_pairs oob || exit 1
after=$(urgent)
case $SMCR_ROLE in
a) want=4 ;;	# four send(MSG_OOB)
b) want=3 ;;	# three recv(MSG_OOB) returning the byte
esac
echo "SMC-R urgent data count: $before -> $after"
((after - before >= want)) || st_fail "urgent data count grew by $((after - before)), expected $want"
