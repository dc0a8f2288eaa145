#!/bin/sh
# SwitchX-2: a bond of ports 3 and 4 in 802.3ad mode is a LAG of the
# ASIC. Its LACP partner is a bond of the NICs cabled to ports 3 and 4,
# in a namespace of its own. LACP brings both members up through the
# ASIC's LACP trap; what the members receive reaches the bond through
# the LAG (the CPU is told the LAG and port index, not the port); the
# ASIC's LAG follows the bond as a member stops carrying traffic, leaves
# and the bond goes away. A bond that does not distribute by a hash is
# refused: the device has no other way to spread traffic over a LAG. A
# team in load balance mode is a LAG as well.
. /tests/lib.sh

swp1=$(sx_port 1)
swp3=$(sx_port 3)
swp4=$(sx_port 4)

refused "switchx2: $swp1 cannot join an active-backup bond" "hash" \
	sh -c "ip link add sxab type bond mode active-backup &&
		ip link set $swp1 down && ip link set $swp1 master sxab"
ip link del sxab 2>/dev/null
ip link set "$swp1" up

# A team that distributes by a hash (load balance mode; teamd would set
# it, teamnl does without it) is a LAG of the ASIC like a bond.
swp2=$(sx_port 2)
ip link add sxteam type team
teamnl sxteam setoption mode loadbalance
for swp in "$swp1" "$swp2"; do
	ip link set "$swp" down
	ip link set "$swp" master sxteam
done
ip link set sxteam up
lag1=$(sx_asic_port 1 '.lag')
check "switchx2: a load balance team of ports 1 and 2 is one ASIC LAG ($lag1, $(sx_asic_port 2 '.lag'))" \
	test "$lag1" != null -a "$lag1" = "$(sx_asic_port 2 '.lag')"
ip link del sxteam
check_eq "switchx2: deleting the team takes both ports out of the LAG" \
	"null null" "$(sx_asic_port 1 '.lag') $(sx_asic_port 2 '.lag')"
for swp in "$swp1" "$swp2"; do
	ip link set "$swp" up
done

check "switchx2: the LACP partner, a bond of the NICs cabled to ports 3 and 4" \
	sx_lag_partner_setup 198.51.100.2/24

check "switchx2: sxbond, 802.3ad over $swp3 and $swp4" \
	sx_lag_bond_create sxbond 3 4
ip addr add 198.51.100.1/24 dev sxbond

if wait_for 30 sx_aggregator_has 2 sxbond; then
	ok "switchx2: LACP puts $swp3 and $swp4 in sxbond's aggregator"
else
	not_ok "switchx2: LACP puts $swp3 and $swp4 in sxbond's aggregator" \
		"$(cat /proc/net/bonding/sxbond)"
fi
wait_for 10 sx_aggregator_has 2 pbond hl
check_eq "switchx2: the partner's aggregator has both NICs" 2 \
	"$(sx_aggregator_ports pbond hl)"

lag3=$(sx_asic_port 3 '.lag')
lag4=$(sx_asic_port 4 '.lag')
check "switchx2: ports 3 and 4 are members of one ASIC LAG ($lag3, $lag4)" \
	test "$lag3" != null -a "$lag3" = "$lag4"
wait_for 10 sx_lag_states_are "true true / true true"
check_eq "switchx2: both collect and distribute in the ASIC" \
	"true true / true true" "$(sx_lag_state 3) / $(sx_lag_state 4)"

check "switchx2: the partner pings sxbond" \
	ip netns exec hl ping -c 5 -i 0.2 -W 2 198.51.100.1

# The partner stops sending LACPDUs on one NIC: after the fast LACP
# timeout the bond stops using port 4, and so does the ASIC.
ip -n hl link set hl4 nomaster
if wait_for 15 sx_aggregator_has 1 sxbond; then
	ok "switchx2: sxbond's aggregator drops $swp4 when its partner leaves"
else
	not_ok "switchx2: sxbond's aggregator drops $swp4 when its partner leaves" \
		"$(cat /proc/net/bonding/sxbond)"
fi
wait_for 10 sx_lag_states_are "true true / false false"
check_eq "switchx2: port 4 no longer collects or distributes, port 3 does" \
	"true true / false false" "$(sx_lag_state 3) / $(sx_lag_state 4)"
check "switchx2: the partner still pings sxbond over port 3" \
	ip netns exec hl ping -c 3 -i 0.2 -W 2 198.51.100.1

ip link set "$swp4" nomaster
check_eq "switchx2: port 4 leaves the ASIC LAG with the bond" null \
	"$(sx_asic_port 4 '.lag')"
ip link del sxbond
check_eq "switchx2: deleting sxbond takes port 3 out of the ASIC LAG" null \
	"$(sx_asic_port 3 '.lag')"

sx_lag_partner_teardown
for swp in "$swp3" "$swp4"; do
	ip link set "$swp" up
done
