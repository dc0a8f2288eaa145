#!/usr/bin/env bash
# Fetch the iproute2 that LINUX's selftests need (SELFTESTS_IPROUTE2_VERSION
# in versions.env, from SELFTESTS_IPROUTE2_SUITE) and unpack it into
# build/iproute2-VERSION, for scripts/build-initramfs-selftests.sh. Uses a
# private apt state: the host's sources and its own iproute2 are not
# touched. Nothing to do for a kernel whose selftests run with the host's.
#   LINUX=6.12 scripts/fetch-iproute2.sh   prints the unpacked tree
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -n "$SELFTESTS_IPROUTE2_VERSION" ] || exit 0

DEST=$BUILD/iproute2-$SELFTESTS_IPROUTE2_VERSION
APTDIR=$BUILD/apt-$SELFTESTS_IPROUTE2_SUITE
STAMP=$DEST/.fetched

if [ -f "$STAMP" ]; then
	echo "$DEST"
	exit 0
fi

deb=$(apt_download_from_suite "$APTDIR" "$SELFTESTS_IPROUTE2_SUITE" \
	"iproute2=$SELFTESTS_IPROUTE2_VERSION")
rm -rf "$DEST"
dpkg-deb -x "$deb" "$DEST"
for tool in ip bridge tc; do
	[ -x "$DEST/sbin/$tool" ] || [ -x "$DEST/usr/sbin/$tool" ] || [ -x "$DEST/bin/$tool" ] ||
		die "$deb has no $tool"
done
rm -rf "$APTDIR"
touch "$STAMP"
echo "$DEST"
