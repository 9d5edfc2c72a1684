#!/bin/bash
# PID 1 of a smcr test VM, exec'd by the initramfs after switch_root into
# the host root (read-only 9p). Sets up networking and Soft-RoCE, runs the
# command that tools/testing/vm/run put into the shared scratch dir, records
# its exit status, checks kmemleak (debug kernel) and the taint flags, and
# powers the VM off.
#
# Everything printed here goes to the serial console (vm-<role>.log on the
# host). Lines starting with "SMCR-" are markers that `run` parses.
# The command's own stdout/stderr go to $SMCR_SHARED/<role>.out.
#
# Kernel command line parameters (set by `run`): smcr.role=a|b, smcr.vms=1|2,
# smcr.kernel=6.12|6.1|debug, smcr.tree=PATH, smcr.timeout=SEC,
# smcr.kdir=PATH (debug kernel build tree), smcr.no_rxe=1 (simulate Soft-RoCE
# not coming up).
#
# No `set -e`: PID 1 must always reach the poweroff at the end.
set -uo pipefail

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C.UTF-8 TERM=dumb
shared=/run/smcr-shared

role=a vms=2 kernel=unknown tree='' timeout=600 kdir='' interactive=0 no_rxe=0
read -r -a cmdline </proc/cmdline
for p in "${cmdline[@]}"; do
	case $p in
	smcr.role=*) role=${p#*=} ;;
	smcr.vms=*) vms=${p#*=} ;;
	smcr.kernel=*) kernel=${p#*=} ;;
	smcr.tree=*) tree=${p#*=} ;;
	smcr.timeout=*) timeout=${p#*=} ;;
	smcr.kdir=*) kdir=${p#*=} ;;
	smcr.interactive=*) interactive=${p#*=} ;;
	smcr.no_rxe=*) no_rxe=${p#*=} ;;
	esac
done

log() { echo "smcr-vm[$role]: $*"; }

poweroff_now() {
	sync
	/run/smcr/busybox poweroff -f
	echo o >/proc/sysrq-trigger
	sleep 30
}

kver=$(uname -r)
hostname "smcr-$role" 2>/dev/null
echo "SMCR-TAINT-START $(cat /proc/sys/kernel/tainted)"
cat /proc/sys/kernel/tainted >"$shared/$role.taint-start"
log "kernel $kver ($kernel), role $role of $vms VM(s), up $(cut -d' ' -f1 /proc/uptime) s"

# ---------------------------------------------------------------- network
# NICs are identified by MAC (set by `run`): 52:54:00:5c:0<vm>:0<nic>,
# vm 1 = a, 2 = b; nic 0 -> eth0, nic 1 -> eth1.
if [[ $role == a ]]; then me=1 peer=2; else me=2 peer=1; fi
modprobe virtio_net 2>/dev/null
ip link set lo up
declare -A want=(["52:54:00:5c:0$me:00"]=eth0 ["52:54:00:5c:0$me:01"]=eth1)
# Two passes (rename to temporary names first) so eth0 <-> eth1 swaps work.
for pass in 1 2; do
	for d in /sys/class/net/*; do
		dev=${d##*/}
		mac=$(cat "$d/address" 2>/dev/null) || continue
		target=${want[$mac]-}
		[[ -n $target && $dev != "$target" ]] || continue
		[[ $pass == 1 ]] && target=smcrtmp${target#eth}
		ip link set dev "$dev" down
		ip link set dev "$dev" name "$target" || log "warning: cannot rename $dev to $target"
	done
done
for i in 0 1; do
	[[ -e /sys/class/net/eth$i ]] || log "error: no NIC with MAC 52:54:00:5c:0$me:0$i"
	# No router solicitations etc. leaving the link; addresses below only.
	sysctl -qw "net.ipv6.conf.eth$i.accept_ra=0" "net.ipv6.conf.eth$i.autoconf=0" 2>/dev/null
done
ip addr add "192.0.2.$me/24" dev eth0
ip -6 addr add "2001:db8::$me/64" dev eth0 nodad
ip addr add "198.18.0.$me/24" dev eth1
ip link set eth0 up
ip link set eth1 up

# ---------------------------------------------------------------- Soft-RoCE
# Every test VM needs both RoCE ports: a VM without them would turn the
# SMC-R tests into skips and fallbacks, so it is an infrastructure failure
# (the command does not run). smcr.no_rxe=1 (run --no-rxe) simulates Soft-RoCE
# failing to come up: rxe is put on devices that do not exist.
rxe=1 rxe_why=''
rxe_dev=eth
[[ $no_rxe == 1 ]] && rxe_dev=smcr-no-such-dev
if ! modprobe rdma_rxe; then
	rxe=0 rxe_why="modprobe rdma_rxe failed"
else
	for i in 0 1; do
		if ! rdma link add "rxe$i" type rxe netdev "$rxe_dev$i"; then
			rxe=0 rxe_why+="rdma link add rxe$i (netdev $rxe_dev$i) failed; "
		fi
	done
fi
# Both ports ACTIVE (rxe follows its netdev's carrier), within 10 s
if [[ $rxe == 1 ]]; then
	for ((t = 0; t < 100; t++)); do
		down=''
		for i in 0 1; do
			read -r st <"/sys/class/infiniband/rxe$i/ports/1/state" 2>/dev/null || st=missing
			[[ $st == *ACTIVE ]] || down+="rxe$i port 1 $st; "
		done
		[[ -z $down ]] && break
		sleep 0.1
	done
	[[ -z $down ]] || rxe=0 rxe_why=$down
fi
if [[ $rxe == 1 ]]; then
	log "(up $(cut -d" " -f1 /proc/uptime) s) rxe0/rxe1 up: $(rdma link show | tr '\n' ';')"
elif [[ $interactive != 1 ]]; then
	echo "SMCR-INFRA-FAIL Soft-RoCE did not come up: ${rxe_why%; }"
	poweroff_now
fi
echo "$rxe" >"$shared/$role.rxe"

# ---------------------------------------------------------------- kmemleak
kml=/sys/kernel/debug/kmemleak
if [[ -w $kml ]]; then
	# Forget whatever the boot itself leaked: only leaks from the command
	# should fail the run.
	echo scan >"$kml"
	boot_leaks=$(grep -c '^unreferenced object' "$kml")
	echo clear >"$kml"
	log "kmemleak: $boot_leaks suspect(s) from boot cleared (up $(cut -d" " -f1 /proc/uptime) s)"
fi

# ---------------------------------------------------------------- command
peer_role=b
[[ $role == b ]] && peer_role=a
peer_n=$peer
[[ $vms == 1 ]] && peer_n=2 # (no peer VM; addresses of the absent peer)
if [[ $kernel == debug && -n $kdir ]]; then ksrc=$kdir; else ksrc=/lib/modules/$kver/build; fi
cmd_env=(
	PATH="$PATH" HOME=/tmp LANG=C.UTF-8 TERM=dumb
	SMCR_ROLE="$role" SMCR_PEER_ROLE="$peer_role" SMCR_VMS="$vms"
	SMCR_LOCAL_IP="192.0.2.$me" SMCR_PEER_IP="192.0.2.$peer_n"
	SMCR_LOCAL_IP6="2001:db8::$me" SMCR_PEER_IP6="2001:db8::$peer_n"
	SMCR_LOCAL_IP2="198.18.0.$me" SMCR_PEER_IP2="198.18.0.$peer_n"
	SMCR_KERNEL="$kernel" SMCR_KVER="$kver" SMCR_RXE="$rxe"
	SMCR_TREE="$tree" SMCR_MODDIR="$tree/build/mod/$kver" SMCR_TOOLS="$tree/build/tools"
	SMCR_TEST_MODDIR="$tree/build/mod-test/$kver"
	SMCR_SHARED="$shared" SMCR_KDIR="$ksrc" SMCR_TIMEOUT="$timeout"
	SMCR_LIB="$tree/tools/testing/vm/lib.sh"
)

# Watchdog: on timeout dump blocked tasks and all task stacks, then reboot
# (QEMU runs with -no-reboot, so it exits).
(
	sleep "$timeout"
	echo "SMCR-WATCHDOG command exceeded ${timeout}s: sysrq w, t, then b"
	echo "$timeout" >"$shared/$role.timeout"
	echo w >/proc/sysrq-trigger
	echo t >/proc/sysrq-trigger
	sleep 5
	sync
	echo b >/proc/sysrq-trigger
) &
wd=$!

echo "SMCR-CMD-START"
if [[ $interactive == 1 ]]; then
	# Less console noise while typing; WARN/BUG (level <= 4) still show.
	dmesg -n 5
	log "interactive root shell (env: SMCR_*; . \$SMCR_LIB); exit to power off"
	(cd "$tree" && exec env -i "${cmd_env[@]}" TERM=vt100 PS1="smcr-$role# " \
		setsid -c /bin/bash --norc -i) </dev/ttyS0 >/dev/ttyS0 2>&1
	rc=$?
else
	cmd_start=$(cut -d' ' -f1 /proc/uptime)
	log "running command (timeout ${timeout}s) at $cmd_start s"
	(cd "$tree" && exec env -i "${cmd_env[@]}" /bin/bash "$shared/cmd.sh") \
		>>"$shared/$role.out" 2>&1 </dev/null
	rc=$?
fi
kill "$wd" 2>/dev/null
echo "SMCR-CMD-END rc=$rc"
cmd_end=$(cut -d' ' -f1 /proc/uptime)
log "command exited $rc at $cmd_end s"

if [[ -w $kml ]]; then
	# Two scans a few seconds apart: objects freed late (RCU, workqueues)
	# are not reported as leaks.
	echo scan >"$kml"
	sleep 5
	echo scan >"$kml"
	leaks=$(cat "$kml")
	if [[ -n $leaks ]]; then
		echo "SMCR-KMEMLEAK-BEGIN"
		echo "$leaks"
		echo "SMCR-KMEMLEAK-END"
	fi
	log "kmemleak: $(grep -c '^unreferenced object' <<<"$leaks") leak(s)"
fi

# Where the guest's time went, in seconds of uptime: boot and setup up to
# the command, the command, and what follows it (kmemleak scans).
[[ $interactive == 1 ]] || printf 'boot %s\ncommand %s\nafter %s\n' "$cmd_start" \
	"$(awk -v a="$cmd_start" -v b="$cmd_end" 'BEGIN { printf "%.1f", b - a }')" \
	"$(awk -v a="$cmd_end" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }')" \
	>"$shared/$role.phases"
cat /proc/sys/kernel/tainted >"$shared/$role.taint-end"
echo "SMCR-TAINT-END $(cat /proc/sys/kernel/tainted)"
# The exit status is written last: its presence means the run completed.
echo "$rc" >"$shared/$role.rc"
echo "SMCR-DONE rc=$rc"
poweroff_now
