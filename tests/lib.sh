# Guest-side test helpers (POSIX sh: dash). Source, do not execute.
#
# Results are kselftest-style TAP lines; the test number is shared by all
# cases through a counter file, so every case can run as its own process.

# What the host's scripts/topology.sh says about the cabling.
# shellcheck source=/dev/null
[ -f /harness/env ] && . /harness/env

TAP_COUNTER=/tmp/tap.count
SWITCH_DRIVERS="rocker mlxsw_switchx2"

tap_next() {
	n=$(($(cat "$TAP_COUNTER" 2>/dev/null || echo 0) + 1))
	echo "$n" >"$TAP_COUNTER"
	echo "$n"
}

ok() {
	echo "ok $(tap_next) $*"
}

# not_ok DESCRIPTION [REASON...]: a failed test with its reason as a
# TAP diagnostic.
not_ok() {
	desc=$1
	shift
	echo "not ok $(tap_next) $desc"
	[ $# -gt 0 ] && echo "$*" | sed 's/^/#   /'
	return 0
}

# skip DESCRIPTION REASON: a test this kernel cannot run (TAP SKIP)
skip() {
	echo "ok $(tap_next) $1 # SKIP $2"
}

# check DESCRIPTION COMMAND [ARGS...]: passes when COMMAND exits 0.
check() {
	desc=$1
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc" "command failed: $*" "$out"
	fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected '$2', got '$3'"
	fi
}

# refused DESCRIPTION PATTERN COMMAND...: COMMAND fails and its output
# (the extack iproute2 prints) says PATTERN
refused() {
	desc=$1
	pat=$2
	shift 2
	if out=$("$@" 2>&1); then
		not_ok "$desc" "command succeeded: $*"
	elif echo "$out" | grep -qi "$pat"; then
		ok "$desc"
	else
		not_ok "$desc" "refused without saying '$pat': $out"
	fi
}

# host_qmp JSON: run one QMP command in the QEMU this guest runs in and
# print the reply (one line of JSON: {"return": ...} or {"error": ...}).
# The host relays it (scripts/host-agent.py). Fails on an error reply or
# when no reply comes within 30 s.
HOSTCTL=/dev/ttyS2
host_qmp() {
	exec 9<>"$HOSTCTL"
	printf '%s\n' "$1" >&9
	reply=$(timeout 30 head -n 1 <&9)
	exec 9>&-
	echo "$reply"
	case "$reply" in
	'{"return"'*) return 0 ;;
	*) return 1 ;;
	esac
}

# sx_qom_set PROPERTY VALUE: set a property of the emulated SwitchX-2
# (its fault injection knobs, for instance) from the host.
sx_qom_set() {
	host_qmp "{\"execute\": \"qom-set\", \"arguments\": {\"path\": \"/machine/peripheral/$SX_ID\", \"property\": \"$1\", \"value\": $2}}" >/dev/null
}

# The device's fault injection knobs (fault-*, see
# docs/switchx2-conformance.md). The kernel log between the markers
# fault_begin and fault_end writes may hold refused register accesses:
# the harness does not count those against the driver.
SX_FAULT_KNOBS="emad-drop emad-busy emad-error emad-delay-ms cmd-timeout
	cmd-error cqe-error cqe-bad-length rdq-bad-port emad-reg emad-skip
	wqe-byte-count cqe-foreign-dq max-vid-flood-tables"

fault_begin() {
	echo "harness: fault injection begins: $1" >/dev/kmsg
	dmesg -c >/dev/null
}

# Every knob back to 0, then the end marker.
fault_end() {
	for k in $SX_FAULT_KNOBS; do
		sx_qom_set "fault-$k" 0
	done
	emads_settle
	echo "harness: fault injection ends" >/dev/kmsg
}

