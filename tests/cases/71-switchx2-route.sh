#!/bin/sh
# SwitchX-2: routing between standalone ports. h1 (port 1) and h2 (port 2)
# sit on /30 subnets of their own, the switch ports have the other
# address of each. A port with an address gets a router interface (a
# sub-port RIF), the kernel's routes go to the ASIC's LPM table and its
# neighbours to the host table: once h1 and h2 are resolved, the ASIC
# routes between them and the CPU sees none of it, while the RIF
# counters count every packet. Local addresses trap to the CPU; a route
# via a gateway uses an adjacency; a blackhole drops in the ASIC.
. /tests/lib.sh

sx_host_setup 1 || not_ok "switchx2: set up h1"
sx_host_setup 2 || not_ok "switchx2: set up h2"
swp1=$(sx_port 1)
swp2=$(sx_port 2)
h1_ip=$(sx_host_ip 1)
h2_ip=$(sx_host_ip 2)
for n in 1 2; do
	ip netns exec "h$n" sh -c \
		'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6'
	echo 1 >"/proc/sys/net/ipv6/conf/$(sx_port "$n")/disable_ipv6"
	ip -n "h$n" route replace 192.0.2.0/24 via "$(sx_swp_ip "$n")"
	ip -n "h$n" route replace 10.0.0.0/8 via "$(sx_swp_ip "$n")"
done
ip -n h2 addr add 10.20.0.1/32 dev lo
ip -n h2 link set lo up
echo 1 >/proc/sys/net/ipv4/ip_forward

# The ASIC's neighbour entry for ADDRESS: "rif mac"
neigh_of() {
	sx_router ".neighbours[] | select(.address == \"$1\") |
		\"\(.rif) \(.mac)\""
}

rif_count() {
	sx_router ".rifs[] | select(.rif == $1) | .\"$2\" // 0"
}

check "switchx2: h1 pings h2 through the switch" \
	wait_for 10 sx_ping 1 "$h2_ip"
rif1=$(sx_rif_of 1)
rif2=$(sx_rif_of 2)
check "switchx2: ports with an address have router interfaces" \
	test -n "$rif1" -a -n "$rif2" -a "$rif1" != "$rif2"
check_eq "switchx2: the RIF has the port's MAC" \
	"$(cat "/sys/class/net/$swp1/address")" \
	"$(sx_router ".rifs[] | select(.rif == ${rif1:-0}) | .mac")"
check_eq "switchx2: the port's MAC goes to the router" router \
	"$(sx_asic_fdb ".entries[] | select(.mac == \"$(cat "/sys/class/net/$swp1/address")\") |
		.action" 4094)"
check_eq "switchx2: a connected route goes to its RIF in the ASIC" \
	"local $rif2" "$(sx_route_of 192.0.2.8/30)"
check_eq "switchx2: the port's address traps to the CPU" \
	"ip2me -" "$(sx_route_of "$(sx_swp_ip 2)/32")"
check_eq "switchx2: ip route shows the connected route offloaded" \
	"rt_offload" "$(sx_route_flags 192.0.2.8/30)"
check_eq "switchx2: ip route shows the local route trapping" \
	"rt_trap" "$(sx_route_flags table local "$(sx_swp_ip 2)")"
check "switchx2: the ASIC knows h2's MAC" \
	wait_for 5 test "$(neigh_of "$h2_ip")" = "$rif2 $(sx_host_mac 2)"
check "switchx2: the ASIC knows h1's MAC" \
	wait_for 5 test "$(neigh_of "$h1_ip")" = "$rif1 $(sx_host_mac 1)"

# 200 packets each way, resolved neighbours: the ASIC routes them.
cpu_before=$(sx_cpu_hit "$swp1" RX)
in_before=$(rif_count "$rif1" routed-in)
out_before=$(rif_count "$rif2" routed-out)
ip netns exec h1 ping -q -c 200 -i 0.01 -W 1 "$h2_ip" >/tmp/route-ping 2>&1
check "switchx2: 200 pings from h1 to h2 all answered" \
	grep -q '200 packets transmitted, 200 .*received' /tmp/route-ping
cpu_after=$(sx_cpu_hit "$swp1" RX)
check "switchx2: the CPU saw at most 10 of them (${cpu_before:-?} -> ${cpu_after:-?})" \
	test "$((cpu_after - cpu_before))" -le 10
check "switchx2: h1's RIF counted them routed in" \
	test "$(($(rif_count "$rif1" routed-in) - in_before))" -ge 200
check "switchx2: h2's RIF counted them routed out" \
	test "$(($(rif_count "$rif2" routed-out) - out_before))" -ge 200

check "switchx2: h1 pings the switch's address on the far port" \
	sx_ping 1 "$(sx_swp_ip 2)"

# A broadcast or multicast neighbour (NUD_NOARP) is no host entry: the
# router forwards to unicast MACs only.
# Those the kernel has when a RIF comes are walked too.
dmesg -c >/dev/null
ping -b -c 1 -W 1 "192.0.2.11" >/dev/null 2>&1
ping -c 1 -W 1 -I "$swp2" 224.0.0.1 >/dev/null 2>&1
ip addr flush dev "$swp2"
ip addr add "$(sx_swp_ip 2)/30" dev "$swp2"
sleep 1
check_eq "switchx2: broadcast and multicast neighbours stay out of the ASIC" \
	0 "$(dmesg | grep -c 'Failed to add a neighbour\|reg_id=8014(rauht)')"

# A route via a gateway: h2 holds 10.20.0.1 behind it.
ip route add 10.20.0.0/24 via "$h2_ip"
check "switchx2: a route via h2 is offloaded" \
	wait_for 5 test "$(sx_route_flags 10.20.0.0/24)" = rt_offload
check_eq "switchx2: the ASIC routes 10.20.0.0/24 to an adjacency" \
	remote "$(sx_route_action 10.20.0.0/24)"
adj=$(sx_route_of 10.20.0.0/24 | cut -d' ' -f2)
check_eq "switchx2: the adjacency sends to h2's MAC on h2's RIF" \
	"$rif2 $(sx_host_mac 2)" \
	"$(sx_router ".\"next-hops\"[] | select(.index == ${adj:-0}) |
		\"\(.rif) \(.mac)\"")"
