#!/bin/sh
# A SwitchX-2 port under a bond that is in a VLAN-aware bridge is not
# offloaded: the bridge forwards for it in software. Its VLANs must then
# reach the port the software way (vlan_vid_add() through the bond), so
# the driver must not claim the bridge's VLAN objects for such a port.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
swp1=$(sx_port 1)

ip addr flush dev "$swp1"
check "switchx2: bond0 with $swp1" sh -c "
	ip link add bond0 type bond mode balance-xor &&
	ip link set $swp1 down && ip link set $swp1 master bond0 &&
	ip link set bond0 up"
ip link add br1 type bridge vlan_filtering 1
echo 1 >/proc/sys/net/ipv6/conf/br1/disable_ipv6
ip link set bond0 master br1
ip link set br1 up
check "switchx2: bridge VLAN 10 on bond0" bridge vlan add dev bond0 vid 10
bridge vlan add dev br1 vid 10 self
ip link add link br1 name br1.10 type vlan id 10
ip addr add 203.0.113.1/24 dev br1.10
ip link set br1.10 up
sx_host_vlan_add 1 10 203.0.113.2/24
wait_carrier "$swp1" 10 1

check "switchx2: h1 pings br1.10 over VLAN 10 through bond0" \
	sx_ping 1 203.0.113.1 5

sx_host_vlan_del 1 10
ip link del br1.10
ip link del br1
ip link del bond0
ip link set "$swp1" up
wait_carrier "$swp1" 10 1 || not_ok "switchx2: $swp1 has its link back once out of the bond"
