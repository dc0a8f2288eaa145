#!/usr/bin/env bash
# Fetch Debian's QEMU source package (pinned in versions.env) into
# build/qemu-src. Debian's patches are applied by dpkg-source.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEST=$BUILD/qemu-src
STAMP=$DEST/.fetched-$QEMU_SRC_VERSION

[ -f "$STAMP" ] && { echo "qemu source: $QEMU_SRC_VERSION present"; exit 0; }

step "fetching $QEMU_SRC_PKG $QEMU_SRC_VERSION source"
rm -rf "$DEST" "$BUILD/qemu-dl"
mkdir -p "$BUILD/qemu-dl"
cd "$BUILD/qemu-dl"
apt-get source -q "$QEMU_SRC_PKG=$QEMU_SRC_VERSION" >fetch.log 2>&1 ||
	die "apt-get source $QEMU_SRC_PKG=$QEMU_SRC_VERSION failed (see $BUILD/qemu-dl/fetch.log);" \
		"is a deb-src entry present and the version still served?"
src=$(find . -maxdepth 1 -mindepth 1 -type d -name 'qemu-*' | head -n1)
[ -n "$src" ] || die "apt-get source produced no qemu-* directory"
mv "$src" "$DEST"
rm -rf "$BUILD/qemu-dl"
touch "$STAMP"
echo "qemu source: $DEST"
