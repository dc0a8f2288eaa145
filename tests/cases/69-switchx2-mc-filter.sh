#!/bin/sh
# SwitchX-2: standalone ports filter IP multicast in the ASIC. A group no
# standalone port joined never reaches the CPU; a joined group does, and
# so does everything once the port is in allmulti or promiscuous mode.
# Link-local groups (224.0.0.x) reach the CPU whatever was joined.
# local_termination's "Multicast IPv4 to unknown group" is this.
. /tests/lib.sh

FRAMES=10
UNKNOWN=239.2.2.2
JOINED=239.2.2.3
LINK_LOCAL=224.0.0.251
swp1=$(sx_port 1)
swp8=$(sx_port 8)

sx_host_setup 1 || not_ok "switchx2: set up h1 on p1"
# The filter lives in the ASIC's 802.1Q machinery, which the first VLAN
# upper sets up if no bridge did before.
ip link add link "$swp8" name "$swp8.69" type vlan id 69
wait_carrier "$swp1" 10 1
ip -n h1 route add 224.0.0.0/4 dev eth0

# to_cpu GROUP: send FRAMES frames from h1 to GROUP, print how many the
# CPU received from p1 meanwhile
to_cpu() {
	before=$(sx_cpu_hit "$swp1" RX)
	ip netns exec h1 ping -q -c "$FRAMES" -i 0.05 -W 1 "$1" >/dev/null 2>&1
	sleep 0.3
	echo $(($(sx_cpu_hit "$swp1" RX) - before))
}

n=$(to_cpu "$UNKNOWN")
check "switchx2: $UNKNOWN, which $swp1 did not join, stays out of the CPU ($n of $FRAMES)" \
	test "$n" -lt 3
ip addr add "$JOINED/32" dev "$swp1" autojoin
n=$(to_cpu "$JOINED")
check "switchx2: $JOINED, which $swp1 joined, reaches the CPU ($n of $FRAMES)" \
	test "$n" -ge "$FRAMES"
n=$(to_cpu "$LINK_LOCAL")
check "switchx2: link-local $LINK_LOCAL reaches the CPU ($n of $FRAMES)" \
	test "$n" -ge "$FRAMES"

ip link set "$swp1" allmulticast on
n=$(to_cpu "$UNKNOWN")
check "switchx2: $swp1 in allmulti mode gets $UNKNOWN ($n of $FRAMES)" \
	test "$n" -ge "$FRAMES"
ip link set "$swp1" allmulticast off
n=$(to_cpu "$UNKNOWN")
check "switchx2: allmulti off: $UNKNOWN filtered again ($n)" test "$n" -lt 3

ip link set "$swp1" promisc on
n=$(to_cpu "$UNKNOWN")
check "switchx2: a promiscuous $swp1 gets $UNKNOWN ($n of $FRAMES)" \
	test "$n" -ge "$FRAMES"
ip link set "$swp1" promisc off

ip addr del "$JOINED/32" dev "$swp1"
n=$(to_cpu "$JOINED")
check "switchx2: once $swp1 left $JOINED, it stays out of the CPU ($n)" \
	test "$n" -lt 3

ip -n h1 route del 224.0.0.0/4 dev eth0
ip link del "$swp8.69"
