#!/bin/sh
# SwitchX-2: 1000 static FDB entries added with `bridge fdb` are all
# programmed into the ASIC, steer traffic there, and all go away again.
. /tests/lib.sh

N=1000
PREFIX=02:00:00:5f
FRAMES=10

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 || not_ok "switchx2: create br0 with p1..p3"
swp2=$(sx_port 2)

asic_static() {
	sx_asic_count "^$PREFIX:.* static"
}
asic_static_is() {
	[ "$(asic_static)" = "$1" ]
}

fdb_batch add "$swp2" 0 $N $PREFIX >/tmp/fdb-add
fdb_batch del "$swp2" 0 $N $PREFIX >/tmp/fdb-del
t0=$(now_ms)
check "switchx2: bridge -batch adds $N static entries on $swp2" bridge -batch /tmp/fdb-add
if wait_for 120 asic_static_is $N; then
	t=$(($(now_ms) - t0))
	ok "switchx2: all $N static entries are in the ASIC FDB"
	echo "# static FDB programming: $N entries in $t ms, $((N * 1000 / (t > 0 ? t : 1))) entries/s"
else
	not_ok "switchx2: all $N static entries are in the ASIC FDB" "ASIC has $(asic_static)"
fi
offl=$(bridge fdb show br br0 | grep -ci "^$PREFIX:.* dev $swp2 .*offload")
check_eq "switchx2: the bridge marks all $N entries offloaded" $N "$offl"

# Traffic to the last entry goes to p2 only, not flooded to p3.
ip -n h1 neigh replace 198.51.100.77 lladdr "$PREFIX:03:e7" dev eth0
a2=$(host_stat 2 rx_packets)
a3=$(host_stat 3 rx_packets)
sx_ping 1 198.51.100.77 $FRAMES
sleep 0.5
d2=$(($(host_stat 2 rx_packets) - a2))
d3=$(($(host_stat 3 rx_packets) - a3))
if [ "$d2" -ge $FRAMES ] && [ "$d3" -le 1 ]; then
	ok "switchx2: frames to a static MAC go to its port only (h2 +$d2, h3 +$d3)"
else
	not_ok "switchx2: frames to a static MAC go to its port only" "h2 +$d2, h3 +$d3"
fi

t0=$(now_ms)
check "switchx2: bridge -batch removes the $N entries" bridge -batch /tmp/fdb-del
if wait_for 120 asic_static_is 0; then
	echo "# static FDB removal: $N entries in $(($(now_ms) - t0)) ms"
	ok "switchx2: no static entry is left in the ASIC FDB"
else
	not_ok "switchx2: no static entry is left in the ASIC FDB" "ASIC has $(asic_static)"
fi
a3=$(host_stat 3 rx_packets)
sx_ping 1 198.51.100.77 $FRAMES
sleep 0.5
d3=$(($(host_stat 3 rx_packets) - a3))
if [ "$d3" -ge $FRAMES ]; then
	ok "switchx2: once removed, the MAC is unknown and floods again (h3 +$d3)"
else
	not_ok "switchx2: once removed, the MAC is unknown and floods again" "h3 +$d3"
fi
ip -n h1 neigh del 198.51.100.77 dev eth0
sx_bridge_destroy br0
