#!/usr/bin/env bash
# Boot the guest in test mode and judge the run: the guest's TAP, plus the
# harness's own verdicts (the guest finished; the kernel log is clean).
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

# harness_check DESCRIPTION CONDITION-STATUS [REASON]
harness_check() {
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok $n harness: $1"
		passed=$((passed + 1))
	else
		echo "not ok $n harness: $1"
		echo "#   $3"
		failed=$((failed + 1))
		harness_fail+=("$1: $3")
	fi
}

finished=1
grep -q '^# harness: tests finished' "$tap.txt" && finished=0
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	reason="guest hung: killed after ${GUEST_TIMEOUT:-900} s"
elif grep -q 'Kernel panic' "$console.txt"; then
	reason="kernel panic: $(grep -m1 'Kernel panic' "$console.txt")"
else
	reason="guest stopped before the tests finished (QEMU exit $qrc)"
fi
harness_check "guest ran every test and powered off" "$finished" "$reason"

clean=0
grep -Eq "$BAD_KERNEL_LOG" "$console.txt" && clean=1
harness_check "kernel log has no oops, panic, BUG, WARNING or KASAN report" "$clean" \
	"$(grep -Em3 "$BAD_KERNEL_LOG" "$console.txt" | tr '\n' ' ')"

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
