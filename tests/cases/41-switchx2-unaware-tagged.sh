#!/bin/sh
# SwitchX-2: a VLAN-unaware bridge forwards tagged frames as they are.
# The ASIC only switches untagged frames there (in the bridge's internal
# VID); tagged ones go to the CPU and the bridge forwards them in
# software, so they still get from h1 to h2 with their tag.
. /tests/lib.sh

PINGS=10

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
swp1=$(sx_port 1)
swp2=$(sx_port 2)
for n in 1 2; do
	sx_host_vlan_add "$n" 50 "198.51.103.$n/24"
done

sx_stats_settle
rx1=$(sx_cpu_hit "$swp1" RX)
tx2=$(sx_cpu_hit "$swp2" TX)
if sx_ping 1 198.51.103.2 $PINGS; then
	ok "switchx2: h1 pings h2 in VLAN 50 across VLAN-unaware br0"
else
	not_ok "switchx2: h1 pings h2 in VLAN 50 across VLAN-unaware br0"
fi
d_rx1=$(($(sx_cpu_hit "$swp1" RX) - rx1))
d_tx2=$(($(sx_cpu_hit "$swp2" TX) - tx2))
if [ "$d_rx1" -ge $PINGS ] && [ "$d_tx2" -ge $PINGS ]; then
	ok "switchx2: the bridge forwarded the tagged frames in software (CPU rx p1 +$d_rx1, tx p2 +$d_tx2)"
else
	not_ok "switchx2: the bridge forwarded the tagged frames in software" \
		"CPU rx p1 +$d_rx1, tx p2 +$d_tx2, expected >= $PINGS each"
fi
check "switchx2: untagged traffic still switched in br0" sx_ping 1 "$(sx_l2_ip 2)"

for n in 1 2; do
	sx_host_vlan_del "$n" 50
done
sx_bridge_destroy br0
