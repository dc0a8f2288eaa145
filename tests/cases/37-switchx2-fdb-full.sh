#!/bin/sh
# SwitchX-2: when the ASIC FDB is full (the model is given SX_FDB_SIZE
# entries), further static entries are refused and not marked offloaded,
# the driver says so once, and nothing already programmed is lost.
. /tests/lib.sh

PREFIX=02:00:00:6f
N=$((SX_FDB_SIZE + 64))

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 || not_ok "switchx2: create br0 with p1..p3"
swp2=$(sx_port 2)
dmesg -c >/dev/null

offloaded() {
	bridge fdb show br br0 | grep -ci "^$PREFIX:.* dev $swp2 .*offload"
}
# The count stops changing once the driver has worked through all.
settled() {
	a=$(offloaded)
	sleep 2
	[ "$a" = "$(offloaded)" ] && [ "$a" -gt 0 ]
}

fdb_batch add "$swp2" 0 $N $PREFIX >/tmp/fdb-add
fdb_batch del "$swp2" 0 $N $PREFIX >/tmp/fdb-del
bridge -batch /tmp/fdb-add
wait_for 180 settled
offl=$(offloaded)
if [ "$offl" -lt "$N" ] && [ "$offl" -ge $((SX_FDB_SIZE - 16)) ]; then
	ok "switchx2: the ASIC took $offl of $N entries, up to its size $SX_FDB_SIZE"
else
	not_ok "switchx2: the ASIC takes entries up to its size" \
		"$offl offloaded, size $SX_FDB_SIZE, $N added"
fi
full=$(dmesg | grep -c "FDB is full")
check_eq "switchx2: the driver says once that the FDB is full" 1 "$full"
# The ASIC's own count, from the host: every offloaded entry is there,
# and the table is at its size (the rest are the hosts' learned MACs and
# the bridge's own).
in_asic=$(sx_asic_fdb "[.entries[] | select(.mac | startswith(\"$PREFIX:\"))] | length")
check_eq "switchx2: QMP shows the $offl offloaded entries in the ASIC FDB" "$offl" "$in_asic"
check_eq "switchx2: QMP shows the ASIC FDB at its size" \
	"$SX_FDB_SIZE" "$(sx_asic '."fdb-entries"')"

# The first entry still steers traffic; the last one, refused, floods.
if d=$(sx_probe_to 1 "$PREFIX:00:00" 5 2); then
	ok "switchx2: the first entry is still in the ASIC ($d)"
else
	not_ok "switchx2: the first entry is still in the ASIC" "per host: $d"
fi
last=$(printf '%s:%02x:%02x' $PREFIX $(((N - 1) / 256)) $(((N - 1) % 256)))
if d=$(sx_probe_floods 1 "$last" 5 3); then
	ok "switchx2: a refused entry is not in the ASIC: frames to it flood ($d)"
else
	not_ok "switchx2: a refused entry is not in the ASIC" "per host: $d"
fi
check "switchx2: h1 still pings h2 with the FDB full" sx_ping 1 "$(sx_l2_ip 2)"

bridge -batch /tmp/fdb-del
if wait_for 120 sx_probe_floods 1 "$PREFIX:00:00" 2 3; then
	ok "switchx2: entries removed from the full ASIC FDB"
else
	not_ok "switchx2: entries removed from the full ASIC FDB" \
		"per host: $(sx_probe 1 "$PREFIX:00:00" 2)"
fi
sx_bridge_destroy br0