cpu_before=$(sx_cpu_hit "$swp1" RX)
ip netns exec h1 ping -q -c 100 -i 0.01 -W 1 10.20.0.1 >/tmp/route-ping 2>&1
check "switchx2: h1 reaches 10.20.0.1 via h2, 100 of 100" \
	grep -q '100 packets transmitted, 100 .*received' /tmp/route-ping
cpu_after=$(sx_cpu_hit "$swp1" RX)
check "switchx2: in the ASIC (CPU saw $((cpu_after - cpu_before)))" \
	test "$((cpu_after - cpu_before))" -le 10
ip route del 10.20.0.0/24
check_eq "switchx2: the route is gone from the ASIC" "" \
	"$(sx_route_of 10.20.0.0/24)"
check "switchx2: and h1 no longer reaches 10.20.0.1" \
	sh -c "! ip netns exec h1 ping -q -c 1 -W 1 10.20.0.1 >/dev/null 2>&1"

ip route add default via "$h2_ip"
check_eq "switchx2: a default route replaces the trapping one" remote \
	"$(sx_route_action 0.0.0.0/0)"
ip route del default via "$h2_ip"
check_eq "switchx2: deleted, what no route matches traps again" "trap 112" \
	"$(sx_route_of 0.0.0.0/0)"

rocker_pause
ip route add blackhole 10.30.0.0/24
check_eq "switchx2: a blackhole route discards in the ASIC" \
	"discard -" "$(sx_route_of 10.30.0.0/24)"
check_eq "switchx2: and is shown offloaded" \
	"rt_offload" "$(sx_route_flags 10.30.0.0/24)"
ip route del blackhole 10.30.0.0/24
rocker_resume

ip addr flush dev "$swp2"
check_eq "switchx2: without an address the port has no RIF" "" \
	"$(sx_rif_of 2)"
check_eq "switchx2: and its routes left the ASIC" "" \
	"$(sx_route_of 192.0.2.8/30)"
check "switchx2: the other port keeps its RIF" test -n "$(sx_rif_of 1)"
ip addr add "$(sx_swp_ip 2)/30" dev "$swp2"
check "switchx2: with its address back h1 pings h2 again" \
	wait_for 10 sx_ping 1 "$h2_ip"

ip link set dev "$swp2" mtu 1400
check_eq "switchx2: the RIF follows the port's MTU" 1400 \
	"$(sx_router ".rifs[] | select(.\"system-port\" == 2) | .mtu")"
ip link set dev "$swp2" mtu 1500

sx_bridge_create br0 0 2 || not_ok "switchx2: create br0 with p2"
check_eq "switchx2: a bridged port has no RIF" "" "$(sx_rif_of 2)"
sx_bridge_destroy br0
ip addr add "$(sx_swp_ip 2)/30" dev "$swp2" 2>/dev/null
check "switchx2: out of the bridge, h1 pings h2 again" \
	wait_for 10 sx_ping 1 "$h2_ip"

rmmod "$SX_DRIVER"
check_eq "switchx2: removing the driver leaves no RIF or route" "0 0" \
	"$(sx_router '"\(.rifs | length) \(.routes | length)"')"
modprobe "$SX_DRIVER" && wait_for 10 sx_port 4
