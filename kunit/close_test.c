// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for net/smc/close_sm.c (suite smcr_close).
 *
 * close_table_all_pairs checks every state x event pair. The expectations
 * below are written from RFC 7609, 4.8 (Figure 22, transitions 1-4D, and
 * Figure 23, 1A-2B; cited per entry) and from A.4's meaning of the flags;
 * a pair not listed must leave the state alone with no action, and the
 * pairs listed as invalid are events the peer cannot send in that state.
 * The other cases walk every reachable (state, history) combination and
 * check protocol invariants that do not depend on the table's layout.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <smcr/cdc_wire.h>
#include <smcr/close_sm.h>

#define S(x)	SMC_CLOSE_##x
#define E(x)	SMC_CLOSE_EV_##x
#define A(x)	SMC_CLOSE_ACT_##x

struct close_expect {
	enum smc_close_state	state;
	enum smc_close_event	event;
	enum smc_close_state	next;
	u16			actions;
	bool			invalid;
};

/* abnormal close entries used by several states */
#define EXP_ACTIVE_ABORT(st) /* Figure 23, 1A */			\
	{ st, E(ABORT), S(PEER_ABORT_WAIT),				\
	  A(SEND_A) | A(NOTIFY_RESET) | A(RESET_TCP) | A(START_TIMER) }
#define EXP_PASSIVE_ABORT(st) /* Figure 23, 2A, 2B; TCP reset, 4.8.2 */ \
	{ st, E(PEER_ABORT), S(PROCESS_ABORT),				\
	  A(NOTIFY_RESET) | A(SEND_A) | A(RESET_TCP) }
#define EXP_PASSIVE_ABORT_TIMER(st)					\
	{ st, E(PEER_ABORT), S(PROCESS_ABORT),				\
	  A(NOTIFY_RESET) | A(SEND_A) | A(RESET_TCP) | A(STOP_TIMER) }
/* the peer's A after our C: nothing to answer, TCP is reset */
#define EXP_ABORTED(st)							\
	{ st, E(PEER_ABORT), S(CLOSED),					\
	  A(NOTIFY_RESET) | A(RESET_TCP) | A(STOP_TIMER) | A(FREE_RMBE) }
#define EXP_LOST(st) /* 4.8.3, loss of RoCE connectivity */		\
	{ st, E(RDMA_LOST), S(CLOSED),					\
	  A(NOTIFY_RESET) | A(RESET_TCP) | A(FREE_RMBE) }
#define EXP_LOST_TIMER(st)						\
	{ st, E(RDMA_LOST), S(CLOSED),					\
	  A(NOTIFY_RESET) | A(RESET_TCP) | A(STOP_TIMER) | A(FREE_RMBE) }
#define EXP_TIMEOUT(st) /* 4.8.1: timer, TCP reset, RMBE to the pool */ \
	{ st, E(TIMEOUT), S(CLOSED),					\
	  A(NOTIFY_RESET) | A(RESET_TCP) | A(FREE_RMBE) }
/* after our C a blocked peer is no excuse: its application must close */
#define EXP_TIMEOUT_BLOCKED(st)						\
	{ st, E(TIMEOUT_BLOCKED), S(CLOSED),				\
	  A(NOTIFY_RESET) | A(RESET_TCP) | A(FREE_RMBE) }
/* a local reset after the peer's C: A, and no reply to wait for */
#define EXP_ABORT_CLOSED(st)						\
	{ st, E(ABORT), S(CLOSED),					\
	  A(SEND_A) | A(NOTIFY_RESET) | A(RESET_TCP) | A(FREE_RMBE) }
/* invalid: the state stays */
#define SAME		SMC_CLOSE_NR_STATES
#define EXP_BAD(st, ev)	{ st, E(ev), SAME, 0, true }

