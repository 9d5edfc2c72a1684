/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the SMC-R connection close state machine (RFC 7609, 4.8,
 * Figures 22 and 23) as a transition table. Pure data and lookups: the
 * data path feeds events in and carries out the actions that come back.
 */
#ifndef _SMCR_CLOSE_SM_H
#define _SMCR_CLOSE_SM_H

#include <linux/types.h>

/**
 * enum smc_close_state - where a connection is in closing
 * @SMC_CLOSE_CLOSED: RMBE not in use (Figure 22, state 1)
 * @SMC_CLOSE_ACTIVE: established, data flows both ways
 * @SMC_CLOSE_PEER_CLOSE_WAIT1: active close; we sent C, the peer nothing
 * @SMC_CLOSE_PEER_CLOSE_WAIT2: active close; we sent C, the peer sent D
 * @SMC_CLOSE_PEER_CLOSE_WAIT1_WR: PeerCloseWait1 after shutdown(SHUT_WR):
 *	we sent D only, the peer nothing
 * @SMC_CLOSE_PEER_CLOSE_WAIT2_WR: PeerCloseWait2 after shutdown(SHUT_WR):
 *	we sent D only, the peer sent D
 * @SMC_CLOSE_APP_FIN_CLOSE_WAIT: active close; we sent D only, the peer
 *	sent C; waiting for the application's close()
 * @SMC_CLOSE_APP_CLOSE_WAIT1: passive close; the peer sent D, we nothing
 * @SMC_CLOSE_APP_CLOSE_WAIT1_PC: AppCloseWait1 after the peer sent C
 * @SMC_CLOSE_APP_CLOSE_WAIT2: passive close; the peer sent D, we sent D
 * @SMC_CLOSE_APP_CLOSE_WAIT2_PC: AppCloseWait2 after the peer sent C
 * @SMC_CLOSE_PEER_FIN_CLOSE_WAIT: passive close; we sent C, the peer D
 *	only; waiting for its C
 * @SMC_CLOSE_PEER_ABORT_WAIT: we sent A, waiting for the peer's A
 *	(Figure 23, active abort)
 * @SMC_CLOSE_PROCESS_ABORT: the peer sent A, our A is being sent
 *	(Figure 23, passive abort)
 * @SMC_CLOSE_NR_STATES: number of states
 *
 * The RFC's states are path based and also depend on what each side has
 * sent; the _WR and _PC variants make that explicit, so the table needs
 * no further inputs. smc_close_sm_sk_state() maps every state to the RFC's
 * (and Linux's) state for sock_diag. D, C and A are the connection state
 * flags of A.4: sending done, PeerConnectionClosed, abnormal close.
 */
enum smc_close_state {
	SMC_CLOSE_CLOSED,
	SMC_CLOSE_ACTIVE,
	SMC_CLOSE_PEER_CLOSE_WAIT1,
	SMC_CLOSE_PEER_CLOSE_WAIT2,
	SMC_CLOSE_PEER_CLOSE_WAIT1_WR,
	SMC_CLOSE_PEER_CLOSE_WAIT2_WR,
	SMC_CLOSE_APP_FIN_CLOSE_WAIT,
	SMC_CLOSE_APP_CLOSE_WAIT1,
	SMC_CLOSE_APP_CLOSE_WAIT1_PC,
	SMC_CLOSE_APP_CLOSE_WAIT2,
	SMC_CLOSE_APP_CLOSE_WAIT2_PC,
	SMC_CLOSE_PEER_FIN_CLOSE_WAIT,
	SMC_CLOSE_PEER_ABORT_WAIT,
	SMC_CLOSE_PROCESS_ABORT,
	SMC_CLOSE_NR_STATES
};

