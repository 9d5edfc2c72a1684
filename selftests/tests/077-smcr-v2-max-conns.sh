#!/bin/bash
# DESC: SMC-R v2.1 max conns per link group: server smcr_max_conns_per_lgr 16, 40 connections over 3 link groups of one peer, all SMC-R
# SMOKE: no
# PEER: yes
# TIMEOUT: 240
#
# Both VMs have a user EID (SMC-R v2); role b's net.smc.smcr_max_conns_per_lgr
# is 16. Release 1 agrees on the smaller maximum, so the server (smcr on b,
# smc_contact_full()) opens a new link group, with the same key, for the 17th
# connection; the client must find each connection's link group by the QP
# its Accept names. 40 concurrent connections a->b, held open until both sides counted them.
# Asserts on both sides: all 40 SMC-R and byte-exact (sock_diag), 3 link
# groups at once with at most 16 connections each, all of version 2.1.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
st_param data_path Y || exit 1
S=$SMCR_TOOLS/bin/smcr
N=40
B=$(st_size 64K 16K)
trap '"$S" ueid flush >/dev/null' EXIT

st_param hs_limit 256 || exit 1
[[ $SMCR_ROLE == b ]] && { st_param smcr_max_conns_per_lgr 16 || exit 1; }
{ "$S" ueid flush >/dev/null && "$S" ueid add SMCR-V2-A >/dev/null; } || st_fail "ueid add"
st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
st_held_conns_split $N "$B" 3 16
