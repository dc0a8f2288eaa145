#!/bin/sh
# SwitchX-2: what the kernel must go on knowing of the neighbours and
# gateways the ASIC forwards to, though it sees none of the packets.
# A neighbour the ASIC holds is shown offloaded (ip neigh), IPv4 and
# IPv6. A gateway's new MAC (ip neigh replace, as a gratuitous ARP after
# a failover does) reaches every ECMP block holding a copy of its
# adjacency, written to a new block the route then moves to. A gateway
# the ASIC routes to is probed as if the kernel routed the packets
# itself: once it stops answering, its neighbour fails and its routes
# trap instead of blackholing.
. /tests/lib.sh

for n in 1 2 3; do
	sx_host_setup_v4 "$n" || not_ok "switchx2: set up h$n"
done
sx_ecmp_hosts_v4_setup
swp2=$(sx_port 2)
h2_ip=$(sx_host_ip 2)
# A promiscuous NIC (an earlier test's) would take frames to a MAC it
# no longer has.
ip -n h2 link set eth0 promisc off
ip -n h1 route replace 192.0.2.0/24 via "$(sx_swp_ip 1)"
ip -n h1 route replace 10.0.0.0/8 via "$(sx_swp_ip 1)"

# neigh_offloaded [-6] DEV ADDRESS: ip neigh shows the neighbour offloaded
neigh_offloaded() {
	family=
	if [ "$1" = -6 ]; then
		family=-6
		shift
	fi
	ip $family neigh show dev "$1" to "$2" | grep -qw offload
}

check "switchx2: h1 pings h2" wait_for 10 sx_ping 1 "$h2_ip"
check "switchx2: h2's neighbour, in the ASIC, is shown offloaded" \
	wait_for 10 neigh_offloaded "$swp2" "$h2_ip"
sx_host_setup_v6 2 || not_ok "switchx2: set up h2 for IPv6"
ping -6 -q -c 1 -W 2 2001:db8:2::2 >/dev/null 2>&1
check "switchx2: an IPv6 neighbour in the ASIC is shown offloaded too" \
	wait_for 10 neigh_offloaded -6 "$swp2" 2001:db8:2::2
# p4 has no address, hence no RIF: its neighbours are the kernel's alone.
ip addr flush dev "$(sx_port 4)"
ip neigh replace 192.0.2.99 lladdr 02:00:00:00:00:99 dev "$(sx_port 4)"
check "switchx2: a neighbour on a port without a RIF is not shown offloaded" \
	sh -c "! ip neigh show dev $(sx_port 4) to 192.0.2.99 | grep -qw offload"
ip neigh del 192.0.2.99 dev "$(sx_port 4)"
ip addr flush dev "$swp2" scope global
ip addr add "$(sx_swp_ip 2)/30" dev "$swp2"
echo 1 >"/proc/sys/net/ipv6/conf/$swp2/disable_ipv6"

# An ECMP group over h2 and h3; then h2 changes its MAC.
ip route replace 198.18.0.0/24 \
	nexthop via "$h2_ip" nexthop via "$(sx_host_ip 3)"
ecmp_offloaded() {
	sx_ecmp_is 198.18.0.0/24 2 &&
		[ "$(sx_route_flags 198.18.0.0/24)" = rt_offload ]
}
check "switchx2: the multipath route is offloaded over two next hops" \
	wait_for 15 ecmp_offloaded
sx_ecmp_spread "ECMP, h2 with its own MAC" sx_ecmp_pings_v4

# block_macs RIF: the MACs of the route's ECMP block entries on RIF
block_macs() {
	sx_router "(.routes[] | select(.prefix == \"198.18.0.0/24\")) as \$r |
		[.\"next-hops\"[] | select(.index >= \$r.adjacency and
			.index < \$r.adjacency + \$r.\"ecmp-size\" and
			.rif == $1) | .mac] | unique | join(\" \")"
}
block_macs_are() {
	[ "$(block_macs "$1")" = "$2" ]
}
rif2=$(sx_rif_of 2)
check_eq "switchx2: h2's entries of the ECMP block have h2's MAC" \
	"$(sx_host_mac 2)" "$(block_macs "${rif2:-0}")"
# The block the ASIC forwards by is not written over: the new contents
# go to a block of their own, the route moves to it, the old one goes.
route_adj() {
	sx_router '.routes[] | select(.prefix == "198.18.0.0/24") | .adjacency'
}
old_adj=$(route_adj)
new_mac=02:00:00:00:02:22
ip -n h2 link set eth0 address "$new_mac"
ip neigh replace "$h2_ip" lladdr "$new_mac" dev "$swp2" nud stale
check "switchx2: h2's new MAC reaches every entry of the ECMP block" \
	wait_for 5 block_macs_are "${rif2:-0}" "$new_mac"
check "switchx2: in a new block the route moved to (from $old_adj to $(route_adj))" \
	test -n "$old_adj" -a "$(route_adj)" != "$old_adj"
check_eq "switchx2: and the old block is free" 0 \
	"$(sx_router "[.\"next-hops\"[] | select(.index >= ${old_adj:-0} and
		.index < ${old_adj:-0} + 2)] | length")"
sx_ecmp_spread "ECMP, h2 with a new MAC" sx_ecmp_pings_v4
ip -n h2 link set eth0 address "$(sx_host_mac 2)"
ip neigh replace "$h2_ip" lladdr "$(sx_host_mac 2)" dev "$swp2" nud stale
ip route del 198.18.0.0/24

# A single gateway: h2 holds 10.20.0.1 behind it. The kernel's
# neighbour goes stale within 3 s of being confirmed, and is probed a
# second after anything asks for it.
ip -n h2 addr add 10.20.0.1/32 dev lo
ip -n h2 link set lo up
ip -n h2 route replace 192.0.2.0/24 via "$(sx_swp_ip 2)"
echo 2000 >"/proc/sys/net/ipv4/neigh/$swp2/base_reachable_time_ms"
echo 1 >"/proc/sys/net/ipv4/neigh/$swp2/delay_first_probe_time"
ip route add 10.20.0.0/24 via "$h2_ip"
action_is() {
	[ "$(sx_route_action 10.20.0.0/24)" = "$1" ]
}
check "switchx2: a route via h2 goes to its adjacency" \
	wait_for 10 action_is remote
sx_routed_by_asic "via h2" 1 10.20.0.1 1 "$(sx_rif_of 1)"

# neigh_dead: the kernel has given up on h2 (or let its entry go)
neigh_dead() {
	state=$(ip neigh show dev "$swp2" to "$h2_ip")
	[ -z "$state" ] || echo "$state" | grep -qw -e FAILED -e INCOMPLETE
}
# h2 stops answering ARP: a dead gateway, as far as the switch can tell.
ip -n h2 link set dev eth0 arp off
check "switchx2: h2 silent, the kernel finds its neighbour dead" \
	wait_for 30 neigh_dead
check "switchx2: and the route via h2 traps instead of blackholing" \
	wait_for 10 action_is trap
check_eq "switchx2: and ip route shows it trapping" rt_trap \
	"$(sx_route_flags 10.20.0.0/24)"
ip -n h2 link set dev eth0 arp on
check "switchx2: h2 answering again, the route goes back to its adjacency" \
	wait_for 20 action_is remote

ip route del 10.20.0.0/24
ip -n h2 addr del 10.20.0.1/32 dev lo
echo 30000 >"/proc/sys/net/ipv4/neigh/$swp2/base_reachable_time_ms"
echo 5 >"/proc/sys/net/ipv4/neigh/$swp2/delay_first_probe_time"
sx_ecmp_hosts_v4_teardown
