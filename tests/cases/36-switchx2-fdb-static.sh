#!/bin/sh
# SwitchX-2: 1000 static FDB entries added with `bridge fdb` are all
# programmed into the ASIC, steer traffic there, and all go away again.
. /tests/lib.sh

N=1000
PREFIX=02:00:00:5f
FRAMES=10

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 3 || not_ok "switchx2: create br0 with p1..p3"
swp2=$(sx_port 2)

# Entries the bridge lists as offloaded: the ASIC took them (SFD num_rec).
offloaded() {
	bridge fdb show br br0 | grep -ci "^$PREFIX:.* dev $swp2 .*offload"
}
offloaded_is() {
	[ "$(offloaded)" = "$1" ]
}

fdb_batch add "$swp2" 0 $N $PREFIX >/tmp/fdb-add
fdb_batch del "$swp2" 0 $N $PREFIX >/tmp/fdb-del
emads0=$(sx_asic '.cpu."sent-emads"')
t0=$(now_ms)
check "switchx2: bridge -batch adds $N static entries on $swp2" bridge -batch /tmp/fdb-add
if wait_for 120 offloaded_is $N; then
	t=$(($(now_ms) - t0))
	ok "switchx2: the bridge marks all $N entries offloaded"
	echo "# static FDB programming: $N entries in $t ms, $((N * 1000 / (t > 0 ? t : 1))) entries/s"
else
	not_ok "switchx2: the bridge marks all $N entries offloaded" "$(offloaded) offloaded"
fi
# One SFD write carries up to 64 records: the entries need N / 64 EMADs,
# the rest of the count is SFN polls and counter reads during the wait.
emads=$(($(sx_asic '.cpu."sent-emads"') - emads0))
if [ "$emads" -lt $((N / 4)) ]; then
	ok "switchx2: $N entries took $emads EMADs (SFD records batched)"
else
	not_ok "switchx2: entries are written up to 64 per SFD" \
		"$emads EMADs for $N entries"
fi
# asic_entries JQ_CONDITION: the ASIC's entries of ours that meet it (QMP)
asic_entries() {
	sx_asic_fdb "[.entries[] | select(.mac | startswith(\"$PREFIX:\")) |
		select($1)] | length"
}
check_eq "switchx2: QMP shows all $N entries in the ASIC, static, to p2" \
	$N "$(asic_entries '.port == 2 and .dynamic == false and .action == "forward"')"

# Traffic to the first, a middle and the last entry goes to p2 only.
for i in 0 499 999; do
	mac=$(printf '%s:%02x:%02x' $PREFIX $((i / 256)) $((i % 256)))
	if d=$(sx_probe_to 1 "$mac" $FRAMES 2); then
		ok "switchx2: frames to static entry $mac go to p2 only ($d)"
	else
		not_ok "switchx2: frames to static entry $mac go to p2 only" "per host: $d"
	fi
done

t0=$(now_ms)
check "switchx2: bridge -batch removes the $N entries" bridge -batch /tmp/fdb-del
# Removals are not acknowledged to the bridge: watch the last one's effect.
last=$PREFIX:03:e7
if wait_for 120 sx_probe_floods 1 "$last" 2 3; then
	echo "# static FDB removal: $N entries in $(($(now_ms) - t0)) ms"
	ok "switchx2: once removed, the last MAC is unknown and floods again"
else
	not_ok "switchx2: once removed, the last MAC is unknown and floods again" \
		"per host: $(sx_probe 1 "$last" 2)"
fi
if d=$(sx_probe_floods 1 "$PREFIX:00:00" $FRAMES 3); then
	ok "switchx2: the first MAC floods again too ($d)"
else
	not_ok "switchx2: the first MAC floods again too" "per host: $d"
fi
check_eq "switchx2: QMP shows none of the entries left in the ASIC" \
	0 "$(asic_entries true)"

# Events of one batch reach the ASIC in order: an entry added and moved
# to another port ends on that port, one added and removed is gone.
moved=$PREFIX:10:00
gone=$PREFIX:10:01
swp3=$(sx_port 3)
cat >/tmp/fdb-order <<EOT
fdb add $moved dev $swp2 master static
fdb add $gone dev $swp2 master static
fdb replace $moved dev $swp3 master static
fdb del $gone dev $swp2 master static
EOT
check "switchx2: one batch adds, moves and removes entries" bridge -batch /tmp/fdb-order
order_settled() {
	[ "$(asic_entries ".mac == \"$gone\"")" = 0 ] &&
		[ "$(asic_entries ".mac == \"$moved\" and .port == 3")" = 1 ]
}
wait_for 20 order_settled
check_eq "switchx2: the moved entry is on p3 in the ASIC" \
	3 "$(sx_asic_fdb ".entries[] | select(.mac == \"$moved\") | .port")"
check_eq "switchx2: the entry added and removed in one batch is not in the ASIC" \
	0 "$(asic_entries ".mac == \"$gone\"")"
sx_bridge_destroy br0
