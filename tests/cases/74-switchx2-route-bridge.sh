#!/bin/sh
# SwitchX-2: routing on bridges. A bridge with an address is a VLAN RIF
# of the VID its ports switch in: a VLAN-unaware bridge's reserved VID,
# a VLAN-aware bridge's own PVID, or the VID of an 802.1Q upper of the
# VLAN-aware bridge (br0.10). h1 sits behind p1 in the bridge, h2 behind
# the routed port p2; the ASIC routes between the bridge's RIF and p2's,
# the CPU seeing no more than the first packets. The bridge's MAC in its
# VID forwards to the router while the RIF lives and traps (a host
# entry of the bridge) once it is gone.
. /tests/lib.sh

sx_host_setup 1 || not_ok "switchx2: set up h1"
sx_host_setup 2 || not_ok "switchx2: set up h2"
swp1=$(sx_port 1)
for n in 1 2; do
	ip netns exec "h$n" sh -c \
		'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6'
	echo 1 >"/proc/sys/net/ipv6/conf/$(sx_port "$n")/disable_ipv6"
	ip -n "h$n" addr flush dev eth0
done
ip -n h2 addr add "$(sx_host_ip 2)/30" dev eth0
ip -n h1 addr add 203.0.113.2/24 dev eth0
ip -n h1 route replace 192.0.2.0/24 via 203.0.113.1
ip -n h2 route replace 203.0.113.0/24 via "$(sx_swp_ip 2)"
echo 1 >/proc/sys/net/ipv4/ip_forward

# router_mac_action VID MAC: what the ASIC does with unicast to MAC in VID
router_mac_action() {
	sx_asic_fdb ".entries[] | select(.fid == $1 and .mac == \"$2\") |
		.action" "$1"
}

# routed_by_asic NAME RIF: 100 pings from h1 to h2 through the RIF
routed_by_asic() {
	sx_routed_by_asic "$1" 1 "$(sx_host_ip 2)" 1 "$2"
}

# --- A VLAN-unaware bridge with an address ---
sx_bridge_create br0 0 1
brmac=$(cat /sys/class/net/br0/address)
vid=$(sx_asic_port 1 .pvid)
ip addr add 203.0.113.1/24 dev br0
check "switchx2: 802.1D: h1 pings h2 through the bridge" \
	wait_for 10 sx_ping 1 "$(sx_host_ip 2)"
rif=$(sx_vlan_rif_of "$vid")
check "switchx2: 802.1D: the bridge is a VLAN RIF of its VID ($vid)" \
	test -n "$rif"
check_eq "switchx2: 802.1D: the RIF has the bridge's MAC" "$brmac" \
	"$(sx_router ".rifs[] | select(.rif == ${rif:-0}) | .mac")"
check_eq "switchx2: 802.1D: the bridge's MAC goes to the router" router \
	"$(router_mac_action "$vid" "$brmac")"
routed_by_asic "802.1D" "$rif"

ip link set br0 mtu 1400
check_eq "switchx2: 802.1D: the RIF follows the bridge's MTU" 1400 \
	"$(sx_router ".rifs[] | select(.rif == ${rif:-0}) | .mtu")"
ip link set br0 mtu 1500

ip addr flush dev br0
check_eq "switchx2: 802.1D: without its address the bridge has no RIF" "" \
	"$(sx_vlan_rif_of "$vid")"
check_eq "switchx2: 802.1D: and its MAC traps again (host entry)" trap \
	"$(router_mac_action "$vid" "$brmac")"
ip addr add 203.0.113.1/24 dev br0
check "switchx2: 802.1D: with its address back h1 pings h2 again" \
	wait_for 10 sx_ping 1 "$(sx_host_ip 2)"
ip link set "$swp1" nomaster
check_eq "switchx2: 802.1D: a bridge without ports has no RIF" "" \
	"$(sx_vlan_rif_of "$vid")"
check_eq "switchx2: 802.1D: and its MAC left the VID" "" \
	"$(router_mac_action "$vid" "$brmac")"
sx_bridge_destroy br0

# --- A VLAN-aware bridge: its own PVID, then an 802.1Q upper ---
sx_bridge_create br1 1 1
brmac=$(cat /sys/class/net/br1/address)
ip addr add 203.0.113.1/24 dev br1
check "switchx2: 802.1Q: h1 pings h2 through the bridge's PVID" \
	wait_for 10 sx_ping 1 "$(sx_host_ip 2)"
rif=$(sx_vlan_rif_of 1)
check "switchx2: 802.1Q: the bridge is a VLAN RIF of its PVID (1)" \
	test -n "$rif"
check_eq "switchx2: 802.1Q: the bridge's MAC goes to the router in VID 1" \
	router "$(router_mac_action 1 "$brmac")"
routed_by_asic "802.1Q PVID" "$rif"

# The bridge's PVID moves to VID 20: so does its RIF.
bridge vlan add dev "$swp1" vid 20 pvid untagged
bridge vlan add dev br1 vid 20 pvid untagged self
has_vlan_rif() {
	[ -n "$(sx_vlan_rif_of "$1")" ]
}
check "switchx2: 802.1Q: the RIF moves with the bridge's PVID (20)" \
	wait_for 5 has_vlan_rif 20
check_eq "switchx2: 802.1Q: and VID 1 has none" "" "$(sx_vlan_rif_of 1)"
check "switchx2: 802.1Q: h1 pings h2 in VID 20" \
	wait_for 10 sx_ping 1 "$(sx_host_ip 2)"
ip addr flush dev br1
check_eq "switchx2: 802.1Q: without its address the bridge has no RIF" "" \
	"$(sx_vlan_rif_of 20)"

# br1.10: h1 tags VID 10. The upper is a RIF from its address on,
# before any port is in VID 10: the bridge itself is.
bridge vlan add dev br1 vid 10 self
ip link add link br1 name br1.10 type vlan id 10
echo 1 >/proc/sys/net/ipv6/conf/br1.10/disable_ipv6
ip link set br1.10 up
ip addr add 203.0.113.1/24 dev br1.10
check "switchx2: 802.1Q: br1.10 is a VLAN RIF of VID 10 before any port is in it" \
	wait_for 5 has_vlan_rif 10
bridge vlan add dev "$swp1" vid 10
ip -n h1 addr flush dev eth0
ip -n h1 link add link eth0 name eth0.10 type vlan id 10
ip -n h1 addr add 203.0.113.2/24 dev eth0.10
ip -n h1 link set eth0.10 up
ip -n h1 route replace 192.0.2.0/24 via 203.0.113.1
check "switchx2: 802.1Q: h1 in VID 10 pings h2 through br1.10" \
	wait_for 10 sx_ping 1 "$(sx_host_ip 2)"
rif=$(sx_vlan_rif_of 10)
check "switchx2: 802.1Q: br1.10 is still the VLAN RIF of VID 10" test -n "$rif"
routed_by_asic "br1.10" "$rif"
ip link del br1.10
check_eq "switchx2: 802.1Q: a deleted upper leaves no RIF" "" \
	"$(sx_vlan_rif_of 10)"
check_eq "switchx2: 802.1Q: and its MAC traps in VID 10 (host entry)" trap \
	"$(router_mac_action 10 "$brmac")"

sx_bridge_destroy br1
check_eq "switchx2: no VLAN RIF is left" 0 \
	"$(sx_router '[.rifs[] | select(.type == "vlan")] | length')"
ip -n h1 link del eth0.10
ip -n h1 route del 192.0.2.0/24 2>/dev/null
ip -n h2 route del 203.0.113.0/24 2>/dev/null
