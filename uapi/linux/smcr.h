/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * smcr: socket-level constants for AF_SMC users.
 *
 * The numbers are those of Linux (AF_SMC, SMCPROTO_*, SOL_SMC) and of the
 * CLC Decline diagnosis codes that Linux reports as fallback reasons, so a
 * program written against either implementation sees the same values.
 */
#ifndef _UAPI_LINUX_SMCR_H
#define _UAPI_LINUX_SMCR_H

#ifndef AF_SMC
#define AF_SMC		43
#endif
#ifndef PF_SMC
#define PF_SMC		AF_SMC
#endif
#ifndef SOL_SMC
#define SOL_SMC		286
#endif

#define SMCPROTO_SMC	0	/* SMC-R over an IPv4 TCP connection */
#define SMCPROTO_SMC6	1	/* SMC-R over an IPv6 TCP connection */

/*
 * Fallback reasons (CLC Decline peer diagnosis codes). A socket that uses
 * TCP records one of these; sock_diag reports it in SMC_DIAG_FALLBACK.
 * <linux/smcr_reasons.h> lists them with their names and texts.
 */
#define SMC_CLC_DECL_MEM	0x01010000
#define SMC_CLC_DECL_TIMEOUT_CL	0x02010000
#define SMC_CLC_DECL_TIMEOUT_AL	0x02020000
#define SMC_CLC_DECL_CNFERR	0x03000000
#define SMC_CLC_DECL_PEERNOSMC	0x03010000
#define SMC_CLC_DECL_IPSEC	0x03020000
#define SMC_CLC_DECL_NOSMCDEV	0x03030000
#define SMC_CLC_DECL_NOSMCRDEV	0x03030002
#define SMC_CLC_DECL_NOV2EXT	0x03030004
#define SMC_CLC_DECL_NOUEID	0x03030008
#define SMC_CLC_DECL_RELEASEERR	0x03030009
#define SMC_CLC_DECL_MAXCONNERR	0x0303000a
#define SMC_CLC_DECL_MAXLINKERR	0x0303000b
#define SMC_CLC_DECL_MODEUNSUPP	0x03040000
#define SMC_CLC_DECL_RMBE_EC	0x03050000
#define SMC_CLC_DECL_OPTUNSUPP	0x03060000
#define SMC_CLC_DECL_DIFFPREFIX	0x03070000
#define SMC_CLC_DECL_GETVLANERR	0x03080000
#define SMC_CLC_DECL_NOACTLINK	0x030a0000
#define SMC_CLC_DECL_NOSRVLINK	0x030b0000
#define SMC_CLC_DECL_VERSMISMAT	0x030c0000
#define SMC_CLC_DECL_NOROUTE	0x030e0000
#define SMC_CLC_DECL_NOINDIRECT	0x030f0000
#define SMC_CLC_DECL_SYNCERR	0x04000000
#define SMC_CLC_DECL_PEERDECL	0x05000000
#define SMC_CLC_DECL_INTERR	0x09990000
#define SMC_CLC_DECL_ERR_RTOK	0x09990001
#define SMC_CLC_DECL_ERR_RDYLNK	0x09990002
#define SMC_CLC_DECL_ERR_REGBUF	0x09990003

#endif /* _UAPI_LINUX_SMCR_H */
