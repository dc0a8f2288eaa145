#!/usr/bin/env bash
# Boot the guest under TCG with the switches of scripts/topology.sh cabled
# to virtio-net host NICs.
#   run-guest.sh test          tests; console and TAP logs in build/logs/
#   run-guest.sh cmd 'CMD'     run CMD in the guest, output on stdout
#   run-guest.sh shell         interactive guest shell on this terminal
# QEMU answers QMP on $LOGS/qmp.sock, and guest tests reach it through the
# third serial port (/dev/ttyS2), relayed by scripts/host-agent.py.
# Environment: GUEST_TIMEOUT (seconds, default 1800) kills a hung guest;
# QEMU_EXTRA adds QEMU arguments; QEMU selects another QEMU binary (make
# qemu-test SANITIZE=1: the ASan/UBSan one); KERNEL_OUT and INITRAMFS
# select another kernel build (see scripts/test-linux-5.10.sh); LOGS
# another log folder;
# GUEST_TEST_FILTER (an extended regex) picks the test cases to run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/topology.sh"

MODE=${1:-shell}
CMD=${2:-}
QEMU=${QEMU:-$BUILD/qemu/qemu-system-x86_64}
KERNEL=${KERNEL_OUT:-$KBUILD_MAIN}/arch/x86/boot/bzImage
INITRAMFS=${INITRAMFS:-$INITRAMFS_MAIN}
LOGS=${LOGS:-$LOGS_MAIN}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-1800}

for f in "$QEMU" "$KERNEL" "$INITRAMFS"; do
	[ -e "$f" ] || die "$f missing: run 'make' first"
done
case "$MODE" in
test | shell) ;;
cmd) [ -n "$CMD" ] || die "cmd mode needs a command" ;;
*) die "unknown mode '$MODE' (test, cmd or shell)" ;;
esac

mkdir -p "$LOGS"

# The per-boot part of the initramfs: mode, command, topology facts. The
# kernel unpacks concatenated archives in order, so this one is appended.
make_harness_archive() {
	local dir=$LOGS/harness-overlay
	rm -rf "$dir"
	mkdir -p "$dir/harness"
	echo "$MODE" >"$dir/harness/mode"
	printf '%s\n' "$CMD" >"$dir/harness/cmd"
	topology_guest_env >"$dir/harness/env"
	printf "GUEST_TEST_FILTER='%s'\n" "${GUEST_TEST_FILTER:-.}" >>"$dir/harness/env"
	(cd "$dir" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$LOGS/harness.cpio.gz"
	cat "$INITRAMFS" "$LOGS/harness.cpio.gz" >"$LOGS/initrd.img"
}

make_harness_archive
topology_qemu_args

QMP_SOCK=$LOGS/qmp.sock
HOSTCTL_SOCK=$LOGS/hostctl.sock
rm -f "$QMP_SOCK" "$HOSTCTL_SOCK"

# bonding.max_bonds=0: the built-in bonding driver creates no bond0 of
# its own; tests name their bonds. slub_debug=a,skbuff_head_cache: the
# skb cache is the one failslab may fail (tests/cases/62-*), when armed.
QEMU_ARGS=(
	-M pc -accel tcg -smp 1 -m 1G
	-L /usr/share/qemu -L /usr/share/seabios
	-no-reboot
	-kernel "$KERNEL" -initrd "$LOGS/initrd.img"
	-append "console=ttyS0 panic=-1 oops=panic bonding.max_bonds=0 slub_debug=a,skbuff_head_cache ${KERNEL_EXTRA_ARGS:-}"
	-nodefaults -vga none
	"${QEMU_NET_ARGS[@]}"
)
# shellcheck disable=SC2206 # QEMU_EXTRA is meant to split into words.
QEMU_ARGS+=(${QEMU_EXTRA:-})
QEMU_ARGS+=(
	-qmp "unix:$QMP_SOCK,server=on,wait=off"
	-chardev "socket,id=hostctl,path=$HOSTCTL_SOCK,server=on,wait=off"
)

# The QMP relay for guest tests; it ends when QEMU closes its sockets.
start_host_agent() {
	python3 "$TOP/scripts/host-agent.py" "$QMP_SOCK" "$HOSTCTL_SOCK" \
		"$LOGS/host-agent.log" 2>>"$LOGS/host-agent.log" &
}

case "$MODE" in
test)
	rm -f "$LOGS/console.log" "$LOGS/tap.log"
	: >"$LOGS/tap.log"
	: >"$LOGS/host-agent.log"
	timeout -k 10 "$GUEST_TIMEOUT" "$QEMU" "${QEMU_ARGS[@]}" -display none -monitor none \
		-serial "file:$LOGS/console.log" -serial "file:$LOGS/tap.log" \
		-serial chardev:hostctl &
	qpid=$!
	start_host_agent
	# Stream the TAP as it comes; tail ends when QEMU does.
	tail -n +1 -f --pid="$qpid" "$LOGS/tap.log" | tr -d '\r' &
	tpid=$!
	rc=0
	wait "$qpid" || rc=$?
	wait "$tpid" || true
	echo "$rc" >"$LOGS/qemu.rc"
	exit "$rc"
	;;
*)
	: >"$LOGS/host-agent.log"
	start_host_agent
	exec timeout --foreground -k 10 "$GUEST_TIMEOUT" "$QEMU" "${QEMU_ARGS[@]}" -nographic \
		-serial mon:stdio -serial null -serial chardev:hostctl
	;;
esac
