#!/bin/sh
# SwitchX-2 L2 offload, VLAN-unaware bridge: h1 -- p1 [br0] p2 -- h2.
# Unicast between the hosts is switched by the ASIC: the port counters
# (PPCNT) see it, the CPU does not. The hosts' MACs are learned by the
# ASIC and show up in the bridge as offloaded.
. /tests/lib.sh

PINGS=30
# ARP and the odd broadcast do reach the CPU; a handful at most.
CPU_MAX=6

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
swp1=$(sx_port 1)
swp2=$(sx_port 2)

sx_stats_settle
cpu1=$(sx_cpu_hit "$swp1" RX)
cpu2=$(sx_cpu_hit "$swp2" RX)
rx1=$(port_stat 1 rx_packets)
tx2=$(port_stat 2 tx_packets)

if out=$(ip netns exec h1 ping -c "$PINGS" -i 0.05 -W 2 "$(sx_l2_ip 2)" 2>&1); then
	ok "switchx2: h1 pings h2 through VLAN-unaware br0"
else
	not_ok "switchx2: h1 pings h2 through VLAN-unaware br0" "$out"
fi
sx_stats_settle

d_cpu=$(($(sx_cpu_hit "$swp1" RX) + $(sx_cpu_hit "$swp2" RX) - cpu1 - cpu2))
if [ "$d_cpu" -le "$CPU_MAX" ]; then
	ok "switchx2: the CPU received $d_cpu frames of $((2 * PINGS)) unicast (cpu_hit)"
else
	not_ok "switchx2: the CPU stays out of unicast between bridged hosts" \
		"cpu_hit RX grew by $d_cpu, expected <= $CPU_MAX"
fi
d_rx1=$(($(port_stat 1 rx_packets) - rx1))
d_tx2=$(($(port_stat 2 tx_packets) - tx2))
if [ "$d_rx1" -ge "$PINGS" ] && [ "$d_tx2" -ge "$PINGS" ]; then
	ok "switchx2: PPCNT counts the switched frames (p1 rx +$d_rx1, p2 tx +$d_tx2)"
else
	not_ok "switchx2: PPCNT counts the switched frames" \
		"p1 rx +$d_rx1, p2 tx +$d_tx2, expected >= $PINGS each"
fi

# Learned in the ASIC (the unicast above stayed off the CPU), reported to
# the bridge as offloaded.
for n in 1 2; do
	mac=$(sx_host_mac "$n")
	swp=$(sx_port "$n")
	if wait_for 5 sx_br_offloaded br0 "$mac" "$swp"; then
		ok "switchx2: bridge fdb lists h$n's MAC on $swp as offloaded"
	else
		not_ok "switchx2: bridge fdb lists h$n's MAC on $swp as offloaded" \
			"$(bridge fdb show br br0)"
	fi
done

# Leaving the bridge gives the port back its standalone behaviour.
sx_bridge_destroy br0
sx_host_setup 1
if sx_ping 1 "$(sx_swp_ip 1)"; then
	ok "switchx2: p1 is a standalone NIC port again after br0 is deleted"
else
	not_ok "switchx2: p1 is a standalone NIC port again after br0 is deleted"
fi

# A new bridge of p2 and p3 gets the VID br0 had. Had h1's entry stayed
# in the ASIC, frames to h1's MAC would go to p1 instead of flooding.
ip addr flush dev "$(sx_port 1)"
sx_bridge_create br0 0 2 3 || not_ok "switchx2: create br0 again with p2 and p3"
if d=$(sx_probe_to 2 "$(sx_host_mac 1)" 10 3); then
	ok "switchx2: leaving the bridge flushed the port's ASIC FDB entries (h1..h4: $d)"
else
	not_ok "switchx2: leaving the bridge flushed the port's ASIC FDB entries" \
		"frames to h1's old MAC, per host: $d; expected all at h3"
fi
sx_bridge_destroy br0
