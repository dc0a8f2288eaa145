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
#   make selftests  the kernel's forwarding selftests against SwitchX-2, a
#                   software bridge and rocker: a table, one row per case
#                   (SELFTESTS='bridge_vlan_aware ...', SWITCHES='switchx2 bridge')
#   make check-patches  checkpatch --strict and a W=1 bisect build of each
#                   series (both kernels unless LINUX is given)
#
# LINUX=6.12 picks the guest kernel for any of these (default 6.1): its
# own series (patches-6.12/series), tree (build/linux-6.12), initramfs
# and logs (build/logs-6.12), beside the 6.1 ones.
#
# Each step's script decides what is stale; see scripts/.

SHELL := /bin/bash
S := scripts

.PHONY: all deps kernel-tree kernel qemu initramfs run qemu-test bench test-linux-5.10 \
	debug-test stress selftests deps-selftests initramfs-selftests check-patches clean distclean

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

deps-selftests:
	@bash $(S)/install-deps-selftests.sh

initramfs-selftests: initramfs deps-selftests
	@bash $(S)/build-initramfs-selftests.sh

selftests: initramfs-selftests qemu
	@bash $(S)/selftests.sh

check-patches:
	@bash $(S)/check-patches.sh

# Build outputs only; keeps the fetched sources and the unpacked trees.
clean:
	rm -rf build/linux/kbuild build/linux/kbuild-debug build/linux-6.12/kbuild build/linux-6.12/kbuild-debug \
		build/kbuild build/kbuild-debug build/kbuild-5.10 build/qemu \
		build/initramfs*.cpio.gz* build/logs build/logs-6.12 build/logs-debug* build/logs-5.10 \
		build/qemu-asan build/qemu-fuzz build/logs-asan

distclean:
	rm -rf build

# --- Sanitizers and fuzzing -------------------------------------------
#   make qemu-test SANITIZE=1   the same tests against QEMU built with
#                   ASan + UBSan (no recovery: a report stops QEMU) in
#                   build/qemu-asan; logs in build/logs-asan, sanitizer
#                   reports in build/logs-asan/sanitizer/
#   make qemu-asan  that QEMU alone
#   make qtest [SANITIZE=1]     the host-side checks alone, no guest: the
#                   qtest and the fuzz regression cases (scripts/qtest.sh)
#   make fuzz [FUZZ_SECONDS=60]   build build/qemu-fuzz/qemu-fuzz-x86_64
#                   if stale, run generic-fuzz and switchx2-fuzz on the
#                   device for FUZZ_SECONDS each (scripts/fuzz.sh)
#   make fuzz-regress   replay qemu/tests/sx2_fuzz_regress.py
#                   against build/qemu (or QEMU=...)
.PHONY: deps-sanitize qemu-asan qemu-fuzz fuzz fuzz-regress qtest sanitizer-logs

FUZZ_SECONDS ?= 60
ASAN_LOGS := $(CURDIR)/build/logs-asan

deps-sanitize:
	@bash $(S)/install-deps-sanitize.sh

qemu-asan: qemu deps-sanitize
	@bash $(S)/build-qemu-variant.sh asan

qemu-fuzz: qemu deps-sanitize
	@bash $(S)/build-qemu-variant.sh fuzz

fuzz: qemu-fuzz
	@bash $(S)/fuzz.sh $(FUZZ_SECONDS)

fuzz-regress: qemu
	@python3 qemu/tests/sx2_fuzz_regress.py $(or $(QEMU),build/qemu/qemu-system-x86_64)

qtest: qemu
	@bash $(S)/qtest.sh

# Reports go to one file per QEMU process (log_path), which
# scripts/host-checks.sh turns into a TAP line through
# scripts/sanitizer-check.sh.
sanitizer-logs:
	@rm -rf $(ASAN_LOGS)/sanitizer && mkdir -p $(ASAN_LOGS)/sanitizer

ifeq ($(SANITIZE),1)
SANITIZED := qemu-test qtest
$(SANITIZED): qemu-asan sanitizer-logs
$(SANITIZED): export QEMU := $(CURDIR)/build/qemu-asan/qemu-system-x86_64
$(SANITIZED): export LOGS := $(ASAN_LOGS)
$(SANITIZED): export SANITIZER_LOG_DIR := $(ASAN_LOGS)/sanitizer
$(SANITIZED): export ASAN_OPTIONS := halt_on_error=1:abort_on_error=1:detect_leaks=0:log_path=$(ASAN_LOGS)/sanitizer/qemu
$(SANITIZED): export UBSAN_OPTIONS := halt_on_error=1:abort_on_error=1:print_stacktrace=1:log_path=$(ASAN_LOGS)/sanitizer/qemu
# The guest suite runs several times slower on the ASan/UBSan QEMU
$(SANITIZED): export GUEST_TIMEOUT := $(or $(GUEST_TIMEOUT),2700)
endif
