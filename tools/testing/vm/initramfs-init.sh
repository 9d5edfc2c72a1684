#!/bin/sh
# /init of the smcr test initramfs (busybox sh, not bash).
#
# Mounts the host root read-only over virtio-9p, makes the usual places
# writable with tmpfs, mounts the work tree (writable) at the same absolute
# path as on the host and the per-run shared scratch dir at /run/smcr-shared,
# then switch_root's into the host root and execs the guest init from the
# tree (tools/testing/vm/guest-init.sh). switch_root (not chroot) matters:
# the kernel's module autoload runs /sbin/modprobe relative to init's root.
#
# Kernel command line parameters (all set by tools/testing/vm/run):
#   smcr.tree=PATH     work tree (host path; 9p tag "tree")
#   smcr.modules=PATH  optional: bind-mounted over /lib/modules (debug kernel,
#                      stock kernels extracted into the cache)
# shellcheck shell=sh
/bin/busybox --install -s /bin
export PATH=/bin

fail() {
	echo "smcr-initramfs: FATAL: $*"
	echo "SMCR-INFRA-FAIL initramfs: $*"
	sleep 1
	poweroff -f
	echo o >/proc/sysrq-trigger
	sleep 10
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

tree=
modules=
cpu_check=enforce
# shellcheck disable=SC2013 # words, not lines
for p in $(cat /proc/cmdline); do
	case $p in
	smcr.tree=*) tree=${p#smcr.tree=} ;;
	smcr.modules=*) modules=${p#smcr.modules=} ;;
	smcr.cpu_check=*) cpu_check=${p#smcr.cpu_check=} ;;
	esac
done
[ -n "$tree" ] || fail "no smcr.tree= on the kernel command line"

# Before anything else: is the emulated CPU one the kernel can trust?
# (cpu-check.cpp says what it checks and why.) smcr.cpu_check=report only
# reports: for reproducing what a broken CPU does to the kernel.
if ! cpu=$(/bin/cpu-check) && [ "$cpu_check" != report ]; then
	fail "$cpu"
fi
echo "smcr-initramfs: $cpu"

while read -r m; do
	[ -n "$m" ] || continue
	insmod "/modules/$m" || fail "insmod $m"
done </modules/order

p9='trans=virtio,version=9p2000.L,msize=262144'
mount -t 9p -o "$p9,ro,cache=loose" hostroot /newroot || fail "mount host root over 9p"
R=/newroot
mount -t tmpfs -o mode=1777 tmpfs $R/tmp || fail "tmpfs /tmp"
mount -t tmpfs -o mode=0755 tmpfs $R/run || fail "tmpfs /run"
mount -t tmpfs -o mode=1777 tmpfs $R/var/tmp || fail "tmpfs /var/tmp"
# Writable spots some tools insist on (state/lock/log dirs).
for d in /var/lib /var/log /var/cache /mnt /media; do
	[ -d $R$d ] && mount -t tmpfs -o mode=0755 tmpfs $R$d
done
mount -t proc proc $R/proc || fail "proc"
mount -t sysfs sysfs $R/sys || fail "sysfs"
mount -t devtmpfs devtmpfs $R/dev || fail "devtmpfs"
mkdir -p $R/dev/pts $R/dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts $R/dev/pts
mount -t tmpfs -o mode=1777 tmpfs $R/dev/shm
mount -t debugfs debugfs $R/sys/kernel/debug 2>/dev/null
mount -t configfs configfs $R/sys/kernel/config 2>/dev/null
mount -t tracefs tracefs $R/sys/kernel/tracing 2>/dev/null

# The tree may live below a tmpfs we just mounted (e.g. /tmp): create the
# mount point there if needed.
mkdir -p "$R$tree" 2>/dev/null
mount -t 9p -o "$p9,rw" tree "$R$tree" || fail "mount work tree $tree"
mkdir -p $R/run/smcr-shared
mount -t 9p -o "$p9,rw" shared $R/run/smcr-shared || fail "mount shared scratch dir"
if [ -n "$modules" ]; then
	mount --bind "$R$modules" $R/lib/modules || fail "bind $modules over /lib/modules"
fi
# Keep busybox around after switch_root (poweroff -f, in case the host has
# no usable one), and cpu-check (cpu-check --traps).
mkdir -p $R/run/smcr
cp /bin/busybox /bin/cpu-check $R/run/smcr/

init=$tree/tools/testing/vm/guest-init.sh
[ -r "$R$init" ] || fail "$init not found in the guest"
exec switch_root $R /bin/bash "$init"
