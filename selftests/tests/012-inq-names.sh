#!/bin/bash
# DESC: SIOCINQ/SIOCOUTQ, getsockname/getpeername
# SMOKE: no
# PEER: yes
# TIMEOUT: 90
#
# Asserts: SIOCINQ reports the unread byte count (5000 -> 4000 -> 0 as data is
# read); SIOCOUTQ is 0 when idle, > 0 with unacknowledged data and returns to 0
# once the peer reads. getsockname/getpeername on both ends match the other
# end's view, accept()'s address equals getpeername, the listener reports its
# port.
source "$ST_DIR/lib.sh"
P=$ST_PORT

st_probe_pairs inq names
