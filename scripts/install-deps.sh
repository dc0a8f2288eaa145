#!/usr/bin/env bash
# Install the host packages the harness needs, idempotently, and make sure
# Debian source packages can be fetched (deb-src entry).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS=(
	gcc libc6-dev make bc flex bison libelf-dev libssl-dev cpio xz-utils git rsync
	python3 python3-venv meson ninja-build libglib2.0-dev libpixman-1-dev
	libslirp-dev pkg-config zlib1g-dev libfdt-dev dpkg-dev python3-ply python3-git
	busybox-static iproute2 ethtool iputils-ping kmod seabios iperf3 jq
	netsniff-ng gnuplot-nox libteam-utils ccache
)

DEB_SRC_FILE=/etc/apt/sources.list.d/debian-src.sources

have_deb_src() {
	grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/
}

# Derive a deb-src stanza for every deb822 "Types: deb" stanza we find.
add_deb_src() {
	local src=/etc/apt/sources.list.d/debian.sources
	[ -f "$src" ] || die "no $src to derive a deb-src entry from; add one by hand"
	step "adding deb-src entry $DEB_SRC_FILE"
	sed -e 's/^Types:[[:space:]]*deb$/Types: deb-src/' "$src" |
		as_root tee "$DEB_SRC_FILE" >/dev/null
	NEED_UPDATE=1
}

pinned_ok() {
	[ "$(dpkg-query -W -f='${Version}' "$1" 2>/dev/null)" = "$2" ]
}

kernel_src_ok() {
	[ "$(dpkg-query -W -f='${Version}' "$KERNEL_SRC_PKG" 2>/dev/null)" = "$KERNEL_SRC_VERSION" ]
}

NEED_UPDATE=0
have_deb_src || add_deb_src
mapfile -t MISSING < <(missing_pkgs "${PKGS[@]}")
kernel_src_ok || MISSING+=("$KERNEL_SRC_PKG=$KERNEL_SRC_VERSION")
# The firmware QEMU loads (linuxboot_dma.bin and friends) comes from
# Debian's build of the same QEMU version we build from source.
pinned_ok qemu-system-data "$QEMU_SRC_VERSION" || MISSING+=("qemu-system-data=$QEMU_SRC_VERSION")

if [ "${#MISSING[@]}" -eq 0 ] && [ "$NEED_UPDATE" -eq 0 ]; then
	echo "host packages: all present"
	exit 0
fi

step "apt-get update"
as_root apt-get update -q >/dev/null || die "apt-get update failed"

if [ "${#MISSING[@]}" -gt 0 ]; then
	local_versions=$(apt-cache madison "$KERNEL_SRC_PKG" | awk -F'|' '{gsub(/ /, "", $2); print $2}')
	if ! grep -qxF "$KERNEL_SRC_VERSION" <<<"$local_versions"; then
		die "$KERNEL_SRC_PKG $KERNEL_SRC_VERSION is not available from apt; " \
			"update KERNEL_SRC_VERSION in scripts/versions.env"
	fi
	step "installing: ${MISSING[*]}"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends --allow-downgrades "${MISSING[@]}" ||
		die "apt-get install failed"
fi
echo "host packages: ready"
