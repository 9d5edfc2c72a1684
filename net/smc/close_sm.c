// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the close state machine (RFC 7609, 4.8), as a table.
 *
 * Normal close follows Figure 22: the side that closes first (active)
 * sends D on shutdown(SHUT_WR) or C on close(), then waits for the peer;
 * the other side (passive) waits for its application. Abnormal close
 * follows Figure 23: from any state before we sent C, a local reset sends
 * A and waits for the peer's A (active abort); an A from the peer is
 * answered with our A (passive abort).
 *
 * Choices the figures leave open, all from the meaning of the flags
 * (A.4: after C or A the sender sends no further control message):
 *
 * - Once we sent C, a local reset sends nothing: the peer's C or A, or the
 *   close timer, ends the connection.
 * - Once the peer sent C, a local reset sends A and closes at once: no A
 *   will come back, so there is nothing to wait for. An A received after
 *   we sent C closes at once too, without answering.
 * - After the peer's C or A, any further peer event is invalid; in
 *   PeerAbortWait, D and C still in flight are ignored (Figure 23, 1A).
 * - The close timer runs in every PeerCloseWait state, as 4.8.1 asks,
 *   and in PeerFinCloseWait and PeerAbortWait. After shutdown(SHUT_WR)
 *   the peer may go on sending for as long as it likes: every CDC message
 *   of its restarts the timer, and so does its expiry while the peer
 *   waits for room in our RMBE (the wait is ours then): the timer ends
 *   only a peer gone silent. Its expiry there is an active abort (we may
 *   still send A); once we sent C it resets TCP and frees the RMBE
 *   without a word (4.8.1, end).
 * - An abort of the SMC-R connection, ours or the peer's, resets the TCP
 *   connection too (4.8.2).
 * - A stale timer expiry or local call where nothing is left to do is
 *   ignored.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <smcr/cdc_wire.h>
#include <smcr/close_sm.h>

/* sk_state numbers of Linux's SMC (and of smcr) for sock_diag */
#define SMC_CLOSE_SK_ACTIVE		1
#define SMC_CLOSE_SK_CLOSED		7
#define SMC_CLOSE_SK_PEERCLOSEWAIT1	20
#define SMC_CLOSE_SK_PEERCLOSEWAIT2	21
#define SMC_CLOSE_SK_APPCLOSEWAIT1	22
#define SMC_CLOSE_SK_APPCLOSEWAIT2	23
#define SMC_CLOSE_SK_APPFINCLOSEWAIT	24
#define SMC_CLOSE_SK_PEERFINCLOSEWAIT	25
#define SMC_CLOSE_SK_PEERABORTWAIT	26
#define SMC_CLOSE_SK_PROCESSABORT	27

/* A table entry; a zero entry means "ignored": same state, no action */
struct smc_close_entry {
	u8	next1;		/* next state + 1; 0: unchanged */
	u8	invalid;
	u16	actions;
};

#define GO(state, act)	{ .next1 = (state) + 1, .actions = (act) }
#define BAD		{ .invalid = 1 }

#define SEND_D		SMC_CLOSE_ACT_SEND_D
#define SEND_C		SMC_CLOSE_ACT_SEND_C
#define SEND_A		SMC_CLOSE_ACT_SEND_A
#define EOF		SMC_CLOSE_ACT_NOTIFY_EOF
#define RESET		SMC_CLOSE_ACT_NOTIFY_RESET
#define RST		SMC_CLOSE_ACT_RESET_TCP
#define START		SMC_CLOSE_ACT_START_TIMER
#define STOP		SMC_CLOSE_ACT_STOP_TIMER
#define FREE		SMC_CLOSE_ACT_FREE_RMBE

/* Active abort before we sent C: Figure 23, 1A */
#define ACTIVE_ABORT	GO(SMC_CLOSE_PEER_ABORT_WAIT, \
			   SEND_A | RESET | RST | START)
/* Passive abort: Figure 23, 2A and 2B */
#define PASSIVE_ABORT	GO(SMC_CLOSE_PROCESS_ABORT, RESET | SEND_A | RST)
#define PASSIVE_ABORT_TIMER \
			GO(SMC_CLOSE_PROCESS_ABORT, RESET | SEND_A | RST | STOP)
