#!/bin/sh
# SwitchX-2: standalone ports filter unicast in the ASIC. Unicast for an
# address the port does not have never reaches the CPU; its own address,
# a secondary one (a macvlan on it: the port stays non-promiscuous) and
# a new address after a change do; a promiscuous port gets everything.
# local_termination's "Unicast IPv4 to unknown MAC address" is this.
. /tests/lib.sh

FRAMES=10
UNKNOWN_MAC=02:00:00:00:68:99
MACVLAN_MAC=02:00:00:00:68:01
NEW_MAC=02:00:00:00:68:02
swp1=$(sx_port 1)
swp8=$(sx_port 8)

sx_host_setup 1 || not_ok "switchx2: set up h1 on p1"
# The filter lives in the ASIC's 802.1Q machinery, which the first VLAN
# upper sets up if no bridge did before.
ip link add link "$swp8" name "$swp8.68" type vlan id 68
wait_carrier "$swp1" 10 1

# to_cpu MAC: send FRAMES frames from h1 to MAC, print how many the CPU
# received from p1 meanwhile
to_cpu() {
	before=$(sx_cpu_hit "$swp1" RX)
	ip -n h1 neigh replace "$SX_PROBE_IP" lladdr "$1" dev eth0
	ip -n h1 route replace "$SX_PROBE_IP/32" dev eth0
	sx_ping 1 "$SX_PROBE_IP" "$FRAMES"
	ip -n h1 route del "$SX_PROBE_IP/32" dev eth0
	ip -n h1 neigh del "$SX_PROBE_IP" dev eth0
	sleep 0.3
	echo $(($(sx_cpu_hit "$swp1" RX) - before))
}

n=$(to_cpu "$UNKNOWN_MAC")
check "switchx2: unicast to an address $swp1 does not have stays out of the CPU ($n of $FRAMES)" \
	test "$n" -lt 3
n=$(to_cpu "$(cat "/sys/class/net/$swp1/address")")
check "switchx2: unicast to $swp1's own address reaches the CPU ($n of $FRAMES)" \
	test "$n" -ge "$FRAMES"

ip link add link "$swp1" name sxmv address "$MACVLAN_MAC" type macvlan
ip link set sxmv up
n=$(to_cpu "$MACVLAN_MAC")
check "switchx2: unicast to a macvlan's address on $swp1 reaches the CPU ($n of $FRAMES)" \
	test "$n" -ge "$FRAMES"
check "switchx2: the macvlan leaves $swp1 non-promiscuous (IFF_UNICAST_FLT)" \
	sh -c "! ip -d link show $swp1 | grep -q 'promiscuity [1-9]'"
ip link del sxmv
n=$(to_cpu "$MACVLAN_MAC")
check "switchx2: once the macvlan is gone, its address stays out of the CPU ($n)" \
	test "$n" -lt 3

ip link set "$swp1" promisc on
n=$(to_cpu "$UNKNOWN_MAC")
check "switchx2: a promiscuous $swp1 gets unicast to any address ($n of $FRAMES)" \
	test "$n" -ge "$FRAMES"
ip link set "$swp1" promisc off
n=$(to_cpu "$UNKNOWN_MAC")
check "switchx2: promiscuous off: filtered again ($n)" test "$n" -lt 3

old_mac=$(cat "/sys/class/net/$swp1/address")
ip link set "$swp1" address "$NEW_MAC"
n=$(to_cpu "$NEW_MAC")
check "switchx2: after an address change the new address reaches the CPU ($n of $FRAMES)" \
	test "$n" -ge "$FRAMES"
n=$(to_cpu "$old_mac")
check "switchx2: and the old one no longer does ($n)" test "$n" -lt 3
ip link set "$swp1" address "$old_mac"
ip -n h1 neigh flush dev eth0
check "switchx2: h1 pings $swp1" sx_ping 1 "$(sx_swp_ip 1)" 3

ip link del "$swp8.68"
