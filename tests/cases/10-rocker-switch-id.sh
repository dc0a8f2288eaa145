#!/bin/sh
# QEMU's rocker switch: its ports carry one physical switch ID, distinct
# port names, and `ip -d link show` reports the ID as "switchid". Ports
# that are not switch ports carry no switch ID.
. /tests/lib.sh

ports=$(netdevs_of_driver rocker)
count=$(echo "$ports" | grep -c .)
check_eq "rocker: $ROCKER_PORTS switch ports probed" "$ROCKER_PORTS" "$count"

names=""
for p in $ports; do
	id=$(cat "/sys/class/net/$p/phys_switch_id" 2>/dev/null)
	check_eq "rocker: $p phys_switch_id is the configured switch ID" "$ROCKER_SWITCH_ID" "$id"

	name=$(cat "/sys/class/net/$p/phys_port_name" 2>/dev/null)
	if [ -n "$name" ]; then
		ok "rocker: $p has phys_port_name $name"
	else
		not_ok "rocker: $p has phys_port_name" "empty or unreadable"
	fi
	names="$names$name
"

	shown=$(ip -d link show dev "$p" | sed -n 's/.* switchid \([0-9a-f]*\).*/\1/p')
	check_eq "rocker: ip -d link show $p prints switchid" "$ROCKER_SWITCH_ID" "$shown"
done

dups=$(printf '%s' "$names" | grep . | sort | uniq -d)
check_eq "rocker: port names are distinct" "" "$dups"

# Negative checks: loopback and the virtio host NICs are not switch ports.
for i in $(seq 1 "$ROCKER_PORTS"); do
	h=$(netdev_by_mac "$ROCKER_HOST_MAC_PREFIX:0$i") || {
		not_ok "rocker: host NIC h$i present" "no netdev with MAC $ROCKER_HOST_MAC_PREFIX:0$i"
		continue
	}
	if cat "/sys/class/net/$h/phys_switch_id" >/dev/null 2>&1; then
		not_ok "rocker: host NIC $h has no phys_switch_id" "it reports one"
	else
		ok "rocker: host NIC $h has no phys_switch_id"
	fi
	if ip -d link show dev "$h" | grep -q switchid; then
		not_ok "rocker: ip -d link show $h prints no switchid"
	else
		ok "rocker: ip -d link show $h prints no switchid"
	fi
done
if cat /sys/class/net/lo/phys_switch_id >/dev/null 2>&1; then
	not_ok "rocker: lo has no phys_switch_id" "it reports one"
else
	ok "rocker: lo has no phys_switch_id"
fi
