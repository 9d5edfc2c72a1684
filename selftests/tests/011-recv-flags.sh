#!/bin/bash
# DESC: MSG_PEEK, MSG_WAITALL, MSG_DONTWAIT
# SMOKE: no
# PEER: yes
# TIMEOUT: 90
#
# Asserts: MSG_PEEK returns data without consuming it (repeat peek and the
# following read return the same bytes); MSG_WAITALL returns the full 64 KiB
# although the peer writes 4 KiB pieces with delays, and a short count only at
# EOF; MSG_DONTWAIT (and O_NONBLOCK) on an empty socket fail with EAGAIN.
source "$ST_DIR/lib.sh"
P=$ST_PORT

st_probe_pairs peek waitall dontwait
