# shellcheck shell=bash
# Helpers for tests running inside the smcr test VMs (tools/testing/vm/run).
# Source it:  . "$SMCR_LIB"   (or tools/testing/vm/lib.sh from the tree root)
#
#   vm_sync NAME [TIMEOUT]  barrier: returns when both VMs reached NAME
#                           (default timeout 120 s; non-zero + message on timeout).
#                           Calling the same NAME again is a new barrier.
#   vm_put KEY VALUE        publish a small value for the peer
#   vm_get KEY [TIMEOUT]    wait for the peer's value of KEY and print it
#                           (with one VM the "peer" is this VM itself)
#   smcr_load [PARAMS...]   load $SMCR_MODDIR/smcr.ko (and the in-tree modules
#                           it depends on) unless smcr is already loaded, with
#                           $SMCR_MOD_PARAMS (name=value ...) and PARAMS
#   smcr_unload             rmmod smcr if it is loaded
#   vm_nap SECONDS          sleep without fork + exec, for polling loops
#
# Everything goes through files in $SMCR_SHARED, which both VMs see (9p);
# polling every 50 ms. With SMCR_VMS=1 vm_sync returns at once.
#
# On the debug kernel under TCG one fork + exec costs ~0.1 s (KASAN and
# lockdep on every page of it): these helpers run in every test's polling
# loops, so they use bash builtins where a command would do the same.

: "${SMCR_SHARED:?not in a smcr test VM (SMCR_SHARED unset)}"
: "${SMCR_ROLE:?SMCR_ROLE unset}"
SMCR_VMS=${SMCR_VMS:-2}
SMCR_PEER_ROLE=${SMCR_PEER_ROLE:-$([[ $SMCR_ROLE == a ]] && echo b || echo a)}

# Sanitize a name for use as a file name.
_vm_name() {
	local n=${1//[^A-Za-z0-9._-]/_}
	printf '%s' "${n:-_}"
}

# vm_nap SECONDS: read -t on a FIFO this shell holds open at both ends and
# never writes to (made at the first call; sleep(1) if that fails).
vm_nap() {
	local f
	if [[ -z ${_vm_nap_fd-} ]]; then
		f=${TMPDIR:-/tmp}/vm_nap.$BASHPID.$RANDOM
		if mkfifo "$f" 2>/dev/null; then
			exec {_vm_nap_fd}<>"$f"
			rm -f "$f"
		else
			_vm_nap_fd=none
		fi
	fi
	# read times out with status > 128: not an error (set -e callers)
	if [[ $_vm_nap_fd == none ]]; then
		sleep "$1"
	else
		read -rt "$1" -u "$_vm_nap_fd" _ || :
	fi
}

_vm_mkdir() {
	[[ -d $1 ]] || mkdir -p "$1"
}

# Wait until file $1 exists; $2 = timeout in seconds, $3 = what (for errors).
_vm_wait_file() {
	local f=$1 timeout=$2 what=$3 end
	end=$((SECONDS + timeout))
	while [[ ! -e $f ]]; do
		if ((SECONDS >= end)); then
			echo "lib.sh: timeout after ${timeout}s waiting for $what (role $SMCR_ROLE)" >&2
			return 1
		fi
		vm_nap 0.05
	done
}

vm_sync() {
	local name gen dir cnt
	[[ $# -ge 1 ]] || { echo "usage: vm_sync NAME [TIMEOUT]" >&2; return 2; }
	[[ $SMCR_VMS == 1 ]] && return 0
	name=$(_vm_name "$1")
	dir=$SMCR_SHARED/sync
	_vm_mkdir "$dir"
	_vm_mkdir /tmp/smcr-sync
	# Generation counter (VM-local) so that reusing a name gives a new barrier.
	cnt=/tmp/smcr-sync/$name
	gen=0
	if [[ -e $cnt ]]; then
		read -r gen <"$cnt" || :
	fi
	gen=$((gen + 1))
	echo "$gen" >"$cnt"
	: >"$dir/$name.$gen.$SMCR_ROLE"
	_vm_wait_file "$dir/$name.$gen.$SMCR_PEER_ROLE" "${2:-120}" "vm_sync $1 (peer $SMCR_PEER_ROLE)"
}

vm_put() {
	local key dir
	[[ $# -eq 2 ]] || { echo "usage: vm_put KEY VALUE" >&2; return 2; }
	key=$(_vm_name "$1")
	dir=$SMCR_SHARED/kv
	_vm_mkdir "$dir"
	# Write + rename so that the reader never sees a partial value.
	printf '%s' "$2" >"$dir/.$SMCR_ROLE.$key.tmp"
	mv -f "$dir/.$SMCR_ROLE.$key.tmp" "$dir/$SMCR_ROLE.$key"
}

vm_get() {
	local key from=$SMCR_PEER_ROLE f lines
	[[ $# -ge 1 ]] || { echo "usage: vm_get KEY [TIMEOUT]" >&2; return 2; }
	key=$(_vm_name "$1")
	[[ $SMCR_VMS == 1 ]] && from=$SMCR_ROLE
	f=$SMCR_SHARED/kv/$from.$key
	_vm_wait_file "$f" "${2:-120}" "vm_get $1 from $from" || return 1
	mapfile -t lines <"$f"
	printf '%s\n' "${lines[@]}"
}

smcr_loaded() {
	[[ -d /sys/module/smcr ]]
}

smcr_load() {
	local ko=${SMCR_MODDIR:?}/smcr.ko dep
	smcr_loaded && return 0
	[[ -r $ko ]] || { echo "smcr_load: $ko not found (built for $(uname -r)?)" >&2; return 1; }
	# insmod does not resolve dependencies: load the in-tree ones first.
	for dep in $(modinfo -F depends "$ko" | tr ',' ' '); do
		modprobe "$dep" || { echo "smcr_load: modprobe $dep failed" >&2; return 1; }
	done
	# shellcheck disable=SC2086 # SMCR_MOD_PARAMS is a list of name=value
	insmod "$ko" ${SMCR_MOD_PARAMS:-} "$@"
}

smcr_unload() {
	smcr_loaded || return 0
	rmmod smcr
}
