#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): the peer's CONFIRM RKEY and DELETE RKEY are validated and answered exactly (RFC 7609 3.5.5.2, A.3.5-A.3.7)
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Role b runs an smcr server with test_clc_without_option=1; role a's
# link-peer plays one script per link group of one link (fresh peer ID
# each), one request at a time, and checks each reply byte for byte
# (type, R, Z, C, the echoed fields). Asserts:
#  - llc-confirm-rkey: CONFIRM RKEY with a new RToken (NumTkns 0) and its
#    identical repeat (Linux's smc.ko repeats it on every contact) are
#    echoed positively; the same rkey with another address, NumTkns 1
#    naming link 7 (not in the link group), NumTkns 3 (beyond links - 1 =
#    0) are echoed with Z and without C; a CONFIRM RKEY CONTINUATION
#    nobody announced is dropped (no reply in 2 s; smcr takes no CONFIRM
#    RKEY that announces one); DELETE RKEY of the confirmed rkey is
#    positive with error mask 0, again negative with 0x80 (gone), and of
#    the refused RTokens' rkeys negative with 0xc0 (never stored); smcr
#    sends no other LLC message;
#  - llc-delete-rkey-in-use: DELETE RKEY of [an unknown rkey, link-peer's
#    own RMB's, which b's open connection writes into] gets Z and error
#    mask 0x80: only the unknown one is refused (Linux deletes its RMB as
#    soon as its own connection ended, which may be before ours);
# and after each the duplex exchange is byte-exact on both sides (b's
# server checks what it read; after the DELETE RKEY smcr still writes
# into link-peer's RMB), the link alive (TEST LINK answered), and
# at the end every link group is gone (linger 3 s). (Before, smcr
# answered every CONFIRM RKEY and DELETE RKEY negatively.)
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
B=$(st_size 256K 64K)
if [[ $SMCR_ROLE == b ]]; then
	st_param test_clc_without_option Y || exit 1
	st_param lgr_linger_ms 3000 || exit 1
fi
one() { st_link_peer "$1" "$2" "$B" --expect-mode smcr; }
st_link_peer_each one llc-confirm-rkey llc-delete-rkey-in-use
