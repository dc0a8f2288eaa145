#!/bin/sh
# SwitchX-2: IPv6 multipath routes as ECMP groups, as test 75 does for
# IPv4. 2001:db8:30::/64 is reachable via h2 (p2) and h3 (p3), which
# both own its addresses. The kernel builds an IPv6 multipath route of
# sibling routes and tells of it whole (ip route add with nexthops) or
# a sibling at a time (ip route append, ip route del of one next hop):
# either way the ASIC has one LPM entry over an ECMP group of the
# siblings' gateways, and spreads h1's flows over both. A sibling whose
# link is down leaves the group's block, and comes back to it with its
# link.
. /tests/lib.sh

for n in 1 2 3; do
	sx_host_setup_v6 "$n" || not_ok "switchx2: set up h$n"
done
# Every address of the prefix is h2's and h3's own (AnyIP).
for n in 2 3; do
	ip -n "h$n" link set lo up
	ip -n "h$n" -6 route add local 2001:db8:30::/64 dev lo
done
echo 1 >/proc/sys/net/ipv6/conf/all/forwarding
swp2=$(sx_port 2)
swp3=$(sx_port 3)

ecmp_is() {
	sx_ecmp_is 2001:db8:30::/64 "$1"
}

# pings_to_all: h1 pings 2001:db8:30::1..32, 3 each
pings_to_all() {
	ok_count=0
	for i in $(seq 1 32); do
		ip netns exec h1 ping -6 -q -c 3 -i 0.05 -W 1 \
			"2001:db8:30::$(printf '%x' "$i")" \
			>/dev/null 2>&1 && ok_count=$((ok_count + 1))
	done
	echo "$ok_count"
}

# echos_in N: the echo requests hN has received (its own ND and MLD
# traffic aside)
echos_in() {
	ip netns exec "h$1" awk '$1 == "Icmp6InEchos" { print $2 }' \
		/proc/net/snmp6
}

check "switchx2: h1 reaches h2 and h3" wait_for 15 sh -c \
	"ip netns exec h1 ping -6 -q -c 1 -W 1 2001:db8:2::2 >/dev/null 2>&1 &&
	 ip netns exec h1 ping -6 -q -c 1 -W 1 2001:db8:3::2 >/dev/null 2>&1"
# The switch resolves both gateways.
sx_ping6 2 2001:db8:2::1
sx_ping6 3 2001:db8:3::1

# One next hop, then a second appended: the kernel tells of the sibling.
ip -6 route add 2001:db8:30::/64 via 2001:db8:2::2 dev "$swp2"
check "switchx2: a single IPv6 gateway route is one adjacency" \
	wait_for 5 ecmp_is 1
ip -6 route append 2001:db8:30::/64 via 2001:db8:3::2 dev "$swp3"
check "switchx2: an appended sibling makes it a group of two" \
	wait_for 5 ecmp_is 2
check_eq "switchx2: ip route shows the multipath route offloaded" \
	rt_offload "$(sx_route_flags -6 2001:db8:30::/64 | tr ' ' '\n' |
		sort -u)"

sx_ecmp_spread "IPv6 ECMP" pings_to_all

# Replaced whole, with weights: 2:1 is three adjacencies.
ip -6 route replace 2001:db8:30::/64 \
	nexthop via 2001:db8:2::2 dev "$swp2" weight 2 \
	nexthop via 2001:db8:3::2 dev "$swp3"
check "switchx2: a 2:1 route spreads over three adjacencies" \
	wait_for 5 ecmp_is 3

# One sibling deleted: the route is the other gateway alone.
ip -6 route del 2001:db8:30::/64 via 2001:db8:3::2 dev "$swp3"
check "switchx2: a deleted sibling leaves one adjacency" \
	wait_for 5 ecmp_is 1
check_eq "switchx2: the route is still offloaded" rt_offload \
	"$(sx_route_flags -6 2001:db8:30::/64)"
echos3=$(echos_in 3)
check_eq "switchx2: h1's destinations all answer by h2" 32 "$(pings_to_all)"
check_eq "switchx2: none of them left by p3" 0 \
	"$(($(echos_in 3) - echos3))"

ip -6 route del 2001:db8:30::/64
check_eq "switchx2: a deleted route leaves the ASIC" "" \
	"$(sx_route_of 2001:db8:30::/64)"
ip -6 route add 2001:db8:30::/64 \
	nexthop via 2001:db8:2::2 dev "$swp2" \
	nexthop via 2001:db8:3::2 dev "$swp3"
check "switchx2: a route added with both next hops is a group of two" \
	wait_for 5 ecmp_is 2

# A sibling whose link is down when the route grows: when the link comes
# back the kernel revives the sibling without telling of the route, so
# the group must have held it all along. p3 keeps its address down.
echo 1 >"/proc/sys/net/ipv6/conf/$swp3/keep_addr_on_down"
ip -n h2 addr add 2001:db8:2::3/64 dev eth0
ip link set "$swp3" down
check "switchx2: with p3 down the group is h2's" wait_for 10 ecmp_is 1
ip -6 route append 2001:db8:30::/64 via 2001:db8:2::3 dev "$swp2"
check "switchx2: a sibling appended meanwhile makes two" wait_for 10 ecmp_is 2
ip link set "$swp3" up
wait_carrier "$swp3" 10 1
sx_ping6 3 2001:db8:3::1
check "switchx2: with p3 back up its sibling is in the group again" \
	wait_for 15 ecmp_is 3
echo 0 >"/proc/sys/net/ipv6/conf/$swp3/keep_addr_on_down"
ip -6 route del 2001:db8:30::/64
check_eq "switchx2: deleted whole, it leaves the ASIC" "" \
	"$(sx_route_of 2001:db8:30::/64)"
for n in 2 3; do
	ip -n "h$n" -6 route del local 2001:db8:30::/64 dev lo
done
for n in 1 2 3; do
	ip -n "h$n" route del 2001:db8::/32
	ip -n "h$n" addr flush dev eth0 scope global
	ip addr del "2001:db8:$n::1/64" dev "$(sx_port "$n")"
done
