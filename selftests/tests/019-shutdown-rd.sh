#!/bin/bash
# DESC: shutdown(SHUT_RD): recv returns 0 at once, sending continues
# SMOKE: no
# PEER: yes
# TIMEOUT: 60
#
# Asserts: after shutdown(SHUT_RD) an AF_SMC socket polls readable and recv
# returns 0 immediately; the socket can still send 64 KiB, which the peer
# receives pattern-exact before EOF.
source "$ST_DIR/lib.sh"
P=$ST_PORT

st_probe_pairs shutdown-rd
