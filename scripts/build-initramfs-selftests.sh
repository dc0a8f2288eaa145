#!/usr/bin/env bash
# Build build/initramfs-selftests.cpio.gz: the normal guest initramfs plus
# what the kernel's forwarding selftests need, so that the normal one
# stays lean. The kernel unpacks concatenated archives in order, so this
# is the normal archive followed by a second one holding:
#   - tc, jq, mausezahn, tcpdump, ncat, socat, smcrouted, smcroutectl,
#     pkill (router.sh stops smcrouted with it), teamd (6.12's LAG
#     selftests' team_create), GNU date (lib.sh's busywait
#     needs date +%s%3N, which busybox's date lacks), GNU dd, timeout,
#     readlink (6.12's lib.sh: readlink -e), comm (ethtool_lib.sh) and
#     seq (bridge_mdb_max),
#     with their libraries, and /sbin/modprobe for the kernel's on-demand
#     loading;
#   - for a kernel whose selftests need a newer iproute2 than the host's
#     (versions.env), that iproute2's ip, bridge and tc in place of the
#     normal archive's (scripts/fetch-iproute2.sh);
#   - the tree's uapi ethtool.h as /usr/include/linux/ethtool.h, which
#     ethtool_lib.sh reads its link modes from;
#   - tools/testing/selftests/net/forwarding and drivers/net/dsa (and on
#     6.12 net/lib.sh and drivers/net/hw) from the kernel tree the series
#     is applied to (build/linux, build/linux-6.12), so the tests match
#     the kernel under test;
#   - tests/selftests/ (the guest runner) and its msend/mreceive
#     stand-ins in /selftests/bin.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TREE=${KERNEL_TREE:-$KERNEL_TREE_MAIN}
BASE=${BASE_INITRAMFS:-$INITRAMFS_MAIN}
OUT=${SELFTESTS_INITRAMFS:-$SELFTESTS_INITRAMFS_MAIN}
ROOT=$OUT.root
KSFT=$TREE/tools/testing/selftests
TOOLS=(tc jq mausezahn tcpdump ncat socat smcrouted smcroutectl pkill teamd)

[ -f "$BASE" ] || die "$BASE missing: run scripts/build-initramfs.sh"
[ -d "$KSFT/net/forwarding" ] || die "no selftests in $KSFT: run scripts/prepare-kernel-tree.sh"

# Copy a dynamically linked binary and every library it needs.
copy_with_libs() {
	local bin=$1 dest=$2 lib
	mkdir -p "$ROOT$(dirname "$dest")"
	cp -L "$bin" "$ROOT$dest"
	for lib in $(ldd "$bin" | grep -oE '/[^ ]+'); do
		mkdir -p "$ROOT$(dirname "$lib")"
		[ -e "$ROOT$lib" ] || cp -L "$lib" "$ROOT$lib"
	done
	! ldd "$bin" | grep -q 'not found' || die "$bin: $(ldd "$bin" | grep 'not found' | head -n1)"
}

copy_tools() {
	local t path
	for t in "${TOOLS[@]}"; do
		path=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$t") ||
			die "$t not found: run scripts/install-deps-selftests.sh"
		copy_with_libs "$path" "/usr/sbin/$t"
	done
	# /usr/bin comes before busybox's /bin in the guest's PATH. GNU dd:
	# tc_actions writes its test file with conv=sparse.
	copy_with_libs /bin/date /usr/bin/date
	copy_with_libs /bin/dd /usr/bin/dd
	# GNU timeout kills the whole process group of a selftest that runs
	# too long (tests/selftests/run.sh); busybox's kills its child only.
	copy_with_libs /usr/bin/timeout /usr/bin/timeout
	copy_with_libs /usr/bin/readlink /usr/bin/readlink
	copy_with_libs /usr/bin/comm /usr/bin/comm
	# bridge_mdb_max: seq -f (busybox's seq has no -f).
	copy_with_libs /usr/bin/seq /usr/bin/seq
	# The kernel loads modules on demand (tc actions, act_ct's conntrack
	# and crc32c) through CONFIG_MODPROBE_PATH, /sbin/modprobe; the normal
	# archive has busybox's applets in /bin only.
	mkdir -p "$ROOT/sbin"
	ln -s /bin/busybox "$ROOT/sbin/modprobe"
	ln -s ping "$ROOT/usr/sbin/ping6"
}

# The newer iproute2, where this kernel's selftests need one; the normal
# archive has the host's in /usr/sbin.
copy_iproute2() {
	local dir t
	dir=$(bash "$TOP/scripts/fetch-iproute2.sh")
	[ -n "$dir" ] || return 0
	for t in ip bridge tc; do
		copy_with_libs "$(find "$dir/bin" "$dir/sbin" -maxdepth 1 -name "$t" -type f | head -n1)" \
			"/usr/sbin/$t"
	done
	echo "iproute2: $("$ROOT/usr/sbin/ip" -V) (from $dir)"
}

copy_selftests() {
	mkdir -p "$ROOT/selftests/net" "$ROOT/selftests/drivers/net" "$ROOT/selftests/bin"
	cp -a "$KSFT/net/forwarding" "$ROOT/selftests/net/"
	# Its scripts are symlinks into net/forwarding; cp -a keeps them so.
	cp -a "$KSFT/drivers/net/dsa" "$ROOT/selftests/drivers/net/"
	# 6.12: forwarding/lib.sh sources ../lib.sh, and the ethtool and
	# hw_stats_l3 tests moved to drivers/net/hw (their links point back
	# into net/forwarding).
	[ ! -f "$KSFT/net/lib.sh" ] || cp -a "$KSFT/net/lib.sh" "$ROOT/selftests/net/"
	[ ! -d "$KSFT/drivers/net/hw" ] || cp -a "$KSFT/drivers/net/hw" "$ROOT/selftests/drivers/net/"
	install -m 0755 "$TOP/tests/selftests/bin/"* "$ROOT/selftests/bin/"
	install -D -m 0644 "$TREE/include/uapi/linux/ethtool.h" "$ROOT/usr/include/linux/ethtool.h"
	mkdir -p "$ROOT/tests"
	cp -r "$TOP/tests/selftests" "$ROOT/tests/"
}

step "assembling the selftests overlay in $ROOT"
rm -rf "$ROOT"
mkdir -p "$ROOT/etc"
copy_tools
copy_iproute2
copy_selftests
# Debian's tcpdump drops to its own user unless told -Z (run.sh makes
# lib.sh say -Z root): the user exists either way. These files replace
# the normal archive's.
printf '%s\n' "root:x:0:0:root:/root:/bin/sh" \
	"tcpdump:x:101:101:tcpdump:/nonexistent:/usr/sbin/nologin" >"$ROOT/etc/passwd"
printf '%s\n' "root:x:0:" "tcpdump:x:101:" >"$ROOT/etc/group"

step "packing $OUT (normal initramfs + overlay)"
(cd "$ROOT" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$OUT.overlay"
cat "$BASE" "$OUT.overlay" >"$OUT.tmp"
rm -f "$OUT.overlay"
mv "$OUT.tmp" "$OUT"
echo "initramfs: $OUT ($(du -h "$OUT" | cut -f1))"
