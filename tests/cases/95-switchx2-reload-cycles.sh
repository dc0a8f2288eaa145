#!/bin/sh
# SwitchX-2: the driver goes away and comes back, with bridges, VLANs and
# FDB entries offloaded and traffic flowing, by each of the three ways a
# system does it: devlink reload, PCI unbind/bind, rmmod/modprobe. Every
# time the ports come back and offload works again; the harness fails
# the run on any kernel warning, and a kmemleak scan at the end of a
# debug-kernel run finds nothing left behind. SX_RELOAD_ROUNDS rounds of
# each (3 in `make qemu-test`, 100 in `make stress`).
. /tests/lib.sh

ROUNDS=${SX_RELOAD_ROUNDS:-3}

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"

# Bridges, VLANs, static entries, then traffic in the background. The
# VLAN-aware bridge takes its VIDs before a VLAN-unaware one has ports.
configure() {
	sx_bridge_create br1 1 3 4 &&
		bridge vlan add vid 100 dev "$(sx_port 3)" &&
		bridge vlan add vid 100 dev "$(sx_port 4)" &&
		sx_bridge_create br0 0 1 2 &&
		bridge fdb add 02:00:00:9f:00:01 dev "$(sx_port 2)" master static &&
		wait_for 10 sx_ping 1 "$(sx_l2_ip 2)" 1
}

unconfigure() {
	sx_bridge_destroy br0
	sx_bridge_destroy br1
}

ports_back() {
	[ "$(netdevs_of_driver "$SX_DRIVER" | grep -c .)" = "$SX_PORTS" ]
}

# reload_round HOW: take the driver down and up one way, under traffic
reload_round() {
	ip netns exec h1 ping -q -i 0.02 -w 30 "$(sx_l2_ip 2)" >/dev/null 2>&1 &
	ping_pid=$!
	pci=$(sx_pci_addr)
	case "$1" in
	devlink)
		devlink dev reload "pci/$pci" >/dev/null
		;;
	unbind)
		echo "$pci" >"/sys/bus/pci/drivers/$SX_DRIVER/unbind" &&
			echo "$pci" >"/sys/bus/pci/drivers/$SX_DRIVER/bind"
		;;
	rmmod)
		rmmod "$SX_DRIVER" && modprobe "$SX_DRIVER"
		;;
	esac
	rc=$?
	kill "$ping_pid" 2>/dev/null
	wait "$ping_pid" 2>/dev/null
	return $rc
}

for how in devlink unbind rmmod; do
	i=1
	failed=""
	while [ $i -le "$ROUNDS" ]; do
		configure || { failed="configuration failed before round $i"; break; }
		reload_round "$how" || { failed="$how failed in round $i"; break; }
		wait_for 20 ports_back || { failed="ports missing after round $i"; break; }
		unconfigure
		# A bridge of the new ports forwards again.
		if ! configure; then
			failed="bridging failed after round $i"
			break
		fi
		unconfigure
		i=$((i + 1))
	done
	unconfigure
	if [ -z "$failed" ]; then
		ok "switchx2: $ROUNDS rounds of $how with bridges, VLANs, FDB entries and traffic"
	else
		not_ok "switchx2: $ROUNDS rounds of $how with bridges, VLANs, FDB entries and traffic" "$failed"
	fi
done