# EMADs whose responses a knob dropped, delayed or answered busy may
# still be retrying when the knob goes back to 0: the failure of one is
# logged up to an EMAD timeout later, inside the window it belongs to.
# If the window retried any (the kernel log, cleared by fault_begin,
# says so), wait until it has said nothing more about EMADs for a
# second, 10 s at most.
emads_settle() {
	dmesg | grep -q "EMAD retries" || return 0
	n=$(dmesg | grep -c EMAD)
	i=0
	while [ $i -lt 10 ]; do
		sleep 1
		prev=$n
		n=$(dmesg | grep -c EMAD)
		[ "$n" = "$prev" ] && return 0
		i=$((i + 1))
	done
}

# sx_asic JQ_FILTER: ask the host for this guest's SwitchX-2 as the model
# sees it (QMP query-switchx2) and print JQ_FILTER applied to the device
# object (jq -r). Tests compare what the driver programmed with this.
sx_asic() {
	reply=$(host_qmp "{\"execute\": \"query-switchx2\", \"arguments\": {\"id\": \"$SX_ID\"}}") || return 1
	printf '%s\n' "$reply" | jq -r ".return[0] | $1"
}

# sx_asic_port N JQ_FILTER: the same, applied to local port N (whose net
# client the model names "<id>.pN").
sx_asic_port() {
	sx_asic ".ports[] | select(.name == \"$SX_ID.p$1\") | $2"
}

# sx_asic_fdb JQ_FILTER [FID]: QMP query-switchx2-fdb ({entries, flood}),
# only FID's entries when given, filtered by JQ_FILTER.
sx_asic_fdb() {
	args="\"id\": \"$SX_ID\""
	[ -n "${2:-}" ] && args="$args, \"fid\": $2"
	reply=$(host_qmp "{\"execute\": \"query-switchx2-fdb\", \"arguments\": {$args}}") || return 1
	printf '%s\n' "$reply" | jq -r ".return | $1"
}

# sx_router JQ_FILTER: QMP query-switchx2-routes (the ASIC's router: its
# interfaces, routes, next hops and neighbours), filtered by JQ_FILTER.
sx_router() {
	reply=$(host_qmp "{\"execute\": \"query-switchx2-routes\", \"arguments\": {\"id\": \"$SX_ID\"}}") || return 1
	printf '%s\n' "$reply" | jq -r ".return | $1"
}

# sx_rif_of PORT [VID]: the ASIC's sub-port RIF of port N in VID (the
# standalone VID, 4094, by default), or nothing.
sx_rif_of() {
	sx_router ".rifs[] | select(.type == \"sub-port\" and
		.\"system-port\" == $1 and .vid == ${2:-4094}) | .rif"
}

# sx_vlan_rif_of VID: the ASIC's VLAN RIF of VID, or nothing.
sx_vlan_rif_of() {
	sx_router ".rifs[] | select(.type == \"vlan\" and .vid == $1) | .rif"
}

# sx_cpu_hits "N...": the packets of switch ports N... the CPU received
# (their cpu_hit RX counters), summed
sx_cpu_hits() {
	ch_sum=0
	for ch_n in $1; do
		ch_sum=$((ch_sum + $(sx_cpu_hit "$(sx_port "$ch_n")" RX)))
	done
	echo "$ch_sum"
}

# sx_routed_by_asic WHAT HOST DEST "PORT..." RIF: three checks: 100 pings
# from host hHOST (hl: HOST l, the LAG partner) to DEST all answered, the
# CPU seeing at most 10 of the packets of port(s) PORT meanwhile, and RIF
# counting them routed in.
sx_routed_by_asic() {
	rba_cpu=$(sx_cpu_hits "$4")
	rba_in=$(sx_router ".rifs[] | select(.rif == ${5:-0}) | .\"routed-in\" // 0")
	ip netns exec "h$2" ping -q -c 100 -i 0.01 -W 1 "$3" >/tmp/routed-ping 2>&1
	check "switchx2: $1: 100 pings answered" \
		grep -q '100 packets transmitted, 100 .*received' /tmp/routed-ping
	rba_cpu=$(($(sx_cpu_hits "$4") - rba_cpu))
	check "switchx2: $1: routed in the ASIC (CPU saw $rba_cpu)" \
		test "$rba_cpu" -le 10
	rba_in=$(($(sx_router ".rifs[] | select(.rif == ${5:-0}) | .\"routed-in\" // 0") - rba_in))
	check "switchx2: $1: the RIF counted them ($rba_in)" \
		test "$rba_in" -ge 100
}