static const struct close_expect close_expect[] = {
	/* Closed: 2, rendezvous done; no connection to get messages for */
	{ S(CLOSED), E(ESTABLISHED), S(ACTIVE), 0 },
	EXP_BAD(S(CLOSED), PEER_DONE_WRITING),
	EXP_BAD(S(CLOSED), PEER_CLOSED),
	EXP_BAD(S(CLOSED), PEER_ABORT),

	/* Active */
	EXP_BAD(S(ACTIVE), ESTABLISHED),
	/* 3A: shutdown(SHUT_WR) sends D, close() sends C */
	{ S(ACTIVE), E(SHUT_WR), S(PEER_CLOSE_WAIT1_WR),
	  A(SEND_D) | A(START_TIMER) },
	{ S(ACTIVE), E(CLOSE), S(PEER_CLOSE_WAIT1),
	  A(SEND_C) | A(START_TIMER) },
	EXP_ACTIVE_ABORT(S(ACTIVE)),
	/* 4A: wake readers, wait for the application */
	{ S(ACTIVE), E(PEER_DONE_WRITING), S(APP_CLOSE_WAIT1),
	  A(NOTIFY_EOF) },
	{ S(ACTIVE), E(PEER_CLOSED), S(APP_CLOSE_WAIT1_PC), A(NOTIFY_EOF) },
	EXP_PASSIVE_ABORT(S(ACTIVE)),
	EXP_BAD(S(ACTIVE), ABORT_SENT),
	EXP_LOST(S(ACTIVE)),

	/* PeerCloseWait1 after close(): we sent C */
	EXP_BAD(S(PEER_CLOSE_WAIT1), ESTABLISHED),
	/* 3B */
	{ S(PEER_CLOSE_WAIT1), E(PEER_DONE_WRITING), S(PEER_CLOSE_WAIT2),
	  A(NOTIFY_EOF) },
	/* 3C: local application closed already */
	{ S(PEER_CLOSE_WAIT1), E(PEER_CLOSED), S(CLOSED),
	  A(NOTIFY_EOF) | A(STOP_TIMER) | A(FREE_RMBE) },
	/* the peer is done; our C said we are */
	EXP_ABORTED(S(PEER_CLOSE_WAIT1)),
	EXP_BAD(S(PEER_CLOSE_WAIT1), ABORT_SENT),
	EXP_TIMEOUT(S(PEER_CLOSE_WAIT1)),
	EXP_TIMEOUT_BLOCKED(S(PEER_CLOSE_WAIT1)),
	EXP_LOST_TIMER(S(PEER_CLOSE_WAIT1)),

	/* PeerCloseWait2 after close() */
	EXP_BAD(S(PEER_CLOSE_WAIT2), ESTABLISHED),
	{ S(PEER_CLOSE_WAIT2), E(PEER_CLOSED), S(CLOSED),	/* 3C */
	  A(STOP_TIMER) | A(FREE_RMBE) },
	EXP_ABORTED(S(PEER_CLOSE_WAIT2)),
	EXP_BAD(S(PEER_CLOSE_WAIT2), ABORT_SENT),
	EXP_TIMEOUT(S(PEER_CLOSE_WAIT2)),
	EXP_TIMEOUT_BLOCKED(S(PEER_CLOSE_WAIT2)),
	EXP_LOST_TIMER(S(PEER_CLOSE_WAIT2)),

	/* PeerCloseWait1 after shutdown(SHUT_WR): we sent D */
	EXP_BAD(S(PEER_CLOSE_WAIT1_WR), ESTABLISHED),
	/* 3D: the application closes; send C */
	{ S(PEER_CLOSE_WAIT1_WR), E(CLOSE), S(PEER_CLOSE_WAIT1),
	  A(SEND_C) | A(START_TIMER) },
	EXP_ACTIVE_ABORT(S(PEER_CLOSE_WAIT1_WR)),
	{ S(PEER_CLOSE_WAIT1_WR), E(PEER_DONE_WRITING),		/* 3B */
	  S(PEER_CLOSE_WAIT2_WR), A(NOTIFY_EOF) | A(START_TIMER) },
	{ S(PEER_CLOSE_WAIT1_WR), E(PEER_CLOSED),		/* 3C, 3D */
	  S(APP_FIN_CLOSE_WAIT), A(NOTIFY_EOF) | A(STOP_TIMER) },
	EXP_PASSIVE_ABORT_TIMER(S(PEER_CLOSE_WAIT1_WR)),
	EXP_BAD(S(PEER_CLOSE_WAIT1_WR), ABORT_SENT),
	/* 4.8.1: no waiting for ever; we may still send A */
	{ S(PEER_CLOSE_WAIT1_WR), E(TIMEOUT), S(PEER_ABORT_WAIT),
	  A(SEND_A) | A(NOTIFY_RESET) | A(RESET_TCP) | A(START_TIMER) },
	EXP_LOST_TIMER(S(PEER_CLOSE_WAIT1_WR)),
	/* the peer still writes: it is alive */
	{ S(PEER_CLOSE_WAIT1_WR), E(PEER_ALIVE), S(PEER_CLOSE_WAIT1_WR),
	  A(START_TIMER) },
	/* the peer waits for us to read: the wait is ours */
	{ S(PEER_CLOSE_WAIT1_WR), E(TIMEOUT_BLOCKED), S(PEER_CLOSE_WAIT1_WR),
	  A(START_TIMER) },

	/* PeerCloseWait2 after shutdown(SHUT_WR) */
	EXP_BAD(S(PEER_CLOSE_WAIT2_WR), ESTABLISHED),
	{ S(PEER_CLOSE_WAIT2_WR), E(CLOSE), S(PEER_CLOSE_WAIT2),
	  A(SEND_C) | A(START_TIMER) },
	EXP_ACTIVE_ABORT(S(PEER_CLOSE_WAIT2_WR)),
	{ S(PEER_CLOSE_WAIT2_WR), E(PEER_CLOSED),		/* 3C, 3D */
	  S(APP_FIN_CLOSE_WAIT), A(STOP_TIMER) },
	EXP_PASSIVE_ABORT_TIMER(S(PEER_CLOSE_WAIT2_WR)),
	EXP_BAD(S(PEER_CLOSE_WAIT2_WR), ABORT_SENT),
	{ S(PEER_CLOSE_WAIT2_WR), E(TIMEOUT), S(PEER_ABORT_WAIT),
	  A(SEND_A) | A(NOTIFY_RESET) | A(RESET_TCP) | A(START_TIMER) },
	EXP_LOST_TIMER(S(PEER_CLOSE_WAIT2_WR)),
	{ S(PEER_CLOSE_WAIT2_WR), E(PEER_ALIVE), S(PEER_CLOSE_WAIT2_WR),
	  A(START_TIMER) },
	{ S(PEER_CLOSE_WAIT2_WR), E(TIMEOUT_BLOCKED), S(PEER_CLOSE_WAIT2_WR),
	  A(START_TIMER) },

	/* AppFinCloseWait: we sent D, the peer C */
	EXP_BAD(S(APP_FIN_CLOSE_WAIT), ESTABLISHED),
	{ S(APP_FIN_CLOSE_WAIT), E(CLOSE), S(CLOSED),		/* 3D */
	  A(SEND_C) | A(FREE_RMBE) },
	EXP_ABORT_CLOSED(S(APP_FIN_CLOSE_WAIT)),
	/* A.4: after its C or A the peer sends nothing more */
	EXP_BAD(S(APP_FIN_CLOSE_WAIT), PEER_DONE_WRITING),
	EXP_BAD(S(APP_FIN_CLOSE_WAIT), PEER_CLOSED),
	EXP_BAD(S(APP_FIN_CLOSE_WAIT), PEER_ABORT),
	EXP_BAD(S(APP_FIN_CLOSE_WAIT), ABORT_SENT),
	EXP_LOST(S(APP_FIN_CLOSE_WAIT)),

	/* AppCloseWait1: the peer sent D */
	EXP_BAD(S(APP_CLOSE_WAIT1), ESTABLISHED),
	{ S(APP_CLOSE_WAIT1), E(SHUT_WR), S(APP_CLOSE_WAIT2),	/* 4B */
	  A(SEND_D) },
	{ S(APP_CLOSE_WAIT1), E(CLOSE), S(PEER_FIN_CLOSE_WAIT),	/* 4C */
	  A(SEND_C) | A(START_TIMER) },
	EXP_ACTIVE_ABORT(S(APP_CLOSE_WAIT1)),
	{ S(APP_CLOSE_WAIT1), E(PEER_CLOSED), S(APP_CLOSE_WAIT1_PC), 0 },
	EXP_PASSIVE_ABORT(S(APP_CLOSE_WAIT1)),
	EXP_BAD(S(APP_CLOSE_WAIT1), ABORT_SENT),
	EXP_LOST(S(APP_CLOSE_WAIT1)),

	/* AppCloseWait1: the peer sent C */
	EXP_BAD(S(APP_CLOSE_WAIT1_PC), ESTABLISHED),
	{ S(APP_CLOSE_WAIT1_PC), E(SHUT_WR), S(APP_CLOSE_WAIT2_PC), /* 4B */
	  A(SEND_D) },
	{ S(APP_CLOSE_WAIT1_PC), E(CLOSE), S(CLOSED),		/* 4C */
	  A(SEND_C) | A(FREE_RMBE) },
	EXP_ABORT_CLOSED(S(APP_CLOSE_WAIT1_PC)),
	/* A.4: after its C or A the peer sends nothing more */
	EXP_BAD(S(APP_CLOSE_WAIT1_PC), PEER_DONE_WRITING),
	EXP_BAD(S(APP_CLOSE_WAIT1_PC), PEER_CLOSED),
	EXP_BAD(S(APP_CLOSE_WAIT1_PC), PEER_ABORT),
	EXP_BAD(S(APP_CLOSE_WAIT1_PC), ABORT_SENT),
	EXP_LOST(S(APP_CLOSE_WAIT1_PC)),

	/* AppCloseWait2: both sent D */
	EXP_BAD(S(APP_CLOSE_WAIT2), ESTABLISHED),
	{ S(APP_CLOSE_WAIT2), E(CLOSE), S(PEER_FIN_CLOSE_WAIT),	/* 4C */
	  A(SEND_C) | A(START_TIMER) },
	EXP_ACTIVE_ABORT(S(APP_CLOSE_WAIT2)),
	{ S(APP_CLOSE_WAIT2), E(PEER_CLOSED), S(APP_CLOSE_WAIT2_PC), 0 },
	EXP_PASSIVE_ABORT(S(APP_CLOSE_WAIT2)),
	EXP_BAD(S(APP_CLOSE_WAIT2), ABORT_SENT),
	EXP_LOST(S(APP_CLOSE_WAIT2)),

	/* AppCloseWait2: we sent D, the peer C */
	EXP_BAD(S(APP_CLOSE_WAIT2_PC), ESTABLISHED),
	{ S(APP_CLOSE_WAIT2_PC), E(CLOSE), S(CLOSED),		/* 4C */
	  A(SEND_C) | A(FREE_RMBE) },
	EXP_ABORT_CLOSED(S(APP_CLOSE_WAIT2_PC)),
	/* A.4: after its C or A the peer sends nothing more */
	EXP_BAD(S(APP_CLOSE_WAIT2_PC), PEER_DONE_WRITING),
	EXP_BAD(S(APP_CLOSE_WAIT2_PC), PEER_CLOSED),
	EXP_BAD(S(APP_CLOSE_WAIT2_PC), PEER_ABORT),
	EXP_BAD(S(APP_CLOSE_WAIT2_PC), ABORT_SENT),
	EXP_LOST(S(APP_CLOSE_WAIT2_PC)),

	/* PeerFinCloseWait: we sent C, the peer D */
	EXP_BAD(S(PEER_FIN_CLOSE_WAIT), ESTABLISHED),
	{ S(PEER_FIN_CLOSE_WAIT), E(PEER_CLOSED), S(CLOSED),	/* 4D */
	  A(STOP_TIMER) | A(FREE_RMBE) },
	EXP_ABORTED(S(PEER_FIN_CLOSE_WAIT)),
	EXP_BAD(S(PEER_FIN_CLOSE_WAIT), ABORT_SENT),
	EXP_TIMEOUT(S(PEER_FIN_CLOSE_WAIT)),
	EXP_TIMEOUT_BLOCKED(S(PEER_FIN_CLOSE_WAIT)),
	EXP_LOST_TIMER(S(PEER_FIN_CLOSE_WAIT)),

	/* PeerAbortWait: 1A ignores everything but the peer's A; 1B */
	EXP_BAD(S(PEER_ABORT_WAIT), ESTABLISHED),
	{ S(PEER_ABORT_WAIT), E(PEER_ABORT), S(CLOSED),
	  A(STOP_TIMER) | A(FREE_RMBE) },
	{ S(PEER_ABORT_WAIT), E(TIMEOUT), S(CLOSED), A(FREE_RMBE) },
	{ S(PEER_ABORT_WAIT), E(TIMEOUT_BLOCKED), S(CLOSED), A(FREE_RMBE) },
	{ S(PEER_ABORT_WAIT), E(RDMA_LOST), S(CLOSED),
	  A(STOP_TIMER) | A(FREE_RMBE) },

	/* ProcessAbort: 2B, closed once our A is sent */
	EXP_BAD(S(PROCESS_ABORT), ESTABLISHED),
	/* A.4: after its C or A the peer sends nothing more */
	EXP_BAD(S(PROCESS_ABORT), PEER_DONE_WRITING),
	EXP_BAD(S(PROCESS_ABORT), PEER_CLOSED),
	EXP_BAD(S(PROCESS_ABORT), PEER_ABORT),
	{ S(PROCESS_ABORT), E(ABORT_SENT), S(CLOSED), A(FREE_RMBE) },
	{ S(PROCESS_ABORT), E(RDMA_LOST), S(CLOSED), A(FREE_RMBE) },
};

