#!/bin/bash
# DESC: socket options behave as on TCP (TCP_NODELAY, SO_RCVBUF, SO_KEEPALIVE, TCP_KEEPIDLE, SO_LINGER, ...)
# SMOKE: no
# PEER: no
# TIMEOUT: 60
#
# Asserts: for TCP_NODELAY, TCP_KEEPIDLE/INTVL/CNT, TCP_CORK, SO_KEEPALIVE,
# SO_RCVBUF, SO_SNDBUF, SO_LINGER and SO_REUSEADDR an AF_SMC socket (IPv4 and
# IPv6) reports the same defaults, setsockopt results and read-back values as
# an AF_INET/AF_INET6 TCP socket doing the same. Runs locally on both VMs.
source "$ST_DIR/lib.sh"
P=$ST_PORT

st_smctest probe sockopts --family "$ST_FAMILY" || exit 1
st_smctest probe sockopts --family "$ST_FAMILY" --ipv6
