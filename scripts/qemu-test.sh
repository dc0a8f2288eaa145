#!/usr/bin/env bash
# Boot the guest in test mode and judge the run: the guest's TAP, plus the
# harness's own verdicts (the guest finished; the kernel log is clean),
# plus the host-side checks of the SwitchX-2 model (scripts/host-checks.sh:
# the qtest and the fuzz regression cases of qemu/tests/). QEMU (default
# build/qemu/qemu-system-x86_64) is the binary both use; make qemu-test
# SANITIZE=1 points it at the ASan/UBSan build and sets SANITIZER_LOG_DIR.
# Ends with "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

LOGS=${LOGS:-$BUILD/logs}
export LOGS
# What must never appear in the kernel log of a good run.
BAD_KERNEL_LOG='Oops|Kernel panic|BUG:|WARNING:|KASAN|UBSAN|general protection fault|Call Trace|RIP:'

qrc=0
bash "$TOP/scripts/run-guest.sh" test || qrc=$?

console=$LOGS/console.log
tap=$LOGS/tap.log
[ -f "$console" ] || die "no console log: QEMU did not start (exit $qrc)"
tr -d '\r' <"$console" >"$console.txt"
tr -d '\r' <"$tap" >"$tap.txt"

passed=$(grep -c '^ok ' "$tap.txt" || true)
failed=$(grep -c '^not ok ' "$tap.txt" || true)
n=$((passed + failed))
harness_fail=()
. "$TOP/scripts/host-checks.sh"

finished=1
grep -q '^# harness: tests finished' "$tap.txt" && finished=0
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	reason="guest hung: killed after ${GUEST_TIMEOUT:-1800} s"
elif grep -q 'Kernel panic' "$console.txt"; then
	reason="kernel panic: $(grep -m1 'Kernel panic' "$console.txt")"
else
	reason="guest stopped before the tests finished (QEMU exit $qrc)"
fi
harness_check "harness: guest ran every test and powered off" "$finished" "$reason"

clean=0
grep -Eq "$BAD_KERNEL_LOG" "$console.txt" && clean=1
harness_check "harness: kernel log has no oops, panic, BUG, WARNING or KASAN report" "$clean" \
	"$(grep -Em3 "$BAD_KERNEL_LOG" "$console.txt" | tr '\n' ' ')"

# The model refuses, with an EMAD error status, every register value the
# silicon does not support: a driver that uses only what SwitchX-2 has
# never sees one.
# Faults the tests inject on purpose (tests/cases/60-switchx2-faults.sh)
# sit between markers and do not count.
refusals=$(awk '/harness: fault injection begins/ { f = 1 }
	/harness: fault injection ends/ { f = 0 }
	/harness: case / { c = $NF }
	!f && /reg access failed/ { print "[" c "] " $0 }' "$console.txt")
refused=$(printf '%s' "$refusals" | grep -c . || true)
harness_check "harness: the device refused no register access" "$((refused > 0))" \
	"$refused refused outside fault injection, see $console: $(printf '%s\n' "$refusals" | head -3 | tr '\n' ' ')"

# The host side: the model's qtest and fuzz regression cases, and the
# sanitizer verdict when QEMU is the ASan/UBSan build.
QEMU=${QEMU:-$BUILD/qemu/qemu-system-x86_64}
host_checks

echo "# console log: $console"
if [ "$failed" -gt 0 ]; then
	echo "# failed:"
	grep '^not ok ' "$tap.txt" | sed 's/^/#   /' || true
	for f in "${harness_fail[@]}"; do
		echo "#   $f"
	done
	if [ "$clean" -ne 0 ]; then
		echo "# kernel log around the first report:"
		grep -Em1 -B5 -A30 "$BAD_KERNEL_LOG" "$console.txt" | sed 's/^/#   /' || true
	fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
