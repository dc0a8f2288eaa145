#!/bin/sh
# SwitchX-2: what the driver programs, read back from the ASIC itself on
# the host (QMP query-switchx2 and query-switchx2-fdb): port state and
# MTU, PVID, VLAN membership and tagging, STP state per VID, learning,
# flood tables, static and learned FDB entries, PPCNT and CPU counters.
. /tests/lib.sh

MAC=02:00:00:44:00:01

# vlan_of N VID: "ingress egress untagged stp" of VID's range on port N,
# empty when the port is no member of VID.
vlan_of() {
	sx_asic_port "$1" ".vlans[] | select(.first <= $2 and .last >= $2) |
		\"\\(.ingress) \\(.egress) \\(.untagged) \\(.stp)\""
}

# check_asic DESC EXPECTED CMD...: check_eq on CMD's output, given up to
# 5 s to match. The bridge defers STP state and port flag changes to
# switchdev's workqueue: `bridge link set` returns before the ASIC is told.
check_asic() {
	desc=$1
	want=$2
	shift 2
	asic_is() { [ "$("$@")" = "$want" ]; }
	wait_for 5 asic_is "$@"
	check_eq "$desc" "$want" "$("$@")"
}

# fdb_entry MAC FID: "port dynamic action" of MAC's entry in FID
fdb_entry() {
	sx_asic_fdb ".entries[] | select(.mac == \"$1\") |
		\"\\(.port) \\(.dynamic) \\(.action)\"" "$2"
}

# --- the device and its ports ---------------------------------------------

check_eq "switchx2: QMP names the device by its base MAC" \
	"$SX_BASE_MAC" "$(sx_asic .mac)"
check_eq "switchx2: QMP counts $SX_PORTS ports" \
	"$SX_PORTS" "$(sx_asic '."num-ports"')"

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
check_eq "switchx2: p1, up and cabled, is administratively and operationally up" \
	"up up" "$(sx_asic_port 1 '"\(."admin-state") \(."oper-state")"')"
speed=$(sx_asic_port 1 .speed)
check_eq "switchx2: the ASIC's speed of p1 is the one ethtool reports" \
	"$(ethtool "$(sx_port 1)" | sed -n 's/^[[:space:]]*Speed: \([0-9]*\)Mb\/s$/\1/p')" "$speed"

swp8=$(sx_port 8)
ip link set "$swp8" down
check_eq "switchx2: p8, set down, is administratively down in the ASIC" \
	"down" "$(sx_asic_port 8 '."admin-state"')"
ip link set "$swp8" up
check_eq "switchx2: p8, set up but not cabled, is admin up, oper down" \
	"up down" "$(sx_asic_port 8 '"\(."admin-state") \(."oper-state")"')"
ip link set "$swp8" down

mtu0=$(cat "/sys/class/net/$swp8/mtu")
ip link set "$swp8" mtu 1400
m1=$(sx_asic_port 8 .mtu)
ip link set "$swp8" mtu 1500
m2=$(sx_asic_port 8 .mtu)
ip link set "$swp8" mtu "$mtu0"
check_eq "switchx2: PMTU follows the netdev MTU (1400 -> 1500: +100)" \
	100 "$((m2 - m1))"
check_eq "switchx2: a standalone port does not learn" \
	disabled "$(sx_asic_port 8 .learning)"

# --- a VLAN-aware bridge --------------------------------------------------

sx_bridge_create br0 1 1 2 3 || not_ok "switchx2: create VLAN-aware br0 with p1..p3"
swp1=$(sx_port 1)
swp2=$(sx_port 2)
swp3=$(sx_port 3)

check_eq "switchx2: the ASIC's PVID of p1 is the bridge's default, 1" \
	1 "$(sx_asic_port 1 .pvid)"
check_eq "switchx2: p1 is an untagged, forwarding member of VID 1" \
	"true true true forwarding" "$(vlan_of 1 1)"
check_eq "switchx2: bridged ports learn" enabled "$(sx_asic_port 1 .learning)"

bridge vlan add dev "$swp1" vid 10
bridge vlan add dev "$swp2" vid 10
check_eq "switchx2: bridge vlan add vid 10 makes p1 a tagged member of VID 10" \
	"true true false forwarding" "$(vlan_of 1 10)"
bridge vlan add dev "$swp1" vid 20 pvid untagged
check_eq "switchx2: vid 20 pvid untagged moves the ASIC's PVID of p1 to 20" \
	20 "$(sx_asic_port 1 .pvid)"
check_eq "switchx2: p1 is an untagged member of VID 20" \
	"true true true forwarding" "$(vlan_of 1 20)"
bridge vlan del dev "$swp1" vid 10
check_eq "switchx2: bridge vlan del vid 10 takes p1 out of VID 10" \
	"" "$(vlan_of 1 10)"
bridge vlan del dev "$swp1" vid 20
bridge vlan add dev "$swp1" vid 1 pvid untagged

# Listening, not blocking: with no STP running, the bridge moves a blocking
# port straight back to forwarding.
bridge link set dev "$swp3" state 1
check_asic "switchx2: a listening p3 discards in VID 1" \
	"true true true discarding" vlan_of 3 1
