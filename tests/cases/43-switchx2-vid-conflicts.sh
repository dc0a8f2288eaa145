#!/bin/sh
# SwitchX-2 has one VID space for everything: combinations it cannot
# express without leaking frames between ports are refused, with a
# message that says why; the driver's reserved VIDs are refused too.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
swp1=$(sx_port 1)
swp3=$(sx_port 3)
sx_bridge_create br1 1 3 4 || not_ok "switchx2: create VLAN-aware br1 with p3 and p4"
bridge vlan add vid 10 dev "$swp3"

# upper_refused DESCRIPTION VID PATTERN: a VLAN upper of p1 with VID is
# refused and the kernel log says PATTERN (the 8021q code adds the VID
# to the port before there is an extack to report through)
upper_refused() {
	dmesg -c >/dev/null
	if ip link add link "$swp1" name "$swp1.$2" type vlan id "$2" 2>/dev/null; then
		not_ok "$1" "the upper was created"
		ip link del "$swp1.$2"
	elif dmesg | grep -q "$3"; then
		ok "$1 (kernel log says so)"
	else
		not_ok "$1" "$(dmesg | tail -3)"
	fi
}

upper_refused "switchx2: VLAN upper $swp1.10 refused: VID 10 is br1's" 10 \
	"VID 10 is used by the VLAN-aware bridge"

check "switchx2: VLAN upper $swp1.30 (a VID br1 does not use)" \
	ip link add link "$swp1" name "$swp1.30" type vlan id 30
refused "switchx2: bridge VLAN 30 refused while $swp1.30 exists" "VLAN upper" \
	bridge vlan add vid 30 dev "$swp3"
ip link del "$swp1.30"
check "switchx2: bridge VLAN 30 accepted once $swp1.30 is gone" \
	bridge vlan add vid 30 dev "$swp3"

refused "switchx2: bridge VLAN 4040 refused (reserved)" "reserved" \
	bridge vlan add vid 4040 dev "$swp3"
upper_refused "switchx2: VLAN upper with reserved VID 4040 refused" 4040 \
	"VID 4040 is reserved"

refused "switchx2: a second VLAN-aware bridge refused" "one VLAN-aware bridge" \
	sh -c "ip link add br2 type bridge vlan_filtering 1 && ip link set $swp1 master br2"
ip link del br2 2>/dev/null
refused "switchx2: turning VLAN filtering off on br1 refused" "VLAN filtering" \
	ip link set br1 type bridge vlan_filtering 0
sx_bridge_destroy br1

# A VLAN-unaware bridge forwards tagged frames of every VID the VLAN-aware
# bridge does not use (in software, through the CPU). The VLAN-aware
# bridge cannot take another VID from it while it has ports: that would
# silently cut the unaware bridge's traffic in that VLAN.
sx_bridge_create br1 1 3 4 || not_ok "switchx2: create VLAN-aware br1 again"
bridge vlan add vid 10 dev "$swp3"
swp4=$(sx_port 4)
check "switchx2: VLAN-unaware br0 with p1 and p2 next to br1 (which uses VIDs 1, 10)" \
	sx_bridge_create br0 0 1 2
refused "switchx2: a new VID for br1 refused while VLAN-unaware br0 has ports" \
	"VLAN-unaware" bridge vlan add vid 20 dev "$swp3"
check "switchx2: a VID br1 already uses, on another of its ports" \
	bridge vlan add vid 10 dev "$swp4"
sx_host_vlan_add 1 20 198.51.104.1/24
sx_host_vlan_add 2 20 198.51.104.2/24
check "switchx2: br0 still forwards VLAN 20 between h1 and h2" sx_ping 1 198.51.104.2
sx_host_vlan_del 1 20
sx_host_vlan_del 2 20
sx_bridge_destroy br0
check "switchx2: VID 20 for br1 once br0 is gone" bridge vlan add vid 20 dev "$swp3"
sx_bridge_destroy br1
