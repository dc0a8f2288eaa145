#!/bin/sh
# SwitchX-2: the driver keeps one STP state per port. Multiple spanning
# trees (per-VLAN states) would run in the bridge while the ASIC kept
# one state for all VLANs: they are refused, whether MST is turned on
# with a SwitchX-2 port in the bridge or the port joins an MST bridge.
# Debian 12's iproute2 cannot set mst_enabled: tests/tools/brboolopt.c.
. /tests/lib.sh

swp1=$(sx_port 1)
# MST mode can only change while the bridge's ports have no VLANs.
ip link add br1 type bridge vlan_filtering 1 vlan_default_pvid 0
ip link set br1 up
ip addr flush dev "$swp1"
ip link set "$swp1" master br1
refused "switchx2: MST refused on a bridge with a SwitchX-2 port" "spanning trees" \
	brboolopt br1 mst_enabled 1
ip link set "$swp1" nomaster
check "switchx2: MST on br1 once it has no SwitchX-2 port" brboolopt br1 mst_enabled 1
refused "switchx2: a SwitchX-2 port cannot join an MST bridge" "spanning trees" \
	ip link set "$swp1" master br1
check_eq "switchx2: $swp1 stayed out of br1" "" \
	"$(ip -j link show "$swp1" | jq -r '.[0].master // empty')"
ip link del br1
