/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the objects of the link layer and the data path - link groups
 * (lgr.c; contact.c finds them for connections, lgr_event.c ends them on
 * events) and links (link.c), their work-request layer (wr.c) and LLC
 * engine (llc.c), their buffers (buf.c) and connections (conn.c): the
 * structs with what protects each field, constants, small accessors.
 *
 * The functions are declared by their files' headers, one each: lgr.h,
 * contact.h, lgr_event.h, link.h, wr.h, buf.h, conn.h, cdc.h, close.h,
 * tx.h, rx.h, keepalive.h, llc_engine.h (llc.c), llc_rkey.h, llc_link.h,
 * llc_v2_link.h, llc_del_link.h. core.h includes none of them.
 *
 * Object lifetimes:
 *   - A link group lives while it is referenced (@ref): by the global
 *     list until it is terminated, by each connection or handshake using
 *     it, by queued work. Its memory is freed on the last put, which may
 *     sleep.
 *   - Its links own the hardware (QP, DMA-mapped message buffers). They
 *     are torn down once, by the termination work, after the link group
 *     left the list; from then on no new user can find it.
 *   - A link holds a user reference on its RoCE device (smc_ib_get()), so
 *     the device's PD and CQs outlive every QP on them. Device removal
 *     terminates the link groups on it and waits for those references.
 */
#ifndef _SMCR_CORE_H
#define _SMCR_CORE_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/xarray.h>
#include <linux/completion.h>
#include <linux/in6.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <smcr/cdc_wire.h>
#include <smcr/close_sm.h>
#include <smcr/cursor.h>
#include <smcr/llc.h>
#include <smcr/qp_attr.h>
#include <smcr/rtoken.h>
#include <smcr/urg.h>

#include "ib.h"
#include "tunables.h"

struct smc_llc_v2_pairs;

/* Work-request pools of one link (wr.c) */
#define SMC_WR_BUF_SIZE		44	/* LLC and CDC messages (A.3, A.4) */
#define SMC_WR_TX_SLOTS		16	/* send buffers for LLC/CDC */
#define SMC_WR_RX_BUFS		32	/* receive buffers posted */
#define SMC_WR_TX_LONG		SMC_WR_TX_SLOTS	/* the long send buffer */
#define SMC_WR_RX_TAIL		(SMC_LLC_V2_MSG_MAX - SMC_WR_BUF_SIZE)
/* send queue: each message send with up to two RDMA writes before it (a
 * write split at the ring's end), the long LLC send of version 2, one RMB
 * registration, one spare
 */
#define SMC_WR_SQ_DEPTH		(3 * SMC_WR_TX_SLOTS + 3)
#define SMC_WR_RQ_DEPTH		(SMC_WR_RX_BUFS + 1)

struct smc_link;

/**
 * struct smc_cdc_sent - what a posted CDC message said, for its completion
 * @token: alert token of its connection
 * @seqno: its sequence number
 * @prod: the producer cursor it announced: once it completed successfully
 *	the peer has every byte before it (RC: the RDMA writes before the
 *	message completed first), RFC 7609 4.6.1's SS
 */
struct smc_cdc_sent {
	u32			token;
	u16			seqno;
	struct smc_cursor	prod;
};

/**
 * struct smc_wr_tx_slot - one send buffer of a link
 * @cqe: completion entry; its done callback frees the slot
 * @lnk: the link
 * @idx: index in the link's pools
 * @cdc: the buffer holds a CDC message, described by @sent, whose
 *	completion smc_cdc_tx_done() reports
 * @sent: see @cdc
 *
 * @cdc and @sent are set between smc_wr_tx_get() and the post, by the
 * buffer's owner, and read by the completion before it frees the slot.
 */
struct smc_wr_tx_slot {
	struct ib_cqe		cqe;
	struct smc_link		*lnk;
	u32			idx;
	bool			cdc;
	struct smc_cdc_sent	sent;
};

/**
 * struct smc_wr_rx_slot - one receive buffer of a link
 * @cqe: completion entry; its done callback dispatches the message
 * @lnk: the link
 * @idx: index in the link's pools
 */
struct smc_wr_rx_slot {
	struct ib_cqe		cqe;
	struct smc_link		*lnk;
	u32			idx;
};

