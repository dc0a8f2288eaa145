#!/bin/sh
# SwitchX-2: two bridges on one ASIC, one VLAN-unaware (p1, p2) and one
# VLAN-aware (p3, p4, default VLAN 1), do not leak into each other. The
# VLAN-aware one comes first: it cannot take VIDs from a VLAN-unaware
# bridge that has ports (tests/cases/43-*).
. /tests/lib.sh

FRAMES=20

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br2 1 3 4 || not_ok "switchx2: create br2 with p3 and p4"
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"

check "switchx2: h1 pings h2 in br0" sx_ping 1 "$(sx_l2_ip 2)"
check "switchx2: h3 pings h4 in br2" sx_ping 3 "$(sx_l2_ip 4)"
if sx_ping 1 "$(sx_l2_ip 3)" 3; then
	not_ok "switchx2: h1 (br0) cannot reach h3 (br2)"
else
	ok "switchx2: h1 (br0) cannot reach h3 (br2)"
fi

# Broadcast and unknown unicast from br0 stay in br0.
ip -n h1 neigh replace 198.51.100.99 lladdr 02:00:00:00:00:99 dev eth0
a2=$(host_stat 2 rx_packets)
a3=$(host_stat 3 rx_packets)
a4=$(host_stat 4 rx_packets)
sx_ping 1 198.51.100.99 "$FRAMES"
sleep 0.5
d2=$(($(host_stat 2 rx_packets) - a2))
d34=$(($(host_stat 3 rx_packets) - a3 + $(host_stat 4 rx_packets) - a4))
# h3 and h4 may refresh their neighbours meanwhile; a leak is FRAMES.
if [ "$d2" -ge "$FRAMES" ] && [ "$d34" -lt $((FRAMES / 2)) ]; then
	ok "switchx2: br0's flood reaches h2 (+$d2) and not br2's hosts (+$d34)"
else
	not_ok "switchx2: br0's flood stays in br0" "h2 +$d2, h3+h4 +$d34"
fi
ip -n h1 neigh del 198.51.100.99 dev eth0

sx_bridge_destroy br0
sx_bridge_destroy br2
