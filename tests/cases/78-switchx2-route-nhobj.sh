#!/bin/sh
# SwitchX-2: routes via nexthop objects (ip nexthop). A route via a
# single nexthop object is the gateway's adjacency, via a nexthop group
# an ECMP group of its members; when the kernel changes an object, the
# routes using it follow; a blackhole object drops in the ASIC, and a
# resilient group, which SwitchX-2 has no buckets for, traps to the CPU.
# ip nexthop shows the object a route goes by offloaded while the ASIC
# forwards by it.
# IPv4 routes via IPv6 gateways use the IPv6 neighbours' adjacencies.
# IPv4 as test 75's topology: 198.18.0.0/24 is h2's and h3's.
. /tests/lib.sh

for n in 1 2 3; do
	sx_host_setup_v4 "$n" || not_ok "switchx2: set up h$n"
done
sx_ecmp_hosts_v4_setup
swp2=$(sx_port 2)
swp3=$(sx_port 3)
rocker_pause

# route_is ACTION-AND-SIZE: the ASIC's route to 198.18.0.0/24 is that
route_is() {
	[ "$(sx_router '.routes[] | select(.prefix == "198.18.0.0/24") |
		"\(.action) \(."ecmp-size" // .rif // "-")"')" = "$1" ]
}

# nh_flags ID: the offload flags ip nexthop shows for object ID. An
# object is offloaded while the ASIC holds it resolved, route or not.
nh_flags() {
	ip nexthop show id "$1" | grep -ow -e offload -e trap | xargs
}

# Resolve both gateways first.
for n in 2 3; do
	ip netns exec "h$n" ping -q -c 1 -W 1 "$(sx_swp_ip "$n")" >/dev/null 2>&1
done

ip nexthop add id 2 via "$(sx_host_ip 2)" dev "$swp2"
ip nexthop add id 3 via "$(sx_host_ip 3)" dev "$swp3"
ip nexthop add id 10 group 2/3
ip route add 198.18.0.0/24 nhid 2
check "switchx2: a route via a nexthop object is its gateway's adjacency" \
	wait_for 5 route_is "remote 1"
check_eq "switchx2: and is shown offloaded" rt_offload \
	"$(sx_route_flags 198.18.0.0/24)"
check_eq "switchx2: ip nexthop shows the object offloaded" offload \
	"$(nh_flags 2)"
check_eq "switchx2: and those no route goes by, resolved, too" \
	"offload/offload" "$(nh_flags 3)/$(nh_flags 10)"
# p4 with an address and a gateway that never answers: no host has
# addresses in 100.64.0.0/30 (an earlier test may have left h4 on p4's
# usual /30).
ip addr add 100.64.0.1/30 dev "$(sx_port 4)"
ip link set "$(sx_port 4)" up
ip nexthop add id 5 via 100.64.0.2 dev "$(sx_port 4)"
ip nexthop add id 13 group 5
sleep 6
check_eq "switchx2: an object whose gateway is not resolved is not offloaded" \
	"/" "$(nh_flags 5)/$(nh_flags 13)"
ip nexthop del id 13
ip nexthop del id 5
ip addr flush dev "$(sx_port 4)"

ip route replace 198.18.0.0/24 nhid 10
check "switchx2: a route via a nexthop group is an ECMP group of two" \
	wait_for 5 route_is "remote 2"
check_eq "switchx2: the group object is offloaded, and the one left still" \
	"offload/offload" "$(nh_flags 10)/$(nh_flags 2)"
sx_ecmp_spread "nexthop group" sx_ecmp_pings_v4

# The kernel changes the group under the route: the route follows.
ip nexthop replace id 10 group 2,2/3
check "switchx2: the group made 2:1, the route spreads over three" \
	wait_for 5 route_is "remote 3"
ip nexthop replace id 10 group 3
check "switchx2: the group made h3 alone, the route has one adjacency" \
	wait_for 5 route_is "remote 1"
# Echo requests h2 got: its neighbour, still object 2's gateway, is
# probed meanwhile, so its packet count would count ARP too.
h2_echos() {
	ip netns exec h2 awk '$1 == "Icmp:" && $2 ~ /^[0-9]/ { print $10 }' \
		/proc/net/snmp
}
echos2=$(h2_echos)
check_eq "switchx2: h1's destinations all answer by h3" 32 \
	"$(sx_ecmp_pings_v4)"
check_eq "switchx2: none of them left by p2" 0 \
	"$(($(h2_echos) - echos2))"
ip nexthop replace id 10 group 2/3
check "switchx2: both members back, two again" wait_for 5 route_is "remote 2"
# A member deleted leaves the group.
ip nexthop del id 3
check "switchx2: a deleted member leaves the group" \
	wait_for 5 route_is "remote 1"

ip nexthop add id 4 blackhole
bh_offloaded() {
	[ "$(nh_flags 4)" = offload ]
}
check "switchx2: a blackhole object is offloaded from the start" \
	wait_for 5 bh_offloaded
ip route replace 198.18.0.0/24 nhid 4
check "switchx2: a route via a blackhole object discards in the ASIC" \
	wait_for 5 route_is "discard -"
check_eq "switchx2: which is offloaded" offload "$(nh_flags 4)"

ip nexthop add id 3 via "$(sx_host_ip 3)" dev "$swp3"
check "switchx2: the kernel takes a resilient group" \
	ip nexthop add id 11 group 2/3 type resilient buckets 32
check "switchx2: and a route via it" ip route replace 198.18.0.0/24 nhid 11
trap_route() {
	[ "$(sx_route_action 198.18.0.0/24)" = trap ]
}
wait_for 5 trap_route
check_eq "switchx2: a route via a resilient group traps to the CPU" \
	trap "$(sx_route_action 198.18.0.0/24)"
check_eq "switchx2: which routes it: h1's destinations all answer" 32 \
	"$(sx_ecmp_pings_v4)"
check_eq "switchx2: the resilient group is not offloaded" "" "$(nh_flags 11)"

# IPv4 via IPv6 gateways (RFC 5549), as router_mpath_nh's link-local
# cases: an adjacency is a RIF and a MAC, whatever the route's family,
# so the IPv6 neighbour's MAC serves the IPv4 route.
ip nexthop del id 11
for n in 2 3; do
	sx_ipv6_on "$n"
	ip addr add "fe80:$n::1/64" dev "$(sx_port "$n")"
	ip -n "h$n" addr add "fe80:$n::2/64" dev eth0
done
ip route add 198.18.0.0/24 via inet6 fe80:2::2 dev "$swp2"
check "switchx2: an IPv4 route via an IPv6 gateway is its adjacency" \
	wait_for 10 route_is "remote 1"
check_eq "switchx2: and is shown offloaded" rt_offload \
	"$(sx_route_flags 198.18.0.0/24)"
ip nexthop replace id 2 via fe80:2::2 dev "$swp2"
ip nexthop replace id 3 via fe80:3::2 dev "$swp3"
ip nexthop add id 12 group 2/3
ip route replace 198.18.0.0/24 nhid 12
check "switchx2: via a group of IPv6 nexthops, an ECMP group of two" \
	wait_for 10 route_is "remote 2"
sx_ecmp_spread "IPv4 via IPv6 gateways" sx_ecmp_pings_v4

check_eq "switchx2: that group is offloaded" offload "$(nh_flags 12)"

ip route del 198.18.0.0/24
check_eq "switchx2: a deleted route leaves the ASIC" "" \
	"$(sx_route_of 198.18.0.0/24)"
check_eq "switchx2: its object stays offloaded, resolved without it" \
	offload "$(nh_flags 12)"
ip nexthop flush
check_eq "switchx2: the nexthops gone, so are the adjacencies" 0 \
	"$(sx_router "[.neighbours[] | select(.index != null and
		(.mac == \"$(sx_host_mac 2)\" or .mac == \"$(sx_host_mac 3)\"))] |
		length")"
for n in 2 3; do
	ip addr del "fe80:$n::1/64" dev "$(sx_port "$n")"
	ip -n "h$n" addr del "fe80:$n::2/64" dev eth0
done
rocker_resume
sx_ecmp_hosts_v4_teardown
