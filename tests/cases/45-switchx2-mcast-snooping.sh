#!/bin/sh
# SwitchX-2: multicast under a snooping bridge goes where the bridge's MDB
# says, once. The device has no multicast groups the driver programs, so
# while the bridge snoops its multicast reaches the CPU only and the
# bridge forwards it; with snooping off the ASIC floods it to every port,
# and the bridge does not forward it a second time.
. /tests/lib.sh

FRAMES=20
GROUP=239.1.1.1

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 || not_ok "switchx2: create br0 with p1..p3"
# Without a querier the bridge floods even registered groups; its own
# querier counts once a query response interval has passed, the one in
# force when it is turned on (so first make it 1 s).
ip link set br0 type bridge mcast_snooping 1 mcast_query_response_interval 100
ip link set br0 type bridge mcast_querier 1
sleep 2
ip -n h1 route add 224.0.0.0/4 dev eth0
bridge mdb add dev br0 port "$(sx_port 2)" grp "$GROUP" permanent ||
	not_ok "switchx2: add $GROUP on p2 to br0's MDB"

# send_to_group: FRAMES frames to GROUP from h1; print how many frames h2
# and h3 received meanwhile and how many the CPU got from p1
send_to_group() {
	a2=$(host_stat 2 rx_packets)
	a3=$(host_stat 3 rx_packets)
	c1=$(sx_cpu_hit "$(sx_port 1)" RX)
	ip netns exec h1 ping -q -c "$FRAMES" -i 0.05 -W 1 "$GROUP" >/dev/null 2>&1
	sleep 0.5
	echo "$(($(host_stat 2 rx_packets) - a2)) $(($(host_stat 3 rx_packets) - a3))" \
		"$(($(sx_cpu_hit "$(sx_port 1)" RX) - c1))"
}

# At most two extra frames on a host: the bridge's own queries.
once() {
	[ "$1" -ge "$FRAMES" ] && [ "$1" -le $((FRAMES + 2)) ]
}

set -- $(send_to_group)
if once "$1" && [ "$2" -le 2 ] && [ "$3" -ge "$FRAMES" ]; then
	ok "switchx2: snooping bridge: $GROUP reaches its member h2 once (+$1), not h3 (+$2), through the CPU (+$3)"
else
	not_ok "switchx2: snooping bridge: $GROUP reaches its member h2 once, not h3" \
		"h2 +$1, h3 +$2, CPU from p1 +$3"
fi

ip link set br0 type bridge mcast_snooping 0
set -- $(send_to_group)
if once "$1" && once "$2"; then
	ok "switchx2: snooping off: the ASIC floods $GROUP to h2 (+$1) and h3 (+$2), each once"
else
	not_ok "switchx2: snooping off: the ASIC floods $GROUP to h2 and h3, each once" \
		"h2 +$1, h3 +$2, CPU from p1 +$3"
fi

ip -n h1 route del 224.0.0.0/4 dev eth0
sx_bridge_destroy br0
