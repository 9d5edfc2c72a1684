#!/bin/bash
# DESC: smcr <-> Linux smc.ko: 100 concurrent connections a->b, one first contact and 99 subsequent contacts in one SMC-R v2.1 link group, SMC-R on both sides, byte-exact
# SMOKE: no
# DEBUG: no
# PEER: yes
# TIMEOUT: 400
#
# One VM runs smcr, the other Linux's in-tree SMC (selftests/run --interop).
# Starting without link groups on either VM, a's client opens 100 AF_SMC
# connections at once (one thread each) to b's concurrent sink server; each
# sends 64 KiB (4 KiB on the debug kernel) that the server checksums and
# reports back. The first connection is the first contact; the other 99 wait
# for its link group and join it as subsequent contacts, each with a new RMB
# announced by CONFIRM RKEY (Linux sends one for every new RMB, smcr too).
# Asserts:
#   - every connection on both sides is SMC-R (each side's own sock_diag,
#     smcr's or smc_diag's, via smctest --expect-mode smcr on all 100) and
#     its data matches (FNV checksum reported by the server);
#   - afterwards each VM has exactly one link group, SMC-R version 2
#     release 1, as its own netlink (smcr's or Linux's) reports it.
# smcr's handshake limit (hs_limit) is raised to 256 on the smcr server so
# that none of the 100 is turned into TCP by it.
source "$ST_DIR/lib.sh"
st_need_rxe
P=$ST_PORT
N=100
B=$(st_size 64K 4K)

if [[ $ST_IMPL == smcr && $SMCR_ROLE == b ]]; then
	st_param hs_limit 256 || exit 1
fi
# a clean start: the link groups of earlier tests lingered out (smcr's
# linger of 10 s ends them with DELETE LINK, which ends Linux's too)
st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1

case $SMCR_ROLE in
b) st_serve srv server --port "$P" --conns "$N" --concurrent --mode sink --expect-mode smcr \
	--timeout 340s || st_fail "server: a connection failed or was not SMC-R" ;;
a) st_await srv || exit 1
   st_smctest client --addr "$SMCR_PEER_IP" --port "$P" --conns "$N" --mode sink --bytes "$B" \
	--expect-mode smcr --timeout 340s || st_fail "client: a connection failed or was not SMC-R" ;;
esac
vm_sync "$ST_KEY-done" || exit 1
st_log "$ST_IMPL: $("$SMCR_TOOLS/bin/smcr" lgr show 2>&1)"
n=$(st_lgr_count)
v=$(st_lgr_versions)
[[ $n == 1 ]] || st_fail "$ST_IMPL: $n link groups, expected one"
[[ $v == 2.1 ]] || st_fail "$ST_IMPL: link group version '$v', expected 2.1"
echo "$ST_IMPL: one link group, SMC-R v$v, for $N connections"
