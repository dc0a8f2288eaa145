#!/bin/sh
# SwitchX-2: removing and loading the driver ten times leaves the same
# ports with the same switch ID (the harness fails the run on any kernel
# warning this provokes).
. /tests/lib.sh

before=$(sx_port_signature)
i=1
while [ $i -le 10 ]; do
	rmmod "$SX_DRIVER" || { not_ok "switchx2: rmmod $SX_DRIVER (round $i)"; break; }
	left=$(netdevs_of_driver "$SX_DRIVER")
	[ -z "$left" ] || { not_ok "switchx2: rmmod removes every port (round $i)" "$left"; break; }
	modprobe "$SX_DRIVER" || { not_ok "switchx2: modprobe $SX_DRIVER (round $i)"; break; }
	sleep 1
	after=$(sx_port_signature)
	[ "$after" = "$before" ] || { not_ok "switchx2: same ports after reload (round $i)" "$after"; break; }
	i=$((i + 1))
done
check_eq "switchx2: ten rmmod/modprobe rounds completed with the same ports" 11 "$i"
