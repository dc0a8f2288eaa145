#!/bin/bash
# Guest side of `make bench` (scripts/bench.sh boots the guest and runs
# this with bash): the emulated SwitchX-2, QEMU's rocker and a Linux
# software bridge over virtio-net, side by side, each a VLAN-unaware
# bridge over its cabled ports with a host namespace on every port:
#   probe  rmmod + modprobe -> all ports' netdevs exist -> the cabled
#          ones report carrier (SwitchX-2, rocker)
#   tcp    iperf3 h1 -> h2 with BENCH_FLOWS parallel streams, and h1 -> h2
#          plus h3 -> h4 at once when 4 ports are cabled
#   frames 64-byte frames h1 -> h2 (mausezahn), frames/s counted by h2's NIC
#   learn  learned-entry latency: bridge's own learning -> the driver's
#          extern_learn entry (SwitchX-2, rocker)
#   fdb    BENCH_FDB_N static entries from one `bridge -batch` until the
#          bridge marks the last one offloaded, BENCH_FDB_RUNS times
#   scale  the FDB filled in steps to N = 1K, 2K, 4K, ... up to the
#          SwitchX-2 FDB's free size (or BENCH_SCALE_MAX): each step's
#          programming rate, and the frame rate to the last entry; rocker
#          and the Linux bridge up to BENCH_SCALE_OTHERS_MAX only (QEMU's
#          rocker matches every frame against all its flows, one by one:
#          past 8K entries a step takes minutes; the Linux bridge's
#          `bridge -batch` ran at 100-200 entries/s in the sweep of a
#          loaded host's runs, minutes for 48K)
#   route, lpm   routing: SwitchX-2's router vs the Linux router
#          (tests/bench/route.sh)
# Figures are "bench-data SWITCH METRIC PARAM VALUE UNIT" lines, progress
# "bench: ..." lines, failures "bench-error ..." lines; the host turns
# them into the report (scripts/bench-report.py).
# shellcheck source=tests/bench/lib.sh
. /tests/bench/lib.sh

BENCH_SECONDS=${BENCH_SECONDS:-10}
BENCH_SCALE_SECONDS=${BENCH_SCALE_SECONDS:-5}
BENCH_FLOWS=${BENCH_FLOWS:-1 2 4}
BENCH_FDB_N=${BENCH_FDB_N:-1000}
BENCH_FDB_RUNS=${BENCH_FDB_RUNS:-3}
BENCH_LEARN_RUNS=${BENCH_LEARN_RUNS:-20}
BENCH_PROBE_RUNS=${BENCH_PROBE_RUNS:-5}
BENCH_SCALE_MAX=${BENCH_SCALE_MAX:-}
BENCH_SCALE_OTHERS_MAX=${BENCH_SCALE_OTHERS_MAX:-8192}
BENCHES=${BENCHES:-probe tcp frames learn fdb scale route lpm}
# TCP and small frames also over the bare cable; FDB figures for the
# switches only.
SWITCHES="switchx2 rocker bridge cable"
BRIDGES="switchx2 rocker bridge"
OFFLOADING="switchx2 rocker"

for tool in iperf3 mausezahn bridge jq; do
	command -v "$tool" >/dev/null || {
		bench_error "- $tool is missing from the initramfs (make initramfs)"
		echo "bench-data - done - 0 -"
		exit 1
	}
done

# Kernel messages would interleave with our lines on the console; the
# kernel log is printed whole at the end instead.
dmesg -n 1
echo "bench-data - clocksource - $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource) -"
now
echo "bench-clock start $NOW"

selected() {
	case " $BENCHES " in *" $1 "*) return 0 ;; esac
	return 1
}

bench_probe() {
	local sw run
	for sw in $OFFLOADING; do
		for run in $(seq 1 "$BENCH_PROBE_RUNS"); do
			progress "probe: $sw, rmmod/modprobe ${DRIVER[$sw]} (run $run of $BENCH_PROBE_RUNS)"
			if ! probe_time "$sw" "$run"; then
				bench_error "$sw probe: ${DRIVER[$sw]} did not come back with all ports up within 60 s (run $run)"
				modprobe "${DRIVER[$sw]}"
				break
			fi
			result "$sw" probe_netdevs "run=$run" "$(ms "$PROBE_DEV_US")" ms
			result "$sw" probe_carrier "run=$run" "$(ms "$PROBE_CARRIER_US")" ms
		done
	done
	# Let the ports settle before they join bridges.
	sleep 1
}

