#!/bin/bash
# Install the Debian 12 packages smcr needs to build and test, if missing.
#
# The package lists live next to what needs them:
#   tools/testing/vm/deps-kernel.txt  building the debug kernel
#   tools/testing/vm/deps.txt   VMs, stock kernels
#   tools/deps.txt              C++ userspace
#   tools/bench/deps.txt        make bench (perftest, gnuplot, jq)
# Debian's default 6.1 kernel is named through its metapackages
# (linux-image-amd64, linux-headers-amd64) so a newer 6.1 ABI also works.
#
# The stock kernel images (linux-image-*) are not installed: the VMs only
# need the kernel and its modules, and installing an image runs
# update-initramfs (2-3 min each here) and update-grub, and changes the
# boot menu. An image that is not installed is downloaded (apt-get
# download) and extracted into $SMCR_CACHE/kernels/root (default
# ${XDG_CACHE_HOME:-~/.cache}/smcr/kernels/root: boot/vmlinuz-KVER,
# lib/modules/KVER with depmod's files and build -> the installed headers),
# where tools/testing/vm/run finds it; $SMCR_CACHE/kernels/NAME.stamp
# ("PKG VERSION KVER") marks a complete extraction. An installed image is
# used as it is; SMCR_VM_KERNELS=cache extracts the images even then (run
# then uses them).
#
# --kernel-build: only what building the debug kernel needs (make check
# starts that build while apt installs the rest).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lists=("$top"/tools/testing/vm/deps-kernel.txt)
case ${1-} in
--kernel-build) ;;
"") lists+=("$top"/tools/testing/vm/deps.txt "$top"/tools/deps.txt "$top"/tools/bench/deps.txt) ;;
*) echo "usage: ${0##*/} [--kernel-build]" >&2; exit 2 ;;
esac
case ${SMCR_VM_KERNELS:-auto} in
auto | cache) ;;
*) echo "${0##*/}: SMCR_VM_KERNELS must be auto or cache" >&2; exit 2 ;;
esac

mapfile -t wanted < <(cat "${lists[@]}" 2>/dev/null |
	sed -e 's/#.*//' -e 's/[[:space:]]//g' |
	sed -e 's/^linux-image-6\.1\..*-amd64$/linux-image-amd64/' \
	    -e 's/^linux-headers-6\.1\..*-amd64$/linux-headers-amd64/' |
	grep -v '^$' | sort -u)
wanted+=(sparse perl)

installed() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]; }

missing=() images=()
for p in "${wanted[@]}"; do
	case $p in
	linux-image-*) images+=("$p") ;;
	*) installed "$p" || missing+=("$p") ;;
	esac
done