/**
 * struct smc_wr - message buffers of one link
 * @tx_bufs: SMC_WR_TX_SLOTS send buffers of SMC_WR_BUF_SIZE bytes
 * @tx_dma: their DMA address (one mapping, to the device)
 * @tx_slots: per send buffer: its completion entry
 * @tx_busy: bit set while a send buffer is taken (atomic bitops); the
 *	teardown frees the buffers only when it is 0 (smc_wr_drain())
 * @tx_wait: senders waiting for a free send buffer; woken on every free,
 *	on link down and when the last posted receive completed (drain)
 * @tx_completed: send completions so far, wrapping: whether buffers came
 *	free while a sender waited (smc_wr_tx_take()); WRITE_ONCE by the
 *	send completion handler, read without a lock
 * @rx_bufs: SMC_WR_RX_BUFS receive buffers of SMC_WR_BUF_SIZE bytes
 * @rx_dma: their DMA address (one mapping, from the device)
 * @rx_slots: per receive buffer: its completion entry
 * @tx_posted: send WRs posted and not completed (atomic)
 * @rx_posted: receive WRs posted and not completed (atomic)
 * @mapped: the buffers are DMA-mapped (set and cleared by the link's
 *	owner, before the QP exists and after it was destroyed)
 * @long_tx: SMC-R v2 link groups only (else NULL): one send buffer of
 *	SMC_LLC_V2_MSG_MAX bytes for the long LLC messages, slot
 *	SMC_WR_TX_LONG of @tx_slots and @tx_busy
 * @long_tx_dma: its DMA address (to the device)
 * @rx_tail: SMC-R v2 only: where the bytes of a received message past
 *	its first SMC_WR_BUF_SIZE go, for every receive buffer - one tail
 *	per link (Linux has one per link group). A peer runs one LLC flow at
 *	a time (3.5.5.3)
 *	and sends its next long message only after our reply to the last
 *	one, so a tail is read before the next long message arrives; a peer
 *	that sends two at once garbles its own second-to-last (which is
 *	then validated like any other message)
 * @rx_tail_dma: its DMA address (from the device)
 */
struct smc_wr {
	u8			*tx_bufs;
	u64			tx_dma;
	struct smc_wr_tx_slot	tx_slots[SMC_WR_TX_SLOTS + 1];
	unsigned long		tx_busy;
	wait_queue_head_t	tx_wait;
	u32			tx_completed;
	u8			*rx_bufs;
	u64			rx_dma;
	struct smc_wr_rx_slot	rx_slots[SMC_WR_RX_BUFS];
	atomic_t		tx_posted;
	atomic_t		rx_posted;
	bool			mapped;
	u8			*long_tx;
	u64			long_tx_dma;
	u8			*rx_tail;
	u64			rx_tail_dma;
};

/* Buffer size classes: the RMBE size codes 0 (16 KiB) ... 5 (512 KiB) */
#define SMC_BUF_CLASSES		6
#define SMC_BUF_MAX_ELEM	(512U << 10)	/* class 5 */
/*
 * RMBs are written by the peer's RDMA writes, but also by us: zeroed for
 * reuse, and the RFC's eye catcher (4.4.1)
 */
#define SMC_RMB_DMA_DIR		DMA_BIDIRECTIONAL

/*
 * Link slots per link group (struct smc_link_group's lnk[]): the active
 * links, plus one for a link that is being added or torn down
 */
#define SMC_LGR_LINKS		SMC_RTOKEN_LINKS
/* Active links per link group at most, as Linux (smcr_max_links_per_lgr) */
#define SMC_LGR_MAX_LINKS	2

/**
 * struct smc_buf_map - a buffer as one link's device and PD see it
 * @sg: the memory as a DMA-mapped scatterlist of one entry
 * @dma: DMA address on the link's device; for an RMB also its iova (the
 *	peer's vaddr on this link)
 * @mapped: @sg is DMA-mapped
 * @mr: RMB: its memory region on the link's PD; NULL once unmapped
 * @rkey: RMB: @mr's rkey, kept for the CLC and LLC messages
 * @registered: RMB: the registration work request completed on the link
 */
struct smc_buf_map {
	struct scatterlist	sg;
	u64			dma;
	bool			mapped;
	struct ib_mr		*mr;
	u32			rkey;
	bool			registered;
};

/**
 * struct smc_buf - an RMB or send buffer of a link group (buf.c)
 * @list: entry on lgr->bufs[@rmb][@cls]
 * @rmb: an RMB (registered, written by the peer); else a send buffer
 * @cls: size class of its elements
 * @elem_size: bytes per element
 * @nelem: elements (at most BITS_PER_LONG)
 * @size: bytes
 * @used: bit set per element in use
 * @abandoned: RMB: bit set per element the peer may still write into
 *	although no connection owns it (smc_buf_abandon()); it stays in
 *	@used until the link group ends
 * @cpu: the memory, physically contiguous; charged to the memory cgroup
 *	of the socket whose connection allocated it, until it is freed
 *	with the link group (buf.c, "Accounting")
 * @map: per link slot: the mapping (and for an RMB the memory region) on
 *	that link; links may sit on different devices (RFC 7609 2.2)
 * @confirmed: RMB: the peer knows its RTokens - from the first contact's
 *	CLC message, else our CONFIRM RKEY exchange (3.5.5.2.1), and for a
 *	link added later from its ADD LINK CONTINUATION; set under
 *	lgr->llc_flow_mutex, never cleared (READ_ONCE without it)
 *
 * All fields but @cpu, @size, the geometry and @confirmed are under
 * lgr->buf_lock.
 */