# A slow guest's bridge may have moved the port on to forwarding by the
# time the ASIC is read: compare with the state the bridge reports then.
bridge link set dev "$swp3" state 2
want=$(bridge -j link show dev "$swp3" | jq -r '.[0].state')
[ "$want" = learning ] || echo "# the bridge moved p3 on to $want"
check_asic "switchx2: p3 learns in VID 1 while the bridge has it learning" \
	"true true true $want" vlan_of 3 1
bridge link set dev "$swp3" state 3
check_asic "switchx2: a forwarding p3 forwards in VID 1" \
	"true true true forwarding" vlan_of 3 1

bridge link set dev "$swp2" learning off
check_asic "switchx2: learning off on p2 turns the ASIC's learning off" \
	disabled sx_asic_port 2 .learning
bridge link set dev "$swp2" learning on
check_asic "switchx2: learning on again" enabled sx_asic_port 2 .learning

# shellcheck disable=SC2046 # a list of ports
if has 3 $(sx_flood_ports unknown-unicast 1) && has 3 $(sx_flood_ports broadcast 1); then
	ok "switchx2: p3 is in VID 1's unknown-unicast and broadcast flood tables"
else
	not_ok "switchx2: p3 is in VID 1's unknown-unicast and broadcast flood tables" \
		"UC: $(sx_flood_ports unknown-unicast 1); BC: $(sx_flood_ports broadcast 1)"
fi
bridge link set dev "$swp3" flood off
# shellcheck disable=SC2046
p3_floods_uc() { has 3 $(sx_flood_ports unknown-unicast 1); }
wait_for 5 eval '! p3_floods_uc'
# shellcheck disable=SC2046
if ! has 3 $(sx_flood_ports unknown-unicast 1) && has 3 $(sx_flood_ports broadcast 1); then
	ok "switchx2: flood off takes p3 out of unknown-unicast flooding only"
else
	not_ok "switchx2: flood off takes p3 out of unknown-unicast flooding only" \
		"UC: $(sx_flood_ports unknown-unicast 1); BC: $(sx_flood_ports broadcast 1)"
fi
bridge link set dev "$swp3" flood on

# --- FDB --------------------------------------------------------------------

bridge fdb add "$MAC" dev "$swp2" master static vlan 10
check_asic "switchx2: a static bridge entry is a static forward entry to p2 in FID 10" \
	"2 false forward" fdb_entry "$MAC" 10
bridge fdb del "$MAC" dev "$swp2" master static vlan 10
check_asic "switchx2: deleting the bridge entry removes it from the ASIC" \
	"" fdb_entry "$MAC" 10

sx_ping 1 "$(sx_l2_ip 2)" 3 || not_ok "switchx2: h1 pings h2 across br0"
check_eq "switchx2: the ASIC learned h1's MAC on p1 in FID 1" \
	"1 true forward" "$(fdb_entry "$(sx_host_mac 1)" 1)"
check_eq "switchx2: the ASIC learned h2's MAC on p2 in FID 1" \
	"2 true forward" "$(fdb_entry "$(sx_host_mac 2)" 1)"

# --- counters ---------------------------------------------------------------

rx0=$(sx_asic_port 1 '.counters."rx-frames"')
tx0=$(sx_asic_port 1 '.counters."tx-frames"')
sx_ping 1 "$(sx_l2_ip 2)" 20 || not_ok "switchx2: h1 pings h2 20 times"
rx1=$(sx_asic_port 1 '.counters."rx-frames"')
tx1=$(sx_asic_port 1 '.counters."tx-frames"')
if [ $((rx1 - rx0)) -ge 20 ] && [ $((tx1 - tx0)) -ge 20 ]; then
	ok "switchx2: p1's PPCNT frames grew by the 20 requests and replies"
else
	not_ok "switchx2: p1's PPCNT frames grew by the 20 requests and replies" \
		"rx +$((rx1 - rx0)), tx +$((tx1 - tx0))"
fi
sx_bridge_destroy br0

# The CPU's own traffic: pings from standalone p4 to h4 and their replies.
# The driver's register accesses (EMADs) and their responses and events
# go through the same queues: leave them out.
CPU_SENT='.cpu.sent - .cpu."sent-emads"'
CPU_TRAPPED='.cpu.trapped - ([.cpu.traps[] |
	select(.name == "ETHEMAD" or .name == "PUDE") | .trapped] | add // 0)'
sx_host_setup 4
sent0=$(sx_asic "$CPU_SENT")
trapped0=$(sx_asic "$CPU_TRAPPED")
ping -q -c 10 -i 0.1 -W 1 "$(sx_host_ip 4)" >/dev/null 2>&1 ||
	not_ok "switchx2: p4 pings h4"
sent=$(($(sx_asic "$CPU_SENT") - sent0))
trapped=$(($(sx_asic "$CPU_TRAPPED") - trapped0))
if [ "$sent" -ge 10 ] && [ "$trapped" -ge 10 ]; then
	ok "switchx2: the CPU path counts the 10 pings sent and replies trapped"
else
	not_ok "switchx2: the CPU path counts the 10 pings sent and replies trapped" \
		"sent +$sent, trapped +$trapped"
fi
