#!/usr/bin/env bash
# Run the SwitchX-2 fuzz targets of build/qemu-fuzz/qemu-fuzz-x86_64
# (scripts/build-qemu-variant.sh fuzz builds it) for SECONDS each:
#
#   generic-fuzz   QEMU's generic target over the device's BAR0, its PCI
#                  configuration space and the DMA it does
#   switchx2-fuzz  qemu/fuzz/switchx2_fuzz.c: driver bring-up, then
#                  commands, registers, EMADs, CPU TX, ingress frames,
#                  doorbells, clock and resets
#
#   fuzz.sh [SECONDS]      default $FUZZ_SECONDS or 60
#
# Corpora persist in build/fuzz/corpus/TARGET/; crash, hang and OOM
# inputs land in build/fuzz/crashes/TARGET/, logs in build/fuzz/logs/.
# Prints executions, time and coverage (libFuzzer's "cov:" edges) per
# target; exits non-zero if any target crashed, hung, ran out of memory
# or did not run. Environment: FUZZ_TARGETS (default both),
# FUZZ_TIMEOUT (seconds one input may take, default 10), FUZZ_ARGS (more
# libFuzzer options, e.g. -seed=1 or -jobs=2).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SECONDS_EACH=${1:-${FUZZ_SECONDS:-60}}
TARGETS=${FUZZ_TARGETS:-generic-fuzz switchx2-fuzz}
TIMEOUT=${FUZZ_TIMEOUT:-10}
BIN=$BUILD/qemu-fuzz/qemu-fuzz-x86_64
FUZZ=$BUILD/fuzz
DICT=$TOP/qemu/fuzz/switchx2.dict

[[ "$SECONDS_EACH" =~ ^[1-9][0-9]*$ ]] || die "FUZZ_SECONDS must be a positive integer, not '$SECONDS_EACH'"
[[ "$TIMEOUT" =~ ^[1-9][0-9]*$ ]] || die "FUZZ_TIMEOUT must be a positive integer, not '$TIMEOUT'"
[ -x "$BIN" ] || die "$BIN missing: run 'make qemu-fuzz' (or 'make fuzz')"

# The device as the guest tests cable it, minus the guest: ports on hubs.
GENERIC_ARGS="-machine pc -m 64M -nodefaults -display none"
GENERIC_ARGS+=" -L /usr/share/seabios -L /usr/share/qemu"
for i in 1 2 3 4; do
	GENERIC_ARGS+=" -netdev hubport,id=p$i,hubid=$i"
done
GENERIC_ARGS+=" -device switchx2,id=sw,ports=6,fdb-size=16,port1=p1,port2=p2,port3=p3,port4=p4"

# Leak checking is off: each input runs in a forked child that leaves
# with _Exit(), and a check in the parent would only find QEMU's own
# start-up allocations. UBSan stops at the first report like ASan.
export ASAN_OPTIONS=${FUZZ_ASAN_OPTIONS:-detect_leaks=0:symbolize=1}
export UBSAN_OPTIONS=${FUZZ_UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer-14 || true)}

# The input children of a fuzzer process that have run longer than the
# per-input timeout. generic-fuzz's children have no timer of their own
# (its QEMU_FUZZ_TIMEOUT would end them with status 0: a swallowed hang)
# and QEMU blocks the SIGALRM libFuzzer's -timeout relies on; SIGABRT
# makes libFuzzer in the child save the input and print where it hung.
watchdog() {
	local fpid=$1 hanglog=$2 pid etimes stat comm fage seen=" " now
	while kill -0 "$fpid" 2>/dev/null; do
		fage=$(ps -o etimes= -p "$fpid" 2>/dev/null | tr -d ' ')
		[ -n "$fage" ] || break
		now=" "
		while read -r pid etimes stat comm; do
			# Live input processes only, with an age that makes sense
			[[ "$comm" == qemu-fuzz* && "$stat" != Z* ]] || continue
			((etimes > TIMEOUT + 5 && etimes <= fage)) || continue
			now+="$pid "
			# Over the limit in two scans in a row: hung
			[[ "$seen" == *" $pid "* ]] || continue
			echo "$pid $etimes" >>"$hanglog"
			kill -ABRT "$pid" 2>/dev/null || true
		done < <(ps --ppid "$fpid" -o pid=,etimes=,stat=,comm= 2>/dev/null || true)
		seen=$now
		sleep 2
	done
}

