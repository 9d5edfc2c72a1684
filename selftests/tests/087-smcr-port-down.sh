#!/bin/bash
# DESC: two-link group, ip link set eth1 down under idle connections (on the server, then on the client): rxe's port error takes link 2 down within 10 s, far below TEST LINK's 35 s; the group goes on over link 1 and its connections move data; eth1 up brings link 2 back
# SMOKE: no
# PEER: yes
# TIMEOUT: 300
#
# Both VMs allow two links per link group (smcr_max_links_per_lgr 2). For
# each VM in turn (b, the server, then a, the client), with 8 connections
# open and idle (the client holds them before sending):
#   - `ip link set eth1 down` there: rxe1 raises IB_EVENT_PORT_ERR, which
#     takes link 2 down as a lost path at once (ib.c, lgr_event.c): that
#     VM's kernel log has rxe1's "set down", smcr's port error and then
#     link 2's deletion, within 5 s of "set down" (measured: milliseconds;
#     TEST LINK would take keepalive_ms + llc_timeout_ms, 35 s); within
#     10 s (20 s on the debug kernel, where polling the listing is slow)
#     both sides list the link group (the same one) with one ACTIVE link,
#     link 1, type SINGLE, counting the 8 connections, all on link 1
#     (RFC 7609 3.5.5.1.3-4: the server's DELETE LINK, or the client's and
#     then the server's);
#   - the connections then move their data, SMC-R, byte-exact;
#   - `ip link set eth1 up` there: rxe1 raises IB_EVENT_PORT_ACTIVE and
#     within 30 s link 2 is back on both sides, type SYM (the server's ADD
#     LINK; from the client, its ADD LINK hint).
# eth1 keeps its IPv4 address while down (its connected route and rxe1's
# IPv4-mapped GID come back with NETDEV_UP); the cleanup sets it up again.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
N=8
B=$(st_size 256K 64K)
HOLD=/tmp/smcr-087-hold
DOWN_S=$(st_size 10 20)

restore_eth1() {
	ip link set eth1 up
}
st_cleanup 'restore_eth1; rm -f $HOLD'
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 2 || exit 1

# await_links N TYPE SECONDS: the only link group has N ACTIVE links and
# type TYPE; prints "LGR-ID LINK-IDS CONNS-PER-LINK". One jq a round: on
# the debug kernel every fork counts.
await_links() {
	local end=$((SECONDS + $3)) lgrs links got
	while ((SECONDS < end)); do
		lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || return 1
		links=$("$SMCR_TOOLS/bin/smcr" -j link show) || return 1
		got=$(jq -rn --argjson g "$lgrs" --argjson l "$links" --argjson n "$1" --arg t "$2" '
			if ($g | length) == 1 and $g[0].type == $t and
			   ([$l[] | select(.state == "ACTIVE")] | length) == $n
			then "\($l[0].lgr_id) \([$l[].link_id] | join(",")) \([$l[].conns] | join(","))"
			else empty end') || return 1
		if [[ -n $got ]]; then
			echo "$got"
			return 0
		fi
		vm_nap 0.2
	done
	echo "expected one link group of type $2 with $1 ACTIVE links:"
	echo "$lgrs"
	echo "$links"
	return 1
}

# deleted_ms MARK LGR: ms from rxe1's "set down" to link 2 of link group
# LGR deleted, by this VM's kernel log after MARK; fails unless smcr's
# port error for rxe1 came between the two
deleted_ms() {
	dmesg | awk -v m="smcr-selftest: $ST_KEY $SMCR_ROLE mark <$1>" -v lgr="$2" '
		function ts(l) { sub(/^\[ */, "", l); sub(/\].*/, "", l); return l + 0 }
		index($0, m) { f = 1; next }
		!f { next }
		!down && /infiniband rxe1: set down/ { down = ts($0); next }
		down && /smcr: RoCE device rxe1 port 1 down: its links go down/ { err = 1; next }
		down && err && index($0, "smcr: link group " lgr " (") &&
		    index($0, "): link 2 deleted") {
			printf "%d\n", (ts($0) - down) * 1000; ok = 1; exit
		}
		END { exit !ok }'
}

# secs_since T0: seconds (one decimal) from $EPOCHREALTIME T0 to now
secs_since() {
	local now=$EPOCHREALTIME
	awk -v a="$1" -v b="$now" 'BEGIN { printf "%.1f", b - a }'
}

# phase ROLE PORT: ROLE sets eth1 down and up under N idle connections
phase() {
	local who=$1 port=$2 got lgr cpid t0 ms
	echo "== eth1 down on $who"
	case $SMCR_ROLE in
	b) st_serve_bg "s$port" server --family smc --port "$port" --conns $N --concurrent \
		--bytes "$B" --mode sink --expect-mode smcr --timeout 120s || return 1 ;;
	a) st_await "s$port" || return 1
	   touch $HOLD
	   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$port" --conns $N \
		--bytes "$B" --mode sink --expect-mode smcr --hold 120s --hold-file $HOLD \
		--timeout 150s & cpid=$! ;;
	esac
	st_await_lgr_conns $N 60 || return 1
	got=$(await_links 2 SYM 5) || { echo "$got"; return 1; }
	echo "before: $got"
	lgr=${got%% *}
	st_dmesg_mark "$who-down" || return 1
	vm_sync "$ST_KEY-$who-up" || return 1
	t0=$EPOCHREALTIME
	if [[ $SMCR_ROLE == "$who" ]]; then
		ip link set eth1 down || { echo "ip link set eth1 down failed"; return 1; }
	fi
	got=$(await_links 1 SINGLE "$DOWN_S") || { echo "$got"; return 1; }
	echo "after eth1 down ($(secs_since "$t0") s): $got"
	[[ $got == "$lgr 1 $N" ]] || { echo "expected link group $lgr, link 1 with $N connections"; return 1; }
	if [[ $SMCR_ROLE == "$who" ]]; then
		ms=$(deleted_ms "$who-down" "$lgr") || {
			echo "no rxe1 set down, port error, link 2 deleted in the kernel log:"
			dmesg | tail -20
			return 1
		}
		echo "kernel: link 2 deleted $ms ms after rxe1 went down"
		((ms < 5000)) || { echo "expected within 5000 ms"; return 1; }
	fi
	vm_sync "$ST_KEY-$who-down" || return 1
	case $SMCR_ROLE in
	b) st_wait_all || return 1 ;;
	a) rm -f $HOLD; wait "$cpid" || return 1 ;;
	esac
	vm_sync "$ST_KEY-$who-data" || return 1
	t0=$EPOCHREALTIME
	if [[ $SMCR_ROLE == "$who" ]]; then
		ip link set eth1 up || { echo "ip link set eth1 up failed"; return 1; }
	fi
	got=$(await_links 2 SYM 30) || { echo "$got"; return 1; }
	echo "after eth1 up ($(secs_since "$t0") s): $got"
	[[ ${got%% *} == "$lgr" ]] || { echo "link group changed"; return 1; }
	vm_sync "$ST_KEY-$who-back" || return 1
}

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
phase b "$P" || exit 1
phase a $((P + 1)) || exit 1
