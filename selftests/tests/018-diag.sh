#!/bin/bash
# DESC: smctest diag lists an established AF_SMC connection with addresses, ports and mode
# SMOKE: no
# PEER: yes
# TIMEOUT: 90
#
# Asserts: while an AF_SMC connection is established (client idles via --hold
# until b listed it),
# `smctest diag --kv` on each VM lists it: on role a local=<a's IP>:<ephemeral>
# peer=<b's IP>:PORT, on role b the accepted socket local=<b's IP>:PORT
# peer=<a's IP>:<same ephemeral> plus the LISTEN socket; state ESTABLISHED, mode
# smcr with reason 0 (Soft-RoCE, data_path=Y: without Soft-RoCE the test
# fails). The human table prints as well.
source "$ST_DIR/lib.sh"
P=$ST_PORT

[[ $ST_FAMILY == smc ]] || st_skip "sock_diag listing needs AF_SMC"
st_need_rxe
st_param data_path Y || exit 1

# Finds the first kv line matching all patterns (extended regex) in a dump.
find_line() {
	local dump=$1 l p ok
	shift
	while read -r l; do
		ok=1
		for p in "$@"; do [[ $l =~ $p ]] || ok=0; done
		[[ $ok == 1 ]] && { echo "$l"; return 0; }
	done <<<"$dump"
	return 1
}
re_ip() { echo "${1//./\\.}"; }
# the mode between two smcr peers: SMC-R, without a fallback reason
MODE=smcr
check_reason() {
	[[ $1 =~ reason=0x00000000 ]] || st_fail "SMC-R socket with a fallback reason: $1"
}

case $SMCR_ROLE in
b) st_serve_bg srv server --family smc --port "$P" --mode sink --timeout 60s || exit 1
   vm_get "$ST_KEY-client-up" 60 >/dev/null || st_fail "client never connected"
   st_smctest diag
   dump=$("$SMCTEST" diag --kv --port "$P") || st_fail "smctest diag failed"
   echo "$dump"
   port_a=$(vm_get "$ST_KEY-client-port" 10)
   line=$(find_line "$dump" "state=ESTABLISHED" "local=$(re_ip "$SMCR_LOCAL_IP"):$P " \
	"peer=$(re_ip "$SMCR_PEER_IP"):$port_a " "mode=$MODE") || st_fail "accepted socket not listed as expected"
   check_reason "$line"
   find_line "$dump" "state=LISTEN" "local=[^ ]*:$P " >/dev/null || st_fail "listening socket not listed"
   vm_put "$ST_KEY-checked" 1
   st_wait_all ;;
a) st_await srv || exit 1
   # the connection idles until b listed it (or 60 s)
   touch "$ST_TMP/hold"
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes 64K --hold 60s \
	--hold-file "$ST_TMP/hold" --timeout 90s &
   cpid=$!
   line=
   for ((i = 0; i < 100; i++)); do
	dump=$("$SMCTEST" diag --kv) || st_fail "smctest diag failed"
	line=$(find_line "$dump" "state=ESTABLISHED" "peer=$(re_ip "$SMCR_PEER_IP"):$P ") && break
	vm_nap 0.1
   done
   st_smctest diag --summary
   echo "$line"
   [[ -n $line ]] || st_fail "no ESTABLISHED AF_SMC socket to $SMCR_PEER_IP:$P listed"
   [[ $line =~ local=$(re_ip "$SMCR_LOCAL_IP"):([0-9]+)\  ]] || st_fail "local address is not $SMCR_LOCAL_IP: $line"
   vm_put "$ST_KEY-client-port" "${BASH_REMATCH[1]}"
   [[ $line =~ mode=$MODE ]] || st_fail "mode is not $MODE: $line"
   check_reason "$line"
   [[ $line =~ inode=[1-9] ]] || st_fail "no inode: $line"
   vm_put "$ST_KEY-client-up" 1
   vm_get "$ST_KEY-checked" 60 >/dev/null || st_fail "b did not check its listing"
   rm -f "$ST_TMP/hold"
   wait "$cpid" ;;
esac
