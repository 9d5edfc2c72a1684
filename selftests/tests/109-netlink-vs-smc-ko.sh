#!/bin/bash
# DESC: every SMC_GEN_NETLINK command answered as Linux's smc.ko answers it (no ISM device): replies compared structurally
# SMOKE: no
# PEER: no
# INTREE: yes
# TIMEOUT: 150
#
# Asserts (role a; needs the harness's --allow-intree-smc, i.e. selftests/run
# --intree in `make check`'s 6.12-intree run; skips where smc.ko is
# blacklisted, and on kernels other than 6.12, whose smc.ko differs from the
# family smcr follows; fails if 6.12 has no smc.ko): `smctest nlprobe --linux-only` (every command 1-18
# of Linux's family as dump and as do, without attributes and with
# attribute 1 or 2, the unknown commands 0 and 19, the UEID and handshake
# limitation commands with their arguments; the family's description from
# the controller) prints the same against a freshly loaded smc.ko as
# against a freshly loaded smcr, as root and as an unprivileged user: the
# same errors, messages, attribute types, lengths and nesting (values are
# not printed). The RoCE devices are the VM's rxe devices in both
# (no PCI parent), and both list at least one. One difference is allowed:
# smcr's changing commands need CAP_NET_ADMIN in the network namespace's
# user namespace (uns-admin: its UEID table and handshake limitation are
# per namespace) where Linux's need it in the initial one (admin); the
# same for a caller in the initial namespace. smcr is loaded again at the
# end, also when the test fails.
source "$ST_DIR/lib.sh"

[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
[[ $SMCR_ROLE == a ]] || exit 0
case $(uname -r) in
6.12.*) ;;
*) st_skip "compares with 6.12's smc.ko only (smcr follows 6.12's family; $(uname -r) differs)" ;;
esac
for w in $(</proc/cmdline); do
	[[ $w == module_blacklist=* && ,${w#*=}, == *,smc,* ]] &&
		st_skip "smc.ko is blacklisted (run the VM with --allow-intree-smc: selftests/run --intree, see selftests/README.md)"
done
modinfo smc >/dev/null 2>&1 || st_fail "no smc.ko for $(uname -r): Debian's 6.12 ships it"
[[ -d /sys/module/smcr && ! -d /sys/module/smc ]] ||
	st_fail "smcr not loaded or smc.ko loaded at the start (autoloaded by an earlier test?)"
command -v setpriv >/dev/null || st_fail "setpriv not installed (util-linux, tools/testing/vm/deps.txt)"

# An unprivileged user must be able to run the probe: a copy outside the
# driver's private directory.
bin=$(mktemp -d /tmp/nlprobe.XXXXXX) || st_fail "mktemp"
chmod 755 "$bin"
cp "$SMCTEST" "$bin/smctest" || st_fail "cannot copy smctest"

restore() {
	rmmod smc_diag 2>/dev/null
	[[ -d /sys/module/smc ]] && { rmmod smc || echo "cannot rmmod smc"; }
	smcr_load || echo "FAIL: cannot load smcr again"
	rm -rf "$bin"
}
trap restore EXIT
trap 'exit 143' TERM

# probe NAME: root and unprivileged runs of the probe into $ST_TMP/NAME.*
probe() {
	"$bin/smctest" nlprobe --linux-only >"$ST_TMP/$1.root" 2>&1 ||
		st_fail "$1: nlprobe failed: $(tail -n 3 "$ST_TMP/$1.root")"
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$bin/smctest" nlprobe --linux-only >"$ST_TMP/$1.user" 2>&1 ||
		st_fail "$1: unprivileged nlprobe failed: $(tail -n 3 "$ST_TMP/$1.user")"
	echo "$1: $(grep -c '' "$ST_TMP/$1.root") lines; devices: $(grep -m1 '^cmd 6 dump:' "$ST_TMP/$1.root")"
}

# smcr fresh, as smc.ko will be: no link groups, counters or UEIDs left
# by earlier tests (sockets they closed may hold the module a moment).
for ((i = 0; i < 300; i++)); do
	[[ $(</sys/module/smcr/refcnt) == 0 ]] && break
	vm_nap 0.1
done
rmmod smcr || st_fail "cannot unload smcr (refcnt $(</sys/module/smcr/refcnt))"
modprobe smc || st_fail "modprobe smc failed"
probe smc
rmmod smc || st_fail "cannot unload smc.ko"
smcr_load || st_fail "cannot load smcr again"
probe smcr

for f in smc.root smcr.root; do
	grep -q '^cmd 6 dump: err=0 msgs=[1-9]' "$ST_TMP/$f" || st_fail "$f: no RoCE device listed"
done
grep -q '^op 10 do policy uns-admin$' "$ST_TMP/smcr.root" || st_fail "smcr: ADD_UEID is not a uns-admin do with policy"
fail=0
for who in root user; do
	# the one allowed difference (see the header)
	sed 's/ uns-admin$/ admin/' "$ST_TMP/smcr.$who" >"$ST_TMP/smcr.$who.cmp"
	if ! diff -u --label "smc.ko ($who)" --label "smcr ($who)" "$ST_TMP/smc.$who" "$ST_TMP/smcr.$who.cmp"; then
		fail=1
	fi
done
[[ $fail == 0 ]] || {
	echo "---- smc.ko (root) ----"
	cat "$ST_TMP/smc.root"
	st_fail "smcr answers differently from smc.ko (diff above)"
}
echo "smcr answers every command as smc.ko does ($(grep -c ': err=' "$ST_TMP/smc.root") requests, root and unprivileged)"
