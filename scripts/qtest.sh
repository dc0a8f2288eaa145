#!/usr/bin/env bash
# The model's host-side checks alone, no guest kernel: the qtest and the
# fuzz regression cases (scripts/host-checks.sh) against QEMU (default
# build/qemu/qemu-system-x86_64), and, when SANITIZER_LOG_DIR is set
# (make qtest SANITIZE=1), the verdict on the sanitizer reports.
# Prints TAP and ends with "N passed, N failed"; exits non-zero on any
# failure. Logs in LOGS (default build/logs).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

LOGS=${LOGS:-$LOGS_MAIN}
QEMU=${QEMU:-$BUILD/qemu/qemu-system-x86_64}
[ -x "$QEMU" ] || die "$QEMU missing: run 'make qemu' (or 'make qemu-asan')"
mkdir -p "$LOGS"

n=0 passed=0 failed=0
harness_fail=()
. "$TOP/scripts/host-checks.sh"

start=$(date +%s)
host_checks
echo "# QEMU: $QEMU, $(($(date +%s) - start)) s"
if [ "$failed" -gt 0 ]; then
	echo "# failed:"
	for f in "${harness_fail[@]}"; do
		echo "#   $f"
	done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
