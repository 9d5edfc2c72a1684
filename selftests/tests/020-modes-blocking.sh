#!/bin/bash
# DESC: blocking I/O smc<->smc in source, echo and duplex modes
# SMOKE: no
# PEER: yes
# TIMEOUT: 120
#
# Asserts: with blocking sockets (sender thread + reader) an AF_SMC server in
# source mode delivers 8 MiB exactly then EOF, in echo mode returns 8 MiB
# byte-exact, and in duplex mode both directions are pattern-verified; all
# sockets fall back with a reason != 0.
source "$ST_DIR/lib.sh"
P=$ST_PORT

modes=(source echo duplex)
case $SMCR_ROLE in
b) for i in 0 1 2; do
	st_serve_bg "${modes[i]}" server --family "$ST_FAMILY" --port $((P + i)) --mode "${modes[i]}" --bytes "$(st_size 8M 1M)" \
		--seed 77 "${ST_EXPECT_SMC_PEER[@]}" --timeout 100s || exit 1
   done
   st_wait_all ;;
a) rc=0
   for i in 0 1 2; do
	st_await "${modes[i]}" || exit 1
	st_smctest client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP" --port $((P + i)) --mode "${modes[i]}" \
		--bytes "$(st_size 8M 1M)" --seed 77 --msgsize 1000 "${ST_EXPECT_SMC_PEER[@]}" --timeout 100s || rc=1
   done
   exit $rc ;;
esac
