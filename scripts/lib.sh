# shellcheck shell=bash
# Common helpers for the harness scripts. Source, do not execute.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# shellcheck source=scripts/versions.env
. "$TOP/scripts/versions.env"

# The guest kernel: LINUX=6.1 (default) or 6.12. Each has its own source
# package, series, tree, initramfs and logs, side by side under build/;
# the default kernel keeps the plain names (build/linux, build/logs).
LINUX=${LINUX:-$LINUX_DEFAULT}
case " $LINUX_KERNELS " in
*" $LINUX "*) ;;
*)
	echo "error: LINUX=$LINUX: not one of the kernels the series is kept for ($LINUX_KERNELS)" >&2
	exit 1
	;;
esac
_linux_var=${LINUX//./_}
_pkg_var=KERNEL_SRC_PKG_$_linux_var
_ver_var=KERNEL_SRC_VERSION_$_linux_var
KERNEL_SRC_PKG=${!_pkg_var}
KERNEL_SRC_VERSION=${!_ver_var}
_ipr_var=SELFTESTS_IPROUTE2_VERSION_$_linux_var
SELFTESTS_IPROUTE2_VERSION=${!_ipr_var:-}
unset _linux_var _pkg_var _ver_var _ipr_var
if [ "$LINUX" = "$LINUX_DEFAULT" ]; then
	LINUX_SUFFIX=
	PATCHES=$TOP/patches
	SERIES=$TOP/series
else
	LINUX_SUFFIX=-$LINUX
	PATCHES=$TOP/patches$LINUX_SUFFIX
	SERIES=$PATCHES/series
fi
KERNEL_TREE_MAIN=$BUILD/linux$LINUX_SUFFIX
# The guest kernel's build directory: a subdirectory of its tree, so that
# kbuild names every source by a relative path (srctree ".."). objtool,
# built by tools/ with absolute paths, is rebuilt when the checkout
# moves, and every object after it: a moved checkout still rebuilds its
# kernel.
KBUILD_MAIN=$KERNEL_TREE_MAIN/kbuild
INITRAMFS_MAIN=$BUILD/initramfs$LINUX_SUFFIX.cpio.gz
SELFTESTS_INITRAMFS_MAIN=$BUILD/initramfs-selftests$LINUX_SUFFIX.cpio.gz
LOGS_MAIN=$BUILD/logs$LINUX_SUFFIX

# series_names: the patch names in $SERIES, in order (relative to $PATCHES).
series_names() {
	[ -f "$SERIES" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$SERIES" | grep -v '^$' || true
}

die() {
	echo "error: $*" >&2
	exit 1
}

step() {
	echo "==> $*"
}

# Run a command as root, through sudo when we are not root already.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	else
		command -v sudo >/dev/null || die "need root (or sudo) for: $*"
		sudo "$@"
	fi
}

# kconfig_mismatches DOTCONFIG FRAGMENT...: print "CONFIG_X: wanted W,
# got G" for each option a fragment file asks for ("# CONFIG_X is not
# set" asks for n) that DOTCONFIG does not have as asked.
kconfig_mismatches() {
	local cfg=$1 line opt want got
	shift
	while read -r line; do
		opt=${line%%=*}
		want=${line#*=}
		got=$(sed -n "s/^$opt=\\(.*\\)$/\\1/p" "$cfg")
		[ "$want" = "${got:-n}" ] || echo "$opt: wanted $want, got ${got:-n}"
	done < <(sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1=\2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' "$@")
}

# missing_pkgs PKG...: print, one per line, each Debian package of the
# list that is not installed.
missing_pkgs() {
	local p
	for p in "$@"; do
		[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] ||
			echo "$p"
	done
}

# apt_download_from_suite APTDIR SUITE PKG=VERSION: download one package
# from another Debian suite into APTDIR with a private apt state (the
# host's sources and lists are not touched); prints the .deb's path.
apt_download_from_suite() {
	local aptdir=$1 suite=$2 pkgver=$3 mirror deb
	mirror=$(sed -n 's/^URIs:[[:space:]]*\(http[^ ]*debian\)[[:space:]]*$/\1/p' \
		/etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
	mirror=${mirror:-http://deb.debian.org/debian}
	local -a opts=(-o "Dir::Etc::sourcelist=$aptdir/sources.list" -o Dir::Etc::sourceparts=/dev/null
		-o "Dir::State::Lists=$aptdir/lists" -o "Dir::Cache::archives=$aptdir/archives")
	rm -rf "$aptdir"
	mkdir -p "$aptdir/lists/partial" "$aptdir/archives/partial"
	echo "deb $mirror $suite main" >"$aptdir/sources.list"
	step "fetching $pkgver from $mirror $suite" >&2
	apt-get "${opts[@]}" update -q >"$aptdir/update.log" 2>&1 ||
		die "apt-get update for $suite failed: see $aptdir/update.log"
	(cd "$aptdir" && apt-get "${opts[@]}" download "$pkgver" >download.log 2>&1) ||
		die "cannot download $pkgver (is it still in $suite?): see $aptdir/download.log"
	deb=$(find "$aptdir" -maxdepth 1 -name "${pkgver%%=*}_*.deb" | head -n1)
	[ -n "$deb" ] || die "apt-get download left no ${pkgver%%=*} package in $aptdir"
	echo "$deb"
}

# apt_install PKG...: refresh the package lists and install PKG...
# without recommends; dies on failure.
apt_install() {
	step "apt-get update"
	as_root apt-get update -q >/dev/null || die "apt-get update failed"
	step "installing: $*"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "$@" || die "apt-get install failed"
}
