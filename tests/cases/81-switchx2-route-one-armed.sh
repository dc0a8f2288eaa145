#!/bin/sh
# SwitchX-2: one-armed routing. h1 and h2 share br0's subnet (ports 1
# and 2 in a VLAN-unaware bridge with an address); h2 holds 10.40.0.1
# behind it, and h1 routes it via the switch. h1's packets to 10.40.0.1
# leave by the RIF they came in on: the ASIC routes them back out, h2
# getting each once and h1 no duplicate reply, and the kernel still
# learns of them (RITR's loopback filter, LBERROR mirrored to the CPU)
# to send h1 an ICMP redirect, without forwarding them a second time.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
ip addr add 198.51.100.254/24 dev br0
echo 1 >/proc/sys/net/ipv4/ip_forward
echo 1 >/proc/sys/net/ipv4/conf/br0/send_redirects
ip -n h2 addr add 10.40.0.1/32 dev lo
ip -n h2 link set lo up
ip -n h2 route replace 10.40.0.0/24 dev lo 2>/dev/null
ip -n h1 route replace 10.40.0.0/24 via 198.51.100.254
# h1 counts redirects but keeps sending by the switch.
ip netns exec h1 sh -c 'echo 0 >/proc/sys/net/ipv4/conf/all/accept_redirects;
	echo 0 >/proc/sys/net/ipv4/conf/eth0/accept_redirects'
ip route add 10.40.0.0/24 via "$(sx_l2_ip 2)"

# h1_redirects: ICMP redirects h1 received
h1_redirects() {
	ip netns exec h1 awk '$1 == "Icmp:" && !h { for (i = 2; i <= NF; i++)
		if ($i == "InRedirects") c = i; h = 1; next }
		$1 == "Icmp:" { print $c }' /proc/net/snmp
}

offloaded() {
	[ "$(sx_route_flags 10.40.0.0/24)" = rt_offload ]
}

check "switchx2: one-armed: h1 reaches 10.40.0.1 via the switch" \
	wait_for 10 sx_ping 1 10.40.0.1
check "switchx2: one-armed: the route via h2 is offloaded" wait_for 10 offloaded

redirects=$(h1_redirects)
tc -n h2 qdisc replace dev eth0 clsact
tc -n h2 filter add dev eth0 ingress pref 1 protocol ip flower \
	dst_ip 10.40.0.1 ip_proto icmp action pass
ip netns exec h1 ping -q -c 20 -i 0.05 -W 1 10.40.0.1 >/tmp/one-armed 2>&1
check "switchx2: one-armed: 20 pings answered" \
	grep -q '20 packets transmitted, 20 received' /tmp/one-armed
check "switchx2: one-armed: no duplicate reply" \
	sh -c "! grep -q duplicates /tmp/one-armed"
to_h2=$(tc -n h2 -s -j filter show dev eth0 ingress |
	jq '[.[].options.actions[0].stats.packets // empty] | add // 0')
tc -n h2 qdisc del dev eth0 clsact
check_eq "switchx2: one-armed: h2 got each request once" 20 "$to_h2"
check "switchx2: one-armed: the kernel sent h1 an ICMP redirect ($redirects -> $(h1_redirects))" \
	test "$(h1_redirects)" -gt "$redirects"
rif=$(sx_vlan_rif_of "$(sx_asic_port 1 .pvid)")
check_eq "switchx2: one-armed: the RIF has the loopback filter on" true \
	"$(sx_router ".rifs[] | select(.rif == ${rif:-0}) | .\"loopback-filter\"")"

ip route del 10.40.0.0/24
ip -n h2 addr del 10.40.0.1/32 dev lo
ip -n h1 route del 10.40.0.0/24
ip netns exec h1 sh -c 'echo 1 >/proc/sys/net/ipv4/conf/all/accept_redirects;
	echo 1 >/proc/sys/net/ipv4/conf/eth0/accept_redirects'
sx_bridge_destroy br0
