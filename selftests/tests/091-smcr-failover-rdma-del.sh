#!/bin/bash
# DESC: busy failover by device removal: 16 duplex connections over a two-link group, `rdma link del rxe1` on the client at about a third of the data: every connection completes byte-exact over SMC-R in the same link group, now of one link
# SMOKE: no
# PEER: yes
# TIMEOUT: 600
#
# RFC 7609 2.3, 4.6. As 090 (st_failover_busy), with the other side and
# the other detection: a (the client) removes its RoCE device rxe1 once it
# has sent about a third of its bytes. smcr's IB client learns it from
# the device's removal (not a port event or a failed work request):
# link 2's connections on a move to link 1 before the device goes, and b
# learns of the loss from its failed work requests or a's DELETE LINK.
# Asserts as 090: every connection completes on both sides with equal
# checksums, and each side lists the same link group, now SINGLE with
# link 1 alone. rxe1 is added again at exit.
source "$ST_DIR/lib.sh"
st_failover_busy_test a rdma-del
