#!/bin/sh
# SwitchX-2: administrative state goes to the ASIC (PAOS) and operational
# state comes back (PUDE): admin down on a port takes the cabled host's
# carrier down, admin up brings both back. Unwired ports stay down.
. /tests/lib.sh

for n in $(seq 1 "$SX_WIRED"); do
	sx_host_setup "$n" || { not_ok "switchx2: set up host h$n on p$n"; continue; }
	swp=$(sx_port "$n")
	if wait_carrier "$swp" 10 1; then
		ok "switchx2: $swp (p$n) carrier up when admin up and cabled"
	else
		not_ok "switchx2: $swp (p$n) carrier up when admin up and cabled" \
			"carrier $(cat "/sys/class/net/$swp/carrier" 2>&1)"
	fi
done

swp=$(sx_port 1)
# Link settings come from PTYS: 4 lanes of 10G on a SwitchX-2 40G port.
settings=$(ethtool "$swp" 2>&1)
if echo "$settings" | grep -q "Speed: 40000Mb/s" &&
	echo "$settings" | grep -q "Link detected: yes"; then
	ok "switchx2: ethtool $swp reports a 40G link"
else
	not_ok "switchx2: ethtool $swp reports a 40G link" "$settings"
fi
ip link set "$swp" down
if wait_carrier eth0 10 0 h1; then
	ok "switchx2: admin down on p1 takes h1's carrier down"
else
	not_ok "switchx2: admin down on p1 takes h1's carrier down"
fi
ip link set "$swp" up
if wait_carrier eth0 10 1 h1 && wait_carrier "$swp" 10 1; then
	ok "switchx2: admin up on p1 brings p1 and h1 carrier back"
else
	not_ok "switchx2: admin up on p1 brings p1 and h1 carrier back"
fi

# The last port is cabled to nothing (5 and 6 are cabled to each other).
if [ "$SX_PORTS" -gt "$SX_WIRED" ]; then
	n=$SX_PORTS
	swp=$(sx_port "$n")
	ip link set "$swp" up
	sleep 1
	check_eq "switchx2: uncabled $swp (p$n) has no carrier when admin up" "0" \
		"$(cat "/sys/class/net/$swp/carrier" 2>&1)"
	ip link set "$swp" down
fi
