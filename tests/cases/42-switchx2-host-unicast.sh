#!/bin/sh
# SwitchX-2: unicast to the bridge's own address goes to the CPU only;
# the ASIC does not flood it to the other ports of the bridge.
. /tests/lib.sh

PINGS=20
BR_IP=198.51.100.100

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 || not_ok "switchx2: create br0 with p1..p3"
ip addr add $BR_IP/24 dev br0
sx_ping 1 $BR_IP 2 || not_ok "switchx2: h1 reaches br0's address"

sx_stats_settle
tx2=$(port_stat 2 tx_packets)
tx3=$(port_stat 3 tx_packets)
if sx_ping 1 $BR_IP $PINGS; then
	ok "switchx2: h1 pings br0 ($BR_IP)"
else
	not_ok "switchx2: h1 pings br0 ($BR_IP)"
fi
sx_stats_settle
d2=$(($(port_stat 2 tx_packets) - tx2))
d3=$(($(port_stat 3 tx_packets) - tx3))
if [ "$d2" -lt $((PINGS / 2)) ] && [ "$d3" -lt $((PINGS / 2)) ]; then
	ok "switchx2: unicast to br0 is not flooded to p2 (+$d2) or p3 (+$d3) (PPCNT)"
else
	not_ok "switchx2: unicast to br0 is not flooded to the other ports" \
		"PPCNT tx p2 +$d2, p3 +$d3 for $PINGS pings"
fi
sx_bridge_destroy br0
