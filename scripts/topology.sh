# shellcheck shell=bash
# The guest's cabling, in one place. Source, do not execute.
#
# Each switch port is cabled to a virtio-net "host" NIC through a QEMU hub
# of its own (a point-to-point link), the way the kernel's forwarding
# selftests cable h1 to swp1. topology_qemu_args fills QEMU_NET_ARGS;
# topology_guest_env prints what the guest tests need to know.

# The guest tests expect 2; make selftests asks for 4 (scripts/selftests.sh).
ROCKER_PORTS=${ROCKER_PORTS:-2}
# phys_switch_id as the guest shows it (hex bytes in order).
ROCKER_SWITCH_ID=5254001234560000
ROCKER_HOST_MAC_PREFIX=52:54:00:aa:00

# The emulated SwitchX-2: SX_PORTS front-panel ports, the first SX_WIRED
# of them cabled to hosts, and the two SX_LOOP ports cabled to each
# other (a loop, when something bridges them without STP). Its switch ID
# is its base MAC.
SX_PORTS=8
SX_WIRED=4
SX_LOOP="5 6"
SX_BASE_MAC=52:54:00:5a:00:00
SX_HOST_MAC_PREFIX=52:54:00:bb:00
# A small FDB (an SX1036 has 48K entries), so that the FDB-full test
# fills it in seconds; it still takes the 1000 static entries test.
# make bench asks for an SX1036's.
SX_FDB_SIZE=${SX_FDB_SIZE:-1024}
# QOM names: the device is /machine/peripheral/$SX_ID for QMP.
SX_ID=sx
SX_BRIDGE_ID=sxbridge

# Rocker's switch_id property is a u64 that its driver exposes in memory
# (little-endian) order: reverse the bytes of the ID we want to see.
rocker_switch_id_prop() {
	local id=$1 out="" i
	for ((i = ${#id} - 2; i >= 0; i -= 2)); do
		out+=${id:i:2}
	done
	echo "0x$out"
}

topology_qemu_args() {
	local i rports=""
	QEMU_NET_ARGS=()
	for ((i = 1; i <= ROCKER_PORTS; i++)); do
		QEMU_NET_ARGS+=(
			-netdev "hubport,id=rk$i,hubid=$((100 + i))"
			-netdev "hubport,id=rkh$i,hubid=$((100 + i))"
			-device "virtio-net-pci,romfile=,netdev=rkh$i,mac=$ROCKER_HOST_MAC_PREFIX:0$i"
		)
		rports+=",ports[$((i - 1))]=rk$i"
	done
	QEMU_NET_ARGS+=(
		-global "rocker.len-ports=$ROCKER_PORTS"
		-device "rocker,name=sw1,switch_id=$(rocker_switch_id_prop $ROCKER_SWITCH_ID)$rports"
	)

	local sxports=""
	for ((i = 1; i <= SX_WIRED; i++)); do
		QEMU_NET_ARGS+=(
			-netdev "hubport,id=sx$i,hubid=$((200 + i))"
			-netdev "hubport,id=sxh$i,hubid=$((200 + i))"
			-device "virtio-net-pci,romfile=,netdev=sxh$i,mac=$SX_HOST_MAC_PREFIX:0$i"
		)
		sxports+=",port$i=sx$i"
	done
	# One hub, two ports: a cable from one switch port to the other.
	for i in $SX_LOOP; do
		QEMU_NET_ARGS+=(-netdev "hubport,id=sxl$i,hubid=250")
		sxports+=",port$i=sxl$i"
	done
	# The switch sits behind a PCI bridge with a standard hot-plug
	# controller, so that tests can unplug it (device_del) under load.
	# The guest has no ACPI: hot-plug below bridges goes through SHPC.
	QEMU_NET_ARGS+=(
		-global PIIX4_PM.acpi-pci-hotplug-with-bridge-support=off
		-device "pci-bridge,id=$SX_BRIDGE_ID,chassis_nr=1,shpc=on"
		-device "switchx2,id=$SX_ID,bus=$SX_BRIDGE_ID,addr=1,ports=$SX_PORTS,mac=$SX_BASE_MAC,fdb-size=$SX_FDB_SIZE$sxports"
	)
}

topology_guest_env() {
	cat <<EOS
ROCKER_PORTS=$ROCKER_PORTS
ROCKER_SWITCH_ID=$ROCKER_SWITCH_ID
ROCKER_HOST_MAC_PREFIX=$ROCKER_HOST_MAC_PREFIX
SX_PORTS=$SX_PORTS
SX_WIRED=$SX_WIRED
SX_LOOP='$SX_LOOP'
SX_SWITCH_ID=$(echo "$SX_BASE_MAC" | tr -d :)
SX_HOST_MAC_PREFIX=$SX_HOST_MAC_PREFIX
SX_PMTU_MAX=10000
SX_FDB_SIZE=$SX_FDB_SIZE
SX_ID=$SX_ID
SX_BRIDGE_ID=$SX_BRIDGE_ID
SX_BASE_MAC=$SX_BASE_MAC
SX_RELOAD_ROUNDS=${SX_RELOAD_ROUNDS:-3}
EOS
}
