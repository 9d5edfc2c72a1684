/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: CLC message encoding and validation. Pure functions on buffers:
 * no sockets, no ib_core, so the KUnit module links them alone.
 */
#ifndef _SMCR_CLC_H
#define _SMCR_CLC_H

#include <smcr/clc_wire.h>

/**
 * struct smc_clc_decline_info - decoded content of a Decline message
 * @peer_id: sender's peer ID
 * @diagnosis: sender's reason (SMC_CLC_DECL_*)
 * @version: CLC version from the header
 * @out_of_sync: the S-bit: the sender's link group is out of sync
 */
struct smc_clc_decline_info {
	u8	peer_id[SMC_PEER_ID_LEN];
	u32	diagnosis;
	u8	version;
	bool	out_of_sync;
};

int smc_clc_hdr_check(const struct smc_clc_hdr *hdr);
int smc_clc_trailer_check(const void *msg, size_t len);
size_t smc_clc_decline_build(struct smc_clc_decline *dcl,
			     const u8 peer_id[SMC_PEER_ID_LEN], u32 diagnosis,
			     bool out_of_sync);
int smc_clc_decline_parse(const void *msg, size_t len,
			  struct smc_clc_decline_info *info);

#endif /* _SMCR_CLC_H */
