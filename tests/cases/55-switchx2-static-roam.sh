#!/bin/sh
# SwitchX-2: FDB entries the user added move as the bridge moves them. A
# static entry follows its station to another port when the bridge sees
# a frame from it there (the bridge learns from every frame that reaches
# the CPU: broadcast and unknown unicast always do); a sticky one stays.
# The ASIC's static entries never move on their own, which is what a
# sticky entry wants.
. /tests/lib.sh

STATIC=02:00:00:55:00:01
STICKY=02:00:00:55:00:02
FRAMES=10

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 || not_ok "switchx2: create br0 with p1, p2 and p3"
swp2=$(sx_port 2)
swp3=$(sx_port 3)
bridge fdb add "$STATIC" dev "$swp2" master static
bridge fdb add "$STICKY" dev "$swp2" master static sticky

# probe_to MAC N: frames from h1 to MAC reach hN alone
probe_to() {
	d=$(sx_probe_to 1 "$1" "$FRAMES" "$2") && return 0
	echo "per host: $d" >&2
	return 1
}

# from_h3 MAC: h3 broadcasts a few frames with source MAC
from_h3() {
	ip netns exec h3 mausezahn eth0 -q -c 3 -a "$1" -b ff:ff:ff:ff:ff:ff \
		88:b5 -p 60 >/dev/null 2>&1
}

for mac in $STATIC $STICKY; do
	wait_for 5 sx_br_offloaded br0 "$mac" "$swp2"
	check "switchx2: unicast to $mac reaches h2 (p2)" probe_to "$mac" 2
	from_h3 "$mac"
done
if wait_for 5 sx_br_offloaded br0 "$STATIC" "$swp3"; then
	ok "switchx2: the bridge moved static $STATIC to $swp3, offloaded"
else
	not_ok "switchx2: the bridge moved static $STATIC to $swp3, offloaded" \
		"$(bridge fdb show br br0 | grep -i "$STATIC")"
fi
check "switchx2: unicast to static $STATIC now reaches h3 (p3)" probe_to "$STATIC" 3
check "switchx2: sticky $STICKY stays on $swp2" sx_br_offloaded br0 "$STICKY" "$swp2"
check "switchx2: unicast to sticky $STICKY still reaches h2 (p2)" probe_to "$STICKY" 2
sx_bridge_destroy br0
