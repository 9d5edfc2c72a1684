#!/bin/bash
# DESC: net.smc.* sysctls: read the module parameters, enforce their ranges, smcr_testlink_time is keepalive_ms in s, root only; rmem sizes new RMB elements
# SMOKE: yes
# DEBUG: no
# PEER: yes
# TIMEOUT: 120
#
# Asserts on each VM (initial network namespace; 111 covers the others):
# net.smc.clc_timeout_ms, hs_limit, llc_timeout_ms, keepalive_ms,
# lgr_linger_ms, close_timeout_ms, rmem, wmem, max_links_per_netns,
# tcp_keepidle_min_s, smcr_max_links_per_lgr, smcr_max_conns_per_lgr,
# limit_smc_hs and autocorking_size exist and show the module parameters' values; a valid
# write changes the parameter; writes out of range are refused (EINVAL) and
# leave the value (clc_timeout_ms 99 and 60001, hs_limit 0, llc_timeout_ms
# 99, keepalive_ms 3600001, lgr_linger_ms 86400001, close_timeout_ms 99 and
# 3600001, rmem and wmem 16383 and 1073741824 (Linux's range),
# max_links_per_netns 0 and 65536, tcp_keepidle_min_s 0 and 32768,
# smcr_max_links_per_lgr 0 and 3, smcr_max_conns_per_lgr 15 and 256,
# limit_smc_hs 2, autocorking_size
# 4294967296, smcr_testlink_time 3601);
# every module parameter whose description states a range "(MIN-MAX, default
# N)" refuses MAX+1 and MIN-1 and accepts MIN and MAX (the sysctl shows it),
# and they are the sysctls, but for the six test hooks with a range
# (test_hooks.c, no sysctl); smcr_testlink_time (Linux's name, no parameter)
# is keepalive_ms in seconds both ways (7 -> 7000, 12345 -> 12); an
# unprivileged user (uid 65534) cannot write.
# Then, with net.smc.rmem=16384 on both VMs (Soft-RoCE, data_path=Y: no
# Soft-RoCE fails the test), a new SMC-R connection between sockets without
# SO_RCVBUF has 16 KiB RMB elements on both sides (sock_diag: rmbe and
# peer_rmbe).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
P=$ST_PORT
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
KNOBS=(clc_timeout_ms hs_limit llc_timeout_ms keepalive_ms lgr_linger_ms close_timeout_ms rmem wmem
	max_links_per_netns tcp_keepidle_min_s smcr_max_links_per_lgr smcr_max_conns_per_lgr limit_smc_hs
	autocorking_size)

for k in "${KNOBS[@]}"; do
	[[ -e /proc/sys/net/smc/$k ]] || st_fail "no net.smc.$k"
	s=$(<"/proc/sys/net/smc/$k")
	m=$(<"/sys/module/smcr/parameters/$k")
	[[ $s == "$m" ]] || st_fail "net.smc.$k is $s, the module parameter $m"
	st_param "$k" "$m" >/dev/null || exit 1	# restored at exit
done
echo "ok: ${KNOBS[*]} read the module parameters"

# refused KNOB VALUE: the write fails with EINVAL, the value stays
refused() {
	local old err
	old=$(<"/proc/sys/net/smc/$1")
	err=$( (echo "$2" >"/proc/sys/net/smc/$1") 2>&1) && st_fail "net.smc.$1=$2 accepted"
	[[ $err == *"Invalid argument"* ]] || st_fail "net.smc.$1=$2: '$err', expected EINVAL"
	[[ $(<"/proc/sys/net/smc/$1") == "$old" ]] || st_fail "net.smc.$1 changed by a refused write"
}
refused clc_timeout_ms 99
refused clc_timeout_ms 60001
refused hs_limit 0
refused llc_timeout_ms 99
refused keepalive_ms 3600001
refused lgr_linger_ms 86400001
refused close_timeout_ms 99
refused close_timeout_ms 3600001
refused rmem 16383
refused rmem 1073741824
refused wmem 16383
refused wmem 1073741824
refused max_links_per_netns 0
refused max_links_per_netns 65536
refused tcp_keepidle_min_s 0
refused tcp_keepidle_min_s 32768
refused smcr_max_links_per_lgr 0
refused smcr_max_links_per_lgr 3
refused smcr_max_conns_per_lgr 15
refused smcr_max_conns_per_lgr 256
refused limit_smc_hs 2
refused autocorking_size 4294967296
refused smcr_testlink_time 3601
echo "ok: out-of-range values refused with EINVAL, values kept"

