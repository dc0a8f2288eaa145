# shellcheck shell=bash
# The routing part of `make bench`, sourced by tests/bench/l2.sh once the
# L2 figures are taken: SwitchX-2's router against the Linux router over
# virtio NICs ("bridge": the same kernel routes in software), one after
# the other, as both routers live in the guest's root namespace.
#   route  h1 in VLAN 10 -> h2 in VLAN 20: a VLAN-aware bridge with port
#          1 untagged in VLAN 10 and port 2 in VLAN 20, br.10 and br.20
#          routing between 10.10.0.0/24 and 10.20.0.0/24; TCP (iperf3,
#          BENCH_FLOWS streams) and 64-byte UDP frames (mausezahn), and
#          how many of h1's packets the CPU saw (SwitchX-2: CPU_HIT)
#   lpm    N /24 routes via h2 from one `ip -batch`, N = 1K, 2K, 4K, ...,
#          BENCH_LPM_MAX: the time until the last is in the ASIC
#          (rt_offload; the driver programs routes in order), then the
#          time to take them all out again (a sentinel route added after
#          the deletes shows rt_offload); the Linux router's figures are
#          the kernel's own `ip -batch`, which SwitchX-2's include
# Source, do not execute.

ROUTERS="switchx2 bridge"
BENCH_LPM_MAX=${BENCH_LPM_MAX:-100000}
# The routes' gateway, h2
ROUTE_GW=10.20.0.2
ROUTE_SENTINEL=10.99.0.0/24

# route_setup SW: SW's L2 bridge rebuilt as the router described above;
# RMAC[SW] is the router's MAC on h1's side
declare -A RMAC
route_setup() {
	local sw=$1 br=${BR[$1]} k vid port
	ip link del "$br" 2>/dev/null
	ip link add "$br" type bridge vlan_filtering 1 || return 1
	echo 1 >"/proc/sys/net/ipv6/conf/$br/disable_ipv6"
	ip link set "$br" up
	for k in 1 2; do
		vid=$((10 * k))
		port=${PORT[$sw,$k]}
		ip addr flush dev "$port"
		ip link set "$port" master "$br" || return 1
		ip link set "$port" up
		bridge vlan del dev "$port" vid 1
		bridge vlan add dev "$port" vid "$vid" pvid untagged || return 1
		bridge vlan add dev "$br" vid "$vid" self || return 1
		ip link add link "$br" name "$br.$vid" type vlan id "$vid" || return 1
		echo 1 >"/proc/sys/net/ipv6/conf/$br.$vid/disable_ipv6"
		ip link set "$br.$vid" up
		ip addr add "10.$vid.0.1/24" dev "$br.$vid" || return 1
		ip -n "${NS[$sw,$k]}" addr flush dev eth0
		ip -n "${NS[$sw,$k]}" addr add "10.$vid.0.2/24" dev eth0
		ip -n "${NS[$sw,$k]}" route add default via "10.$vid.0.1"
		IP[$sw,$k]=10.$vid.0.2
	done
	RMAC[$sw]=$(cat "/sys/class/net/$br/address")
	echo 1 >/proc/sys/net/ipv4/ip_forward
	# Both neighbours resolved, the first packets through the CPU
	sw_ping "$sw" 1 2 || sw_ping "$sw" 1 2
}

route_teardown() {
	local sw=$1 k
	ip link del "${BR[$sw]}"
	for k in 1 2; do
		ip -n "${NS[$sw,$k]}" route del default 2>/dev/null
		ip -n "${NS[$sw,$k]}" addr flush dev eth0
	done
}

# cpu_rx SW: packets the CPU received from port 1 (SwitchX-2 only)
cpu_rx() {
	[ "$1" = switchx2 ] || return 1
	sx_cpu_hit "${PORT[$1,1]}" RX
}

bench_route_one() {
	local sw=$1 c0 c1
	tcp_flows "$sw" route_tcp route_tcp_retransmits \
		"route: $sw, TCP h1 (VLAN 10) -> h2 (VLAN 20)"
	progress "route: $sw, 64-byte UDP frames h1 -> h2, $BENCH_SECONDS s"
	c0=$(cpu_rx "$sw")
	FRAME_MZ="-A ${IP[$sw,1]} -B ${IP[$sw,2]} -t udp sp=1024,dp=9" \
		frame_figures "$sw" "${RMAC[$sw]}" route_
	if c1=$(cpu_rx "$sw"); then
		result "$sw" route_cpu_rx 64B $((c1 - c0)) packets
	fi
}

