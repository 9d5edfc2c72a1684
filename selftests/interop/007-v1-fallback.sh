#!/bin/bash
# DESC: smcr <-> Linux smc.ko with smcr limited to SMC-R v1 (test_clc_version=1): both fall back to TCP with the expected Decline reasons, data intact
# SMOKE: no
# DEBUG: linux-b
# PEER: yes
# TIMEOUT: 200
#
# One VM runs smcr, the other Linux's in-tree SMC (selftests/run --interop).
# smcr offers and accepts SMC-R version 1 only (test_clc_version=1). Linux
# needs a RoCE v1 GID on its port for SMC-R v1 (smc_ib_determine_gid() takes
# only IB_GID_TYPE_ROCE GIDs when no v2 is asked for), and Soft-RoCE has
# RoCE v2 GIDs only, so the two have no SMC-R version in common; a Decline
# ends the handshake and both continue over TCP. The Decline reasons:
#   - smcr client (v1-only Proposal) to a Linux server: Linux finds no v2
#     in the Proposal, and no v1 RoCE device (smc_find_rdma_v1_device_serv()
#     gives SMC_CLC_DECL_NOSMCDEV, 0x03030000), so it declines with that:
#     Linux's socket records NOSMCDEV, smcr's PEERDECL (0x05000000) with
#     the peer's diagnosis NOSMCDEV.
#   - Linux client to an smcr server: Linux's Proposal offers only v2 (no
#     v1 device: its Proposal's v1 type is N); smcr, limited to v1, has no
#     version in common with it and declines with VERSMISMAT (0x030c0000,
#     "SMC version mismatch": smc_hs_v2_local() gives that reason for
#     test_clc_version=1, smc_hs_v2_choose() returns it): smcr records
#     VERSMISMAT, Linux PEERDECL with peer diagnosis VERSMISMAT.
# Asserts, on each side from its own sock_diag (smctest --expect-*): mode
# fallback with exactly these reason and peer diagnosis codes, for a duplex
# transfer (both sides verify the other's pattern) and a sink (checksum
# compared), 4 MiB each (1 MiB on the debug kernel).
source "$ST_DIR/lib.sh"
st_need_rxe
P=$ST_PORT
B=$(st_size 4M 1M)

if [[ $ST_IMPL == smcr ]]; then
	st_param test_clc_version 1 || exit 1
fi
vm_sync "$ST_KEY-params" || exit 1

# this side's expected reason and peer diagnosis
case $SMCR_ROLE:$ST_IMPL in
a:smcr) EXP=(--expect-reason PEERDECL --expect-peer-diag NOSMCDEV) ;;
b:linux) EXP=(--expect-reason NOSMCDEV --expect-peer-diag 0) ;;
a:linux) EXP=(--expect-reason PEERDECL --expect-peer-diag VERSMISMAT) ;;
b:smcr) EXP=(--expect-reason VERSMISMAT --expect-peer-diag 0) ;;
esac
echo "$ST_IMPL as $([[ $SMCR_ROLE == a ]] && echo client || echo server) expects ${EXP[*]}"

case $SMCR_ROLE in
b) st_serve_bg duplex server --port "$P" --mode duplex --bytes "$B" --expect-mode fallback "${EXP[@]}" \
	-v --timeout 120s || exit 1
   st_serve_bg sink server --port $((P + 1)) --mode sink --expect-mode fallback "${EXP[@]}" \
	-v --timeout 120s || exit 1
   st_wait_all || st_fail "$ST_IMPL server: data or fallback reasons not as expected" ;;
a) st_await duplex && st_await sink || exit 1
   st_smctest client --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes "$B" --expect-mode fallback \
	"${EXP[@]}" -v --timeout 120s || st_fail "$ST_IMPL client: duplex data or fallback reasons not as expected"
   st_smctest client --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode sink --bytes "$B" --expect-mode fallback \
	"${EXP[@]}" -v --timeout 120s || st_fail "$ST_IMPL client: sink data or fallback reasons not as expected" ;;
esac
