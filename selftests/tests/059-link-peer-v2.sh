#!/bin/bash
# DESC: hostile SMC-R peer in version 2 (smctest link-peer --clc-version 2): the LLC lies of 056/063 in version 2 framing, lies only that framing can tell, and a short version 2 fuzz
# SMOKE: no
# PEER: yes
# TIMEOUT: 400
#
# Role b runs an smcr server with test_clc_without_option=1 and the user
# EID SMCR-LINK-PEER; role a's link-peer proposes SMC-R version 2 only
# (CLC version 2, release 1, one link) and plays one script per link group.
# Asserts, per script, on both sides as 056 does (link-peer checks smcr's
# every message - in version 2 framing, lengths adding up - and the data
# it writes; the server checks what it read):
#  - honest: the version 2 link group carries the duplex exchange;
#  - 056's LLC scripts and 063's rkey scripts, each message wrapped in
#    version 2 framing: the same outcome as in version 1;
#  - v2-llc-v1-framing: version 1 types (TEST LINK, CONFIRM LINK, ADD
#    LINK, CONFIRM RKEY, DELETE RKEY, DELETE LINK of all) are dropped, and
#    the link group lives through the DELETE LINK;
#  - v2-long-messages: long forms are read as their first 44 bytes (TEST
#    LINK of 8 KiB and one whose length field says 0 answered, a 300-byte
#    CONFIRM RKEY echoed positively), DELETE RKEY naming 9, 100, 255
#    rkeys dropped without a reply;
#  - v2-req-add-link: REQ ADD LINK answered with its reply (one link is the
#    most), each of its lies (no GID, 255 GIDs in 44 bytes, the reply
#    flag) dropped, a flood of 300 answered with the last reply within 3 s
#    of the last request;
#  - v2-add-link-ext: the client's ADD LINK hints with RKey extensions get
#    no reply, and role b's log names exactly the two malformed ones;
#  - fuzz (2000 messages, 1000 debug; make fuzz: 057 with
#    SMCR_FUZZ_CLC_VERSION=2 at 10^6): smcr's TEST LINK answers all along;
#    the fuzzed connection's own fate is not asserted;
# and after each the link is alive and data byte-exact; at the end every
# link group is gone (linger 3 s), and the debug kernel's checks see no
# report. Cost: about 30 s on stock 6.12, 60 s on the debug kernel.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
S=$SMCR_TOOLS/bin/smcr
B=$(st_size 256K 64K)
N=$(st_size 2000 1000)
scripts=(honest llc-unknown llc-unsolicited llc-wrong-sender llc-add-link llc-add-link-hint llc-delete-link-unknown
	llc-delete-rkey llc-test-link-flood llc-confirm-rkey llc-delete-rkey-in-use v2-llc-v1-framing v2-long-messages
	v2-req-add-link v2-add-link-ext fuzz)
if [[ $SMCR_ROLE == b ]]; then
	st_param test_clc_without_option Y || exit 1
	st_param lgr_linger_ms 3000 || exit 1
	st_cleanup '"$S" ueid del SMCR-LINK-PEER >/dev/null'
	"$S" ueid add SMCR-LINK-PEER >/dev/null || st_fail "ueid add"
fi
ST_LINK_PEER_ARGS=(--clc-version 2)
malformed() { dmesg | grep -c "with a malformed RKey extension"; }
one() {
	local n
	if [[ $1 == v2-add-link-ext && $SMCR_ROLE == b ]]; then
		n=$(malformed)
		st_link_peer "$1" "$2" "$B" --expect-mode smcr || return 1
		n=$(($(malformed) - n))
		((n == 2)) || { echo "v2-add-link-ext: $n ADD LINKs logged as malformed, expected 2"; return 1; }
	elif [[ $1 != fuzz ]]; then
		st_link_peer "$1" "$2" "$B" --expect-mode smcr
	elif [[ $SMCR_ROLE == b ]]; then
		# what the fuzzed connection reads is our lies: its end is not asserted
		st_link_peer "$1" "$2" 64K || true
	else
		ST_LINK_PEER_ARGS+=(--count "$N")
		st_link_peer "$1" "$2" 64K
	fi
}
st_link_peer_each one "${scripts[@]}"
