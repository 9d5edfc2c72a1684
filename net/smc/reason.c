// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: human-readable names of fallback reasons, for logs and tracing,
 * from the list in <linux/smcr_reasons.h>.
 */
#include <linux/kernel.h>
#include <linux/smcr.h>
#include <smcr/reason.h>

static const struct {
	u32 code;
	const char *name;
} smc_reasons[] = {
#define SMC_CLC_DECL_REASON(name, text) { SMC_CLC_DECL_##name, text },
#include <linux/smcr_reasons.h>
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
