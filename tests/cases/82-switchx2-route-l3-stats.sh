#!/bin/sh
# SwitchX-2: L3 offload statistics of router interfaces (ip stats ...
# group offload subgroup l3_stats). The ASIC counts what each RIF routes
# in and out in counter sets of its own; with l3_stats on, the kernel
# reports them for the netdev: "used" while the netdev is a RIF, packets
# and L3 octets the CPU never saw, kept when the RIF goes.
. /tests/lib.sh

for n in 1 2; do
	sx_routed_host_v4 "$n" || not_ok "switchx2: set up h$n"
done
swp1=$(sx_port 1)
swp3=$(sx_port 3)
h2_ip=$(sx_host_ip 2)
echo 1 >/proc/sys/net/ipv4/ip_forward
rocker_pause

# l3 DEV FIELD: a field of DEV's L3 offload statistics (jq path)
l3() {
	ip -j stats show dev "$1" group offload subgroup l3_stats |
		jq -r ".[0] | $2"
}

check "switchx2: h1 pings h2 through the switch" wait_for 10 sx_ping 1 "$h2_ip"
check "switchx2: ip stats turns l3_stats on for a RIF's port" \
	ip stats set dev "$swp1" l3_stats on
check_eq "switchx2: and the device reports them used" true \
	"$(l3 "$swp1" .info.used)"
# p3 without addresses (an earlier test may have left some): no RIF.
echo 1 >"/proc/sys/net/ipv6/conf/$swp3/disable_ipv6"
ip addr flush dev "$swp3"
ip link set "$swp3" up
p3_no_rif() {
	[ -z "$(sx_rif_of 3)" ]
}
wait_for 5 p3_no_rif
ip stats set dev "$swp3" l3_stats on
check_eq "switchx2: not for a port that is no RIF" false \
	"$(l3 "$swp3" .info.used)"
check_eq "switchx2: freshly on, nothing counted" "0 0" \
	"$(l3 "$swp1" '"\(.stats64.rx.packets) \(.stats64.tx.packets)"')"

# 40 echo requests of 100 bytes in by p1, 40 replies out: 128 L3 octets
# each, routed by the ASIC (the neighbours are resolved).
cpu_before=$(sx_cpu_hit "$swp1" RX)
ip netns exec h1 ping -q -c 40 -i 0.02 -s 100 "$h2_ip" >/dev/null 2>&1
cpu_after=$(sx_cpu_hit "$swp1" RX)
rx=$(l3 "$swp1" .stats64.rx.packets)
tx=$(l3 "$swp1" .stats64.tx.packets)
check "switchx2: the RIF counted the routed requests in and replies out ($rx/$tx)" \
	test "$rx" -ge 38 -a "$tx" -ge 38 -a "$rx" -le 40 -a "$tx" -le 40
check "switchx2: which the CPU did not see ($((cpu_after - cpu_before)) packets)" \
	test $((cpu_after - cpu_before)) -lt 10
check_eq "switchx2: in L3 octets, 128 a packet" \
	"$((rx * 128)) $((tx * 128))" \
	"$(l3 "$swp1" '"\(.stats64.rx.bytes) \(.stats64.tx.bytes)"')"

# The RIF goes with the address: what it counted stays.
ip addr flush dev "$swp1"
check_eq "switchx2: without an address, no longer used" false \
	"$(l3 "$swp1" .info.used)"
check_eq "switchx2: and its counts are kept" "$rx $tx" \
	"$(l3 "$swp1" '"\(.stats64.rx.packets) \(.stats64.tx.packets)"')"
ip addr add "$(sx_swp_ip 1)/30" dev "$swp1"
swp1_l3_used() {
	[ "$(l3 "$swp1" .info.used)" = true ]
}
check "switchx2: a RIF again, used again" wait_for 5 swp1_l3_used
ip stats set dev "$swp1" l3_stats off
ip stats set dev "$swp3" l3_stats off
check_eq "switchx2: l3_stats off, none shown" "" \
	"$(ip -j stats show dev "$swp1" group offload subgroup l3_stats | jq -r '.[0].stats64 // empty')"
rocker_resume
