#!/bin/sh
# SwitchX-2: when the ASIC FDB is full (the model is given SX_FDB_SIZE
# entries), further static entries fail with a message and are not
# marked offloaded, and nothing already programmed is lost.
. /tests/lib.sh

PREFIX=02:00:00:6f
N=$((SX_FDB_SIZE + 64))

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"
sx_bridge_create br0 0 1 2 || not_ok "switchx2: create br0 with p1 and p2"
swp2=$(sx_port 2)
dmesg -c >/dev/null

asic_static() {
	sx_asic_count "^$PREFIX:.* static"
}
# The ASIC count stops changing once the driver has worked through all.
asic_settled() {
	a=$(asic_static)
	sleep 2
	[ "$a" = "$(asic_static)" ] && [ "$a" -gt 0 ]
}

fdb_batch add "$swp2" 0 $N $PREFIX >/tmp/fdb-add
fdb_batch del "$swp2" 0 $N $PREFIX >/tmp/fdb-del
bridge -batch /tmp/fdb-add
wait_for 180 asic_settled
in_asic=$(asic_static)
offl=$(bridge fdb show br br0 | grep -ci "^$PREFIX:.* dev $swp2 .*offload")
if [ "$in_asic" -lt "$N" ] && [ "$in_asic" -ge $((SX_FDB_SIZE - 16)) ]; then
	ok "switchx2: the ASIC took $in_asic of $N entries, up to its size $SX_FDB_SIZE"
else
	not_ok "switchx2: the ASIC takes entries up to its size" \
		"$in_asic in the ASIC, size $SX_FDB_SIZE, $N added"
fi
check_eq "switchx2: exactly the entries in the ASIC are marked offloaded" "$in_asic" "$offl"
if dmesg | grep -qi "full"; then
	ok "switchx2: the driver says the FDB is full"
else
	not_ok "switchx2: the driver says the FDB is full" "$(dmesg | tail -5)"
fi
if sx_asic_has "$PREFIX:00:00" static && sx_asic_has "$PREFIX:00:01" static; then
	ok "switchx2: the first entries are still in the ASIC"
else
	not_ok "switchx2: the first entries are still in the ASIC"
fi
check "switchx2: h1 still pings h2 with the FDB full" sx_ping 1 "$(sx_l2_ip 2)"

bridge -batch /tmp/fdb-del
if wait_for 120 sh -c "[ \"\$(grep -ci '^$PREFIX:' $(sx_asic_fdb_file))\" = 0 ]"; then
	ok "switchx2: all entries removed from the full ASIC FDB"
else
	not_ok "switchx2: all entries removed from the full ASIC FDB" "$(asic_static) left"
fi
sx_bridge_destroy br0
