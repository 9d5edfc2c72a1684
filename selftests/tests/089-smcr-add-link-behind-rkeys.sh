#!/bin/bash
# DESC: the server's ADD LINK that reaches a client with several RKey exchanges of its handshakes queued is answered after the one in progress, not after all of them: the link group gets its second link at once
# SMOKE: yes
# DEBUG: no
# PEER: yes
# TIMEOUT: 120
#
# RFC 7609 3.5.5.3 (one flow at a time), 3.5.5.2.1 (a new RMB's RTokens
# before the CLC message that names it). Both VMs allow two links per
# link group. b (the server) answers each request of the peer 1.5 s late
# (test_llc_work_delay_ms), holds its ADD LINK flow 1 s before its ADD
# LINK (test_add_link_hold_ms), and waits 3 s for the client's answer
# (llc_timeout_ms); its sockets take 16 KiB elements, one RMB for all.
# After a's first contact, four subsequent contacts at once whose client
# sockets need an RMB of a size class each that a's link group has none
# of (16K, 32K, 64K, 200K: net.smc.rmem gave the first contact 128 KiB)
# queue four CONFIRM RKEY exchanges on a's flow mutex, 1.5 s each. b's
# ADD LINK arrives during the first: a joins the flow once that one is
# done (smc_llc_flow_join()); the handshakes' exchanges go on after it.
# Until 2026-12-04 a waited behind all four, past b's 3 s - as past Linux's
# 2 s, which failed a handshake with ERR_REGBUF (interop 009): b logged
# "no second link" and stayed SINGLE. Asserts: every connection SMC-R
# and byte-exact on both sides, b's ADD LINK flow did not fail, and one
# link group of type SYM with two ACTIVE links on both sides once the
# connections are done. clc_timeout_ms is raised on both sides: the last
# handshake waits for its exchange about 6 s.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 2 || exit 1
st_param clc_timeout_ms 30000 || exit 1
if [[ $SMCR_ROLE == b ]]; then
	st_param test_llc_work_delay_ms 1500 || exit 1
	st_param test_add_link_hold_ms 1000 || exit 1
	st_param llc_timeout_ms 3000 || exit 1
fi
P=$ST_PORT
B=$(st_size 256K 64K)
RCV=(16K 32K 64K 200K)

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
mark=$(dmesg | wc -l)
rc=0
case $SMCR_ROLE in
b) st_serve_bg s server --family smc --port "$P" --conns 5 --concurrent --bytes "$B" \
	--rcvbuf 16K --sndbuf 16K --expect-mode smcr --timeout 60s || exit 1
   st_wait_all || rc=1
   if dmesg | tail -n +$((mark + 1)) | grep 'no second link'; then
	echo "b's ADD LINK flow failed"
	rc=1
   fi ;;
a) st_await s || exit 1
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --conns 1 --bytes "$B" \
	--expect-mode smcr --timeout 30s || rc=1
   pids=()
   for r in "${RCV[@]}"; do
	st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --conns 1 --bytes "$B" \
		--rcvbuf "$r" --expect-mode smcr --timeout 40s &
	pids+=($!)
   done
   for p in "${pids[@]}"; do
	wait "$p" || rc=1
   done ;;
esac
got=$(st_await_two_links 10) || rc=1
echo "link group: $got"
[[ $got == "SYM "* ]] || rc=1
exit $rc
