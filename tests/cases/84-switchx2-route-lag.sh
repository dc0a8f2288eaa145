#!/bin/sh
# SwitchX-2: routing on bonds. A bond of ports 3 and 4 (an ASIC LAG)
# with an address is a sub-port RIF of {the LAG, the standalone VID},
# an 802.1Q upper of it one of {the LAG, its VID}: the ASIC routes
# between them and port 1's RIF whichever member a packet comes in by,
# and sends what it routes to the bond over the LAG. The RIF comes with
# the bond's first port and goes with its last; a port joining the bond
# moves its traffic to the bond's RIF. A bond in a bridge, or with a
# lower of another device, routes in software.
. /tests/lib.sh

sx_routed_host_v4 1 || not_ok "switchx2: set up h1"
swp2=$(sx_port 2)
swp3=$(sx_port 3)
swp4=$(sx_port 4)
h1_ip=$(sx_host_ip 1)
hl_ip=198.51.100.2
echo 1 >/proc/sys/net/ipv4/ip_forward
ip -n h1 route replace 198.51.100.0/24 via "$(sx_swp_ip 1)"
ip -n h1 route replace 203.0.113.0/24 via "$(sx_swp_ip 1)"

check "switchx2: the LACP partner, a bond of the NICs cabled to ports 3 and 4" \
	sx_lag_partner_setup "$hl_ip/24"
ip -n hl route replace 192.0.2.0/24 via 198.51.100.1

# lag_rif [VID]: the ASIC's sub-port RIF on a LAG in VID (the standalone
# VID by default), or nothing; rif_field RIF FIELD: a field of RIF.
lag_rif() {
	sx_router ".rifs[] | select(.type == \"sub-port\" and .lag != null and
		.vid == ${1:-4094}) | .rif"
}
rif_field() {
	sx_router ".rifs[] | select(.rif == $1) | .\"$2\""
}
no_lag_rif() {
	[ -z "$(lag_rif "$@")" ]
}

ip link add sxbond type bond mode 802.3ad lacp_rate fast miimon 100
echo 1 >/proc/sys/net/ipv6/conf/sxbond/disable_ipv6
ip addr add 198.51.100.1/24 dev sxbond
ip link set sxbond up
check_eq "switchx2: a bond with an address and no port of the ASIC has no RIF" \
	"" "$(lag_rif)"

# The first port makes the LAG, and the bond a RIF on it.
ip addr flush dev "$swp3"
ip link set "$swp3" down
ip link set "$swp3" master sxbond
rif=$(lag_rif)
check "switchx2: with port 3, sxbond is a sub-port RIF" test -n "$rif"
lag=$(sx_asic_port 3 '.lag')
check_eq "switchx2: on port 3's LAG, in the standalone VID" "$lag 4094" \
	"$(rif_field "$rif" lag) $(rif_field "$rif" vid)"
check_eq "switchx2: with the bond's MAC" \
	"$(cat /sys/class/net/sxbond/address)" "$(rif_field "$rif" mac)"
check_eq "switchx2: port 3 has no RIF of its own" "" "$(sx_rif_of 3)"
wait_for 30 sx_aggregator_has 1 sxbond
wait_for 10 sx_ping l "$h1_ip"
sx_routed_by_asic "from the bond's partner over port 3" l "$h1_ip" 3 "$rif"
out0=$(rif_field "$rif" routed-out)
sx_routed_by_asic "to the bond's partner" 1 "$hl_ip" 1 "$(sx_rif_of 1)"
out1=$(($(rif_field "$rif" routed-out) - out0))
check "switchx2: what the ASIC routes to the partner leaves by the LAG RIF ($out1)" \
	test "$out1" -ge 100
check "switchx2: the partner's neighbour entry on sxbond is in the ASIC" \
	sh -c "ip neigh show dev sxbond $hl_ip | grep -qw offload"

# Port 4 routes on a RIF of its own, then joins the bond: its traffic
# moves to the bond's RIF.
ip addr add "$(sx_swp_ip 4)/30" dev "$swp4"
ip link set "$swp4" up
check "switchx2: port 4 with an address has a RIF of its own" \
	test -n "$(sx_rif_of 4)"
ip link set "$swp4" down
ip link set "$swp4" master sxbond
check_eq "switchx2: port 4 in the bond has none" "" "$(sx_rif_of 4)"
check_eq "switchx2: and the bond keeps its RIF" "$rif" "$(lag_rif)"
ip addr flush dev "$swp4"
if wait_for 30 sx_aggregator_has 2 sxbond; then
	ok "switchx2: LACP puts $swp3 and $swp4 in sxbond's aggregator"
