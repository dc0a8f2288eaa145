#!/bin/sh
# SwitchX-2: the router. The driver asks the device for a switch
# partition of type "router port" and enables the router (RGCR) on it;
# removing the driver disables it. A device that refuses RGCR, or the
# router partition itself, keeps its ports and L2 offload, and the kernel
# log says once that routing stays in software; one that also lacks the
# per-VID flood tables falls back one step further, to NIC mode.
. /tests/lib.sh

probe() {
	modprobe "$SX_DRIVER" && wait_for 10 sx_port 4
}

reload() {
	rmmod "$SX_DRIVER" && probe
}

router_state() {
	sx_router '"\(.attached) \(.ipv4) \(.ipv6) \(."max-rifs")"'
}

check_eq "switchx2: the device has a router, enabled for IPv4 and IPv6 with 256 interfaces" \
	"true true true 256" "$(router_state)"

rmmod "$SX_DRIVER"
check_eq "switchx2: removing the driver disables the router" \
	"false false 0" "$(sx_router '"\(.ipv4) \(.ipv6) \(."max-rifs")"')"
modprobe "$SX_DRIVER" && wait_for 10 sx_port 4
check_eq "switchx2: loading it again enables the router" \
	"true true true 256" "$(router_state)"

fault_begin "the device refuses RGCR"
dmesg -c >/dev/null
sx_qom_set refuse-reg '"RGCR"'
check "switchx2: RGCR refused: the driver probes" reload
check_eq "switchx2: RGCR refused: no router enabled" "true false false 0" \
	"$(router_state)"
check_eq "switchx2: RGCR refused: the kernel log says so once" 1 \
	"$(dmesg | grep -c 'refused RGCR.*routing stays in software')"
sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
check "switchx2: RGCR refused: h1 pings h2 through br0" \
	wait_for 10 sx_ping 1 "$(sx_l2_ip 2)"
check "switchx2: RGCR refused: the bridge is still offloaded" \
	wait_for 5 sx_br_offloaded br0 "$(sx_host_mac 1)" "$(sx_port 1)"
sx_bridge_destroy br0
sx_qom_set refuse-reg '""'
fault_end

# bridge_works WHAT: h1 pings h2 through a bridge of p1 and p2
bridge_works() {
	sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
	check "switchx2: $1: h1 pings h2 through br0" \
		wait_for 10 sx_ping 1 "$(sx_l2_ip 2)"
}

fault_begin "the device has no router"
dmesg -c >/dev/null
sx_qom_set fault-no-router 1
check "switchx2: no router partition: the driver probes" reload
check_eq "switchx2: no router partition: the device has no router" \
	"false false false 0" "$(router_state)"
check_eq "switchx2: no router partition: one fallback, said once" 1 \
	"$(dmesg | grep -c 'refused the configuration profile')"
sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
bridge_works "no router partition"
check "switchx2: no router partition: the bridge is still offloaded" \
	wait_for 5 sx_br_offloaded br0 "$(sx_host_mac 1)" "$(sx_port 1)"
sx_bridge_destroy br0

dmesg -c >/dev/null
sx_qom_set fault-max-vid-flood-tables 1
check "switchx2: no router, one per-VID flood table: the driver probes" reload
check_eq "switchx2: no router, one per-VID flood table: two fallbacks, to NIC mode" \
	2 "$(dmesg | grep -c 'refused the configuration profile')"
sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
bridge_works "NIC mode"
sx_bridge_destroy br0
sx_qom_set fault-max-vid-flood-tables 0
sx_qom_set fault-no-router 0
fault_end

# A policy rule the router refuses, there before the driver is: the FIB
# notifier's registration fails part-way, after the IPv4 routes were
# dumped to it. The router is not set up, and nothing it was told of
# during the dump is left behind (no route flagged, none in the ASIC).
rmmod "$SX_DRIVER"
ip link set lo up
ip -6 rule add from 2001:db8:99::/64 table 100
dmesg -c >/dev/null
check "switchx2: an IPv6 rule it refuses: the driver probes" probe
check_eq "switchx2: an IPv6 rule it refuses: the router is not set up, said once" \
	1 "$(dmesg | grep -c 'Failed to set up the router')"
check_eq "switchx2: an IPv6 rule it refuses: no router enabled" \
	"true false false 0" "$(router_state)"
check_eq "switchx2: an IPv6 rule it refuses: no route flagged by the driver" "" \
	"$(ip route show table all | grep -o -w -e rt_trap -e rt_offload \
		-e rt_offload_failed | sort -u | tr '\n' ' ')"
check_eq "switchx2: an IPv6 rule it refuses: the ASIC holds no route" 0 \
	"$(sx_router '.routes | length')"
ip -6 rule del from 2001:db8:99::/64 table 100

check "switchx2: with nothing refused the driver probes again" reload
check_eq "switchx2: and the router is back" "true true true 256" \
	"$(router_state)"
