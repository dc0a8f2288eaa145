#!/bin/sh
# SwitchX-2: MTU changes reach the ASIC (PMTU), which then passes jumbo
# frames, and drops them again once the MTU is back to 1500.
. /tests/lib.sh

sx_host_setup 1 || not_ok "switchx2: set up host h1 on p1"
swp=$(sx_port 1)
ip -n h1 link set eth0 mtu 9000

if ip link set "$swp" mtu 9000; then
	check_eq "switchx2: $swp takes MTU 9000" 9000 "$(cat "/sys/class/net/$swp/mtu")"
else
	not_ok "switchx2: $swp takes MTU 9000" "ip link set mtu 9000 failed"
fi
wait_carrier "$swp" 10 1
if out=$(ip netns exec h1 ping -c 2 -W 2 -s 8000 -M do "$(sx_swp_ip 1)" 2>&1); then
	ok "switchx2: 8 KB frames cross $swp at MTU 9000"
else
	not_ok "switchx2: 8 KB frames cross $swp at MTU 9000" "$out"
fi

ip link set "$swp" mtu 1500
check_eq "switchx2: $swp takes MTU 1500" 1500 "$(cat "/sys/class/net/$swp/mtu")"
wait_carrier "$swp" 10 1
if ip netns exec h1 ping -c 2 -W 1 -s 8000 -M do "$(sx_swp_ip 1)" >/dev/null 2>&1; then
	not_ok "switchx2: 8 KB frames are dropped at MTU 1500" "they got through"
else
	ok "switchx2: 8 KB frames are dropped at MTU 1500"
fi
if out=$(ip netns exec h1 ping -c 2 -W 2 "$(sx_swp_ip 1)" 2>&1); then
	ok "switchx2: normal frames still cross $swp at MTU 1500"
else
	not_ok "switchx2: normal frames still cross $swp at MTU 1500" "$out"
fi
ip -n h1 link set eth0 mtu 1500

# The model's PMTU maximum is 10000 bytes, frame overhead included: the
# driver gives 30 of them to headers and FCS.
max=$((SX_PMTU_MAX - 30))
if ip link set "$swp" mtu "$max" 2>/dev/null; then
	ok "switchx2: $swp takes the ASIC's largest MTU ($max)"
else
	not_ok "switchx2: $swp takes the ASIC's largest MTU ($max)"
fi
if ip link set "$swp" mtu $((max + 1)) 2>/dev/null; then
	not_ok "switchx2: MTU above the ASIC's maximum ($max) is refused"
else
	ok "switchx2: MTU above the ASIC's maximum ($max) is refused"
fi
ip link set "$swp" mtu 1500
