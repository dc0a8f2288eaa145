#!/usr/bin/env bash
# The whole guest suite on a debug kernel (kconfig-fragments/debug/):
# KASAN, kmemleak, lockdep, atomic-sleep, debugobjects, UBSAN and SLUB
# debugging. The kernel, its modules and the initramfs are built apart
# (build/linux/kbuild-debug, build/initramfs-debug.cpio.gz); logs go to
# build/logs-debug. The last test case scans for memory leaks, and the
# verdict fails on any report the debug options print.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export KERNEL_OUT=$KERNEL_TREE_MAIN/kbuild-debug
export KERNEL_EXTRA_FRAGMENTS=$TOP/kconfig-fragments/debug/debug.config
export INITRAMFS=$BUILD/initramfs-debug$LINUX_SUFFIX.cpio.gz
export LOGS=$BUILD/logs-debug$LINUX_SUFFIX
# Everything runs several times slower under KASAN and lockdep.
export GUEST_TIMEOUT=${GUEST_TIMEOUT:-3600}

bash "$TOP/scripts/prepare-kernel-tree.sh"
bash "$TOP/scripts/build-kernel.sh"
bash "$TOP/scripts/build-initramfs.sh"
bash "$TOP/scripts/qemu-test.sh"