/* The peer's A after our C: it is done, so are we */
#define ABORTED		GO(SMC_CLOSE_CLOSED, RESET | RST | STOP | FREE)
/* Local reset after the peer's C: nothing will answer our A */
#define ABORT_CLOSED	GO(SMC_CLOSE_CLOSED, SEND_A | RESET | RST | FREE)
/* No RDMA any more (4.8.3): reset TCP, fail the socket, free */
#define LOST		GO(SMC_CLOSE_CLOSED, RESET | RST | FREE)
#define LOST_TIMER	GO(SMC_CLOSE_CLOSED, RESET | RST | STOP | FREE)
/* Close timer while waiting for the peer after our C (4.8.1) */
#define TIMED_OUT	GO(SMC_CLOSE_CLOSED, RESET | RST | FREE)
/* After our D only: the peer is alive, wait longer */
#define RESTART(state)		GO(state, START)

/* The peer's C or A ended the connection: no more peer events */
#define PEER_DONE					\
	[SMC_CLOSE_EV_PEER_DONE_WRITING]	= BAD,	\
	[SMC_CLOSE_EV_PEER_CLOSED]		= BAD,	\
	[SMC_CLOSE_EV_PEER_ABORT]		= BAD

static const struct smc_close_entry
smc_close_table[SMC_CLOSE_NR_STATES][SMC_CLOSE_NR_EVENTS] = {
	[SMC_CLOSE_CLOSED] = {
		[SMC_CLOSE_EV_ESTABLISHED] = GO(SMC_CLOSE_ACTIVE, 0),
		PEER_DONE,
	},
	[SMC_CLOSE_ACTIVE] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_SHUT_WR] =
			GO(SMC_CLOSE_PEER_CLOSE_WAIT1_WR, SEND_D | START),
		[SMC_CLOSE_EV_CLOSE] =
			GO(SMC_CLOSE_PEER_CLOSE_WAIT1, SEND_C | START),
		[SMC_CLOSE_EV_ABORT] = ACTIVE_ABORT,
		[SMC_CLOSE_EV_PEER_DONE_WRITING] =
			GO(SMC_CLOSE_APP_CLOSE_WAIT1, EOF),
		[SMC_CLOSE_EV_PEER_CLOSED] =
			GO(SMC_CLOSE_APP_CLOSE_WAIT1_PC, EOF),
		[SMC_CLOSE_EV_PEER_ABORT] = PASSIVE_ABORT,
		[SMC_CLOSE_EV_ABORT_SENT] = BAD,
		[SMC_CLOSE_EV_RDMA_LOST] = LOST,
	},
	[SMC_CLOSE_PEER_CLOSE_WAIT1] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_PEER_DONE_WRITING] =
			GO(SMC_CLOSE_PEER_CLOSE_WAIT2, EOF),
		[SMC_CLOSE_EV_PEER_CLOSED] =
			GO(SMC_CLOSE_CLOSED, EOF | STOP | FREE),
		[SMC_CLOSE_EV_PEER_ABORT] = ABORTED,
		[SMC_CLOSE_EV_ABORT_SENT] = BAD,
		[SMC_CLOSE_EV_TIMEOUT] = TIMED_OUT,
		[SMC_CLOSE_EV_TIMEOUT_BLOCKED] = TIMED_OUT,
		[SMC_CLOSE_EV_RDMA_LOST] = LOST_TIMER,
	},
	[SMC_CLOSE_PEER_CLOSE_WAIT2] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_PEER_CLOSED] = GO(SMC_CLOSE_CLOSED, STOP | FREE),
		[SMC_CLOSE_EV_PEER_ABORT] = ABORTED,
		[SMC_CLOSE_EV_ABORT_SENT] = BAD,
		[SMC_CLOSE_EV_TIMEOUT] = TIMED_OUT,
		[SMC_CLOSE_EV_TIMEOUT_BLOCKED] = TIMED_OUT,
		[SMC_CLOSE_EV_RDMA_LOST] = LOST_TIMER,
	},
	[SMC_CLOSE_PEER_CLOSE_WAIT1_WR] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_CLOSE] =
			GO(SMC_CLOSE_PEER_CLOSE_WAIT1, SEND_C | START),
		[SMC_CLOSE_EV_ABORT] = ACTIVE_ABORT,
		[SMC_CLOSE_EV_PEER_DONE_WRITING] =
			GO(SMC_CLOSE_PEER_CLOSE_WAIT2_WR, EOF | START),
		[SMC_CLOSE_EV_PEER_CLOSED] =
			GO(SMC_CLOSE_APP_FIN_CLOSE_WAIT, EOF | STOP),
		[SMC_CLOSE_EV_PEER_ABORT] = PASSIVE_ABORT_TIMER,
		[SMC_CLOSE_EV_ABORT_SENT] = BAD,
		[SMC_CLOSE_EV_TIMEOUT] = ACTIVE_ABORT,
		[SMC_CLOSE_EV_RDMA_LOST] = LOST_TIMER,
		[SMC_CLOSE_EV_PEER_ALIVE] =
			RESTART(SMC_CLOSE_PEER_CLOSE_WAIT1_WR),
		[SMC_CLOSE_EV_TIMEOUT_BLOCKED] =
			RESTART(SMC_CLOSE_PEER_CLOSE_WAIT1_WR),
	},
	[SMC_CLOSE_PEER_CLOSE_WAIT2_WR] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_CLOSE] =
			GO(SMC_CLOSE_PEER_CLOSE_WAIT2, SEND_C | START),
		[SMC_CLOSE_EV_ABORT] = ACTIVE_ABORT,
		[SMC_CLOSE_EV_PEER_CLOSED] =
			GO(SMC_CLOSE_APP_FIN_CLOSE_WAIT, STOP),
		[SMC_CLOSE_EV_PEER_ABORT] = PASSIVE_ABORT_TIMER,
		[SMC_CLOSE_EV_ABORT_SENT] = BAD,
		[SMC_CLOSE_EV_TIMEOUT] = ACTIVE_ABORT,
		[SMC_CLOSE_EV_RDMA_LOST] = LOST_TIMER,
		[SMC_CLOSE_EV_PEER_ALIVE] =
			RESTART(SMC_CLOSE_PEER_CLOSE_WAIT2_WR),
		[SMC_CLOSE_EV_TIMEOUT_BLOCKED] =
			RESTART(SMC_CLOSE_PEER_CLOSE_WAIT2_WR),
	},
	[SMC_CLOSE_APP_FIN_CLOSE_WAIT] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_CLOSE] = GO(SMC_CLOSE_CLOSED, SEND_C | FREE),
		[SMC_CLOSE_EV_ABORT] = ABORT_CLOSED,
		PEER_DONE,
		[SMC_CLOSE_EV_ABORT_SENT] = BAD,
		[SMC_CLOSE_EV_RDMA_LOST] = LOST,
	},
	[SMC_CLOSE_APP_CLOSE_WAIT1] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_SHUT_WR] = GO(SMC_CLOSE_APP_CLOSE_WAIT2, SEND_D),
		[SMC_CLOSE_EV_CLOSE] =
			GO(SMC_CLOSE_PEER_FIN_CLOSE_WAIT, SEND_C | START),
		[SMC_CLOSE_EV_ABORT] = ACTIVE_ABORT,
		[SMC_CLOSE_EV_PEER_CLOSED] =
			GO(SMC_CLOSE_APP_CLOSE_WAIT1_PC, 0),
		[SMC_CLOSE_EV_PEER_ABORT] = PASSIVE_ABORT,
		[SMC_CLOSE_EV_ABORT_SENT] = BAD,
		[SMC_CLOSE_EV_RDMA_LOST] = LOST,
	},
	[SMC_CLOSE_APP_CLOSE_WAIT1_PC] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_SHUT_WR] =
			GO(SMC_CLOSE_APP_CLOSE_WAIT2_PC, SEND_D),
		[SMC_CLOSE_EV_CLOSE] = GO(SMC_CLOSE_CLOSED, SEND_C | FREE),
		[SMC_CLOSE_EV_ABORT] = ABORT_CLOSED,
		PEER_DONE,
		[SMC_CLOSE_EV_ABORT_SENT] = BAD,
		[SMC_CLOSE_EV_RDMA_LOST] = LOST,
	},
	[SMC_CLOSE_APP_CLOSE_WAIT2] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_CLOSE] =
			GO(SMC_CLOSE_PEER_FIN_CLOSE_WAIT, SEND_C | START),
		[SMC_CLOSE_EV_ABORT] = ACTIVE_ABORT,
		[SMC_CLOSE_EV_PEER_CLOSED] =
			GO(SMC_CLOSE_APP_CLOSE_WAIT2_PC, 0),
		[SMC_CLOSE_EV_PEER_ABORT] = PASSIVE_ABORT,
		[SMC_CLOSE_EV_ABORT_SENT] = BAD,
		[SMC_CLOSE_EV_RDMA_LOST] = LOST,
	},
	[SMC_CLOSE_APP_CLOSE_WAIT2_PC] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_CLOSE] = GO(SMC_CLOSE_CLOSED, SEND_C | FREE),
		[SMC_CLOSE_EV_ABORT] = ABORT_CLOSED,
		PEER_DONE,
		[SMC_CLOSE_EV_ABORT_SENT] = BAD,
		[SMC_CLOSE_EV_RDMA_LOST] = LOST,
	},
	[SMC_CLOSE_PEER_FIN_CLOSE_WAIT] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_PEER_CLOSED] = GO(SMC_CLOSE_CLOSED, STOP | FREE),
		[SMC_CLOSE_EV_PEER_ABORT] = ABORTED,
		[SMC_CLOSE_EV_ABORT_SENT] = BAD,
		[SMC_CLOSE_EV_TIMEOUT] = TIMED_OUT,
		[SMC_CLOSE_EV_TIMEOUT_BLOCKED] = TIMED_OUT,
		[SMC_CLOSE_EV_RDMA_LOST] = LOST_TIMER,
	},
	[SMC_CLOSE_PEER_ABORT_WAIT] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		[SMC_CLOSE_EV_PEER_ABORT] = GO(SMC_CLOSE_CLOSED, STOP | FREE),
		[SMC_CLOSE_EV_TIMEOUT] = GO(SMC_CLOSE_CLOSED, FREE),
		[SMC_CLOSE_EV_TIMEOUT_BLOCKED] = GO(SMC_CLOSE_CLOSED, FREE),
		[SMC_CLOSE_EV_RDMA_LOST] = GO(SMC_CLOSE_CLOSED, STOP | FREE),
	},
	[SMC_CLOSE_PROCESS_ABORT] = {
		[SMC_CLOSE_EV_ESTABLISHED] = BAD,
		PEER_DONE,
		[SMC_CLOSE_EV_ABORT_SENT] = GO(SMC_CLOSE_CLOSED, FREE),
		[SMC_CLOSE_EV_RDMA_LOST] = GO(SMC_CLOSE_CLOSED, FREE),
	},
};

