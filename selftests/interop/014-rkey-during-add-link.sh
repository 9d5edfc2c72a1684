#!/bin/bash
# DESC: smcr <-> Linux smc.ko: a client's CONFIRM RKEY for a new RMB right after the first contact, during the server's ADD LINK flow (held open on smcr): confirmed, the connection SMC-R on both sides, byte-exact
# SMOKE: no
# DEBUG: no
# PEER: yes
# TIMEOUT: 120
#
# Both sides allow two links. Right after the first contact, a second
# connection whose client socket sets SO_RCVBUF 16K needs a new RMB on the
# client (another size), announced with CONFIRM RKEY.
#  - smcr server (--interop a): smcr holds its ADD LINK flow open for 2 s
#    before its ADD LINK (test_add_link_hold_ms), so Linux's CONFIRM RKEY
#    arrives during the flow. Linux holds its own exchange as a flow: it
#    handles smcr's ADD LINK only after it, and takes any negative reply
#    as a failure (smc_llc_do_confirm_rkey()). RFC 7609 3.5.5.3.1's
#    negative reply with C, which smcr sent before, made the connection
#    fall back (ERR_REGBUF); held until the flow ended, the request would
#    have left each side waiting for the other.
#  - Linux server (--interop b): Linux holds nothing; whether smcr's
#    CONFIRM RKEY meets Linux's ADD LINK (on one port: smcr rejects it) is
#    up to timing.
# Asserts: both connections SMC-R (each side's own sock_diag) and
# byte-exact.
source "$ST_DIR/lib.sh"
st_need_rxe
P=$ST_PORT
B=$(st_size 256K 64K)

if [[ $ST_IMPL == smcr ]]; then
	st_param smcr_max_links_per_lgr 2 || exit 1
	[[ $SMCR_ROLE == b ]] && { st_param test_add_link_hold_ms 2000 || exit 1; }
fi
st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1

rc=0
case $SMCR_ROLE in
b) st_serve_bg s server --port "$P" --conns 2 --concurrent --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 60s || exit 1
   st_wait_all || rc=1 ;;
a) st_await s || exit 1
   st_smctest client --addr "$SMCR_PEER_IP" --port "$P" --conns 1 --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 30s || rc=1
   st_smctest client --addr "$SMCR_PEER_IP" --port "$P" --conns 1 --mode duplex --bytes "$B" \
	--rcvbuf 16K --expect-mode smcr --timeout 30s || rc=1 ;;
esac
st_log "$ST_IMPL: $("$SMCR_TOOLS/bin/smcr" lgr show 2>&1)"
((rc == 0)) || st_fail "a connection failed or was not SMC-R ($ST_IMPL, role $SMCR_ROLE)"
echo "both connections SMC-R, byte-exact"
