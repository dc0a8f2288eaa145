#!/usr/bin/env bash
# Write the series back from a kernel git tree that carries it: the
# commits after the tree's `baseline` tag, in order, become the patches
# named in the series of LINUX (series for 6.1, patches-6.12/series for
# 6.12), posting by posting (p1/ then p2/ ...), each numbered
# from 1 with its posting's count. Each cover letter (0000-*) keeps its
# subject and text and gets a new shortlog and diffstat. A development tree is typically a clone of build/linux where
# the series was edited with `git rebase -i`.
#   scripts/export-series.sh TREE
#   LINUX=6.12 scripts/export-series.sh TREE
# Fails, writing nothing, when the tree's commit count does not match
# the series. New or removed patches: edit the series first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TREE=${1:?usage: export-series.sh KERNEL_GIT_TREE}
git -C "$TREE" rev-parse -q --verify baseline >/dev/null || die "$TREE has no 'baseline' tag"

mapfile -t patches < <(series_names)
mapfile -t commits < <(git -C "$TREE" rev-list --reverse baseline..HEAD)
[ "${#commits[@]}" -eq "${#patches[@]}" ] ||
	die "$TREE has ${#commits[@]} commits after baseline, $SERIES names ${#patches[@]} patches"

# The postings in series order, and how many patches each has.
mapfile -t postings < <(printf '%s\n' "${patches[@]}" | cut -d/ -f1 | uniq)

# cover_letter_keep_text OLD NEW: NEW is a cover letter format-patch
# wrote (its shortlog and diffstat are current); give it OLD's subject,
# date and text.
cover_letter_keep_text() {
	python3 - "$1" "$2" <<'PY' || die "cannot carry the text of $1 over"
import re, sys
old, new = (open(f).read() for f in sys.argv[1:3])
subject = re.search(r'^Subject: \[[^]]*\] (.*(?:\n .*)*)$', old, re.M).group(1)
body = old.split('\n\n', 1)[1]
blurb = re.split(r'^\S.* \(\d+\):$', body, maxsplit=1, flags=re.M)[0].rstrip('\n')
new = new.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', blurb)
# The date is the old letter's: it changes when its text does.
date = re.search(r'^Date: .*$', old, re.M).group(0)
new = re.sub(r'^Date: .*$', lambda m: date, new, count=1, flags=re.M)
open(sys.argv[2], 'w').write(new)
PY
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for posting in "${postings[@]}"; do
	n=$(printf '%s\n' "${patches[@]}" | grep -c "^$posting/")
	first=${commits[$i]}
	last=${commits[$((i + n - 1))]}
	# --zero-commit keeps the "From" line stable across rebases.
	git -C "$TREE" format-patch -q --zero-commit --cover-letter \
		--subject-prefix="PATCH net-next" --numbered \
		-o "$tmp/$posting" "$first^..$last"
	cover_letter_keep_text "$PATCHES/$posting/0000-cover-letter.patch" \
		"$tmp/$posting/0000-cover-letter.patch"
	i=$((i + n))
done

# The file names follow the subjects; series must name the same files.
for p in "${patches[@]}"; do
	posting=${p%%/*}
	num=$(basename "$p" | cut -d- -f1)
	new=$(ls "$tmp/$posting/$num-"*.patch 2>/dev/null | head -n1)
	[ -n "$new" ] || die "no patch $num in posting $posting"
	[ "$(basename "$new")" = "$(basename "$p")" ] ||
		die "patch $p is now $(basename "$new"): rename it in $SERIES"
done

for posting in "${postings[@]}"; do
	find "$PATCHES/$posting" -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
	cp "$tmp/$posting/"*.patch "$PATCHES/$posting/"
done
echo "exported ${#patches[@]} patches from $TREE"
