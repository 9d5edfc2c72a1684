#!/bin/bash
# DESC: hostile SMC-R peer (smctest link-peer): smcr's ADD LINK for a second link answered with a reject, silence, unusable replies, lying continuations, no CONFIRM LINK, a CONFIRM RKEY naming the new link too early (held until the flow ends); smcr gives the new link up (DELETE LINK once the client accepted it) and the link group goes on with its one link
# SMOKE: no
# PEER: yes
# TIMEOUT: 180
#
# Role b runs an smcr server with test_clc_without_option=1,
# smcr_max_links_per_lgr 2 and llc_timeout_ms 1500; role a's link-peer
# announces max links 2 in its CONFIRM LINK reply, so after the first
# contact b offers a second link on rxe1 (RFC 7609 3.5.1.6): an ADD LINK
# request on the existing link, checked field by field (no flags, link 2,
# a GID other than the first link's, MTU 1..5, a QP number). One link
# group per script (fresh peer ID each); its further ADD LINK exchanges
# come from link-peer's ADD LINK hint (3.5.5.1.2). Asserts:
#  - add-link-reject (Z, reason 1: no alternate path), add-link-silent (no
#    answer; then a positive reply after llc_timeout_ms + 2 s),
#    add-link-bad-reply (positive replies with link number 3, MTU 0, MTU
#    6, QP number 0): b drops its new link without a word - no ADD LINK
#    CONTINUATION, no DELETE LINK, the late reply dropped;
#  - add-link-bad-cont (a positive reply naming link-peer's rxe1 GID and a
#    made-up QP number; b's CONTINUATION: link 2, NumRTokens 1, its RMB's
#    rkey of the Accept with an rkey and address on the new link; then
#    link-peer's CONTINUATION reply with link number 3, with NumRTokens
#    255 where b knows one RMB of a and has one connection (before, b went
#    on to a second round, and a peer answering 255, 253, ... kept the
#    flow for 128), with a second RToken contradicting the first) and
#    add-link-no-confirm (an honest CONTINUATION reply; b's CONFIRM LINK on
#    the new link reaches no QP): b sends DELETE LINK of link 2 on the
#    first link, reason lost path, without A - for add-link-no-confirm
#    llc_timeout_ms to llc_timeout_ms + 5 s after the CONTINUATION reply;
#    nothing more;
#  - add-link-rkey-names-new (as add-link-no-confirm, then at once a
#    CONFIRM RKEY whose second RToken is for the new link, as a client
#    done with its part sends it): b holds it until its flow ends (the
#    link is not active on b's side; answered at once, it was refused
#    without C and a client's handshake failed): its DELETE LINK of link
#    2 comes first, then the reply, negative without C (link 2 is gone);
# and after each script the link is alive (TEST LINK answered), the duplex
# exchange byte-exact on both sides, and b lists the script's link group
# as SINGLE with one link, link 1, ACTIVE; b's link groups end (linger 3
# s) and its RoCE ports count no link at the end. SMCR_072_SCRIPTS (both
# VMs: `run -- env SMCR_072_SCRIPTS=add-link-bad-cont selftests/run 072`)
# runs a subset.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
B=$(st_size 256K 64K)
LLC_TMO=1500
# shellcheck disable=SC2206 # SMCR_072_SCRIPTS: a subset, for debugging
scripts=(${SMCR_072_SCRIPTS:-add-link-reject add-link-silent add-link-bad-reply add-link-bad-cont add-link-no-confirm add-link-rkey-names-new})
if [[ $SMCR_ROLE == b ]]; then
	st_no_lgrs 60 || st_fail "link groups of earlier tests did not end"
	st_param test_clc_without_option Y || exit 1
	st_param lgr_linger_ms 3000 || exit 1
	st_param smcr_max_links_per_lgr 2 || exit 1
	st_param llc_timeout_ms $LLC_TMO || exit 1
fi

# b, right after the script's connection ended (its link group lingers):
# one link group, SINGLE, with one link, link 1, ACTIVE; then it ends
# (also after a failure: the next script's link group is the only one)
single_left() {
	local lgrs links got rc=0
	lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) && links=$("$SMCR_TOOLS/bin/smcr" -j link show) || return 1
	got="$(jq -r '[.[].type] | join(" ")' <<<"$lgrs") / $(jq -r '[.[] | "\(.link_id):\(.state)"] | join(" ")' <<<"$links")"
	echo "link groups / links: $got (connections: $(jq -r '[.[].conns] | join(" ")' <<<"$lgrs"))"
	if [[ $got != "SINGLE / 1:ACTIVE" ]]; then
		echo "expected one link group, SINGLE, with link 1 ACTIVE and no other link:"
		echo "$lgrs"
		echo "$links"
		rc=1
	fi
	if ! st_no_lgrs 30; then
		"$SMCR_TOOLS/bin/smcr" -j lgr show
		"$SMCR_TOOLS/bin/smcr" -j link show
		"$SMCTEST" diag --kv
		rc=1
	fi
	return $rc
}

one() {
	local rc=0
	case $SMCR_ROLE in
	b) st_link_peer "$1" "$2" "$B" --expect-mode smcr || rc=1
	   single_left || rc=1 ;;
	a) st_await "$1" || return 1
	   st_smctest link-peer --addr "$SMCR_PEER_IP" --port "$2" --script "$1" --bytes "$B" \
		--llc-timeout "${LLC_TMO}ms" --timeout 90s || rc=1 ;;
	esac
	return $rc
}
rc=0
st_link_peer_each one "${scripts[@]}" || rc=1
if [[ $SMCR_ROLE == b ]]; then
	st_await_dev_links 0 30 || rc=1
fi
exit $rc
