#!/usr/bin/env bash
# Build qemu-system-x86_64 from Debian's QEMU source with the SwitchX-2
# model from qemu/ hooked into hw/net/switchx2. Reconfigures only when the
# hook or device set changes; ninja rebuilds only what qemu/ changed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SRC=$BUILD/qemu-src
OUT=$BUILD/qemu
BIN=$OUT/qemu-system-x86_64
MODEL_DIR=$SRC/hw/net/switchx2

[ -d "$SRC" ] || die "no QEMU source in $SRC: run scripts/fetch-qemu.sh"

# Insert LINE after the first line equal to ANCHOR in FILE, once.
add_line_after() {
	local file=$1 anchor=$2 line=$3
	grep -qxF -- "$line" "$file" && return 0
	grep -qxF -- "$anchor" "$file" || die "hook anchor '$anchor' not found in $file"
	awk -v a="$anchor" -v l="$line" '{ print } !done && $0 == a { print l; done = 1 }' \
		"$file" >"$file.tmp" && mv "$file.tmp" "$file"
}

install_hooks() {
	add_line_after "$SRC/hw/net/meson.build" \
		"softmmu_ss.add(when: 'CONFIG_ALL', if_true: files('rocker/qmp-norocker.c'))" \
		"subdir('switchx2')"
	grep -qxF "source switchx2/Kconfig" "$SRC/hw/net/Kconfig" ||
		echo "source switchx2/Kconfig" >>"$SRC/hw/net/Kconfig"
	add_line_after "$SRC/meson.build" "    'hw/net/can'," "    'hw/net/switchx2',"
	cp "$TOP/qemu/devices.mak" "$SRC/configs/devices/x86_64-softmmu/harness.mak"
}

# Mirror qemu/ into the tree; rsync -c leaves unchanged files untouched so
# ninja sees only real edits.
sync_model() {
	mkdir -p "$MODEL_DIR"
	rsync -rc --delete --exclude devices.mak --exclude tests/ "$TOP/qemu/" "$MODEL_DIR/"
}

configure_qemu() {
	step "configuring QEMU"
	rm -rf "$OUT"
	mkdir -p "$OUT"
	(cd "$OUT" && "$SRC/configure" \
		--target-list=x86_64-softmmu \
		--without-default-features \
		--without-default-devices \
		--with-devices-x86_64=harness \
		--enable-tcg --disable-docs --disable-werror \
		--meson=meson >configure.log 2>&1) ||
		die "QEMU configure failed: see $OUT/configure.log"
}

install_hooks
sync_model

hook_sum=$(cat "$TOP/qemu/devices.mak" \
	"$TOP/scripts/build-qemu.sh" | sha256sum | cut -d' ' -f1)
if [ ! -f "$OUT/build.ninja" ] || [ "$(cat "$OUT/.hook-sum" 2>/dev/null)" != "$hook_sum" ]; then
	configure_qemu
	echo "$hook_sum" >"$OUT/.hook-sum"
fi

step "building QEMU (ninja)"
ninja -C "$OUT" -j"$(nproc)" qemu-system-x86_64 >"$OUT/ninja.log" 2>&1 ||
	{ tail -n 40 "$OUT/ninja.log" >&2; die "QEMU build failed: see $OUT/ninja.log"; }

# The hook must really be live: the device config has to carry SWITCHX2.
grep -q '^#define CONFIG_SWITCHX2 1' "$OUT/x86_64-softmmu-config-devices.h" ||
	die "CONFIG_SWITCHX2 not enabled in the QEMU build: hook broken"
echo "qemu: $BIN"
