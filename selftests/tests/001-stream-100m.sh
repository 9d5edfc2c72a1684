#!/bin/bash
# DESC: smc<->smc stream of 100 MiB, checksummed, fallback with a reason on both sides
# SMOKE: yes
# PEER: yes
# TIMEOUT: 240
#
# Asserts: an AF_SMC client sends 100 MiB (4 MiB on the debug kernel;
# deterministic pattern) to an AF_SMC
# sink server; the server's FNV-1a checksum and byte count, reported back over
# the connection, equal the client's. Both sockets are in fallback mode with a
# reason != 0 (sock_diag).
source "$ST_DIR/lib.sh"
P=$ST_PORT

case $SMCR_ROLE in
b) st_serve srv server --family "$ST_FAMILY" --port "$P" --mode sink "${ST_EXPECT_SMC_PEER[@]}" --timeout 200s ;;
a) st_await srv && st_smctest client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP" --port "$P" --mode sink \
	--bytes "$(st_size 100M 4M)" --msgsize 128K "${ST_EXPECT_SMC_PEER[@]}" --timeout 200s ;;
esac
