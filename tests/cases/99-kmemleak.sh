#!/bin/sh
# Last: on a kernel with kmemleak (make debug-test), nothing the tests did
# left unreferenced memory behind. Two scans, as kmemleak reports an
# object only once it stayed unreferenced across a scan.
. /tests/lib.sh

KMEMLEAK=/sys/kernel/debug/kmemleak
if [ ! -e "$KMEMLEAK" ]; then
	ok "kmemleak: no leaks # SKIP kernel without kmemleak (make debug-test has it)"
	exit 0
fi
echo scan >"$KMEMLEAK"
sleep 5
echo scan >"$KMEMLEAK"
leaks=$(grep -c "^unreferenced object" "$KMEMLEAK")
if [ "$leaks" -eq 0 ]; then
	ok "kmemleak: no unreferenced objects after the whole run"
else
	not_ok "kmemleak: no unreferenced objects after the whole run" \
		"$leaks leak(s):" "$(head -n 60 "$KMEMLEAK")"
fi