# sx_route_of PREFIX [VR]: what the ASIC's router does for PREFIX, as
# "action rif-or-adjacency-or-trap-id" ("-" when it has none).
# In virtual router VR only, when given.
sx_route_of() {
	ro_sel=".prefix == \"$1\""
	[ -z "${2:-}" ] || ro_sel="$ro_sel and .\"virtual-router\" == $2"
	sx_router ".routes[] | select($ro_sel) |
		\"\(.action) \(.rif // .adjacency // .\"trap-id\" // \"-\")\""
}

# sx_route_action PREFIX: what the ASIC's route to PREFIX does (local,
# remote, trap, discard, ...), or nothing.
sx_route_action() {
	sx_route_of "$1" | cut -d' ' -f1
}

# sx_ecmp_size PREFIX: the ECMP size of the ASIC's route to PREFIX, 0
# if it has none; sx_ecmp_is PREFIX N: it is N.
sx_ecmp_size() {
	sx_router ".routes[] | select(.prefix == \"$1\") | .\"ecmp-size\" // 0"
}

sx_ecmp_is() {
	[ "$(sx_ecmp_size "$1")" = "$2" ]
}

# sx_route_flags [-6] SELECTOR...: the offload flags ip route shows for
# a route (rt_offload, rt_trap, rt_offload_failed), in one line.
sx_route_flags() {
	family=
	if [ "$1" = -6 ]; then
		family=-6
		shift
	fi
	ip $family route show "$@" |
		grep -o -w -e rt_offload -e rt_trap -e rt_offload_failed |
		tr '\n' ' ' | sed 's/ $//'
}

# sx_flood_ports TYPE VID: the local ports (0 is the CPU) of the ASIC's
# flood table entry for VID of flood type TYPE (SwitchX2FloodType), in
# one line.
sx_flood_ports() {
	sx_asic_fdb ".flood[] | select(.type == \"$1\") | .entries[] |
		select(.first <= $2 and .last >= $2) | .ports | map(tostring) |
		join(\" \")"
}

# has WORD LIST...: WORD is one of LIST
has() {
	w=$1
	shift
	for x in "$@"; do
		[ "$x" = "$w" ] && return 0
	done
	return 1
}

load_switch_drivers() {
	for drv in $SWITCH_DRIVERS; do
		modprobe "$drv" || echo "harness: modprobe $drv failed" >&2
	done
	# Let udev-less netdev registration settle.
	sleep 1
}

# Netdevs bound to a PCI driver, one name per line, sorted.
netdevs_of_driver() {
	for dev in /sys/class/net/*; do
		drv=$(readlink "$dev/device/driver" 2>/dev/null) || continue
		[ "${drv##*/}" = "$1" ] && echo "${dev##*/}"
	done | sort
}

# The netdev whose MAC address is $1.
netdev_by_mac() {
	for dev in /sys/class/net/*; do
		[ -f "$dev/address" ] || continue	# bonding_masters
		[ "$(cat "$dev/address")" = "$1" ] && echo "${dev##*/}" && return 0
	done
	return 1
}

switch_ports() {
	for dev in /sys/class/net/*; do
		[ -n "$(cat "$dev/phys_switch_id" 2>/dev/null)" ] && echo "${dev##*/}"
	done
}

show_switch_ports() {
	for p in $(switch_ports); do
		ip -d link show dev "$p"
	done
}

# --- SwitchX-2 helpers ---

