#!/bin/sh
# SwitchX-2: IPv6 routing between standalone ports, as test 71 does for
# IPv4: h1 (port 1) is 2001:db8:1::2/64, h2 (port 2) 2001:db8:2::2/64, the
# ports have ::1 of each. Connected routes, the ports' own addresses and
# a route via h2 go to the ASIC, the neighbours too, and once they are
# resolved the CPU sees none of the routed packets.
. /tests/lib.sh

for n in 1 2; do
	sx_host_setup_v6 "$n" || not_ok "switchx2: set up h$n"
done
ip -n h2 addr add 2001:db8:20::1/128 dev lo
ip -n h2 link set lo up
echo 1 >/proc/sys/net/ipv6/conf/all/forwarding
swp1=$(sx_port 1)

check "switchx2: IPv6: h1 pings h2 through the switch" \
	wait_for 10 sx_ping6 1 2001:db8:2::2
rif2=$(sx_rif_of 2)
check_eq "switchx2: IPv6: the connected route goes to h2's RIF" \
	"local $rif2" "$(sx_route_of 2001:db8:2::/64)"
check_eq "switchx2: IPv6: the port's address traps to the CPU" \
	"ip2me -" "$(sx_route_of 2001:db8:2::1/128)"
check_eq "switchx2: IPv6: ip route shows the connected route offloaded" \
	rt_offload "$(sx_route_flags -6 2001:db8:2::/64)"
check "switchx2: IPv6: the ASIC knows h2's MAC" \
	wait_for 5 test "$(sx_router ".neighbours[] |
		select(.address == \"2001:db8:2::2\") | .mac")" = "$(sx_host_mac 2)"

# Multicast neighbours (NUD_NOARP, a multicast MAC) are no host entries,
# nor are link-local ones: the router traps link-local destinations.
# Those the kernel has when a RIF comes are walked too.
dmesg -c >/dev/null
ping -6 -c 1 -W 1 "ff02::1%$(sx_port 2)" >/dev/null 2>&1
ip addr flush dev "$(sx_port 2)"
ip addr add 2001:db8:2::1/64 dev "$(sx_port 2)"
sleep 1
check_eq "switchx2: IPv6: multicast neighbours stay out of the ASIC" 0 \
	"$(dmesg | grep -c 'Failed to add a neighbour\|reg_id=8014(rauht)')"
check_eq "switchx2: IPv6: so do link-local ones" "" \
	"$(sx_router '.neighbours[] | select(.address | startswith("fe80")) |
		.address')"

ip -6 route add 2001:db8:20::/64 via 2001:db8:2::2
check "switchx2: IPv6: a route via h2 is offloaded" \
	wait_for 5 test "$(sx_route_flags -6 2001:db8:20::/64)" = rt_offload
check_eq "switchx2: IPv6: the ASIC routes it to an adjacency" remote \
	"$(sx_route_action 2001:db8:20::/64)"
sx_ping6 1 2001:db8:20::1 3
cpu_before=$(sx_cpu_hit "$swp1" RX)
ip netns exec h1 ping -6 -q -c 100 -i 0.01 -W 1 2001:db8:20::1 \
	>/tmp/route6-ping 2>&1
check "switchx2: IPv6: h1 reaches 2001:db8:20::1 via h2, 100 of 100" \
	grep -q '100 packets transmitted, 100 .*received' /tmp/route6-ping
cpu_after=$(sx_cpu_hit "$swp1" RX)
check "switchx2: IPv6: in the ASIC (CPU saw $((cpu_after - cpu_before)))" \
	test "$((cpu_after - cpu_before))" -le 10
ip -6 route del 2001:db8:20::/64
check_eq "switchx2: IPv6: the route is gone from the ASIC" "" \
	"$(sx_route_of 2001:db8:20::/64)"

ip -6 route add default via 2001:db8:2::2
check_eq "switchx2: IPv6: a default route replaces the trapping one" remote \
	"$(sx_route_action ::/0)"
ip -6 route del default via 2001:db8:2::2
check_eq "switchx2: IPv6: deleted, what no route matches traps again" \
	"trap 112" "$(sx_route_of ::/0)"

# The router traps link-local destinations before any route and routes
# no multicast: the kernel's fe80::/64 and ff00::/8 are no LPM entries.
check_eq "switchx2: IPv6: no LPM entry for fe80::/64 or ff00::/8" "" \
	"$(sx_route_of fe80::/64)$(sx_route_of ff00::/8)"

# A source-specific route: the ASIC's LPM matches destinations only,
# and says so.
ip -6 route add 2001:db8:21::/64 from 2001:db8:1::/64 via 2001:db8:2::2
check "switchx2: IPv6: a source-specific route is flagged offload failed" \
	wait_for 5 test "$(sx_route_flags -6 2001:db8:21::/64)" = rt_offload_failed
ip -6 route del 2001:db8:21::/64 from 2001:db8:1::/64

for n in 1 2; do
	ip addr flush dev "$(sx_port "$n")"
	echo 1 >"/proc/sys/net/ipv6/conf/$(sx_port "$n")/disable_ipv6"
done
check_eq "switchx2: IPv6: without addresses the ports have no RIF" "" \
	"$(sx_rif_of 1)$(sx_rif_of 2)"
