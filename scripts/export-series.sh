#!/usr/bin/env bash
# Write the series back from a kernel git tree that carries it: the
# commits after the tree's `baseline` tag, in order, become the patches
# named in `series`, posting by posting (p1/ then p2/ ...), each numbered
# from 1 with its posting's count. Cover letters (0000-*) are left as
# they are. A development tree is typically a clone of build/linux where
# the series was edited with `git rebase -i`.
#   scripts/export-series.sh TREE
# Fails, writing nothing, when the tree's commit count does not match
# `series`. New or removed patches: edit `series` first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TREE=${1:?usage: export-series.sh KERNEL_GIT_TREE}
git -C "$TREE" rev-parse -q --verify baseline >/dev/null || die "$TREE has no 'baseline' tag"

mapfile -t patches < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$TOP/series" | grep -v '^$')
mapfile -t commits < <(git -C "$TREE" rev-list --reverse baseline..HEAD)
[ "${#commits[@]}" -eq "${#patches[@]}" ] ||
	die "$TREE has ${#commits[@]} commits after baseline, series names ${#patches[@]} patches"

# The postings in series order, and how many patches each has.
mapfile -t postings < <(printf '%s\n' "${patches[@]}" | cut -d/ -f1 | uniq)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for posting in "${postings[@]}"; do
	n=$(printf '%s\n' "${patches[@]}" | grep -c "^$posting/")
	first=${commits[$i]}
	last=${commits[$((i + n - 1))]}
	# --zero-commit keeps the "From" line stable across rebases.
	git -C "$TREE" format-patch -q --zero-commit \
		--subject-prefix="PATCH net-next" --numbered \
		-o "$tmp/$posting" "$first^..$last"
	i=$((i + n))
done

# The file names follow the subjects; series must name the same files.
for p in "${patches[@]}"; do
	posting=${p%%/*}
	num=$(basename "$p" | cut -d- -f1)
	new=$(ls "$tmp/$posting/$num-"*.patch 2>/dev/null | head -n1)
	[ -n "$new" ] || die "no patch $num in posting $posting"
	[ "$(basename "$new")" = "$(basename "$p")" ] ||
		die "patch $p is now $(basename "$new"): rename it in series"
done

for posting in "${postings[@]}"; do
	find "$TOP/patches/$posting" -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-*' -delete
	cp "$tmp/$posting/"*.patch "$TOP/patches/$posting/"
done
echo "exported ${#patches[@]} patches from $TREE"