struct smc_buf {
	struct list_head	list;
	bool			rmb;
	u8			cls;
	u32			elem_size;
	u32			nelem;
	u32			size;
	unsigned long		used;
	unsigned long		abandoned;
	void			*cpu;
	struct smc_buf_map	map[SMC_LGR_LINKS];
	bool			confirmed;
};

/**
 * struct smc_buf_elem - one element of a buffer, owned by a connection
 * @buf: the buffer; NULL when none is held
 * @idx: element index, 0-based (CLC's RMBE index is @idx + 1)
 * @fresh: @buf was allocated for this element (else an existing buffer's
 *	free element was reused), for the statistics
 */
struct smc_buf_elem {
	struct smc_buf	*buf;
	u32		idx;
	bool		fresh;
};

static inline void *smc_buf_elem_cpu(const struct smc_buf_elem *e)
{
	return (u8 *)e->buf->cpu + e->idx * e->buf->elem_size;
}

static inline u64 smc_buf_elem_dma(const struct smc_buf_elem *e, u8 slot)
{
	return e->buf->map[slot].dma + e->idx * e->buf->elem_size;
}

/* Link states; the numbers are those Linux reports over netlink */
enum smc_link_state {
	SMC_LNK_UNUSED		= 0,	/* slot free */
	SMC_LNK_INACTIVE	= 1,	/* down, or being torn down */
	SMC_LNK_ACTIVATING	= 2,	/* QP exists, CONFIRM LINK pending */
	SMC_LNK_ACTIVE		= 3,	/* CONFIRM LINK done both ways */
};

/**
 * struct smc_link - one RC QP pair of a link group (RFC 7609 2.3)
 * @lgr: the link group (no reference: a link lives in it)
 * @sdev: RoCE device; a user reference is held while @qp exists
 * @port: port number on @sdev; set before smc_ib_get(), kept until after
 *	smc_ib_put()
 * @ib_node: entry on @sdev's list of links while the user reference is
 *	held (smc_ib_get() to smc_ib_put(); under smc_ib_lock, ib.c)
 * @gid_index: index of @local.gid in the port's GID table
 * @roce_v2: @local.gid is a RoCE v2 GID
 * @ndev_ifindex: the net device the port serves, for reports
 * @pd: the link's own protection domain: its QP and the memory regions
 *	of the link group's RMBs for it. An rkey is only good on QPs of
 *	its PD, so no other link group's peer - another host, namespace or
 *	a peer guessing rkeys - can RDMA-write into this link group's RMBs.
 *	Allocated with the QP, freed after it and those MRs (teardown)
 * @send_cq: completion queue of @qp's send queue, the link's own (so is
 *	@recv_cq): created and freed with @qp
 * @recv_cq: completion queue of @qp's receive queue
 * @qp: the QP; NULL before smc_link_init() and after teardown
 * @local: our GID, MAC, QPN, PSN and port MTU as we announced them
 * @peer: the peer's, from its Accept or Confirm
 * @attrs: computed QP attributes (valid from RTR on)
 * @link_id: link number (A.3.1), assigned by the server
 * @uid: our link user ID
 * @peer_uid: the peer's link user ID (from CONFIRM LINK)
 * @state: enum smc_link_state; changed by cmpxchg where a concurrent
 *	smc_link_down() is possible, else WRITE_ONCE; read with READ_ONCE
 * @qp_mutex: serializes QP state changes (RTR, RTS) with the teardown
 * @post_lock: held for reading around every send-queue post (with the
 *	state check before it), for writing by the teardown as it stops
 *	the link
 * @wr: message buffers
 * @last_rx: jiffies of the last message received (keepalive)
 * @test_pending: a TEST LINK request is out, no reply yet (keepalive
 *	work only, plus the receive path clearing it)
 * @test_sent: jiffies when that request went out
 * @test_now: a socket's SO_KEEPALIVE asked for a TEST LINK now
 * @keepalive: TEST LINK keepalive (RFC 7609 4.5.3)
 * @down_work: takes the link group down after a fatal link error
 * @write_cqe: completion entry of RDMA writes (wr.c)
 * @reg_cqe: completion entry of RMB registrations (buf.c)
 * @reg_done: completed by @reg_cqe
 * @reg_status: status of the last registration; under lgr->buf_lock
 * @conns: connections using the link (conn->lnk); under lgr->lock
 * @confirmed: CONFIRM LINK completed once: the link has been ACTIVE
 * @del_orderly: the link is taken down on purpose (its device goes): its
 *	DELETE LINK is orderly
 * @leaked: the teardown could not drain the QP: the slot's buffers and
 *	mappings stay allocated, the slot is not used again and the link
 *	group's memory is leaked rather than freed under the device
 * @sdev: (see above) cleared by the teardown under lgr->lock
 */
