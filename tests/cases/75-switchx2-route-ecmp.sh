#!/bin/sh
# SwitchX-2: IPv4 multipath routes as ECMP groups. 198.18.0.0/24 is
# reachable via h2 (p2) and h3 (p3), which both own its addresses; h1
# (p1) pings 32 of them. The route is one LPM entry over a block of
# adjacencies, as many per next hop as its weight, and the ASIC spreads
# the flows over both gateways by its hash, the CPU seeing no more than
# the first packets. A gateway that goes away leaves the group, and
# comes back to it with its link.
. /tests/lib.sh

for n in 1 2 3; do
	sx_host_setup_v4 "$n" || not_ok "switchx2: set up h$n"
done
sx_ecmp_hosts_v4_setup
ip route replace 198.18.0.0/24 \
	nexthop via "$(sx_host_ip 2)" nexthop via "$(sx_host_ip 3)"

ecmp_size() {
	sx_ecmp_size 198.18.0.0/24
}

# offloaded: the kernel marks the multipath route offloaded
offloaded() {
	[ "$(sx_route_flags 198.18.0.0/24)" = rt_offload ]
}

check "switchx2: h1 reaches the multipath prefix" \
	wait_for 10 sx_ping 1 198.18.0.1
check "switchx2: the multipath route is offloaded" wait_for 10 offloaded
check_eq "switchx2: the ASIC's route spreads over two next hops" \
	"remote 2" "$(sx_router '.routes[] | select(.prefix == "198.18.0.0/24") |
		"\(.action) \(."ecmp-size" // 0)"')"

sx_ecmp_spread "ECMP" sx_ecmp_pings_v4

# Weights: 2:1 is three adjacencies.
ip route replace 198.18.0.0/24 \
	nexthop via "$(sx_host_ip 2)" weight 2 nexthop via "$(sx_host_ip 3)"
ecmp_is() {
	sx_ecmp_is 198.18.0.0/24 "$1"
}
check "switchx2: a 2:1 route spreads over three adjacencies" \
	wait_for 5 ecmp_is 3

# p3_back_up: h3's link up again, and h3 known to the switch at once
# (its neighbour entry went with the link)
p3_back_up() {
	ip link set "$(sx_port 3)" up
	wait_carrier "$(sx_port 3)" 10 1
	sx_ping 3 "$(sx_swp_ip 3)" 1
}

# h3's link goes: the kernel marks its next hop dead, and the group is h2.
ip link set "$(sx_port 3)" down
ecmp_below() {
	[ "$(ecmp_size)" -lt "$1" ]
}
check "switchx2: with p3 down the group shrinks" wait_for 10 ecmp_below 3
rx3=$(host_stat 3 rx_packets)
check_eq "switchx2: h1's destinations all answer by h2" 32 \
	"$(sx_ecmp_pings_v4)"
check_eq "switchx2: none of them left by p3" 0 \
	"$(($(host_stat 3 rx_packets) - rx3))"
# Its link back, h3 is a next hop of the group again (its neighbour
# entry was flushed with the link and is resolved anew).
p3_back_up
check "switchx2: with p3 back up the group has h3 again" wait_for 15 ecmp_is 3
rx3=$(host_stat 3 rx_packets)
check_eq "switchx2: h1's destinations all answer" 32 \
	"$(sx_ecmp_pings_v4)"
d3=$(($(host_stat 3 rx_packets) - rx3))
check "switchx2: and some leave by p3 again ($d3)" test "$d3" -ge 10

# A route the kernel tells of while one of its next hops is dead: when
# the link comes back the kernel revives the hop without telling of the
# route again, so the group must have held the dead hop all along.
ip route add 198.18.0.0/24 metric 20 \
	nexthop via "$(sx_host_ip 2)" nexthop via "$(sx_host_ip 3)"
ip link set "$(sx_port 3)" down
check "switchx2: p3 down again, the group shrinks" wait_for 10 ecmp_below 3
ip route del 198.18.0.0/24 metric 0
check "switchx2: the next route, told of with h3 dead, sends to h2 alone" \
	wait_for 5 ecmp_is 1
p3_back_up
check "switchx2: with p3 back up that route has h3 again" \
	wait_for 15 ecmp_is 2

# p3_carrier on|off: h3's cable, as QEMU's set_link pulls it: p3 stays
# up and loses its carrier.
p3_carrier() {
	up=true
	carrier=1
	if [ "$1" = off ]; then
		up=false
		carrier=0
	fi
	host_qmp "{\"execute\": \"set_link\", \"arguments\": {\"name\": \"sx3\", \"up\": $up}}" \
		>/dev/null && wait_carrier "$(sx_port 3)" 10 "$carrier"
}

# A link that loses its carrier keeps its permanent neighbours, and the
# kernel goes on routing by it unless told to ignore such routes: then
# it stops using the hop (FIB_EVENT_NH_DEL), and so must the ASIC, until
# the carrier is back (FIB_EVENT_NH_ADD).
ip neigh replace "$(sx_host_ip 3)" lladdr "$(sx_host_mac 3)" nud permanent \
	dev "$(sx_port 3)"
echo 1 >"/proc/sys/net/ipv4/conf/$(sx_port 3)/ignore_routes_with_linkdown"
check "switchx2: p3 loses its carrier" p3_carrier off
check "switchx2: the kernel ignores h3's hop, and so does the ASIC" \
	wait_for 10 ecmp_is 1
check_eq "switchx2: without p3's carrier, all answer by h2" 32 \
	"$(sx_ecmp_pings_v4)"
check "switchx2: p3's carrier comes back" p3_carrier on
check "switchx2: with it h3 is in the group again" wait_for 10 ecmp_is 2
# A route via h3 alone is the kernel's no more without p3's carrier: the
# CPU routes its prefix (by a shorter one, if any) until it is back.
ip route add 198.18.1.0/24 via "$(sx_host_ip 3)"
action_is() {
	[ "$(sx_route_action 198.18.1.0/24)" = "$1" ]
}
check "switchx2: a route via h3 alone goes to its adjacency" \
	wait_for 5 action_is remote
p3_carrier off
check "switchx2: without p3's carrier it traps" wait_for 10 action_is trap
p3_carrier on
check "switchx2: with the carrier back it goes to h3 again" \
	wait_for 10 action_is remote
ip route del 198.18.1.0/24
echo 0 >"/proc/sys/net/ipv4/conf/$(sx_port 3)/ignore_routes_with_linkdown"
ip neigh del "$(sx_host_ip 3)" dev "$(sx_port 3)"

ip route del 198.18.0.0/24
check_eq "switchx2: a deleted multipath route leaves the ASIC" "" \
	"$(sx_route_of 198.18.0.0/24)"
check_eq "switchx2: and its adjacencies with it" 0 \
	"$(sx_router "[.neighbours[] | select(.index != null and
		(.mac == \"$(sx_host_mac 2)\" or .mac == \"$(sx_host_mac 3)\"))] |
		length")"
sx_ecmp_hosts_v4_teardown
