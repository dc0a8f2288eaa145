#!/bin/sh
# mlxsw core: an EMAD the device answers as busy is sent again. Whatever
# allocation fails on the way (the retransmission's copy of the request,
# above all), the register access ends, with an error at worst: it never
# hangs its caller, who usually holds RTNL. Each run answers one EMAD of
# an MTU change as busy and makes one skb allocation fail (failslab on
# the skbuff_head_cache, which the kernel command line marks with
# slub_debug=a: every Nth allocation for a different N each run), with
# the device quiet so that the EMAD path makes most of the allocations.
. /tests/lib.sh

FS=/sys/kernel/debug/failslab
CACHE=/sys/kernel/slab/skbuff_head_cache/failslab
RUNS_PER_N=3
N_MAX=12

[ -d /sys/kernel/debug/failslab ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
if [ ! -d "$FS" ] || [ "$(cat "$CACHE" 2>/dev/null)" != 1 ]; then
	skip "switchx2: EMAD retransmission under allocation failures" \
		"needs failslab and slub_debug=a,skbuff_head_cache"
	exit 0
fi
swp=$(sx_port 1)
# No carrier, no counter polling; no bridge, no FDB polling.
for p in $(netdevs_of_driver "$SX_DRIVER"); do
	ip link set "$p" down
done
echo 0 >"$FS/verbose"
echo Y >"$FS/cache-filter"
echo N >"$FS/ignore-gfp-wait"
echo 0 >"$FS/times"
echo 100 >"$FS/probability"

# running PID: the process runs (a zombie does not: the shell reaps its
# background children only when it waits for them)
running() {
	st=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ]
}

done_running() {
	! running "$1"
}

runs=0
hung=""
retried_failures=0
mtu=1400
n=2
fault_begin "busy EMADs and slab allocation failures"
while [ "$n" -le "$N_MAX" ] && [ -z "$hung" ]; do
	r=0
	while [ "$r" -lt "$RUNS_PER_N" ]; do
		dmesg -c >/dev/null
		sx_qom_set fault-emad-busy 1
		echo "$n" >"$FS/interval"
		echo 1 >"$FS/times"
		# Through sysfs: a netlink request and its answer would take
		# skbs, and iproute2 waits for ever on an answer it cannot get.
		sh -c "echo $mtu >/sys/class/net/$swp/mtu" 2>/dev/null &
		pid=$!
		if ! wait_for 15 done_running "$pid"; then
			hung="every ${n}th allocation failing, run $((r + 1)), waiting in $(cat "/proc/$pid/wchan" 2>/dev/null)"
			break
		fi
		wait "$pid"
		echo 0 >"$FS/times"
		sx_qom_set fault-emad-busy 0
		# The retransmission itself failed: retried, then failed.
		if dmesg | grep -q "EMAD retries" && dmesg | grep -q "EMAD reg access failed"; then
			retried_failures=$((retried_failures + 1))
		fi
		runs=$((runs + 1))
		mtu=$((mtu == 1400 ? 1401 : 1400))
		r=$((r + 1))
	done
	n=$((n + 1))
done
echo 0 >"$FS/times"
echo 0 >"$FS/probability"

if [ -n "$hung" ]; then
	not_ok "switchx2: a busy EMAD whose retransmission meets failing allocations never hangs" \
		"the MTU change did not return within 15 s ($hung)" "$(dmesg | tail -n 8)"
	fault_end
	exit 0
fi
fault_end
ok "switchx2: a busy EMAD whose retransmission meets failing allocations never hangs ($runs runs)"
if [ "$retried_failures" -gt 0 ]; then
	ok "switchx2: $retried_failures runs failed the retransmission itself, and ended"
else
	not_ok "switchx2: some runs failed the retransmission itself" \
		"no run logged both 'EMAD retries' and a failed access"
fi
check "switchx2: the MTU changes normally afterwards" ip link set "$swp" mtu 1500
