#!/bin/bash
# DESC: SO_KEEPALIVE on SMC-R: TEST LINK at the application's TCP_KEEPIDLE, TCP keepalive no more often than tcp_keepidle_min_s; an unanswered probe resets the idle connection
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Asserts, with the links' own keepalive out of the way (keepalive_ms
# 600000 on both VMs), llc_timeout_ms=2000 and tcp_keepidle_min_s=30 on a
# (RFC 7609 4.5.3):
#   - control: a plain TCP connection with SO_KEEPALIVE (TCP_KEEPIDLE 2 s)
#     shows TCP's keepalive timer in `ss -o` once the client set its
#     options (it idles until then);
#   - phase 1: an SMC-R connection with SO_KEEPALIVE (TCP_KEEPIDLE 2 s):
#     getsockopt(TCP_KEEPIDLE) reads 2; once the client set its options its
#     clcsock is listed by ss with TCP's keepalive timer (TCP keepalive
#     flows for middleboxes) due in more than 10 s and at most 30 s
#     (raised to tcp_keepidle_min_s, not the application's 2 s, nor TCP's
#     default); then it idles 6 s more while b answers TEST LINK, the data
#     arrives byte-exact, and the link is still ACTIVE afterwards (the
#     link group lingers);
#   - phase 2: b ignores TEST LINK; an SMC-R connection with SO_KEEPALIVE
#     idles until a's link group is gone (at most 30 s): a logged "no reply
#     to TEST LINK" meanwhile (the probe came from SO_KEEPALIVE: the link's
#     own would come after 10 minutes) and the connection's send then
#     fails with ECONNRESET. b's side of it ends by b's own link keepalive
#     (its peer QP is gone).
# One link (smcr_max_links_per_lgr 1 on both VMs), as in 033.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 1 || exit 1
P=$ST_PORT

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
st_param lgr_linger_ms 30000 || exit 1
st_param keepalive_ms 600000 || exit 1
if [[ $SMCR_ROLE == a ]]; then
	st_param llc_timeout_ms 2000 || exit 1
	st_param tcp_keepidle_min_s 30 || exit 1
fi
vm_sync "$ST_KEY-params" || exit 1

# ss_est PORT: `ss -o` of this VM's established TCP connections to PORT
# (kernel sockets included); ka_due: whole seconds until the keepalive
# timer of the first such line on stdin fires
ss_est() { ss -tnoH state established "( dport = :$1 )"; }
ka_due() {
	sed -n 's/.*timer:(keepalive,\([0-9]*min\)\{0,1\}\([0-9]*\).*/\1:\2/p' | head -n1 |
		{ IFS=: read -r m s; m=${m%min}; echo $((${m:-0} * 60 + ${s:-0})); }
}
# await_out FILE TEXT PID: waits until FILE, the output of PID, says TEXT
# (up to 30 s, while PID runs)
await_out() {
	local end=$((SECONDS + 30))
	until [[ -e $1 && $(<"$1") == *"$2"* ]]; do
		if ((SECONDS >= end)) || ! kill -0 "$3" 2>/dev/null; then
			[[ -e $1 && $(<"$1") == *"$2"* ]]
			return
		fi
		vm_nap 0.1
	done
}
# the clients idle until $hold is removed
hold=$ST_TMP/hold

case $SMCR_ROLE in
b) st_serve_bg tcp server --family tcp --port "$P" --mode sink --bytes 4K --timeout 60s || exit 1
   st_serve_bg c1 server --family smc --port $((P + 1)) --mode sink --bytes 4K --expect-mode smcr \
	--timeout 60s || exit 1
   st_wait_all || exit 1
   vm_get "$ST_KEY-phase1" 60 >/dev/null || st_fail "phase 1 failed on a"
   st_param test_ignore_test_link Y || exit 1
   st_serve_bg c2 server --family smc --port $((P + 2)) --mode sink --bytes 4K --timeout 90s || exit 1
   vm_get "$ST_KEY-a-done" 90 >/dev/null || st_fail "phase 2 failed on a"
   # its connection cannot end: a's QP is gone, no C will come. b learns
   # that the link is dead from its own keepalive (600 s here, 30 s by
   # default): make it quick.
   kill "${ST_PIDS[@]}" 2>/dev/null
   st_wait_all
   st_param keepalive_ms 500 || exit 1
   st_await_lgr_count 0 30 || st_fail "b's link group never ended" ;;
