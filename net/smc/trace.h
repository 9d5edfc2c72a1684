/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: tracepoints (tracefs events/smcr/): the end of a handshake,
 * fallbacks with their reason, link state changes.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM smcr

#if !defined(_SMCR_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SMCR_TRACE_H

#include <linux/tracepoint.h>

/* enum smc_link_state of core.h */
#define smcr_show_link_state(s)					\
	__print_symbolic(s, { 0, "UNUSED" }, { 1, "INACTIVE" },	\
			 { 2, "ACTIVATING" }, { 3, "ACTIVE" })

TRACE_EVENT(smcr_hs_done,
	    TP_PROTO(u16 sport, u16 dport, bool server, bool smcr, u32 reason,
		     u32 peer_diag),
	    TP_ARGS(sport, dport, server, smcr, reason, peer_diag),
	    TP_STRUCT__entry(__field(u16, sport)
			     __field(u16, dport)
			     __field(bool, server)
			     __field(bool, smcr)
			     __field(u32, reason)
			     __field(u32, peer_diag)),
	    TP_fast_assign(__entry->sport = sport;
			   __entry->dport = dport;
			   __entry->server = server;
			   __entry->smcr = smcr;
			   __entry->reason = reason;
			   __entry->peer_diag = peer_diag;),
	    TP_printk("sport=%u dport=%u role=%s mode=%s reason=0x%08x peer_diag=0x%08x",
		      __entry->sport, __entry->dport,
		      __entry->server ? "server" : "client",
		      __entry->smcr ? "smcr" : "fallback", __entry->reason,
		      __entry->peer_diag)
);

TRACE_EVENT(smcr_fallback,
	    TP_PROTO(u16 sport, u16 dport, bool server, u32 reason,
		     u32 peer_diag),
	    TP_ARGS(sport, dport, server, reason, peer_diag),
	    TP_STRUCT__entry(__field(u16, sport)
			     __field(u16, dport)
			     __field(bool, server)
			     __field(u32, reason)
			     __field(u32, peer_diag)),
	    TP_fast_assign(__entry->sport = sport;
			   __entry->dport = dport;
			   __entry->server = server;
			   __entry->reason = reason;
			   __entry->peer_diag = peer_diag;),
	    TP_printk("sport=%u dport=%u role=%s reason=0x%08x peer_diag=0x%08x",
		      __entry->sport, __entry->dport,
		      __entry->server ? "server" : "client", __entry->reason,
		      __entry->peer_diag)
);

TRACE_EVENT(smcr_link_state,
	    TP_PROTO(u32 lgr_id, u8 link_id, bool server, int state),
	    TP_ARGS(lgr_id, link_id, server, state),
	    TP_STRUCT__entry(__field(u32, lgr_id)
			     __field(u8, link_id)
			     __field(bool, server)
			     __field(int, state)),
	    TP_fast_assign(__entry->lgr_id = lgr_id;
			   __entry->link_id = link_id;
			   __entry->server = server;
			   __entry->state = state;),
	    TP_printk("lgr=%u link=%u role=%s state=%s", __entry->lgr_id,
		      __entry->link_id, __entry->server ? "server" : "client",
		      smcr_show_link_state(__entry->state))
);

#endif /* _SMCR_TRACE_H */

/* this part must be outside the include guard */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
