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
#   smcroute     smcrouted and smcroutectl: router.sh requires them
#   procps       pkill, with which router.sh stops smcrouted
#   libteam-utils teamd: 6.12's router_bridge_lag and router_bridge_1d_lag
#                build their LAGs with team_create (the LACP runner)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS=(netsniff-ng tcpdump jq ncat socat coreutils iproute2 smcroute procps libteam-utils)

mapfile -t MISSING < <(missing_pkgs "${PKGS[@]}")
if [ "${#MISSING[@]}" -eq 0 ]; then
	echo "selftests packages: all present"
	exit 0
fi
apt_install "${MISSING[@]}"
echo "selftests packages: ready"
