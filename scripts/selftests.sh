#!/usr/bin/env bash
# make selftests: the kernel's own forwarding selftests (from build/linux,
# the tree the series is applied to) in the TCG guest, against three
# switches, one guest boot each: the emulated SwitchX-2, a Linux software
# bridge over virtio NICs, and QEMU's rocker. Prints a table, one row per
# selftest case ("TEST: ..." line), one column per switch; expected
# failures come from tests/selftests/expected.txt with their reason, and
# for a kernel other than the default from expected-LINUX.txt too (cases
# only that kernel's selftests have, or fail for its own reasons).
# Exits non-zero when SwitchX-2 or the software bridge fails a case that
# file does not list (rocker is a reference and does not count).
#
# Environment:
#   SELFTESTS        the selftests to run (names without .sh)
#   SWITCHES         columns to run, of: switchx2 bridge rocker
#   SELFTESTS_ICOUNT 1 (default): -icount shift=auto,sleep=off, so that
#                    the selftests' sleeps and protocol timers cost no
#                    wall time; 0: plain TCG
#   GUEST_TIMEOUT    seconds per guest (default 7200)
#   SELFTEST_TIMEOUT seconds per selftest in the guest, after which it is
#                    killed and its remaining cases are missing from the
#                    table (default 1800)
#   LOGS             log folder (default build/logs/selftests)
# Output: $LOGS/table.txt, $LOGS/<switch>/guest.log (the guest's console:
# the selftests' output and the kernel's warnings).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEFAULT_SELFTESTS="bridge_vlan_aware bridge_vlan_unaware bridge_locked_port bridge_mdb
	bridge_mld bridge_vlan_mcast local_termination no_forwarding tc_actions
	test_bridge_fdb_stress bridge_sticky_fdb bridge_port_isolation bridge_igmp
	bridge_mdb_port_down router router_vid_1 router_bridge router_bridge_vlan router_broadcast"
# One line, single spaces.
read -r -a _tests <<<"$(tr '\n\t' '  ' <<<"${SELFTESTS:-$DEFAULT_SELFTESTS}")"
SELFTESTS=${_tests[*]}
SWITCHES=${SWITCHES:-switchx2 bridge rocker}
SELFTESTS_ICOUNT=${SELFTESTS_ICOUNT:-1}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-7200}
SELFTEST_TIMEOUT=${SELFTEST_TIMEOUT:-1800}
LOGS=${LOGS:-$LOGS_MAIN/selftests}
INITRAMFS=$SELFTESTS_INITRAMFS_MAIN
# Four cabled ports per switch: the 6-interface selftests need three.
ROCKER_PORTS=4

# The software bridge's cabling: four virtio NICs as bridge ports, each
# cabled through a hub of its own to a virtio "host" NIC (MACs as
# tests/selftests/run.sh expects them).
sw_bridge_args() {
	local i args=""
	for i in 1 2 3 4; do
		args+=" -netdev hubport,id=swbp$i,hubid=$((400 + i))"
		args+=" -netdev hubport,id=swbh$i,hubid=$((400 + i))"
		args+=" -device virtio-net-pci,romfile=,netdev=swbp$i,mac=52:54:00:cc:00:0$i"
		args+=" -device virtio-net-pci,romfile=,netdev=swbh$i,mac=52:54:00:cc:01:0$i"
	done
	echo "$args"
}

qemu_extra() {
	local extra
	extra="${QEMU_EXTRA:-} $(sw_bridge_args)"
	[ "$SELFTESTS_ICOUNT" = 1 ] && extra+=" -icount shift=auto,sleep=off"
	echo "$extra"
}

# Progress: the guest runner's begin/end lines, as they come.
show_progress() {
	grep -a --line-buffered -E '^selftests: (switch|begin|end|finished|error)' |
		sed -u -e 's/\r$//' -e 's/^selftests: /    /' || true
}

