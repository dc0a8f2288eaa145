#!/usr/bin/env bash
# Unpack the guest kernel's source package (LINUX=6.1: linux-source-6.1
# into build/linux; LINUX=6.12: linux-source-6.12 into build/linux-6.12)
# as a git repository with one baseline commit, then `git am` every patch
# its series names (series, patches-6.12/series), in order. An unchanged
# series reuses the tree; a changed one restarts from baseline.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TARBALL=/usr/src/$KERNEL_SRC_PKG.tar.xz
TREE=$KERNEL_TREE_MAIN
BASE_TAG=baseline

[ -f "$TARBALL" ] || die "$TARBALL missing: run scripts/install-deps.sh"

# A digest of every patch the series names, by name and content, in
# order: where the checkout lives does not count.
series_digest() {
	local p
	{
		echo "$KERNEL_SRC_VERSION"
		while read -r p; do
			[ -f "$PATCHES/$p" ] || die "$SERIES names missing patch $PATCHES/$p"
			echo "$p $(sha256sum <"$PATCHES/$p" | cut -d' ' -f1)"
		done < <(series_names)
	} | sha256sum | cut -d' ' -f1
}

git_tree() {
	git -C "$TREE" -c user.name=harness -c user.email=harness@localhost \
		-c advice.detachedHead=false "$@"
}

unpack_baseline() {
	step "unpacking $TARBALL"
	local unpack=$TREE.unpack
	rm -rf "$TREE" "$unpack"
	mkdir -p "$unpack"
	tar -xf "$TARBALL" -C "$unpack"
	mv "$unpack/$KERNEL_SRC_PKG" "$TREE"
	rmdir "$unpack"
	step "creating baseline commit"
	git_tree init -q
	# -f: Debian's top-level .gitignore ignores everything outside debian/.
	git_tree add -A -f
	git_tree commit -q -m "$KERNEL_SRC_PKG $KERNEL_SRC_VERSION baseline"
	git_tree tag "$BASE_TAG"
}

apply_series() {
	local p n=0
	git_tree am --abort >/dev/null 2>&1 || true
	git_tree checkout -q -f -B main "$BASE_TAG"
	# The build directories inside the tree stay: kbuild rebuilds
	# what the series changed.
	git_tree clean -q -fdx -e /.baseline-version -e '/kbuild*'
	while read -r p; do
		if ! git_tree am -q --keep-cr "$PATCHES/$p" >"$TREE.git-am.log" 2>&1; then
			cat "$TREE.git-am.log" >&2
			git_tree am --abort >/dev/null 2>&1 || true
			die "patch does not apply to $KERNEL_SRC_PKG: $PATCHES/$p"
		fi
		n=$((n + 1))
	done < <(series_names)
	echo "applied $n patch(es)"
}

want=$(series_digest)
installed_version=$(cat "$TREE/.baseline-version" 2>/dev/null || true)
if [ ! -d "$TREE/.git" ] || [ "$installed_version" != "$KERNEL_SRC_VERSION" ]; then
	unpack_baseline
	echo "$KERNEL_SRC_VERSION" >"$TREE/.baseline-version"
	echo "/.baseline-version" >>"$TREE/.git/info/exclude"
	echo "/.series-digest" >>"$TREE/.git/info/exclude"
fi

# The build directories inside the tree (older trees lack the line)
grep -qxF "/kbuild*" "$TREE/.git/info/exclude" ||
	echo "/kbuild*" >>"$TREE/.git/info/exclude"

if [ "$(cat "$TREE/.series-digest" 2>/dev/null || true)" = "$want" ]; then
	echo "kernel tree: series unchanged, reusing $TREE"
	exit 0
fi
rm -f "$TREE/.series-digest"
step "applying series"
apply_series
echo "$want" >"$TREE/.series-digest"
