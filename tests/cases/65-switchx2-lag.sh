#!/bin/sh
# SwitchX-2: a bond of ports 3 and 4 in 802.3ad mode is a LAG of the
# ASIC. Its LACP partner is a bond of the NICs cabled to ports 3 and 4,
# in a namespace of its own. LACP brings both members up through the
# ASIC's LACP trap; what the members receive reaches the bond through
# the LAG (the CPU is told the LAG and port index, not the port); the
# ASIC's LAG follows the bond as a member stops carrying traffic, leaves
# and the bond goes away. A bond that does not distribute by a hash is
# refused: the device has no other way to spread traffic over a LAG.
. /tests/lib.sh

swp1=$(sx_port 1)
swp3=$(sx_port 3)
swp4=$(sx_port 4)

refused "switchx2: $swp1 cannot join an active-backup bond" "hash" \
	sh -c "ip link add sxab type bond mode active-backup &&
		ip link set $swp1 down && ip link set $swp1 master sxab"
ip link del sxab 2>/dev/null
ip link set "$swp1" up

# The partner: the NICs cabled to ports 3 and 4 in namespace hl, bonded.
# Deleting the namespaces at the end gives the NICs back to the root
# namespace, where the next test that needs hosts 3 and 4 finds them.
for n in 3 4; do
	ip netns del "h$n" 2>/dev/null
done
sleep 1
ip netns add hl
ip -n hl link add pbond type bond mode 802.3ad lacp_rate fast miimon 100 \
	xmit_hash_policy layer3+4
for n in 3 4; do
	nic=$(netdev_by_mac "$(sx_host_mac "$n")") ||
		not_ok "switchx2: the NIC cabled to port $n is in the root namespace"
	ip link set "$nic" netns hl
	ip -n hl link set "$nic" name "hl$n"
	# 802.3ad aggregates ports of one speed: virtio-net has none until
	# it is told one.
	ip netns exec hl ethtool -s "hl$n" speed 10000 duplex full
	ip -n hl link set "hl$n" master pbond
done
ip -n hl link set pbond up
ip -n hl addr add 198.51.100.2/24 dev pbond

for swp in "$swp3" "$swp4"; do
	ip addr flush dev "$swp"
	ip link set "$swp" down
done
check "switchx2: sxbond, 802.3ad over $swp3 and $swp4" sh -c "
	ip link add sxbond type bond mode 802.3ad lacp_rate fast miimon 100 &&
	ip link set $swp3 master sxbond && ip link set $swp4 master sxbond &&
	ip link set sxbond up && ip addr add 198.51.100.1/24 dev sxbond"

# aggregator_ports BOND [NETNS]: ports in BOND's active aggregator
aggregator_ports() {
	if [ -n "${2:-}" ]; then
		ip netns exec "$2" cat "/proc/net/bonding/$1"
	else
		cat "/proc/net/bonding/$1"
	fi | sed -n '/Active Aggregator Info/,/Partner Mac/s/.*Number of ports: *//p'
}

aggregator_has() {
	[ "$(aggregator_ports "$2" "${3:-}")" = "$1" ]
}

# lag_state N: whether ASIC port N collects and distributes
lag_state() {
	sx_asic_port "$1" '.["lag-collecting"], .["lag-distributing"]' |
		tr '\n' ' ' | sed 's/ $//'
}

# lag_states_are "C D / C D": ports 3 and 4 collect and distribute so.
# The bond tells its ports after its state machine has run, a little
# after /proc shows the aggregator.
lag_states_are() {
	[ "$(lag_state 3) / $(lag_state 4)" = "$1" ]
}

if wait_for 30 aggregator_has 2 sxbond; then
	ok "switchx2: LACP puts $swp3 and $swp4 in sxbond's aggregator"
else
	not_ok "switchx2: LACP puts $swp3 and $swp4 in sxbond's aggregator" \
		"$(cat /proc/net/bonding/sxbond)"
fi
wait_for 10 aggregator_has 2 pbond hl
check_eq "switchx2: the partner's aggregator has both NICs" 2 \
	"$(aggregator_ports pbond hl)"

lag3=$(sx_asic_port 3 '.lag')
lag4=$(sx_asic_port 4 '.lag')
check "switchx2: ports 3 and 4 are members of one ASIC LAG ($lag3, $lag4)" \
	test "$lag3" != null -a "$lag3" = "$lag4"
wait_for 10 lag_states_are "true true / true true"
check_eq "switchx2: both collect and distribute in the ASIC" \
	"true true / true true" "$(lag_state 3) / $(lag_state 4)"

check "switchx2: the partner pings sxbond" \
	ip netns exec hl ping -c 5 -i 0.2 -W 2 198.51.100.1

# The partner stops sending LACPDUs on one NIC: after the fast LACP
# timeout the bond stops using port 4, and so does the ASIC.
ip -n hl link set hl4 nomaster
if wait_for 15 aggregator_has 1 sxbond; then
	ok "switchx2: sxbond's aggregator drops $swp4 when its partner leaves"
else
	not_ok "switchx2: sxbond's aggregator drops $swp4 when its partner leaves" \
		"$(cat /proc/net/bonding/sxbond)"
fi
wait_for 10 lag_states_are "true true / false false"
check_eq "switchx2: port 4 no longer collects or distributes, port 3 does" \
	"true true / false false" "$(lag_state 3) / $(lag_state 4)"
check "switchx2: the partner still pings sxbond over port 3" \
	ip netns exec hl ping -c 3 -i 0.2 -W 2 198.51.100.1

ip link set "$swp4" nomaster
check_eq "switchx2: port 4 leaves the ASIC LAG with the bond" null \
	"$(sx_asic_port 4 '.lag')"
ip link del sxbond
check_eq "switchx2: deleting sxbond takes port 3 out of the ASIC LAG" null \
	"$(sx_asic_port 3 '.lag')"

ip netns del hl
for swp in "$swp3" "$swp4"; do
	ip link set "$swp" up
done
# The NICs return to the root namespace once the namespace is gone
wait_for 10 netdev_by_mac "$(sx_host_mac 3)"
wait_for 10 netdev_by_mac "$(sx_host_mac 4)"
