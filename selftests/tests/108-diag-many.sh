#!/bin/bash
# DESC: sock_diag dumps 2,000 AF_SMC sockets completely and consistently, across many netlink messages, while others come and go
# SMOKE: yes
# PEER: no
# TIMEOUT: 150
#
# Asserts (role a): with 2,000 AF_SMC sockets held by one process while a
# second one keeps opening and closing 200 at a time, each of three dumps
# (`smctest diag --kv`, many netlink messages each) lists every held
# socket exactly once - matched by inode against the process's file
# descriptors - with the holder's uid; the churn may or may not show.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
[[ $SMCR_ROLE == a ]] || exit 0
N=2000
ulimit -n 8192 || st_fail "cannot raise the fd limit"

"$SMCTEST" hold --family smc --conns "$N" --ready-file "$ST_TMP/held" --timeout 120s >/dev/null &
holder=$!
for ((i = 0; i < 300; i++)); do
	[[ -e $ST_TMP/held ]] && break
	vm_nap 0.1
done
[[ -e $ST_TMP/held ]] || st_fail "the holder did not open its sockets"
( while :; do "$SMCTEST" hold --family smc --conns 200 --hold 200ms >/dev/null; done ) &
churn=$!
trap 'kill "$holder" "$churn" 2>/dev/null' EXIT

# the holder's socket inodes, sorted
held=$(find "/proc/$holder/fd" -lname 'socket:*' -printf '%l\n' | tr -dc '0-9\n' | sort)
[[ $(wc -l <<<"$held") == "$N" ]] || st_fail "the holder has $(wc -l <<<"$held") sockets, expected $N"
echo "$held" >"$ST_TMP/held.list"	# no /dev/fd in the guests: no <(...)
uid=$(id -u)
for round in 1 2 3; do
	dump=$("$SMCTEST" diag --kv) || st_fail "diag failed"
	total=$(wc -l <<<"$dump")
	# every held inode exactly once, with our uid
	seen=$(awk -v u="$uid" 'NR == FNR { h[$1] = 1; next }
		{
			ino = ""; id = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^inode=/) ino = substr($i, 7)
				if ($i ~ /^uid=/) id = substr($i, 5)
			}
			if ((ino in h) && id == u) print ino
		}' "$ST_TMP/held.list" - <<<"$dump" | sort)
	dups=$(grep -o "inode=[0-9]*" <<<"$dump" | sort | uniq -d | wc -l)
	echo "dump $round: $total sockets listed, $(wc -l <<<"$seen") of the $N held ones, $dups duplicate inode(s)"
	if [[ $seen != "$held" ]]; then
		echo "held (first): $(head -n3 <<<"$held" | tr '\n' ' ')"
		echo "dump (first): $(head -n3 <<<"$dump")"
		st_fail "dump $round: held sockets missing or with the wrong uid"
	fi
	((dups == 0)) || st_fail "dump $round: sockets listed twice"
done