# The module parameters enforce the same ranges, the ones their
# descriptions state ("(MIN-MAX, default N)"), one table behind both: the
# first value below and the first above are refused (EINVAL, value kept),
# MIN and MAX accepted. (llc_timeout_ms=0 once passed and broke every LLC
# wait.)
n=0 hooks=0
while IFS=: read -r k desc; do
	[[ $desc =~ \(([0-9]+)-([0-9]+),\ default\ ([0-9]+)\)$ ]] || continue
	min=${BASH_REMATCH[1]} max=${BASH_REMATCH[2]}
	f=/sys/module/smcr/parameters/$k
	# a test hook (test_hooks.c) has a range and no sysctl
	hook=0
	[[ $k == test_* ]] && hook=1 hooks=$((hooks + 1))
	((hook)) || [[ " ${KNOBS[*]} " == *" $k "* ]] || st_fail "module parameter $k has a range but no net.smc.$k"
	old=$(<"$f")
	st_param "$k" "$old" >/dev/null || exit 1	# restored at exit
	for bad in $((max + 1)) $( ((min > 0)) && echo $((min - 1))); do
		err=$( (echo "$bad" >"$f") 2>&1) && st_fail "smcr.$k=$bad accepted (range $min-$max)"
		# beyond an unsigned int the parser says ERANGE
		[[ $err == *"Invalid argument"* || ($bad -gt 4294967295 && $err == *"out of range"*) ]] ||
			st_fail "smcr.$k=$bad: '$err', expected EINVAL"
		[[ $(<"$f") == "$old" ]] || st_fail "smcr.$k changed by a refused write"
	done
	for good in "$min" "$max"; do
		echo "$good" >"$f" || st_fail "smcr.$k=$good refused (range $min-$max)"
		[[ $(<"$f") == "$good" ]] || st_fail "smcr.$k=$good reads $(<"$f")"
		((hook)) || [[ $(<"/proc/sys/net/smc/$k") == "$good" ]] ||
			st_fail "net.smc.$k does not show smcr.$k=$good"
	done
	echo "$old" >"$f"
	((hook)) || n=$((n + 1))
done <<<"$(modinfo -F parm "$SMCR_MODDIR/smcr.ko")"		# no /dev/fd in the VMs
((n == ${#KNOBS[@]})) || st_fail "$n module parameters state a range, expected ${#KNOBS[@]}"
# test_hooks.c: clc_version, llc_work_delay_ms, add_link_hold_ms,
# add_link_fail_ms, cdc_rx_delay_ms, tx_hold_ms
((hooks == 6)) || st_fail "$hooks test hooks state a range, expected 6"
echo "ok: the $n module parameters and $hooks test hooks refuse what their descriptions' ranges exclude"

sysctl -qw net.smc.keepalive_ms=12345 || st_fail "valid write refused"
[[ $(</sys/module/smcr/parameters/keepalive_ms) == 12345 ]] || st_fail "write did not reach the parameter"
echo "ok: a valid write changes the module parameter"

[[ -e /sys/module/smcr/parameters/smcr_testlink_time ]] && st_fail "smcr_testlink_time is a module parameter"
[[ $(</proc/sys/net/smc/smcr_testlink_time) == 12 ]] ||
	st_fail "smcr_testlink_time is $(</proc/sys/net/smc/smcr_testlink_time) with keepalive_ms 12345, expected 12"
sysctl -qw net.smc.smcr_testlink_time=7 || st_fail "net.smc.smcr_testlink_time=7 refused"
[[ $(</sys/module/smcr/parameters/keepalive_ms) == 7000 ]] ||
	st_fail "smcr_testlink_time=7 made keepalive_ms $(</sys/module/smcr/parameters/keepalive_ms), expected 7000"
sysctl -qw net.smc.smcr_testlink_time=3600 || st_fail "net.smc.smcr_testlink_time=3600 refused"
[[ $(</proc/sys/net/smc/keepalive_ms) == 3600000 ]] || st_fail "smcr_testlink_time=3600: keepalive_ms not 3600000"
echo "ok: smcr_testlink_time is keepalive_ms in seconds"

"${NOBODY[@]}" sh -c 'echo 7 >/proc/sys/net/smc/hs_limit' 2>/dev/null && st_fail "uid 65534 wrote net.smc.hs_limit"
[[ $(</proc/sys/net/smc/hs_limit) != 7 ]] || st_fail "hs_limit changed by uid 65534"
echo "ok: unprivileged writes refused"

st_need_rxe
st_param data_path Y >/dev/null || exit 1
sysctl -qw net.smc.rmem=16384 || st_fail "net.smc.rmem=16384 refused"
st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-rmem" || exit 1
case $SMCR_ROLE in
b) st_serve_bg srv server --family smc --port "$P" --mode sink --bytes 4K --expect-mode smcr --timeout 60s || exit 1
   kv=$(st_conn_kv "$P")
   st_wait_all || exit 1 ;;
a) st_await srv || exit 1
   kv=$(st_client_kv "$P" --mode sink --bytes 4K --hold 3s --expect-mode smcr --timeout 60s) ||
	st_fail "the connection failed" ;;
esac
echo "connection: $(grep -o 'rmbe=[0-9]* peer_rmbe=[0-9]*' <<<"$kv")"
[[ $kv == *" rmbe=16384 peer_rmbe=16384 "* ]] || st_fail "RMB elements are not 16 KiB with net.smc.rmem=16384"
