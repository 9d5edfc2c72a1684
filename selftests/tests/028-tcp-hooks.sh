#!/bin/bash
# DESC: options that hook TCP's data path: repair and zerocopy receive refused; socket filters and MD5 keys keep a connection on TCP, refused over SMC-R
# SMOKE: no
# PEER: yes
# TIMEOUT: 90
#
# smctest probe tcp-hooks (client on a, server on b). Asserts:
#  - TCP_REPAIR and SO_ZEROCOPY (set), TCP_REPAIR_WINDOW and
#    TCP_ZEROCOPY_RECEIVE (get) fail with EOPNOTSUPP on an AF_SMC socket
#    before connect, on a listener and on connected sockets (they would act
#    on the clcsock, not on the connection); so does TCP_FASTOPEN_CONNECT;
#  - connection 1 runs over SMC-R (where the VMs have RoCE): SO_ATTACH_FILTER,
#    TCP_MD5SIG and IP_MINTTL fail with EOPNOTSUPP on both ends (SMC-R data
#    would bypass them), recv(MSG_ERRQUEUE) gives EAGAIN and leaves the
#    stream's byte in place; after a fallback TCP takes the filter;
#  - connection 2, a socket filter attached before connect: the client
#    declines with OPTUNSUPP, both ends fall back (server: PEERDECL with
#    that diagnosis), a byte goes each way;
#  - connection 4, a filter on the listener: the server declines
#    (OPTUNSUPP; client: PEERDECL);
#  - connection 3, TCP MD5 keys on the listener and the client (kernels
#    with TCP_MD5SIG): the client declines, as for connection 2.
# Before the fix TCP_REPAIR on the listener gave EPERM (TCP's answer) and
# the filter and key were taken over SMC-R.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
[[ $SMCR_KERNEL != 6.1 ]] || st_skip "6.1 has no SOCK_CUSTOM_SOCKOPT: SOL_SOCKET options never reach smcr"
st_probe_pair tcp-hooks "$ST_PORT" "${ST_EXPECT_SMC_PEER[@]}"
