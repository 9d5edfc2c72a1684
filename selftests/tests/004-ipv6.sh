#!/bin/bash
# DESC: IPv6 (SMCPROTO_SMC6) smc<->smc, duplex and sink
# SMOKE: yes
# PEER: yes
# TIMEOUT: 120
#
# Asserts: AF_SMC sockets created with SMCPROTO_SMC6 connect over IPv6
# (2001:db8::/64), move data byte-exact in both directions, and both ends are
# in fallback with a reason != 0.
source "$ST_DIR/lib.sh"
P=$ST_PORT

case $SMCR_ROLE in
b) st_serve_bg duplex server --family "$ST_FAMILY" --ipv6 --port "$P" --mode duplex --bytes "$(st_size 8M 1M)" \
	"${ST_EXPECT_SMC_PEER[@]}" --timeout 100s || exit 1
   st_serve_bg sink server --family "$ST_FAMILY" --bind "$SMCR_LOCAL_IP6" --port $((P + 1)) --mode sink \
	"${ST_EXPECT_SMC_PEER[@]}" --timeout 100s || exit 1
   st_wait_all ;;
a) st_await duplex && st_await sink || exit 1
   st_smctest client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP6" --port "$P" --mode duplex --bytes "$(st_size 8M 1M)" \
	"${ST_EXPECT_SMC_PEER[@]}" -v --timeout 100s || exit 1
   st_smctest client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP6" --port $((P + 1)) --mode sink --bytes "$(st_size 8M 1M)" \
	"${ST_EXPECT_SMC_PEER[@]}" --timeout 100s ;;
esac