static void close_table_all_pairs(struct kunit *test)
{
	bool listed[SMC_CLOSE_NR_STATES][SMC_CLOSE_NR_EVENTS] = {};
	struct smc_close_step step;
	unsigned int checked = 0;
	int s, e;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(close_expect); i++) {
		const struct close_expect *x = &close_expect[i];

		KUNIT_ASSERT_FALSE_MSG(test, listed[x->state][x->event],
				       "entry %zu listed twice", i);
		listed[x->state][x->event] = true;
		step = smc_close_sm_next(x->state, x->event);
		KUNIT_EXPECT_EQ_MSG(test, step.next,
				    x->next == SAME ? x->state : x->next,
				    "%s + event %d",
				    smc_close_sm_state_name(x->state), x->event);
		KUNIT_EXPECT_EQ_MSG(test, step.actions, x->actions,
				    "%s + event %d",
				    smc_close_sm_state_name(x->state), x->event);
		KUNIT_EXPECT_EQ_MSG(test, step.invalid, x->invalid,
				    "%s + event %d",
				    smc_close_sm_state_name(x->state), x->event);
		checked++;
	}
	/* everything else: ignored */
	for (s = 0; s < SMC_CLOSE_NR_STATES; s++) {
		for (e = 0; e < SMC_CLOSE_NR_EVENTS; e++) {
			if (listed[s][e])
				continue;
			step = smc_close_sm_next(s, e);
			KUNIT_EXPECT_EQ_MSG(test, step.next, s,
					    "%s + event %d not ignored",
					    smc_close_sm_state_name(s), e);
			KUNIT_EXPECT_EQ_MSG(test, step.actions, 0,
					    "%s + event %d not ignored",
					    smc_close_sm_state_name(s), e);
			KUNIT_EXPECT_FALSE_MSG(test, step.invalid,
					       "%s + event %d not ignored",
					       smc_close_sm_state_name(s), e);
			checked++;
		}
	}
	KUNIT_EXPECT_EQ(test, checked,
			SMC_CLOSE_NR_STATES * SMC_CLOSE_NR_EVENTS);
	kunit_info(test, "%u pairs, %zu listed\n", checked,
		   ARRAY_SIZE(close_expect));
}

