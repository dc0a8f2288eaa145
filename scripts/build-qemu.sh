#!/usr/bin/env bash
# Build qemu-system-x86_64 from Debian's QEMU source with the SwitchX-2
# model from qemu/ hooked into hw/net/switchx2. Reconfigures only when the
# hook or device set changes, or the checkout moved (meson keeps absolute
# paths); ninja rebuilds only what qemu/ changed. The compiler runs
# through ccache, which keys objects by paths relative to build/: a moved
# checkout's rebuild takes its objects from the cache.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SRC=$BUILD/qemu-src
OUT=$BUILD/qemu
BIN=$OUT/qemu-system-x86_64
MODEL_DIR=$SRC/hw/net/switchx2

[ -d "$SRC" ] || die "no QEMU source in $SRC: run scripts/fetch-qemu.sh"

# configure and ninja find cc and gcc in Debian's ccache directory first.
if [ -d /usr/lib/ccache ]; then
	PATH=/usr/lib/ccache:$PATH
	export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=true
fi

# Insert LINE after the first line equal to ANCHOR in FILE, once.
add_line_after() {
	local file=$1 anchor=$2 line=$3
	grep -qxF -- "$line" "$file" && return 0
	grep -qxF -- "$anchor" "$file" || die "hook anchor '$anchor' not found in $file"
	awk -v a="$anchor" -v l="$line" '{ print } !done && $0 == a { print l; done = 1 }' \
		"$file" >"$file.tmp" && mv "$file.tmp" "$file"
}

# Insert the lines of BLOCK into FILE after the first line equal to END
# that follows the first line equal to ANCHOR, once: the first line of
# BLOCK must be unique in FILE and marks the block as inserted.
add_block_after() {
	local file=$1 anchor=$2 end=$3 block=$4
	grep -qxF -- "${block%%$'\n'*}" "$file" && return 0
	grep -qxF -- "$anchor" "$file" || die "hook anchor '$anchor' not found in $file"
	awk -v a="$anchor" -v e="$end" -v b="$block" '
		{ print }
		!done && $0 == a { seen = 1 }
		!done && seen && $0 == e { print ""; print b; done = 1 }
	' "$file" >"$file.tmp" && mv "$file.tmp" "$file"
}

# "info switchx2 [id]"; switchx2.c registers the handler
HMP_INFO_BLOCK='
HXCOMM switchx2: added by scripts/build-qemu.sh
    {
        .name       = "switchx2",
        .args_type  = "id:s?",
        .params     = "[id]",
        .help       = "show SwitchX-2 switch ASIC state",
    },

SRST
  ``info switchx2`` [*id*]
    Show the state of the SwitchX-2 devices, or of device *id*.
ERST'
HMP_INFO_BLOCK=${HMP_INFO_BLOCK#$'\n'}

# Copy FILE to DEST unless it is there already: an unchanged mtime keeps
# ninja from regenerating what depends on DEST.
install_file() {
	cmp -s "$1" "$2" || cp "$1" "$2"
}

install_hooks() {
	add_line_after "$SRC/hw/net/meson.build" \
		"softmmu_ss.add(when: 'CONFIG_ALL', if_true: files('rocker/qmp-norocker.c'))" \
		"subdir('switchx2')"
	grep -qxF "source switchx2/Kconfig" "$SRC/hw/net/Kconfig" ||
		echo "source switchx2/Kconfig" >>"$SRC/hw/net/Kconfig"
	add_line_after "$SRC/meson.build" "    'hw/net/can'," "    'hw/net/switchx2',"
	cp "$TOP/qemu/devices.mak" "$SRC/configs/devices/x86_64-softmmu/harness.mak"
	# QMP: the schema module, beside rocker's
	install_file "$TOP/qemu/switchx2.json" "$SRC/qapi/switchx2.json"
	add_line_after "$SRC/qapi/meson.build" "    'rocker'," "    'switchx2',"
	add_line_after "$SRC/qapi/qapi-schema.json" "{ 'include': 'rocker.json' }" \
		"{ 'include': 'switchx2.json' }"
	# HMP: the table entry, after rocker's last
	add_block_after "$SRC/hmp-commands-info.hx" \
		'  ``info rocker-of-dpa-groups`` *name* [*type*]' ERST "$HMP_INFO_BLOCK"
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
if [ ! -f "$OUT/build.ninja" ] || [ "$(cat "$OUT/.hook-sum" 2>/dev/null)" != "$hook_sum" ] ||
	[ "$(cat "$OUT/.src-dir" 2>/dev/null)" != "$SRC" ]; then
	configure_qemu
	echo "$hook_sum" >"$OUT/.hook-sum"
	echo "$SRC" >"$OUT/.src-dir"
fi

step "building QEMU (ninja)"
ninja -C "$OUT" -j"$(nproc)" qemu-system-x86_64 >"$OUT/ninja.log" 2>&1 ||
	{ tail -n 40 "$OUT/ninja.log" >&2; die "QEMU build failed: see $OUT/ninja.log"; }

# The hook must really be live: the device config has to carry SWITCHX2,
# QAPI and the HMP table the switchx2 commands (a model that registers
# "info switchx2" with no table entry aborts QEMU at start).
grep -q '^#define CONFIG_SWITCHX2 1' "$OUT/x86_64-softmmu-config-devices.h" ||
	die "CONFIG_SWITCHX2 not enabled in the QEMU build: hook broken"
grep -q '"query-switchx2"' "$OUT/qapi/qapi-init-commands.c" ||
	die "query-switchx2 missing from the QAPI schema: hook broken"
grep -q '"switchx2"' "$OUT/hmp-commands-info.h" ||
	die "info switchx2 missing from the HMP table: hook broken"
echo "qemu: $BIN"
