#!/bin/sh
# SwitchX-2: a bond of ports 3 and 4 (an ASIC LAG) in a VLAN-aware bridge
# with port 1 is a bridge port of the ASIC like any port. Host h1 behind
# port 1 talks to the bond's LACP partner (namespace hl) through the
# ASIC: the entry it learns on the LAG is reported on the bond, unicast
# to the partner does not reach the CPU, a static entry to the bond is
# an entry to the LAG, VLANs of the bond are VLANs of its members. A
# member leaving, the bond leaving the bridge and the bond deleted under
# traffic leave nothing of the LAG behind in the ASIC.
. /tests/lib.sh

swp1=$(sx_port 1)
swp3=$(sx_port 3)
swp4=$(sx_port 4)
H1_IP=198.51.100.1
HL_IP=198.51.100.3
STATIC_MAC=02:00:00:00:66:01

sx_host_setup 1
ip addr flush dev "$swp1"
ip -n h1 addr replace "$H1_IP/24" dev eth0
check "switchx2: the LACP partner, a bond of the NICs cabled to ports 3 and 4" \
	sx_lag_partner_setup "$HL_IP/24"
hl_mac=$(ip -n hl -j link show pbond | jq -r '.[0].address')

check "switchx2: sxbond, 802.3ad over $swp3 and $swp4" \
	sx_lag_bond_create sxbond 3 4
ip link add br0 type bridge vlan_filtering 1
for dev in br0 sxbond "$swp1"; do
	echo 1 >"/proc/sys/net/ipv6/conf/$dev/disable_ipv6"
done
ip link set br0 up
check "switchx2: sxbond and $swp1 join a VLAN-aware bridge" sh -c "
	ip link set sxbond master br0 && ip link set $swp1 master br0"
wait_for 30 sx_aggregator_has 2 sxbond
wait_for 10 sx_lag_states_are "true true / true true"
check_eq "switchx2: both members collect and distribute in the ASIC" \
	"true true / true true" "$(sx_lag_state 3) / $(sx_lag_state 4)"
lag=$(sx_asic_port 3 '.lag')

# lag_entry MAC: the ASIC LAG the ASIC's FDB entry for MAC points to
lag_entry() {
	sx_asic_fdb ".entries[] | select(.mac == \"$1\") | .lag"
}

# lag_entries: how many entries of the ASIC's FDB point to a LAG
lag_entries() {
	sx_asic_fdb '[.entries[] | select(.lag != null)] | length'
}

no_lag_entries() {
	[ "$(lag_entries)" = 0 ]
}

