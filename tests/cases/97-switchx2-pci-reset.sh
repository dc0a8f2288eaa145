#!/bin/sh
# SwitchX-2: a function reset through the PCI core (sysfs "reset") under
# the bound driver. On 6.12 mlxsw_pci's reset_prepare/reset_done take
# the core down and bring it back with skip_reset: the device is not
# reset a second time, but a device without FW_READY must still be
# waited for (QUERY_FW) before it is used. 6.1's mlxsw_pci has no such
# handlers, so a reset there pulls the device from under the driver:
# the case only runs on kernels that have them.
. /tests/lib.sh

case $(uname -r) in
6.1.*)
	skip "switchx2: PCI function reset under the driver" \
		"6.1's mlxsw_pci has no reset_prepare/reset_done handlers"
	exit 0
	;;
esac

ifindexes() {
	for p in $(netdevs_of_driver "$SX_DRIVER"); do
		cat "/sys/class/net/$p/ifindex"
	done | sort -n | tr '\n' ' '
}

ports_are_back() {
	[ "$(sx_port_signature)" = "$before" ]
}

h1_pings_p1() {
	sx_host_setup 1 || return 1
	wait_carrier "$(sx_port 1)" 10 1 || return 1
	ip netns exec h1 ping -q -c 3 -W 2 "$(sx_swp_ip 1)" >/dev/null 2>&1
}

pci=$(sx_pci_addr) || { not_ok "switchx2: the device is bound to $SX_DRIVER"; exit 0; }
dev=/sys/bus/pci/devices/$pci
before=$(sx_port_signature)
check "switchx2: before the reset, h1 pings p1" h1_pings_p1

if [ ! -w "$dev/reset" ]; then
	not_ok "switchx2: $dev has a reset attribute" "$(ls "$dev")"
	exit 0
fi
dmesg -c >/dev/null
idx_before=$(ifindexes)
i=1
while [ $i -le 3 ]; do
	if ! out=$(echo 1 2>&1 >"$dev/reset"); then
		not_ok "switchx2: PCI function reset $i ($(cat "$dev/reset_method" 2>/dev/null))" "$out"
		break
	fi
	# reset_done brings the ports back before the write returns; allow
	# for udev-less netdev naming to settle.
	wait_for 10 ports_are_back || true
	after=$(sx_port_signature)
	if [ "$after" != "$before" ]; then
		not_ok "switchx2: the same ports after PCI function reset $i" "$after"
		break
	fi
	i=$((i + 1))
done
# reset_prepare unregistered the core and reset_done registered it
# again: every port is a new netdev.
idx_after=$(ifindexes)
common=$(for x in $idx_before $idx_after; do echo "$x"; done | sort | uniq -d | wc -l)
check_eq "switchx2: the driver re-created every port (ifindexes $idx_before-> $idx_after)" 0 "$common"
check_eq "switchx2: three PCI function resets ($(cat "$dev/reset_method" 2>/dev/null)), the same ports after each" 4 "$i"
log=$(dmesg)
if echo "$log" | grep -q "Failed\|did not answer\|error"; then
	not_ok "switchx2: the resets left no error in the kernel log" "$(echo "$log" | grep "Failed\|did not answer\|error" | head -5)"
else
	ok "switchx2: the resets left no error in the kernel log"
fi
check "switchx2: after the resets, h1 pings p1" h1_pings_p1
