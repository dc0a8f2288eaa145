#!/bin/sh
# SwitchX-2: IPv4 multipath routes as ECMP groups. 198.18.0.0/24 is
# reachable via h2 (p2) and h3 (p3), which both own its addresses; h1
# (p1) pings 32 of them. The route is one LPM entry over a block of
# adjacencies, as many per next hop as its weight, and the ASIC spreads
# the flows over both gateways by its hash, the CPU seeing no more than
# the first packets. A gateway that goes away leaves the group.
. /tests/lib.sh

for n in 1 2 3; do
	sx_host_setup "$n" || not_ok "switchx2: set up h$n"
	ip netns exec "h$n" sh -c \
		'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6'
	echo 1 >"/proc/sys/net/ipv6/conf/$(sx_port "$n")/disable_ipv6"
	# Only their own subnets: earlier tests' shared subnet would
	# shadow the routes.
	ip -n "h$n" addr flush dev eth0
	ip -n "h$n" addr add "$(sx_host_ip "$n")/30" dev eth0
done
swp1=$(sx_port 1)
for n in 2 3; do
	ip -n "h$n" addr add 198.18.0.0/24 dev lo
	ip -n "h$n" link set lo up
	ip -n "h$n" route replace 192.0.2.0/24 via "$(sx_swp_ip "$n")"
done
ip -n h1 route replace 198.18.0.0/24 via "$(sx_swp_ip 1)"
echo 1 >/proc/sys/net/ipv4/ip_forward
ip route replace 198.18.0.0/24 \
	nexthop via "$(sx_host_ip 2)" nexthop via "$(sx_host_ip 3)"

# ecmp_size: the ASIC's ECMP size of the multipath route
ecmp_size() {
	sx_router '.routes[] | select(.prefix == "198.18.0.0/24") |
		."ecmp-size" // 0'
}

# offloaded: the kernel marks the multipath route offloaded
offloaded() {
	[ "$(sx_route_flags 198.18.0.0/24)" = rt_offload ]
}

# pings_to_all: h1 pings 198.18.0.1..32, 3 each
pings_to_all() {
	ok_count=0
	for i in $(seq 1 32); do
		ip netns exec h1 ping -q -c 3 -i 0.05 -W 1 "198.18.0.$i" \
			>/dev/null 2>&1 && ok_count=$((ok_count + 1))
	done
	echo "$ok_count"
}

check "switchx2: h1 reaches the multipath prefix" \
	wait_for 10 sx_ping 1 198.18.0.1
check "switchx2: the multipath route is offloaded" wait_for 10 offloaded
check_eq "switchx2: the ASIC's route spreads over two next hops" \
	"remote 2" "$(sx_router '.routes[] | select(.prefix == "198.18.0.0/24") |
		"\(.action) \(."ecmp-size" // 0)"')"

rx2=$(host_stat 2 rx_packets)
rx3=$(host_stat 3 rx_packets)
cpu_before=$(sx_cpu_hit "$swp1" RX)
check_eq "switchx2: h1's 32 destinations all answer" 32 "$(pings_to_all)"
d2=$(($(host_stat 2 rx_packets) - rx2))
d3=$(($(host_stat 3 rx_packets) - rx3))
check "switchx2: the flows leave by both gateways (h2 $d2, h3 $d3)" \
	test "$d2" -ge 10 -a "$d3" -ge 10
cpu_after=$(sx_cpu_hit "$swp1" RX)
check "switchx2: routed in the ASIC (CPU saw $((cpu_after - cpu_before)) of 96)" \
	test "$((cpu_after - cpu_before))" -le 10

# Weights: 2:1 is three adjacencies.
ip route replace 198.18.0.0/24 \
	nexthop via "$(sx_host_ip 2)" weight 2 nexthop via "$(sx_host_ip 3)"
ecmp_is() {
	[ "$(ecmp_size)" = "$1" ]
}
check "switchx2: a 2:1 route spreads over three adjacencies" \
	wait_for 5 ecmp_is 3

# h3's link goes: the kernel marks its next hop dead, and the group is h2.
ip link set "$(sx_port 3)" down
ecmp_below() {
	[ "$(ecmp_size)" -lt "$1" ]
}
check "switchx2: with p3 down the group shrinks" wait_for 10 ecmp_below 3
rx3=$(host_stat 3 rx_packets)
check_eq "switchx2: h1's destinations all answer by h2" 32 "$(pings_to_all)"
check_eq "switchx2: none of them left by p3" 0 \
	"$(($(host_stat 3 rx_packets) - rx3))"
# Its link back, h3 is a next hop of the group again (its neighbour
# entry was flushed with the link and is resolved anew).
ip link set "$(sx_port 3)" up
wait_carrier "$(sx_port 3)" 10 1
ip netns exec h3 ping -q -c 1 -W 1 "$(sx_swp_ip 3)" >/dev/null 2>&1
check "switchx2: with p3 back up the group has h3 again" wait_for 15 ecmp_is 3
rx3=$(host_stat 3 rx_packets)
check_eq "switchx2: h1's destinations all answer" 32 "$(pings_to_all)"
d3=$(($(host_stat 3 rx_packets) - rx3))
check "switchx2: and some leave by p3 again ($d3)" test "$d3" -ge 10

ip route del 198.18.0.0/24
check_eq "switchx2: a deleted multipath route leaves the ASIC" "" \
	"$(sx_route_of 198.18.0.0/24)"
check_eq "switchx2: and its adjacencies with it" 0 \
	"$(sx_router "[.neighbours[] | select(.index != null and
		(.mac == \"$(sx_host_mac 2)\" or .mac == \"$(sx_host_mac 3)\"))] |
		length")"
for n in 2 3; do
	ip -n "h$n" addr del 198.18.0.0/24 dev lo
	ip -n "h$n" route del 192.0.2.0/24
done
ip -n h1 route del 198.18.0.0/24
