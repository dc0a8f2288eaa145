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
