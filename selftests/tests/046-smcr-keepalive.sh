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
#     shows TCP's keepalive timer in `ss -o`;
#   - phase 1: an SMC-R connection with SO_KEEPALIVE (TCP_KEEPIDLE 2 s),
#     idle for 6 s while b answers TEST LINK: getsockopt(TCP_KEEPIDLE)
#     reads 2; its clcsock is listed by ss with TCP's keepalive timer (TCP
#     keepalive flows for middleboxes) due in more than 10 s (raised to
#     tcp_keepidle_min_s, not the application's 2 s); the link stays
#     ACTIVE and the data then arrives byte-exact;
#   - phase 2: b ignores TEST LINK; an SMC-R connection with SO_KEEPALIVE
#     idle for 15 s: a logs "no reply to TEST LINK" (the probe came from
#     SO_KEEPALIVE: the link's own would come after 10 minutes), its link
#     group ends and the connection's send fails with ECONNRESET. b's
#     side of it ends by b's own link keepalive (its peer QP is gone).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
P=$ST_PORT

st_await_lgr_count 0 90 || st_fail "link groups of earlier tests did not end"
st_param lgr_linger_ms 30000 || exit 1
st_param keepalive_ms 600000 || exit 1
if [[ $SMCR_ROLE == a ]]; then
	st_param llc_timeout_ms 2000 || exit 1
	st_param tcp_keepidle_min_s 30 || exit 1
fi
vm_sync "$ST_KEY-params" || exit 1

# conns PORT / ka_timers PORT: this VM's established TCP connections to
# PORT (kernel sockets included), and how many have a keepalive timer;
# ka_due PORT: whole seconds until the first one's keepalive timer fires
conns() { ss -tnoH state established "( dport = :$1 )" | wc -l; }
ka_timers() { ss -tnoH state established "( dport = :$1 )" | grep -c "timer:(keepalive"; }
ka_due() {
	ss -tnoH state established "( dport = :$1 )" |
		sed -n 's/.*timer:(keepalive,\([0-9]*min\)\{0,1\}\([0-9]*\).*/\1:\2/p' | head -n1 |
		{ IFS=: read -r m s; m=${m%min}; echo $((${m:-0} * 60 + ${s:-0})); }
}
lost() { dmesg | grep -c "no reply to TEST LINK, link down"; }

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
   "$SMCTEST" client --family tcp --addr "$SMCR_PEER_IP" --port "$P" --mode sink --bytes 4K \
	--keepalive 2 --hold 3s --timeout 30s &
   pid=$!
   sleep 1.5
   n=$(ka_timers "$P")
   echo "TCP with SO_KEEPALIVE: $n keepalive timer(s)"
   wait "$pid" || st_fail "the TCP control connection failed"
   ((n == 1)) || st_fail "control: ss shows no keepalive timer on a TCP connection with SO_KEEPALIVE"

   st_await c1 || exit 1
   "$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode sink --bytes 4K \
	--keepalive 2 --hold 6s --expect-mode smcr --timeout 30s >"$ST_TMP/c1.out" 2>&1 &
   pid=$!
   sleep 3
   c=$(conns $((P + 1)))
   n=$(ka_timers $((P + 1)))
   due=$(ka_due $((P + 1)))
   links=$(st_links)
   echo "SMC-R with SO_KEEPALIVE: clcsock listed $c time(s), $n TCP keepalive timer(s) due in ${due}s; links: $links"
   wait "$pid" || { cat "$ST_TMP/c1.out"; st_fail "phase 1: the SMC-R connection failed"; }
   cat "$ST_TMP/c1.out"
   grep -q "TCP_KEEPIDLE reads 2$" "$ST_TMP/c1.out" || st_fail "getsockopt(TCP_KEEPIDLE) is not the application's 2"
   ((c == 1)) || st_fail "ss does not list the clcsock"
   ((n == 1)) || st_fail "no TCP keepalive timer on the clcsock of an SMC-R connection with SO_KEEPALIVE"
   ((due > 10)) || st_fail "the clcsock's keepalive is due in ${due}s: not raised to tcp_keepidle_min_s"
   [[ $links =~ ^[0-9]+\ client\ 1\ ACTIVE$ ]] || st_fail "answered keepalive lost the link"
   vm_put "$ST_KEY-phase1" 1

   st_await c2 || exit 1
   before=$(lost)
   out=$("$SMCTEST" client --family smc --addr "$SMCR_PEER_IP" --port $((P + 2)) --mode sink --bytes 4K \
	--keepalive 2 --hold 15s --timeout 40s 2>&1)
   rc=$?
   echo "$out"
   ((rc != 0)) || st_fail "the connection survived an unanswered keepalive probe"
   grep -q ECONNRESET <<<"$out" || st_fail "the connection did not fail with ECONNRESET"
   (($(lost) > before)) || st_fail "no \"no reply to TEST LINK\" log line"
   st_await_lgr_count 0 10 || st_fail "a's link group stayed"
   vm_put "$ST_KEY-a-done" 1 ;;
esac
