/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: LLC message encoding, validation and the serialization rules of
 * RFC 7609 3.5.5.3. Pure functions and constant tables: no QPs, no
 * sockets, so the KUnit module links them alone. The engine that sends
 * and receives LLC messages (net/smc/llc.c) builds on these.
 */
#ifndef _SMCR_LLC_H
#define _SMCR_LLC_H

#include <smcr/llc_wire.h>

/**
 * struct smc_llc_confirm_link_info - CONFIRM LINK (A.3.1)
 * @mac: sender's RoCE MAC for the link
 * @gid: sender's RoCE GID for the link
 * @qpn: sender's QP number (24 bits)
 * @link_num: link number, assigned by the server, echoed by the client
 * @link_uid: sender's opaque link user ID
 * @max_links: most links the sender supports in the link group
 * @no_rmbe_eyec: Linux's "no RMBE eye catcher" flag; a Linux peer
 *	refuses a CONFIRM LINK without it, so smcr always sets it
 */
struct smc_llc_confirm_link_info {
	u8	mac[SMC_MAC_LEN];
	u8	gid[SMC_GID_LEN];
	u32	qpn;
	u8	link_num;
	u8	link_uid[SMC_LLC_LINK_UID_LEN];
	u8	max_links;
	bool	no_rmbe_eyec;
};

/**
 * struct smc_llc_add_link_info - ADD LINK (A.3.2)
 * @mac: sender's RoCE MAC for the new link
 * @gid: sender's RoCE GID for the new link
 * @qpn: sender's QP number for the new link (24 bits)
 * @link_num: number of the new link (0 in a client's request)
 * @mtu: QP MTU code (A.2.3, 4 bits); not validated by the parser: a bad
 *	value is answered with a reject (SMC_LLC_REJ_RSN_INVALID_MTU)
 * @psn: sender's initial packet sequence number (24 bits)
 * @reject: Z, the reply rejects the ADD LINK (replies only)
 * @reject_rsn: enum smc_llc_add_link_rsn, set iff @reject
 *
 * A reject is Linux's echo of the request with R, Z and the reason set,
 * so the other fields of a reject describe the rejected request.
 */
struct smc_llc_add_link_info {
	u8	mac[SMC_MAC_LEN];
	u8	gid[SMC_GID_LEN];
	u32	qpn;
	u8	link_num;
	u8	mtu;
	u32	psn;
	bool	reject;
	u8	reject_rsn;
};

/**
 * struct smc_llc_rkey_pair_info - an RKey/RToken pair (A.3.3)
 * @ref_rkey: RKey of the RMB on the link that carries the message
 * @new_rkey: RKey of the same RMB on the new link
 * @new_vaddr: virtual address of the RMB on the new link
 */
struct smc_llc_rkey_pair_info {
	u32	ref_rkey;
	u32	new_rkey;
	u64	new_vaddr;
};

/**
 * struct smc_llc_add_link_cont_info - ADD LINK CONTINUATION (A.3.3)
 * @link_num: the new link
 * @num_rkeys: RToken pairs left to communicate, including these (0..255)
 * @pairs: the first min(@num_rkeys, 2) entries are in the message
 */
struct smc_llc_add_link_cont_info {
	u8				link_num;
	u8				num_rkeys;
	struct smc_llc_rkey_pair_info	pairs[SMC_LLC_ADD_LINK_CONT_PAIRS];
};

/**
 * struct smc_llc_delete_link_info - DELETE LINK (A.3.4)
 * @link_num: link to delete; 0 and ignored when @all
 * @all: A, delete every link, i.e. the link group (requests only)
 * @orderly: O, orderly termination
 * @reason: SMC_LLC_DEL_* (any value is accepted)
 */
struct smc_llc_delete_link_info {
	u8	link_num;
	bool	all;
	bool	orderly;
	u32	reason;
};

/**
 * struct smc_llc_rtoken_info - an RMB on one link (Figure 37)
 * @link_num: the link
 * @rkey: RKey of the RMB on it
 * @vaddr: virtual address of the RMB on it
 */
struct smc_llc_rtoken_info {
	u8	link_num;
	u32	rkey;
	u64	vaddr;
};

