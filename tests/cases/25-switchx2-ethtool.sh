#!/bin/sh
# SwitchX-2 ethtool: each PTYS protocol is its own link mode (10GBASE-CR,
# SR, LR, ER are not folded into KR), pause frames, which the driver
# cannot configure, are not advertised, and the port counters (PPCNT)
# are the standard IEEE 802.3 and RMON statistics.
. /tests/lib.sh

FRAMES=20
sx_host_setup 1 || not_ok "switchx2: set up host h1 on p1"
swp=$(sx_port 1)
wait_carrier "$swp" 10 1

settings=$(ethtool "$swp" 2>&1)
modes=$(echo "$settings" | sed -n '/Supported link modes:/,/Supported pause/p')
for m in 10000baseKR/Full 10000baseCR/Full 10000baseSR/Full 10000baseLR/Full \
	10000baseER/Full 40000baseCR4/Full 40000baseLR4/Full; do
	if echo "$modes" | grep -q "$m"; then
		ok "switchx2: ethtool $swp lists $m among the supported link modes"
	else
		not_ok "switchx2: ethtool $swp lists $m among the supported link modes" "$modes"
	fi
done
if echo "$settings" | grep -q "Supported pause frame use: No"; then
	ok "switchx2: ethtool $swp does not claim pause frame support"
else
	not_ok "switchx2: ethtool $swp does not claim pause frame support" \
		"$(echo "$settings" | grep -i pause)"
fi

# std_stat GROUP NAME: a counter of an ethtool standard statistics group
# (histogram buckets are printed with an rx- prefix: rx-rmon-...)
std_stat() {
	ethtool -S "$swp" --groups "$1" |
		sed -n "s/^[[:space:]]*\(rx-\)\{0,1\}$1-$2: \([0-9]*\)$/\2/p"
}

sleep 1
rx0=$(std_stat eth-mac FramesReceivedOK)
tx0=$(std_stat eth-mac FramesTransmittedOK)
h0=$(std_stat rmon etherStatsPkts128to255Octets)
# 200-byte pings: the requests land in the 128-255 octet bucket.
ip netns exec h1 ping -q -c "$FRAMES" -i 0.05 -s 160 -W 2 "$(sx_swp_ip 1)" >/dev/null 2>&1 ||
	not_ok "switchx2: h1 pings $swp for the counter test"
sleep 1
rx1=$(std_stat eth-mac FramesReceivedOK)
tx1=$(std_stat eth-mac FramesTransmittedOK)
h1=$(std_stat rmon etherStatsPkts128to255Octets)

grew "switchx2: eth-mac FramesReceivedOK on $swp counts the pings" "$rx0" "$rx1" $FRAMES
grew "switchx2: eth-mac FramesTransmittedOK on $swp counts the replies" "$tx0" "$tx1" $FRAMES
grew "switchx2: rmon 128-255 octet bucket on $swp counts the pings" "$h0" "$h1" $FRAMES
if ethtool -S "$swp" 2>&1 | grep -q "no stats available\|Operation not supported" ||
	[ -z "$(ethtool -S "$swp" 2>/dev/null | sed 1d)" ]; then
	ok "switchx2: no driver-private ethtool -S counters duplicate the standard ones"
else
	not_ok "switchx2: no driver-private ethtool -S counters duplicate the standard ones" \
		"$(ethtool -S "$swp" 2>&1 | head -5)"
fi