struct smc_link {
	struct smc_link_group	*lgr;
	struct smc_ib_device	*sdev;
	u32			port;
	struct list_head	ib_node;
	u32			gid_index;
	bool			roce_v2;
	int			ndev_ifindex;
	struct ib_pd		*pd;
	struct ib_cq		*send_cq;
	struct ib_cq		*recv_cq;
	struct ib_qp		*qp;
	struct smc_qp_end	local;
	struct smc_qp_end	peer;
	struct smc_qp_attrs	attrs;
	u8			link_id;
	u8			uid[SMC_LLC_LINK_UID_LEN];
	u8			peer_uid[SMC_LLC_LINK_UID_LEN];
	int			state;
	struct mutex		qp_mutex;	/* see above */
	rwlock_t		post_lock;	/* see above */
	struct smc_wr		wr;
	unsigned long		last_rx;
	bool			test_pending;
	unsigned long		test_sent;
	bool			test_now;
	struct delayed_work	keepalive;
	struct work_struct	down_work;
	struct ib_cqe		write_cqe;
	struct ib_cqe		reg_cqe;
	struct completion	reg_done;
	int			reg_status;
	u32			conns;
	bool			confirmed;
	bool			del_orderly;
	bool			leaked;
};

/**
 * struct smc_llc_waiter - a handshake waiting for one LLC message
 * @type: enum smc_llc_type expected
 * @response: a reply is expected (else a request)
 * @done: the message arrived and is in @info
 * @info: the message
 */
struct smc_llc_waiter {
	u8			type;
	bool			response;
	bool			done;
	struct smc_llc_msg_info	info;
};

/**
 * struct smc_lgr_key - the peer's end of a link group
 * @peer_id: the peer's peer ID (A.2.1)
 * @peer_gid: the peer's RoCE GID on the first link
 * @peer_mac: the peer's RoCE MAC on the first link
 * @vlan_id: VLAN of the links' net device, 0 for none
 * @version: SMC-R version of the link group (SMC_CLC_V1 or SMC_CLC_V2)
 * @peer_qpn: a client's lookup for a subsequent contact: the server's QP
 *	the Accept names (0: any); not part of a link group's own key
 * @peer_addr: the peer's address on the TCP connection of the first
 *	contact (IPv4 mapped)
 * @local_addr: ours on that connection
 * @scope: the interface of a link-local @peer_addr, else 0
 * @any_addr: a lookup that does not compare the addresses; not part of a
 *	link group's own key
 *
 * With the namespace and our role, what a new connection must match to
 * use an existing link group (subsequent contact, 3.5.1). A server's key
 * comes from the Proposal. In a version 2 Proposal @peer_gid is the one of
 * the v2 extension, which must be the client's IPv4 address (hs_v2.c), and
 * Linux leaves @peer_id and @peer_mac zero when it offers no version 1.
 *
 * Nothing in a CLC message proves who sent it: a version 1 peer ID, GID
 * and MAC are the peer's word, and visible on its LAN. The TCP handshake
 * proves the addresses, so a link group is bound to both ends of its first
 * contact's TCP connection, on both sides alike: a stranger claiming a
 * client's identity from another address makes a first contact of its
 * own and learns nothing of the client's link group; a client finds no
 * link group of another server's. Only the proven peer can end or degrade
 * a link group (an S-bit, a stale Confirm). A connection between another
 * pair of addresses makes a link group of its own (a server that binds
 * none, Linux's, reuses its link group: the client declines, the
 * connection falls back; smc_hs_client_link()).
 */
struct smc_lgr_key {
	u8		peer_id[SMC_PEER_ID_LEN];
	u8		peer_gid[SMC_GID_LEN];
	u8		peer_mac[SMC_MAC_LEN];
	u16		vlan_id;
	u8		version;
	u32		peer_qpn;
	struct in6_addr	peer_addr;
	struct in6_addr	local_addr;
	int		scope;
	bool		any_addr;
};

/**
 * enum smc_lgr_state - a link group's life (RFC 7609 3.5.2: first and
 *	subsequent contacts, 3.5.5.3.2: its end)
 * @SMC_LGR_ST_PENDING: its first contact runs, from its creation to
 *	smc_contact_first_done(); new connections with its key wait on @wait
 * @SMC_LGR_ST_ACTIVE: new connections may use it
 * @SMC_LGR_ST_RETIRED: takes no new connection and ends as soon as its
 *	last one goes (too many RMB elements abandoned, smc_buf_abandon())
 * @SMC_LGR_ST_TERMINATING: left the list; being or been torn down
 * @SMC_LGR_STATES: their number
 *
 * lgr.c's table smc_lgr_next[] gives the transitions, for the events of
 * enum smc_lgr_event.
 */