bench_tcp() {
	local sw
	for sw in $SWITCHES; do
		tcp_flows "$sw" tcp_throughput tcp_retransmits "tcp: $sw, h1 -> h2"
		if [ "${NPORTS[$sw]}" -lt 4 ]; then
			progress "tcp: $sw has ${NPORTS[$sw]} ports cabled, no 4-port run"
			continue
		fi
		progress "tcp: $sw, h1 -> h2 and h3 -> h4 at once, $BENCH_SECONDS s"
		if tcp_mbps "$sw" 1 2; then
			result "$sw" tcp_throughput "ports=4" "$MBPS" Mbit/s
		else
			bench_error "$sw TCP throughput over 4 ports: iperf3 failed"
		fi
	done
}

bench_frames() {
	local sw
	for sw in $SWITCHES; do
		progress "frames: $sw, 64-byte frames h1 -> h2, $BENCH_SECONDS s"
		sw_ping "$sw" 2 1
		frame_figures "$sw" "${HMAC[$sw,2]}" ""
	done
}

bench_learn() {
	local sw
	for sw in $OFFLOADING; do
		progress "learn: $sw, $BENCH_LEARN_RUNS new source MACs"
		learn_latency "$sw" "$BENCH_LEARN_RUNS"
	done
}

bench_fdb() {
	local sw run prefix=02:b0:00 last n
	for sw in $BRIDGES; do
		fdb_batch_file add "${PORT[$sw,2]}" 0 "$BENCH_FDB_N" $prefix /tmp/fdb-add
		fdb_batch_file del "${PORT[$sw,2]}" 0 "$BENCH_FDB_N" $prefix /tmp/fdb-del
		last=$(fdb_mac $prefix $((BENCH_FDB_N - 1)))
		for run in $(seq 1 "$BENCH_FDB_RUNS"); do
			progress "fdb: $sw, $BENCH_FDB_N static entries (run $run of $BENCH_FDB_RUNS)"
			if ! fdb_program "$sw" /tmp/fdb-add "$last" 300; then
				bench_error "$sw static FDB: $last not offloaded within 300 s (run $run)"
				bridge -batch /tmp/fdb-del >/dev/null
				fdb_drain "$sw"
				break
			fi
			if [ "$sw" != bridge ]; then
				n=$(offloaded_count "$sw" $prefix)
				[ "$n" = "$BENCH_FDB_N" ] ||
					bench_error "$sw static FDB: $n of $BENCH_FDB_N entries offloaded (run $run)"
			fi
			result "$sw" fdb_static_rate "run=$run" "$(per_s "$BENCH_FDB_N" "$PROG_US")" entries/s
			result "$sw" fdb_static_time "run=$run" "$(ms "$PROG_US")" ms
			bridge -batch /tmp/fdb-del >/dev/null
			fdb_drain "$sw" || bench_error "$sw static FDB: removals not done within 120 s"
		done
	done
}