/* smcr_pure.c includes several sources: keep the short names local */
#undef PEER_DONE
#undef RESTART
#undef ABORTED
#undef PASSIVE_ABORT_TIMER
#undef TIMED_OUT
#undef LOST_TIMER
#undef LOST
#undef ABORT_CLOSED
#undef PASSIVE_ABORT
#undef ACTIVE_ABORT
#undef FREE
#undef STOP
#undef START
#undef RST
#undef RESET
#undef EOF
#undef SEND_A
#undef SEND_C
#undef SEND_D
#undef BAD
#undef GO

/**
 * smc_close_sm_next() - look up the transition for an event
 * @state: the current state
 * @event: what happened
 *
 * Out-of-range arguments are reported as invalid with no change.
 *
 * Return: the next state, the actions to carry out and whether the event
 * was invalid in @state.
 */
struct smc_close_step smc_close_sm_next(enum smc_close_state state,
					enum smc_close_event event)
{
	struct smc_close_step step = { .next = state };
	const struct smc_close_entry *e;

	if ((unsigned int)state >= SMC_CLOSE_NR_STATES ||
	    (unsigned int)event >= SMC_CLOSE_NR_EVENTS) {
		step.invalid = true;
		return step;
	}
	e = &smc_close_table[state][event];
	if (e->next1)
		step.next = e->next1 - 1;
	step.actions = e->actions;
	step.invalid = e->invalid;
	return step;
}

