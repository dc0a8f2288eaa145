#!/bin/sh
# SwitchX-2: macvlan uppers of router interfaces, as VRRP uses them
# (keepalived's vmac): the macvlan's MAC is another MAC of the RIF, and
# the ASIC routes what the hosts send to it, without the CPU. It leaves
# the router when it changes or the macvlan goes. A macvlan on an 802.1Q
# upper that is no RIF is refused: the ASIC could not get it its packets.
. /tests/lib.sh

for n in 1 2; do
	sx_routed_host_v4 "$n" || not_ok "switchx2: set up h$n"
done
swp1=$(sx_port 1)
swp3=$(sx_port 3)
h2_ip=$(sx_host_ip 2)
vmac=00:00:5e:00:01:0a
echo 1 >/proc/sys/net/ipv4/ip_forward

check "switchx2: h1 pings h2 through the switch" wait_for 10 sx_ping 1 "$h2_ip"

# vmac_action MAC [FID]: what the ASIC's FDB does with MAC in FID (the
# standalone VID by default)
vmac_action() {
	sx_asic_fdb ".entries[] | select(.mac == \"$1\") | .action" "${2:-4094}"
}
vmac_routed() {
	[ "$(vmac_action "$@")" = router ]
}

ip link add link "$swp1" name vrrp1 address "$vmac" type macvlan mode private
ip link set vrrp1 up
check "switchx2: a macvlan's MAC on a routed port goes to the router" \
	wait_for 5 vmac_routed "$vmac"
# h1's gateway answers from the virtual MAC, as a VRRP master does.
ip -n h1 neigh replace "$(sx_swp_ip 1)" lladdr "$vmac" dev eth0 nud permanent
sx_routed_by_asic "to the macvlan's MAC" 1 "$h2_ip" 1 "$(sx_rif_of 1)"

vmac2=00:00:5e:00:01:0b
ip link set vrrp1 address "$vmac2"
check "switchx2: the macvlan's new MAC goes to the router" \
	wait_for 5 vmac_routed "$vmac2"
check "switchx2: and its old one no longer" \
	test "$(vmac_action "$vmac")" != router
ip link del vrrp1
vmac2_gone() {
	[ "$(vmac_action "$vmac2")" != router ]
}
check "switchx2: the macvlan gone, its MAC leaves the router" \
	wait_for 5 vmac2_gone
ip -n h1 neigh del "$(sx_swp_ip 1)" dev eth0

# The macvlan before the address: the RIF takes its MAC when it comes.
ip addr flush dev "$swp1"
ip link add link "$swp1" name vrrp1 address "$vmac" type macvlan mode private
ip link set vrrp1 up
ip addr add "$(sx_swp_ip 1)/30" dev "$swp1"
check "switchx2: a RIF made after its macvlan sends the macvlan's MAC to the router" \
	wait_for 5 vmac_routed "$vmac"
ip link del vrrp1

# 802.1Q uppers: on a RIF, the MAC goes to the router in its VID; on an
# upper without an address, a macvlan is refused.
ip link set "$swp3" up
ip link add link "$swp3" name "$swp3.50" type vlan id 50
echo 1 >"/proc/sys/net/ipv6/conf/$swp3.50/disable_ipv6"
ip link set "$swp3.50" up
refused "switchx2: a macvlan on an 802.1Q upper that is no RIF is refused" \
	"router interfaces" \
	ip link add link "$swp3.50" name mv50 type macvlan
ip addr add 198.51.100.65/28 dev "$swp3.50"
check "switchx2: on one with an address, it is taken" \
	ip link add link "$swp3.50" name mv50 address "$vmac" type macvlan
check "switchx2: and its MAC goes to the router in VID 50" \
	wait_for 5 vmac_routed "$vmac" 50
ip link del "$swp3.50"
check "switchx2: the upper gone, so is the MAC" \
	test "$(vmac_action "$vmac" 50)" != router