static void close_out_of_range(struct kunit *test)
{
	struct smc_close_step step;

	step = smc_close_sm_next(SMC_CLOSE_NR_STATES, E(CLOSE));
	KUNIT_EXPECT_TRUE(test, step.invalid);
	KUNIT_EXPECT_EQ(test, step.actions, 0);
	step = smc_close_sm_next(S(ACTIVE), SMC_CLOSE_NR_EVENTS);
	KUNIT_EXPECT_TRUE(test, step.invalid);
	KUNIT_EXPECT_EQ(test, step.next, S(ACTIVE));
	step = smc_close_sm_next(S(ACTIVE), (enum smc_close_event)-1);
	KUNIT_EXPECT_TRUE(test, step.invalid);
	KUNIT_EXPECT_STREQ(test, smc_close_sm_state_name(SMC_CLOSE_NR_STATES),
			   "unknown");
	KUNIT_EXPECT_EQ(test, smc_close_sm_sk_state(SMC_CLOSE_NR_STATES),
			-EINVAL);
}

/* Timer and RMBE actions agree with the states they lead to */
static void close_timer_and_free(struct kunit *test)
{
	int s, e;

	for (s = 0; s < SMC_CLOSE_NR_STATES; s++) {
		for (e = 0; e < SMC_CLOSE_NR_EVENTS; e++) {
			struct smc_close_step st = smc_close_sm_next(s, e);
			bool was = smc_close_sm_timer_state(s);
			bool is = smc_close_sm_timer_state(st.next);

			/* started on the way in; restarted only within */
			if (!was && is)
				KUNIT_EXPECT_TRUE_MSG(test,
						      st.actions & A(START_TIMER),
						      "%s + %d",
						      smc_close_sm_state_name(s), e);
			if (st.actions & A(START_TIMER))
				KUNIT_EXPECT_TRUE_MSG(test, is, "%s + %d",
						      smc_close_sm_state_name(s),
						      e);
			/* an expired timer needs no stop */
			KUNIT_EXPECT_EQ_MSG(test,
					    !!(st.actions & A(STOP_TIMER)),
					    was && !is && e != E(TIMEOUT) &&
					    e != E(TIMEOUT_BLOCKED),
					    "%s + %d",
					    smc_close_sm_state_name(s), e);
			KUNIT_EXPECT_EQ_MSG(test,
					    !!(st.actions & A(FREE_RMBE)),
					    s != S(CLOSED) &&
					    st.next == S(CLOSED), "%s + %d",
					    smc_close_sm_state_name(s), e);
		}
	}
}

