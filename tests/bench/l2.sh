#!/bin/sh
# Guest side of scripts/bench.sh: h1 -> h2 TCP throughput through
#   - the emulated SwitchX-2, ports p1 and p2 in an offloaded bridge,
#   - QEMU's rocker, its two ports in an offloaded bridge,
#   - a Linux software bridge over two virtio-net NICs,
# then, on the SwitchX-2, the latency from a frame with a new source MAC
# to its offloaded entry in `bridge fdb show`, and the rate at which
# static FDB entries reach the ASIC. Results are "bench: ..." lines.
. /tests/lib.sh

SECONDS_PER_RUN=${BENCH_SECONDS:-10}
SW_PORT_MAC_PREFIX=52:54:00:cc:00
SW_HOST_MAC_PREFIX=52:54:00:cc:01
ROCKER_HOST_MAC_PREFIX=${ROCKER_HOST_MAC_PREFIX:-52:54:00:aa:00}

# ns_host NS NIC_MAC ADDR: move the NIC with that MAC into NS as eth0
ns_host() {
	nic=$(netdev_by_mac "$2") || { echo "bench: no NIC $2" >&2; return 1; }
	ip netns add "$1"
	ip link set "$nic" netns "$1"
	ip -n "$1" link set "$nic" name eth0
	ip -n "$1" addr add "$3/24" dev eth0
	ip -n "$1" link set eth0 up
	ip -n "$1" link set lo up
}

# bridge_of NAME PORT...: a VLAN-unaware bridge over the given netdevs
bridge_of() {
	br=$1
	shift
	ip link add "$br" type bridge
	ip link set "$br" up
	for p in "$@"; do
		ip link set "$p" master "$br"
		ip link set "$p" up
	done
}

# throughput NAME NS_FROM NS_TO ADDR_TO
throughput() {
	ip netns exec "$3" iperf3 -s -1 -D >/dev/null 2>&1
	sleep 1
	ping_ok=0
	ip netns exec "$2" ping -c 3 -W 2 "$4" >/dev/null 2>&1 && ping_ok=1
	if [ $ping_ok -eq 0 ]; then
		echo "bench: $1 throughput FAILED (no ping)"
		return
	fi
	rate=$(ip netns exec "$2" iperf3 -c "$4" -t "$SECONDS_PER_RUN" -f m 2>&1 |
		awk '/receiver/ { print $(NF - 2), $(NF - 1) }')
	echo "bench: $1 throughput ${rate:-FAILED}"
}

rocker_port() {
	for p in $(netdevs_of_driver rocker); do
		case "$(cat "/sys/class/net/$p/phys_port_name")" in
		*p$1) echo "$p"; return 0 ;;
		esac
	done
	return 1
}

bench_switchx2() {
	sx_l2_hosts_setup
	sx_bridge_create br0 0 1 2
	throughput "switchx2 (offloaded bridge)" h1 h2 "$(sx_l2_ip 2)"
}

bench_rocker() {
	ns_host r1 "$ROCKER_HOST_MAC_PREFIX:01" 203.0.113.1
	ns_host r2 "$ROCKER_HOST_MAC_PREFIX:02" 203.0.113.2
	bridge_of brr "$(rocker_port 1)" "$(rocker_port 2)"
	throughput "rocker (offloaded bridge)" r1 r2 203.0.113.2
}

bench_soft_bridge() {
	ns_host s1 "$SW_HOST_MAC_PREFIX:01" 203.0.113.65
	ns_host s2 "$SW_HOST_MAC_PREFIX:02" 203.0.113.66
	bridge_of brs "$(netdev_by_mac "$SW_PORT_MAC_PREFIX:01")" \
		"$(netdev_by_mac "$SW_PORT_MAC_PREFIX:02")"
	throughput "Linux bridge over virtio-net" s1 s2 203.0.113.66
}

# A new source MAC on h1, one ARP request, then poll the bridge.
bench_learn_latency() {
	total=0
	runs=5
	i=1
	while [ $i -le $runs ]; do
		mac=52:54:00:bb:1$i:01
		ip -n h1 link set eth0 address "$mac"
		ip -n h1 neigh flush all
		t0=$(now_ms)
		ip netns exec h1 ping -c 1 -W 1 "$(sx_l2_ip 2)" >/dev/null 2>&1 &
		while ! bridge fdb show br br0 | grep -qi "^$mac .*offload"; do
			[ $(($(now_ms) - t0)) -gt 10000 ] && break
		done
		t=$(($(now_ms) - t0))
		wait
		echo "bench: switchx2 learned entry in bridge fdb after $t ms (run $i)"
		total=$((total + t))
		i=$((i + 1))
	done
	echo "bench: switchx2 learned-entry latency mean $((total / runs)) ms over $runs runs"
	ip -n h1 link set eth0 address "$(sx_host_mac 1)"
}

bench_static_fdb() {
	n=1000
	swp2=$(sx_port 2)
	fdb_batch add "$swp2" 0 $n 02:00:00:8f >/tmp/bench-add
	fdb_batch del "$swp2" 0 $n 02:00:00:8f >/tmp/bench-del
	# An entry is offloaded once the ASIC took it (SFD num_rec).
	offloaded() {
		bridge fdb show br br0 | grep -ci "^02:00:00:8f:.* dev $swp2 .*offload"
	}
	t0=$(now_ms)
	bridge -batch /tmp/bench-add
	while [ "$(offloaded)" != $n ]; do
		[ $(($(now_ms) - t0)) -gt 120000 ] && break
		sleep 0.05
	done
	t=$(($(now_ms) - t0))
	echo "bench: switchx2 static FDB: $(offloaded) of $n entries in the ASIC after $t ms, $((n * 1000 / (t > 0 ? t : 1))) entries/s"
	bridge -batch /tmp/bench-del
}

for b in ${BENCHES:-switchx2 rocker soft_bridge learn_latency static_fdb}; do
	"bench_$b"
done
echo "bench: done"
