#!/bin/bash
# DESC: 200 concurrent connections, each checksummed
# SMOKE: yes
# PEER: yes
# TIMEOUT: 180
#
# Asserts: after one connection, 200 AF_SMC client connections opened concurrently (one thread each)
# to a concurrent AF_SMC sink server all succeed; each connection's 64 KiB is
# checksummed by the server and matches; every socket on both sides is in
# mode SMC-R, all in one link group. The server's handshake limit is raised to 256 so that none
# of the 200 is turned into TCP by it (025 tests the limit). One connection
# first makes the link group's first contact, so the 200 are subsequent
# contacts: 200 handshakes waiting for a first contact outlast the server's
# clc_timeout_ms on the debug kernel (about 17 were reset), and whether the
# previous test's link group was still lingering decided that. The 200
# handshakes queue behind each other on both sides; on a busy TCG host the
# last ones took longer than the default clc_timeout_ms (6 s: ETIMEDOUT or
# ECONNRESET at connect), so both VMs wait up to 30 s here: this test is
# about 200 connections at once, not about the handshake's timeout.
source "$ST_DIR/lib.sh"
P=$ST_PORT
if [[ $ST_FAMILY == smc ]]; then
	[[ $SMCR_ROLE == b ]] && { st_param hs_limit 256 || exit 1; }
	st_param clc_timeout_ms 30000 || exit 1
fi

case $SMCR_ROLE in
b) st_serve srv server --family "$ST_FAMILY" --port "$P" --conns 201 --concurrent --mode sink \
	"${ST_EXPECT_SMC_PEER[@]}" --timeout 160s ;;
a) st_await srv && st_smctest client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP" --port "$P" --conns 1 \
	--mode sink --bytes 4K "${ST_EXPECT_SMC_PEER[@]}" --timeout 60s &&
   st_smctest client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP" --port "$P" --conns 200 \
	--mode sink --bytes "$(st_size 64K 4K)" "${ST_EXPECT_SMC_PEER[@]}" --timeout 150s ;;
esac
