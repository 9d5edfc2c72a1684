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

mapfile -t wanted < <(cat "${lists[@]}" 2>/dev/null |
	sed -e 's/#.*//' -e 's/[[:space:]]//g' |
	sed -e 's/^linux-image-6\.1\..*-amd64$/linux-image-amd64/' \
	    -e 's/^linux-headers-6\.1\..*-amd64$/linux-headers-amd64/' |
	grep -v '^$' | sort -u)
wanted+=(sparse perl)

missing=()
for p in "${wanted[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
	echo "deps: all ${#wanted[@]} packages present"
	exit 0
fi

echo "deps: installing ${missing[*]}"
sudo=''
[[ $(id -u) -eq 0 ]] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"

# checkpatch.pl for the pre-stop hook and `make checkpatch`
cache=${XDG_CACHE_HOME:-$HOME/.cache}/smcr
if [[ ! -x $cache/checkpatch.pl ]]; then
	mkdir -p "$cache"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$cache" --strip-components=2 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	chmod +x "$cache/checkpatch.pl"
fi
