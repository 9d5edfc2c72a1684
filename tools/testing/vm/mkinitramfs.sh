#!/bin/bash
# Build (or find in the cache) the tiny busybox initramfs for one kernel and
# print its path.
#
# Usage: mkinitramfs.sh KVER MODROOT
#   KVER     kernel release (uname -r of the guest kernel)
#   MODROOT  directory containing lib/modules/KVER ("/" for installed Debian
#            kernels; the cache root scripts/install-deps.sh extracts their
#            packages into, or the debug kernel's modules_install root)
#
# The initramfs holds a static busybox, /init (initramfs-init.sh), the
# static cpu-check (cpu-check.cpp) and the
# modules needed to mount the host root over virtio-9p (only those that are
# not built into the kernel; xz-compressed modules are decompressed because
# busybox insmod cannot read them). Cached as
# ~/.cache/smcr/initramfs/<kver>-<hash>.cpio.gz; the hash covers this script,
# initramfs-init.sh, cpu-check.cpp, the busybox binary and the module files.
set -euo pipefail

[[ $# -eq 2 ]] || { echo "Usage: ${0##*/} KVER MODROOT" >&2; exit 2; }
kver=$1
modroot=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${SMCR_CACHE:-$HOME/.cache/smcr}/initramfs
busybox=/bin/busybox
if [[ ! -x $busybox ]] || ! "$busybox" --list 2>/dev/null | grep -x switch_root >/dev/null; then
	{ echo "mkinitramfs: $busybox (static) missing: apt-get install busybox-static" >&2; exit 1; }
fi
! ldd "$busybox" >/dev/null 2>&1 ||
	{ echo "mkinitramfs: $busybox is not statically linked: apt-get install busybox-static" >&2; exit 1; }
[[ -d $modroot/lib/modules/$kver ]] || { echo "mkinitramfs: no $modroot/lib/modules/$kver" >&2; exit 1; }

# Modules (with dependencies, in load order) that mounting the 9p root needs.
mods=()
for m in virtio_pci 9pnet_virtio 9p; do
	while read -r kind path _; do
		[[ $kind == insmod ]] || continue # "builtin NAME" lines
		[[ " ${mods[*]} " == *" $path "* ]] || mods+=("$path")
	done < <(modprobe -d "$modroot" -S "$kver" --show-depends "$m" 2>/dev/null || true)
done

hash=$( {
	sha256sum "${BASH_SOURCE[0]}" "$here/initramfs-init.sh" "$here/cpu-check.cpp" "$busybox" | cut -d' ' -f1
	# names relative to MODROOT: an installed Debian kernel and the same
	# package extracted into the cache share one image
	for p in "${mods[@]}"; do r=${p#"$modroot"}; echo "${r#/} $(stat -c '%s %Y' "$p")"; done
} | sha256sum | cut -c1-16)
out=$cache/$kver-$hash.cpio.gz
if [[ -s $out ]]; then
	echo "$out"
	exit 0
fi

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{bin,dev,proc,sys,newroot,modules}
cp "$busybox" "$tmp/bin/busybox"
ln -s busybox "$tmp/bin/sh"
install -m 0755 "$here/initramfs-init.sh" "$tmp/init"
# The CPU check /init runs first, static: nothing else is there yet.
g++ -std=c++20 -O2 -static -Wall -Wextra -Werror -o "$tmp/bin/cpu-check" "$here/cpu-check.cpp" ||
	{ echo "mkinitramfs: cannot build cpu-check.cpp (g++ with static libc: build-essential)" >&2; exit 1; }
for p in "${mods[@]}"; do
	name=${p##*/}
	case $name in
	*.ko.xz) xz -dc "$p" >"$tmp/modules/${name%.xz}"; name=${name%.xz} ;;
	*.ko.zst) zstd -qdc "$p" >"$tmp/modules/${name%.zst}"; name=${name%.zst} ;;
	*.ko.gz) gzip -dc "$p" >"$tmp/modules/${name%.gz}"; name=${name%.gz} ;;
	*) cp "$p" "$tmp/modules/$name" ;;
	esac
	echo "$name" >>"$tmp/modules/order"
done
touch "$tmp/modules/order"
(cd "$tmp" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
# Drop stale images for the same kernel.
find "$cache" -maxdepth 1 -name "$kver-*.cpio.gz" ! -name "${out##*/}" -delete
echo "$out"