enum smc_lgr_state {
	SMC_LGR_ST_PENDING,
	SMC_LGR_ST_ACTIVE,
	SMC_LGR_ST_RETIRED,
	SMC_LGR_ST_TERMINATING,
	SMC_LGR_STATES
};

/**
 * enum smc_lgr_event - what moves a link group's life on
 * @SMC_LGR_EV_FIRST_DONE: its first contact ended (smc_contact_first_done())
 * @SMC_LGR_EV_RETIRE: smc_lgr_retire()
 * @SMC_LGR_EV_TERMINATE: it ends (smc_lgr_terminate(), its linger expired,
 *	its device or namespace went)
 * @SMC_LGR_EVENTS: their number
 */
enum smc_lgr_event {
	SMC_LGR_EV_FIRST_DONE,
	SMC_LGR_EV_RETIRE,
	SMC_LGR_EV_TERMINATE,
	SMC_LGR_EVENTS
};

/**
 * struct smc_link_group - links to one peer (RFC 7609 2.3)
 * @list: entry on smc_lgr_list (smc_lgr_mutex)
 * @ref: references, see the top of this file
 * @id: ID for reports, unique while the module is loaded
 * @net: network namespace; link groups are never shared across them
 * @server: our role in the link group
 * @key: the peer's end; never changes
 * @rmbe_eyec: RMBEs start with the RFC's 4-byte eye catcher (4.2): the
 *	server's choice (rmbe_eyecatcher), the client learns it from CONFIRM
 *	LINK before it replies; else Linux's format without one
 * @lock: protects @state, @conns, @notify_peer and @waiter
 * @state: enum smc_lgr_state, changed only by smc_lgr_transition();
 *	SMC_LGR_ST_TERMINATING is entered under smc_lgr_mutex as well and
 *	read without either lock (smc_lgr_terminating())
 * @conns: connections using the link group; 0 starts the linger timer
 * @notify_peer: the teardown sends DELETE LINK first (how it ends, set
 *	with the transition to SMC_LGR_ST_TERMINATING)
 * @waiter: the LLC message a handshake waits for, or NULL
 * @wait: where @waiter's owner, connections waiting for the first
 *	contact and flows of ours yielding to a join (@llc_joining) sleep;
 *	also woken on termination
 * @llc_wq: ordered workqueue running the peer's LLC requests one at a
 *	time (RFC 7609 3.5.5.3)
 * @llc_rx_lock: protects @llc_rx, @llc_later, @llc_rx_len, @llc_v2_pairs
 *	and @llc_v2_req; taken inside @lock where both are held
 *	(smc_llc_handle()), never around it
 * @llc_rx: received LLC requests for @llc_work (struct smc_llc_qentry)
 * @llc_later: requests that wait for our flow in progress to end
 *	(collision table: QUEUE); back to the head of @llc_rx at its end
 * @llc_rx_len: entries on @llc_rx and @llc_later, at most SMC_LLC_RX_MAX
 * @llc_v2_pairs: version 2: the RKey pairs of the last ADD LINK received,
 *	until its flow takes them (llc_v2_link.c); freed with the link group
 * @llc_v2_req: version 2 server: a client's REQ ADD LINK waits for the
 *	end of the ADD LINK flow it started, to be answered if no link came
 * @llc_work: handles @llc_rx on @llc_wq
 * @llc_flow_mutex: held by the one exchange of ours that changes the link
 *	group's configuration (3.5.5.3: one at a time), from its start to
 *	its end; taken before @lock
 * @llc_flow: enum smc_llc_flow of that exchange, SMC_LLC_FLOW_NONE when
 *	none runs; under @lock. The peer's requests meet it in the
 *	collision table
 * @llc_flow_deadline: jiffies by which that exchange has ended, whatever
 *	the peer answers and how slowly (smc_llc_wait()); under @lock
 * @llc_joining: @llc_work waits for @llc_flow_mutex to join a flow of
 *	the peer's (smc_llc_flow_join()): a flow of ours that gets the
 *	mutex meanwhile gives it up once and waits on @wait until
 *	@llc_joins moved on
 * @llc_joins: joins that got @llc_flow_mutex. This and @llc_joining are
 *	written by @llc_work only (WRITE_ONCE), read without a lock
 * @llc_held: @llc_work put a request on @llc_later for after that
 *	exchange (under @lock, the request joining @llc_later under
 *	@llc_rx_lock inside it); its end clears it and queues @llc_work
 *	again
 * @llc_link_flows: flows that added or deleted a link, ended (under
 *	@lock; @wait is woken): an RKey exchange the peer refused with C
 *	waits for the next one
 * @rtok_lock: protects @rtok (BH: taken by process context only, but
 *	short)
 * @rtok: the peer's RMBs as we may write into them (its RToken set)
 * @llc_stopped: the teardown stopped the LLC work: nothing queues it any
 *	more, and it takes no further request (under @llc_rx_lock; the LLC
 *	queue's state, not the link group's: that is @state)
 * @max_links: active links the link group may have: ours
 *	(smcr_max_links_per_lgr when it was created), then the smaller of
 *	that and the peer's from CONFIRM LINK; under @llc_flow_mutex once
 *	the first contact is done
 * @type: enum smc_lgr_type; under @lock
 * @v2: SMC-R version 2 only (clc_v2.c): what the first contact negotiated,
 *	set before it is done and constant after it. @release and
 *	@max_conns (0: no limit, version 1) as both sides agreed; @eid the
 *	EID; @peer_os the peer's OS type; @direct: no router between the
 *	links' ends; @nexthop_mac: if not @direct, the router's MAC the
 *	link's frames go to (the QP's destination MAC, smc_link_rtr())
 * @add_link_next: jiffies before which a client's ADD LINK hint is
 *	ignored (after a failed ADD LINK flow)
 * @add_link_work: the server's ADD LINK flow (llc_link.c); queued only
 *	while the link group is not terminating, cancelled by its teardown
 * @del_link_work: deletes the links that went down (llc_del_link.c); as
 *	@add_link_work
 * @linger: deletes the link group when it stayed unused for lgr_linger_ms
 * @free_work: tears the links down once the link group is terminated
 * @lnk: link slots
 * @buf_lock: protects @bufs, @bufs_mapped, @bufs_reg and @bufs_unmapped
 *	(buf.c)
 * @bufs: RMBs ([1]) and send buffers ([0]) per size class
 * @buf_bytes: the memory of @bufs, RMBs ([1]) and send buffers ([0]);
 *	grows under @buf_lock, read without it (smc_buf_bytes())
 * @bufs_mapped: BIT(slot) of each link the buffers are mapped on
 *	(smc_buf_link_map()); new buffers are mapped on all of them
 * @bufs_reg: BIT(slot) of each link new RMBs are registered on
 *	(smc_buf_link_register())
 * @bufs_unmapped: no link maps the buffers any more (teardown)
 * @conns_xa: SMC-R connections by alert token (xa_lock); each entry holds
 *	a reference on its socket
 * @next_token: where the cyclic token allocation goes on (xa_lock)
 */
