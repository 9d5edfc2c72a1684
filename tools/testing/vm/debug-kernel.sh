#!/bin/bash
# Build (once) and cache the smcr debug kernel: Debian's linux-source-6.12,
# `make tinyconfig` + tools/testing/vm/debug.config (KASAN, lockdep, kmemleak,
# KUnit, SMC=m, rxe=m, ...).
#
# Cache layout (~/.cache/smcr, or $SMCR_CACHE):
#   linux-source-6.12/          extracted source (shared, never modified; O= builds)
#   ccache/                     ccache directory
#   debug-<hash>/build/         O= build tree == KDIR for out-of-tree modules
#   debug-<hash>/modroot/       modules_install INSTALL_MOD_PATH
#   debug-<hash>/build.log      full build log
#   debug-<hash>/complete       stamp: written after a successful build
# <hash> covers debug.config, the linux-source package version, the gcc
# version and BUILD_RECIPE below.
set -euo pipefail

# Bump when the build steps change in a way that changes the result.
BUILD_RECIPE=2

usage() {
	cat <<EOF
Usage: ${0##*/} [OPTION]
Build the smcr debug kernel if it is not cached yet, then print something.
  (no option)     print the cache directory (debug-<hash>)
  --print-kdir    print the kernel build tree (KDIR for make -C KDIR M=...)
  --print-kver    print the kernel release (uname -r of the debug kernel)
  --print-image   print the bzImage path
  --print-modroot print the modules_install root (contains lib/modules/KVER)
  --print-src     print the kernel source tree (has tools/testing/kunit/kunit.py)
  --check         exit 0 if the kernel is built and cached, 1 if not (never builds)
  --start         if it is not cached, start the build in the background and
                  return (a later call waits for it); output in start.log
  --rebuild       re-run the build steps (incremental) even if cached
  -h, --help      this text
Progress goes to stderr, full build output to <cache dir>/build.log.
Environment: SMCR_CACHE (default ~/.cache/smcr), JOBS (default nproc).
EOF
}

mode=dir
rebuild=0
case "${1-}" in
"") ;;
--print-kdir) mode=kdir ;;
--print-kver) mode=kver ;;
--print-image) mode=image ;;
--print-modroot) mode=modroot ;;
--print-src) mode=src ;;
--check) mode=check ;;
--start) mode=start ;;
--rebuild) rebuild=1 ;;
-h | --help) usage; exit 0 ;;
*) usage >&2; exit 2 ;;
esac
[[ $# -le 1 ]] || { usage >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fragment=$here/debug.config
cache=${SMCR_CACHE:-$HOME/.cache/smcr}
tarball=/usr/src/linux-source-6.12.tar.xz
jobs=${JOBS:-$(nproc)}

log() { printf 'debug-kernel: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[[ -r $tarball ]] || die "$tarball missing: apt-get install linux-source-6.12 (see tools/testing/vm/deps.txt)"
pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) || die "linux-source-6.12 package not installed"
gccver=$(gcc --version | head -n1)
hash=$( { printf 'recipe=%s\npkg=%s\ngcc=%s\n' "$BUILD_RECIPE" "$pkgver" "$gccver"; cat "$fragment"; } | sha256sum | cut -c1-16)
dir=$cache/debug-$hash
src=$cache/linux-source-6.12
kdir=$dir/build

print_result() {
	case $mode in
	dir) echo "$dir" ;;
	kdir) echo "$kdir" ;;
	kver) cat "$kdir/include/config/kernel.release" ;;
	image) echo "$kdir/arch/x86/boot/bzImage" ;;
	modroot) echo "$dir/modroot" ;;
	src) echo "$src" ;;
	esac
}

if [[ $mode == check ]]; then
	[[ -e $dir/complete ]]
	exit
fi
if [[ $mode == start ]]; then
	[[ -e $dir/complete ]] && exit 0
	mkdir -p "$cache"
	setsid "${BASH_SOURCE[0]}" </dev/null >"$cache/start.log" 2>&1 &
	log "building in the background (log: $cache/start.log)"
	exit 0
fi
if [[ -e $dir/complete && $rebuild == 0 ]]; then
	print_result
	exit 0
fi

mkdir -p "$cache"
# Serialize concurrent callers (e.g. `make` in two shells): the second one
# waits and then finds the kernel cached.
exec 9>"$cache/debug-kernel.lock"
if ! flock -n 9; then
	log "another build holds $cache/debug-kernel.lock, waiting ..."
	flock 9
