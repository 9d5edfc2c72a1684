#!/bin/bash
# DESC: smcr <-> Linux smc.ko: busy failover - 16 duplex connections over two links, eth1 down on the server at a third of the data: every connection completes byte-exact over SMC-R in the same link group
# SMOKE: no
# DEBUG: no
# PEER: yes
# TIMEOUT: 240
#
# RFC 7609 4.6 across implementations. The two links as in 010 (Linux's
# eth1 gets an address in 192.0.2.0/24 without a prefix route). Then
# st_failover_busy: 16 concurrent duplex connections of 8 MiB each way,
# SMC-R on both sides, each shut down only once all its bytes came in
# (Linux does not fail over a connection in a closing state: in one run
# of 12, 2026-12-02, 8 connections stalled, the cause unconfirmed), and b
# takes eth1 down once it sent a third. With
# `--interop b` Linux is the server and loses the link first (smcr learns
# it from its work requests and Linux's DELETE LINK); with `--interop a`
# smcr does, and Linux learns it from us. Every connection completes with
# equal checksums on both sides, in the same link group (Linux may add
# a link on the port left, so its type is not asserted).
source "$ST_DIR/lib.sh"
st_need_rxe
N=16
B=8M
st_interop_two_links || st_fail "cannot allow two links"
st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
st_failover_busy b "$N" "$B" any || exit 1
