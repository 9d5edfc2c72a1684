#!/bin/bash
# DESC: smcr_max_links_per_lgr 2 but one side without rxe1 (the server, then the client): the link group stays SINGLE with one link and works; once rxe1 is back it gets its second link
# SMOKE: no
# PEER: yes
# TIMEOUT: 240
#
# Both VMs allow two links per link group. For each VM in turn (b, the
# server, then a, the client), `rdma link del rxe1` there before the first
# contact:
#   - without a second port the server offers no link; without one the
#     client rejects the server's ADD LINK (no alternate path: its rxe0 on
#     192.0.2.0/24 does not reach the server's 198.18.0.0/15 GID): after
#     the connection, both sides list one link group of type SINGLE with
#     one ACTIVE link, for 3 s (three looks);
#   - a connection is SMC-R and byte-exact, another one stays open and
#     idle meanwhile (it keeps the link group from lingering out);
#   - `rdma link add rxe1` there: within 30 s the link group has two links,
#     type SYM (the server's ADD LINK; from the client, its ADD LINK hint);
#     the idle connection then moves its data.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
B=$(st_size 256K 64K)

st_param data_path Y || exit 1
st_param smcr_max_links_per_lgr 2 || exit 1
# short: each phase waits for the link group of the one before to end
st_param lgr_linger_ms 2000 || exit 1
HOLD=/tmp/smcr-073-hold
trap 'st_rxe_restore 1; rm -f $HOLD; st_params_restore' EXIT

# links_now: "TYPE ACTIVE-LINKS" of the only link group
links_now() {
	local lgrs links
	lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || return 1
	links=$("$SMCR_TOOLS/bin/smcr" -j link show) || return 1
	[[ $(jq length <<<"$lgrs") == 1 ]] || { echo "link groups: $lgrs"; return 1; }
	echo "$(jq -r '.[0].type' <<<"$lgrs") $(jq '[.[] | select(.state == "ACTIVE")] | length' <<<"$links")"
}

# phase ROLE PORT: ROLE lacks rxe1 at the first contact
phase() {
	local who=$1 port=$2 got i hpid
	echo "== no rxe1 on $who"
	st_no_lgrs 60 || return 1
	vm_sync "$ST_KEY-$who-clean" || return 1
	if [[ $SMCR_ROLE == "$who" ]]; then
		rdma link del rxe1 || { echo "rdma link del rxe1 failed"; return 1; }
	fi
	vm_sync "$ST_KEY-$who-gone" || return 1
	case $SMCR_ROLE in
	b) st_serve_bg "s$port" server --family smc --port "$port" --conns 2 --concurrent \
		--bytes "$B" --expect-mode smcr --timeout 90s || return 1 ;;
	a) st_await "s$port" || return 1
	   touch $HOLD
	   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$port" --conns 1 \
		--bytes "$B" --expect-mode smcr --hold 80s --hold-file $HOLD --timeout 90s &
	   hpid=$! ;;
	esac
	st_await_lgr_conns 1 30 || return 1
	for ((i = 0; i < 3; i++)); do
		got=$(links_now) || { echo "$got"; return 1; }
		[[ $got == "SINGLE 1" ]] || { echo "expected SINGLE with one link, got: $got"; return 1; }
		vm_nap 1
	done
	echo "one link: $got"
	vm_sync "$ST_KEY-$who-single" || return 1
	if [[ $SMCR_ROLE == a ]]; then
		st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$port" --conns 1 \
			--bytes "$B" --expect-mode smcr --timeout 30s || return 1
	fi
	vm_sync "$ST_KEY-$who-data" || return 1
	if [[ $SMCR_ROLE == "$who" ]]; then
		rdma link add rxe1 type rxe netdev eth1 || { echo "rdma link add failed"; return 1; }
	fi
	for ((i = 0; i < 150; i++)); do
		got=$(links_now) && [[ $got == "SYM 2" ]] && break
		vm_nap 0.2
	done
	echo "after re-add: $got"
	[[ $got == "SYM 2" ]] || return 1
	vm_sync "$ST_KEY-$who-back" || return 1
	case $SMCR_ROLE in
	b) st_wait_all || return 1 ;;
	a) rm -f $HOLD; wait "$hpid" || return 1 ;;
	esac
}

phase b "$P" || exit 1
phase a $((P + 1)) || exit 1
