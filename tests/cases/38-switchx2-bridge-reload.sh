#!/bin/sh
# SwitchX-2: unloading the driver with bridges, VLANs and FDB entries
# offloaded tears it all down cleanly (the harness fails the run on any
# kernel warning), and the ports come back as standalone NIC ports.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br1 1 3 4 || not_ok "switchx2: create br1 with p3 and p4"
bridge vlan add vid 100 dev "$(sx_port 3)"
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
bridge fdb add 02:00:00:7f:00:01 dev "$(sx_port 2)" master static
sx_ping 1 "$(sx_l2_ip 2)" 2
sx_ping 3 "$(sx_l2_ip 4)" 2

check "switchx2: rmmod with two offloaded bridges" rmmod "$SX_DRIVER"
check "switchx2: modprobe again" modprobe "$SX_DRIVER"
sleep 1
sx_bridge_destroy br0
sx_bridge_destroy br1
sx_host_setup 1
wait_carrier "$(sx_port 1)" 10 1
if wait_for 10 sx_ping 1 "$(sx_swp_ip 1)" 2; then
	ok "switchx2: p1 is a standalone NIC port after the reload"
else
	not_ok "switchx2: p1 is a standalone NIC port after the reload"
fi
