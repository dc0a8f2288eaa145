#!/bin/sh
# SwitchX-2: a port joining a bridge that runs STP stays closed until STP
# opens it. The bridge starts a new port blocked; the driver must close
# it in the ASIC before it gives it the bridge's VLAN and flood domains,
# or frames cross the port in between. The join is slowed down (late
# EMAD responses) so that an open window would let many frames through.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
swp1=$(sx_port 1)
swp2=$(sx_port 2)

ip link add br0 type bridge stp_state 1 forward_delay 200 hello_time 1000
echo 1 >/proc/sys/net/ipv6/conf/br0/disable_ipv6
ip link set br0 up
ip addr flush dev "$swp2"
ip link set "$swp2" master br0

port_state() {
	bridge -j link show dev "$1" | jq -r '.[0].state'
}

forwarding() {
	[ "$(port_state "$1")" = forwarding ]
}

if wait_for 15 forwarding "$swp2"; then
	ok "switchx2: $swp2 forwards in the STP bridge"
else
	not_ok "switchx2: $swp2 forwards in the STP bridge" "state $(port_state "$swp2")"
fi

# Both hosts broadcast while p1 joins.
ip netns exec h1 ping -q -b -i 0.02 198.51.100.255 >/dev/null 2>&1 &
p1=$!
ip netns exec h2 ping -q -b -i 0.02 198.51.100.255 >/dev/null 2>&1 &
p2=$!
sleep 0.5
rx1=$(host_stat 1 rx_packets)
rx2=$(host_stat 2 rx_packets)
sx_qom_set fault-emad-delay-ms 100
ip addr flush dev "$swp1"
ip link set "$swp1" master br0
sx_qom_set fault-emad-delay-ms 0
state=$(port_state "$swp1")
sleep 0.2
d1=$(($(host_stat 1 rx_packets) - rx1))
d2=$(($(host_stat 2 rx_packets) - rx2))
kill "$p1" "$p2"
wait "$p1" "$p2" 2>/dev/null

# A BPDU from the bridge (every 10 s) may reach each host meanwhile.
if [ "$d1" -le 3 ] && [ "$d2" -le 3 ]; then
	ok "switchx2: nothing crossed $swp1 while it joined ($state): h1 +$d1, h2 +$d2"
else
	not_ok "switchx2: nothing crossed $swp1 while it joined ($state)" \
		"h1 received +$d1, h2 +$d2 frames, expected a BPDU or two at most"
fi
if wait_for 15 forwarding "$swp1"; then
	check "switchx2: once STP opens $swp1, h1 pings h2" sx_ping 1 "$(sx_l2_ip 2)"
else
	not_ok "switchx2: STP opens $swp1" "state $(port_state "$swp1")"
fi
sx_bridge_destroy br0