/**
 * struct smc_llc_confirm_rkey_info - CONFIRM RKEY (A.3.5)
 * @num_tkns: other-link RTokens to communicate, including those here,
 *	not counting the carrying link's; 0..7. More than 2 means CONFIRM
 *	RKEY CONTINUATION messages follow
 * @rkey: RKey of the new RMB on the link carrying the message
 * @vaddr: its virtual address on that link
 * @others: the first min(@num_tkns, 2) entries are in the message
 * @negative: Z, negative reply (replies only)
 * @retry: C, retry once the configuration change is done (with Z only)
 */
struct smc_llc_confirm_rkey_info {
	u8				num_tkns;
	u32				rkey;
	u64				vaddr;
	struct smc_llc_rtoken_info	others[SMC_LLC_CONFIRM_RKEY_OTHERS];
	bool				negative;
	bool				retry;
};

/**
 * struct smc_llc_confirm_rkey_cont_info - CONFIRM RKEY CONTINUATION (A.3.6)
 * @num_left: RTokens left to communicate, including these; 1..5
 * @rt: the first min(@num_left, 3) entries are in the message
 * @negative: Z, negative reply (replies only)
 */
struct smc_llc_confirm_rkey_cont_info {
	u8				num_left;
	struct smc_llc_rtoken_info	rt[SMC_LLC_CONFIRM_RKEY_CONT_TKNS];
	bool				negative;
};

/**
 * struct smc_llc_delete_rkey_info - DELETE RKEY (A.3.7)
 * @count: RKeys in @rkeys, 1..8
 * @err_mask: negative reply: RKeys not deleted, 0x80 for @rkeys[0];
 *	only bits of the @count listed RKeys, only with @negative
 * @rkeys: RKeys of the deleted RMBs on the carrying link
 * @negative: Z, negative reply (replies only)
 */
struct smc_llc_delete_rkey_info {
	u8	count;
	u8	err_mask;
	u32	rkeys[SMC_LLC_DELETE_RKEY_MAX];
	bool	negative;
};

/**
 * struct smc_llc_test_link_info - TEST LINK (A.3.8)
 * @user_data: echoed by the receiver
 */
struct smc_llc_test_link_info {
	u8	user_data[SMC_LLC_TEST_DATA_LEN];
};

/**
 * struct smc_llc_msg_info - a decoded LLC message
 * @type: enum smc_llc_type
 * @response: R, this is a reply
 * @confirm_link: for SMC_LLC_CONFIRM_LINK
 * @add_link: for SMC_LLC_ADD_LINK
 * @add_link_cont: for SMC_LLC_ADD_LINK_CONT
 * @delete_link: for SMC_LLC_DELETE_LINK
 * @confirm_rkey: for SMC_LLC_CONFIRM_RKEY
 * @confirm_rkey_cont: for SMC_LLC_CONFIRM_RKEY_CONT
 * @delete_rkey: for SMC_LLC_DELETE_RKEY
 * @test_link: for SMC_LLC_TEST_LINK
 */
struct smc_llc_msg_info {
	u8	type;
	bool	response;
	union {
		struct smc_llc_confirm_link_info	confirm_link;
		struct smc_llc_add_link_info		add_link;
		struct smc_llc_add_link_cont_info	add_link_cont;
		struct smc_llc_delete_link_info		delete_link;
		struct smc_llc_confirm_rkey_info	confirm_rkey;
		struct smc_llc_confirm_rkey_cont_info	confirm_rkey_cont;
		struct smc_llc_delete_rkey_info		delete_rkey;
		struct smc_llc_test_link_info		test_link;
	};
};

/*
 * Serialization (RFC 7609 3.5.5.3). Exchanges that change the link group
 * configuration run one at a time; a flow is such an exchange as the
 * local side sees it.
 */
enum smc_llc_flow {
	SMC_LLC_FLOW_NONE,
	/* ADD LINK, ADD LINK CONTINUATION and CONFIRM LINK of a new link;
	 * started by the server, the client takes part in it
	 */
	SMC_LLC_FLOW_ADD_LINK,
	/* the server's DELETE LINK of one link, until the client's reply */
	SMC_LLC_FLOW_DEL_LINK,
	/* a CONFIRM RKEY or DELETE RKEY exchange started locally (either
	 * role). The peer's RKey exchanges are answered at once and are
	 * never "in progress".
	 */
	SMC_LLC_FLOW_RKEY,
	SMC_LLC_FLOW_CNT,
};