a) st_await tcp || exit 1
   touch "$hold"
   "$SMCTEST" client --family tcp --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes 4K \
	--keepalive 2 --hold 30s --hold-file "$hold" --timeout 60s >"$ST_TMP/tcp.out" 2>&1 &
   pid=$!
   await_out "$ST_TMP/tcp.out" "TCP_KEEPIDLE reads" "$pid" ||
	{ cat "$ST_TMP/tcp.out"; st_fail "control: the TCP client never set SO_KEEPALIVE"; }
   s=$(ss_est "$P")
   rm -f "$hold"
   echo "TCP with SO_KEEPALIVE: ${s:-not listed}"
   wait "$pid" || { cat "$ST_TMP/tcp.out"; st_fail "the TCP control connection failed"; }
   [[ $s == *"timer:(keepalive"* ]] ||
	st_fail "control: ss shows no keepalive timer on a TCP connection with SO_KEEPALIVE"

   st_await c1 || exit 1
   touch "$hold"
   "$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode sink --bytes 4K \
	--keepalive 2 --hold 30s --hold-file "$hold" --expect-mode smcr --timeout 60s >"$ST_TMP/c1.out" 2>&1 &
   pid=$!
   await_out "$ST_TMP/c1.out" "TCP_KEEPIDLE reads" "$pid" ||
	{ cat "$ST_TMP/c1.out"; st_fail "phase 1: the SMC-R client never set SO_KEEPALIVE"; }
   s=$(ss_est $((P + 1)))
   # idle on: smcr checks the link every 2 s, b answers
   vm_nap 6
   rm -f "$hold"
   wait "$pid" || { cat "$ST_TMP/c1.out"; st_fail "phase 1: the SMC-R connection failed"; }
   cat "$ST_TMP/c1.out"
   c=0
   [[ -n $s ]] && c=$(wc -l <<<"$s")
   n=$(grep -c "timer:(keepalive" <<<"$s")
   due=$(ka_due <<<"$s")
   links=$(st_links)
   echo "SMC-R with SO_KEEPALIVE: clcsock listed $c time(s), $n TCP keepalive timer(s) due in ${due}s"
   echo "links after 6 s more: $links"
   grep -q "TCP_KEEPIDLE reads 2$" "$ST_TMP/c1.out" || st_fail "getsockopt(TCP_KEEPIDLE) is not the application's 2"
   ((c == 1)) || st_fail "ss does not list the clcsock"
   ((n == 1)) || st_fail "no TCP keepalive timer on the clcsock of an SMC-R connection with SO_KEEPALIVE"
   ((due > 10 && due <= 30)) ||
	st_fail "the clcsock's keepalive is due in ${due}s: not raised to tcp_keepidle_min_s (30 s)"
   [[ $links =~ ^[0-9]+\ client\ 1\ ACTIVE$ ]] || st_fail "answered keepalive lost the link"
   vm_put "$ST_KEY-phase1" 1

   st_await c2 || exit 1
   st_dmesg_mark phase2 || exit 1
   touch "$hold"
   "$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port $((P + 2)) --mode sink --bytes 4K \
	--keepalive 2 --hold 60s --hold-file "$hold" --timeout 90s >"$ST_TMP/c2.out" 2>&1 &
   pid=$!
   # idle until the unanswered probe took the link group down
   kv=$(st_conn_kv $((P + 2)))
   echo "phase 2 connection: ${kv:-no SMC-R connection}"
   gone=1
   [[ -n $kv ]] && st_await_lgr_count 0 30 && gone=0
   rm -f "$hold"
   wait "$pid"
   rc=$?
   cat "$ST_TMP/c2.out"
   [[ -n $kv ]] || st_fail "phase 2: the connection is not SMC-R"
   ((gone == 0)) || st_fail "a's link group stayed"
   ((rc != 0)) || st_fail "the connection survived an unanswered keepalive probe"
   grep -q ECONNRESET "$ST_TMP/c2.out" || st_fail "the connection did not fail with ECONNRESET"
   n=$(st_dmesg_count "no reply to TEST LINK, link down" phase2) || st_fail "cannot read the kernel log"
   ((n > 0)) || st_fail "no \"no reply to TEST LINK\" log line"
   vm_put "$ST_KEY-a-done" 1 ;;
esac
