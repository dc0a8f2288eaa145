#!/bin/sh
# SwitchX-2: the ASIC obeys the bridge port's STP state. The bridge runs
# no STP here, so it would move a port set to blocking straight back to
# forwarding; listening is a discarding state it leaves alone.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
swp2=$(sx_port 2)

sx_ping 1 "$(sx_l2_ip 2)" 3 || not_ok "switchx2: h1 pings h2 before STP changes"
bridge link set dev "$swp2" state 1
sx_stats_settle
tx0=$(port_stat 2 tx_packets)
if sx_ping 1 "$(sx_l2_ip 2)" 10; then
	not_ok "switchx2: p2 in a discarding STP state (listening) forwards nothing"
else
	ok "switchx2: p2 in a discarding STP state (listening) forwards nothing"
fi
sx_stats_settle
d_tx=$(($(port_stat 2 tx_packets) - tx0))
if [ "$d_tx" -le 1 ]; then
	ok "switchx2: nothing left p2 while it was discarding (tx +$d_tx)"
else
	not_ok "switchx2: nothing left p2 while it was discarding" "tx +$d_tx"
fi
bridge link set dev "$swp2" state 3
if wait_for 5 sx_ping 1 "$(sx_l2_ip 2)" 2; then
	ok "switchx2: p2 forwards again once back in forwarding state"
else
	not_ok "switchx2: p2 forwards again once back in forwarding state"
fi
sx_bridge_destroy br0
