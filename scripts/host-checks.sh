# shellcheck shell=bash
# TAP bookkeeping and the model's host-side checks, shared by
# qemu-test.sh (after the guest run) and qtest.sh (no guest). Source,
# do not execute. The caller sets TOP, LOGS and QEMU, and the counters:
#   n=0 passed=0 failed=0 harness_fail=()

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

# py_checks NAME SCRIPT LOG: run a Python check script of qemu/tests/
# against $QEMU, its stderr (QEMU's) to LOG; each "ok   X" / "FAIL X" line
# it prints becomes the TAP line "NAME: X". A script that stops early
# without a FAIL line is a failure of its own.
py_checks() {
	local name=$1 script=$2 log=$3 out rc=0 any_fail=0 line
	out=$(python3 "$script" "$QEMU" 2>"$log") || rc=$?
	echo "# $name: ${script#"$TOP"/} (log: $log)"
	while IFS= read -r line; do
		case "$line" in
		"ok   "*)
			harness_check "$name: ${line#ok   }" 0 ""
			;;
		"FAIL "*)
			harness_check "$name: ${line#FAIL }" 1 "see $log"
			any_fail=1
			;;
		esac
	done <<<"$out"
	if [ "$rc" -ne 0 ] && [ "$any_fail" -eq 0 ]; then
		harness_check "$name ran to completion" 1 "exit status $rc, see $log"
	fi
}

# The model's qtest drives the device with no guest kernel, including
# malformed input; the fuzz regression cases replay what crashed or hung
# QEMU under the fuzzers (make fuzz). Against the ASan/UBSan QEMU
# (SANITIZER_LOG_DIR set: make qemu-test SANITIZE=1, make qtest
# SANITIZE=1), one more check: no QEMU process of the run, guest or
# qtest, made a sanitizer report.
host_checks() {
	py_checks qtest "$TOP/qemu/tests/sx2_qtest.py" "$LOGS/qtest.log"
	py_checks fuzz-regress "$TOP/qemu/tests/sx2_fuzz_regress.py" "$LOGS/fuzz-regress.log"
	if [ -n "${SANITIZER_LOG_DIR:-}" ]; then
		local st=0
		bash "$TOP/scripts/sanitizer-check.sh" "$SANITIZER_LOG_DIR" >"$LOGS/sanitizer.txt" || st=$?
		harness_check "harness: QEMU made no ASan/UBSan report" "$st" \
			"$(head -n1 "$LOGS/sanitizer.txt"), see $LOGS/sanitizer.txt"
	fi
}
