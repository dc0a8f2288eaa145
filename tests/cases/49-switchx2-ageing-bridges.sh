#!/bin/sh
# SwitchX-2 has one ageing time (SFDAT) for the whole FDB. With several
# offloaded bridges it ages entries after the shortest time any of them
# asks for: an entry the ASIC keeps longer than its bridge would could
# send frames to a port the host left, one aged early only floods until
# it is learned again. The kernel log says when a bridge's ageing time
# is not the device's.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"

asic_age() {
	sx_asic '."age-time"'
}

# The bridge defers ageing changes to a work item: give it a moment,
# long enough for a wrong value to show too.
check_age() {
	sleep 1
	check_eq "$1" "$2" "$(asic_age)"
}

# ageing_time is in centiseconds.
dmesg -c >/dev/null
sx_bridge_create br0 0 || not_ok "switchx2: create br0"
ip link set br0 type bridge ageing_time 2000
for n in 1 2; do
	ip addr flush dev "$(sx_port "$n")"
	ip link set "$(sx_port "$n")" master br0
done
check_age "switchx2: the ASIC ages after br0's 20 s" 20

sx_bridge_create br1 0 3 4 || not_ok "switchx2: br1 (ageing 300 s) with p3 and p4"
check_age "switchx2: br1 (300 s) joining keeps the ASIC at the shortest, 20 s" 20
if dmesg | grep -q "br1.*ageing"; then
	ok "switchx2: the kernel log says br1's ageing time is not the device's"
else
	not_ok "switchx2: the kernel log says br1's ageing time is not the device's" \
		"$(dmesg | tail -n 5)"
fi

ip link set br1 type bridge ageing_time 1500
check_age "switchx2: br1 down to 15 s takes the ASIC to 15 s" 15
ip link set br1 type bridge ageing_time 30000
check_age "switchx2: br1 back up to 300 s leaves br0's 20 s" 20

sx_bridge_destroy br0
check_age "switchx2: with br0 gone the ASIC ages after br1's 300 s" 300
sx_bridge_destroy br1
