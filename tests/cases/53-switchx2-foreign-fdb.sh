#!/bin/sh
# SwitchX-2: a bridge with SwitchX-2 ports and a foreign port (a veth to
# namespace hv). Unicast from h1 to the station behind the veth must go
# to the CPU, which forwards it, not flood every port of the ASIC: the
# driver gives the ASIC an entry that sends that address to the CPU.
. /tests/lib.sh

FRAMES=20
HV_MAC=02:00:00:53:00:01
HV_IP=198.51.100.53

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
ip netns add hv
ip link add veth0 type veth peer name veth1
ip link set veth1 netns hv
ip -n hv link set veth1 address "$HV_MAC"
ip -n hv addr add "$HV_IP/24" dev veth1
ip -n hv link set veth1 up
ip netns exec hv sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6'
echo 1 >/proc/sys/net/ipv6/conf/veth0/disable_ipv6
ip link set veth0 master br0
ip link set veth0 up

check "switchx2: h1 pings hv behind the foreign port veth0" sx_ping 1 "$HV_IP"

# The bridge learned hv's MAC on veth0; the ASIC must send it to the CPU.
cpu_entry() {
	[ "$(sx_asic_fdb ".entries[] | select(.mac == \"$HV_MAC\") | .action")" = trap ]
}
if wait_for 5 cpu_entry; then
	ok "switchx2: the ASIC sends hv's MAC to the CPU (query-switchx2-fdb)"
else
	not_ok "switchx2: the ASIC sends hv's MAC to the CPU" \
		"$(sx_asic_fdb ".entries[] | select(.mac == \"$HV_MAC\")")"
fi

rx2=$(host_stat 2 rx_packets)
if ip netns exec h1 ping -q -c "$FRAMES" -i 0.05 -W 1 "$HV_IP" >/dev/null 2>&1; then
	ok "switchx2: h1 pings hv $FRAMES times"
else
	not_ok "switchx2: h1 pings hv $FRAMES times"
fi
d2=$(($(host_stat 2 rx_packets) - rx2))
if [ "$d2" -le 2 ]; then
	ok "switchx2: unicast to hv does not flood to h2 (+$d2)"
else
	not_ok "switchx2: unicast to hv does not flood to h2" "h2 received +$d2 of $FRAMES"
fi

ip link del veth0
ip netns del hv
gone() {
	[ -z "$(sx_asic_fdb ".entries[] | select(.mac == \"$HV_MAC\") | .mac")" ]
}
if wait_for 5 gone; then
	ok "switchx2: the entry left the ASIC with the foreign port"
else
	not_ok "switchx2: the entry left the ASIC with the foreign port"
fi
sx_bridge_destroy br0
