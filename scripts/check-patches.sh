#!/usr/bin/env bash
# Run the kernel's checkpatch.pl --strict on every patch in `series`, from
# inside the kernel tree (checkpatch learns the tree's identifiers from
# git there). Fails if any patch has an error, warning or check.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TREE=$BUILD/linux
[ -x "$TREE/scripts/checkpatch.pl" ] || die "no kernel tree: run scripts/prepare-kernel-tree.sh"

bad=0
while read -r p; do
	# Debian's python3 carries the ply and git modules spdxcheck needs.
	if out=$(cd "$TREE" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict -q \
		"$TOP/patches/$p" 2>&1) && [ -z "$out" ]; then
		echo "checkpatch: $p clean"
	else
		echo "checkpatch: $p"
		echo "$out" | sed 's/^/    /'
		bad=$((bad + 1))
	fi
done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$TOP/series" | grep -v '^$')
[ "$bad" -eq 0 ] || die "$bad patch(es) not checkpatch --strict clean"
