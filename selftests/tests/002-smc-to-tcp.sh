#!/bin/bash
# DESC: smc client -> plain TCP server: reason PEERNOSMC, data intact both ways
# SMOKE: yes
# PEER: yes
# TIMEOUT: 120
#
# Asserts: an AF_SMC client connecting to a plain TCP server records exactly
# SMC_CLC_DECL_PEERNOSMC (0x03010000) and moves data byte-exact in both
# directions (duplex: each side verifies the other's pattern), plus a sink pass
# whose checksum the server reports back.
source "$ST_DIR/lib.sh"
P=$ST_PORT

case $SMCR_ROLE in
b) st_serve_bg duplex server --family tcp --port "$P" --mode duplex --bytes "$(st_size 8M 1M)" --timeout 100s || exit 1
   st_serve_bg sink server --family tcp --port $((P + 1)) --mode sink --timeout 100s || exit 1
   st_wait_all ;;
a) st_await duplex && st_await sink || exit 1
   st_smctest client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes "$(st_size 8M 1M)" \
	--expect-mode fallback --expect-reason 0x03010000 --timeout 100s || exit 1
   st_smctest client --family "$ST_FAMILY" --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode sink --bytes "$(st_size 8M 1M)" \
	--expect-reason PEERNOSMC --timeout 100s ;;
esac
