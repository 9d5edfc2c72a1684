#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): every CDC flag where it is a lie or a repetition - urgent on an empty ring, B+R storm, D/C/A repeated, data after D and C; TCP reset under SMC-R
# SMOKE: no
# PEER: yes
# TIMEOUT: 300
#
# Role b runs an smcr server with test_clc_without_option=1; role a's
# link-peer plays one script per link group (fresh peer ID each). Both
# sides assert: link-peer checks every CDC message smcr sends against the
# rings and the pattern of what smcr writes; the smcr application checks
# what it read (duplex, --expect-mode smcr) or the error it must get.
# Per script (RFC 7609 A.4, 4.7, 4.8):
#  - cdc-urg-empty (P alone, then P+U with nothing written): no mark;
#    smcr answers P+U at once with a consumer update that does not move
#    its cursor; the data after it byte-exact both ways, link alive;
#  - cdc-blocked-storm (1000 x B+R, no data): 1..1000 consumer updates
#    come back (coalesced), data byte-exact, link alive;
#  - cdc-done-repeated (D three times, C twice): one end of stream for
#    the application, smcr's C once and nothing after it, link alive;
#  - cdc-data-after-done (100 bytes written after D, once the
#    application read --bytes and end of stream): taken (Linux writes
#    what a closed window held back after its D), so they are unread at
#    close() and smcr closes with A, not C; link alive;
#  - cdc-data-after-close (D, then 100 bytes and C with a producer
#    cursor past them right behind it): ignored - the application reads
#    --bytes and end of stream, its blocked send fails with EPIPE, smcr
#    closes with C and sends nothing more; link alive;
#  - cdc-abort-repeated (A three times mid-transfer): the application
#    fails with ECONNRESET, smcr answers with A (4.8.2, 2B) once and
#    nothing more, and its TCP connection ends with a reset; link alive;
#  - tcp-reset (our TCP connection reset mid-transfer, the QP kept, no
#    A from us): smcr aborts the SMC-R connection - A at once, nothing
#    after it - and the application fails with ECONNRESET; link alive;
#  - abort-unanswered (as tcp-reset, but smcr's A never answered): A and
#    nothing after it; b's close timer (close_timeout_ms 3000) frees the
#    element in PeerAbortWait (4.8.2, 1B): b's link groups count no
#    connection within 20 s;
# and at the end every one of those link groups is gone on b (linger 3 s).
#
# Before the fixes that came with it, cdc-data-after-close failed
# (smc_cdc_rx() took a producer cursor after the peer's C: the bytes
# counted as unread and close() sent A) and cdc-abort-repeated failed (the
# peer's A was answered with C); before smcr reset TCP on an SMC-R abort
# and aborted on a TCP reset, cdc-abort-repeated saw a FIN and tcp-reset
# a C. The failover validation message (F) has its own test (088).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
# more than link-peer's 64 KiB RMBE: smcr's application blocks in send()
# while the data-after scripts hold its data unread
B=$(st_size 256K 128K)
scripts=(cdc-urg-empty cdc-blocked-storm cdc-done-repeated cdc-data-after-done cdc-data-after-close
	cdc-abort-repeated tcp-reset abort-unanswered)
if [[ $SMCR_ROLE == b ]]; then
	st_param test_clc_without_option Y || exit 1
	st_param lgr_linger_ms 3000 || exit 1
	st_param close_timeout_ms 3000 || exit 1
fi
one() {
	local expect=()
	case $1 in
	cdc-data-after-close) expect=(--expect-data-error EPIPE) ;;
	cdc-abort-repeated | tcp-reset | abort-unanswered) expect=(--expect-data-error ECONNRESET) ;;
	esac
	st_link_peer "$1" "$2" "$B" --expect-mode smcr "${expect[@]}"
}
st_link_peer_each one "${scripts[@]}"
# abort-unanswered left b's connection in PeerAbortWait: its close timer
# (3 s here) must free the element without the peer's A (4.8.2, 1B)
if [[ $SMCR_ROLE == b ]]; then
	st_await_lgr_conns 0 20 || st_fail "b: a connection still holds its RMBE (PeerAbortWait never timed out)"
fi
