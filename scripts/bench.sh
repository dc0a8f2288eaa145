#!/usr/bin/env bash
# Benchmark L2 forwarding in the guest (see tests/bench/l2.sh): throughput
# h1 -> h2 through the SwitchX-2 model, rocker and a Linux software bridge
# over virtio-net, plus SwitchX-2 FDB learning latency and static FDB
# programming rate. Plain TCG, no icount: these are wall-clock numbers.
# Results go to stdout and build/logs/bench/bench.txt. Measure on an idle host.
# BENCHES picks some of: switchx2 rocker soft_bridge learn_latency
# static_fdb (the last two need the switchx2 one first).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# The software bridge's cabling: two virtio NICs in the guest's root
# namespace as bridge ports, each cabled through a hub to a host NIC.
sw_bridge_args() {
	local i args=""
	for i in 1 2; do
		args+=" -netdev hubport,id=swp$i,hubid=$((300 + i))"
		args+=" -netdev hubport,id=swh$i,hubid=$((300 + i))"
		args+=" -device virtio-net-pci,romfile=,netdev=swp$i,mac=52:54:00:cc:00:0$i"
		args+=" -device virtio-net-pci,romfile=,netdev=swh$i,mac=52:54:00:cc:01:0$i"
	done
	echo "$args"
}

LOGS=${LOGS:-$BUILD/logs/bench}
export LOGS
mkdir -p "$LOGS"
step "benchmark guest: throughput, FDB learning latency, static FDB rate"
QEMU_EXTRA="${QEMU_EXTRA:-} $(sw_bridge_args)" GUEST_TIMEOUT=${GUEST_TIMEOUT:-900} \
	bash "$TOP/scripts/run-guest.sh" cmd "BENCHES='${BENCHES:-}' BENCH_SECONDS='${BENCH_SECONDS:-10}' sh /tests/bench/l2.sh" >"$LOGS/bench.log" 2>&1 ||
	die "benchmark guest failed; see $LOGS/bench.log"
grep '^bench:' "$LOGS/bench.log" | tee "$LOGS/bench.txt"
grep -q '^bench: done' "$LOGS/bench.txt" ||
	die "benchmark did not finish; see $LOGS/bench.log"
