# shellcheck shell=bash
# Common helpers for the harness scripts. Source, do not execute.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# The guest kernel's build directory: a subdirectory of its tree, so that
# kbuild names every source by a relative path (srctree ".."). objtool,
# built by tools/ with absolute paths, is rebuilt when the checkout
# moves, and every object after it: a moved checkout still rebuilds its
# kernel.
KBUILD_MAIN=$BUILD/linux/kbuild
# shellcheck source=scripts/versions.env
. "$TOP/scripts/versions.env"

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

# apt_install PKG...: refresh the package lists and install PKG...
# without recommends; dies on failure.
apt_install() {
	step "apt-get update"
	as_root apt-get update -q >/dev/null || die "apt-get update failed"
	step "installing: $*"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "$@" || die "apt-get install failed"
}