/**
 * enum smc_close_event - what can happen to a connection
 * @SMC_CLOSE_EV_ESTABLISHED: rendezvous complete (Figure 22, 2)
 * @SMC_CLOSE_EV_SHUT_WR: the application called shutdown(SHUT_WR)
 * @SMC_CLOSE_EV_CLOSE: close() with no unread data in the RMBE
 *	(shutdown(SHUT_RDWR) is SHUT_WR's event: the socket stays the
 *	application's)
 * @SMC_CLOSE_EV_ABORT: the local side resets the connection: a TCP RST
 *	(sent, or received before any A from the peer), close() with unread
 *	data (4.8.1, 3A), a close with pending writes after the peer's C
 *	(4A), SO_LINGER 0, a protocol error
 * @SMC_CLOSE_EV_PEER_DONE_WRITING: a CDC message with D, without C or A
 * @SMC_CLOSE_EV_PEER_CLOSED: a CDC message with C, without A
 * @SMC_CLOSE_EV_PEER_ABORT: a CDC message with A
 * @SMC_CLOSE_EV_ABORT_SENT: our CDC message with A is posted, or could not
 *	be (the link is gone); the connection's end then waits for its
 *	completion (FREE_RMBE)
 * @SMC_CLOSE_EV_TIMEOUT: the close timer expired
 * @SMC_CLOSE_EV_TIMEOUT_BLOCKED: the close timer expired while the peer's
 *	last message said it waits for room in our RMBE
 * @SMC_CLOSE_EV_RDMA_LOST: no more RDMA with the peer for this connection:
 *	the link group has no usable link left (4.8.3), or the peer named the
 *	RMBE this connection writes into for a new connection (4.4.2: it
 *	reused it, so it is done with this one)
 * @SMC_CLOSE_EV_PEER_ALIVE: a CDC message of the peer's that carries no
 *	new D, C or A: it is still there. Restarts the close timer after
 *	shutdown(SHUT_WR), while the peer may go on sending.
 * @SMC_CLOSE_NR_EVENTS: number of events
 *
 * The connection flags are sticky in Linux's CDC messages (a later
 * consumer cursor update still carries D); the table ignores a repeated D.
 */
enum smc_close_event {
	SMC_CLOSE_EV_ESTABLISHED,
	SMC_CLOSE_EV_SHUT_WR,
	SMC_CLOSE_EV_CLOSE,
	SMC_CLOSE_EV_ABORT,
	SMC_CLOSE_EV_PEER_DONE_WRITING,
	SMC_CLOSE_EV_PEER_CLOSED,
	SMC_CLOSE_EV_PEER_ABORT,
	SMC_CLOSE_EV_ABORT_SENT,
	SMC_CLOSE_EV_TIMEOUT,
	SMC_CLOSE_EV_TIMEOUT_BLOCKED,
	SMC_CLOSE_EV_RDMA_LOST,
	SMC_CLOSE_EV_PEER_ALIVE,
	SMC_CLOSE_NR_EVENTS
};

/*
 * Actions of a transition, in this order when several are set:
 * NOTIFY_RESET: fail pending and later socket calls (ECONNRESET), purge
 *	unread and unsent data, stop RDMA writes to the peer (first, so an
 *	A sent with it carries the purged cursors);
 * SEND_*: set the flag in the connection's CDC control block and send a
 *	CDC message once all data the application wrote before has been
 *	RDMA-written (the RFC's "pending close", 4.8.1, 3A);
 * NOTIFY_EOF: wake readers, the peer sends no more data (reads return 0
 *	after the RMBE is drained);
 * RESET_TCP: reset the TCP connection (RST on the clcsock);
 * START_TIMER/STOP_TIMER: (re)start or stop the close timer (4.8.1 and
 *	Figure 23, 1B);
 * FREE_RMBE: both sides are done with both RMBEs, the connection is
 *	closed: the RMBE can be reused and the alert token freed once no
 *	CDC send of the connection is outstanding.
 */
#define SMC_CLOSE_ACT_SEND_D		0x0001
#define SMC_CLOSE_ACT_SEND_C		0x0002
#define SMC_CLOSE_ACT_SEND_A		0x0004
#define SMC_CLOSE_ACT_NOTIFY_EOF	0x0008
#define SMC_CLOSE_ACT_NOTIFY_RESET	0x0010
#define SMC_CLOSE_ACT_RESET_TCP		0x0020
#define SMC_CLOSE_ACT_START_TIMER	0x0040
#define SMC_CLOSE_ACT_STOP_TIMER	0x0080
#define SMC_CLOSE_ACT_FREE_RMBE		0x0100

/**
 * struct smc_close_step - the outcome of one event
 * @next: the new state (the old one if nothing changes)
 * @actions: SMC_CLOSE_ACT_* bits to carry out
 * @invalid: the event cannot happen in this state if the peer follows the
 *	protocol (a message after the peer's C or A, a second rendezvous):
 *	nothing changes, the caller may count it
 */
struct smc_close_step {
	enum smc_close_state	next;
	u16			actions;
	bool			invalid;
};

struct smc_close_step smc_close_sm_next(enum smc_close_state state,
					enum smc_close_event event);
bool smc_close_sm_cdc_event(u8 conn_flags, enum smc_close_event *event);
bool smc_close_sm_timer_state(enum smc_close_state state);
int smc_close_sm_sk_state(enum smc_close_state state);
const char *smc_close_sm_state_name(enum smc_close_state state);

#endif /* _SMCR_CLOSE_SM_H */
