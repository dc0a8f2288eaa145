#!/bin/sh
# SwitchX-2: an operation that writes several ports and fails half way
# undoes what it did on every port, the one that failed included. Each
# run fails a different flood table (SFTR) write, in turn, and the ASIC
# must end with the bridge's ports all in or all out of the multicast
# flood domain: a port left in it floods multicast the snooping bridge
# forwards by its MDB.
. /tests/lib.sh

SFTR=8210	# register ID 0x2012

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 || not_ok "switchx2: create br0 with p1, p2 and p3"
vid=$(sx_asic_port 1 .pvid)

mc_ports() {
	sx_flood_ports unregistered-multicast-ipv4 "$vid"
}

# The bridge defers the attribute to a work item and ignores its result.
mc_settled() {
	sleep 1
	mc_ports
}

bad=""
runs=0
skip=0
while [ "$skip" -lt 40 ]; do
	ip link set br0 type bridge mcast_snooping 1
	before=$(mc_settled)
	fault_begin "SFTR write $((skip + 1)) fails"
	sx_qom_set fault-emad-reg "$SFTR"
	sx_qom_set fault-emad-skip "$skip"
	sx_qom_set fault-emad-error 1
	ip link set br0 type bridge mcast_snooping 0
	after=$(mc_settled)
	hit=$(host_qmp '{"execute": "qom-get", "arguments": {"path": "/machine/peripheral/'"$SX_ID"'", "property": "fault-emad-error"}}' |
		jq -r .return)
	fault_end
	runs=$((runs + 1))
	case "$after" in
	"0" | "0 1 2 3") ;;
	*) bad="$bad; write $((skip + 1)) failed: ports $after (before: $before)" ;;
	esac
	# The fault was not used: every write went through.
	[ "$hit" = 1 ] && break
	skip=$((skip + 1))
done
if [ -z "$bad" ] && [ "$runs" -gt 3 ]; then
	ok "switchx2: a failed flood update leaves every port of br0 in or out of the multicast domain ($runs runs)"
else
	not_ok "switchx2: a failed flood update leaves every port of br0 in or out of the multicast domain" \
		"${bad#; }" "($runs runs)"
fi
ip link set br0 type bridge mcast_snooping 1
check_eq "switchx2: with snooping on, multicast floods to the CPU only" "0" "$(mc_settled)"
ip link set br0 type bridge mcast_snooping 0
check_eq "switchx2: with snooping off, to the CPU and every port" "0 1 2 3" "$(mc_settled)"
sx_bridge_destroy br0
