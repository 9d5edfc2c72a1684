#!/bin/bash
# DESC: nonblocking connect with poll and with epoll (EINPROGRESS, SO_ERROR), nonblocking I/O
# SMOKE: yes
# PEER: yes
# TIMEOUT: 120
#
# Asserts: a nonblocking AF_SMC connect returns EINPROGRESS (or succeeds at
# once), poll()/epoll report POLLOUT, SO_ERROR is 0, and a poll()-driven
# nonblocking duplex transfer is byte-exact on both sides. The server accepts
# nonblocking (poll + accept4) and uses poll-driven I/O too.
source "$ST_DIR/lib.sh"
P=$ST_PORT

case $SMCR_ROLE in
b) st_serve srv server --family "$ST_FAMILY" --port "$P" --conns 2 --mode duplex --bytes "$(st_size 4M 1M)" --io poll \
	--accept nonblock "${ST_EXPECT_SMC_PEER[@]}" --timeout 100s ;;
a) st_await srv || exit 1
   st_smctest client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes "$(st_size 4M 1M)" \
	--connect poll --io poll "${ST_EXPECT_SMC_PEER[@]}" --timeout 100s || exit 1
   st_smctest client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes "$(st_size 4M 1M)" \
	--connect epoll --io poll "${ST_EXPECT_SMC_PEER[@]}" --timeout 100s ;;
esac
