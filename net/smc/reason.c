// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: human-readable names of fallback reasons, for logs and tracing.
 */
#include <linux/kernel.h>
#include <linux/smcr.h>
#include <smcr/reason.h>

static const struct {
	u32 code;
	const char *name;
} smc_reasons[] = {
	{ SMC_CLC_DECL_MEM,		"insufficient memory" },
	{ SMC_CLC_DECL_TIMEOUT_CL,	"timeout waiting for CONFIRM LINK" },
	{ SMC_CLC_DECL_TIMEOUT_AL,	"timeout waiting for ADD LINK" },
	{ SMC_CLC_DECL_CNFERR,		"configuration error" },
	{ SMC_CLC_DECL_PEERNOSMC,	"peer did not offer SMC" },
	{ SMC_CLC_DECL_IPSEC,		"IPsec in use" },
	{ SMC_CLC_DECL_NOSMCDEV,	"no SMC device" },
	{ SMC_CLC_DECL_NOSMCRDEV,	"no usable RoCE device" },
	{ SMC_CLC_DECL_NOV2EXT,		"peer sent no CLC v2 extension" },
	{ SMC_CLC_DECL_NOUEID,		"no common user EID" },
	{ SMC_CLC_DECL_RELEASEERR,	"SMC release negotiation failed" },
	{ SMC_CLC_DECL_MAXCONNERR,	"max connections negotiation failed" },
	{ SMC_CLC_DECL_MAXLINKERR,	"max links negotiation failed" },
	{ SMC_CLC_DECL_MODEUNSUPP,	"no common SMC mode" },
	{ SMC_CLC_DECL_RMBE_EC,		"peer uses RMBE eye catchers" },
	{ SMC_CLC_DECL_OPTUNSUPP,	"socket option not supported" },
	{ SMC_CLC_DECL_DIFFPREFIX,	"IP subnet or prefix mismatch" },
	{ SMC_CLC_DECL_GETVLANERR,	"VLAN of IP device unknown" },
	{ SMC_CLC_DECL_NOACTLINK,	"no active link in link group" },
	{ SMC_CLC_DECL_NOSRVLINK,	"server link not found" },
	{ SMC_CLC_DECL_VERSMISMAT,	"SMC version mismatch" },
	{ SMC_CLC_DECL_NOROUTE,		"no route to the peer's RoCE GID" },
	{ SMC_CLC_DECL_NOINDIRECT,	"peer's direct/indirect route claim wrong" },
	{ SMC_CLC_DECL_SYNCERR,		"CLC synchronization error" },
	{ SMC_CLC_DECL_PEERDECL,	"peer declined" },
	{ SMC_CLC_DECL_INTERR,		"internal error" },
	{ SMC_CLC_DECL_ERR_RTOK,	"remote token handling failed" },
	{ SMC_CLC_DECL_ERR_RDYLNK,	"link not ready" },
	{ SMC_CLC_DECL_ERR_REGBUF,	"buffer registration failed" },
};

/**
 * smc_reason_name() - name a fallback reason
 * @code: an SMC_CLC_DECL_* code
 *
 * Return: a static string; "none" for 0, "unknown" for codes not known.
 */
const char *smc_reason_name(u32 code)
{
	size_t i;

	if (!code)
		return "none";
	for (i = 0; i < ARRAY_SIZE(smc_reasons); i++)
		if (smc_reasons[i].code == code)
			return smc_reasons[i].name;
	return "unknown";
}
