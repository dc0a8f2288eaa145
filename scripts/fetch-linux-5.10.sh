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

mirror=$(sed -n 's/^URIs:[[:space:]]*\(http[^ ]*debian\)[[:space:]]*$/\1/p' \
	/etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
mirror=${mirror:-http://deb.debian.org/debian}

APT_OPTS=(-o "Dir::Etc::sourcelist=$APTDIR/sources.list" -o Dir::Etc::sourceparts=/dev/null
	-o "Dir::State::Lists=$APTDIR/lists" -o "Dir::Cache::archives=$APTDIR/archives")
rm -rf "$APTDIR"
mkdir -p "$APTDIR/lists/partial" "$APTDIR/archives/partial"
echo "deb $mirror $REF_KERNEL_SUITE main" >"$APTDIR/sources.list"

step "fetching $REF_KERNEL_SRC_PKG $REF_KERNEL_SRC_VERSION from $mirror $REF_KERNEL_SUITE"
apt-get "${APT_OPTS[@]}" update -q >"$APTDIR/update.log" 2>&1 ||
	die "apt-get update for $REF_KERNEL_SUITE failed: see $APTDIR/update.log"
(cd "$APTDIR" && apt-get "${APT_OPTS[@]}" download \
	"$REF_KERNEL_SRC_PKG=$REF_KERNEL_SRC_VERSION" >download.log 2>&1) ||
	die "cannot download $REF_KERNEL_SRC_PKG=$REF_KERNEL_SRC_VERSION: see $APTDIR/download.log"

step "unpacking"
deb=$(find "$APTDIR" -maxdepth 1 -name "${REF_KERNEL_SRC_PKG}_*.deb" | head -n1)
rm -rf "$DEST" "$APTDIR/x"
dpkg-deb -x "$deb" "$APTDIR/x"
mkdir -p "$BUILD/linux-5.10.unpack"
tar -xf "$APTDIR/x/usr/src/$REF_KERNEL_SRC_PKG.tar.xz" -C "$BUILD/linux-5.10.unpack"
mv "$BUILD/linux-5.10.unpack/$REF_KERNEL_SRC_PKG" "$DEST"
rm -rf "$BUILD/linux-5.10.unpack" "$APTDIR/x" "$deb"
touch "$STAMP"
echo "linux 5.10: $DEST"