/* A request from the peer that may collide with the flow in progress */
enum smc_llc_event {
	SMC_LLC_EV_TEST_LINK,
	SMC_LLC_EV_CONFIRM_LINK,	/* CONFIRM LINK request (server's) */
	SMC_LLC_EV_ADD_LINK_CLNT,	/* ADD LINK, client to server */
	SMC_LLC_EV_ADD_LINK_SERV,	/* ADD LINK, server to client */
	SMC_LLC_EV_DEL_LINK_CLNT_ONE,	/* DELETE LINK, client, one link */
	SMC_LLC_EV_DEL_LINK_CLNT_ALL,	/* DELETE LINK, client, link group */
	SMC_LLC_EV_DEL_LINK_SERV_ONE,	/* DELETE LINK, server, one link */
	SMC_LLC_EV_DEL_LINK_SERV_ALL,	/* DELETE LINK, server, link group */
	SMC_LLC_EV_CONFIRM_RKEY,	/* CONFIRM RKEY request, either side */
	SMC_LLC_EV_DELETE_RKEY,		/* DELETE RKEY request, either side */
	SMC_LLC_EV_CNT,
};

/* What the receiver of a colliding request does */
enum smc_llc_action {
	SMC_LLC_ACT_UNDEFINED,	/* a cell the table lacks: never looked up */
	SMC_LLC_ACT_PROCESS,	/* handle it now (no collision) */
	SMC_LLC_ACT_REPLY,	/* answer it at once, the flow goes on */
	SMC_LLC_ACT_QUEUE,	/* handle it when the flow is complete */
	SMC_LLC_ACT_IGNORE,	/* drop it, no reply */
	SMC_LLC_ACT_REJECT,	/* negative reply (CONFIRM RKEY: with C) */
	SMC_LLC_ACT_YIELD,	/* the peer wins: handle it now; our own
				 * exchange gets a negative reply and is
				 * redone when this one is complete
				 */
	SMC_LLC_ACT_TERMINATE,	/* clean up the link group at once */
	SMC_LLC_ACT_PROCESS_KNOWN,	/* CONFIRM RKEY: PROCESS if it came on
					 * an active link and names active links
					 * only, else QUEUE
					 */
};

/**
 * struct smc_llc_collision - one cell of the collision table
 * @action: what to do
 * @rfc: true if RFC 7609 3.5.5.3 names this case; false if it is
 *	smcr's choice (see net/smc/llc_msg.c)
 * @deviates: the RFC names this case, and @action is not the RFC's but
 *	smcr's, deliberately (net/smc/llc_msg.c says why)
 */
struct smc_llc_collision {
	u8	action;		/* enum smc_llc_action */
	bool	rfc;
	bool	deviates;
};

/* Link states in which a message may arrive on the link (type table) */
enum smc_llc_link_state {
	SMC_LLC_LINK_ACTIVATING,	/* QP ready, CONFIRM LINK pending */
	SMC_LLC_LINK_ACTIVE,
};

#define SMC_LLC_ROLE_CLNT	0x01	/* bits of smc_llc_type_desc roles */
#define SMC_LLC_ROLE_SERV	0x02
#define SMC_LLC_ROLE_BOTH	(SMC_LLC_ROLE_CLNT | SMC_LLC_ROLE_SERV)

/**
 * struct smc_llc_type_desc - what smcr knows about one LLC type
 * @type: enum smc_llc_type
 * @name: for logs
 * @supported: false: a known type smcr does not implement; smc_llc_msg_parse()
 *	returns -EOPNOTSUPP for it
 * @v2_only: the type exists only in version 2 link groups (Linux's REQ ADD
 *	LINK): smc_llc_msg_parse() returns -EOPNOTSUPP for it, and only
 *	smc_llc_msg_parse_unwrapped() takes it
 * @flags_req: header flag bits, besides R, a request may carry
 * @flags_resp: header flag bits, besides R, a reply may carry
 * @req_from: roles (SMC_LLC_ROLE_*) that send the request
 * @resp_from: roles that send the reply; 0: there is no reply
 * @states: BIT(enum smc_llc_link_state) in which it may arrive on a link
 * @flow: the flow its request starts or belongs to
 */