SX_DRIVER=mlxsw_switchx2

# PCI address of the SwitchX-2 function bound to our driver.
sx_pci_addr() {
	for d in /sys/bus/pci/drivers/$SX_DRIVER/0000:*; do
		[ -e "$d" ] && echo "${d##*/}" && return 0
	done
	return 1
}

# One line per SwitchX-2 port, sorted: port name, switch ID and MAC, to
# tell that a reload or reset brought back the same ports.
sx_port_signature() {
	for sps_p in $(netdevs_of_driver "$SX_DRIVER"); do
		echo "$(cat "/sys/class/net/$sps_p/phys_port_name") $(cat "/sys/class/net/$sps_p/phys_switch_id") $(cat "/sys/class/net/$sps_p/address")"
	done | sort
}

# The netdev of front-panel port N (phys_port_name pN).
sx_port() {
	for p in $(netdevs_of_driver "$SX_DRIVER"); do
		[ "$(cat "/sys/class/net/$p/phys_port_name" 2>/dev/null)" = "p$1" ] &&
			echo "$p" && return 0
	done
	return 1
}

# Move the host NIC cabled to port N into network namespace hN (once) as
# interface "eth0", and give both ends addresses on their own /30.
sx_host_setup() {
	n=$1
	if ! ip netns list | grep -qw "h$n"; then
		nic=$(netdev_by_mac "$SX_HOST_MAC_PREFIX:0$n") || return 1
		ip netns add "h$n"
		ip link set "$nic" netns "h$n"
		ip -n "h$n" link set "$nic" name eth0
		ip -n "h$n" link set eth0 up
	fi
	ip -n "h$n" addr replace "$(sx_host_ip "$n")/30" dev eth0
	swp=$(sx_port "$n") || return 1
	ip addr replace "$(sx_swp_ip "$n")/30" dev "$swp"
	ip link set "$swp" up
}

# sx_host_setup_v4 N: sx_host_setup, IPv4 only, and the host's address
# on port N's /30 alone: an earlier test's shared subnet would shadow the
# routes of the routing tests.
sx_host_setup_v4() {
	sx_host_setup "$1" || return 1
	ip netns exec "h$1" sh -c \
		'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6'
	echo 1 >"/proc/sys/net/ipv6/conf/$(sx_port "$1")/disable_ipv6"
	ip -n "h$1" addr flush dev eth0
	ip -n "h$1" addr add "$(sx_host_ip "$1")/30" dev eth0
}

# sx_routed_host_v4 N: sx_host_setup_v4, and hN reaches the other
# hosts' subnets (192.0.2.0/24) through port N.
sx_routed_host_v4() {
	sx_host_setup_v4 "$1" || return 1
	ip -n "h$1" route replace 192.0.2.0/24 via "$(sx_swp_ip "$1")"
}

# sx_host_setup_v6 N: sx_host_setup with IPv6 on both ends, without DAD:
# port N is 2001:db8:N::1/64, hN 2001:db8:N::2 and routes 2001:db8::/32
# via the port.
sx_host_setup_v6() {
	sx_host_setup "$1" || return 1
	sx_ipv6_on "$1"
	swp=$(sx_port "$1")
	ip addr replace "2001:db8:$1::1/64" dev "$swp"
	ip -n "h$1" addr replace "2001:db8:$1::2/64" dev eth0
	ip -n "h$1" route replace 2001:db8::/32 via "2001:db8:$1::1"
}

# sx_ipv6_on N: IPv6 on switch port N and host hN's eth0, addresses
# usable at once (no duplicate address detection)
sx_ipv6_on() {
	ip netns exec "h$1" sh -c \
		'echo 0 >/proc/sys/net/ipv6/conf/all/disable_ipv6;
		 echo 0 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6;
		 echo 0 >/proc/sys/net/ipv6/conf/eth0/accept_dad'
	ipo_swp=$(sx_port "$1")
	echo 0 >"/proc/sys/net/ipv6/conf/$ipo_swp/disable_ipv6"
	echo 0 >"/proc/sys/net/ipv6/conf/$ipo_swp/accept_dad"
}