sudo=''
[[ $(id -u) -eq 0 ]] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
updated=0
if [[ ${#missing[@]} -eq 0 ]]; then
	echo "deps: all $((${#wanted[@]} - ${#images[@]})) packages present"
else
	echo "deps: installing ${missing[*]}"
	$sudo apt-get update -q
	updated=1
	$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# checkpatch.pl for the pre-stop hook and `make checkpatch` (where the
# Makefile looks: ~/.cache/smcr), also when the packages were all there
cpcache=$HOME/.cache/smcr
if [[ ! -x $cpcache/checkpatch.pl && -r /usr/src/linux-source-6.12.tar.xz ]]; then
	mkdir -p "$cpcache"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$cpcache" --strip-components=2 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	chmod +x "$cpcache/checkpatch.pl"
fi

# ------------------------------------------------------ stock kernel images
[[ ${#images[@]} -gt 0 ]] || exit 0
kcache=${SMCR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/smcr}/kernels
root=$kcache/root

# resolve NAME -> "PKG VERSION": the package that holds the kernel and its
# candidate version; for linux-image-amd64 the 6.1 image the metapackage's
# candidate depends on (Depends: linux-image-6.1.0-NN-amd64 (= VERSION)).
resolve() {
	local show
	show=$(apt-cache show --no-all-versions "$1" 2>/dev/null) || return 0
	if [[ $1 == linux-image-amd64 ]]; then
		sed -n 's/^Depends:.*\(linux-image-6\.1\.[^ ,]*-amd64\) (= \([^)]*\)).*/\1 \2/p' <<<"$show" | head -n1
	else
		sed -n "s/^Version: /$1 /p" <<<"$show" | head -n1
	fi
}

# series KVER -> 6.1 or 6.12
series() { local r=${1#*.}; echo "${1%%.*}.${r%%[.-]*}"; }

# extract NAME PKG VERSION: move the kernel and modules of the .deb in $tmp
# into $root, in place of what an earlier extraction of the same kernel
# series left; the stamp $kcache/NAME.stamp ("PKG VERSION KVER") marks it
# complete.
extract() {
	local name=$1 pkg=$2 ver=$3 deb kver s stamp_kver
	deb=$(echo "$tmp"/*.deb)
	dpkg-deb -x "$deb" "$tmp/x"
	rm -f "$deb"
	kver=$(cd "$tmp/x/lib/modules" && echo *)
	[[ $kver != *' '* && -f $tmp/x/boot/vmlinuz-$kver ]] ||
		{ echo "deps: $pkg: expected one lib/modules/KVER and boot/vmlinuz-KVER, got '$kver'" >&2; exit 1; }
	# what the package's postinst does (depmod is in sbin, not in every PATH)
	PATH=$PATH:/usr/sbin:/sbin depmod -b "$tmp/x" "$kver"
	ln -sfn "/usr/src/linux-headers-$kver" "$tmp/x/lib/modules/$kver/build"
	for s in "$kcache"/*.stamp; do
		[[ -f $s ]] || continue
		read -r _ _ stamp_kver <"$s" || true
		[[ -n $stamp_kver ]] || { rm -f "$s"; continue; }
		[[ $(series "$stamp_kver") == "$(series "$kver")" ]] || continue
		rm -f "$s"
		rm -rf "${root:?}/lib/modules/$stamp_kver" "$root"/boot/*-"$stamp_kver"
	done
	mkdir -p "$root/boot" "$root/lib/modules"
	rm -rf "${root:?}/lib/modules/$kver"
	mv "$tmp/x/lib/modules/$kver" "$root/lib/modules/"
	mv -f "$tmp"/x/boot/*-"$kver" "$root/boot/"
	echo "$pkg $ver $kver" >"$kcache/$name.stamp"
	[[ -d /usr/src/linux-headers-$kver ]] ||
		echo "deps: warning: linux-headers-$kver is not installed: the VMs' $kver has no smcr.ko" >&2
	echo "deps: $pkg $ver extracted: $root/boot/vmlinuz-$kver"
}

mkdir -p "$kcache"
exec 9>"$kcache/lock"
flock 9
rm -rf "$kcache"/tmp.* # what an interrupted run left
tmp=
trap 'rm -rf "$tmp"' EXIT
apt_opts=(-q)
# as root, apt cannot hand the download to its _apt user in a private dir
[[ $(id -u) -ne 0 ]] || apt_opts+=(-o APT::Sandbox::User=root)
for p in "${images[@]}"; do
	[[ ${SMCR_VM_KERNELS:-auto} == cache ]] || ! installed "$p" || continue
	stamp=$kcache/$p.stamp
	if [[ -f $stamp ]]; then # and the tree it stands for
		read -r _ _ kver <"$stamp" || true
		[[ -n ${kver-} && -f $root/boot/vmlinuz-$kver && -d $root/lib/modules/$kver ]] || rm -f "$stamp"
	fi
	# apt's package lists older than the extraction: the same candidate
	# (apt-cache takes seconds on a busy machine)
	if [[ -f $stamp && -z $(find /var/lib/apt/lists -maxdepth 1 -type f -newer "$stamp" -print -quit) ]]; then
		read -r pkg ver _ <"$stamp"
		echo "deps: $pkg $ver: extracted in $root"
		continue
	fi
	read -r pkg ver <<<"$(resolve "$p")" || true
	if [[ -z ${ver-} && $updated == 0 ]]; then
		$sudo apt-get update -q
		updated=1
		read -r pkg ver <<<"$(resolve "$p")" || true
	fi
	[[ -n ${ver-} ]] || { echo "deps: no candidate for $p in apt's package lists" >&2; exit 1; }
	# installed: in /boot and /lib/modules already
	[[ ${SMCR_VM_KERNELS:-auto} == cache ]] || ! installed "$pkg" || continue
	if [[ $(cat "$stamp" 2>/dev/null) == "$pkg $ver "* ]]; then
		touch "$stamp"
		echo "deps: $pkg $ver: extracted in $root"
		continue
	fi
	tmp=$(mktemp -d "$kcache/tmp.XXXXXX")
	if ! (cd "$tmp" && apt-get download "${apt_opts[@]}" "$pkg=$ver"); then
		# stale package lists: that version is gone from the mirror
		[[ $updated == 0 ]] || { echo "deps: cannot download $pkg $ver" >&2; exit 1; }
		$sudo apt-get update -q
		updated=1
		read -r pkg ver <<<"$(resolve "$p")" || true
		(cd "$tmp" && apt-get download "${apt_opts[@]}" "$pkg=$ver")
	fi
	extract "$p" "$pkg" "$ver"
	rm -rf "$tmp"
done