/* What each side has said so far, along a path through the table */
#define H_SENT_D	0x01
#define H_SENT_C	0x02
#define H_SENT_A	0x04
#define H_RCVD_D	0x08
#define H_RCVD_C	0x10
#define H_RCVD_A	0x20
#define H_RESET		0x40	/* abort, timeout or link group loss */
#define H_NR		0x80

/*
 * Every (state, history) reachable from Closed by any event sequence.
 * Peer events are only fed as a conforming peer could send them (nothing
 * after its C or A); the table must then never send a second C, anything
 * after our C or A, or D twice; the states must agree with the history;
 * and the normal-close path must reach Closed only after both C.
 */
static void close_walk_invariants(struct kunit *test)
{
	static bool seen[SMC_CLOSE_NR_STATES][H_NR];
	static struct { u8 s, h; } queue[SMC_CLOSE_NR_STATES * H_NR];
	bool reached[SMC_CLOSE_NR_STATES] = {};
	unsigned int head = 0, tail = 0, n = 0;
	int e, s;

	memset(seen, 0, sizeof(seen));
	seen[S(CLOSED)][0] = true;
	queue[tail].s = S(CLOSED);
	queue[tail++].h = 0;
	while (head < tail) {
		u8 cs = queue[head].s, h = queue[head++].h;

		reached[cs] = true;
		for (e = 0; e < SMC_CLOSE_NR_EVENTS; e++) {
			struct smc_close_step st = smc_close_sm_next(cs, e);
			u8 nh = h;

			if ((e == E(PEER_DONE_WRITING) || e == E(PEER_ALIVE) ||
			     e == E(PEER_CLOSED) || e == E(PEER_ABORT)) &&
			    (h & (H_RCVD_C | H_RCVD_A)))
				continue;	/* not a conforming peer */
			if (e == E(ESTABLISHED) && h)
				continue;	/* a new connection */
			n++;
			if (st.actions & (A(SEND_D) | A(SEND_C) | A(SEND_A)))
				KUNIT_EXPECT_FALSE_MSG(test,
						       h & (H_SENT_C | H_SENT_A),
						       "%s + %d: CDC after C/A",
						       smc_close_sm_state_name(cs),
						       e);
			if (st.actions & A(SEND_D))
				KUNIT_EXPECT_FALSE(test, h & H_SENT_D);
			KUNIT_EXPECT_LE(test, hweight16(st.actions &
							(A(SEND_D) | A(SEND_C) |
							 A(SEND_A))), 1);
			if (st.actions & A(SEND_D))
				nh |= H_SENT_D;
			if (st.actions & A(SEND_C))
				nh |= H_SENT_C;
			if (st.actions & A(SEND_A))
				nh |= H_SENT_A;
			if (!st.invalid && cs != S(CLOSED)) {
				if (e == E(PEER_DONE_WRITING))
					nh |= H_RCVD_D;
				if (e == E(PEER_CLOSED))
					nh |= H_RCVD_C;
				if (e == E(PEER_ABORT))
					nh |= H_RCVD_A;
			}
			if ((e == E(ABORT) || e == E(TIMEOUT) ||
			     e == E(TIMEOUT_BLOCKED) || e == E(RDMA_LOST)) &&
			    st.next != cs)
				nh |= H_RESET;
			if (st.next == S(CLOSED) && cs != S(CLOSED) &&
			    !(nh & (H_RESET | H_SENT_A | H_RCVD_A)))
				KUNIT_EXPECT_TRUE_MSG(test,
						      (nh & H_SENT_C) &&
						      (nh & H_RCVD_C),
						      "%s + %d: closed early",
						      smc_close_sm_state_name(cs),
						      e);
			if (st.next == S(CLOSED) && cs != S(CLOSED))
				nh = 0;	/* the connection is gone */
			if (!seen[st.next][nh]) {
				seen[st.next][nh] = true;
				queue[tail].s = st.next;
				queue[tail++].h = nh;
			}
		}
		/* the state names what was said */
		switch (cs) {
		case S(PEER_CLOSE_WAIT1):
		case S(PEER_CLOSE_WAIT2):
		case S(PEER_FIN_CLOSE_WAIT):
			KUNIT_EXPECT_TRUE(test, h & H_SENT_C);
			break;
		case S(PEER_CLOSE_WAIT1_WR):
		case S(PEER_CLOSE_WAIT2_WR):
		case S(APP_FIN_CLOSE_WAIT):
		case S(APP_CLOSE_WAIT2):
		case S(APP_CLOSE_WAIT2_PC):
			KUNIT_EXPECT_EQ(test, h & (H_SENT_D | H_SENT_C),
					H_SENT_D);
			break;
		case S(ACTIVE):
		case S(APP_CLOSE_WAIT1):
		case S(APP_CLOSE_WAIT1_PC):
			KUNIT_EXPECT_FALSE(test, h & (H_SENT_D | H_SENT_C));
			break;
		case S(PEER_ABORT_WAIT):
		case S(PROCESS_ABORT):
			KUNIT_EXPECT_TRUE(test, h & H_SENT_A);
			break;
		default:
			break;
		}
		switch (cs) {
		case S(APP_FIN_CLOSE_WAIT):
		case S(APP_CLOSE_WAIT1_PC):
		case S(APP_CLOSE_WAIT2_PC):
			KUNIT_EXPECT_TRUE(test, h & H_RCVD_C);
			break;
		case S(PEER_CLOSE_WAIT2):
		case S(PEER_CLOSE_WAIT2_WR):
		case S(APP_CLOSE_WAIT1):
		case S(APP_CLOSE_WAIT2):
		case S(PEER_FIN_CLOSE_WAIT):
			KUNIT_EXPECT_EQ(test, h & (H_RCVD_D | H_RCVD_C),
					H_RCVD_D);
			break;
		case S(PROCESS_ABORT):
			KUNIT_EXPECT_TRUE(test, h & H_RCVD_A);
			break;
		default:
			break;
		}
	}
	for (s = 0; s < SMC_CLOSE_NR_STATES; s++)
		KUNIT_EXPECT_TRUE_MSG(test, reached[s], "%s unreachable",
				      smc_close_sm_state_name(s));
	kunit_info(test, "%u (state, history) pairs, %u transitions\n", tail,
		   n);
}

