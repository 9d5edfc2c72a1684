#!/bin/bash
# DESC: smcr <-> Linux smc.ko with no user EID in common: the server declines the SMC-R v2 Proposal, both fall back to TCP with the expected reasons, data intact
# SMOKE: no
# DEBUG: no
# PEER: yes
# TIMEOUT: 200
#
# One VM runs smcr, the other Linux's in-tree SMC (selftests/run --interop).
# The smcr VM's user EIDs are replaced by SMCR-INTEROP-OTHER (smcr ueid
# flush + add; SMCR-INTEROP is restored at the end, also on failure), the
# Linux VM keeps SMCR-INTEROP. SMC-R v2 needs a user EID in common, and
# v1 is impossible here (Linux needs a RoCE v1 GID, Soft-RoCE has none:
# see 007), so the server declines:
#   - Linux client, smcr server: Linux proposes v2 only with EID
#     SMCR-INTEROP; smcr has no such EID and declines with NOUEID
#     (0x03030008, smc_hs_v2_choose()): smcr records NOUEID, Linux
#     PEERDECL (0x05000000) with the peer's diagnosis NOUEID.
#   - smcr client, Linux server: smcr proposes v2 with SMCR-INTEROP-OTHER
#     (and v1). Linux declines with NOUEID only when a Proposal carries no
#     EID at all (smc_listen_v2_check()); an EID list without a match just
#     makes its v2 device search come up empty without a reason
#     (smc_find_rdma_v2_device_serv(): smc_clc_match_eid() fails, nothing
#     stored in ini->rc), then its v1 search finds no RoCE v1 device and
#     gives the reason: Linux records NOSMCDEV (0x03030000), smcr PEERDECL
#     with peer diagnosis NOSMCDEV.
# Asserts, on each side from its own sock_diag (smctest --expect-*): mode
# fallback with exactly these reason and peer diagnosis codes, for a duplex
# transfer (both sides verify the other's pattern) and a sink (checksum
# compared), 4 MiB each (1 MiB on the debug kernel); and the smcr VM's
# user EIDs are SMCR-INTEROP again at the end.
source "$ST_DIR/lib.sh"
st_need_rxe
P=$ST_PORT
B=$(st_size 4M 1M)
S=$SMCR_TOOLS/bin/smcr

ueid_restore() {
	"$S" ueid flush >/dev/null
	"$S" ueid add SMCR-INTEROP >/dev/null || echo "cannot restore the user EID SMCR-INTEROP"
}
if [[ $ST_IMPL == smcr ]]; then
	trap ueid_restore EXIT
	trap 'exit 143' TERM
	"$S" ueid flush || st_fail "smcr ueid flush failed"
	"$S" ueid add SMCR-INTEROP-OTHER || st_fail "smcr ueid add failed"
fi
echo "$ST_IMPL user EIDs: $("$S" ueid show 2>&1 | tr '\n' ' ')"
vm_sync "$ST_KEY-ueid" || exit 1

case $SMCR_ROLE:$ST_IMPL in
b:smcr) EXP=(--expect-reason NOUEID --expect-peer-diag 0) ;;
a:linux) EXP=(--expect-reason PEERDECL --expect-peer-diag NOUEID) ;;
b:linux) EXP=(--expect-reason NOSMCDEV --expect-peer-diag 0) ;;
a:smcr) EXP=(--expect-reason PEERDECL --expect-peer-diag NOSMCDEV) ;;
esac
echo "$ST_IMPL as $([[ $SMCR_ROLE == a ]] && echo client || echo server) expects ${EXP[*]}"

rc=0
case $SMCR_ROLE in
b) st_serve_bg duplex server --port "$P" --mode duplex --bytes "$B" --expect-mode fallback "${EXP[@]}" \
	-v --timeout 120s || exit 1
   st_serve_bg sink server --port $((P + 1)) --mode sink --expect-mode fallback "${EXP[@]}" \
	-v --timeout 120s || exit 1
   st_wait_all || rc=1 ;;
a) st_await duplex && st_await sink || exit 1
   st_smctest client --addr "$SMCR_PEER_IP" --port "$P" --mode duplex --bytes "$B" --expect-mode fallback \
	"${EXP[@]}" -v --timeout 120s || rc=1
   st_smctest client --addr "$SMCR_PEER_IP" --port $((P + 1)) --mode sink --bytes "$B" --expect-mode fallback \
	"${EXP[@]}" -v --timeout 120s || rc=1 ;;
esac
if [[ $ST_IMPL == smcr ]]; then
	ueid_restore
	trap - EXIT
	u=$("$S" ueid show 2>&1)
	echo "smcr user EIDs after the test: $u"
	[[ $u == *SMCR-INTEROP* && $u != *OTHER* ]] || { echo "user EID SMCR-INTEROP not restored"; rc=1; }
fi
((rc == 0)) || st_fail "$ST_IMPL: data or fallback reasons not as expected"
