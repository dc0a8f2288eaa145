#!/bin/sh
# SwitchX-2 as a NIC (ports not bridged): every cabled host pings the
# address on its switch port, through the ASIC's RX traps and TX path.
. /tests/lib.sh

for n in $(seq 1 "$SX_WIRED"); do
	sx_host_setup "$n" || { not_ok "switchx2: set up host h$n on p$n"; continue; }
	swp=$(sx_port "$n")
	wait_carrier "$swp" 10 1
	wait_carrier eth0 10 1 "h$n"
	if out=$(ip netns exec "h$n" ping -c 3 -W 2 "$(sx_swp_ip "$n")" 2>&1); then
		ok "switchx2: h$n pings $swp (p$n)"
	else
		not_ok "switchx2: h$n pings $swp (p$n)" "$out"
	fi
done
