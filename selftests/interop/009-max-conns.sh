#!/bin/bash
# DESC: smcr <-> Linux smc.ko: release 1 max_conns 16 (Linux's sysctl): 40 connections spread over 3 link groups of one peer, all SMC-R
# SMOKE: no
# DEBUG: no
# PEER: yes
# TIMEOUT: 240
#
# Linux's net.smc.smcr_max_conns_per_lgr is 16 on its VM. SMC-R v2.1 agrees
# on the smaller of both sides' maximum, so each link group takes at most
# 16 connections and a server opens the next link group, with the same
# peer, GID and MAC, for the 17th: Linux when it is the server, smcr
# (smc_contact_full()) when Linux is the client. 40 concurrent connections
# a->b, all held open until both sides counted them. Asserts on both sides: every
# connection SMC-R and byte-exact (its own sock_diag), 3 link groups at
# once, none with more than 16 connections, all of version 2.1. The client
# must take each connection's link group by the QP the Accept names: with
# the key alone it would pick the first one and decline out of sync.
source "$ST_DIR/lib.sh"
st_need_rxe
N=40
B=$(st_size 64K 16K)
SYS=/proc/sys/net/smc/smcr_max_conns_per_lgr

if [[ $ST_IMPL == linux ]]; then
	[[ -w $SYS ]] || st_fail "Linux without $SYS (6.12 and the debug kernel have it)"
	old=$(<"$SYS")
	trap 'echo "$old" >"$SYS"' EXIT
	echo 16 >"$SYS" || st_fail "cannot set $SYS"
else
	st_param hs_limit 256 || exit 1
fi
st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
# all N open (held): 3 link groups of at most 16
st_held_conns_split $N "$B" 3 16