no_entry() {
	[ -z "$(sx_asic_fdb ".entries[] | select(.mac == \"$1\")")" ]
}

check "switchx2: h1 pings the partner through the bridged bond" \
	sx_ping 1 "$HL_IP" 5
wait_for 10 sx_br_offloaded br0 "$hl_mac" sxbond
check "switchx2: the partner's address, learned on the LAG, is reported on sxbond" \
	sx_br_offloaded br0 "$hl_mac" sxbond
check_eq "switchx2: the ASIC's entry for the partner points to LAG $lag" \
	"$lag" "$(lag_entry "$hl_mac")"

# The ASIC forwards h1's unicast to the LAG: the bond's members send the
# CPU nothing of it (ARP and LACP may still pass; 40 pings do not).
cpu_rx() {
	echo $(($(sx_cpu_hit "$swp3" RX) + $(sx_cpu_hit "$swp4" RX) +
		$(sx_cpu_hit "$swp1" RX)))
}
before=$(cpu_rx)
check "switchx2: 40 pings from h1 to the partner" \
	ip netns exec h1 ping -q -c 40 -i 0.02 -W 2 "$HL_IP"
after=$(cpu_rx)
check "switchx2: the ping crossed the ASIC, not the CPU ($before -> $after received by the CPU)" \
	test $((after - before)) -lt 20

# The ASIC spreads what it sends to the LAG by its L2-L4 hash: 64 UDP
# flows (source ports 1000-1063) to the partner leave by both members,
# as their PPCNT transmit counters show.
sx_stats_settle
tx3=$(port_stat 3 tx_packets)
tx4=$(port_stat 4 tx_packets)
for round in 1 2 3 4 5; do
	ip netns exec h1 mausezahn eth0 -q -c 1 -b "$hl_mac" -A "$H1_IP" \
		-B "$HL_IP" -t udp "sp=1000-1063,dp=5000"
done
sx_stats_settle
d3=$(($(port_stat 3 tx_packets) - tx3))
d4=$(($(port_stat 4 tx_packets) - tx4))
check "switchx2: 320 frames of 64 flows leave by both members ($d3 by port 3, $d4 by port 4)" \
	test "$d3" -ge 32 -a "$d4" -ge 32 -a $((d3 + d4)) -ge 320

# Failover: port 4's link goes down (admin down on the switch, which
# takes the partner's NIC down too) in the middle of 64 flows sent at
# up to 1000 frames/s. The bond drops the port (miimon 100 ms) and the
# ASIC stops distributing to it; the frames lost meanwhile, the ones the
# ASIC still sent to the dead link, are the cost of the failover.
pbond_rx() {
	ip netns exec hl cat /sys/class/net/pbond/statistics/rx_packets
}
SENT=$((20 * 64))
rx0=$(pbond_rx)
t0=$(now_ms)
ip netns exec h1 mausezahn eth0 -q -c 20 -d 1msec -b "$hl_mac" \
	-A "$H1_IP" -B "$HL_IP" -t udp "sp=1000-1063,dp=5000" &
gen=$!
sleep 1
ip link set "$swp4" down
wait "$gen"
t1=$(now_ms)
sleep 1
lost=$((SENT - ($(pbond_rx) - rx0)))
[ "$lost" -ge 0 ] || lost=0
check "switchx2: failover: $lost of $SENT frames lost over $((t1 - t0)) ms when port 4 went down" \
	test "$lost" -lt $((SENT / 4))
wait_for 10 sx_lag_states_are "true true / false false"
check_eq "switchx2: the ASIC distributes over port 3 alone" \
	"true true / false false" "$(sx_lag_state 3) / $(sx_lag_state 4)"
ip link set "$swp4" up
wait_for 30 sx_aggregator_has 2 sxbond
wait_for 30 sx_aggregator_has 2 pbond hl
wait_for 10 sx_lag_states_are "true true / true true"
check_eq "switchx2: port 4 back up: both members distribute again" \
	"true true / true true" "$(sx_lag_state 3) / $(sx_lag_state 4)"

# A static entry to the bond is an entry to the LAG.
check "switchx2: a static entry to sxbond" \
	bridge fdb add "$STATIC_MAC" dev sxbond master static vlan 1
wait_for 10 sx_br_offloaded br0 "$STATIC_MAC" sxbond
check "switchx2: the bridge lists the static entry as offloaded" \
	sx_br_offloaded br0 "$STATIC_MAC" sxbond
check_eq "switchx2: the ASIC's static entry points to LAG $lag" \
	"$lag" "$(lag_entry "$STATIC_MAC")"
bridge fdb del "$STATIC_MAC" dev sxbond master static vlan 1
wait_for 10 no_entry "$STATIC_MAC"
check_eq "switchx2: deleting it removes the ASIC's entry" "" \
	"$(lag_entry "$STATIC_MAC")"

# VLANs of the bond are VLANs of its members: h1 and the partner talk in
# VLAN 10 too.
vid10_ports() {
	for n in 3 4; do
		sx_asic_port "$n" '[.vlans[] | select(.first <= 10 and
			.last >= 10 and .ingress)] | length'
	done | tr '\n' ' ' | sed 's/ $//'
}
bridge vlan add dev sxbond vid 10
bridge vlan add dev "$swp1" vid 10
sx_host_vlan_add 1 10 203.0.113.1/24
ip -n hl link add link pbond name pbond.10 type vlan id 10
ip -n hl addr add 203.0.113.3/24 dev pbond.10
ip -n hl link set pbond.10 up
check_eq "switchx2: VLAN 10 of sxbond is VLAN 10 of ports 3 and 4" "1 1" \
	"$(vid10_ports)"
check "switchx2: h1 pings the partner in VLAN 10" sx_ping 1 203.0.113.3 5

# A member leaves the bridged bond: it is a standalone port again, the
# LAG carries on over the other.
ip link set "$swp4" nomaster
check_eq "switchx2: port 4 left the ASIC LAG" null "$(sx_asic_port 4 '.lag')"
check_eq "switchx2: port 4 is no longer in VLAN 10" "0" \
	"$(sx_asic_port 4 '[.vlans[] | select(.first <= 10 and
		.last >= 10 and .ingress)] | length')"
ip -n hl link set hl4 nomaster
check "switchx2: h1 still pings the partner over port 3" \
	sx_ping 1 "$HL_IP" 5

# A port joining the bridged bond joins the bridge with it: the LAG, the
# bond's VLANs, both members carrying traffic again.
ip link set "$swp4" down
check "switchx2: $swp4 joins the bridged sxbond again" \
	ip link set "$swp4" master sxbond
ip -n hl link set hl4 master pbond
# LACP settles on both sides before the partner uses port 4 again
wait_for 30 sx_aggregator_has 2 sxbond
wait_for 30 sx_aggregator_has 2 pbond hl
wait_for 10 sx_lag_states_are "true true / true true"
check_eq "switchx2: port 4 is back in LAG $lag, collecting and distributing" \
	"$lag true true" "$(sx_asic_port 4 '.lag') $(sx_lag_state 4)"
