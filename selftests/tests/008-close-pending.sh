#!/bin/bash
# DESC: close with pending data: peer receives everything, then EOF
# SMOKE: no
# PEER: yes
# TIMEOUT: 90
#
# Asserts: the server writes 4 MiB and close()s immediately while most of it
# is still queued; the client (reading only after 1 s) receives every byte
# (pattern-verified) and then EOF.
source "$ST_DIR/lib.sh"
P=$ST_PORT

st_probe_pairs close-pending
