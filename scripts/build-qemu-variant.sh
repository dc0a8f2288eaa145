#!/usr/bin/env bash
# Build a sanitized variant of QEMU from the source tree that
# scripts/build-qemu.sh prepared (build/qemu-src, SwitchX-2 model hooked
# into hw/net/switchx2, device set qemu/devices.mak), with clang:
#
#   build-qemu-variant.sh asan   build/qemu-asan/qemu-system-x86_64:
#                                ASan + UBSan, no recovery (a report aborts)
#   build-qemu-variant.sh fuzz   build/qemu-fuzz/qemu-fuzz-x86_64: libFuzzer
#                                with ASan + UBSan, QEMU's fuzz targets plus
#                                switchx2-fuzz from qemu/fuzz/
#
# Reconfigures only when the configure arguments or the device set
# change; ninja rebuilds only what changed. Prints the build time.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

VARIANT=${1:-}
# Sanitizer options are for the test runs (make qemu-test SANITIZE=1
# exports them to its prerequisites too), not for the build.
unset ASAN_OPTIONS UBSAN_OPTIONS
SRC=$BUILD/qemu-src
MODEL_DIR=$SRC/hw/net/switchx2
FUZZ_DIR=$SRC/tests/qtest/fuzz/switchx2
# -fno-sanitize-recover=all: UBSan reports abort like ASan reports do
# (QEMU's --enable-sanitizers leaves UBSan in its default recover mode).
SAN_CFLAGS="-fno-sanitize-recover=all -fno-omit-frame-pointer"

case "$VARIANT" in
asan)
	OUT=$BUILD/qemu-asan
	TARGET=qemu-system-x86_64
	VARIANT_ARGS=(--enable-sanitizers)
	;;
fuzz)
	OUT=$BUILD/qemu-fuzz
	TARGET=qemu-fuzz-x86_64
	VARIANT_ARGS=(--enable-sanitizers --enable-fuzzing)
	;;
*) die "usage: $0 asan|fuzz" ;;
esac

[ -d "$SRC" ] || die "no QEMU source in $SRC: run 'make qemu' first"
command -v clang >/dev/null || die "clang missing: run scripts/install-deps-sanitize.sh"

# The model, its hooks and the device set are scripts/build-qemu.sh's
# job; refuse to build from a tree it has not prepared or that lags
# behind qemu/.
check_tree() {
	if ! grep -qxF "subdir('switchx2')" "$SRC/hw/net/meson.build" ||
		! cmp -s "$TOP/qemu/devices.mak" "$SRC/configs/devices/x86_64-softmmu/harness.mak"; then
		die "$SRC lacks the SwitchX-2 hooks or device set: run 'make qemu' first"
	fi
	local stale
	stale=$(rsync -rcn --delete --itemize-changes --exclude devices.mak --exclude tests/ \
		--exclude fuzz/ "$TOP/qemu/" "$MODEL_DIR/")
	[ -z "$stale" ] ||
		die "the model in $MODEL_DIR is older than qemu/: run 'make qemu' first" \
			"($(echo "$stale" | wc -l) files differ)"
}

# The fuzz target lives in qemu/fuzz/; its meson.build is included from
# tests/qtest/fuzz/meson.build, which skips itself unless fuzzing is on.
install_fuzz_hook() {
	local mb=$SRC/tests/qtest/fuzz/meson.build
	local anchor="specific_fuzz_ss.add(files('generic_fuzz.c'))"
	mkdir -p "$FUZZ_DIR"
	rsync -rc --delete "$TOP/qemu/fuzz/" "$FUZZ_DIR/"
	grep -qxF "subdir('switchx2')" "$mb" && return 0
	grep -qxF "$anchor" "$mb" || die "hook anchor '$anchor' not found in $mb"
	awk -v a="$anchor" '{ print } $0 == a { print "subdir('\''switchx2'\'')" }' \
		"$mb" >"$mb.tmp" && mv "$mb.tmp" "$mb"
}

# Everything configure is given; a change means a new configuration.
configure_args() {
	printf '%s\n' --cc=clang --cxx=clang++ \
		--target-list=x86_64-softmmu \
		--without-default-features \
		--without-default-devices \
		--with-devices-x86_64=harness \
		--enable-tcg --disable-docs --disable-werror \
		"${VARIANT_ARGS[@]}" --extra-cflags="$SAN_CFLAGS" \
		--meson=meson
}

configure_variant() {
	local args
	mapfile -t args < <(configure_args)
	step "configuring QEMU ($VARIANT) in $OUT"
	rm -rf "$OUT"
	mkdir -p "$OUT"
	(cd "$OUT" && "$SRC/configure" "${args[@]}" >configure.log 2>&1) ||
		die "QEMU configure ($VARIANT) failed: see $OUT/configure.log"
}

check_tree
if [ "$VARIANT" = fuzz ]; then
	install_fuzz_hook
fi

hook_sum=$({ cat "$TOP/qemu/devices.mak"; configure_args; } | sha256sum | cut -d' ' -f1)
if [ ! -f "$OUT/build.ninja" ] || [ "$(cat "$OUT/.hook-sum" 2>/dev/null)" != "$hook_sum" ]; then
	configure_variant
	echo "$hook_sum" >"$OUT/.hook-sum"
fi

step "building $TARGET ($VARIANT, ninja; slow: every object is instrumented)"
start=$(date +%s)
ninja -C "$OUT" -j"$(nproc)" "$TARGET" >"$OUT/ninja.log" 2>&1 ||
	{ tail -n 40 "$OUT/ninja.log" >&2; die "QEMU $VARIANT build failed: see $OUT/ninja.log"; }
secs=$(($(date +%s) - start))

grep -q '^#define CONFIG_SWITCHX2 1' "$OUT/x86_64-softmmu-config-devices.h" ||
	die "CONFIG_SWITCHX2 not enabled in the $VARIANT build: hook broken"
# A report must stop QEMU: the model's objects may call only the
# non-recovering UBSan handlers (the *_abort ones, and the two that never
# return anyway), and must call some.
objs=("$OUT"/libcommon.fa.p/hw_net_switchx2_*.o)
[ -f "${objs[0]}" ] || die "no SwitchX-2 objects in $OUT/libcommon.fa.p: build layout changed?"
handlers=$(nm -u "${objs[@]}" | awk '/__ubsan_handle_/ { print $2 }' | sort -u)
grep -q '_abort$' <<<"$handlers" ||
	die "$VARIANT build: the model is not UBSan-instrumented"
! grep -vqE '_abort$|_builtin_unreachable$|_missing_return$' <<<"$handlers" ||
	die "$VARIANT build has recoverable UBSan checks: -fno-sanitize-recover lost"
echo "qemu ($VARIANT): $OUT/$TARGET (ninja ${secs}s)"
