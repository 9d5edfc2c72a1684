#!/bin/bash
# DESC: EINTR on blocking recv, SO_RCVTIMEO -> EAGAIN
# SMOKE: no
# PEER: yes
# TIMEOUT: 60
#
# Asserts: a blocking recv on an idle AF_SMC socket is interrupted by SIGALRM
# (handler installed without SA_RESTART) and returns EINTR; with SO_RCVTIMEO =
# 500 ms (read back identically) recv fails with EAGAIN after about 500 ms.
source "$ST_DIR/lib.sh"
P=$ST_PORT

st_probe_pairs eintr
