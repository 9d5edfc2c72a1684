#!/bin/bash
# DESC: test_fake_offer: the four CLC outcomes (none/client/both fake, DIFFPREFIX) + IPv6, exact reasons, data both ways
# SMOKE: yes
# PEER: yes
# TIMEOUT: 240
#
# Asserts, for an smcr client on role a and an smcr server on role b, with the
# module parameter test_fake_offer set per case on each side (restored after):
#   none fake:   client NOSMCRDEV 0x03030002; server PEERDECL 0x05000000 with
#                peer_diagnosis NOSMCRDEV
#   client fake: server NOSMCRDEV; client PEERDECL / peer_diag NOSMCRDEV
#   both fake:   client ERR_RDYLNK 0x09990002; server PEERDECL / ERR_RDYLNK
#                (over IPv4 and over IPv6 2001:db8::/64)
#   both fake, client 198.19.0.1/24 -> server 198.19.1.2/24 (extra addresses
#                on eth1, removed at the end): server DIFFPREFIX 0x03070000,
#                client PEERDECL / peer_diag DIFFPREFIX
# and in every case duplex data both ways is byte-exact (each side verifies
# the other's pattern checksum) over the TCP fallback.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module (test_fake_offer)"
B=$(st_size 2M 256K)

cleanup_addrs() {
	if [[ $SMCR_ROLE == a ]]; then
		ip route del 198.19.1.0/24 dev eth1 2>/dev/null
		ip addr del 198.19.0.1/24 dev eth1 2>/dev/null
	else
		ip route del 198.19.0.0/24 dev eth1 2>/dev/null
		ip addr del 198.19.1.2/24 dev eth1 2>/dev/null
	fi
	return 0
}
st_cleanup cleanup_addrs

rc=0
n=0
# run_case NAME A_FAKE B_FAKE "CLIENT-EXPECT" "SERVER-EXPECT" ADDR [CLIENT-BIND]
run_case() {
	local name=$1 afake=$2 bfake=$3 cexp=$4 sexp=$5 addr=$6 bind=${7:-} port=$((ST_PORT + n))
	n=$((n + 1))
	echo "=== case $name"
	if [[ $SMCR_ROLE == a ]]; then
		echo "$afake" >/sys/module/smcr/parameters/test_fake_offer || return 1
	else
		echo "$bfake" >/sys/module/smcr/parameters/test_fake_offer || return 1
	fi
	vm_sync "$ST_KEY-$name-params" || return 1
	case $SMCR_ROLE in
	b) # shellcheck disable=SC2086 # expectation lists are word-split on purpose
	   st_serve "$name" server --family smc $([[ $addr == *:* ]] && echo --ipv6) --port "$port" \
		--mode duplex --bytes "$B" --expect-mode fallback $sexp --timeout 100s ;;
	a) st_await "$name" || return 1
	   # shellcheck disable=SC2086
	   st_smctest client --family smc --addr "$addr" ${bind:+--bind "$bind"} --port "$port" \
		--mode duplex --bytes "$B" --expect-mode fallback $cexp --timeout 100s ;;
	esac
}

st_param test_fake_offer N
# no real RoCE offer: the cases are about CLC outcomes, not links
st_param use_roce N
run_case none N N "--expect-reason NOSMCRDEV" "--expect-reason PEERDECL --expect-peer-diag NOSMCRDEV" \
	"$SMCR_PEER_IP" || rc=1
run_case client-fake Y N "--expect-reason PEERDECL --expect-peer-diag NOSMCRDEV" "--expect-reason NOSMCRDEV" \
	"$SMCR_PEER_IP" || rc=1
run_case both-fake Y Y "--expect-reason ERR_RDYLNK" "--expect-reason PEERDECL --expect-peer-diag ERR_RDYLNK" \
	"$SMCR_PEER_IP" || rc=1
run_case both-fake-ipv6 Y Y "--expect-reason ERR_RDYLNK" "--expect-reason PEERDECL --expect-peer-diag ERR_RDYLNK" \
	"$SMCR_PEER_IP6" || rc=1

# Different subnets on eth1 (198.18.0.0/15 is ours to use).
if [[ $SMCR_ROLE == a ]]; then
	ip addr add 198.19.0.1/24 dev eth1 && ip route add 198.19.1.0/24 dev eth1 || rc=1
else
	ip addr add 198.19.1.2/24 dev eth1 && ip route add 198.19.0.0/24 dev eth1 || rc=1
fi
run_case diffprefix Y Y "--expect-reason PEERDECL --expect-peer-diag DIFFPREFIX" "--expect-reason DIFFPREFIX" \
	198.19.1.2 198.19.0.1 || rc=1
exit $rc
