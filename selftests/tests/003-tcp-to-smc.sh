#!/bin/bash
# DESC: plain TCP client -> smc server: accepted socket reason PEERNOSMC, data intact
# SMOKE: no
# PEER: yes
# TIMEOUT: 120
#
# Asserts: an AF_SMC listener accepting a plain TCP client gives an accepted
# socket in fallback with reason exactly SMC_CLC_DECL_PEERNOSMC (0x03010000);
# data is byte-exact both ways (duplex) and one way (sink, checksum reported
# back).
source "$ST_DIR/lib.sh"
P=$ST_PORT

case $SMCR_ROLE in
b) st_serve srv server --family "$ST_FAMILY" --port "$P" --conns 2 --mode duplex --bytes "$(st_size 8M 1M)" \
	--expect-mode fallback --expect-reason 0x03010000 --timeout 100s ;;
a) st_await srv || exit 1
   st_smctest client --family tcp --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes "$(st_size 8M 1M)" --timeout 100s || exit 1
   st_smctest client --family tcp --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes "$(st_size 8M 1M)" --io poll --timeout 100s ;;
esac
