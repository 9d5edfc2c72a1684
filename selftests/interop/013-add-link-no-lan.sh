#!/bin/bash
# DESC: smcr <-> Linux smc.ko: both allow two links, but the client has no second port on the server's new link's LAN: the ADD LINK flow ends at once, one link, later connections SMC-R
# SMOKE: no
# DEBUG: no
# PEER: yes
# TIMEOUT: 120
#
# Both sides allow two links per link group (smcr_max_links_per_lgr 2 on
# smcr, Linux's default 2), without 010's address on Linux's eth1: Linux
# takes a second port for a version 2 link group only in the subnet of the
# connection's address (192.0.2.0/24), which only rxe0 has.
#  - smcr server (--interop a): it offers link 2 on rxe1 (198.18.0.0/15);
#    Linux answers from rxe0, its first link's port (RFC 7609 3.5.1.6.1,
#    an asymmetric link), which rxe1 does not reach. smcr sees that in the
#    answer and deletes the link at once; before, it waited llc_timeout_ms
#    for the CONFIRM LINK exchange, with Linux's CONFIRM RKEY requests
#    refused meanwhile; Linux, holding its first connection, gave up
#    after its own 5 s (SMC_LLC_WAIT_FIRST_TIME): that connection stalled
#    5 s or more, Linux's subsequent contacts during the flow fell back
#    (ERR_REGBUF) or timed out.
#  - Linux server (--interop b): it offers link 2 on rxe0; smcr's client
#    has no port that reaches it and rejects the offer.
# Asserts: a's first connection (64 KiB duplex) completes within 4 s; then
# on both sides within 3 s the link group has exactly one link, ACTIVE;
# then 8 concurrent connections a->b are SMC-R (each side's own
# sock_diag) and byte-exact, and 3 s later that link group is still the
# only one.
source "$ST_DIR/lib.sh"
st_need_rxe
P=$ST_PORT
N=8
B=$(st_size 256K 64K)

if [[ $ST_IMPL == smcr ]]; then
	st_param smcr_max_links_per_lgr 2 || exit 1
	st_param lgr_linger_ms 60000 || exit 1	# (Linux's linger is 10 min)
fi
st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1

case $SMCR_ROLE in
b) st_serve_bg first server --port "$P" --mode duplex --bytes 64K --expect-mode smcr \
	--timeout 60s || exit 1
   st_wait_all || exit 1 ;;
a) st_await first || exit 1
   st_smctest client --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes 64K \
	--expect-mode smcr --timeout 4s || exit 1 ;;
esac

# the offer of link 2 is over, on each side: one link, ACTIVE
one_link() { [[ $(grep -c . <<<"$links") == 1 && $links == *" ACTIVE" ]]; }
for ((i = 0; i < 30; i++)); do
	links=$(st_links) || exit 1
	one_link && break
	vm_nap 0.1
done
echo "links: ${links//$'\n'/; }"
one_link || st_fail "the link group does not have exactly one ACTIVE link 3 s after the first connection"
lgr=$("$SMCR_TOOLS/bin/smcr" -j lgr show | jq -r '[.[].id] | join(" ")')
vm_sync "$ST_KEY-single" || exit 1

rc=0
case $SMCR_ROLE in
b) st_serve_bg many server --port $((P + 1)) --conns "$N" --concurrent --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 90s || exit 1
   st_wait_all || rc=1 ;;
a) st_await many || exit 1
   st_smctest client --addr "$SMCR_PEER_IP" --port $((P + 1)) --conns "$N" --mode duplex \
	--bytes "$B" --expect-mode smcr --timeout 90s || rc=1 ;;
esac
# and it lasts: no late DELETE LINK of the offer's ends it
vm_nap 3
st_log "$ST_IMPL: $("$SMCR_TOOLS/bin/smcr" lgr show 2>&1)"
got=$("$SMCR_TOOLS/bin/smcr" -j lgr show | jq -r '[.[].id] | join(" ")')
[[ $got == "$lgr" ]] || st_fail "link groups '$got', expected the first contact's alone: '$lgr'"
exit $rc
