#!/bin/sh
# SwitchX-2: the multicast groups of a snooping bridge are in the ASIC.
# A group's stream reaches its member ports (static, or joined by IGMP)
# and the multicast router ports, once each, and the CPU only when the
# bridge itself joined: the ASIC forwards it, the CPU does not see it.
# Unregistered groups reach the router ports, and the CPU. Groups the
# ASIC cannot tell apart are forwarded by the bridge. With snooping off the
# ASIC floods multicast to every port, and the bridge does not forward it
# a second time.
. /tests/lib.sh

FRAMES=20
GROUP=239.1.1.1		# p2, a static member
JOINED=239.1.1.2	# h3 joins it by IGMP
HOSTGRP=239.1.1.3	# br0 itself joins it
UNREG=239.1.1.9		# nobody joins it
COLLIDING=239.129.1.1	# GROUP's MAC address, 01:00:5e:01:01:01
swp1=$(sx_port 1)
swp2=$(sx_port 2)
swp3=$(sx_port 3)
swp4=$(sx_port 4)

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 4 || not_ok "switchx2: create br0 with p1..p4"
# Without a querier the bridge floods even registered groups; its own
# querier counts once a query response interval has passed, the one in
# force when it is turned on (so first make it 1 s).
ip link set br0 type bridge mcast_snooping 1 mcast_query_response_interval 100
ip link set br0 type bridge mcast_querier 1
sleep 2
ip -n h1 route add 224.0.0.0/4 dev eth0
bridge mdb add dev br0 port "$swp2" grp "$GROUP" permanent ||
	not_ok "switchx2: add $GROUP on p2 to br0's MDB"

# send_to GROUP: FRAMES frames to GROUP from h1; print how many frames
# h2, h3 and h4 received meanwhile and how many the CPU got from p1
send_to() {
	a2=$(host_stat 2 rx_packets)
	a3=$(host_stat 3 rx_packets)
	a4=$(host_stat 4 rx_packets)
	c1=$(sx_cpu_hit "$swp1" RX)
	ip netns exec h1 ping -q -c "$FRAMES" -i 0.05 -W 1 "$1" >/dev/null 2>&1
	sleep 0.5
	echo "$(($(host_stat 2 rx_packets) - a2))" \
		"$(($(host_stat 3 rx_packets) - a3))" \
		"$(($(host_stat 4 rx_packets) - a4))" \
		"$(($(sx_cpu_hit "$swp1" RX) - c1))"
}

# At most two extra frames on a host: the bridge's own queries.
once() {
	[ "$1" -ge "$FRAMES" ] && [ "$1" -le $((FRAMES + 2)) ]
}

none() {
	[ "$1" -le 2 ]
}

# expect WHAT GROUP H2 H3 H4 CPU: each of "once" or "none"
expect() {
	what=$1
	set -- "$2" "$3" "$4" "$5" "$6" $(send_to "$2")
	if "$2" "$6" && "$3" "$7" && "$4" "$8" && "$5" "$9"; then
		ok "switchx2: $what: h2 +$6, h3 +$7, h4 +$8, CPU from p1 +$9"
	else
		not_ok "switchx2: $what" \
			"h2 +$6, h3 +$7, h4 +$8, CPU from p1 +$9; expected h2 $2, h3 $3, h4 $4, CPU $5"
	fi
}

tx2=$(port_stat 2 tx_packets)
expect "$GROUP reaches its static member h2 alone, forwarded by the ASIC" \
	"$GROUP" once none none none
sx_stats_settle
grew "switchx2: the ASIC sent the stream out of $swp2 (PPCNT)" \
	"$tx2" "$(port_stat 2 tx_packets)" "$FRAMES"
check "switchx2: br0's MDB shows $GROUP on $swp2 offloaded" \
	sh -c "bridge mdb show dev br0 | grep '$swp2 grp $GROUP ' | grep -q offload"

ip -n h3 addr add "$JOINED/32" dev eth0 autojoin
check "switchx2: h3's IGMP report puts $swp3 in $JOINED" \
	wait_for 10 sh -c "bridge mdb show dev br0 | grep '$swp3 grp $JOINED ' | grep -q offload"
expect "$JOINED reaches h3, which joined it by IGMP, alone" \
	"$JOINED" none once none none

ip addr add "$HOSTGRP/32" dev br0 autojoin
check "switchx2: br0 joins $HOSTGRP" \
	wait_for 10 sh -c "bridge mdb show dev br0 | grep -q 'grp $HOSTGRP '"
expect "$HOSTGRP, which br0 joined, reaches the CPU alone" \
	"$HOSTGRP" none none none once
expect "$UNREG, which nobody joined, reaches no port, only the CPU" \
	"$UNREG" none none none once

bridge link set dev "$swp4" mcast_router 2
expect "with p4 a multicast router port, $GROUP reaches h2 and h4" \
	"$GROUP" once none once none
expect "and $UNREG reaches h4 (and the CPU)" "$UNREG" none none once once
bridge mdb del dev br0 port "$swp2" grp "$GROUP"
expect "once $GROUP is deleted from p2, it reaches h4 (and the CPU)" \
	"$GROUP" none none once once
bridge link set dev "$swp4" mcast_router 1

# A port of another device in the bridge: the bridge tells the driver
# nothing of its groups, so the CPU gets every group to forward to it.
ip netns add hv
ip netns exec hv sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6'
ip link add sxv type veth peer name eth0 netns hv
echo 1 >/proc/sys/net/ipv6/conf/sxv/disable_ipv6
ip netns exec hv sh -c 'echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6'
ip link set sxv master br0
ip link set sxv up
ip -n hv link set eth0 up
bridge mdb add dev br0 port "$swp2" grp "$GROUP" permanent
bridge mdb add dev br0 port sxv grp "$GROUP" permanent
v0=$(ip netns exec hv cat /sys/class/net/eth0/statistics/rx_packets)
expect "with a veth in br0, $GROUP reaches h2 from the ASIC and the CPU for the veth" \
	"$GROUP" once none none once
v=$(($(ip netns exec hv cat /sys/class/net/eth0/statistics/rx_packets) - v0))
check "switchx2: the veth member of $GROUP gets it from the bridge ($v of $FRAMES)" \
	test "$v" -ge "$FRAMES"
ip link del sxv
ip netns del hv
expect "the veth gone, $GROUP no longer reaches the CPU" \
	"$GROUP" once none none none
bridge mdb del dev br0 port "$swp2" grp "$GROUP"

# The ASIC knows a group by its MAC address: two IP groups on one address
# (or a group per source) are the bridge's to forward, through the CPU.
bridge mdb add dev br0 port "$swp2" grp "$GROUP" permanent
bridge mdb add dev br0 port "$swp2" grp "$COLLIDING" permanent
expect "$GROUP and $COLLIDING share a MAC address: the bridge forwards $GROUP, to h2 alone" \
	"$GROUP" once none none once
expect "and $COLLIDING, to h2 alone" "$COLLIDING" once none none once
expect "and $JOINED, to h3 alone" "$JOINED" none once none once

ip link set br0 type bridge mcast_snooping 0
expect "snooping off: the ASIC floods $GROUP to every port, once" \
	"$GROUP" once once once once

ip -n h3 addr del "$JOINED/32" dev eth0
ip -n h1 route del 224.0.0.0/4 dev eth0
sx_bridge_destroy br0
