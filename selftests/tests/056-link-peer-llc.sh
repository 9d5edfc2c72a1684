#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): LLC lies are dropped or refused, the link lives, data stays byte-exact
# SMOKE: no
# PEER: yes
# TIMEOUT: 300
#
# Role b runs an smcr server with test_clc_without_option=1; role a's
# link-peer plays one script per link group (fresh peer ID each). Asserts,
# per script, on both sides (link-peer checks smcr's every message and the
# data it writes; the server checks what it read):
#  - llc-unknown (unknown and unsupported types, a wrong length),
#    llc-unsolicited (replies nobody asked for), llc-wrong-sender (a
#    client's CONFIRM LINK request): dropped, smcr sends no LLC message;
#  - llc-add-link (random ADD LINK bodies) and llc-add-link-hint (a
#    well-formed one): a client's ADD LINK is a hint that gets no reply
#    (3.5.5.1.2) - dropped as malformed or ignored, smcr sends no LLC
#    message (before the fix smcr rejected the hint with an ADD LINK
#    reply);
#  - llc-delete-link-unknown (DELETE LINK of link 7): ignored, no reply
#    (before the fix smcr ended the link group for it);
#  - llc-delete-rkey (8 unknown rkeys): one reply, negative (Z) with
#    error mask 0xff, count and rkeys echoed (063 has the rkey exchange
#    itself);
#  - llc-test-link-flood (1000 TEST LINK): answered while send buffers are
#    free, nothing queues;
# and after each the duplex exchange is byte-exact and the link alive
# (TEST LINK answered); at the end every link group is gone (linger 3 s).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
B=$(st_size 256K 64K)
scripts=(llc-unknown llc-unsolicited llc-wrong-sender llc-add-link llc-add-link-hint llc-delete-link-unknown
	llc-delete-rkey llc-test-link-flood)
if [[ $SMCR_ROLE == b ]]; then
	st_param test_clc_without_option Y || exit 1
	st_param lgr_linger_ms 3000 || exit 1
fi
one() { st_link_peer "$1" "$2" "$B" --expect-mode smcr; }
st_link_peer_each one "${scripts[@]}"