# run_switch SWITCH: one guest boot, every selftest against SWITCH.
run_switch() {
	local sw=$1 dir=$LOGS/$1 pid rc=0 t0
	mkdir -p "$dir"
	rm -f "$dir/guest.raw" "$dir/guest.log"
	: >"$dir/guest.raw"
	step "$sw: $(wc -w <<<"$SELFTESTS") selftests in one guest (log: $dir/guest.log)"
	t0=$(date +%s)
	LOGS=$dir INITRAMFS=$INITRAMFS ROCKER_PORTS=$ROCKER_PORTS QEMU_EXTRA="$(qemu_extra)" \
		GUEST_TIMEOUT=$GUEST_TIMEOUT \
		bash "$TOP/scripts/run-guest.sh" cmd "SELFTEST_TIMEOUT=$SELFTEST_TIMEOUT bash /tests/selftests/run.sh $sw $SELFTESTS" \
		</dev/null >"$dir/guest.raw" 2>&1 &
	pid=$!
	tail -n +1 -f --pid="$pid" "$dir/guest.raw" | show_progress
	wait "$pid" || rc=$?
	# NULs too: tc_actions' ncat echoes the 2 MB of zeros it receives.
	tr -d '\r\000' <"$dir/guest.raw" >"$dir/guest.log"
	rm -f "$dir/guest.raw"
	echo "$(($(date +%s) - t0))" >"$dir/seconds"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "    $sw: guest killed after $GUEST_TIMEOUT s" | tee -a "$dir/guest.log"
	elif ! grep -q '^selftests: finished' "$dir/guest.log"; then
		echo "    $sw: guest stopped before the selftests finished (exit $rc)" |
			tee -a "$dir/guest.log"
	fi
	echo "    $sw: $(cat "$dir/seconds") s"
}

# The kernel under test must have what the selftests need: every option
# of kconfig-fragments/selftests.config as the fragment asks (the kernel
# build checks this too; this catches a kernel built without the fragment).
verify_kernel_config() {
	local cfg=${KERNEL_OUT:-$KBUILD_MAIN}/.config bad
	[ -f "$cfg" ] || die "$cfg missing: run 'make kernel'"
	bad=$(kconfig_mismatches "$cfg" "$TOP/kconfig-fragments/selftests.config")
	if [ -n "$bad" ]; then
		sed 's/^/  /' <<<"$bad" >&2
		die "kernel config: $(wc -l <<<"$bad") option(s) the selftests need are not set"
	fi
	echo "kernel config: every option of kconfig-fragments/selftests.config is set"
}

main() {
	local sw t0 rc=0
	for sw in $SWITCHES; do
		case $sw in
		switchx2 | bridge | rocker) ;;
		*) die "unknown switch '$sw' (switchx2, bridge, rocker)" ;;
		esac
	done
	[ -f "$INITRAMFS" ] || die "$INITRAMFS missing: run scripts/build-initramfs-selftests.sh"
	verify_kernel_config
	mkdir -p "$LOGS"
	t0=$(date +%s)
	for sw in $SWITCHES; do
		run_switch "$sw"
	done
	step "table: $LOGS/table.txt"
	local -a expected=(--expected "$TOP/tests/selftests/expected.txt")
	[ -z "$LINUX_SUFFIX" ] || [ ! -f "$TOP/tests/selftests/expected$LINUX_SUFFIX.txt" ] ||
		expected+=(--expected "$TOP/tests/selftests/expected$LINUX_SUFFIX.txt")
	# shellcheck disable=SC2086 # SWITCHES is a list of words
	python3 "$TOP/scripts/selftests-table.py" "${expected[@]}" \
		--reference rocker --logs "$LOGS" --out "$LOGS/table.txt" $SWITCHES || rc=$?
	echo "selftests: $(($(date +%s) - t0)) s wall for ${SWITCHES// /, }" | tee -a "$LOGS/table.txt"
	return "$rc"
}

main