bench_scale() {
	local max top asic size used sw prefix n prev last
	if ! asic=$(asic_fdb) || [ -z "$asic" ]; then
		bench_error "- scaling: no answer from QMP query-switchx2"
		return 1
	fi
	read -r size used <<<"$asic"
	# Leave a little room for entries learned meanwhile.
	max=$((size - used - 16))
	if [ -n "$BENCH_SCALE_MAX" ] && [ "$BENCH_SCALE_MAX" -lt "$max" ]; then
		max=$BENCH_SCALE_MAX
	fi
	result switchx2 fdb_size - "$size" entries
	progress "scale: the SwitchX-2 FDB holds $used of $size entries; sweep up to $max"
	for sw in $BRIDGES; do
		top=$max
		if [ "$sw" != switchx2 ] && [ "$BENCH_SCALE_OTHERS_MAX" -lt "$top" ]; then
			top=$BENCH_SCALE_OTHERS_MAX
		fi
		case $sw in
		switchx2) prefix=02:b1:01 ;;
		rocker) prefix=02:b1:02 ;;
		*) prefix=02:b1:03 ;;
		esac
		prev=0
		for n in $(doubling_steps 1024 "$top"); do
			progress "scale: $sw, entries $prev..$((n - 1)) ($((n - prev)) more)"
			fdb_batch_file add "${PORT[$sw,2]}" "$prev" $((n - prev)) "$prefix" /tmp/fdb-scale
			last=$(fdb_mac "$prefix" $((n - 1)))
			if ! fdb_program "$sw" /tmp/fdb-scale "$last" 900; then
				bench_error "$sw scaling: $last not offloaded within 900 s (N=$n)"
				break
			fi
			result "$sw" fdb_fill_rate "n=$n" "$(per_s $((n - prev)) "$PROG_US")" entries/s
			if [ "$sw" = switchx2 ]; then
				# The ASIC's own count, from the host: every entry
				# the bridge marks offloaded is there.
				read -r size used <<<"$(asic_fdb)"
				result "$sw" fdb_asic_entries "n=$n" "$used" entries
				[ "${used:-0}" -ge "$n" ] ||
					bench_error "$sw scaling: the ASIC holds $used entries at N=$n (QMP)"
			fi
			progress "scale: $sw, 64-byte frames to entry $((n - 1)) of $n, $BENCH_SCALE_SECONDS s"
			if frame_rate "$sw" "$last" "$BENCH_SCALE_SECONDS"; then
				result "$sw" lookup_rate "n=$n" "$FPS" frames/s
				result "$sw" lookup_delivered "n=$n" "$DELIVERED" %
			else
				bench_error "$sw scaling: no frames counted at N=$n"
			fi
			prev=$n
		done
		if [ "$sw" != bridge ]; then
			n=$(offloaded_count "$sw" "$prefix")
			[ "$n" = "$prev" ] ||
				bench_error "$sw scaling: $n of $prev entries offloaded at the end"
		fi
	done
}

if selected probe; then
	bench_probe
fi

progress "setting up the three bridges, the cable and their hosts"
for sw in $SWITCHES; do
	if ! sw_setup "$sw"; then
		bench_error "$sw: setting up the bridge and its hosts failed"
		continue
	fi
	[ "$sw" = cable ] && continue
	sw_vlan_check "$sw"
	result "$sw" fdb_offloads_per_add - "$([ -n "${LAST_VLAN[$sw]}" ] && echo 2 || echo 1)" entries
	progress "$sw: ${BR[$sw]} over ${NPORTS[$sw]} ports${LAST_VLAN[$sw]:+; a static entry is offloaded twice, without a VLAN and for VLAN 1}"
done
# Links come up, the bridges reach forwarding; then every host pair must
# answer before anything is measured.
sleep 2
for sw in $SWITCHES; do
	for k in $(seq 2 "${NPORTS[$sw]}"); do
		sw_ping "$sw" 1 "$k" ||
			bench_error "$sw: h1 does not reach h$k through ${BR[$sw]}"
	done
done

for b in tcp frames; do
	selected "$b" && "bench_$b"
done
# The monitor prints every FDB event: it runs for the latency runs only,
# not while thousands of entries come and go.
if selected learn; then
	bridge -timestamp monitor fdb >"$FDB_MONITOR" 2>&1 &
	monitor_pid=$!
	snooze 0.5
	bench_learn
	kill "$monitor_pid"
	wait "$monitor_pid" 2>/dev/null
fi
for b in fdb scale; do
	selected "$b" && "bench_$b"
done
# shellcheck source=tests/bench/route.sh
. /tests/bench/route.sh
if selected route || selected lpm; then
	bench_route
fi
now
echo "bench-clock end $NOW"
echo "bench: kernel log follows"
dmesg
echo "bench-data - done - $BENCH_ERRORS errors"
# A reboot would remove the drivers, and the SwitchX-2 driver takes the
# sweep's static entries out of the ASIC one by one on its way (minutes
# for 48K entries): ask QEMU to quit instead, once the console is out.
sleep 1
host_qmp '{"execute": "quit"}' >/dev/null