struct smc_llc_type_desc {
	u8		type;
	const char	*name;
	bool		supported;
	bool		v2_only;
	u8		flags_req;
	u8		flags_resp;
	u8		req_from;
	u8		resp_from;
	u8		states;
	u8		flow;		/* enum smc_llc_flow */
};

int smc_llc_msg_parse(const void *buf, size_t len,
		      struct smc_llc_msg_info *info);
int smc_llc_msg_parse_unwrapped(const void *buf, size_t len,
				struct smc_llc_msg_info *info);
int smc_llc_msg_build(union smc_llc_msg *msg,
		      const struct smc_llc_msg_info *info);

int smc_llc_msg_confirm_link_build(union smc_llc_msg *msg,
				   const struct smc_llc_confirm_link_info *info,
				   bool response);
int smc_llc_msg_add_link_build(union smc_llc_msg *msg,
			       const struct smc_llc_add_link_info *info,
			       bool response);
int smc_llc_msg_add_link_cont_build(union smc_llc_msg *msg,
				    const struct smc_llc_add_link_cont_info *info,
				    bool response);
int smc_llc_msg_delete_link_build(union smc_llc_msg *msg,
				  const struct smc_llc_delete_link_info *info,
				  bool response);
int smc_llc_msg_confirm_rkey_build(union smc_llc_msg *msg,
				   const struct smc_llc_confirm_rkey_info *info,
				   bool response);
int smc_llc_msg_confirm_rkey_cont_build(union smc_llc_msg *msg,
					const struct smc_llc_confirm_rkey_cont_info *info,
					bool response);
int smc_llc_msg_delete_rkey_build(union smc_llc_msg *msg,
				  const struct smc_llc_delete_rkey_info *info,
				  bool response);
int smc_llc_msg_test_link_build(union smc_llc_msg *msg,
				const struct smc_llc_test_link_info *info,
				bool response);

const struct smc_llc_type_desc *smc_llc_msg_type_desc(u8 type);
bool smc_llc_msg_type_optional(u8 type);
int smc_llc_msg_check_sender(const struct smc_llc_msg_info *info,
			     bool from_server, enum smc_llc_link_state state);

int smc_llc_msg_event_of(const struct smc_llc_msg_info *info, bool from_server);
const struct smc_llc_collision *
smc_llc_msg_collision_lookup(enum smc_llc_flow flow, enum smc_llc_event event);

/* Link group types (RFC 7609 2.2.2); the numbers are Linux's (netlink) */
enum smc_lgr_type {
	SMC_LGR_NONE		= 0,	/* no active link */
	SMC_LGR_SINGLE		= 1,	/* one link */
	SMC_LGR_SYMMETRIC	= 2,	/* links on distinct ports both sides */
	SMC_LGR_ASYMMETRIC_PEER	= 3,	/* the peer uses one port twice */
	SMC_LGR_ASYMMETRIC_LOCAL = 4,	/* we use one port twice */
};

u8 smc_llc_msg_link_num_next(const u8 *used, unsigned int n);
enum smc_lgr_type smc_llc_msg_lgr_type(bool same_local_port,
				       bool same_peer_gid);

void smc_llc_msg_rkey_pairs_get(const struct smc_llc_rkey_pair *w,
				struct smc_llc_rkey_pair_info *out,
				unsigned int n);
void smc_llc_msg_rkey_pairs_put(const struct smc_llc_rkey_pair_info *in,
				struct smc_llc_rkey_pair *w, unsigned int n);

/* llc_v2.c: SMC-R version 2 framing */
int smc_llc_v2_unwrap(const void *buf, size_t len, u8 out[SMC_LLC_MSG_LEN]);
int smc_llc_v2_wrap(void *msg);
int smc_llc_v2_add_link_rkeys(const void *buf, size_t len,
			      struct smc_llc_rkey_pair_info *pairs);
int smc_llc_v2_add_link_ext_build(void *msg, bool direct,
				  const struct smc_llc_rkey_pair_info *pairs,
				  u16 n);
int smc_llc_v2_req_add_link_check(const void *buf, size_t len);
void smc_llc_v2_req_add_link_reply(void *msg);

#endif /* _SMCR_LLC_H */
