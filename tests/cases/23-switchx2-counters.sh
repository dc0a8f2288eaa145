#!/bin/sh
# SwitchX-2: the netdev statistics, built on the port counters (PPCNT),
# count the frames that really crossed the port. (Both this driver and
# Debian 5.10's report them; the ethtool groups are in 25.)
. /tests/lib.sh

FRAMES=20
sx_host_setup 1 || not_ok "switchx2: set up host h1 on p1"
swp=$(sx_port 1)
wait_carrier "$swp" 10 1

stat() {
	cat "/sys/class/net/$swp/statistics/$1"
}

# Counters are read from the ASIC periodically: wait past one period.
settle() {
	sleep 3
}

settle
rx0=$(stat rx_packets)
tx0=$(stat tx_packets)

ip netns exec h1 ping -q -c "$FRAMES" -i 0.05 -W 2 "$(sx_swp_ip 1)" >/dev/null 2>&1 ||
	not_ok "switchx2: h1 pings $swp for the counter test"
settle

rx1=$(stat rx_packets)
tx1=$(stat tx_packets)


grew "switchx2: ip -s link rx_packets on $swp grew" "$rx0" "$rx1" $FRAMES
grew "switchx2: ip -s link tx_packets on $swp grew" "$tx0" "$tx1" $FRAMES
