#!/bin/sh
# SwitchX-2: routes the ASIC cannot forward as the kernel would. Its LPM
# entries match a destination prefix and nothing else, and its
# adjacencies rewrite MACs only. A route that matches a TOS (DSCP), and
# a route or nexthop object that encapsulates (MPLS here), would be
# forwarded wrongly: such routes trap to the CPU, which forwards by them,
# and such nexthop objects are refused when they are created. Netdevs
# of the device in another namespace do not route in the ASIC.
. /tests/lib.sh

for n in 1 2; do
	sx_host_setup_v4 "$n" || not_ok "switchx2: set up h$n"
done
swp2=$(sx_port 2)
h2_ip=$(sx_host_ip 2)
ip -n h1 route replace 10.0.0.0/8 via "$(sx_swp_ip 1)"
ip -n h1 route replace 192.0.2.0/24 via "$(sx_swp_ip 1)"
ip -n h2 route replace 192.0.2.0/24 via "$(sx_swp_ip 2)"
ip -n h2 addr add 10.20.0.1/32 dev lo
ip -n h2 addr add 10.21.0.1/32 dev lo
ip -n h2 link set lo up
echo 1 >/proc/sys/net/ipv4/ip_forward
# rocker's 6.1 FIB offload takes every route of the namespace, and
# refuses the nexthop objects below for its own reasons.
rocker_pause
check "switchx2: h1 pings h2" wait_for 10 sx_ping 1 "$h2_ip"

action_is() {
	[ "$(sx_route_action "$1")" = "$2" ]
}

# h1_pings_tos TOS ADDRESS: h1's pings with that TOS are answered
h1_pings_tos() {
	ip netns exec h1 ping -q -c 2 -i 0.2 -W 1 -Q "$1" "$2" >/dev/null 2>&1
}

# A route for TOS 0x10 only: the kernel has no route for other packets
# to the prefix, and the ASIC must not forward them by this one.
ip route add 10.20.0.0/24 tos 0x10 via "$h2_ip"
check "switchx2: a route with a TOS traps to the CPU" \
	wait_for 5 action_is 10.20.0.0/24 trap
check_eq "switchx2: and ip route shows it trapping" rt_trap \
	"$(sx_route_flags 10.20.0.0/24)"
check "switchx2: h1's pings with that TOS reach 10.20.0.1 (the CPU routes them)" \
	h1_pings_tos 0x10 10.20.0.1
check "switchx2: its pings without it do not: the kernel has no route for them" \
	sh -c "! ip netns exec h1 ping -q -c 2 -i 0.2 -W 1 10.20.0.1 >/dev/null 2>&1"
# With a route for every TOS too, the prefix still traps: the ASIC
# cannot tell the two apart.
ip route add 10.20.0.0/24 via "$h2_ip"
check "switchx2: beside a route for every TOS, the prefix still traps" \
	action_is 10.20.0.0/24 trap
ip route del 10.20.0.0/24 tos 0x10
check "switchx2: the TOS route gone, the prefix goes to h2's adjacency" \
	wait_for 5 action_is 10.20.0.0/24 remote
ip route del 10.20.0.0/24

# An MPLS-encapsulating route: h2 would get the packets with a label it
# does not decode, not plain IPv4 it answers.
ip route add 10.21.0.0/24 encap mpls 100 via "$h2_ip" dev "$swp2"
check "switchx2: an encapsulating route traps to the CPU" \
	wait_for 5 action_is 10.21.0.0/24 trap
check_eq "switchx2: and ip route shows it trapping" rt_trap \
	"$(sx_route_flags 10.21.0.0/24)"
check "switchx2: h1's pings leave encapsulated (h2 does not answer them)" \
	sh -c "! ip netns exec h1 ping -q -c 2 -i 0.2 -W 1 10.21.0.1 >/dev/null 2>&1"
ip route del 10.21.0.0/24

refused "switchx2: an encapsulating nexthop object is refused" \
	"not supported" \
	ip nexthop add id 80 encap mpls 200 via "$h2_ip" dev "$swp2"
refused "switchx2: an FDB nexthop object is refused" "not supported" \
	ip nexthop add id 81 via "$h2_ip" fdb
check_eq "switchx2: no refused object is left" "" \
	"$(ip nexthop show | grep -w -e 'id 80' -e 'id 81')"
ip nexthop flush >/dev/null 2>&1

# A netdev of the device in another namespace: its addresses and routes
# are that namespace's, which the router does not follow (the FIB it
# offloads is the devlink instance's). An 802.1Q upper of p3 moved there
# with an address is no RIF: the ASIC would route what reaches its MAC
# by the wrong namespace's routes.
swp3=$(sx_port 3)
ip link set "$swp3" up
ip link add link "$swp3" name "$swp3.77" type vlan id 77
ip netns add other
ip link set "$swp3.77" netns other
ip -n other addr add 198.51.100.33/28 dev "$swp3.77"
ip -n other link set "$swp3.77" up
sleep 1
check_eq "switchx2: an 802.1Q upper in another namespace with an address is no RIF" \
	"" "$(sx_rif_of 3 77)"
ip -n other link set "$swp3.77" netns 1
ip addr add 198.51.100.33/28 dev "$swp3.77"
ip link set "$swp3.77" up
p3_vid77_routes() {
	[ -n "$(sx_rif_of 3 77)" ]
}
check "switchx2: back in the device's namespace, it is one" \
	wait_for 5 p3_vid77_routes
ip link del "$swp3.77"
ip netns del other

ip -n h2 addr del 10.20.0.1/32 dev lo
ip -n h2 addr del 10.21.0.1/32 dev lo
rocker_resume
