#!/bin/sh
# SwitchX-2: ports 5 and 6 are cabled to each other. Bridged without STP
# they make a loop, and one broadcast storms around it for ever, as it
# would on silicon; the CPU is in the flood domain and gets a copy of
# every round. The driver polices the trap groups: what reaches the CPU
# stays at a rate it can take, so during the storm the guest still runs
# commands and can cut the loop, and the policer's drop count rises.
# The policers are devlink trap policers; a device that refuses them
# leaves the traps unpoliced, and says so.
. /tests/lib.sh

pci=$(sx_pci_addr)

LOOP_A=$(echo "$SX_LOOP" | cut -d' ' -f1)
LOOP_B=$(echo "$SX_LOOP" | cut -d' ' -f2)
swpa=$(sx_port "$LOOP_A")
swpb=$(sx_port "$LOOP_B")

# What the device dropped, as devlink reads it (QPCR violate_count).
policer_drops() {
	devlink -s -j trap policer show |
		jq '[.trap_policer[][] | .stats.rx.dropped] | add // 0'
}

rx_frames() {
	cat "/sys/class/net/$swpa/statistics/rx_packets"
}

ip link add br9 type bridge stp_state 0
echo 1 >/proc/sys/net/ipv6/conf/br9/disable_ipv6
for swp in $swpa $swpb; do
	echo 1 >"/proc/sys/net/ipv6/conf/$swp/disable_ipv6"
	ip addr flush dev "$swp"
	ip link set "$swp" master br9
	ip link set "$swp" up
done
ip link set br9 up
wait_carrier "$swpa" 10 1
wait_carrier "$swpb" 10 1
check_eq "switchx2: devlink shows the two trap policers" "1 2" \
	"$(devlink -j trap policer show | jq -r '[.trap_policer[][] | .policer] | map(tostring) | join(" ")')"
check_eq "switchx2: the ASIC polices the CPU's trap groups 1 and 2" "1 2" \
	"$(sx_asic '[.policers[] | ."trap-groups"[]] | sort | map(tostring) | join(" ")')"
check "switchx2: a trap policer's rate can be set" \
	devlink trap policer set "pci/$pci" policer 1 rate 2000 burst 1024
check_eq "switchx2: the ASIC has the new rate" 2000 \
	"$(sx_asic '.policers[] | select(.pid == 0) | .rate')"
refused "switchx2: a burst size that is no power of two is refused" "power of two" \
	devlink trap policer set "pci/$pci" policer 1 rate 2048 burst 1000
devlink trap policer set "pci/$pci" policer 1 rate 2048 burst 1024

drops=$(policer_drops)
# One broadcast, an ARP probe (no retries): the bridge sends it out of
# both ports, and the two copies go round the loop for ever, the CPU
# getting one each time.
arping -D -q -c 1 -w 1 -I br9 192.0.2.202 >/dev/null 2>&1
sleep 3
rx1=$(rx_frames)
t0=$(now_ms)
ip -s link show dev "$swpa" >/dev/null
ls /sys/class/net >/dev/null
t1=$(now_ms)
sx_stats_settle
rx2=$(rx_frames)
grew "switchx2: the loop storms ($swpa rx_packets)" "$rx1" "$rx2" 1000
# Unpoliced, the guest never finished a command (killed after 240 s).
# Policed, two commands take 1.5 to 6 s under TCG, depending on how busy
# the host is: the bound tells starvation from a slow guest.
if [ $((t1 - t0)) -lt 15000 ]; then
	ok "switchx2: during the storm the guest runs commands ($((t1 - t0)) ms)"
else
	not_ok "switchx2: during the storm the guest runs commands" "$((t1 - t0)) ms"
fi
grew "switchx2: the policer drops what the CPU cannot take" "$drops" "$(policer_drops)" 1000

t0=$(now_ms)
ip link set "$swpb" down
t1=$(now_ms)
if [ $((t1 - t0)) -lt 5000 ]; then
	ok "switchx2: the loop is cut ($((t1 - t0)) ms)"
else
	not_ok "switchx2: the loop is cut within 5 s" "$((t1 - t0)) ms"
fi
sx_stats_settle
rx1=$(rx_frames)
sleep 2
rx2=$(rx_frames)
if [ $((rx2 - rx1)) -lt 10 ]; then
	ok "switchx2: the storm is over (+$((rx2 - rx1)) frames in 2 s)"
else
	not_ok "switchx2: the storm is over" "+$((rx2 - rx1)) frames in 2 s"
fi
ip link del br9
ip link set "$swpa" down

# Silicon that refuses the policers: the traps go unpoliced, the ports
# work, and the kernel log says so once.
fault_begin "the device refuses QPCR"
sx_qom_set refuse-reg '"QPCR"'
rmmod "$SX_DRIVER" && modprobe "$SX_DRIVER" && wait_for 10 sx_port 1
sx_host_setup 1
check "switchx2: QPCR refused: h1 pings p1" wait_for 10 sx_ping 1 "$(sx_swp_ip 1)" 2
check_eq "switchx2: QPCR refused: the kernel log says so once" 1 \
	"$(dmesg | grep -c "refused QPCR")"
check_eq "switchx2: QPCR refused: devlink shows no trap policer" "" \
	"$(devlink -j trap policer show 2>/dev/null |
		jq -r '[.trap_policer[][]? | .policer] | map(tostring) | join(" ")')"
sx_qom_set refuse-reg '""'
fault_end
rmmod "$SX_DRIVER" && modprobe "$SX_DRIVER" && wait_for 10 sx_port 4
check_eq "switchx2: policed again after a reload" "1 2" \
	"$(sx_asic '[.policers[] | ."trap-groups"[]] | sort | map(tostring) | join(" ")')"