struct smc_link_group {
	struct list_head	list;
	struct kref		ref;
	u32			id;
	possible_net_t		net;
	bool			server;
	struct smc_lgr_key	key;
	bool			rmbe_eyec;

	spinlock_t		lock;	/* see above */
	u8			state;
	u32			conns;
	bool			notify_peer;
	struct smc_llc_waiter	*waiter;
	wait_queue_head_t	wait;

	struct workqueue_struct	*llc_wq;
	spinlock_t		llc_rx_lock;	/* see above */
	struct list_head	llc_rx;
	struct list_head	llc_later;
	u32			llc_rx_len;
	struct smc_llc_v2_pairs	*llc_v2_pairs;
	bool			llc_v2_req;
	struct work_struct	llc_work;
	struct mutex		llc_flow_mutex;	/* see above */
	u8			llc_flow;
	unsigned long		llc_flow_deadline;
	bool			llc_joining;
	u32			llc_joins;
	bool			llc_held;
	u32			llc_link_flows;
	spinlock_t		rtok_lock;	/* see above */
	struct smc_rtoken_table	*rtok;
	bool			llc_stopped;
	u8			max_links;
	u8			type;
	struct {
		u8		release;
		u8		max_conns;
		u8		peer_os;
		bool		direct;
		u8		nexthop_mac[ETH_ALEN];
		u8		eid[SMC_EID_LEN];
	} v2;
	unsigned long		add_link_next;
	struct work_struct	add_link_work;
	struct work_struct	del_link_work;

	struct delayed_work	linger;
	struct work_struct	free_work;
	struct smc_link		lnk[SMC_LGR_LINKS];

	struct mutex		buf_lock;	/* see above */
	struct list_head	bufs[2][SMC_BUF_CLASSES];
	atomic64_t		buf_bytes[2];
	u8			bufs_mapped;
	u8			bufs_reg;
	bool			bufs_unmapped;
	struct xarray		conns_xa;
	u32			next_token;
};

