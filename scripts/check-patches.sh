#!/usr/bin/env bash
# Review the series the way netdev's checks would, patch by patch, for
# each kernel in LINUX (default: every kernel the series is kept for,
# "6.1 6.12"; LINUX=6.12 checks one):
# - scripts/checkpatch.pl --strict on every patch of its series, from inside
#   the kernel tree (checkpatch learns the tree's identifiers from git);
# - a bisect build: apply the patches one at a time to a scratch copy of
#   the baseline and build drivers/net/ethernet/mellanox/mlxsw with W=1
#   after each, so that every patch compiles on its own, warning-free.
# Fails if any patch has a checkpatch error, warning or check, or does not
# build cleanly. SKIP_BUILD=1 runs checkpatch only.
#
# Two checkpatch tests cannot pass against this tree and are skipped:
# UNKNOWN_COMMIT_ID (Debian's linux-source tree carries no upstream
# history, so no Fixes: hash can be looked up in it) and FILE_PATH_CHANGES
# (new switchx2*.c files are covered by the MAINTAINERS entry the driver
# patch adds, which checkpatch does not check globs against). CamelCase
# reports about the ethtool link mode names (ETHTOOL_LINK_MODE_*_BIT and
# the Autoneg mode) are dropped: they are UAPI enum constants, and
# checkpatch only learns the tree's CamelCase names from #defines and
# declarations. Every other CamelCase report counts.
set -euo pipefail

# Without LINUX, check every kernel's series in turn.
if [ -z "${LINUX:-}" ]; then
	. "$(dirname "$0")/versions.env"
	for k in $LINUX_KERNELS; do
		echo "==> series for linux $k"
		LINUX=$k bash "$0" "$@" || exit 1
	done
	exit 0
fi
. "$(dirname "$0")/lib.sh"

TREE=$KERNEL_TREE_MAIN
SCRATCH=$BUILD/bisect$LINUX_SUFFIX
OBJ=$BUILD/bisect-obj$LINUX_SUFFIX
MLXSW=drivers/net/ethernet/mellanox/mlxsw

[ -x "$TREE/scripts/checkpatch.pl" ] || die "no kernel tree: run LINUX=$LINUX scripts/prepare-kernel-tree.sh"
[ -f "$KBUILD_MAIN/.config" ] || die "no kernel config: run LINUX=$LINUX scripts/build-kernel.sh"

mapfile -t patches < <(series_names)

# Drop checkpatch's report blocks (separated by blank lines) about the
# ethtool link mode names, and the summary line.
filter_link_modes() {
	awk -v RS= -v ORS='\n\n' \
		'!/^CHECK: Avoid CamelCase: <(ETHTOOL_LINK_MODE_[A-Za-z0-9_]+_BIT|Autoneg)>/ &&
		 !/^total: /'
}

bad=0
step "checkpatch --strict on ${#patches[@]} patches"
for p in "${patches[@]}"; do
	# Debian's python3 carries the ply and git modules spdxcheck needs.
	out=$(cd "$TREE" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict -q \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$PATCHES/$p" 2>&1 |
		filter_link_modes) || true
	if [ -z "$(echo "$out" | tr -d '[:space:]')" ]; then
		echo "checkpatch: $p clean"
	else
		echo "checkpatch: $p"
		echo "$out" | sed 's/^/    /'
		bad=$((bad + 1))
	fi
done

git_scratch() {
	git -C "$SCRATCH" -c user.name=harness -c user.email=harness@localhost "$@"
}

if [ "${SKIP_BUILD:-0}" = 1 ]; then
	[ "$bad" -eq 0 ] || die "$bad patch(es) not checkpatch --strict clean"
	echo "series: checkpatch only (SKIP_BUILD=1), no bisect build"
	exit 0
fi

step "bisect build: $MLXSW after each patch (W=1)"
git -C "$TREE" worktree remove --force "$SCRATCH" >/dev/null 2>&1 || rm -rf "$SCRATCH"
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$SCRATCH" baseline
mkdir -p "$OBJ"
for p in "${patches[@]}"; do
	git_scratch am -q --keep-cr "$PATCHES/$p" >"$OBJ/am.log" 2>&1 ||
		die "patch does not apply: $p (see $OBJ/am.log)"
	log=$OBJ/build-$(basename "$p" .patch).log
	# The guest's configuration, as far as this patch's Kconfig knows it:
	# the driver's option exists only from the patch that adds it on.
	cp "$KBUILD_MAIN/.config" "$OBJ/.config"
	make -C "$SCRATCH" O="$OBJ" -j"$(nproc)" olddefconfig modules_prepare >"$log" 2>&1 ||
		die "modules_prepare failed after $p: see $log"
	if make -C "$SCRATCH" O="$OBJ" -j"$(nproc)" W=1 "$MLXSW/" >>"$log" 2>&1 &&
		! grep -E '(warning|error):' "$log" | grep -q .; then
		echo "build: $p ok"
	else
		echo "build: $p FAILED (see $log)"
		grep -E '(warning|error):' "$log" | head -n 10 | sed 's/^/    /'
		bad=$((bad + 1))
	fi
done
git -C "$TREE" worktree remove --force "$SCRATCH"

[ "$bad" -eq 0 ] || die "$bad problem(s) in the series"
echo "series for linux $LINUX: ${#patches[@]} patches, each checkpatch --strict clean and building with W=1"
