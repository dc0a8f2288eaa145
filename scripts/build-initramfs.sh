#!/usr/bin/env bash
# Build the guest initramfs: busybox-static, iproute2's ip/bridge/devlink/tc,
# ethtool, ping, iperf3, jq, mausezahn (make bench's frame generator), teamnl,
# with their shared libraries, the tests' own helpers (tests/tools/), the
# kernel's modules and tests/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# KERNEL_OUT and INITRAMFS select another kernel build and archive.
KBUILD=${KERNEL_OUT:-$KBUILD_MAIN}
OUT=${INITRAMFS:-$INITRAMFS_MAIN}
ROOT=$OUT.root
# iproute2, ethtool and iputils' ping (busybox's has no -M) replace
# busybox's applets of the same name. dash is
# /bin/sh: Debian's busybox sh runs its own applets before PATH, which
# would shadow iproute2. bash is the interactive shell of `make run`.
TOOLS=(ip bridge devlink tc ethtool ping iperf3 jq mausezahn teamnl)
SHELLS=(dash bash)

[ -d "$KBUILD/modules-install/lib/modules" ] || die "no kernel modules: run scripts/build-kernel.sh"
[ -x /bin/busybox ] || die "busybox-static not installed: run scripts/install-deps.sh"

step "assembling initramfs in $ROOT"
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,run,tmp,var,root,lib,lib64}
ln -s ../run "$ROOT/var/run"

cp /bin/busybox "$ROOT/bin/busybox"
for applet in $("$ROOT/bin/busybox" --list); do
	[ -e "$ROOT/bin/$applet" ] || ln -s busybox "$ROOT/bin/$applet"
done
for t in "${TOOLS[@]}" sh; do
	rm -f "$ROOT/bin/$t"
done

# Copy a dynamically linked binary and every library it needs.
copy_with_libs() {
	local bin=$1 dest=$2 lib
	cp -L "$bin" "$ROOT$dest"
	for lib in $(ldd "$bin" | grep -oE '/[^ ]+'); do
		mkdir -p "$ROOT$(dirname "$lib")"
		[ -e "$ROOT$lib" ] || cp -L "$lib" "$ROOT$lib"
	done
}

for t in "${TOOLS[@]}"; do
	path=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$t") || die "$t not found: run scripts/install-deps.sh"
	copy_with_libs "$path" "/usr/sbin/$t"
done
for sh in "${SHELLS[@]}"; do
	copy_with_libs "/bin/$sh" "/bin/$sh"
done
ln -s dash "$ROOT/bin/sh"

# The tests' own helpers (tests/tools/*.c), static: what Debian's tools
# cannot do yet.
for src in "$TOP"/tests/tools/*.c; do
	gcc -static -O2 -Wall -o "$ROOT/usr/sbin/$(basename "$src" .c)" "$src" ||
		die "cannot build $src"
done

mkdir -p "$ROOT/etc/iproute2"
cp -r /etc/iproute2/. "$ROOT/etc/iproute2/" 2>/dev/null || true

cp -a "$KBUILD/modules-install/lib/modules" "$ROOT/lib/"

mkdir -p "$ROOT/tests"
cp -r "$TOP/tests/." "$ROOT/tests/"
install -m 0755 "$TOP/tests/init" "$ROOT/init"
echo "root:x:0:0:root:/root:/bin/sh" >"$ROOT/etc/passwd"

step "packing $OUT"
(cd "$ROOT" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "initramfs: $OUT ($(du -h "$OUT" | cut -f1))"
