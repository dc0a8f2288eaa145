#!/usr/bin/env bash
# Fetch Debian bullseye's linux-source-5.10 (pinned in versions.env), the
# last Debian kernel with mlxsw's SwitchX-2 driver, and unpack it into
# build/linux-5.10. Uses a private apt state: the host's sources are not
# touched.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEST=$BUILD/linux-5.10
APTDIR=$BUILD/apt-$REF_KERNEL_SUITE
STAMP=$DEST/.fetched-$REF_KERNEL_SRC_VERSION

[ -f "$STAMP" ] && { echo "linux 5.10: $REF_KERNEL_SRC_VERSION present"; exit 0; }

deb=$(apt_download_from_suite "$APTDIR" "$REF_KERNEL_SUITE" \
	"$REF_KERNEL_SRC_PKG=$REF_KERNEL_SRC_VERSION")

step "unpacking"
rm -rf "$DEST" "$APTDIR/x"
dpkg-deb -x "$deb" "$APTDIR/x"
mkdir -p "$BUILD/linux-5.10.unpack"
tar -xf "$APTDIR/x/usr/src/$REF_KERNEL_SRC_PKG.tar.xz" -C "$BUILD/linux-5.10.unpack"
mv "$BUILD/linux-5.10.unpack/$REF_KERNEL_SRC_PKG" "$DEST"
rm -rf "$BUILD/linux-5.10.unpack" "$APTDIR/x" "$deb"
touch "$STAMP"
echo "linux 5.10: $DEST"
