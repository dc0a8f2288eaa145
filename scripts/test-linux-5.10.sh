#!/usr/bin/env bash
# Drive the emulated SwitchX-2 with a kernel that shipped SwitchX-2
# support, unmodified: Debian bullseye's 5.10 with CONFIG_MLXSW_SWITCHX2=m,
# built with the same lean config. Runs the guest tests under icount with
# idle time skipped, because that driver sleeps 900 s around the reset.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export KERNEL_TREE=$BUILD/linux-5.10
export KERNEL_OUT=$BUILD/kbuild-5.10
export KERNEL_EXTRA_FRAGMENTS=$TOP/kconfig-fragments/linux-5.10/switchx2.config
export INITRAMFS=$BUILD/initramfs-5.10.cpio.gz
export LOGS=$BUILD/logs-5.10
export QEMU_EXTRA="-icount shift=auto,sleep=off ${QEMU_EXTRA:-}"
# Cases that need our 6.1 series (bridge offload and later) are skipped.
export GUEST_TEST_FILTER=${GUEST_TEST_FILTER:-'^[0-9]+-(rocker-switch-id|switchx2-(probe|link|ping|counters|mtu))\.sh$'}

bash "$TOP/scripts/fetch-linux-5.10.sh"
bash "$TOP/scripts/build-kernel.sh"
bash "$TOP/scripts/build-initramfs.sh"
bash "$TOP/scripts/qemu-test.sh"
