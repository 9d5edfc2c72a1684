#!/bin/bash
# DESC: accept4 flags (SOCK_NONBLOCK/SOCK_CLOEXEC) and nonblocking accept (EAGAIN when empty)
# SMOKE: no
# PEER: yes
# TIMEOUT: 90
#
# Asserts: accept on an empty nonblocking AF_SMC listener fails with EAGAIN and
# poll shows nothing; accept4(SOCK_NONBLOCK|SOCK_CLOEXEC) gives a socket with
# O_NONBLOCK and FD_CLOEXEC (fcntl), accept4(0) neither, blocking accept works.
# Then a server run with --accept nonblock --accept4-flags nonblock,cloexec
# serves 3 checksummed connections.
source "$ST_DIR/lib.sh"
P=$ST_PORT

st_probe_pairs accept || exit 1
case $SMCR_ROLE in
b) st_serve srv server --family "$ST_FAMILY" --port $((P + 5)) --conns 3 --mode sink --accept nonblock \
	--accept4-flags nonblock,cloexec --timeout 60s ;;
a) st_await srv || exit 1
   for i in 1 2 3; do
	st_smctest client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP" --port $((P + 5)) --mode sink --bytes 256K \
		--timeout 60s || exit 1
   done ;;
esac
