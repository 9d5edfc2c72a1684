#!/bin/bash
# DESC: two-link group, rdma link del rxe1 under idle connections (on the server, then on the client): link 2 is deleted on both sides, the group goes on over link 1 and its connections move data; rdma link add brings link 2 back
# SMOKE: no
# PEER: yes
# TIMEOUT: 300
#
# Both VMs allow two links per link group (smcr_max_links_per_lgr 2). For
# each VM in turn (b, the server, then a, the client), with 8 connections
# open and idle (the client holds them before sending):
#   - `rdma link del rxe1` there: within 20 s both sides list the link group
#     (the same one) with one ACTIVE link, link 1, type SINGLE, counting the
#     8 connections, all on link 1 (RFC 7609 3.5.5.1.3-4: the server's
#     DELETE LINK, or the client's and then the server's);
#   - the connections then move their data, SMC-R, byte-exact;
#   - `rdma link add rxe1` there: within 30 s link 2 is back on both sides,
#     type SYM (the server's ADD LINK; from the client, its ADD LINK hint).
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
N=8
B=$(st_size 256K 64K)
HOLD=/tmp/smcr-071-hold

st_cleanup 'st_rxe_restore 1; rm -f $HOLD'
st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 2 || exit 1
# the link group must outlive each phase's connections until link 2 is
# back: on a loaded machine the re-add and the listings took longer than
# the suite's 10 s linger
st_param lgr_linger_ms 60000 || exit 1

# await_links N TYPE SECONDS: the only link group has N ACTIVE links and
# type TYPE; prints "LGR-ID LINK-IDS CONNS-PER-LINK"
await_links() {
	local end=$((SECONDS + $3)) lgrs links
	while ((SECONDS < end)); do
		lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || return 1
		links=$("$SMCR_TOOLS/bin/smcr" -j link show) || return 1
		if [[ $(jq length <<<"$lgrs") == 1 && $(jq -r '.[0].type' <<<"$lgrs") == "$2" &&
		      $(jq '[.[] | select(.state == "ACTIVE")] | length' <<<"$links") == "$1" ]]; then
			jq -r '"\(.[0].lgr_id) \([.[].link_id] | join(",")) \([.[].conns] | join(","))"' <<<"$links"
			return 0
		fi
		vm_nap 0.2
	done
	echo "expected one link group of type $2 with $1 ACTIVE links:"
	echo "$lgrs"
	echo "$links"
	return 1
}

# phase ROLE PORT: ROLE deletes and re-adds rxe1 under N idle connections
phase() {
	local who=$1 port=$2 got lgr cpid
	echo "== rxe1 deleted on $who"
	case $SMCR_ROLE in
	b) st_serve_bg "s$port" server --family smc --port "$port" --conns $N --concurrent \
		--bytes "$B" --mode sink --expect-mode smcr --timeout 120s || return 1 ;;
	a) st_await "s$port" || return 1
	   touch $HOLD
	   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$port" --conns $N \
		--bytes "$B" --mode sink --expect-mode smcr --hold 120s --hold-file $HOLD \
		--timeout 150s & cpid=$! ;;
	esac
	st_await_lgr_conns $N 60 || return 1
	got=$(await_links 2 SYM 5) || { echo "$got"; return 1; }
	echo "before: $got"
	lgr=${got%% *}
	vm_sync "$ST_KEY-$who-up" || return 1
	if [[ $SMCR_ROLE == "$who" ]]; then
		rdma link del rxe1 || { echo "rdma link del rxe1 failed"; return 1; }
	fi
	got=$(await_links 1 SINGLE 20) || { echo "$got"; return 1; }
	echo "after delete: $got"
	[[ $got == "$lgr 1 $N" ]] || { echo "expected link group $lgr, link 1 with $N connections"; return 1; }
	vm_sync "$ST_KEY-$who-deleted" || return 1
	case $SMCR_ROLE in
	b) st_wait_all || return 1 ;;
	a) rm -f $HOLD; wait "$cpid" || return 1 ;;
	esac
	vm_sync "$ST_KEY-$who-data" || return 1
	if [[ $SMCR_ROLE == "$who" ]]; then
		rdma link add rxe1 type rxe netdev eth1 || { echo "rdma link add failed"; return 1; }
	fi
	got=$(await_links 2 SYM 30) || { echo "$got"; return 1; }
	echo "after re-add: $got"
	[[ ${got%% *} == "$lgr" ]] || { echo "link group changed"; return 1; }
	vm_sync "$ST_KEY-$who-readded" || return 1
}

st_no_lgrs 90 || st_fail "link groups of earlier tests did not end"
vm_sync "$ST_KEY-clean" || exit 1
phase b "$P" || exit 1
phase a $((P + 1)) || exit 1