fi
if [[ -e $dir/complete && $rebuild == 0 ]]; then
	print_result
	exit 0
fi

# 1. Source tree. Reused if it is the extracted tarball of the installed
#    package version (stamp file), else (re-)extracted.
srcstamp=$src/.smcr-source-version
if [[ ! -e $srcstamp || $(cat "$srcstamp") != "$pkgver" ]]; then
	if [[ -f $src/Makefile && ! -e $srcstamp ]] &&
		[[ $(make -s -C "$src" kernelversion 2>/dev/null) == "${pkgver%%-*}" ]] &&
		[[ ! -e $src/.config ]]; then
		log "reusing existing extracted source $src (version ${pkgver%%-*})"
		# Do not write into a tree that someone else extracted; remember
		# the check in a stamp next to it instead.
		echo "$pkgver" >"$src.version-checked" 2>/dev/null || true
	elif [[ -e $src.version-checked && $(cat "$src.version-checked") == "$pkgver" && -f $src/Makefile ]]; then
		:
	else
		log "extracting $tarball into $src (about 1 min) ..."
		rm -rf "$src.tmp"
		mkdir -p "$src.tmp"
		tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
		rm -rf "$src"
		mv "$src.tmp" "$src"
		echo "$pkgver" >"$srcstamp"
	fi
fi

# 2. Configure.
mkdir -p "$kdir"
blog=$dir/build.log
: >"$blog"
export CCACHE_DIR=$cache/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-2G}
# LOCALVERSION: kernel release 6.12.<n>-smcr-debug (distinct from any stock
# kernel's build/mod/<kver>/ and build/mod-test/<kver>/).
mk=(make -C "$src" O="$kdir" CC="ccache gcc" HOSTCC="ccache gcc" LOCALVERSION=-smcr-debug -j"$jobs")
start=$(date +%s)
log "building in $dir (log: $blog)"
run_logged() {
	if ! "$@" >>"$blog" 2>&1; then
		tail -n 40 "$blog" >&2
		die "failed: $*  (full log: $blog)"
	fi
}
if [[ ! -e $kdir/.config || $fragment -nt $kdir/.config || $rebuild == 1 ]]; then
	run_logged "${mk[@]}" tinyconfig
	run_logged env KCONFIG_CONFIG="$kdir/.config" "$src/scripts/kconfig/merge_config.sh" \
		-m -O "$kdir" "$kdir/.config" "$fragment"
	run_logged "${mk[@]}" olddefconfig
fi

# 3. Verify that every option of the fragment survived olddefconfig.
missing=()
while IFS= read -r line; do
	grep -qxF -- "$line" "$kdir/.config" || missing+=("$line")
done < <(grep -E '^(CONFIG_[A-Za-z0-9_]+=.*|# CONFIG_[A-Za-z0-9_]+ is not set)$' "$fragment")
if ((${#missing[@]})); then
	log "these options of $fragment did not survive olddefconfig:"
	for l in "${missing[@]}"; do
		opt=$(grep -oE 'CONFIG_[A-Za-z0-9_]+' <<<"$l" | head -n1)
		got=$(grep -E "^($opt=|# $opt is not set)" "$kdir/.config" || echo "(absent)")
		printf '  wanted: %-45s got: %s\n' "$l" "$got" >&2
	done
	rm -f "$kdir/.config"
	die "fix debug.config (missing dependencies?)"
fi

# 4. Build and install modules.
log "make bzImage modules (-j$jobs; 8-20 min cold, ~2 min with warm ccache) ..."
run_logged "${mk[@]}" bzImage modules
rm -rf "$dir/modroot"
run_logged "${mk[@]}" INSTALL_MOD_PATH="$dir/modroot" modules_install
kver=$(cat "$kdir/include/config/kernel.release")
# The build/ and source/ links point to the host paths; they are valid in the
# guest too (host root is mounted read-only over 9p).
[[ -d $dir/modroot/lib/modules/$kver ]] || die "modules_install produced no lib/modules/$kver"
date -u +%FT%TZ >"$dir/complete"
# Keep this and the previous debug kernel (a VM may still be using it), drop
# older ones (~500 MB each).
# shellcheck disable=SC2012 # our own directory names
ls -1dt "$cache"/debug-*/ 2>/dev/null | tail -n +3 | while read -r old; do
	log "removing old debug kernel $old"
	rm -rf "$old"
done
log "done in $(($(date +%s) - start)) s: kernel $kver"
print_result