/**
 * smc_close_sm_cdc_event() - the close event a received CDC message carries
 * @conn_flags: connection state flags of the message (SMC_CDC_CONN_*)
 * @event: set to the event if there is one; A wins over C, C over D
 *
 * Return: true if the message carries D, C or A.
 */
bool smc_close_sm_cdc_event(u8 conn_flags, enum smc_close_event *event)
{
	if (conn_flags & SMC_CDC_CONN_ABORT)
		*event = SMC_CLOSE_EV_PEER_ABORT;
	else if (conn_flags & SMC_CDC_CONN_CLOSED)
		*event = SMC_CLOSE_EV_PEER_CLOSED;
	else if (conn_flags & SMC_CDC_CONN_DONE_WRITING)
		*event = SMC_CLOSE_EV_PEER_DONE_WRITING;
	else
		return false;
	return true;
}

/**
 * smc_close_sm_timer_state() - whether the close timer runs in a state
 * @state: a state
 *
 * Return: true in the states that wait for the peer after our D, C or A.
 */
bool smc_close_sm_timer_state(enum smc_close_state state)
{
	switch (state) {
	case SMC_CLOSE_PEER_CLOSE_WAIT1:
	case SMC_CLOSE_PEER_CLOSE_WAIT2:
	case SMC_CLOSE_PEER_CLOSE_WAIT1_WR:
	case SMC_CLOSE_PEER_CLOSE_WAIT2_WR:
	case SMC_CLOSE_PEER_FIN_CLOSE_WAIT:
	case SMC_CLOSE_PEER_ABORT_WAIT:
		return true;
	default:
		return false;
	}
}

