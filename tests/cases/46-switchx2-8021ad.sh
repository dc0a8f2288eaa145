#!/bin/sh
# SwitchX-2 knows one VLAN protocol, 802.1Q: its parser takes an 802.1ad
# (S-)tagged frame for an untagged one and classifies it to the port's
# PVID. What would forward S-tagged frames as if they were untagged is
# refused with a message, in every order; what works through the CPU
# (an 802.1ad VLAN upper of a standalone port) passes traffic.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
swp1=$(sx_port 1)
swp2=$(sx_port 2)
swp3=$(sx_port 3)
swp4=$(sx_port 4)

# A VLAN-aware 802.1ad bridge: its VLANs are S-VLANs, the device's C-VLANs.
ip link add br1 type bridge vlan_filtering 1 vlan_protocol 802.1ad
ip link set br1 up
refused "switchx2: a port cannot join a VLAN-aware 802.1ad bridge" "802.1ad" \
	ip link set "$swp1" master br1
check_eq "switchx2: $swp1 stayed out of the 802.1ad bridge" "" \
	"$(ip -j link show "$swp1" | jq -r '.[0].master // empty')"
ip link del br1

# An 802.1Q bridge with ports cannot switch to 802.1ad.
sx_bridge_create br1 1 1 2 || not_ok "switchx2: create VLAN-aware br1 with p1 and p2"
refused "switchx2: a VLAN-aware bridge with ports cannot switch to 802.1ad" "802.1ad" \
	ip link set br1 type bridge vlan_protocol 802.1ad
check_eq "switchx2: br1 still uses 802.1Q" "802.1Q" \
	"$(ip -d -j link show br1 | jq -r '.[0].linkinfo.info_data.vlan_protocol')"
check "switchx2: h1 pings h2 through br1 afterwards" sx_ping 1 "$(sx_l2_ip 2)"
sx_bridge_destroy br1

# A VLAN-unaware bridge ignores its VLAN protocol: nothing to refuse.
ip link add br0 type bridge vlan_filtering 0 vlan_protocol 802.1ad
ip link set br0 up
check "switchx2: a port joins a VLAN-unaware bridge whose vlan_protocol is 802.1ad" \
	ip link set "$swp3" master br0
ip link set "$swp4" master br0
check "switchx2: h3 pings h4 through it" sx_ping 3 "$(sx_l2_ip 4)"

# An 802.1ad upper of a bridged port: the device would switch its
# frames to the other ports of the bridge as untagged ones.
refused "switchx2: an 802.1ad VLAN upper of a bridged port is refused" "802.1ad" \
	ip link add link "$swp3" name "$swp3.10" type vlan protocol 802.1ad id 10
ip link del br0

# The other order: a port with an 802.1ad upper cannot join a bridge.
# Standalone, the upper works: its frames reach the CPU only.
check "switchx2: an 802.1ad VLAN upper of a standalone port" \
	ip link add link "$swp1" name "$swp1.10" type vlan protocol 802.1ad id 10
ip addr add 203.0.113.1/24 dev "$swp1.10"
ip link set "$swp1.10" up
ip -n h1 link add link eth0 name eth0.10 type vlan protocol 802.1ad id 10
ip -n h1 addr add 203.0.113.2/24 dev eth0.10
ip -n h1 link set eth0.10 up
check "switchx2: h1 pings $swp1.10 over S-VLAN 10" sx_ping 1 203.0.113.1
for vf in 0 1; do
	ip link add br0 type bridge vlan_filtering "$vf"
	refused "switchx2: a port with an 802.1ad upper cannot join a bridge (vlan_filtering $vf)" \
		"802.1ad" ip link set "$swp1" master br0
	ip link del br0
done
check "switchx2: h1 still pings $swp1.10 over S-VLAN 10" sx_ping 1 203.0.113.1
ip -n h1 link del eth0.10
ip link del "$swp1.10"
