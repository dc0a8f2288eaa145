#!/bin/sh
# SwitchX-2: VLAN uppers. A VID 1 upper on a bridged or standalone port
# must not disturb untagged traffic, neither while it exists nor once it
# is deleted (the driver's internal VIDs are not VID 1). A software
# bridge of VLAN uppers forwards between them: packets of upper VIDs
# reach the CPU only and must not be marked as forwarded by the ASIC.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
swp1=$(sx_port 1)
swp2=$(sx_port 2)
swp3=$(sx_port 3)
swp4=$(sx_port 4)

# VID 1 upper on a port of a VLAN-unaware bridge
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
check "switchx2: h1 pings h2 through br0" sx_ping 1 "$(sx_l2_ip 2)"
check "switchx2: a VID 1 upper on bridged p1" \
	ip link add link "$swp1" name "$swp1.1" type vlan id 1
ip link set "$swp1.1" up
check "switchx2: h1 pings h2 with $swp1.1 present" sx_ping 1 "$(sx_l2_ip 2)"
ip link del "$swp1.1"
check "switchx2: h1 pings h2 after $swp1.1 is deleted" sx_ping 1 "$(sx_l2_ip 2)"
sx_bridge_destroy br0

# VID 1 upper on a standalone port
sx_host_setup 3
check "switchx2: a VID 1 upper on standalone p3" \
	ip link add link "$swp3" name "$swp3.1" type vlan id 1
ip link set "$swp3.1" up
check "switchx2: h3 pings p3 with $swp3.1 present" sx_ping 3 "$(sx_swp_ip 3)"
ip link del "$swp3.1"
check "switchx2: h3 pings p3 after $swp3.1 is deleted" sx_ping 3 "$(sx_swp_ip 3)"
ip addr flush dev "$swp3"

# A software bridge of two VLAN uppers of standalone ports
for n in 1 2; do
	sx_host_vlan_add "$n" 10 "198.51.102.$n/24"
done
ip link add br3 type bridge
echo 1 >/proc/sys/net/ipv6/conf/br3/disable_ipv6
for swp in $swp1 $swp2; do
	ip addr flush dev "$swp"
	ip link add link "$swp" name "$swp.10" type vlan id 10
	ip link set "$swp.10" master br3
	ip link set "$swp.10" up
done
ip link set br3 up
if sx_ping 1 198.51.102.2 5; then
	ok "switchx2: h1 and h2 talk in VLAN 10 through a software bridge of $swp1.10 and $swp2.10"
else
	not_ok "switchx2: h1 and h2 talk in VLAN 10 through a software bridge of $swp1.10 and $swp2.10"
fi
ip link del br3
for swp in $swp1 $swp2; do
	ip link del "$swp.10"
done
for n in 1 2; do
	sx_host_vlan_del "$n" 10
done
