#!/bin/sh
# SwitchX-2 silicon that refuses a register the offload needs and that no
# upstream SwitchX-2 driver ever wrote (the model's refuse-reg knob) must
# not cost the ports their NIC function: they come up and pass traffic,
# a bridge of them still forwards (in software, through the CPU), and
# the kernel log says once which register the device refused. Each
# register in turn, with a fresh driver each time.
. /tests/lib.sh

# Each entry: what the device refuses, as the knob and value that make
# it refuse, and the name the kernel log gives it.
CASES="refuse-reg=SPVM:SPVM refuse-reg=SPVMLR:SPVMLR refuse-reg=SPVID:SPVID
	refuse-reg=SPAFT:SPAFT refuse-reg=SFD:SFD refuse-reg=SFDAT:SFDAT
	refuse-reg=SFDF:SFDF fault-max-vid-flood-tables=1:per-VID"

reload() {
	rmmod "$SX_DRIVER" && modprobe "$SX_DRIVER" && wait_for 10 sx_port 4
}

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
for c in $CASES; do
	knob=${c%%=*}
	val=${c#*=}
	val=${val%%:*}
	reg=${c##*:}
	fault_begin "the device refuses $reg"
	case $knob in
	refuse-reg) sx_qom_set "$knob" "\"$val\"" ;;
	*) sx_qom_set "$knob" "$val" ;;
	esac
	if ! reload; then
		not_ok "switchx2: $reg refused: the driver probes" "$(dmesg | tail -n 5)"
		break
	fi
	sx_host_setup 1
	wait_carrier "$(sx_port 1)" 10 1
	check "switchx2: $reg refused: h1 pings p1, a NIC" \
		wait_for 10 sx_ping 1 "$(sx_swp_ip 1)" 2
	ip addr flush dev "$(sx_port 1)"

	sx_bridge_create br0 0 1 2 2>/dev/null
	check_eq "switchx2: $reg refused: p1 and p2 join br0 all the same" "br0 br0" \
		"$(for n in 1 2; do
			ip -j link show "$(sx_port "$n")" | jq -r '.[0].master // empty'
		done | tr '\n' ' ' | sed 's/ $//')"
	for n in 1 2; do
		ip -n "h$n" addr replace "$(sx_l2_ip "$n")/24" dev eth0
		wait_carrier "$(sx_port "$n")" 10 1
	done
	swp1=$(sx_port 1)
	cpu=$(sx_cpu_hit "$swp1" RX)
	check "switchx2: $reg refused: h1 pings h2 through br0" \
		wait_for 10 sx_ping 1 "$(sx_l2_ip 2)" 5
	grew "switchx2: $reg refused: the CPU forwarded (cpu_hit RX of $swp1)" \
		"$cpu" "$(sx_cpu_hit "$swp1" RX)" 5
	if bridge fdb show br br0 | grep -qi "$(sx_host_mac 1) .*offload"; then
		not_ok "switchx2: $reg refused: nothing offloaded" "$(bridge fdb show br br0)"
	else
		ok "switchx2: $reg refused: nothing offloaded"
	fi
	lines=$(dmesg | grep -c "refused $reg ")
	check_eq "switchx2: $reg refused: the kernel log names it once" 1 "$lines"
	dmesg -c >/dev/null
	if ip link add link "$(sx_port 3)" name vup type vlan id 10 2>/dev/null; then
		not_ok "switchx2: $reg refused: VLAN uppers refused"
		ip link del vup
	else
		ok "switchx2: $reg refused: VLAN uppers refused"
	fi
	sx_bridge_destroy br0
	sx_qom_set refuse-reg '""'
	fault_end
done

check "switchx2: with nothing refused the driver probes again" reload
sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet again"
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
check "switchx2: h1 pings h2 through br0" sx_ping 1 "$(sx_l2_ip 2)"
if wait_for 5 sx_br_offloaded br0 "$(sx_host_mac 1)" "$(sx_port 1)"; then
	ok "switchx2: br0 is offloaded again"
else
	not_ok "switchx2: br0 is offloaded again" "$(bridge fdb show br br0)"
fi
sx_bridge_destroy br0
