#!/bin/bash
# DESC: half-close in each direction (shutdown SHUT_WR), other direction keeps flowing
# SMOKE: no
# PEER: yes
# TIMEOUT: 90
#
# Asserts: after the client's shutdown(SHUT_WR) the server reads EOF, a further
# send on the client fails with EPIPE, and the server's 256 KiB reply still
# arrives complete; on a second connection the server half-closes first and the
# client's data still arrives complete. All data pattern-verified.
source "$ST_DIR/lib.sh"
P=$ST_PORT

st_probe_pairs half-close
