#!/bin/sh
# SwitchX-2: VLAN uppers of ports of the VLAN-aware bridge. A VID the
# bridge does not use can carry an upper: its frames reach the CPU only,
# as on a standalone port. A VID the bridge uses cannot, in either order:
# the ASIC would switch the upper's frames into the bridge's VLAN.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
swp1=$(sx_port 1)
swp3=$(sx_port 3)
swp4=$(sx_port 4)
sx_bridge_create br1 1 3 4 || not_ok "switchx2: create VLAN-aware br1 with p3 and p4"
bridge vlan add vid 10 dev "$swp3"
bridge vlan add vid 10 dev "$swp4"

# upper_add N VID: VLAN upper swpN.VID with 203.0.113.1/24, and the
# same VLAN on hN with .2
upper_add() {
	swp=$(sx_port "$1")
	ip link add link "$swp" name "$swp.$2" type vlan id "$2" || return 1
	ip addr add 203.0.113.1/24 dev "$swp.$2"
	ip link set "$swp.$2" up
	sx_host_vlan_add "$1" "$2" 203.0.113.2/24
}

upper_del() {
	ip link del "$(sx_port "$1").$2"
	sx_host_vlan_del "$1" "$2"
}

# upper_refused DESCRIPTION N VID: the kernel log names the conflict
# (the 8021q code adds the VID before there is an extack)
upper_refused() {
	dmesg -c >/dev/null
	swp=$(sx_port "$2")
	if ip link add link "$swp" name "$swp.$3" type vlan id "$3" 2>/dev/null; then
		not_ok "$1" "the upper was created"
		ip link del "$swp.$3"
	elif dmesg | grep -q "VID $3 is used by the VLAN-aware bridge"; then
		ok "$1 (kernel log says so)"
	else
		not_ok "$1" "$(dmesg | tail -3)"
	fi
}

check "switchx2: VLAN upper $swp3.30 on a port of VLAN-aware br1 (VID 30 unused there)" \
	upper_add 3 30
check "switchx2: h3 pings $swp3.30 over VLAN 30 (through the CPU)" sx_ping 3 203.0.113.1
check "switchx2: h3 still pings h4 through br1" sx_ping 3 "$(sx_l2_ip 4)"
check "switchx2: h3 pings h4 in br1's VLAN 10 meanwhile" sh -c "
	ip -n h3 link add link eth0 name eth0.10 type vlan id 10 &&
	ip -n h3 addr add 198.51.103.3/24 dev eth0.10 && ip -n h3 link set eth0.10 up &&
	ip -n h4 link add link eth0 name eth0.10 type vlan id 10 &&
	ip -n h4 addr add 198.51.103.4/24 dev eth0.10 && ip -n h4 link set eth0.10 up &&
	ip netns exec h3 ping -q -c 3 -i 0.1 -W 1 198.51.103.4"
ip -n h3 link del eth0.10
ip -n h4 link del eth0.10
refused "switchx2: bridge VLAN 30 refused on $swp4 while $swp3.30 exists" "VLAN upper" \
	bridge vlan add vid 30 dev "$swp4"
upper_del 3 30

upper_refused "switchx2: VLAN upper $swp3.10 refused: br1 uses VID 10" 3 10

# A port with an upper joins the VLAN-aware bridge; its upper keeps working.
check "switchx2: VLAN upper $swp1.50 on standalone $swp1" upper_add 1 50
ip addr flush dev "$swp1"
check "switchx2: $swp1 with $swp1.50 joins VLAN-aware br1" ip link set "$swp1" master br1
check "switchx2: h1 pings $swp1.50 over VLAN 50 after the join" sx_ping 1 203.0.113.1
check "switchx2: h1 pings h3 through br1" sx_ping 1 "$(sx_l2_ip 3)"
refused "switchx2: bridge VLAN 50 refused on $swp1 while $swp1.50 exists" "VLAN upper" \
	bridge vlan add vid 50 dev "$swp1"
upper_del 1 50
check "switchx2: bridge VLAN 50 on $swp1 once $swp1.50 is gone" bridge vlan add vid 50 dev "$swp1"
sx_bridge_destroy br1
