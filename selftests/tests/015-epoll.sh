#!/bin/bash
# DESC: edge-triggered epoll on data, peer half-close and listener
# SMOKE: no
# PEER: yes
# TIMEOUT: 90
#
# Asserts: an edge-triggered epoll on a listening AF_SMC socket reports EPOLLIN
# for a pending connection (nothing before); on a connected socket nothing is
# reported while idle, EPOLLIN when data arrives (no repeat after draining),
# and EPOLLRDHUP|EPOLLIN when the peer shuts down its write side, followed by
# EOF.
source "$ST_DIR/lib.sh"
P=$ST_PORT

st_probe_pairs epoll
