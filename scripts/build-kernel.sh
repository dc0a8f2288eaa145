#!/usr/bin/env bash
# Configure and build the guest kernel out of tree in build/linux/kbuild:
# tinyconfig + kconfig-fragments/*.config, olddefconfig, then verify that
# every option the fragments ask for took its value.
# KERNEL_TREE, KERNEL_OUT and KERNEL_EXTRA_FRAGMENTS (space-separated
# paths) select another tree, such as the 5.10 reference kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TREE=${KERNEL_TREE:-$KERNEL_TREE_MAIN}
KBUILD=${KERNEL_OUT:-$KBUILD_MAIN}
# shellcheck disable=SC2206 # a list of paths without spaces
FRAGMENTS=("$TOP"/kconfig-fragments/*.config ${KERNEL_EXTRA_FRAGMENTS:-})

[ -f "$TREE/Makefile" ] || die "no kernel tree in $TREE: run scripts/prepare-kernel-tree.sh"
mkdir -p "$KBUILD"

kmake() {
	make -C "$TREE" O="$KBUILD" -j"$(nproc)" "$@"
}

verify_config() {
	local bad
	bad=$(kconfig_mismatches "$KBUILD/.config" "${FRAGMENTS[@]}")
	if [ -n "$bad" ]; then
		sed 's/^/  /' <<<"$bad" >&2
		die "kernel config: $(wc -l <<<"$bad") option(s) from kconfig-fragments did not take"
	fi
}

configure_kernel() {
	step "configuring kernel (tinyconfig + ${#FRAGMENTS[@]} fragments)"
	kmake tinyconfig >"$KBUILD/config.log" 2>&1 || die "tinyconfig failed: see $KBUILD/config.log"
	"$TREE/scripts/kconfig/merge_config.sh" -m -O "$KBUILD" "$KBUILD/.config" \
		"${FRAGMENTS[@]}" >>"$KBUILD/config.log" 2>&1 ||
		die "merge_config failed: see $KBUILD/config.log"
	kmake olddefconfig >>"$KBUILD/config.log" 2>&1 || die "olddefconfig failed: see $KBUILD/config.log"
	verify_config
}

# Reconfigure only when the fragments or the series changed.
want_sum=$({
	cat "${FRAGMENTS[@]}"
	cat "$TREE/.series-digest" 2>/dev/null || true
} | sha256sum | cut -d' ' -f1)
if [ ! -f "$KBUILD/.config" ] || [ "$(cat "$KBUILD/.fragments-sum" 2>/dev/null)" != "$want_sum" ]; then
	configure_kernel
	echo "$want_sum" >"$KBUILD/.fragments-sum"
fi

step "building kernel (bzImage, modules) — log: $KBUILD/build.log"
exec 9>"$BUILD/.kbuild.lock"
flock 9
kmake bzImage modules >"$KBUILD/build.log" 2>&1 ||
	{ grep -E 'error|Error' "$KBUILD/build.log" | head -n 30 >&2; die "kernel build failed: see $KBUILD/build.log"; }
rm -rf "$KBUILD/modules-install"
kmake INSTALL_MOD_PATH="$KBUILD/modules-install" INSTALL_MOD_STRIP=1 modules_install \
	>>"$KBUILD/build.log" 2>&1 || die "modules_install failed: see $KBUILD/build.log"
echo "kernel: $KBUILD/arch/x86/boot/bzImage"
