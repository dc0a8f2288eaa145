#!/bin/sh
# SwitchX-2: unknown unicast floods to every member port of the bridge,
# and not to a port whose flooding is turned off; port flags the device
# cannot offload are refused.
. /tests/lib.sh

FRAMES=20
UNKNOWN_IP=198.51.100.99
UNKNOWN_MAC=02:00:00:00:00:99

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 || not_ok "switchx2: create br0 with p1..p3"
ip -n h1 neigh replace "$UNKNOWN_IP" lladdr "$UNKNOWN_MAC" dev eth0

# flood_to_unknown: send FRAMES frames to the unknown MAC from h1, print
# how many frames h2 and h3 received meanwhile
flood_to_unknown() {
	a2=$(host_stat 2 rx_packets)
	a3=$(host_stat 3 rx_packets)
	sx_ping 1 "$UNKNOWN_IP" "$FRAMES"
	sleep 0.5
	echo "$(($(host_stat 2 rx_packets) - a2)) $(($(host_stat 3 rx_packets) - a3))"
}

set -- $(flood_to_unknown)
if [ "$1" -ge "$FRAMES" ] && [ "$2" -ge "$FRAMES" ]; then
	ok "switchx2: unknown unicast reaches h2 (+$1) and h3 (+$2)"
else
	not_ok "switchx2: unknown unicast reaches h2 and h3" "h2 +$1, h3 +$2"
fi

bridge link set dev "$(sx_port 2)" flood off
set -- $(flood_to_unknown)
if [ "$1" -le 1 ] && [ "$2" -ge "$FRAMES" ]; then
	ok "switchx2: with flooding off on p2 only h3 gets unknown unicast (h2 +$1, h3 +$2)"
else
	not_ok "switchx2: flooding off on p2 stops unknown unicast to h2" "h2 +$1, h3 +$2"
fi
bridge link set dev "$(sx_port 2)" flood on

# Bridge port flags the device has nothing to implement are refused with
# the driver's message and stay off, rather than being accepted and
# ignored by the hardware.
for flag in locked isolated hairpin; do
	msg=$(bridge link set dev "$(sx_port 2)" "$flag" on 2>&1) && refused=no || refused=yes
	if [ "$refused" = yes ] && echo "$msg" | grep -q "cannot offload this bridge port flag" &&
		bridge -d link show dev "$(sx_port 2)" | grep -q "$flag off"; then
		ok "switchx2: bridge port flag $flag is refused and stays off"
	else
		not_ok "switchx2: bridge port flag $flag is refused and stays off" \
			"refused: $refused, message: $msg"
		bridge link set dev "$(sx_port 2)" "$flag" off 2>/dev/null
	fi
done

ip -n h1 neigh del "$UNKNOWN_IP" dev eth0
sx_bridge_destroy br0
