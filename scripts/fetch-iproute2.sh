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

mirror=$(sed -n 's/^URIs:[[:space:]]*\(http[^ ]*debian\)[[:space:]]*$/\1/p' \
	/etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
mirror=${mirror:-http://deb.debian.org/debian}

APT_OPTS=(-o "Dir::Etc::sourcelist=$APTDIR/sources.list" -o Dir::Etc::sourceparts=/dev/null
	-o "Dir::State::Lists=$APTDIR/lists" -o "Dir::Cache::archives=$APTDIR/archives")
rm -rf "$APTDIR"
mkdir -p "$APTDIR/lists/partial" "$APTDIR/archives/partial"
echo "deb $mirror $SELFTESTS_IPROUTE2_SUITE main" >"$APTDIR/sources.list"

step "fetching iproute2 $SELFTESTS_IPROUTE2_VERSION from $mirror $SELFTESTS_IPROUTE2_SUITE" >&2
apt-get "${APT_OPTS[@]}" update -q >"$APTDIR/update.log" 2>&1 ||
	die "apt-get update for $SELFTESTS_IPROUTE2_SUITE failed: see $APTDIR/update.log"
(cd "$APTDIR" && apt-get "${APT_OPTS[@]}" download \
	"iproute2=$SELFTESTS_IPROUTE2_VERSION" >download.log 2>&1) ||
	die "cannot download iproute2=$SELFTESTS_IPROUTE2_VERSION (is it still in $SELFTESTS_IPROUTE2_SUITE?): see $APTDIR/download.log"

deb=$(find "$APTDIR" -maxdepth 1 -name 'iproute2_*.deb' | head -n1)
[ -n "$deb" ] || die "apt-get download left no iproute2 package in $APTDIR"
rm -rf "$DEST"
dpkg-deb -x "$deb" "$DEST"
for tool in ip bridge tc; do
	[ -x "$DEST/sbin/$tool" ] || [ -x "$DEST/usr/sbin/$tool" ] || [ -x "$DEST/bin/$tool" ] ||
		die "$deb has no $tool"
done
rm -rf "$APTDIR"
touch "$STAMP"
echo "$DEST"
