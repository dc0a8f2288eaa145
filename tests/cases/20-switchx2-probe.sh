#!/bin/sh
# SwitchX-2: the driver probes the emulated ASIC cleanly, creates one
# netdev per configured front-panel port, each with the ASIC's base MAC as
# physical switch ID and a distinct port name, and devlink reports the
# firmware.
. /tests/lib.sh

pci=$(sx_pci_addr)
if [ -n "$pci" ]; then
	ok "switchx2: $SX_DRIVER bound to the 15b3:c738 function ($pci)"
else
	not_ok "switchx2: $SX_DRIVER bound to the 15b3:c738 function" "no bound device"
fi

errors=$(dmesg | grep -iE 'mlxsw.*(fail|error|timed out|timeout)' || true)
check_eq "switchx2: no mlxsw errors in dmesg after probe" "" "$errors"

ports=$(netdevs_of_driver "$SX_DRIVER")
check_eq "switchx2: $SX_PORTS ports probed" "$SX_PORTS" "$(echo "$ports" | grep -c .)"

names=""
for p in $ports; do
	check_eq "switchx2: $p phys_switch_id is the base MAC" "$SX_SWITCH_ID" \
		"$(cat "/sys/class/net/$p/phys_switch_id" 2>/dev/null)"
	shown=$(ip -d link show dev "$p" | sed -n 's/.* switchid \([0-9a-f]*\).*/\1/p')
	check_eq "switchx2: ip -d link show $p prints switchid" "$SX_SWITCH_ID" "$shown"
	names="$names $(cat "/sys/class/net/$p/phys_port_name" 2>/dev/null)"
done
want=""
for i in $(seq 1 "$SX_PORTS"); do
	want="$want p$i"
done
check_eq "switchx2: port names are p1..p$SX_PORTS, each once" \
	"$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" \
	"$(echo $names | tr ' ' '\n' | sort | tr '\n' ' ')"

macs=$(for p in $ports; do cat "/sys/class/net/$p/address"; done | sort -u | grep -c .)
check_eq "switchx2: every port has its own MAC address" "$SX_PORTS" "$macs"

info=$(devlink dev info "pci/$pci" 2>&1)
if echo "$info" | grep -q "fw.version\|fw "; then
	ok "switchx2: devlink dev info shows the firmware version"
else
	not_ok "switchx2: devlink dev info shows the firmware version" "$info"
fi
if echo "$info" | grep -q "fw.psid\|psid"; then
	ok "switchx2: devlink dev info shows the PSID"
else
	not_ok "switchx2: devlink dev info shows the PSID" "$info"
fi

# At probe the ports are NICs, set up as SwitchX-2's driver set them up
# until v5.14; VLANs and per-VID flooding wait for the first VLAN upper
# or bridge (none exists yet in this run).
check_eq "switchx2: at probe every configured flood type uses the single-entry table" \
	"single" "$(sx_asic_fdb '[.flood[] | ."table-kind"] | unique | join(" ")')"
check_eq "switchx2: at probe the ports keep the firmware's PVID, 1" \
	"1" "$(sx_asic '[.ports[] | select(."local-port" > 0 and ."local-port" <= '"$SX_WIRED"') | .pvid] | unique | map(tostring) | join(" ")')"
check_eq "switchx2: at probe no port learns" \
	"disabled" "$(sx_asic '[.ports[] | select(."local-port" > 0) | .learning] | unique | join(" ")')"
