#!/bin/bash
# DESC: IPPROTO_SMC sockets (AF_INET and AF_INET6): SMC-R between two VMs, fallback to and from plain TCP
# SMOKE: yes
# PEER: yes
# TIMEOUT: 180
#
# Asserts, on kernels with IPPROTO_SMC (6.11+): sockets created with
# socket(AF_INET or AF_INET6, SOCK_STREAM, IPPROTO_SMC) on both sides
# connect, use SMC-R per sock_diag on both sides (where the VMs have
# Soft-RoCE, else fall back with a reason) and move data byte-exact both
# ways (duplex); the accepted sockets are AF_INET/AF_INET6 with SO_PROTOCOL
# IPPROTO_SMC (smctest checks every socket against --family); the client's
# IPv6 connection is listed by sock_diag with diag_family AF_INET6. Against
# a plain TCP server an IPPROTO_SMC client records PEERNOSMC, as does an
# IPPROTO_SMC server for a plain TCP client, data intact both ways. Socket
# options (defaults, set, read back) match TCP's for both families
# (probe sockopts); getsockname/getpeername and accept() behave as on TCP
# (probes names, accept).
# On 6.1: socket(AF_INET/AF_INET6, SOCK_STREAM, IPPROTO_SMC) fails with
# EPROTONOSUPPORT on both VMs, then the test skips.
source "$ST_DIR/lib.sh"
P=$ST_PORT
N=$(st_size 8M 1M)

[[ $ST_FAMILY == smc ]] || st_skip "IPPROTO_SMC needs the module"
st_have_ipproto_smc || st_ipproto_smc_absent

st_smctest probe sockopts --family ipproto-smc || exit 1
st_smctest probe sockopts --family ipproto-smc --ipv6 || exit 1
ST_PORT=$((P + 10)) ST_FAMILY=ipproto-smc st_probe_pairs names accept || exit 1

case $SMCR_ROLE in
b) st_serve_bg v4 server --family ipproto-smc --port "$P" --mode duplex --bytes "$N" \
	"${ST_EXPECT_SMC_PEER[@]}" --timeout 150s || exit 1
   st_serve_bg v6 server --family ipproto-smc --ipv6 --port $((P + 1)) --mode duplex --bytes "$N" \
	"${ST_EXPECT_SMC_PEER[@]}" --timeout 150s || exit 1
   st_serve_bg tcp server --family tcp --port $((P + 2)) --mode duplex --bytes "$N" --timeout 150s || exit 1
   st_serve_bg fb server --family ipproto-smc --port $((P + 3)) --mode duplex --bytes "$N" \
	--expect-mode fallback --expect-reason PEERNOSMC --timeout 150s || exit 1
   st_wait_all ;;
a) st_await v4 && st_await v6 && st_await tcp && st_await fb || exit 1
   st_smctest client --family ipproto-smc --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes "$N" \
	"${ST_EXPECT_SMC_PEER[@]}" -v --timeout 150s || exit 1
   # IPv6, held open after the data so that sock_diag shows it
   hold_file=$ST_TMP/v6.hold
   : >"$hold_file"
   st_smctest client --family ipproto-smc --addr "$SMCR_PEER_IP6" --port $((P + 1)) --mode duplex --bytes "$N" \
	"${ST_EXPECT_SMC_PEER[@]}" -v --hold 60s --hold-file "$hold_file" --timeout 150s &
   cpid=$!
   kv=
   for ((i = 0; i < 300; i++)); do
	kv=$("$SMCTEST" diag --kv --port $((P + 1)) | grep "peer=\[$SMCR_PEER_IP6\]" | head -n1)
	[[ -n $kv ]] && break
	vm_nap 0.1
   done
   rm -f "$hold_file"
   wait $cpid || st_fail "IPv6 IPPROTO_SMC client failed"
   echo "diag: $kv"
   [[ $kv == family=inet6\ * ]] || st_fail "IPv6 IPPROTO_SMC socket not listed with family inet6"
   st_smctest client --family ipproto-smc --addr "$SMCR_PEER_IP" --port $((P + 2)) --mode duplex --bytes "$N" \
	--expect-mode fallback --expect-reason PEERNOSMC --timeout 150s || exit 1
   st_smctest client --family tcp --addr "$SMCR_PEER_IP" --port $((P + 3)) --mode duplex --bytes "$N" \
	--timeout 150s ;;
esac