# The IPv4 ECMP tests' prefix: 198.18.0.0/24 is h2's and h3's own (on
# their lo), which route 192.0.2.0/24 back via the switch; h1 routes the
# prefix via the switch. sx_ecmp_hosts_v4_setup needs sx_host_setup_v4.
sx_ecmp_hosts_v4_setup() {
	for ehs_n in 2 3; do
		ip -n "h$ehs_n" addr add 198.18.0.0/24 dev lo
		ip -n "h$ehs_n" link set lo up
		ip -n "h$ehs_n" route replace 192.0.2.0/24 \
			via "$(sx_swp_ip "$ehs_n")"
	done
	ip -n h1 route replace 198.18.0.0/24 via "$(sx_swp_ip 1)"
	echo 1 >/proc/sys/net/ipv4/ip_forward
}

sx_ecmp_hosts_v4_teardown() {
	for ehs_n in 2 3; do
		ip -n "h$ehs_n" addr del 198.18.0.0/24 dev lo
		ip -n "h$ehs_n" route del 192.0.2.0/24
	done
	ip -n h1 route del 198.18.0.0/24
}

# sx_ecmp_pings_v4: h1 pings 198.18.0.1..32, 3 each; prints how many
# answered.
sx_ecmp_pings_v4() {
	ep_ok=0
	for ep_i in $(seq 1 32); do
		ip netns exec h1 ping -q -c 3 -i 0.05 -W 1 "198.18.0.$ep_i" \
			>/dev/null 2>&1 && ep_ok=$((ep_ok + 1))
	done
	echo "$ep_ok"
}

# sx_ecmp_spread WHAT PINGER: four checks of a route from h1 that the
# ASIC spreads over h2 and h3: PINGER (a function printing how many of
# 32 destinations answered 3 pings) prints 32, h2 and h3 each received
# at least 10 packets, and the CPU saw at most 10 of port 1's.
sx_ecmp_spread() {
	es_rx2=$(host_stat 2 rx_packets)
	es_rx3=$(host_stat 3 rx_packets)
	es_cpu=$(sx_cpu_hit "$(sx_port 1)" RX)
	check_eq "switchx2: $1: h1's 32 destinations all answer" 32 "$($2)"
	es_rx2=$(($(host_stat 2 rx_packets) - es_rx2))
	es_rx3=$(($(host_stat 3 rx_packets) - es_rx3))
	check "switchx2: $1: the flows leave by both (h2 $es_rx2, h3 $es_rx3)" \
		test "$es_rx2" -ge 10 -a "$es_rx3" -ge 10
	es_cpu=$(($(sx_cpu_hit "$(sx_port 1)" RX) - es_cpu))
	check "switchx2: $1: routed in the ASIC (CPU saw $es_cpu of 96)" \
		test "$es_cpu" -le 10
}

# rocker's 6.1 FIB offload dereferences the nexthop device a blackhole
# route lacks and refuses routes via nexthop objects: rocker_pause
# unloads it around such routes, rocker_resume loads it again if it was.
rocker_pause() {
	rocker_was_loaded=$(lsmod | grep -c '^rocker ')
	[ "$rocker_was_loaded" = 0 ] || rmmod rocker
}

rocker_resume() {
	[ "${rocker_was_loaded:-0}" = 0 ] || modprobe rocker
}

# 192.0.2.0/24 (TEST-NET-1), one /30 per port: .4n+1 switch, .4n+2 host.
sx_swp_ip() {
	echo "192.0.2.$((4 * $1 + 1))"
}

sx_host_ip() {
	echo "192.0.2.$((4 * $1 + 2))"
}