/* From every state, Closed is reachable: nothing is stuck for good */
static void close_no_dead_end(struct kunit *test)
{
	bool done[SMC_CLOSE_NR_STATES] = {};
	bool changed = true;
	int s, e;

	done[S(CLOSED)] = true;
	while (changed) {
		changed = false;
		for (s = 0; s < SMC_CLOSE_NR_STATES; s++) {
			for (e = 0; e < SMC_CLOSE_NR_EVENTS && !done[s]; e++) {
				if (done[smc_close_sm_next(s, e).next]) {
					done[s] = true;
					changed = true;
				}
			}
		}
	}
	for (s = 0; s < SMC_CLOSE_NR_STATES; s++)
		KUNIT_EXPECT_TRUE_MSG(test, done[s], "%s cannot close",
				      smc_close_sm_state_name(s));
	/*
	 * and a state waiting only for the peer has a timer; so has every
	 * PeerCloseWait (4.8.1), and no state waiting for the application
	 */
	for (s = 0; s < SMC_CLOSE_NR_STATES; s++) {
		bool app = false;

		if (s == S(CLOSED) || s == S(PROCESS_ABORT))
			continue;	/* the send completion ends it */
		for (e = E(SHUT_WR); e <= E(ABORT); e++)
			app |= smc_close_sm_next(s, e).next != s;
		if (s == S(PEER_CLOSE_WAIT1_WR) || s == S(PEER_CLOSE_WAIT2_WR))
			KUNIT_EXPECT_TRUE(test, smc_close_sm_timer_state(s));
		else
			KUNIT_EXPECT_EQ_MSG(test, !app,
					    smc_close_sm_timer_state(s), "%s",
					    smc_close_sm_state_name(s));
	}
}

