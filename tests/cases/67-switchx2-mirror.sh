#!/bin/sh
# SwitchX-2: port mirroring offloaded from tc matchall mirred. Ports 1
# and 2 are bridged; port 4 is the analyzer port, and host h4 behind it
# receives the ASIC's copies of what port 1 receives (ingress) and sends
# (egress). The filters are skip_sw: only the ASIC mirrors. What the
# device cannot do is refused with an extack: mirroring to a port of
# another device, redirecting, a second mirror of one direction, more
# analyzers than the device has.
. /tests/lib.sh

PINGS=20
swp1=$(sx_port 1)
swp2=$(sx_port 2)
swp4=$(sx_port 4)

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 1 1 2 || not_ok "switchx2: create br0 with p1 and p2"
ip addr flush dev "$swp4"
tc qdisc add dev "$swp1" clsact

# copies_to_h4: ping h2 from h1 PINGS times, print what h4 received
copies_to_h4() {
	before=$(host_stat 4 rx_packets)
	sx_ping 1 "$(sx_l2_ip 2)" "$PINGS"
	sleep 0.5
	echo $(($(host_stat 4 rx_packets) - before))
}

sx_ping 1 "$(sx_l2_ip 2)" 3
check_eq "switchx2: without a mirror h4 gets nothing of h1's pings to h2" 0 \
	"$(copies_to_h4)"

check "switchx2: a skip_sw matchall on $swp1 ingress mirrors to $swp4" \
	tc filter add dev "$swp1" ingress pref 1 matchall skip_sw \
	action mirred egress mirror dev "$swp4"
check "switchx2: the filter is in hardware" sh -c \
	"tc filter show dev $swp1 ingress | grep -qw in_hw"
pa=$(sx_asic_port 1 '.["mirror-ingress"]')
check_eq "switchx2: the ASIC mirrors port 1's ingress to port 4 (analyzer $pa)" \
	4 "$(sx_asic ".analyzers[] | select(.[\"pa-id\"] == $pa) | .port")"
n=$(copies_to_h4)
check "switchx2: h4 gets a copy of each echo request h1 sent ($n for $PINGS)" \
	test "$n" -ge "$PINGS" -a "$n" -lt $((2 * PINGS))

check "switchx2: a second matchall on $swp1 egress mirrors to $swp4 too" \
	tc filter add dev "$swp1" egress pref 1 matchall skip_sw \
	action mirred egress mirror dev "$swp4"
check_eq "switchx2: both directions share port 4's analyzer" \
	"$pa" "$(sx_asic_port 1 '.["mirror-egress"]')"
n=$(copies_to_h4)
check "switchx2: h4 gets the requests and the replies ($n for $PINGS pings)" \
	test "$n" -ge $((2 * PINGS))

refused "switchx2: a third mirror of $swp1's ingress is refused" \
	"one port only" tc filter add dev "$swp1" ingress pref 2 matchall \
	skip_sw action mirred egress mirror dev "$(sx_port 3)"
tc qdisc add dev "$swp2" clsact
ip link add sxveth0 type veth peer name sxveth1
refused "switchx2: mirroring to a port of another device is refused" \
	"own ports" tc filter add dev "$swp2" ingress pref 1 matchall \
	skip_sw action mirred egress mirror dev sxveth0
ip link del sxveth0
refused "switchx2: redirecting is refused" "mirror action" \
	tc filter add dev "$swp2" ingress pref 1 matchall skip_sw \
	action mirred egress redirect dev "$swp4"

# Four analyzers: ports 1 and 2 mirror to three more ports (with port 4,
# four); a fifth analyzer port is one too many.
for spec in "$swp2 ingress 5" "$swp2 egress 6" "$swp1 ingress 3"; do
	set -- $spec
	tc filter del dev "$1" "$2" pref 1 2>/dev/null
	tc filter add dev "$1" "$2" pref 1 matchall skip_sw \
		action mirred egress mirror dev "$(sx_port "$3")"
done
check_eq "switchx2: four analyzers in use" 4 "$(sx_asic '.analyzers | length')"
tc qdisc add dev "$(sx_port 3)" clsact
refused "switchx2: a fifth analyzer port is refused" "no port analyzer left" \
	tc filter add dev "$(sx_port 3)" ingress pref 1 matchall skip_sw \
	action mirred egress mirror dev "$(sx_port 7)"

for n in 1 2 3; do
	tc qdisc del dev "$(sx_port "$n")" clsact
done
check_eq "switchx2: deleting the filters frees every analyzer" 0 \
	"$(sx_asic '.analyzers | length')"
check_eq "switchx2: and unbinds port 1" "null null" \
	"$(sx_asic_port 1 '.["mirror-ingress"], .["mirror-egress"]' | tr '\n' ' ' | sed 's/ $//')"
check_eq "switchx2: h4 gets no more copies" 0 "$(copies_to_h4)"

sx_bridge_destroy br0
