#!/bin/bash
# DESC: connect to a closed port: ECONNREFUSED (blocking), EINPROGRESS + POLLERR/SO_ERROR (nonblocking)
# SMOKE: no
# PEER: yes
# TIMEOUT: 60
#
# Asserts: connecting an AF_SMC socket to a port nobody listens on (on the peer
# VM and on loopback) fails with ECONNREFUSED when blocking; nonblocking it
# returns EINPROGRESS, then poll gives POLLOUT|POLLERR (or POLLHUP), epoll
# EPOLLERR/EPOLLHUP, and SO_ERROR is ECONNREFUSED. Role b listens on nothing.
source "$ST_DIR/lib.sh"
P=$ST_PORT

case $SMCR_ROLE in
b) st_log "nothing listens on port $((P + 7))" ;;
a) st_smctest probe refused --role client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP" --port $((P + 7)) \
	--timeout 40s || exit 1
   st_smctest probe refused --role client --family "$ST_FAMILY" --addr 127.0.0.1 --port $((P + 8)) --timeout 40s ;;
esac
