#!/bin/bash
# DESC: smcr ueid add/show/del/flush round trip, errors, EPERM, per netns, consistent dumps under churn
# SMOKE: yes
# PEER: no
# TIMEOUT: 180
#
# Asserts (role a): ueid add (lower case is stored upper case), show (table
# and --json), `smcr info` ueid_count, del and flush round trip; a duplicate,
# a fifth entry, and deleting an absent UEID exit 1 with a message; an
# invalid UEID exits 2 without asking the kernel; an unprivileged user
# (uid 65534) gets exit 4 "permission denied" for add, del and flush and the
# table is unchanged, but may show it; a new network namespace has its own
# empty table; root in a new user+network namespace may change that
# namespace's table (CAP_NET_ADMIN in the owning user namespace; not run on
# a kernel without user namespaces, the debug kernel: elsewhere an
# unprivileged user that cannot make one fails the test); dumps
# taken while another process keeps adding and removing UEIDs (40, 10 on
# the debug kernel, at least 5 within 20 s) each return a valid table (at
# most 4 distinct, well-formed entries).
source "$ST_DIR/lib.sh"

[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
[[ $SMCR_ROLE == a ]] || exit 0
S=$SMCR_TOOLS/bin/smcr
[[ -x $S ]] || st_fail "$S not built"
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

run() { echo "+ smcr $*"; "$S" "$@"; }
# expect_rc RC CMD...: runs smcr CMD, wants exit RC, prints its stderr
expect_rc() {
	local want=$1 err rc
	shift
	err=$("$S" "$@" 2>&1 >/dev/null)
	rc=$?
	echo "+ smcr $* -> exit $rc: $err"
	[[ $rc == "$want" ]] || st_fail "smcr $*: exit $rc, want $want"
	[[ $want == 0 || -n $err ]] || st_fail "smcr $*: no message"
}
table() { "$S" --json ueid | jq -r 'join(",")'; }

trap '"$S" ueid flush' EXIT
run ueid flush || st_fail "flush failed"
[[ $(table) == "" ]] || st_fail "table not empty after flush"

run ueid add my-ueid.1 || st_fail "add failed"
run ueid add SECOND-EID || st_fail "add failed"
run ueid show
[[ $(table) == "MY-UEID.1,SECOND-EID" ]] || st_fail "table is '$(table)'"
[[ $("$S" ueid show) == $'MY-UEID.1\nSECOND-EID' ]] || st_fail "table output differs"
[[ $("$S" --json info | jq .ueid_count) == 2 ]] || st_fail "info ueid_count is not 2"

expect_rc 1 ueid add MY-UEID.1		# duplicate: EEXIST
run ueid add "$(printf 'X%.0s' {1..32})" || st_fail "32-character UEID refused"
run ueid add FOURTH || st_fail "add failed"
expect_rc 1 ueid add FIFTH		# table full: ERANGE
expect_rc 1 ueid del NOT-THERE		# ENOENT
expect_rc 2 ueid add .BAD		# invalid: never reaches the kernel
expect_rc 2 ueid add "A B"
expect_rc 2 ueid add "$(printf 'X%.0s' {1..33})"

echo "+ unprivileged (uid 65534)"
before=$(table)
for cmd in "ueid add NOBODY" "ueid del FOURTH" "ueid flush"; do
	# shellcheck disable=SC2086
	err=$("${NOBODY[@]}" "$S" $cmd 2>&1)
	rc=$?
	echo "  smcr $cmd -> exit $rc: $err"
	[[ $rc == 4 && $err == *"permission denied"* ]] || st_fail "unprivileged $cmd: exit $rc, want 4"
done
[[ $(table) == "$before" ]] || st_fail "unprivileged commands changed the table"
"${NOBODY[@]}" "$S" ueid show >/dev/null || st_fail "unprivileged show failed"

echo "+ per network namespace"
[[ $(unshare -n "$S" --json ueid) == "[]" ]] || st_fail "new netns sees the table"
ns=$(unshare -n sh -c "'$S' ueid add NS-ONLY && '$S' --json ueid") || st_fail "add in a new netns failed"
[[ $ns == '["NS-ONLY"]' ]] || st_fail "new netns table: $ns"
[[ $(table) == "$before" ]] || st_fail "the netns add changed the initial table"
if "${NOBODY[@]}" unshare -U -r -n true 2>/dev/null; then
	ns=$("${NOBODY[@]}" unshare -U -r -n sh -c "'$S' ueid add USERNS && '$S' --json ueid") ||
		st_fail "root of a user+net namespace cannot change its table"
	[[ $ns == '["USERNS"]' ]] || st_fail "user+net namespace table: $ns"
	echo "  user+net namespace: $ns"
elif [[ -e /proc/self/ns/user ]]; then
	st_fail "this kernel has user namespaces, but uid 65534 cannot make one: $("${NOBODY[@]}" unshare -U -r -n true 2>&1)"
else
	echo "  (kernel without user namespaces, CONFIG_USER_NS: user-namespace part not run)"
fi

echo "+ del + flush"
run ueid del second-eid || st_fail "del failed"
[[ $(table) == "MY-UEID.1,$(printf 'X%.0s' {1..32}),FOURTH" ]] || st_fail "after del: $(table)"
run ueid flush || st_fail "flush failed"
[[ $(table) == "" ]] || st_fail "not empty after flush"

echo "+ dumps under churn"
(
	i=0
	while :; do
		"$S" ueid add "C$((i % 6))" 2>/dev/null
		"$S" ueid del "C$(((i + 3) % 6))" 2>/dev/null
		i=$((i + 1))
	done
) &
churn=$!
bad=0 dumps=$(st_size 40 10) end=$((SECONDS + 20))
for ((i = 0; i < dumps && SECONDS < end; i++)); do
	js=$("$S" --json ueid) || { echo "dump $i failed"; bad=1; break; }
	jq -e 'type == "array" and length <= 4 and (unique | length) == length and
		all(.[]; test("^C[0-5]$"))' <<<"$js" >/dev/null || { echo "dump $i: $js"; bad=1; break; }
done
kill "$churn"
wait "$churn" 2>/dev/null
((bad == 0)) || st_fail "an inconsistent dump"
echo "$i dumps under churn: all consistent"
((i >= 5)) || st_fail "only $i dumps in 20 s"
echo "ok"
