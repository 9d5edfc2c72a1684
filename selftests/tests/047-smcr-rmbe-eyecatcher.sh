#!/bin/bash
# DESC: the RFC's RMBE eye catcher (rmbe_eyecatcher=Y on the server): cursors start past it, data byte-exact both ways with wraps
# SMOKE: no
# PEER: yes
# TIMEOUT: 200
#
# Asserts, with rmbe_eyecatcher=Y on b only (the server chooses the RMBE
# format of its link groups and says so in CONFIRM LINK; a follows):
#   - an idle SMC-R connection's producer cursors start at offset 4, past
#     the eye catcher (RFC 7609 4.2), on both VMs (sock_diag: rx_prod and
#     tx_prod 0:4; Linux's format starts at 0:0);
#   - a duplex transfer of 1 MiB each way (64 KiB RMBEs: the cursors wrap
#     back to 4 many times) arrives byte-exact over SMC-R, and the eye
#     catchers stay intact: no reset, and neither VM logged "eye catcher
#     overwritten" during the test.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
P=$ST_PORT
B=$(st_size 4M 1M)

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
if [[ $SMCR_ROLE == b ]]; then
	st_param rmbe_eyecatcher Y || exit 1
fi
st_dmesg_mark start || exit 1
vm_sync "$ST_KEY-params" || exit 1

# cursors: "rx_prod=W:C tx_prod=W:C" of a diag --kv line on stdin
cursors() { grep -o "rx_prod=[0-9:]* tx_prod=[0-9:]*"; }

case $SMCR_ROLE in
b) st_serve_bg idle server --family smc --port "$P" --mode sink --bytes 4K --expect-mode smcr \
	--timeout 60s || exit 1
   st_serve_bg dup server --family smc --port $((P + 1)) --mode duplex --bytes "$B" --expect-mode smcr \
	--timeout 150s || exit 1
   c=$(st_conn_kv "$P" | cursors)
   echo "server's idle connection: $c"
   st_wait_all || exit 1
   [[ $c == "rx_prod=0:4 tx_prod=0:4" ]] || st_fail "cursors do not start past the eye catcher: '$c'" ;;
a) st_await idle && st_await dup || exit 1
   kv=$(st_client_kv "$P" --mode sink --bytes 4K --hold 4s --expect-mode smcr --timeout 60s) ||
	st_fail "the idle connection failed"
   c=$(cursors <<<"$kv")
   echo "client's idle connection: $c"
   [[ $c == "rx_prod=0:4 tx_prod=0:4" ]] || st_fail "cursors do not start past the eye catcher: '$c'"
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode duplex --bytes "$B" \
	--expect-mode smcr --timeout 150s || exit 1 ;;
esac
n=$(st_dmesg_count "eye catcher overwritten" start) || st_fail "cannot read the kernel log"
((n == 0)) || st_fail "an eye catcher was overwritten ($n log lines)"
