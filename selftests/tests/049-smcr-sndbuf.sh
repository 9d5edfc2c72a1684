#!/bin/bash
# DESC: the send buffer is sized by our socket (SO_SNDBUF, else wmem), never above the peer's RMBE; data byte-exact across the two rings
# SMOKE: no
# PEER: yes
# TIMEOUT: 200
#
# Asserts, with rmem=524288 and rmbe_eyecatcher=Y on b (the server: its
# RMBEs are 512 KiB rings that start at 4) and the defaults on a:
#   - a client without SO_SNDBUF has a 128 KiB send buffer (wmem), not one
#     of the peer's 512 KiB RMBE (sock_diag: sndbuf=131072
#     peer_rmbe=524288); the server's send buffer is a's 128 KiB RMBE;
#   - a client with SO_SNDBUF 16384 (half of the kernel's doubled value, as
#     for SO_RCVBUF) has a 16 KiB send buffer, and a duplex transfer over it
#     arrives byte-exact over SMC-R both ways: the send buffer wraps every
#     16 KiB at offset 0 while the peer's RMBE wraps at 512 KiB back to 4.
# (A peer's RMBE size used to size the send buffer: a peer announcing 512
# KiB made every connection take 512 KiB, whatever the socket asked for.)
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
P=$ST_PORT
B=$(st_size 4M 1M)

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
if [[ $SMCR_ROLE == b ]]; then
	st_param rmem 524288 || exit 1
	st_param rmbe_eyecatcher Y || exit 1
fi
vm_sync "$ST_KEY-params" || exit 1

# sizes: "rmbe=R peer_rmbe=P sndbuf=S" of a diag --kv line on stdin
sizes() { grep -o "rmbe=[0-9]* peer_rmbe=[0-9]* sndbuf=[0-9]*"; }

case $SMCR_ROLE in
b) st_serve_bg idle server --family smc --port "$P" --mode sink --bytes 4K --expect-mode smcr \
	--timeout 60s || exit 1
   st_serve_bg dup server --family smc --port $((P + 1)) --mode duplex --bytes "$B" --expect-mode smcr \
	--timeout 150s || exit 1
   s=$(st_conn_kv "$P" | sizes)
   echo "server's connection: $s"
   st_wait_all || exit 1
   [[ $s == "rmbe=524288 peer_rmbe=131072 sndbuf=131072" ]] ||
	st_fail "server's sizes are '$s', expected a 512 KiB RMBE and 128 KiB send buffer" ;;
a) st_await idle && st_await dup || exit 1
   kv=$(st_client_kv "$P" --mode sink --bytes 4K --hold 3s --expect-mode smcr --timeout 60s) ||
	st_fail "the connection without SO_SNDBUF failed"
   s=$(sizes <<<"$kv")
   echo "client's connection without SO_SNDBUF: $s"
   [[ $s == "rmbe=131072 peer_rmbe=524288 sndbuf=131072" ]] ||
	st_fail "sizes are '$s': the send buffer must be wmem's 128 KiB, not the peer's 512 KiB"
   kv=$(st_client_kv $((P + 1)) --mode duplex --bytes "$B" --sndbuf 16384 --expect-mode smcr \
	--timeout 150s) || st_fail "the duplex transfer with a 16 KiB send buffer failed"
   s=$(sizes <<<"$kv")
   echo "client's connection with SO_SNDBUF 16384: $s"
   [[ $s == *" sndbuf=16384" ]] || st_fail "sizes are '$s': SO_SNDBUF 16384 must give a 16 KiB send buffer" ;;
esac
