#!/bin/bash
# DESC: socket(AF_SMC) with bad type/protocol -> ESOCKTNOSUPPORT / EPROTONOSUPPORT
# SMOKE: yes
# PEER: no
# TIMEOUT: 30
#
# Asserts: socket(AF_SMC, SOCK_DGRAM|SOCK_SEQPACKET, 0) fails with
# ESOCKTNOSUPPORT, socket(AF_SMC, SOCK_STREAM, 7 or 2) with EPROTONOSUPPORT;
# SOCK_STREAM with SMCPROTO_SMC/SMC6 and SOCK_NONBLOCK|SOCK_CLOEXEC works and
# the flags are applied. Role a only.
source "$ST_DIR/lib.sh"
P=$ST_PORT

[[ $SMCR_ROLE == a ]] || exit 0
st_smctest probe bad-type --family "$ST_FAMILY"
