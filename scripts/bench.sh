#!/usr/bin/env bash
# make bench: the emulated SwitchX-2, QEMU's rocker and a Linux software
# bridge over virtio-net, side by side in one TCG guest (no icount: these
# are wall-clock figures; measure on an idle host), and the limit of the
# rig: the same two virtio hosts joined by a bare cable (one QEMU hub, no
# switch). The guest side is
# tests/bench/l2.sh; scripts/bench-report.py turns its figures into the
# table, results.tsv and the plots.
#
# Measured, per switch:
#   TCP throughput h1 -> h2 (iperf3) with 1, 2, 4 streams, and over 4
#     ports (h1 -> h2 and h3 -> h4 at once); the sender's retransmissions
#     (also over the bare cable)
#   64-byte frame rate h1 -> h2 (mausezahn), counted at h2's NIC (also
#     over the bare cable)
#   static FDB programming rate: BENCH_FDB_N entries from one
#     `bridge -batch` until the bridge marks the last one offloaded
#   probe to ports up: modprobe -> all netdevs -> cabled ports' carrier
#   learned-entry latency: the bridge's own learning of a new source MAC
#     -> the driver's extern_learn entry (bridge -timestamp monitor fdb)
#   scaling: the FDB filled to 1K, 2K, 4K, ... entries up to the SwitchX-2
#     FDB's size (rocker, Linux bridge: 8K): the programming rate of each
#     step, the frame rate at each size; the report states the cost growth
# and, routing (tests/bench/route.sh), SwitchX-2's router vs the Linux
# router over the virtio NICs (rocker and the cable: none):
#   routed TCP throughput and 64-byte frame rate h1 (VLAN 10) -> h2
#     (VLAN 20) through a VLAN-aware bridge's uppers br.10 and br.20, and
#     how many of h1's packets the CPU saw (SwitchX-2)
#   LPM programming rate: /24 routes in steps 1K, 2K, 4K, ... up to
#     BENCH_LPM_MAX from `ip -batch` until the last shows rt_offload,
#     then all of them deleted; the Linux router's figure is the kernel's
#     `ip -batch` alone
#
# Knobs (environment):
#   BENCH_SECONDS=10        each TCP throughput run and each frame-rate run
#   BENCH_SCALE_SECONDS=5   each frame-rate run of the FDB sweep
#   BENCH_FLOWS="1 2 4"     iperf3 parallel streams h1 -> h2
#   BENCH_FDB_N=1000        static entries per programming run
#   BENCH_FDB_RUNS=3        programming runs per switch
#   BENCH_LEARN_RUNS=20     learned-entry latency runs per switch
#   BENCH_PROBE_RUNS=5      rmmod/modprobe runs per driver
#   BENCH_FDB_SIZE=49152    the SwitchX-2 model's FDB (fdb-size): an SX1036's
#   BENCH_SCALE_MAX=        largest N of the sweep (default: the SwitchX-2
#                           FDB's free entries, all but 16)
#   BENCH_SCALE_OTHERS_MAX=8192   largest N of rocker's and the Linux
#                           bridge's sweeps: QEMU's rocker matches each frame
#                           against all its flows, so its steps get slow
#                           (minutes each past 8K), and the Linux bridge's
#                           adds ran at 100-200/s in the sweep on a loaded host
#   BENCH_LPM_MAX=100000    routes at the LPM sweep's last step
#   BENCHES="probe tcp frames learn fdb scale route lpm"   the parts to run
#   BENCH_TSC_KHZ=          the host's TSC frequency (default: from the
#                           kernel log); 0 keeps the guest's clock on ticks
#   GUEST_TIMEOUT=1800      seconds before a hung guest is killed
# A quick check: BENCH_SECONDS=2 BENCH_SCALE_SECONDS=1 BENCH_SCALE_MAX=4096
#   BENCH_LEARN_RUNS=10 BENCH_PROBE_RUNS=2 BENCH_FDB_RUNS=1 bash scripts/bench.sh
#
# Output in build/logs/bench/ (LOGS=...): bench.txt (the table, also
# printed), results.tsv (one row per figure), *.dat and *.svg (plots),
# raw.txt (the guest's figures), bench.log (the console, each line
# prefixed with the host's clock).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

LOGS=${LOGS:-$LOGS_MAIN/bench}
INITRAMFS=${INITRAMFS:-$INITRAMFS_MAIN}
BRIDGE_PORTS=4
export LOGS INITRAMFS
# The sweep needs the profile's FDB, not the tests' small one.
export SX_FDB_SIZE=${BENCH_FDB_SIZE:-49152}
# Four rocker ports, where scripts/topology.sh lets us ask.
export ROCKER_PORTS=4

KNOBS=(BENCH_SECONDS BENCH_SCALE_SECONDS BENCH_FLOWS BENCH_FDB_N BENCH_FDB_RUNS
	BENCH_LEARN_RUNS BENCH_PROBE_RUNS BENCH_SCALE_MAX BENCH_SCALE_OTHERS_MAX
	BENCH_LPM_MAX BENCHES)

