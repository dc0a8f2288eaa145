#!/bin/sh
# Last: on a kernel with kmemleak (make debug-test), nothing the tests did
# left unreferenced memory behind. Two scans, as kmemleak reports an
# object only once it stayed unreferenced across a scan. Leaks are
# summed up by allocation site (the first backtrace frame past the
# allocator); the check fails on any leak with mlxsw code on its
# backtrace, and names the others (other drivers, e.g. rocker, which
# every guest loads) in its line.
. /tests/lib.sh

KMEMLEAK=/sys/kernel/debug/kmemleak
if [ ! -e "$KMEMLEAK" ]; then
	ok "kmemleak: no leaks # SKIP kernel without kmemleak (make debug-test has it)"
	exit 0
fi
echo scan >"$KMEMLEAK"
sleep 5
echo scan >"$KMEMLEAK"
report=$(cat "$KMEMLEAK")
leaks=$(echo "$report" | grep -c "^unreferenced object")

# One line per leak: "ours|other SITE"
sites=$(echo "$report" | awk '
	function flush() {
		if (!obj) return
		if (site == "") site = "(allocator frames only)"
		print (ours ? "ours " : "other ") site
	}
	/^unreferenced object/ { flush(); obj = 1; site = ""; ours = 0; inbt = 0; next }
	/backtrace:/ { inbt = 1; next }
	inbt && /\[</ {
		if ($0 ~ /mlxsw|switchx2/) ours = 1
		if (site == "" && $0 !~ /kmem_cache|kmalloc|__alloc|slab|kmemleak|alloc_pages|vmalloc|krealloc|kmemdup|kstrdup|kzalloc|kcalloc/) {
			site = $2; if ($3 != "") site = site " " $3
		}
	}
	END { flush() }')
ours=$(echo "$sites" | grep -c "^ours ")
summary=$(echo "$sites" | grep -v '^$' | sort | uniq -c | sed 's/^ *//' | tr '\n' ';')
if [ "$ours" -eq 0 ]; then
	if [ "$leaks" -eq 0 ]; then
		ok "kmemleak: no unreferenced objects after the whole run"
	else
		ok "kmemleak: no unreferenced objects from mlxsw after the whole run ($leaks elsewhere: $summary)"
	fi
else
	not_ok "kmemleak: no unreferenced objects from mlxsw after the whole run" \
		"$ours of $leaks leak(s) have mlxsw on their backtrace: $summary" \
		"$(echo "$report" | head -n 80)"
fi
