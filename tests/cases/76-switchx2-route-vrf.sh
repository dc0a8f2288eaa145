#!/bin/sh
# SwitchX-2: VRFs as virtual routers. p1 and p2 are enslaved to the VRF
# vrf-t76 (table 76): their RIFs belong to a virtual router of the VRF's
# own, the VRF table's routes go to that virtual router's LPM table,
# and the ASIC routes h1 <-> h2 in it. A route of the main table to the
# same prefix is virtual router 0's and leaves the VRF's alone. Out of
# the VRF the ports route in virtual router 0 again; with the VRF gone
# its virtual router holds no route.
. /tests/lib.sh

for n in 1 2; do
	sx_routed_host_v4 "$n" || not_ok "switchx2: set up h$n"
done
h2_ip=$(sx_host_ip 2)
echo 1 >/proc/sys/net/ipv4/ip_forward
ip link add vrf-t76 type vrf table 76
ip link set vrf-t76 up
for n in 1 2; do
	ip link set "$(sx_port "$n")" master vrf-t76
	ip addr replace "$(sx_swp_ip "$n")/30" dev "$(sx_port "$n")"
done

# vr_of_rif RIF: the virtual router of the ASIC's RIF
vr_of_rif() {
	sx_router ".rifs[] | select(.rif == $1) | .\"virtual-router\""
}

check "switchx2: h1 pings h2 through the VRF" wait_for 10 sx_ping 1 "$h2_ip"
rif1=$(sx_rif_of 1)
rif2=$(sx_rif_of 2)
check "switchx2: ports in a VRF are RIFs" test -n "$rif1" -a -n "$rif2"
vr=$(vr_of_rif "${rif1:-0}")
check "switchx2: in a virtual router other than 0 (${vr:-none})" \
	test "${vr:-0}" -ne 0
check_eq "switchx2: both ports' RIFs in the same one" "$vr" \
	"$(vr_of_rif "${rif2:-0}")"
check_eq "switchx2: the VRF's connected route is in its virtual router" \
	"local $rif2" "$(sx_route_of 192.0.2.8/30 "${vr:-0}")"
check_eq "switchx2: and the VRF's local address traps" "ip2me -" \
	"$(sx_route_of "$(sx_swp_ip 2)/32" "${vr:-0}")"
check_eq "switchx2: ip route shows the VRF's route offloaded" rt_offload \
	"$(sx_route_flags table 76 192.0.2.8/30)"
sx_routed_by_asic "in the VRF" 1 "$h2_ip" 1 "${rif1:-0}"

# The main table's blackhole to the same prefix is virtual router 0's.
rocker_pause
ip route add blackhole 192.0.2.8/30
check_eq "switchx2: the main table's route to the prefix is VR 0's" \
	"discard -" "$(sx_route_of 192.0.2.8/30 0)"
check_eq "switchx2: the VRF's route to it is untouched" \
	"local $rif2" "$(sx_route_of 192.0.2.8/30 "${vr:-0}")"
check "switchx2: h1 still reaches h2 in the VRF" sx_ping 1 "$h2_ip"
ip route del blackhole 192.0.2.8/30
rocker_resume

ip link set "$(sx_port 1)" nomaster
ip addr replace "$(sx_swp_ip 1)/30" dev "$(sx_port 1)"
in_vr0() {
	rif=$(sx_rif_of 1)
	[ -n "$rif" ] && [ "$(vr_of_rif "$rif")" = 0 ]
}
check "switchx2: out of the VRF p1's RIF is in virtual router 0" \
	wait_for 5 in_vr0
ip link set "$(sx_port 2)" nomaster
ip link del vrf-t76
ip addr replace "$(sx_swp_ip 2)/30" dev "$(sx_port 2)"
check_eq "switchx2: the VRF gone, its virtual router has no route" 0 \
	"$(sx_router "[.routes[] | select(.\"virtual-router\" == ${vr:-0})] |
		length")"
check "switchx2: h1 pings h2 in the main table again" \
	wait_for 10 sx_ping 1 "$h2_ip"
for n in 1 2; do
	ip -n "h$n" route del 192.0.2.0/24
done

# The device has 16 virtual routers (the main table's is one): VRFs
# whose ports get addresses take one each, until none is left. The
# address that would need one more is refused, saying why, rather than
# routed in software unseen; and once a VRF goes, it can be had again.
swp4=$(sx_port 4)
ip link set "$swp4" up
refused_at=
for n in $(seq 1 20); do
	ip link add "vrf-x$n" type vrf table $((2000 + n))
	ip link set "vrf-x$n" up
	ip link add link "$swp4" name "$swp4.$((100 + n))" type vlan id $((100 + n))
	echo 1 >"/proc/sys/net/ipv6/conf/$swp4.$((100 + n))/disable_ipv6"
	ip link set "$swp4.$((100 + n))" master "vrf-x$n" up
	if ! vrf_err=$(ip addr add "10.76.$n.1/24" dev "$swp4.$((100 + n))" 2>&1); then
		refused_at=$n
		break
	fi
done
check "switchx2: an address needing a 17th virtual router is refused (at VRF $refused_at)" \
	test -n "$refused_at" -a "${refused_at:-99}" -le 16
says_vrs_ran_out() {
	case $vrf_err in *"virtual routers"*) return 0 ;; esac
	return 1
}
check "switchx2: saying the virtual routers ran out ($vrf_err)" says_vrs_ran_out
# vrf-x1's table is flushed, then its virtual router free.
ip link del "vrf-x1"
last=${refused_at:-1}
last_addr_taken() {
	ip addr add "10.76.$last.1/24" dev "$swp4.$((100 + last))" 2>/dev/null ||
		ip addr show dev "$swp4.$((100 + last))" | grep -q "10.76.$last.1/"
}
check "switchx2: a VRF gone, the address is taken" wait_for 5 last_addr_taken
for n in $(seq 1 "${refused_at:-20}"); do
	ip link del "$swp4.$((100 + n))" 2>/dev/null
	ip link del "vrf-x$n" 2>/dev/null
done
check_eq "switchx2: the VRFs gone, only the main table's virtual router is left" \
	0 "$(sx_router '[.rifs[] | select(."virtual-router" != 0)] | length')"