# The guest's clock. Without ACPI it has no HPET or PM timer to calibrate
# its TSC against and counts timer ticks (refined-jiffies), and a busy
# host makes it lose ticks: it ran 19% slow on a loaded 2-core host, and
# every guest-timed figure with it. Under TCG the guest's TSC is the
# host's; told its frequency, the guest keeps time by it. The report
# checks the guest's clock against the host's either way.
host_tsc_khz() {
	local mhz
	mhz=$(dmesg 2>/dev/null | sed -n 's/.*tsc: Refined TSC clocksource calibration: \([0-9.]*\) MHz.*/\1/p' | tail -n 1)
	[ -n "$mhz" ] || mhz=$(dmesg 2>/dev/null | sed -n 's/.*tsc: Detected \([0-9.]*\) MHz processor.*/\1/p' | tail -n 1)
	if [ -z "$mhz" ] && grep -qw constant_tsc /proc/cpuinfo; then
		mhz=$(awk -F: '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)
	fi
	[ -n "$mhz" ] || return 1
	awk -v m="$mhz" 'BEGIN { printf "%d\n", m * 1000 + 0.5 }'
}
TSC_KHZ=${BENCH_TSC_KHZ:-$(host_tsc_khz)} ||
	die "cannot tell the host's TSC frequency from dmesg or /proc/cpuinfo; set BENCH_TSC_KHZ (0: the guest counts ticks, and drifts on a busy host)"
if [ "$TSC_KHZ" != 0 ]; then
	export KERNEL_EXTRA_ARGS="${KERNEL_EXTRA_ARGS:-} tsc_early_khz=$TSC_KHZ tsc=reliable"
fi

command -v gnuplot >/dev/null || die "gnuplot is missing: run scripts/install-deps.sh (gnuplot-nox)"
[ -e "$INITRAMFS" ] || die "$INITRAMFS missing: run 'make initramfs'"
gzip -dc "$INITRAMFS" | cpio -t --quiet 2>/dev/null | grep -x 'usr/sbin/mausezahn' >/dev/null ||
	die "$INITRAMFS has no mausezahn: rebuild it (make initramfs)"

# The software bridge's cabling: BRIDGE_PORTS virtio NICs in the guest's
# root namespace as bridge ports, each cabled through a hub to a host NIC.
sw_bridge_args() {
	local i args=""
	for ((i = 1; i <= BRIDGE_PORTS; i++)); do
		args+=" -netdev hubport,id=swp$i,hubid=$((300 + i))"
		args+=" -netdev hubport,id=swh$i,hubid=$((300 + i))"
		args+=" -device virtio-net-pci,romfile=,netdev=swp$i,mac=52:54:00:cc:00:0$i"
		args+=" -device virtio-net-pci,romfile=,netdev=swh$i,mac=52:54:00:cc:01:0$i"
	done
	echo "$args"
}

# The bare cable: two virtio host NICs on one hub (MACs as
# tests/bench/lib.sh expects them).
cable_args() {
	local i args=""
	for i in 1 2; do
		args+=" -netdev hubport,id=cbh$i,hubid=350"
		args+=" -device virtio-net-pci,romfile=,netdev=cbh$i,mac=52:54:00:cc:02:0$i"
	done
	echo "$args"
}

guest_cmd() {
	local k cmd="BRIDGE_PORTS=$BRIDGE_PORTS"
	for k in "${KNOBS[@]}"; do
		[ -n "${!k:-}" ] && cmd+=" $k='${!k}'"
	done
	echo "$cmd bash /tests/bench/l2.sh"
}

# Stamp every console line with the host's clock (the report compares
# the guest's clock with it), show progress lines as they come.
stamp_console() {
	local line
	while IFS= read -r line; do
		line=${line%$'\r'}
		printf '%s %s\n' "$EPOCHREALTIME" "$line" >>"$LOGS/bench.log"
		case $line in
		"bench: "* | "bench-error "*) echo "$line" ;;
		esac
	done
}

mkdir -p "$LOGS"
rm -f "$LOGS"/*.dat "$LOGS"/*.svg "$LOGS"/*.gp "$LOGS/bench.txt" "$LOGS/results.tsv" "$LOGS/raw.txt"
: >"$LOGS/bench.log"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "commit: $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "guest: TCG, 1 vCPU, no icount; SwitchX-2 fdb-size $SX_FDB_SIZE; TSC kHz given: $TSC_KHZ"
	for k in "${KNOBS[@]}"; do
		echo "$k=${!k:-default}"
	done
} >"$LOGS/meta.txt"

step "benchmark guest: SwitchX-2, rocker, Linux bridge, bare cable (log: $LOGS/bench.log)"
start=$SECONDS
rc=0
GUEST_TIMEOUT=${GUEST_TIMEOUT:-1800} QEMU_EXTRA="${QEMU_EXTRA:-} $(sw_bridge_args) $(cable_args)" \
	bash "$TOP/scripts/run-guest.sh" cmd "$(guest_cmd)" 2>&1 | stamp_console || rc=$?
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$LOGS/meta.txt"
echo "guest run: $((SECONDS - start)) s" >>"$LOGS/meta.txt"
[ "$rc" -eq 0 ] || die "benchmark guest failed (status $rc); see $LOGS/bench.log"

# The guest's figures without the host's stamps; its clock marks with them.
sed -n 's/^[0-9.]* bench-data //p' "$LOGS/bench.log" >"$LOGS/raw.txt"
sed -n 's/^\([0-9.]*\) bench-clock \([a-z]*\) \([0-9]*\)$/\2 \3 \1/p' "$LOGS/bench.log" >"$LOGS/clock.txt"
grep -q '^- done ' "$LOGS/raw.txt" ||
	die "the benchmark did not finish; see $LOGS/bench.log"

step "report: $LOGS/bench.txt, results.tsv, plots"
python3 "$TOP/scripts/bench-report.py" "$LOGS" || die "the report failed"
cat "$LOGS/bench.txt"
errors=$(grep -c '^[0-9.]* bench-error ' "$LOGS/bench.log" || true)
[ "$errors" -eq 0 ] || die "$errors measurement(s) failed (bench-error lines in $LOGS/bench.log)"
