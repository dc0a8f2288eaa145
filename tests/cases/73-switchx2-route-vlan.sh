#!/bin/sh
# SwitchX-2: routing on 802.1Q uppers of standalone ports. h1 sends in
# VLAN 10 to p1's upper p1.10, h2 untagged to p2: the upper with an
# address is a sub-port RIF of {p1, VID 10}, and the ASIC routes between
# it and p2's RIF, tagging what it sends to h1. An upper's RIF goes with
# its address and when the port joins a bridge.
. /tests/lib.sh

sx_host_setup 1 || not_ok "switchx2: set up h1"
sx_host_setup 2 || not_ok "switchx2: set up h2"
swp1=$(sx_port 1)
ip addr flush dev "$swp1"
for n in 1 2; do
	ip netns exec "h$n" sh -c \
		'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6'
	echo 1 >"/proc/sys/net/ipv6/conf/$(sx_port "$n")/disable_ipv6"
done
# Only their own subnets: earlier tests' shared subnet would shadow routes.
for n in 1 2; do
	ip -n "h$n" addr flush dev eth0
done
ip -n h2 addr add "$(sx_host_ip 2)/30" dev eth0
ip -n h1 link add link eth0 name eth0.10 type vlan id 10
ip -n h1 addr add 203.0.113.2/24 dev eth0.10
ip -n h1 link set eth0.10 up
ip -n h1 route replace 192.0.2.0/24 via 203.0.113.1
ip link add link "$swp1" name "$swp1.10" type vlan id 10
echo 1 >"/proc/sys/net/ipv6/conf/$swp1.10/disable_ipv6"
ip addr add 203.0.113.1/24 dev "$swp1.10"
ip link set "$swp1.10" up
ip -n h2 route replace 203.0.113.0/24 via "$(sx_swp_ip 2)"
echo 1 >/proc/sys/net/ipv4/ip_forward

check "switchx2: h1 in VLAN 10 pings h2 through the switch" \
	wait_for 10 sx_ping 1 "$(sx_host_ip 2)"
rif=$(sx_rif_of 1 10)
check "switchx2: the VLAN upper is a sub-port RIF of {p1, VID 10}" \
	test -n "$rif"
check_eq "switchx2: its MAC goes to the router in VID 10" 1 \
	"$(sx_asic_fdb "[.entries[] | select(.fid == 10 and
		.mac == \"$(cat "/sys/class/net/$swp1.10/address")\" and
		.action == \"router\")] | length" 10)"
sx_routed_by_asic "from VLAN 10" 1 "$(sx_host_ip 2)" 1 "$rif"

ip addr flush dev "$swp1.10"
check_eq "switchx2: without its address the upper has no RIF" "" \
	"$(sx_rif_of 1 10)"
check_eq "switchx2: and its MAC left VID 10" 0 \
	"$(sx_asic_fdb "[.entries[] | select(.fid == 10 and
		.action == \"router\")] | length" 10)"
ip addr add 203.0.113.1/24 dev "$swp1.10"
check "switchx2: with its address back h1 pings h2 again" \
	wait_for 10 sx_ping 1 "$(sx_host_ip 2)"

ip link del "$swp1.10"
check_eq "switchx2: a deleted upper leaves no RIF" "" "$(sx_rif_of 1 10)"
ip -n h1 link del eth0.10
