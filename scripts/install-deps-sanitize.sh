#!/usr/bin/env bash
# Install the extra host packages the sanitizer and fuzzing builds need
# (make qemu-asan, make fuzz), idempotently: clang, its compiler-rt
# runtimes (ASan, UBSan, libFuzzer) and llvm-symbolizer for readable
# reports. The packages of the default build come from install-deps.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Debian 12's clang. The runtimes must match the compiler's version.
CLANG_VERSION=14
PKGS=(clang "clang-$CLANG_VERSION" "libclang-rt-$CLANG_VERSION-dev" "llvm-$CLANG_VERSION")

mapfile -t MISSING < <(missing_pkgs "${PKGS[@]}")
[ "${#MISSING[@]}" -eq 0 ] || apt_install "${MISSING[@]}"

# clang must be the version whose runtimes we installed.
ver=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
[ "$ver" = "$CLANG_VERSION" ] ||
	die "clang is version '${ver:-none}', expected $CLANG_VERSION (set CLANG_VERSION in $0)"
rt=$(clang -print-resource-dir)/lib/linux
for lib in asan ubsan_standalone fuzzer fuzzer_no_main; do
	[ -f "$rt/libclang_rt.$lib-x86_64.a" ] ||
		die "$rt/libclang_rt.$lib-x86_64.a missing: libclang-rt-$CLANG_VERSION-dev broken?"
done
command -v "llvm-symbolizer-$CLANG_VERSION" >/dev/null ||
	die "llvm-symbolizer-$CLANG_VERSION missing: reports would not be symbolized"
echo "sanitizer/fuzzer packages: ready (clang $ver)"
