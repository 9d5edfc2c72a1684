#!/bin/bash
# DESC: max_links_per_netns bounds the links of a namespace: a first contact beyond it is declined (MEM) on either side, and works once raised
# SMOKE: no
# PEER: yes
# TIMEOUT: 150
#
# A namespace may hold max_links_per_netns links on all devices together, so
# that its link groups (and the peers it serves) cannot take every link a
# device has room for from other namespaces (which shared device CQs once
# capped at 64 links for all of them). Soft-RoCE only works in the initial
# namespace, so the quota is tested there, with the VMs' two paths (eth0,
# eth1: two peer GIDs, so two link groups). Asserts, one connection each:
#   1. b's quota 1: a connection over eth0 is SMC-R (link group 1);
#   2. over eth1, b's second link is refused: b declines with MEM and falls
#      back (reason MEM), a falls back with PEERDECL / peer diagnosis MEM;
#   3. b's quota 64, a's 1: over eth1 a's second link is refused: a
#      declines with MEM (reason MEM), b falls back with PEERDECL / MEM;
#   4. a's quota 2: over eth1 the connection is SMC-R, and each VM has two
#      link groups;
# and the refusing VM logs "max_links_per_netns" for steps 2 and 3 (a line
# logged during this test).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
P=$ST_PORT

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
# and their links are torn down: until then they count against the quota
st_await_dev_links 0 60 || st_fail "links of earlier tests were not torn down"
st_param lgr_linger_ms 3000 || exit 1
st_param max_links_per_netns 64 || exit 1
[[ $SMCR_ROLE == b ]] && { echo 1 >/sys/module/smcr/parameters/max_links_per_netns || exit 1; }
# only what the kernel logs from here counts (st_dmesg_mark)
st_dmesg_mark start || exit 1
vm_sync "$ST_KEY-params" || exit 1

quota_logged() {
	local n
	n=$(st_dmesg_count "max_links_per_netns: no new link" start) || st_fail "$1: cannot read the kernel log"
	((n > 0)) || st_fail "$1: no 'max_links_per_netns' in the log"
}

# connect STEP PORT ADDR EXPECT...: role a's client of step STEP (no hold)
connect() {
	local step=$1 port=$2 addr=$3
	shift 3
	echo "--- step $step"
	st_smctest client --family smc --addr "$addr" --port "$port" --mode sink --bytes 64K "$@" \
		--timeout 60s || st_fail "step $step"
}

hold=$ST_TMP/hold
case $SMCR_ROLE in
b) st_serve_bg s1 server --family smc --port "$P" --mode sink --expect-mode smcr --timeout 120s || exit 1
   st_serve_bg s2 server --family smc --port $((P + 1)) --mode sink --expect-mode fallback \
	--expect-reason MEM --timeout 120s || exit 1
   st_serve_bg s3 server --family smc --port $((P + 2)) --mode sink --expect-mode fallback \
	--expect-reason PEERDECL --expect-peer-diag MEM --timeout 120s || exit 1
   st_serve_bg s4 server --family smc --port $((P + 3)) --mode sink --expect-mode smcr --timeout 120s || exit 1
   vm_sync "$ST_KEY-step2" || exit 1
   quota_logged "step 2 (b's quota)"
   echo 64 >/sys/module/smcr/parameters/max_links_per_netns || exit 1
   vm_sync "$ST_KEY-step3" || exit 1
   vm_sync "$ST_KEY-held" || exit 1
   n=$(st_lgr_count)
   vm_sync "$ST_KEY-counted" || exit 1
   st_wait_all || exit 1 ;;
a) st_await s1 && st_await s2 && st_await s3 && st_await s4 || exit 1
   # steps 1 and 4 hold their connections (and so the link groups) until
   # both VMs counted them
   touch "$hold"
   echo "--- step 1"
   "$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes 64K \
	--hold 120s --hold-file "$hold" --expect-mode smcr --timeout 150s &
   pid1=$!
   st_await_lgr_count 1 60 || st_fail "step 1: no link group"
   connect 2 $((P + 1)) "$SMCR_PEER_IP2" --expect-mode fallback --expect-reason PEERDECL --expect-peer-diag MEM
   vm_sync "$ST_KEY-step2" || exit 1
   echo 1 >/sys/module/smcr/parameters/max_links_per_netns || exit 1
   vm_sync "$ST_KEY-step3" || exit 1
   connect 3 $((P + 2)) "$SMCR_PEER_IP2" --expect-mode fallback --expect-reason MEM
   quota_logged "step 3 (a's quota)"
   echo 2 >/sys/module/smcr/parameters/max_links_per_netns || exit 1
   echo "--- step 4"
   "$SMCTEST" client --family smc --addr "$SMCR_PEER_IP2" --port $((P + 3)) --mode sink --bytes 64K \
	--hold 120s --hold-file "$hold" --expect-mode smcr --timeout 150s &
   pid4=$!
   st_await_lgr_count 2 60
   vm_sync "$ST_KEY-held" || exit 1
   n=$(st_lgr_count)
   vm_sync "$ST_KEY-counted" || exit 1
   rm -f "$hold"
   wait "$pid1" || st_fail "step 1's connection failed"
   wait "$pid4" || st_fail "step 4's connection failed" ;;
esac
echo "link groups while steps 1 and 4 held their connections: $n"
((n == 2)) || st_fail "expected two link groups (eth0 and eth1), found $n"
