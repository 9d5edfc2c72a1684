#!/bin/bash
# DESC: SMC-R v2 between smcr peers with smcr_max_links_per_lgr 2: the v2 ADD LINK (RKey pairs in one long message, no continuations) adds a second link; SYM, version 2.1 on both sides, the connections spread over both links, SMC-R, byte-exact
# SMOKE: no
# PEER: yes
# TIMEOUT: 240
#
# Both VMs have the user EID SMCR-V2-LINKS, so the link group is version 2
# (hs_v2.c), and allow two links. After the first contact the server adds
# link 2 on rxe1 with a version 2 ADD LINK of more than 44 bytes, which
# carries the RKey pairs of the first connection's RMB; the client's reply
# carries its own (llc_v2_link.c). Asserts, on both sides:
#   - the link group is version 2.1, and within 30 s (60 s debug) SYM with two ACTIVE
#     links on distinct RoCE devices (st_two_links);
#   - 40 concurrent duplex connections (10 on the debug kernel) made then
#     are SMC-R and byte-exact, and each link carries at least a quarter.
# Before the version 2 ADD LINK the link group kept one link (version 2
# negotiated one link) and the second-link wait failed.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 2 || exit 1
# the version check after the last connection ended
st_param lgr_linger_ms 10000 || exit 1
[[ $SMCR_ROLE == b ]] && { st_param hs_limit 256 || exit 1; }
S=$SMCR_TOOLS/bin/smcr
N=$(st_size 40 10)
B=$(st_size 256K 64K)
trap '"$S" ueid flush >/dev/null' EXIT

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
{ "$S" ueid flush >/dev/null && "$S" ueid add SMCR-V2-LINKS >/dev/null; } || st_fail "ueid add"
vm_sync "$ST_KEY-clean" || exit 1
rc=0
st_two_links "$N" "$B" || rc=1
got=$(st_lgr_versions | sort -u | tr '\n' ' ')
[[ ${got% } == 2.1 ]] || { echo "link group versions '$got', want '2.1'"; rc=1; }
exit $rc
