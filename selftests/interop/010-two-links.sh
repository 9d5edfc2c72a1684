#!/bin/bash
# DESC: smcr <-> Linux smc.ko: two links per link group (v2 ADD LINK with RKey pairs both ways), SYM, connections spread over both links, SMC-R on both sides
# SMOKE: no
# DEBUG: linux-b
# PEER: yes
# TIMEOUT: 240
#
# Both sides allow two links (Linux's net.smc.smcr_max_links_per_lgr, smcr's
# smcr_max_links_per_lgr). After the first contact the server adds link 2
# with a version 2 ADD LINK that carries its RKey pairs, the client answers
# with its own (no CONTINUATIONs in version 2). Asserts on both sides, each
# from its own netlink and sock_diag (st_two_links): SYM with two ACTIVE
# links on distinct RoCE devices within 30 s (60 s debug), then 40 concurrent duplex
# connections SMC-R and byte-exact, each link carrying at least a quarter.
#
# Linux takes a second RoCE port for a version 2 link group only if its
# interface has an address in the subnet of the connection's own address
# (192.0.2.0/24 here; rxe1's eth1 is on 198.18.0.0/15), else it offers or
# answers with a second link on the same port, which rxe cannot route. So
# Linux's eth1 gets 192.0.2.1x/24 as well, without a prefix route (nothing
# is routed differently); the link it adds still runs on 198.18.0.0/15.
source "$ST_DIR/lib.sh"
st_need_rxe
N=$(st_size 40 20)
B=$(st_size 256K 64K)
st_interop_two_links || st_fail "cannot allow two links"
st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
st_two_links "$N" "$B"
