#!/bin/bash
# DESC: kTLS is refused on AF_SMC sockets (TCP_ULP "tls", SOL_TLS: EOPNOTSUPP), before and after an SMC-R handshake
# SMOKE: yes
# PEER: yes
# TIMEOUT: 90
#
# Asserts: setsockopt(SOL_TCP, TCP_ULP, "tls"), setsockopt(SOL_TLS, TLS_TX)
# and getsockopt(SOL_TLS, TLS_TX) fail with EOPNOTSUPP (getsockopt(TCP_ULP)
# answers as TCP does: no ULP) on an AF_SMC socket
# before connect, on a listener, and on both ends of a connection that runs
# over SMC-R (diag mode smcr); a byte then still goes each way. kTLS hooks
# TCP's data path, which SMC-R data never passes: a socket that took the
# ULP would send plaintext over RoCE while the application believes it
# encrypts.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"

st_probe_pair no-tls "$ST_PORT" "${ST_EXPECT_SMC_PEER[@]}"
