#!/bin/sh
# SwitchX-2 under device faults injected from the host (the model's
# fault-* properties, set over QMP): lost, late, busy and failing EMADs,
# failing and hanging commands, bad RX completions, a flapping link. For
# each the driver either recovers or fails the operation cleanly with a
# message; it never oopses (the harness checks the kernel log) and the
# device works normally once the fault is gone.
. /tests/lib.sh

swp=$(sx_port 1)
sx_host_setup 1 || not_ok "switchx2: set up host h1 on p1"
wait_carrier "$swp" 10 1

mtu_set() {
	ip link set "$swp" mtu "$1" 2>/dev/null
}
pings_ok() {
	sx_ping 1 "$(sx_swp_ip 1)" "${1:-3}"
}

# EMADs answered with an error status: the operation fails, nothing else.
fault_begin emad-error
# (Polling the FDB uses EMADs too: fail them all until told not to.)
sx_qom_set fault-emad-error 1000000
if mtu_set 1400; then
	not_ok "switchx2: an EMAD error fails the MTU change"
else
	ok "switchx2: an EMAD error fails the MTU change cleanly"
fi
fault_end
check "switchx2: the next MTU change works" mtu_set 1400

# BUSY: the core retries the EMAD.
fault_begin emad-busy
sx_qom_set fault-emad-busy 2
check "switchx2: EMADs answered BUSY twice are retried, the MTU change works" mtu_set 1300
fault_end

# Lost responses: retransmitted after the EMAD timeout.
fault_begin emad-drop
sx_qom_set fault-emad-drop 2
check "switchx2: two lost EMAD responses are retransmitted, the MTU change works" mtu_set 1200
# (Polling the FDB uses EMADs too: lose every response until told not to.)
sx_qom_set fault-emad-drop 1000000
if mtu_set 1100; then
	not_ok "switchx2: with every EMAD response lost, the MTU change fails"
else
	ok "switchx2: with every EMAD response lost, the MTU change fails after the retries"
fi
fault_end
check "switchx2: once responses come back, the MTU change works" mtu_set 1100

# Late responses, after the driver retransmitted: old answers must be
# told apart from new ones (transaction IDs).
fault_begin emad-delay
sx_qom_set fault-emad-delay-ms 500
mtu_set 1000
sx_qom_set fault-emad-delay-ms 0
sleep 3
fault_end
check "switchx2: after late EMAD responses the MTU change works" mtu_set 1500
check "switchx2: and h1 pings p1" pings_ok

# Bad RX completions are dropped, the ones the bus can tell with a
# message (the core drops packets of ports that do not exist silently).
# The device may also rewrite the WQE to match a length it claims, or
# name a descriptor queue the completion queue does not serve: the
# driver bounds the length by what it mapped and checks the queue.
for knob in cqe-error:"completion with error" \
	cqe-bad-length:"invalid byte count" rdq-bad-port:"" \
	wqe-byte-count:"invalid byte count" cqe-foreign-dq:"does not serve"; do
	msg=${knob#*:}
	knob=${knob%%:*}
	fault_begin "$knob"
	sx_qom_set "fault-$knob" 3
	sx_ping 1 "$(sx_swp_ip 1)" 6
	msgs=$(dmesg | grep -c "$msg")
	fault_end
	if [ -z "$msg" ]; then
		:
	elif [ "$msgs" -ge 1 ]; then
		ok "switchx2: fault-$knob: bad RX completions dropped, '$msg' logged ($msgs)"
	else
		not_ok "switchx2: fault-$knob: bad RX completions dropped, '$msg' logged" \
			"$(dmesg | tail -5)"
	fi
	check "switchx2: fault-$knob: h1 pings p1 afterwards" pings_ok
done

# A link flapping fast: carrier follows, and settles up.
fault_begin pude-flap
sx_qom_set fault-pude-flap 20
sleep 2
fault_end
if wait_carrier "$swp" 10 1 && pings_ok; then
	ok "switchx2: after 20 link flaps the port is up and h1 pings it"
else
	not_ok "switchx2: after 20 link flaps the port is up and h1 pings it"
fi

# Faults during probe: the probe either fails cleanly, freeing what it
# took, or recovers (a command that timed out is retried, for instance);
# either way the device probes fine once the fault is gone.
pci=$(sx_pci_addr)
drv=/sys/bus/pci/drivers/$SX_DRIVER
ports_back() {
	[ "$(netdevs_of_driver "$SX_DRIVER" | grep -c .)" = "$SX_PORTS" ]
}
for knob in cmd-timeout cmd-error emad-error; do
	echo "$pci" >"$drv/unbind"
	fault_begin "$knob during probe"
	case $knob in
	emad-error) sx_qom_set "fault-$knob" 1000000 ;;
	*) sx_qom_set "fault-$knob" 1 ;;
	esac
	if echo "$pci" >"$drv/bind" 2>/dev/null; then
		if ports_back; then
			ok "switchx2: fault-$knob during probe: the driver recovered, all ports there"
		else
			not_ok "switchx2: fault-$knob during probe: the driver recovered, all ports there" \
				"$(netdevs_of_driver "$SX_DRIVER" | tr '\n' ' ')"
		fi
	else
		left=$(netdevs_of_driver "$SX_DRIVER")
		check_eq "switchx2: fault-$knob during probe: the probe fails, no port left behind ($(dmesg | grep mlxsw | tail -n 1 | cut -c 16-))" \
			"" "$left"
	fi
	fault_end
	# A command the device left running must time out on its side first.
	sleep 3
	if ! ports_back; then
		echo "$pci" >"$drv/unbind" 2>/dev/null
		echo "$pci" >"$drv/bind" 2>/dev/null
	fi
	if wait_for 20 ports_back; then
		ok "switchx2: fault-$knob: the device probes again once the fault is gone"
	else
		not_ok "switchx2: fault-$knob: the device probes again once the fault is gone" \
			"$(dmesg | tail -5)"
	fi
done
