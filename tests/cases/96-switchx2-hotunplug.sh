#!/bin/sh
# SwitchX-2: the switch is unplugged (device_del) while it forwards and
# the CPU sends through it; the driver lets go cleanly, the guest and QEMU
# survive, and a switch plugged back in (device_add) is probed again.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
ip addr add 198.51.100.100/24 dev br0
pci=$(sx_pci_addr)

# The device_add arguments the topology gave the switch.
device_json() {
	props="\"driver\": \"switchx2\", \"id\": \"$SX_ID\", \"bus\": \"$SX_BRIDGE_ID\""
	props="$props, \"addr\": \"1\", \"ports\": $SX_PORTS, \"mac\": \"$SX_BASE_MAC\""
	props="$props, \"fdb-size\": $SX_FDB_SIZE"
	for n in $(seq 1 "$SX_WIRED"); do
		props="$props, \"port$n\": \"sx$n\""
	done
	echo "{$props}"
}
gone() {
	[ ! -e "/sys/bus/pci/devices/$pci" ]
}
ports_back() {
	[ "$(netdevs_of_driver "$SX_DRIVER" | grep -c .)" = "$SX_PORTS" ]
}

# Switched traffic between the hosts, and the CPU's own traffic to h1.
ip netns exec h1 ping -q -i 0.02 -w 60 "$(sx_l2_ip 2)" >/dev/null 2>&1 &
ping1=$!
ping -q -i 0.02 -w 60 "$(sx_l2_ip 1)" >/dev/null 2>&1 &
ping2=$!
sleep 1

if reply=$(host_qmp "{\"execute\": \"device_del\", \"arguments\": {\"id\": \"$SX_ID\"}}"); then
	ok "switchx2: QEMU accepts device_del of the switch"
else
	not_ok "switchx2: QEMU accepts device_del of the switch" "$reply"
fi
# The hot-plug controller gives the guest 5 s to change its mind.
if wait_for 30 gone; then
	ok "switchx2: the guest released the unplugged switch ($pci)"
else
	not_ok "switchx2: the guest released the unplugged switch ($pci)" "$(dmesg | tail -5)"
fi
kill $ping1 $ping2 2>/dev/null
wait $ping1 $ping2 2>/dev/null
check_eq "switchx2: no SwitchX-2 port is left" "" "$(netdevs_of_driver "$SX_DRIVER")"
check "switchx2: the guest still routes to rocker's ports and itself" ping -q -c 1 -W 1 127.0.0.1
sx_bridge_destroy br0

# Plug it back: QEMU builds a new device on the same cables.
dev=$(device_json)
if reply=$(host_qmp "{\"execute\": \"device_add\", \"arguments\": $dev}"); then
	ok "switchx2: QEMU accepts device_add of a new switch"
else
	not_ok "switchx2: QEMU accepts device_add of a new switch" "$reply"
fi
if wait_for 60 ports_back; then
	ok "switchx2: the new switch is probed with its $SX_PORTS ports"
else
	not_ok "switchx2: the new switch is probed with its $SX_PORTS ports" \
		"$(netdevs_of_driver "$SX_DRIVER" | tr '\n' ' ') $(dmesg | tail -5)"
fi
sx_host_setup 1
if wait_for 20 sx_ping 1 "$(sx_swp_ip 1)" 1; then
	ok "switchx2: h1 pings p1 of the new switch"
else
	not_ok "switchx2: h1 pings p1 of the new switch"
fi
