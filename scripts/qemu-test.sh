#!/usr/bin/env bash
# Boot the guest in test mode and judge the run: the guest's TAP, plus the
# harness's own verdicts (the guest finished; the kernel log is clean),
# plus the host-side qtest of the SwitchX-2 model (qemu/tests/).
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
		echo "ok $n $1"
		passed=$((passed + 1))
	else
		echo "not ok $n $1"
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
refused=$(awk '/harness: fault injection begins/ { f = 1 }
	/harness: fault injection ends/ { f = 0 }
	!f && /reg access failed/ { n++ } END { print n + 0 }' "$console.txt")
harness_check "harness: the device refused no register access" "$((refused > 0))" \
	"$refused refused outside fault injection, see $console"

# The model's qtest drives the device with no guest kernel, including
# malformed input; its "ok"/"FAIL" lines become TAP lines.
qtest_rc=0
qtest_out=$(python3 "$TOP/qemu/tests/sx2_qtest.py" "$BUILD/qemu/qemu-system-x86_64" \
	2>"$LOGS/qtest.log") || qtest_rc=$?
echo "# qtest: qemu/tests/sx2_qtest.py (protocol log: $LOGS/qtest.log)"
qtest_failed=0
while IFS= read -r line; do
	case "$line" in
	"ok   "*)
		harness_check "qtest: ${line#ok   }" 0 ""
		;;
	"FAIL "*)
		harness_check "qtest: ${line#FAIL }" 1 "see $LOGS/qtest.log"
		qtest_failed=1
		;;
	esac
done <<<"$qtest_out"
if [ "$qtest_rc" -ne 0 ] && [ "$qtest_failed" -eq 0 ]; then
	harness_check "qtest ran to completion" 1 "exit status $qtest_rc, see $LOGS/qtest.log"
fi

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
