#!/bin/bash
# DESC: smcr to smcr, SMC-R v1 (test_clc_version 1), with smcr_max_links_per_lgr 2: the server adds a second link on rxe1/eth1 after the first contact; the link group is symmetric with 2 ACTIVE links on both sides, and the connections made after it spread over both links, SMC-R, byte-exact
# SMOKE: yes
# PEER: yes
# TIMEOUT: 240
#
# Version 1 (079 is the same with version 2, whose ADD LINK carries the
# RKey pairs itself). Both VMs allow two links per link group. a's first connection to b is the
# first contact (link 1 on rxe0/eth0); the server then adds link 2 on its
# other RoCE port (rxe1/eth1, 198.18.0.0/15), the client answering from its
# own rxe1 (RFC 7609 3.5.1.6: ADD LINK, ADD LINK CONTINUATION with the
# first RMB's rkey on the new link, CONFIRM LINK on the new link). Asserts:
#   - within 30 s (60 s debug) both sides list one link group of type SYM with two
#     ACTIVE links on distinct RoCE devices, the client's link numbers
#     those of the server;
#   - 100 concurrent connections (20 on the debug kernel) made then
#     (subsequent contacts: new RMBs on both links, CONFIRM RKEY with the
#     other link's RToken) are all
#     SMC-R and byte-exact, and while they are open each link carries at
#     least a quarter of them on both sides (the server gives each new
#     connection the link with the fewest).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 2 || exit 1
st_param test_clc_version 1 || exit 1
# all N handshakes at once, none turned to TCP by the listener's limit
[[ $SMCR_ROLE == b ]] && { st_param hs_limit 256 || exit 1; }
# 100 on stock kernels; the debug kernel serializes the CONFIRM RKEY exchanges
# of new RMBs too slowly for 100 within the CLC timeout
N=$(st_size 100 20)
B=$(st_size 256K 64K)

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
st_two_links "$N" "$B"
