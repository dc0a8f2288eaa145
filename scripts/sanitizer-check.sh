#!/usr/bin/env bash
# Judge the sanitizer reports of a run against the ASan/UBSan QEMU.
# ASAN_OPTIONS/UBSAN_OPTIONS log_path=DIR/... (see the Makefile's
# SANITIZE=1 block) give every QEMU process that reports a file of its
# own in DIR; QEMU aborts at the first report.
#   sanitizer-check.sh DIR
# Prints every report to stdout and exits 1 if there is any, 0 if none.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DIR=${1:-}
[ -n "$DIR" ] || die "usage: $0 SANITIZER-LOG-DIR"
[ -d "$DIR" ] || die "$DIR missing: sanitizer reports had nowhere to go"

REPORT='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|SUMMARY: (Address|Undefined|Leak)'
mapfile -t files < <(find "$DIR" -type f -size +0 | sort)
bad=()
for f in "${files[@]}"; do
	grep -Eq "$REPORT" "$f" && bad+=("$f")
done
if [ "${#bad[@]}" -eq 0 ]; then
	echo "sanitizers: no report in $DIR"
	exit 0
fi
echo "sanitizers: ${#bad[@]} QEMU process(es) reported:"
for f in "${bad[@]}"; do
	echo "===== $f"
	cat "$f"
done
exit 1
