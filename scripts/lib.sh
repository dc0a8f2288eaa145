# shellcheck shell=bash
# Common helpers for the harness scripts. Source, do not execute.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
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
