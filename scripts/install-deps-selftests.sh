#!/usr/bin/env bash
# Install, idempotently, the host packages whose binaries go into the
# selftests initramfs (scripts/build-initramfs-selftests.sh): what the
# kernel's forwarding selftests run in the guest besides iproute2, ping,
# ethtool and bash (scripts/install-deps.sh has those).
#   netsniff-ng  mausezahn, the selftests' packet generator
#   tcpdump      captures (lib.sh tcpdump_start)
#   jq           every selftest parses `ip -j` / `tc -j` output
#   ncat         tc_actions (require_command ncat; its TCP redirect case)
#   socat        tests/selftests/bin/msend and mreceive (mtools' msend
#                and mreceive, which local_termination wants, are in no
#                Debian package)
#   coreutils    GNU date (busybox's has no %N)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS=(netsniff-ng tcpdump jq ncat socat coreutils iproute2)

missing_pkgs() {
	local p
	for p in "${PKGS[@]}"; do
		[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] ||
			echo "$p"
	done
}

mapfile -t MISSING < <(missing_pkgs)
if [ "${#MISSING[@]}" -eq 0 ]; then
	echo "selftests packages: all present"
	exit 0
fi
step "installing: ${MISSING[*]}"
as_root apt-get update -q >/dev/null || die "apt-get update failed"
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	"${MISSING[@]}" || die "apt-get install failed"
echo "selftests packages: ready"
