#!/bin/bash
# DESC: smcr --json stats: fallback counters by reason and role after a transfer; reset; EPERM; per netns
# SMOKE: yes
# DEBUG: no
# PEER: yes
# TIMEOUT: 240
#
# Asserts: after `smcr stats reset` on both VMs, N AF_SMC connections from a
# to b are held open (then a checksummed sink transfer each). While they are
# held, `smctest diag` lists all N on each VM (a dump spanning many sockets
# is complete) with their fallback reasons. Afterwards the fallback table of
# `smcr --json stats` matches those sockets exactly: on a the client total
# is N and the client entries equal the reasons diag showed (NOSMCRDEV
# 0x03030002 expected among them; PEERNOSMC may appear for some when more
# than hs_limit (64) handshakes run on the listener at once, or SYN cookies
# answer the burst: both leave the SMC option out), on b the
# same for the server (PEERDECL 0x05000000 expected); the other role is 0.
# The table output names the reasons. An unprivileged user (uid 65534)
# reads the stats but `smcr stats reset` exits 4 with "permission denied"
# and changes nothing. A new network namespace (unshare -n) has its own,
# zero counters. `smcr stats reset` as root zeroes the fallback table.
source "$ST_DIR/lib.sh"
P=$ST_PORT

[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_param use_roce N || exit 1	# the reasons asserted are NOSMCRDEV/PEERDECL
S=$SMCR_TOOLS/bin/smcr
[[ -x $S ]] || st_fail "$S not built"
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
N=$(st_size 100 40)

# fb_count JSON ROLE CODE: count of that reason in the fallback table
fb_count() {
	jq -r --arg r "$2" --arg c "$3" \
		'[.fallback.reasons[] | select(.role == $r and .code == $c) | .count] | add // 0' <<<"$1"
}
# reasons_of_diag LOCALPORT|PEERPORT: "CODE COUNT" lines of the held sockets
reasons_of_diag() {
	"$SMCTEST" diag --kv --port "$P" | grep "state=ESTABLISHED" |
		grep -o 'reason=0x[0-9a-f]*' | sed 's/reason=//' | sort | uniq -c | awk '{print $2, $1}'
}
# check_side ROLE CODE: the counters of this VM after the transfer match the
# reasons the sockets had (file $ST_TMP/reasons), CODE among them
check_side() {
	local role=$1 code=$2 other js c n
	[[ $role == client ]] && other=server || other=client
	js=$("$S" --json stats) || st_fail "smcr --json stats exit $?"
	echo "$js" | jq -c .fallback
	[[ $(jq -r ".fallback.$role" <<<"$js") == "$N" ]] || st_fail "$role fallback total is not $N"
	[[ $(jq -r ".fallback.$other" <<<"$js") == 0 ]] || st_fail "$other fallback total is not 0"
	[[ $(jq -r '[.fallback.reasons[].count] | add' <<<"$js") == "$N" ]] ||
		st_fail "the reason entries do not add up to $N"
	while read -r c n; do
		[[ $(fb_count "$js" "$role" "$c") == "$n" ]] || st_fail "$role reason $c: diag saw $n sockets"
		[[ $c == 0x03010000 || $c == "$code" ]] || st_fail "unexpected reason $c ($n sockets)"
	done <"$ST_TMP/reasons"
	(($(fb_count "$js" "$role" "$code") > 0)) || st_fail "no $role fallback with $code"
	"$S" stats | sed -n '/^Fallback reasons/,$p'
	"$S" stats | grep -Eq "^  $role +$code +[A-Z]+ +[0-9]+ " || st_fail "table lacks the $role $code row"

	echo "+ (uid 65534) smcr stats reset"
	local err rc
	err=$("${NOBODY[@]}" "$S" stats reset 2>&1)
	rc=$?
	echo "$err (exit $rc)"
	[[ $rc == 4 && $err == *"permission denied"* ]] || st_fail "unprivileged reset: exit $rc, want 4 + message"
	js=$("${NOBODY[@]}" "$S" --json stats) || st_fail "unprivileged smcr --json stats failed"
	[[ $(jq -r ".fallback.$role" <<<"$js") == "$N" ]] || st_fail "unprivileged reset changed the counters"

	echo "+ unshare -n smcr --json stats"
	js=$(unshare -n "$S" --json stats) || st_fail "smcr in a new netns failed"
	jq -e '.fallback.client == 0 and .fallback.server == 0 and (.fallback.reasons | length) == 0' \
		<<<"$js" >/dev/null || st_fail "a new netns sees counters: $(jq -c .fallback <<<"$js")"

	echo "+ smcr stats reset"
	"$S" stats reset || st_fail "reset failed"
	js=$("$S" --json stats)
	jq -e '.fallback.client == 0 and .fallback.server == 0 and (.fallback.reasons | length) == 0 and
		.handshake_errors.client == 0' <<<"$js" >/dev/null ||
		st_fail "not zero after reset: $(jq -c .fallback <<<"$js")"
}

"$S" stats reset || st_fail "smcr stats reset failed"
case $SMCR_ROLE in
b) st_serve_bg srv server --family smc --port "$P" --conns "$N" --concurrent --mode sink \
	--timeout 200s || exit 1
   vm_get "$ST_KEY-held" 120 >/dev/null || st_fail "client never held its connections"
   cnt=$("$SMCTEST" diag --kv --port "$P" | grep -c "state=ESTABLISHED")
   reasons_of_diag >"$ST_TMP/reasons"
   vm_put "$ST_KEY-diag-done" 1
   echo "smctest diag: $cnt ESTABLISHED AF_SMC sockets on port $P; reasons:"; cat "$ST_TMP/reasons"
   st_wait_all || st_fail "server failed"
   ((cnt == N)) || st_fail "smctest diag listed $cnt of $N held connections"
   check_side server 0x05000000 ;;
a) st_await srv || exit 1
   : >"$ST_TMP/hold"	# the client holds its connections until it is gone
   st_smctest client --family smc --addr "$SMCR_PEER_IP" --port "$P" --conns "$N" --mode sink \
	--bytes 16K --hold 30s --hold-file "$ST_TMP/hold" --timeout 200s &
   cpid=$!
   cnt=0
   for ((i = 0; i < 200; i++)); do
	cnt=$("$SMCTEST" diag --kv --port "$P" | grep -c "state=ESTABLISHED")
	((cnt >= N)) && break
	vm_nap 0.1
   done
   reasons_of_diag >"$ST_TMP/reasons"
   vm_put "$ST_KEY-held" 1
   echo "smctest diag: $cnt ESTABLISHED AF_SMC sockets to port $P; reasons:"; cat "$ST_TMP/reasons"
   vm_get "$ST_KEY-diag-done" 60 >/dev/null || echo "(peer did not report its diag)"
   rm -f "$ST_TMP/hold"
   wait "$cpid" || st_fail "client failed"
   ((cnt == N)) || st_fail "smctest diag listed $cnt of $N held connections"
   check_side client 0x03030002 ;;
esac
echo "ok"
