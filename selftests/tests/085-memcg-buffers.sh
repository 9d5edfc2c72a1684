#!/bin/bash
# DESC: RMBs and send buffers are charged to the memory cgroup of the connection's socket: the client's creator's, and for an accepted child its listener's
# SMOKE: yes
# PEER: yes
# TIMEOUT: 150
#
# Each VM mounts cgroup v2 (the VMs' init does not), enables the memory
# controller and makes a child cgroup; b's smctest server (listener
# SO_RCVBUF/SO_SNDBUF 1M) and a's smctest client (the same) run in their
# VM's one, and a opens 8 SMC-R connections to b and holds them; there are
# no other link groups. Both VMs' buffers are allocated in smcr's
# handshake workers. Asserts, on each VM while the connections are held:
# the cgroup's memory (memory.current: exact, where memory.stat's
# "kernel" may lag by a flush period) grew, since before the connections,
# by at least the RMB and send buffer memory of the only link group
# (`smcr lgr show`: rmb_alloc + sndbuf_alloc, 8 x 2 x 256 KiB with the
# default rmem_max). Before, the buffers were charged to nobody (the
# worker's root cgroup), and b's children were in no memory cgroup: the
# kernel memory grew by a few KiB per connection. Skips on a kernel
# without cgroup v2 or its memory controller (the debug kernel). Cost:
# 8 idle connections, a few reads of memory.stat.
source "$ST_DIR/lib.sh"
[[ $ST_FAMILY == smc ]] || st_skip "needs the module"
st_need_rxe
P=$ST_PORT
N=8

grep -qw cgroup2 /proc/filesystems || st_skip "kernel without cgroup v2"
CG_ROOT=$ST_TMP/cgroup2
mkdir -p "$CG_ROOT"
mount -t cgroup2 none "$CG_ROOT" || st_fail "cannot mount cgroup2"
st_cleanup "umount $CG_ROOT"
grep -qw memory "$CG_ROOT/cgroup.controllers" || st_skip "cgroup v2 without the memory controller"
if ! grep -qw memory "$CG_ROOT/cgroup.subtree_control"; then
	echo +memory >"$CG_ROOT/cgroup.subtree_control" || st_fail "cannot enable the memory controller"
	# after the rmdir (registered later, so run first)
	st_cleanup "echo -memory >$CG_ROOT/cgroup.subtree_control"
fi
CG=$CG_ROOT/smcr-st085
rmdir "$CG" 2>/dev/null
mkdir "$CG" || st_fail "cannot make cgroup $CG"
# registered before the umount's, so it runs first; the processes are
# gone by then (the client and server end, or the cleanups below killed
# and reaped them)
st_cleanup "rmdir $CG 2>/dev/null"

# smctest, started in the cgroup (for st_serve_bg)
in_cg=$ST_TMP/smctest-in-cg
printf '#!/bin/sh\necho $$ >%s/cgroup.procs || exit 1\nexec %s "$@"\n' "$CG" "$SMCTEST" >"$in_cg"
chmod +x "$in_cg"

# the cgroup's memory, exact (the page counter; at most the per-CPU
# charge batches above what is used)
cg_mem() { echo "$(<"$CG/memory.current")"; }

smcr_socks() { "$SMCTEST" diag --kv --port "$P" | grep -c "mode=smcr.*token="; }

await_socks() {
	local end=$((SECONDS + 60))
	while ((SECONDS < end)); do
		(($(smcr_socks) >= N)) && return 0
		vm_nap 0.2
	done
	echo "SMC-R sockets on port $P: $(smcr_socks), expected $N"
	return 1
}

st_no_lgrs 60 || st_fail "link groups of earlier tests did not end"

# check BEFORE: the cgroup's kernel memory now, against BEFORE
check() {
	local now lgrs bufs grew
	now=$(cg_mem)
	lgrs=$("$SMCR_TOOLS/bin/smcr" -j lgr show) || st_fail "smcr lgr show failed"
	[[ $(jq length <<<"$lgrs") == 1 ]] || st_fail "expected one link group: $lgrs"
	bufs=$(jq '.[0].rmb_alloc + .[0].sndbuf_alloc' <<<"$lgrs")
	grew=$((now - $1))
	echo "$(smcr_socks) SMC-R sockets; link group buffers $bufs bytes ($(jq -c '.[0] | {rmb_alloc, sndbuf_alloc}' <<<"$lgrs")); cgroup memory grew by $grew bytes ($1 -> $now)"
	((bufs >= N * 2 * 16384)) || st_fail "the link group has $bufs bytes of buffers: nothing tested"
	((grew >= bufs)) || st_fail "the buffers ($bufs bytes) are not charged to the socket's memory cgroup (it grew by $grew)"
}

hold=$ST_TMP/hold
case $SMCR_ROLE in
b) before=$(cg_mem)
   SMCTEST=$in_cg st_serve_bg srv server --family smc --port "$P" --conns "$N" --concurrent --mode sink \
	--bytes 4K --rcvbuf 1M --sndbuf 1M --expect-mode smcr --timeout 120s || exit 1
   srv=${ST_PIDS[*]}
   st_cleanup '[[ -n $srv ]] && kill $srv 2>/dev/null; [[ -n $srv ]] && wait $srv'
   await_socks || exit 1
   vm_sync "$ST_KEY-held" || exit 1
   check "$before"
   vm_sync "$ST_KEY-checked" || exit 1
   st_wait_all || exit 1
   srv= ;;
a) st_await srv || exit 1
   before=$(cg_mem)
   : >"$hold"
   "$in_cg" client --family smc --addr "$SMCR_PEER_IP" --port "$P" --conns "$N" --mode sink --bytes 4K \
	--rcvbuf 1M --sndbuf 1M --hold 120s --hold-file "$hold" --expect-mode smcr --timeout 130s &
   cpid=$!
   st_cleanup '[[ -n $cpid ]] && kill $cpid 2>/dev/null; [[ -n $cpid ]] && wait $cpid'
   await_socks || exit 1
   vm_sync "$ST_KEY-held" || exit 1
   check "$before"
   vm_sync "$ST_KEY-checked" || exit 1
   rm -f "$hold"
   wait "$cpid" || { cpid=; st_fail "the client failed"; }
   cpid= ;;
esac
