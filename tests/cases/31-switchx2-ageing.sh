#!/bin/sh
# SwitchX-2: entries the ASIC learned age out of the ASIC (SFDAT) and
# are then removed from the bridge, which does not age them itself.
. /tests/lib.sh

AGEING=10	# seconds, the smallest the driver accepts

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 || not_ok "switchx2: create br0 with p1..p3"
ip link set br0 type bridge ageing_time $((AGEING * 100))

mac=$(sx_host_mac 1)
sx_ping 1 "$(sx_l2_ip 2)" 2 || not_ok "switchx2: h1 pings h2 before ageing"
if wait_for 5 sx_br_offloaded br0 "$mac" "$(sx_port 1)"; then
	ok "switchx2: h1's MAC is learned and offloaded"
else
	not_ok "switchx2: h1's MAC is learned and offloaded" "$(bridge fdb show br br0)"
fi

# While the ASIC knows h1's MAC, frames to it go to p1 only.
if d=$(sx_probe_to 2 "$mac" 5 1); then
	ok "switchx2: frames to h1's MAC go to p1 only while it is learned ($d)"
else
	not_ok "switchx2: frames to h1's MAC go to p1 only while it is learned" "per host: $d"
fi

# Silence: ageing is one to two periods of the timer after the last frame
# from h1. Once the ASIC forgot the MAC, frames to it flood to h3 too.
aged() {
	! sx_br_offloaded br0 "$mac" "$(sx_port 1)"
}
wait_for $((3 * AGEING)) aged
if d=$(sx_probe_floods 2 "$mac" 5 3); then
	ok "switchx2: h1's MAC aged out of the ASIC: frames to it flood ($d)"
else
	not_ok "switchx2: h1's MAC aged out of the ASIC: frames to it flood" "per host: $d"
fi
if wait_for 5 sx_br_lacks br0 "$mac"; then
	ok "switchx2: h1's MAC is gone from the bridge once the ASIC aged it"
else
	not_ok "switchx2: h1's MAC is gone from the bridge once the ASIC aged it" \
		"$(bridge fdb show br br0)"
fi
sx_bridge_destroy br0