else
	not_ok "switchx2: LACP puts $swp3 and $swp4 in sxbond's aggregator" \
		"$(cat /proc/net/bonding/sxbond)"
fi
wait_for 10 sx_lag_states_are "true true / true true"
# The partner sends by hl4 alone.
ip -n hl link set hl3 nomaster
wait_for 15 sx_aggregator_has 1 sxbond
wait_for 10 sx_lag_states_are "false false / true true"
wait_for 10 sx_ping l "$h1_ip"
sx_routed_by_asic "from the bond's partner over port 4" l "$h1_ip" 4 "$rif"

# An 802.1Q upper of the bond: a sub-port RIF of {LAG, VID 20}.
ip link add link sxbond name sxbond.20 type vlan id 20
echo 1 >/proc/sys/net/ipv6/conf/sxbond.20/disable_ipv6
ip addr add 203.0.113.1/24 dev sxbond.20
ip link set sxbond.20 up
ip -n hl link add link pbond name pbond.20 type vlan id 20
ip -n hl addr add 203.0.113.2/24 dev pbond.20
ip -n hl link set pbond.20 up
ip -n hl route replace 192.0.2.0/24 via 203.0.113.1
vrif=$(lag_rif 20)
check "switchx2: sxbond.20 is a sub-port RIF of {LAG, VID 20}" \
	test -n "$vrif" -a "$(rif_field "${vrif:-0}" lag)" = "$lag"
check_eq "switchx2: its MAC goes to the router in VID 20" 1 \
	"$(sx_asic_fdb "[.entries[] | select(.fid == 20 and
		.mac == \"$(cat /sys/class/net/sxbond.20/address)\" and
		.action == \"router\")] | length" 20)"
wait_for 10 sx_ping l "$h1_ip"
sx_routed_by_asic "from the partner's VLAN 20" l "$h1_ip" 4 "$vrif"
ip -n hl route replace 192.0.2.0/24 via 198.51.100.1
ip link del sxbond.20
check "switchx2: the deleted upper leaves no RIF" wait_for 5 no_lag_rif 20
ip -n hl link del pbond.20

# A new MAC of the bond is the RIF's, and goes to the router.
ip link set sxbond address 02:00:00:00:84:01
check_eq "switchx2: the bond's new MAC is its RIF's" 02:00:00:00:84:01 \
	"$(rif_field "$rif" mac)"
check_eq "switchx2: and goes to the router in the standalone VID" router \
	"$(sx_asic_fdb ".entries[] | select(.mac == \"02:00:00:00:84:01\") |
		.action" 4094)"

# In a bridge the bond routes through the bridge, if at all.
ip link add sxbr type bridge
echo 1 >/proc/sys/net/ipv6/conf/sxbr/disable_ipv6
ip link set sxbond master sxbr
check "switchx2: a bridged bond has no RIF" wait_for 5 no_lag_rif
ip link set sxbond nomaster
ip link del sxbr
rif=$(lag_rif)
check "switchx2: out of the bridge it has one again" test -n "$rif"

# Port 3 leaves: the RIF stays on the LAG of port 4. The last leaves:
# the RIF goes with the LAG.
ip link set "$swp3" nomaster
check_eq "switchx2: with port 3 gone the RIF stays" "$rif $lag" \
	"$(lag_rif) $(rif_field "${rif:-0}" lag)"
ip -n hl neigh flush dev pbond
sx_routed_by_asic "over port 4 with port 3 gone" l "$h1_ip" 4 "$rif"
ip link set "$swp4" nomaster
check_eq "switchx2: without ports the bond has no RIF" "" "$(lag_rif)"
check_eq "switchx2: nor the ASIC a LAG" null "$(sx_asic_port 4 '.lag')"
ip link del sxbond

# A bond with a lower the ASIC does not own routes in software.
ip link add sxmix type bond mode balance-xor
ip link add vmix type veth peer name vmixp
ip link set "$swp2" down
ip link set "$swp2" master sxmix
ip link set vmix master sxmix
echo 1 >/proc/sys/net/ipv6/conf/sxmix/disable_ipv6
ip addr add 198.18.0.1/24 dev sxmix
ip link set sxmix up
check_eq "switchx2: a bond of port 2 and a veth has no RIF" "" "$(lag_rif)"
ip link del sxmix
ip link del vmix

sx_lag_partner_teardown
for swp in "$swp2" "$swp3" "$swp4"; do
	ip link set "$swp" up
done
ip -n h1 route del 198.51.100.0/24
ip -n h1 route del 203.0.113.0/24