/* Figure 22 walked end to end, both sides of one connection */
static void close_figure22_sequences(struct kunit *test)
{
	enum smc_close_state a = S(ACTIVE), b = S(ACTIVE);
	struct smc_close_step st;

	/* A: shutdown(SHUT_WR) -> D; B reads EOF, replies with close() */
	st = smc_close_sm_next(a, E(SHUT_WR));
	KUNIT_EXPECT_EQ(test, st.actions, A(SEND_D) | A(START_TIMER));
	a = st.next;
	st = smc_close_sm_next(b, E(PEER_DONE_WRITING));
	b = st.next;
	KUNIT_EXPECT_EQ(test, b, S(APP_CLOSE_WAIT1));
	st = smc_close_sm_next(b, E(CLOSE));
	KUNIT_EXPECT_TRUE(test, st.actions & A(SEND_C));
	b = st.next;
	KUNIT_EXPECT_EQ(test, b, S(PEER_FIN_CLOSE_WAIT));
	st = smc_close_sm_next(a, E(PEER_CLOSED));
	a = st.next;
	KUNIT_EXPECT_EQ(test, a, S(APP_FIN_CLOSE_WAIT));
	st = smc_close_sm_next(a, E(CLOSE));
	KUNIT_EXPECT_EQ(test, st.actions, A(SEND_C) | A(FREE_RMBE));
	a = st.next;
	st = smc_close_sm_next(b, E(PEER_CLOSED));
	b = st.next;
	KUNIT_EXPECT_EQ(test, a, S(CLOSED));
	KUNIT_EXPECT_EQ(test, b, S(CLOSED));

	/* simultaneous close(): both take the active path (4.8.1 end) */
	a = S(PEER_CLOSE_WAIT1);
	b = S(PEER_CLOSE_WAIT1);
	st = smc_close_sm_next(a, E(PEER_CLOSED));
	KUNIT_EXPECT_EQ(test, st.next, S(CLOSED));
	st = smc_close_sm_next(b, E(PEER_CLOSED));
	KUNIT_EXPECT_EQ(test, st.next, S(CLOSED));

	/* Figure 23: A aborts, B answers, both closed */
	st = smc_close_sm_next(S(APP_CLOSE_WAIT2), E(ABORT));
	KUNIT_EXPECT_EQ(test, st.next, S(PEER_ABORT_WAIT));
	st = smc_close_sm_next(S(PEER_CLOSE_WAIT1_WR), E(PEER_ABORT));
	KUNIT_EXPECT_EQ(test, st.next, S(PROCESS_ABORT));
	KUNIT_EXPECT_TRUE(test, st.actions & A(SEND_A));
	st = smc_close_sm_next(S(PEER_ABORT_WAIT), E(PEER_ABORT));
	KUNIT_EXPECT_EQ(test, st.next, S(CLOSED));
	st = smc_close_sm_next(S(PROCESS_ABORT), E(ABORT_SENT));
	KUNIT_EXPECT_EQ(test, st.next, S(CLOSED));
}