/**
 * struct smc_conn - the SMC-R side of a connection (RFC 7609 4)
 * @lgr: its link group (a connection is counted there); NULL in fallback
 *	and once the connection ended. Set and cleared under @lock;
 *	smc_conn_end() clears it before it gives @rmbe and @sndbuf back, so
 *	code that holds @lock and sees it set may touch the elements
 * @lnk: the link its RDMA writes and CDC messages use; changed (failover.c)
 *	under the socket lock and @lock, so either keeps it
 * @token: our alert token, key of the connection in lgr->conns_xa
 * @peer_token: the peer's alert token
 * @rmbe: our RMB element, written by the peer
 * @sndbuf: our send buffer element: holds the bytes we staged or wrote
 *	that the peer has not consumed yet. Its size is ours to choose
 *	(SO_SNDBUF or net.smc.wmem), at most the peer's RMBE size: a peer
 *	announcing a large RMBE cannot make us allocate more
 * @rx_ring: geometry of @rmbe
 * @tx_ring: geometry of the peer's RMBE
 * @sb_ring: geometry of @sndbuf (a power of two no larger than
 *	@tx_ring.size, no eye catcher)
 * @peer_rkey: rkey of the peer's RMB on @lnk
 * @peer_rtok: the peer's RMB in lgr->rtok, held (smc_rtoken_hold()) from
 *	smc_conn_peer() to smc_conn_end(); -1 before
 * @stats_buf: @rmbe and @sndbuf count in the buffer statistics (from
 *	smc_conn_activate() to smc_conn_end())
 * @peer_addr: address of the peer's RMBE on @lnk (RMB vaddr + @peer_off)
 * @peer_off: offset of the peer's RMBE in its RMB
 * @lock: protects the cursors and flags below; taken by the CDC receive
 *	path, so everything else holds it only briefly (spin_lock_bh)
 * @rx_prod: the peer's producer cursor in @rmbe (from its CDC)
 * @rx_cons: our consumer cursor in @rmbe
 * @rx_cons_sent: @rx_cons as our last CDC message told it
 * @tx_prod: our producer cursor in the peer's RMBE: what we wrote there
 *	and announced
 * @tx_staged: the end of the bytes in our send buffer, @tx_prod or ahead
 *	of it while a small send is held back (autocorking, tx.c); changed
 *	under the socket lock and @lock
 * @sb_prod: where in @sndbuf the byte at @tx_prod is (the byte at
 *	@tx_staged is as many bytes further); changed with @tx_prod
 * @cdc_pend: our CDC messages posted and not yet completed
 * @tx_hold: send buffers taken for CDC messages not posted yet
 *	(smc_cdc_get_buf() to smc_cdc_send_buf() or smc_cdc_put_buf())
 * @tx_acked_seq: sequence number of our last CDC message that completed
 *	successfully (RFC 7609 4.6.1's SS), @tx_seq's start before any
 * @tx_acked_prod: the producer cursor that message announced: the peer
 *	has every byte before it
 * @tx_owed: a CDC message of ours could not be sent or was not posted
 *	(its link went down): the next one, on the link the connection
 *	fails over to (failover.c), carries its flags and cursors
 * @tx_owed_flags: SMC_CDC_CONN_* of a CDC message that could not take a
 *	send buffer: not sent yet (not in @sent_flags); the next message
 *	posted carries them. Also our C while the peer may lack a byte we
 *	wrote (cdc.c holds it; @tx_owed is set meanwhile)
 * @active: the handshake ended in SMC-R (smc_conn_activate())
 * @tx_peer_cons: the peer's consumer cursor in its RMBE (from its CDC)
 * @tx_seq: sequence number of our last CDC message
 * @rx_seq: of the peer's last CDC message
 * @rx_seq_valid: @rx_seq holds a received number
 * @peer_flags: SMC_CDC_CONN_* the peer has sent (accumulated)
 * @peer_prod_flags: SMC_CDC_PROD_* of the peer's last CDC message
 * @peer_blocked: the peer's last CDC had the writer-blocked flag
 * @tx_blocked: we wait for room in the peer's RMBE
 * @sent_flags: SMC_CDC_CONN_* we have sent
 * @lgr_gone: the link group ends under the connection: set (under @lock)
 *	before its links let go of the device, so nothing touches the
 *	device for the connection afterwards
 * @rx_urg: urgent data the peer announced or wrote (smcr/urg.h)
 * @rx_upd_req: the peer asked for our consumer cursor (R flag)
 * @tx_upd_req: ask the peer for its consumer cursor in our next CDC
 *	message (we just got blocked)
 * @tx_urg: SMC_CDC_PROD_URG_* flags for our next CDC message
 * @tx_urg_hold: our urgent byte is written; no more writes until the
 *	peer's consumer cursor reaches @tx_urg_mark (4.7.5 step 3)
 * @tx_urg_mark: our producer cursor just past that byte
 * @released: the application closed the socket (socket lock and @lock)
 * @close_state: where the close state machine is (enum smc_close_state,
 *	close.c); changed under @lock, read anywhere
 * @close_todo: SMC_CLOSE_ACT_* of steps taken in atomic context that need
 *	the socket lock; @upd_work carries them out
 * @end_pending: closed on both sides and by the application; the end
 *	waits for @cdc_pend to reach 0 (@upd_work ends it then)
 * @upd_work: carries out @close_todo, and sends our consumer cursor when
 *	the CDC receive path moved it (skipping an urgent byte) or the peer
 *	asked for it; holds a socket reference while queued
 * @ka_work: SO_KEEPALIVE check of the connection's link (keepalive.c)
 * @ka_idle: the application's TCP_KEEPIDLE in seconds, the interval of
 *	that check; the clcsock's own may be larger (socket lock)
 * @tx_work: sends the bytes held back by autocorking once a CDC message
 *	of the connection completed, and a held C once the peer has every
 *	byte; holds a socket reference while queued
 * @close_work: the close timer, started and stopped by the close state
 *	machine's actions; holds a socket reference while pending
 *
 * Sends (CDC and RDMA writes) are made under the socket lock, so they are
 * posted in cursor order.
 */