static const u8 smc_close_sk_states[SMC_CLOSE_NR_STATES] = {
	[SMC_CLOSE_CLOSED]		= SMC_CLOSE_SK_CLOSED,
	[SMC_CLOSE_ACTIVE]		= SMC_CLOSE_SK_ACTIVE,
	[SMC_CLOSE_PEER_CLOSE_WAIT1]	= SMC_CLOSE_SK_PEERCLOSEWAIT1,
	[SMC_CLOSE_PEER_CLOSE_WAIT2]	= SMC_CLOSE_SK_PEERCLOSEWAIT2,
	[SMC_CLOSE_PEER_CLOSE_WAIT1_WR]	= SMC_CLOSE_SK_PEERCLOSEWAIT1,
	[SMC_CLOSE_PEER_CLOSE_WAIT2_WR]	= SMC_CLOSE_SK_PEERCLOSEWAIT2,
	[SMC_CLOSE_APP_FIN_CLOSE_WAIT]	= SMC_CLOSE_SK_APPFINCLOSEWAIT,
	[SMC_CLOSE_APP_CLOSE_WAIT1]	= SMC_CLOSE_SK_APPCLOSEWAIT1,
	[SMC_CLOSE_APP_CLOSE_WAIT1_PC]	= SMC_CLOSE_SK_APPCLOSEWAIT1,
	[SMC_CLOSE_APP_CLOSE_WAIT2]	= SMC_CLOSE_SK_APPCLOSEWAIT2,
	[SMC_CLOSE_APP_CLOSE_WAIT2_PC]	= SMC_CLOSE_SK_APPCLOSEWAIT2,
	[SMC_CLOSE_PEER_FIN_CLOSE_WAIT]	= SMC_CLOSE_SK_PEERFINCLOSEWAIT,
	[SMC_CLOSE_PEER_ABORT_WAIT]	= SMC_CLOSE_SK_PEERABORTWAIT,
	[SMC_CLOSE_PROCESS_ABORT]	= SMC_CLOSE_SK_PROCESSABORT,
};

/**
 * smc_close_sm_sk_state() - the sk_state value of a state, for sock_diag
 * @state: a state
 *
 * The numbers are Linux SMC's (SMC_PEERCLOSEWAIT1 = 20 ...); the _WR and
 * _PC variants report the RFC state they refine.
 *
 * Return: the sk_state value, or -EINVAL for an unknown state.
 */
int smc_close_sm_sk_state(enum smc_close_state state)
{
	if ((unsigned int)state >= SMC_CLOSE_NR_STATES)
		return -EINVAL;
	return smc_close_sk_states[state];
}

static const char * const smc_close_state_names[SMC_CLOSE_NR_STATES] = {
	[SMC_CLOSE_CLOSED]		= "Closed",
	[SMC_CLOSE_ACTIVE]		= "Active",
	[SMC_CLOSE_PEER_CLOSE_WAIT1]	= "PeerCloseWait1",
	[SMC_CLOSE_PEER_CLOSE_WAIT2]	= "PeerCloseWait2",
	[SMC_CLOSE_PEER_CLOSE_WAIT1_WR]	= "PeerCloseWait1(wr)",
	[SMC_CLOSE_PEER_CLOSE_WAIT2_WR]	= "PeerCloseWait2(wr)",
	[SMC_CLOSE_APP_FIN_CLOSE_WAIT]	= "AppFinCloseWait",
	[SMC_CLOSE_APP_CLOSE_WAIT1]	= "AppCloseWait1",
	[SMC_CLOSE_APP_CLOSE_WAIT1_PC]	= "AppCloseWait1(pc)",
	[SMC_CLOSE_APP_CLOSE_WAIT2]	= "AppCloseWait2",
	[SMC_CLOSE_APP_CLOSE_WAIT2_PC]	= "AppCloseWait2(pc)",
	[SMC_CLOSE_PEER_FIN_CLOSE_WAIT]	= "PeerFinCloseWait",
	[SMC_CLOSE_PEER_ABORT_WAIT]	= "PeerAbortWait",
	[SMC_CLOSE_PROCESS_ABORT]	= "ProcessAbort",
};

/**
 * smc_close_sm_state_name() - the RFC's name of a state
 * @state: a state
 *
 * Return: a static string; "(wr)" marks a state reached by
 * shutdown(SHUT_WR), "(pc)" one after the peer's C; "unknown" for an
 * unknown state.
 */
const char *smc_close_sm_state_name(enum smc_close_state state)
{
	if ((unsigned int)state >= SMC_CLOSE_NR_STATES)
		return "unknown";
	return smc_close_state_names[state];
}