static void close_cdc_events(struct kunit *test)
{
	enum smc_close_event ev;
	unsigned int f;

	KUNIT_EXPECT_FALSE(test, smc_close_sm_cdc_event(0, &ev));
	KUNIT_EXPECT_FALSE(test, smc_close_sm_cdc_event(SMC_CDC_CONN_RESERVED,
							&ev));
	for (f = 0; f < 0x100; f++) {
		enum smc_close_event want;
		bool any = f & (SMC_CDC_CONN_DONE_WRITING |
				SMC_CDC_CONN_CLOSED | SMC_CDC_CONN_ABORT);

		if (f & SMC_CDC_CONN_ABORT)
			want = E(PEER_ABORT);
		else if (f & SMC_CDC_CONN_CLOSED)
			want = E(PEER_CLOSED);
		else
			want = E(PEER_DONE_WRITING);
		ev = SMC_CLOSE_NR_EVENTS;
		KUNIT_EXPECT_EQ(test, smc_close_sm_cdc_event(f, &ev), any);
		if (any)
			KUNIT_EXPECT_EQ(test, ev, want);
	}
}

static void close_names_and_diag(struct kunit *test)
{
	static const int sk[SMC_CLOSE_NR_STATES] = {
		[S(CLOSED)] = 7, [S(ACTIVE)] = 1,
		[S(PEER_CLOSE_WAIT1)] = 20, [S(PEER_CLOSE_WAIT1_WR)] = 20,
		[S(PEER_CLOSE_WAIT2)] = 21, [S(PEER_CLOSE_WAIT2_WR)] = 21,
		[S(APP_CLOSE_WAIT1)] = 22, [S(APP_CLOSE_WAIT1_PC)] = 22,
		[S(APP_CLOSE_WAIT2)] = 23, [S(APP_CLOSE_WAIT2_PC)] = 23,
		[S(APP_FIN_CLOSE_WAIT)] = 24, [S(PEER_FIN_CLOSE_WAIT)] = 25,
		[S(PEER_ABORT_WAIT)] = 26, [S(PROCESS_ABORT)] = 27,
	};
	int s;

	for (s = 0; s < SMC_CLOSE_NR_STATES; s++) {
		KUNIT_EXPECT_EQ(test, smc_close_sm_sk_state(s), sk[s]);
		KUNIT_EXPECT_STRNEQ(test, smc_close_sm_state_name(s), "unknown");
	}
	KUNIT_EXPECT_STREQ(test, smc_close_sm_state_name(S(PEER_FIN_CLOSE_WAIT)),
			   "PeerFinCloseWait");
}

static struct kunit_case smcr_close_cases[] = {
	KUNIT_CASE(close_table_all_pairs),
	KUNIT_CASE(close_out_of_range),
	KUNIT_CASE(close_timer_and_free),
	KUNIT_CASE(close_walk_invariants),
	KUNIT_CASE(close_no_dead_end),
	KUNIT_CASE(close_figure22_sequences),
	KUNIT_CASE(close_cdc_events),
	KUNIT_CASE(close_names_and_diag),
	{}
};

static struct kunit_suite smcr_close_suite = {
	.name = "smcr_close",
	.test_cases = smcr_close_cases,
};

kunit_test_suite(smcr_close_suite);