struct smc_conn {
	struct smc_link_group	*lgr;
	struct smc_link		*lnk;
	u32			token;
	u32			peer_token;
	struct smc_buf_elem	rmbe;
	struct smc_buf_elem	sndbuf;
	struct smc_ring		rx_ring;
	struct smc_ring		tx_ring;
	struct smc_ring		sb_ring;
	u32			peer_rkey;
	int			peer_rtok;
	u64			peer_addr;
	u64			peer_off;
	bool			stats_buf;

	spinlock_t		lock;	/* see above */
	struct smc_cursor	rx_prod;
	struct smc_cursor	rx_cons;
	struct smc_cursor	rx_cons_sent;
	struct smc_cursor	tx_prod;
	struct smc_cursor	tx_staged;
	struct smc_cursor	sb_prod;
	struct smc_cursor	tx_peer_cons;
	u16			tx_seq;
	u16			rx_seq;
	u32			cdc_pend;
	u16			tx_hold;
	u16			tx_acked_seq;
	struct smc_cursor	tx_acked_prod;
	bool			tx_owed;
	u8			tx_owed_flags;
	bool			active;
	bool			rx_seq_valid;
	u8			peer_flags;
	u8			peer_prod_flags;
	bool			peer_blocked;
	bool			tx_blocked;
	u8			sent_flags;
	bool			lgr_gone;
	struct smc_urg_rx	rx_urg;
	bool			rx_upd_req;
	bool			tx_upd_req;
	u8			tx_urg;
	bool			tx_urg_hold;
	struct smc_cursor	tx_urg_mark;
	bool			released;
	u8			close_state;
	u16			close_todo;
	bool			end_pending;
	struct work_struct	upd_work;
	struct work_struct	tx_work;
	struct delayed_work	ka_work;
	u32			ka_idle;
	struct delayed_work	close_work;
};

/**
 * smc_conn_aborted() - the connection is aborted: the peer sent A, we
 *	sent A or are about to (PeerAbortWait, ProcessAbort), its link group
 *	ended, or it is Closed while the application may still see it (only
 *	an abort gets there before close()). Reads fail with ECONNRESET,
 *	nothing is sent and no new data is taken any more (RFC 7609 4.8.2,
 *	A.4).
 * @conn: the connection
 *
 * Return: true if aborted.
 */
static inline bool smc_conn_aborted(const struct smc_conn *conn)
{
	u8 state = READ_ONCE(conn->close_state);

	return ((READ_ONCE(conn->peer_flags) | READ_ONCE(conn->sent_flags)) &
		SMC_CDC_CONN_ABORT) || READ_ONCE(conn->lgr_gone) ||
	       state == SMC_CLOSE_PEER_ABORT_WAIT ||
	       state == SMC_CLOSE_PROCESS_ABORT ||
	       state == SMC_CLOSE_CLOSED;
}

/* The link's slot in its link group's lnk[] */
static inline u8 smc_link_slot(const struct smc_link *lnk)
{
	return lnk - lnk->lgr->lnk;
}

static inline struct net *smc_lgr_net(const struct smc_link_group *lgr)
{
	return read_pnet(&lgr->net);
}

/* @lgr ends: its state is SMC_LGR_ST_TERMINATING; with or without @lock */
static inline bool smc_lgr_terminating(const struct smc_link_group *lgr)
{
	return READ_ONCE(lgr->state) == SMC_LGR_ST_TERMINATING;
}

#endif /* _SMCR_CORE_H */
