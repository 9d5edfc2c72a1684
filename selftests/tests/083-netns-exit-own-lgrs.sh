#!/bin/bash
# DESC: a namespace's exit waits for its own link groups only: another namespace's ADD LINK flow waiting on a silent peer does not hold up `ip netns del`
# SMOKE: no
# PEER: yes
# TIMEOUT: 120
#
# Role b runs an smcr server (test_clc_without_option=1,
# smcr_max_links_per_lgr 2, llc_timeout_ms 10000) in the initial
# namespace; role a's link-peer (script add-link-silent) makes a link
# group with it and never answers b's ADD LINK request, so b's ADD LINK
# flow waits 10 s in a worker of smcr's shared link group workqueue.
# Meanwhile b deletes two namespaces of its own, each holding one end of
# a veth pair (no SMC in them), one after the other, and times until the
# second one's other end is gone (a namespace's cleanup takes its devices
# first, then runs the exit handlers, smcr's among them; the next
# namespace's cleanup comes after). Asserts: less than 4 s. Before,
# smcr's exit handler of every namespace flushed the shared workqueue:
# each `ip netns del` on the host waited for the flow (and every other
# link group's teardown).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
B=$(st_size 256K 64K)
LLC_TMO=10000
case $SMCR_ROLE in
b) st_no_lgrs 60 || st_fail "link groups of earlier tests did not end"
   st_param test_clc_without_option Y || exit 1
   st_param smcr_max_links_per_lgr 2 || exit 1
   st_param llc_timeout_ms $LLC_TMO || exit 1
   st_link_peer add-link-silent "$ST_PORT" "$B" --expect-mode smcr &
   spid=$!
   st_cleanup "kill $spid 2>/dev/null; ip netns del smcr-st083-1 2>/dev/null; ip netns del smcr-st083-2 2>/dev/null"
   rc=0
   # b's ADD LINK flow waits on the silent peer: its new link is listed
   flow=0
   for ((i = 0; i < 300; i++)); do
	[[ $("$SMCR_TOOLS/bin/smcr" -j link show | jq '[.[] | select(.link_id == 2)] | length') == 1 ]] &&
		flow=1 && break
	vm_nap 0.1
   done
   "$SMCR_TOOLS/bin/smcr" link show
   ((flow)) || { echo "b's ADD LINK flow never showed its new link: nothing tested"; rc=1; }
   # A namespace's cleanup unregisters its devices first (the veth pair
   # goes), then runs the subsystems' exit handlers, smcr's among them,
   # and the next namespace's cleanup waits for it: delete one, then time
   # a second one.
   for n in 1 2; do
	ip netns del "smcr-st083-$n" 2>/dev/null
	ip netns add "smcr-st083-$n" &&
		ip link add "smcr-st083-$n" type veth peer name peer netns "smcr-st083-$n" ||
		{ echo "cannot make namespace $n and its veth pair"; exit 1; }
   done
   for n in 1 2; do
	t0=$(date +%s%N)
	ip netns del "smcr-st083-$n"
	for ((i = 0; i < 300; i++)); do
		[[ -e /sys/class/net/smcr-st083-$n ]] || break
		vm_nap 0.1
	done
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "namespace $n: its devices went after $ms ms"
	if [[ -e /sys/class/net/smcr-st083-$n ]]; then
		ip link del "smcr-st083-$n"
		echo "namespace $n's veth end stayed 30 s"
		rc=1
	fi
   done
   ((ms < 4000)) || { echo "a namespace's exit waited for another namespace's link group"; rc=1; }
   wait "$spid" || rc=1
   st_no_lgrs 30 || rc=1
   exit $rc ;;
a) st_await add-link-silent || exit 1
   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$ST_PORT" --script add-link-silent \
	--bytes "$B" --llc-timeout "${LLC_TMO}ms" --timeout 90s ;;
esac
