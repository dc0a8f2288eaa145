#!/bin/sh
# SwitchX-2: an FDB entry replaced between "local" (an address of the
# host: unicast to it goes to the CPU only) and "static on a port", back
# and forth, leaves the ASIC sending the address where the bridge says.
. /tests/lib.sh

MAC=02:00:00:0e:00:01
FRAMES=10

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 || not_ok "switchx2: create br0 with p1, p2 and p3"
swp2=$(sx_port 2)

# probe_reaches_none DESCRIPTION: frames from h1 to MAC reach neither h2
# nor h3: the ASIC sends them to the CPU.
probe_reaches_none() {
	d=$(sx_probe 1 "$MAC" "$FRAMES")
	d2=$(echo "$d" | cut -d' ' -f2)
	d3=$(echo "$d" | cut -d' ' -f3)
	if [ "$d2" -le 1 ] && [ "$d3" -le 1 ]; then
		ok "$1 (h1..h4: $d)"
	else
		not_ok "$1" "frames to $MAC per host: $d; expected none at h2 and h3"
	fi
}

probe_reaches_h2() {
	if d=$(sx_probe_to 1 "$MAC" "$FRAMES" 2); then
		ok "$1 (h1..h4: $d)"
	else
		not_ok "$1" "frames to $MAC per host: $d; expected all at h2 alone"
	fi
}

# asic_traps_mac: the ASIC's FDB sends MAC to the CPU (QMP): a host
# entry carries no offload flag to wait for.
asic_traps_mac() {
	[ "$(sx_asic_fdb "[.entries[] | select(.mac == \"$MAC\" and .action == \"trap\")] | length")" -gt 0 ]
}

bridge fdb add "$MAC" dev br0 self local
wait_for 5 asic_traps_mac
probe_reaches_none "switchx2: unicast to a local address goes to the CPU only"
bridge fdb replace "$MAC" dev "$swp2" master static
wait_for 5 sx_br_offloaded br0 "$MAC" "$swp2"
probe_reaches_h2 "switchx2: replaced by a static entry on $swp2, it goes to h2"
bridge fdb replace "$MAC" dev br0 self local
wait_for 5 asic_traps_mac
probe_reaches_none "switchx2: replaced back by a local entry, it goes to the CPU only"
bridge fdb replace "$MAC" dev "$swp2" master static
wait_for 5 sx_br_offloaded br0 "$MAC" "$swp2"
probe_reaches_h2 "switchx2: and static on $swp2 again, to h2"
bridge fdb del "$MAC" dev "$swp2" master
sleep 1
if d=$(sx_probe_floods 1 "$MAC" "$FRAMES" 3); then
	ok "switchx2: once deleted, unicast to it floods (h1..h4: $d)"
else
	not_ok "switchx2: once deleted, unicast to it floods" "per host: $d"
fi
sx_bridge_destroy br0
