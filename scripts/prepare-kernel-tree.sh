#!/usr/bin/env bash
# Unpack linux-source-6.1 into build/linux as a git repository with one
# baseline commit, then `git am` every patch named in `series`, in order.
# An unchanged series reuses the tree; a changed one restarts from baseline.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TARBALL=/usr/src/$KERNEL_SRC_PKG.tar.xz
TREE=$BUILD/linux
SERIES=$TOP/series
BASE_TAG=baseline

[ -f "$TARBALL" ] || die "$TARBALL missing: run scripts/install-deps.sh"

# A digest of every patch the series names, by name and content, in
# order: where the checkout lives does not count.
series_digest() {
	local p
	{
		echo "$KERNEL_SRC_VERSION"
		while read -r p; do
			[ -f "$TOP/patches/$p" ] || die "series names missing patch patches/$p"
			echo "$p $(sha256sum <"$TOP/patches/$p" | cut -d' ' -f1)"
		done < <(series_patches)
	} | sha256sum | cut -d' ' -f1
}

series_patches() {
	[ -f "$SERIES" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$SERIES" | grep -v '^$' || true
}

git_tree() {
	git -C "$TREE" -c user.name=harness -c user.email=harness@localhost \
		-c advice.detachedHead=false "$@"
}

unpack_baseline() {
	step "unpacking $TARBALL"
	rm -rf "$TREE" "$BUILD/linux-unpack"
	mkdir -p "$BUILD/linux-unpack"
	tar -xf "$TARBALL" -C "$BUILD/linux-unpack"
	mv "$BUILD/linux-unpack/$KERNEL_SRC_PKG" "$TREE"
	rmdir "$BUILD/linux-unpack"
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
		if ! git_tree am -q --keep-cr "$TOP/patches/$p" >"$BUILD/git-am.log" 2>&1; then
			cat "$BUILD/git-am.log" >&2
			git_tree am --abort >/dev/null 2>&1 || true
			die "patch does not apply: patches/$p"
		fi
		n=$((n + 1))
	done < <(series_patches)
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
