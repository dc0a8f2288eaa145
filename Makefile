# SwitchX-2 on modern Linux, tested on an emulated ASIC.
#
#   make            build everything that is stale (kernel, QEMU, initramfs)
#   make run        boot a guest with the switches attached, guest shell
#   make run CMD='ip -d link show'   run one command in the guest and exit
#   make qemu-test  boot, run every guest test, print TAP and a summary
#   make bench      SwitchX-2 vs rocker vs a software bridge: TCP and
#                   64-byte frame rates, FDB programming rate, probe time,
#                   learned-entry latency, an FDB sweep; table and plots
#                   in build/logs/bench/ (knobs: scripts/bench.sh)
#   make test-linux-5.10   the same port tests driven by Debian's 5.10
#                   kernel and its own SwitchX-2 driver (slow; not in CI)
#   make debug-test the guest suite on a debug kernel (KASAN, kmemleak,
#                   lockdep, UBSAN, debugobjects, atomic sleep, SLUB debug)
#   make stress     the suite with 100 rounds of each driver reload kind
#
# Each step's script decides what is stale; see scripts/.

SHELL := /bin/bash
S := scripts

.PHONY: all deps kernel-tree kernel qemu initramfs run qemu-test bench test-linux-5.10 \
	debug-test stress clean distclean

all: initramfs qemu

deps:
	@bash $(S)/install-deps.sh

kernel-tree: deps
	@bash $(S)/prepare-kernel-tree.sh

kernel: kernel-tree
	@bash $(S)/build-kernel.sh

qemu: deps
	@bash $(S)/fetch-qemu.sh
	@bash $(S)/build-qemu.sh

initramfs: kernel
	@bash $(S)/build-initramfs.sh

run: all
ifdef CMD
	@bash $(S)/run-guest.sh cmd '$(subst ','\'',$(CMD))'
else
	@bash $(S)/run-guest.sh shell
endif

qemu-test: all
	@bash $(S)/qemu-test.sh

bench: all
	@bash $(S)/bench.sh

test-linux-5.10: qemu
	@bash $(S)/test-linux-5.10.sh

debug-test: qemu
	@bash $(S)/debug-test.sh

stress: all
	@SX_RELOAD_ROUNDS=100 GUEST_TIMEOUT=$${GUEST_TIMEOUT:-7200} bash $(S)/qemu-test.sh

# Build outputs only; keeps the fetched sources and the unpacked trees.
clean:
	rm -rf build/kbuild build/kbuild-debug build/kbuild-5.10 build/qemu \
		build/initramfs*.cpio.gz* build/logs build/logs-debug build/logs-5.10

distclean:
	rm -rf build
