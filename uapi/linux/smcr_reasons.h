/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * smcr: the fallback reasons of <linux/smcr.h>, each with its text - the
 * one home of those texts. Every SMC_CLC_DECL_* code is one line
 *
 *	SMC_CLC_DECL_REASON(NAME, text)
 *
 * for SMC_CLC_DECL_NAME and a short description, in ascending order of
 * code. Define SMC_CLC_DECL_REASON(name, text), then include this file
 * where the list is to be; it undefines the macro again, so it can be
 * included more than once. The kernel's names for its log messages
 * (net/smc/reason.c) and the tools' descriptions (tools/common/reasons.cpp)
 * are made from it; Documentation/admin-guide.rst has a row for each code
 * (tools/testing/doc-tables.sh checks that).
 */
#ifndef SMC_CLC_DECL_REASON
#error "define SMC_CLC_DECL_REASON(name, text) before including linux/smcr_reasons.h"
#endif

SMC_CLC_DECL_REASON(MEM,	"insufficient memory")
SMC_CLC_DECL_REASON(TIMEOUT_CL,	"timeout waiting for CONFIRM LINK")
SMC_CLC_DECL_REASON(TIMEOUT_AL,	"timeout waiting for ADD LINK")
SMC_CLC_DECL_REASON(CNFERR,	"configuration error")
SMC_CLC_DECL_REASON(PEERNOSMC,	"peer did not offer SMC")
SMC_CLC_DECL_REASON(IPSEC,	"IPsec in use")
SMC_CLC_DECL_REASON(NOSMCDEV,	"no SMC device")
SMC_CLC_DECL_REASON(NOSMCRDEV,	"no usable RoCE device")
SMC_CLC_DECL_REASON(NOV2EXT,	"peer sent no CLC v2 extension")
SMC_CLC_DECL_REASON(NOUEID,	"no common user EID (SMC-R v2)")
SMC_CLC_DECL_REASON(RELEASEERR,	"SMC release negotiation failed")
SMC_CLC_DECL_REASON(MAXCONNERR,	"max connections negotiation failed")
SMC_CLC_DECL_REASON(MAXLINKERR,	"max links negotiation failed")
SMC_CLC_DECL_REASON(MODEUNSUPP,	"no common SMC mode")
SMC_CLC_DECL_REASON(RMBE_EC,	"peer uses an RMBE eye catcher")
SMC_CLC_DECL_REASON(OPTUNSUPP,	"socket option not supported")
SMC_CLC_DECL_REASON(DIFFPREFIX,	"IP subnet or prefix mismatch")
SMC_CLC_DECL_REASON(GETVLANERR,	"VLAN of the IP device unknown")
SMC_CLC_DECL_REASON(NOACTLINK,	"no active link in link group")
SMC_CLC_DECL_REASON(NOSRVLINK,	"server's link not found")
SMC_CLC_DECL_REASON(VERSMISMAT,	"SMC version mismatch")
SMC_CLC_DECL_REASON(NOROUTE,	"no route to the peer's RoCE GID (SMC-R v2)")
SMC_CLC_DECL_REASON(NOINDIRECT,	"peer's direct/indirect route claim is wrong")
SMC_CLC_DECL_REASON(SYNCERR,	"CLC synchronization error")
SMC_CLC_DECL_REASON(PEERDECL,	"peer sent a CLC Decline")
SMC_CLC_DECL_REASON(INTERR,	"internal error")
SMC_CLC_DECL_REASON(ERR_RTOK,	"remote token handling failed")
SMC_CLC_DECL_REASON(ERR_RDYLNK,	"link not ready")
SMC_CLC_DECL_REASON(ERR_REGBUF,	"buffer registration failed")

#undef SMC_CLC_DECL_REASON
