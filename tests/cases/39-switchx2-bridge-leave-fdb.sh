#!/bin/sh
# SwitchX-2: when one port leaves a bridge, the bridge replays the
# deletion of every FDB entry to it; only that port's entries may go.
# The static entries of the ports that stay must still steer traffic.
. /tests/lib.sh

MAC=02:00:00:8f:00:02

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 4 || not_ok "switchx2: create br0 with p1..p4"
bridge fdb add $MAC dev "$(sx_port 2)" master static
bridge fdb add 02:00:00:8f:00:04 dev "$(sx_port 4)" master static
wait_for 10 sx_br_offloaded br0 $MAC "$(sx_port 2)"

if d=$(sx_probe_to 1 $MAC 5 2); then
	ok "switchx2: the static entry on p2 steers frames to p2 ($d)"
else
	not_ok "switchx2: the static entry on p2 steers frames to p2" "per host: $d"
fi

ip link set "$(sx_port 4)" nomaster
sleep 1
if d=$(sx_probe_to 1 $MAC 5 2); then
	ok "switchx2: after p4 left br0, p2's static entry still steers frames to p2 ($d)"
else
	not_ok "switchx2: after p4 left br0, p2's static entry still steers frames to p2" \
		"per host: $d (h3 getting them means the entry was deleted)"
fi
if sx_br_offloaded br0 $MAC "$(sx_port 2)"; then
	ok "switchx2: the bridge still lists p2's entry as offloaded"
else
	not_ok "switchx2: the bridge still lists p2's entry as offloaded" "$(bridge fdb show br br0)"
fi
sx_bridge_destroy br0
