#!/bin/sh
# Guest test runner: every tests/cases/*.sh in order, TAP on stdout.
. /tests/lib.sh

echo "TAP version 13"
for t in /tests/cases/*.sh; do
	if ! echo "${t##*/}" | grep -Eq "${GUEST_TEST_FILTER:-.}"; then
		echo "# case: ${t##*/} not selected by GUEST_TEST_FILTER"
		continue
	fi
	echo "# case: ${t##*/}"
	# The same line in the kernel log ties what the kernel says to a case.
	echo "harness: case ${t##*/}" >/dev/kmsg
	sh "$t"
	rc=$?
	[ $rc -eq 0 ] || not_ok "${t##*/} ran to completion" "exit status $rc"
done
total=$(cat "$TAP_COUNTER" 2>/dev/null || echo 0)
echo "1..$total"
echo "# harness: tests finished"