# lpm_batch FILE OP FIRST N: OP (add or del) of N /24 routes via h2,
# the I-th of them 11.0.0.0/24 + I
lpm_batch() {
	awk -v op="$2" -v first="$3" -v n="$4" -v gw="$ROUTE_GW" 'BEGIN {
		for (i = first; i < first + n; i++)
			printf "route %s %d.%d.%d.0/24 via %s\n", op,
				11 + int(i / 65536), int(i / 256) % 256, i % 256, gw
	}' >"$1"
}

lpm_prefix() {
	echo "$((11 + $1 / 65536)).$(($1 / 256 % 256)).$(($1 % 256)).0/24"
}

# lpm_wait SW PREFIX: until the route to PREFIX is in the ASIC
# (SwitchX-2; the Linux router has nothing to wait for), 600 s at most
lpm_wait() {
	local i
	[ "$1" = switchx2 ] || return 0
	for i in $(seq 1 6000); do
		ip route show "$2" | grep -qw rt_offload && return 0
		snooze 0.1
	done
	return 1
}

# lpm_timed SW FILE PREFIX: `ip -batch FILE` until PREFIX's route is in
# the ASIC; the time it took into LPM_US
lpm_timed() {
	local t0
	now
	t0=$NOW
	ip -batch "$2" || return 1
	lpm_wait "$1" "$3" || return 1
	now
	LPM_US=$((NOW - t0))
}

# lpm_step SW HAVE N: the routes [HAVE, N) added in one batch, timed
lpm_step() {
	lpm_batch /tmp/lpm-add add "$2" $(($3 - $2))
	lpm_timed "$1" /tmp/lpm-add "$(lpm_prefix $(($3 - 1)))"
}

# lpm_flush SW N: the N routes deleted in one batch, and the sentinel
# after them, timed
lpm_flush() {
	lpm_batch /tmp/lpm-del del 0 "$2"
	echo "route add $ROUTE_SENTINEL via $ROUTE_GW" >>/tmp/lpm-del
	lpm_timed "$1" /tmp/lpm-del "$ROUTE_SENTINEL" || return 1
	ip route del "$ROUTE_SENTINEL"
}

# The sweep: each step adds the routes up to N and is timed (its rate
# with N routes in the table); at the end all of them go at once.
bench_lpm_one() {
	local sw=$1 have=0 n offloaded
	for n in $(doubling_steps 1000 "$BENCH_LPM_MAX"); do
		progress "lpm: $sw, routes $have -> $n"
		if ! lpm_step "$sw" "$have" "$n"; then
			bench_error "$sw LPM: route $((n - 1)) not in the ASIC within 600 s"
			break
		fi
		result "$sw" lpm_fill_rate "n=$n" "$(per_s $((n - have)) "$LPM_US")" routes/s
		have=$n
	done
	if [ "$sw" = switchx2 ]; then
		offloaded=$(ip route show | grep -cw rt_offload)
		result "$sw" lpm_offloaded "n=$have" "$offloaded" routes
		[ "$offloaded" -ge "$have" ] ||
			bench_error "$sw LPM: $offloaded of $have routes offloaded"
	fi
	progress "lpm: $sw, all $have routes out"
	if lpm_flush "$sw" "$have"; then
		result "$sw" lpm_flush_rate "n=$have" "$(per_s "$have" "$LPM_US")" routes/s
	else
		bench_error "$sw LPM: the sentinel route after the deletes not in the ASIC within 600 s"
	fi
}

bench_route() {
	local sw
	for sw in $ROUTERS; do
		if ! route_setup "$sw"; then
			bench_error "$sw: the router did not come up (h1 does not reach h2)"
			route_teardown "$sw"
			continue
		fi
		selected route && bench_route_one "$sw"
		selected lpm && bench_lpm_one "$sw"
		route_teardown "$sw"
	done
}