# Rename the artifact the hung child PID wrote from crash-* to hang-*.
name_hang_artifact() {
	local log=$1 pid=$2 art
	art=$(awk -v pid="$pid" '
		index($0, "==" pid "== ERROR: libFuzzer: deadly signal") { hit = 1 }
		hit && /Test unit written to / { print $NF; exit }' "$log")
	if [ -n "$art" ] && [ -f "$art" ]; then
		mv "$art" "$(dirname "$art")/hang-${art##*/crash-}"
	fi
}

run_target() {
	local target=$1 corpus=$FUZZ/corpus/$1 crashes=$FUZZ/crashes/$1
	local log=$FUZZ/logs/$1.log hanglog=$FUZZ/logs/$1.hangs
	local args=() envs=() fpid wpid rc=0 start secs execs cov hangs=0 pid
	mkdir -p "$corpus" "$crashes" "$FUZZ/logs"
	: >"$hanglog"

	case "$target" in
	generic-fuzz)
		envs+=(QEMU_FUZZ_ARGS="$GENERIC_ARGS" QEMU_FUZZ_OBJECTS='switchx2*' QEMU_FUZZ_TIMEOUT=0)
		;;
	switchx2-fuzz)
		args+=(-dict="$DICT")
		# Seeds are named by their content: rewriting them is a no-op,
		# and a corpus from before a new seed gets it.
		python3 "$TOP/qemu/fuzz/switchx2_seeds.py" "$corpus" >/dev/null ||
			die "could not write the seed corpus to $corpus"
		;;
	*) die "unknown fuzz target '$target'" ;;
	esac

	step "fuzzing $target for ${SECONDS_EACH}s (log: $log)"
	start=$(date +%s)
	# A session of its own, so that nothing it forks outlives the run.
	# shellcheck disable=SC2086 # FUZZ_ARGS is meant to split into words.
	env "${envs[@]}" setsid "$BIN" --fuzz-target="$target" -max_total_time="$SECONDS_EACH" \
		-timeout="$TIMEOUT" -rss_limit_mb=4096 -detect_leaks=0 \
		-print_final_stats=1 -artifact_prefix="$crashes/" \
		"${args[@]}" ${FUZZ_ARGS:-} "$corpus" >"$log" 2>&1 &
	fpid=$!
	watchdog "$fpid" "$hanglog" &
	wpid=$!
	# A fuzzer that overruns its time by far is stuck outside an input.
	local deadline=$((start + SECONDS_EACH + TIMEOUT + 300))
	while kill -0 "$fpid" 2>/dev/null; do
		if [ "$(date +%s)" -gt "$deadline" ]; then
			echo "error: $target still running $((SECONDS_EACH + TIMEOUT + 300))s after start: killed" >>"$log"
			kill -KILL -- "-$fpid" 2>/dev/null || true
			break
		fi
		sleep 2
	done
	wait "$fpid" || rc=$?
	wait "$wpid" 2>/dev/null || true
	kill -KILL -- "-$fpid" 2>/dev/null || true
	secs=$(($(date +%s) - start))

	while read -r pid; do
		hangs=$((hangs + 1))
		name_hang_artifact "$log" "$pid"
	done < <(cut -d' ' -f1 "$hanglog" | sort -u)

	execs=$(sed -n 's/^stat::number_of_executed_units: //p' "$log" | tail -n1)
	[ -n "$execs" ] || execs=$(grep -Eo '^#[0-9]+' "$log" | tail -n1 | tr -d '#')
	cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n1 | cut -d' ' -f2)
	local crash timeout oom leak other
	crash=$(find "$crashes" -name 'crash-*' -newermt "@$start" | wc -l)
	timeout=$(find "$crashes" \( -name 'timeout-*' -o -name 'hang-*' \) -newermt "@$start" | wc -l)
	oom=$(find "$crashes" -name 'oom-*' -newermt "@$start" | wc -l)
	leak=$(find "$crashes" -name 'leak-*' -newermt "@$start" | wc -l)
	other=$(grep -cE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$log" || true)

	printf '%-14s %8s execs %5ss  cov %6s  crashes %s  hangs %s  ooms %s  leaks %s  (exit %s)\n' \
		"$target" "${execs:-0}" "$secs" "${cov:-?}" "$crash" "$((timeout > hangs ? timeout : hangs))" \
		"$oom" "$leak" "$rc" | tee -a "$FUZZ/summary.txt"

	if [ "$rc" -ne 0 ] || [ "$crash" -gt 0 ] || [ "$timeout" -gt 0 ] || [ "$hangs" -gt 0 ] ||
		[ "$oom" -gt 0 ] || [ "$leak" -gt 0 ] || [ "$other" -gt 0 ] || [ -z "$execs" ]; then
		echo "FAIL $target: see $log; inputs in $crashes/" >&2
		grep -m5 -E 'ERROR: |runtime error:|SUMMARY:|Test unit written to|switchx2-fuzz:' "$log" |
			sed 's/^/  /' >&2 || true
		echo "  reproduce: $BIN --fuzz-target=$target INPUT" >&2
		return 1
	fi
	return 0
}

mkdir -p "$FUZZ"
echo "# $(date -u +%FT%TZ) ${SECONDS_EACH}s per target" >>"$FUZZ/summary.txt"
failed=0
for t in $TARGETS; do
	run_target "$t" || failed=$((failed + 1))
done
[ "$failed" -eq 0 ] || die "$failed fuzz target(s) failed"
echo "fuzz: no crash, hang or OOM"
