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

LOGS=${LOGS:-$LOGS_MAIN}
export LOGS
# What must never appear in the kernel log of a good run.
BAD_KERNEL_LOG='Oops|Kernel panic|BUG:|WARNING:|KASAN|UBSAN|general protection fault|Call Trace|RIP:'

# GUEST_SHARDS=N splits the guest cases over N guests that run at once,
# each in LOGS/guestK; 1: one guest, logs in LOGS itself. The default is
# 2 where there are 2 cores or more: each TCG guest keeps about one busy.
if [ -z "${GUEST_SHARDS:-}" ]; then
	GUEST_SHARDS=1
	[ "$(nproc)" -lt 2 ] || GUEST_SHARDS=2
fi
[[ "$GUEST_SHARDS" =~ ^[1-9][0-9]*$ ]] || die "GUEST_SHARDS must be a positive number"

# shard_filters N: N GUEST_TEST_FILTER regexps, one per line, that deal
# the selected cases out in turn (file order: the long ones are spread)
shard_filters() {
	local shards=$1 i=0 name
	local -a parts=()
	for f in "$TOP"/tests/cases/*.sh; do
		name=${f##*/}
		grep -Eq -- "${GUEST_TEST_FILTER:-.}" <<<"$name" || continue
		parts[i % shards]+="${parts[i % shards]:+|}${name//./\\.}"
		i=$((i + 1))
	done
	for ((i = 0; i < shards; i++)); do
		echo "^(${parts[i]:-no-case})\$"
	done
}

n=0
passed=0
failed=0
harness_fail=()
. "$TOP/scripts/host-checks.sh"

# judge_guest DIR QEMU_RC SHOWN [LABEL]: count the TAP of one guest (and
# print it, renumbered, unless SHOWN: it was printed as it ran), then the
# harness's verdicts on its run
judge_guest() {
	local dir=$1 qrc=$2 shown=$3 label=${4:-} console tap line desc finished clean reason refusals refused
	console=$dir/console.log
	tap=$dir/tap.log
	if [ ! -f "$console" ]; then
		harness_check "harness: guest${label} started" 1 "no console log: QEMU did not start (exit $qrc)"
		return
	fi
	tr -d '\r' <"$console" >"$console.txt"
	tr -d '\r' <"$tap" >"$tap.txt"
	while IFS= read -r line; do
		desc=$(sed -E 's/^(not )?ok [0-9]+ //' <<<"$line")
		if [ "$shown" -eq 0 ]; then
			case "$line" in
			"ok "*) harness_check "$desc" 0 "" ;;
			*) harness_check "$desc" 1 "$(grep -A1 -xF -- "$line" "$tap.txt" |
				sed -n '2s/^#[[:space:]]*//p')" ;;
			esac
			continue
		fi
		n=$((n + 1))
		case "$line" in
		"ok "*) passed=$((passed + 1)) ;;
		*)
			failed=$((failed + 1))
			harness_fail+=("$desc")
			;;
		esac
	done < <(grep -E '^(ok|not ok) ' "$tap.txt" || true)

	finished=1
	grep -q '^# harness: tests finished' "$tap.txt" && finished=0
	if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
		reason="guest hung: killed after ${GUEST_TIMEOUT:-1800} s"
	elif grep -q 'Kernel panic' "$console.txt"; then
		reason="kernel panic: $(grep -m1 'Kernel panic' "$console.txt")"
	else
		reason="guest stopped before the tests finished (QEMU exit $qrc)"
	fi
	harness_check "harness: guest${label} ran every test and powered off" "$finished" "$reason"

	clean=0
	grep -Eq "$BAD_KERNEL_LOG" "$console.txt" && clean=1
	harness_check "harness: kernel log${label} has no oops, panic, BUG, WARNING or KASAN report" "$clean" \
		"$(grep -Em3 "$BAD_KERNEL_LOG" "$console.txt" | tr '\n' ' ')"
	if [ "$clean" -ne 0 ]; then
		echo "# kernel log around the first report (see $console):"
		grep -Em1 -B5 -A30 "$BAD_KERNEL_LOG" "$console.txt" | sed 's/^/#   /' || true
	fi

	# The model refuses, with an EMAD error status, every register value
	# the silicon does not support: a driver that uses only what SwitchX-2
	# has never sees one. Faults the tests inject on purpose
	# (tests/cases/60-switchx2-faults.sh) sit between markers and do not
	# count.
	refusals=$(awk '/harness: fault injection begins/ { f = 1 }
		/harness: fault injection ends/ { f = 0 }
		/harness: case / { c = $NF }
		!f && /reg access failed/ { print "[" c "] " $0 }' "$console.txt")
	refused=$(printf '%s' "$refusals" | grep -c . || true)
	harness_check "harness: the device refused no register access${label}" "$((refused > 0))" \
		"$refused refused outside fault injection, see $console: $(printf '%s\n' "$refusals" | head -3 | tr '\n' ' ')"
	echo "# console log${label}: $console"
}

if [ "$GUEST_SHARDS" -eq 1 ]; then
	qrc=0
	bash "$TOP/scripts/run-guest.sh" test || qrc=$?
	judge_guest "$LOGS" "$qrc" 1
else
	mapfile -t filters < <(shard_filters "$GUEST_SHARDS")
	pids=()
	for ((k = 1; k <= GUEST_SHARDS; k++)); do
		mkdir -p "$LOGS/guest$k"
		echo "# guest $k of $GUEST_SHARDS: $(tr -d '^()$\\' <<<"${filters[k - 1]}" | tr '|' ' ')"
		LOGS=$LOGS/guest$k GUEST_TEST_FILTER=${filters[k - 1]} \
			bash "$TOP/scripts/run-guest.sh" test >"$LOGS/guest$k/guest.out" 2>&1 &
		pids+=($!)
	done
	for ((k = 1; k <= GUEST_SHARDS; k++)); do
		qrc=0
		wait "${pids[k - 1]}" || qrc=$?
		judge_guest "$LOGS/guest$k" "$qrc" 0 " $k"
	done
fi

# The host side: the model's qtest and fuzz regression cases, and the
# sanitizer verdict when QEMU is the ASan/UBSan build.
# HOST_CHECKS=0 leaves them out: they do not depend on the guest kernel,
# so a run for a second kernel (.ci/run) need not repeat them.
QEMU=${QEMU:-$BUILD/qemu/qemu-system-x86_64}
[ "${HOST_CHECKS:-1}" = 0 ] || host_checks

if [ "$failed" -gt 0 ]; then
	echo "# failed:"
	for f in "${harness_fail[@]}"; do
		echo "#   $f"
	done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