check_eq "switchx2: and in VLAN 10 with the bond" "1 1" "$(vid10_ports)"
# The bridge replays VLANs and FDB entries to a port that joins a bridged
# bond, not the bond's STP state and flags: the port takes them from it.
check_eq "switchx2: port 4 forwards in VLAN 10, as the bond does" forwarding \
	"$(sx_asic_port 4 '.vlans[] | select(.first <= 10 and .last >= 10) | .stp')"
# What the path to the partner looks like, when a ping fails
lag_diag() {
	echo "h1: $(ip -n h1 -br addr show | tr '\n' ';') $(ip -n h1 neigh show | tr '\n' ';')"
	echo "br0: $(bridge fdb show br br0 | grep -v permanent | tr '\n' ';')"
	echo "vlans: $(bridge vlan show | tr '\n' ';')"
	echo "asic fid 10: $(sx_asic_fdb '[.entries[] | select(.fid == 10)]' | tr -d ' \n')"
	echo "lag: $(sx_lag_state 3) / $(sx_lag_state 4)"
	echo "pbond: $(ip netns exec hl cat /proc/net/bonding/pbond | tr '\n' ';')"
}
if sx_ping 1 203.0.113.3 5; then
	ok "switchx2: h1 pings the partner in VLAN 10 again"
else
	not_ok "switchx2: h1 pings the partner in VLAN 10 again" "$(lag_diag)"
fi

# The bond leaves VLAN 10: what the ASIC learned on the LAG in it goes
# (the bridge deletes the bond's entries of the VLAN, the driver their
# unicast LAG records).
lag_entries_fid10() {
	sx_asic_fdb '[.entries[] | select(.lag != null and .fid == 10)] | length'
}
no_lag_entries_fid10() {
	[ "$(lag_entries_fid10)" = 0 ]
}
wait_for 10 sx_br_offloaded br0 "$hl_mac" sxbond
check "switchx2: the partner is learned on the LAG in VLAN 10" \
	test "$(lag_entries_fid10)" -ge 1
bridge vlan del dev sxbond vid 10
wait_for 5 no_lag_entries_fid10
check_eq "switchx2: removing VLAN 10 from sxbond flushes the LAG's entries in it" \
	0 "$(lag_entries_fid10)"

# The bond leaves the bridge: nothing in the ASIC's FDB points to its LAG.
ip link set sxbond nomaster
wait_for 10 no_lag_entries
check_eq "switchx2: the LAG's FDB entries go when sxbond leaves the bridge" \
	0 "$(lag_entries)"

# Back in the bridge, learning again, then deleted under traffic.
ip link set sxbond master br0
sx_ping 1 "$HL_IP" 3
wait_for 10 sx_br_offloaded br0 "$hl_mac" sxbond
check_eq "switchx2: back in the bridge, the partner is learned on LAG $lag again" \
	"$lag" "$(lag_entry "$hl_mac")"
ip netns exec h1 ping -q -c 300 -i 0.01 -W 1 "$HL_IP" >/dev/null 2>&1 &
pinger=$!
sleep 1
ip link del sxbond
wait "$pinger"
check_eq "switchx2: deleting sxbond under traffic takes port 3 out of the LAG" \
	null "$(sx_asic_port 3 '.lag')"
wait_for 10 no_lag_entries
check_eq "switchx2: and leaves no FDB entry to a LAG" 0 "$(lag_entries)"

# A bond of a SwitchX-2 port and a port of another driver is no LAG of
# one device: in a bridge it stays in software, and the extack says so.
swp2=$(sx_port 2)
ip link add sxveth0 type veth peer name sxveth1
ip link add mixbond type bond mode balance-xor xmit_hash_policy layer2+3
ip link set "$swp2" down
ip link set "$swp2" master mixbond
ip link set sxveth0 master mixbond
ip link add br1 type bridge
out=$(ip link set mixbond master br1 2>&1)
said() {
	echo "$out" | grep -q "$1"
}
check "switchx2: a bond of $swp2 and a veth joins a bridge, in software, and says so" \
	said "not a LAG of one device"
check_eq "switchx2: port 2 stays a standalone port of the ASIC (PVID 4094)" \
	4094 "$(sx_asic_port 2 .pvid)"
ip link del br1
ip link del mixbond
ip link del sxveth0
ip link set "$swp2" up

ip link del br0
ip link del sxbond 2>/dev/null
sx_host_vlan_del 1 10
ip -n h1 addr del "$H1_IP/24" dev eth0
sx_lag_partner_teardown
for swp in "$swp1" "$swp3" "$swp4"; do
	echo 0 >"/proc/sys/net/ipv6/conf/$swp/disable_ipv6"
	ip link set "$swp" up
done
