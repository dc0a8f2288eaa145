#!/bin/sh
# SwitchX-2 L2 offload, VLAN-aware bridge: VLAN membership, PVID and
# egress tagging are done by the ASIC.
#   p1, p2: VLAN 10 PVID untagged    p3: VLAN 20 PVID untagged
#   p2, p4: VLAN 30 tagged (h2 and h4 talk over eth0.30)
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br1 1 1 2 3 4 || not_ok "switchx2: create VLAN-aware br1"
swp1=$(sx_port 1)
swp2=$(sx_port 2)
swp3=$(sx_port 3)
swp4=$(sx_port 4)
for swp in $swp1 $swp2 $swp3 $swp4; do
	bridge vlan del vid 1 dev "$swp"
done
bridge vlan add vid 10 dev "$swp1" pvid untagged
bridge vlan add vid 10 dev "$swp2" pvid untagged
bridge vlan add vid 20 dev "$swp3" pvid untagged
bridge vlan add vid 30 dev "$swp2"
bridge vlan add vid 30 dev "$swp4"
for n in 2 4; do
	sx_host_vlan_add "$n" 30 "198.51.101.$n/24"
done

sx_stats_settle
cpu0=$(($(sx_cpu_hit "$swp1" RX) + $(sx_cpu_hit "$swp2" RX)))
if sx_ping 1 "$(sx_l2_ip 2)" 20; then
	ok "switchx2: h1 pings h2 in VLAN 10 (PVID in, untagged out)"
else
	not_ok "switchx2: h1 pings h2 in VLAN 10 (PVID in, untagged out)"
fi
sx_stats_settle
d_cpu=$(($(sx_cpu_hit "$swp1" RX) + $(sx_cpu_hit "$swp2" RX) - cpu0))
if [ "$d_cpu" -le 6 ]; then
	ok "switchx2: VLAN-aware unicast stays in the ASIC (cpu_hit RX +$d_cpu)"
else
	not_ok "switchx2: VLAN-aware unicast stays in the ASIC" "cpu_hit RX +$d_cpu"
fi
if wait_for 5 sh -c "bridge fdb show br br1 | grep -qi '^$(sx_host_mac 1) dev $swp1 vlan 10 .*offload'"; then
	ok "switchx2: h1's MAC is learned in VLAN 10 and offloaded"
else
	not_ok "switchx2: h1's MAC is learned in VLAN 10 and offloaded" "$(bridge fdb show br br1)"
fi
if sx_ping 3 "$(sx_l2_ip 1)" 3; then
	not_ok "switchx2: h3 (VLAN 20) cannot reach h1 (VLAN 10)"
else
	ok "switchx2: h3 (VLAN 20) cannot reach h1 (VLAN 10)"
fi
if sx_ping 2 198.51.101.4 5; then
	ok "switchx2: h2 and h4 talk tagged in VLAN 30 (tag kept on egress)"
else
	not_ok "switchx2: h2 and h4 talk tagged in VLAN 30 (tag kept on egress)"
fi
# p4 has no PVID: h4's untagged frames must not get in.
if sx_ping 4 "$(sx_l2_ip 2)" 3; then
	not_ok "switchx2: untagged frames on p4 (no PVID) are dropped"
else
	ok "switchx2: untagged frames on p4 (no PVID) are dropped"
fi

bridge vlan del vid 10 dev "$swp2"
if sx_ping 1 "$(sx_l2_ip 2)" 3; then
	not_ok "switchx2: removing VLAN 10 from p2 cuts h1 off h2"
else
	ok "switchx2: removing VLAN 10 from p2 cuts h1 off h2"
fi

for n in 2 4; do
	sx_host_vlan_del "$n" 30
done
sx_bridge_destroy br1