# Wait up to $2 seconds for a sysfs carrier value $3 on netdev $1 (in
# namespace $4, when given).
wait_carrier() {
	i=0
	while [ $i -lt $(($2 * 10)) ]; do
		if [ -n "$4" ]; then
			c=$(ip netns exec "$4" cat "/sys/class/net/$1/carrier" 2>/dev/null)
		else
			c=$(cat "/sys/class/net/$1/carrier" 2>/dev/null)
		fi
		[ "$c" = "$3" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# --- SwitchX-2 L2 offload helpers ---

# 198.51.100.0/24 (TEST-NET-2) is the hosts' shared subnet when their
# ports are bridged: hN is 198.51.100.N.
sx_l2_ip() {
	echo "198.51.100.$1"
}

sx_host_mac() {
	echo "$SX_HOST_MAC_PREFIX:0$1"
}

# Put hosts 1..SX_WIRED in their namespaces with an address on the shared
# subnet, and silence IPv6 there and on the switch ports, so that the
# frame counts the tests compare are the tests' own frames only. The
# hosts' NICs are promiscuous: virtio-net filters unicast for other MACs
# before counting it, and the flooding tests count exactly those frames.
sx_l2_hosts_setup() {
	for n in $(seq 1 "$SX_WIRED"); do
		sx_host_setup "$n" || return 1
		ip -n "h$n" addr replace "$(sx_l2_ip "$n")/24" dev eth0
		ip -n "h$n" link set eth0 promisc on
		ip netns exec "h$n" sh -c \
			'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6'
		swp=$(sx_port "$n")
		echo 1 >"/proc/sys/net/ipv6/conf/$swp/disable_ipv6"
		wait_carrier "$swp" 10 1
		wait_carrier eth0 10 1 "h$n"
	done
}

# sx_bridge_create BRIDGE VLAN_FILTERING PORT_NUMBER...
sx_bridge_create() {
	br=$1
	vf=$2
	shift 2
	ip link add "$br" type bridge vlan_filtering "$vf" || return 1
	echo 1 >"/proc/sys/net/ipv6/conf/$br/disable_ipv6"
	ip link set "$br" up || return 1
	for n in "$@"; do
		swp=$(sx_port "$n") || return 1
		ip addr flush dev "$swp"
		ip link set "$swp" master "$br" || return 1
		ip link set "$swp" up || return 1
	done
}

sx_bridge_destroy() {
	ip link del "$1" 2>/dev/null
	return 0
}

# Packets the CPU received from (RX) or sent to (TX) a port: IFLA
# offload stats, CPU_HIT group.
sx_cpu_hit() {
	ip stats show dev "$1" group offload subgroup cpu_hit |
		awk -v dir="$2:" '$1 == dir { getline; print $2; exit }'
}

# netdev statistics counter $2 of host hN's NIC
host_stat() {
	ip netns exec "h$1" cat "/sys/class/net/eth0/statistics/$2"
}

# port_stat N COUNTER: netdev statistics of switch port pN (PPCNT based)
port_stat() {
	cat "/sys/class/net/$(sx_port "$1")/statistics/$2"
}

# sx_ping FROM_HOST TO_IP [COUNT]: quiet ping from a host namespace
sx_ping() {
	ip netns exec "h$1" ping -q -c "${3:-3}" -i 0.1 -W 1 "$2" >/dev/null 2>&1
}

# sx_ping6 FROM_HOST TO_IP [COUNT]: the same over IPv6
sx_ping6() {
	ip netns exec "h$1" ping -6 -q -c "${3:-3}" -i 0.1 -W 1 "$2" >/dev/null 2>&1
}

# wait_for SECONDS COMMAND...: poll COMMAND every 0.2 s until it succeeds
wait_for() {
	t=$(($1 * 5))
	shift
	while [ "$t" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.2
		t=$((t - 1))
	done
	return 1
}

# Port statistics come from the ASIC by a periodic work item.
sx_stats_settle() {
	sleep 3
}

# An address no host owns, on the hosts' shared subnet.
SX_PROBE_IP=198.51.100.250

# host_count_to N MAC: start counting the frames host hN receives for
# MAC (a flower filter on eth0's ingress; tagged frames count too).
host_count_to() {
	tc -n "h$1" qdisc replace dev eth0 clsact &&
		tc -n "h$1" filter add dev eth0 ingress pref 1 protocol all \
			flower dst_mac "$2" action pass
}

# host_counted N: the frames counted since host_count_to; stops counting
host_counted() {
	tc -n "h$1" -s -j filter show dev eth0 ingress |
		jq '[.[].options.actions[0].stats.packets // empty] | add // 0'
	tc -n "h$1" qdisc del dev eth0 clsact
}

# sx_probe FROM MAC COUNT: send COUNT unicast frames from host hFROM to
# MAC and print how many frames for MAC each of hosts 1..SX_WIRED
# received meanwhile ("d1 d2 d3 d4"). Which hosts got them tells what the
# ASIC's FDB says about MAC: one port (an entry), or all of the flood
# domain (no entry). Only frames to MAC count: a host's ARP or the
# bridge's own multicast in the same second is not the probe.
sx_probe() {
	ip -n "h$1" neigh replace "$SX_PROBE_IP" lladdr "$2" dev eth0
	for n in $(seq 1 "$SX_WIRED"); do
		host_count_to "$n" "$2" || return 1
	done
	sx_ping "$1" "$SX_PROBE_IP" "$3"
	sleep 0.5
	ip -n "h$1" neigh del "$SX_PROBE_IP" dev eth0
	out=""
	for n in $(seq 1 "$SX_WIRED"); do
		out="$out $(host_counted "$n")"
	done
	echo $out
}

# sx_probe_to FROM MAC COUNT N: the probe's frames reached host hN and no
# other host (status 1 otherwise; the deltas are printed either way).
sx_probe_to() {
	d=$(sx_probe "$1" "$2" "$3")
	echo "$d"
	n=1
	for x in $d; do
		if [ "$n" = "$4" ]; then
			[ "$x" -ge "$3" ] || return 1
		elif [ "$n" != "$1" ]; then
			[ "$x" -le 1 ] || return 1
		fi
		n=$((n + 1))
	done
}

# sx_br_offloaded BRIDGE MAC DEV: the bridge lists MAC on DEV as offloaded
sx_br_offloaded() {
	bridge fdb show br "$1" | grep -qi "^$2 dev $3 .*offload"
}

# sx_br_lacks BRIDGE MAC: the bridge has no entry for MAC
sx_br_lacks() {
	out=$(bridge fdb show br "$1") || return 2
	! echo "$out" | grep -qi "^$2 "
}

# sx_probe_floods FROM MAC COUNT N: the probe's frames reached host hN,
# i.e. the ASIC has no entry for MAC and floods it (hN being a port in
# the flood domain other than MAC's). Prints the per-host deltas.
sx_probe_floods() {
	d=$(sx_probe "$1" "$2" "$3")
	echo "$d"
	[ "$(echo "$d" | cut -d' ' -f"$4")" -ge "$3" ]
}

# sx_host_vlan_add N VID ADDRESS/PREFIX: a VLAN interface eth0.VID on hN
sx_host_vlan_add() {
	ip -n "h$1" link add link eth0 name "eth0.$2" type vlan id "$2" &&
		ip -n "h$1" addr add "$3" dev "eth0.$2" &&
		ip -n "h$1" link set "eth0.$2" up
}

sx_host_vlan_del() {
	ip -n "h$1" link del "eth0.$2"
}

# grew DESCRIPTION BEFORE AFTER MIN: a counter grew by at least MIN
grew() {
	if [ -n "$2" ] && [ -n "$3" ] && [ $(($3 - $2)) -ge "$4" ]; then
		ok "$1 (+$(($3 - $2)))"
	else
		not_ok "$1" "before '$2', after '$3', expected growth >= $4"
	fi
}

# Milliseconds since boot (10 ms resolution)
now_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# fdb_batch OP DEV FIRST COUNT PREFIX: a `bridge -batch` file with COUNT
# static entries PREFIX:hh:ll numbered from FIRST
fdb_batch() {
	i=$3
	end=$(($3 + $4))
	while [ "$i" -lt "$end" ]; do
		printf '%s %s:%02x:%02x dev %s master static\n' \
			"fdb $1" "$5" $((i / 256)) $((i % 256)) "$2"
		i=$((i + 1))
	done
}

# --- SwitchX-2 LAG helpers ---

# sx_lag_partner_setup ADDRESS/PREFIX: the LACP partner of a bond of
# ports 3 and 4: the NICs cabled to them, moved to namespace hl as hl3
# and hl4 and bonded as pbond (802.3ad, fast LACP, layer3+4 hash) with
# ADDRESS. Hosts h3 and h4 go away first: the NICs are theirs.
sx_lag_partner_setup() {
	for n in 3 4; do
		ip netns del "h$n" 2>/dev/null
	done
	for n in 3 4; do
		wait_for 10 netdev_by_mac "$(sx_host_mac "$n")" || return 1
	done
	ip netns add hl || return 1
	ip -n hl link add pbond type bond mode 802.3ad lacp_rate fast \
		miimon 100 xmit_hash_policy layer3+4 || return 1
	ip netns exec hl sh -c \
		'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6'
	for n in 3 4; do
		nic=$(netdev_by_mac "$(sx_host_mac "$n")") || return 1
		ip link set "$nic" netns hl || return 1
		ip -n hl link set "$nic" name "hl$n"
		# 802.3ad aggregates ports of one speed: virtio-net has none
		# until it is told one.
		ip netns exec hl ethtool -s "hl$n" speed 10000 duplex full
		ip -n hl link set "hl$n" master pbond || return 1
	done
	ip -n hl link set pbond up &&
		ip -n hl addr add "$1" dev pbond
}

# Deleting the namespace gives the NICs back to the root namespace, where
# the next test that needs hosts 3 and 4 finds them.
sx_lag_partner_teardown() {
	ip netns del hl 2>/dev/null
	wait_for 10 netdev_by_mac "$(sx_host_mac 3)"
	wait_for 10 netdev_by_mac "$(sx_host_mac 4)"
}

# sx_lag_bond_create BOND PORT_NUMBER...: an 802.3ad bond of the ports
sx_lag_bond_create() {
	bond=$1
	shift
	ip link add "$bond" type bond mode 802.3ad lacp_rate fast \
		miimon 100 || return 1
	for n in "$@"; do
		swp=$(sx_port "$n") || return 1
		ip addr flush dev "$swp"
		ip link set "$swp" down
		ip link set "$swp" master "$bond" || return 1
	done
	ip link set "$bond" up
}

# sx_aggregator_ports BOND [NETNS]: ports in BOND's active aggregator
sx_aggregator_ports() {
	if [ -n "${2:-}" ]; then
		ip netns exec "$2" cat "/proc/net/bonding/$1"
	else
		cat "/proc/net/bonding/$1"
	fi | sed -n '/Active Aggregator Info/,/Partner Mac/s/.*Number of ports: *//p'
}

sx_aggregator_has() {
	[ "$(sx_aggregator_ports "$2" "${3:-}")" = "$1" ]
}

# sx_lag_state N: whether ASIC port N collects and distributes
sx_lag_state() {
	sx_asic_port "$1" '.["lag-collecting"], .["lag-distributing"]' |
		tr '\n' ' ' | sed 's/ $//'
}

# sx_lag_states_are "C D / C D": ports 3 and 4 collect and distribute so.
# The bond tells its ports after its state machine has run, a little
# after /proc shows the aggregator.
sx_lag_states_are() {
	[ "$(sx_lag_state 3) / $(sx_lag_state 4)" = "$1" ]
}
