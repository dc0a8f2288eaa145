# shellcheck shell=bash disable=SC2034 # it sets results for tests/bench/l2.sh
# Helpers for the guest side of `make bench` (tests/bench/l2.sh). Bash,
# not dash: $EPOCHREALTIME reads the clock and `read -t` sleeps without
# a fork, so timed loops run no other program than the one they time.
# The guest's clocksource is refined-jiffies (no ACPI, so no HPET or PM
# timer): every timestamp has the tick's resolution, 4 ms at HZ=250.
# Source, do not execute.

# shellcheck source=tests/lib.sh
. /tests/lib.sh

# --- What the host reads -------------------------------------------------
# result SWITCH METRIC PARAM VALUE UNIT: one figure for the report
# (scripts/bench-report.py). PARAM is "-" or KEY=VALUE (run=3, n=4096).
result() {
	echo "bench-data $*"
}

# progress WORDS: what runs now (scripts/bench.sh shows these lines)
progress() {
	echo "bench: $*"
}

# bench_error SWITCH WHAT: a measurement that could not be taken; the
# report lists it and `make bench` fails.
BENCH_ERRORS=0
bench_error() {
	echo "bench-error $*"
	BENCH_ERRORS=$((BENCH_ERRORS + 1))
}

# --- Clock and sleep -----------------------------------------------------
# now: the realtime clock in microseconds, into NOW (no fork)
now() {
	local t=$EPOCHREALTIME
	NOW=$((${t%.*} * 1000000 + 10#${t#*.}))
}

# snooze SECONDS: sleep without a fork (read on a FIFO nobody writes)
SNOOZE_FIFO=/tmp/bench-snooze
[ -p "$SNOOZE_FIFO" ] || mkfifo "$SNOOZE_FIFO"
exec {SNOOZE_FD}<>"$SNOOZE_FIFO"
snooze() {
	read -r -t "$1" -u "$SNOOZE_FD" _ || true
}

# ms US: microseconds as milliseconds with one decimal
ms() {
	printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100))
}

# doubling_steps FIRST MAX: a sweep's sizes, FIRST, 2 FIRST, 4 FIRST, ...
# below MAX, then MAX
doubling_steps() {
	local n=$1
	while [ "$n" -lt "$2" ]; do
		echo "$n"
		n=$((n * 2))
	done
	echo "$2"
}

# per_s COUNT US: COUNT per second over US microseconds, one decimal
per_s() {
	local x10=$(($1 * 10000000 / ($2 > 0 ? $2 : 1)))
	printf '%d.%d' $((x10 / 10)) $((x10 % 10))
}

# --- The three switches --------------------------------------------------
# switchx2: the emulated SwitchX-2, br0 over its cabled ports
# rocker:   QEMU's rocker, brr over its ports
# bridge:   a Linux bridge brs over virtio-net NICs (scripts/bench.sh
#           cables BRIDGE_PORTS of them), forwarding in software
# Port K of each is cabled to a host NIC that tests/bench moves into a
# namespace of its own: NS[sw,K], address IP[sw,K], MAC HMAC[sw,K]; the
# switch's netdev for port K is PORT[sw,K].
# cable:    no switch: two host NICs on one QEMU hub, the rig's limit
#           (TCP and small frames only)
BRIDGE_PORTS=${BRIDGE_PORTS:-4}
SOFT_PORT_MAC_PREFIX=52:54:00:cc:00
SOFT_HOST_MAC_PREFIX=52:54:00:cc:01
CABLE_HOST_MAC_PREFIX=52:54:00:cc:02
declare -A NS IP HMAC PORT NPORTS BR DRIVER LAST_VLAN
BR=([switchx2]=br0 [rocker]=brr [bridge]=brs [cable]="a hub")
NPORTS=([switchx2]=$SX_WIRED [rocker]=$ROCKER_PORTS [bridge]=$BRIDGE_PORTS
	[cable]=2)
DRIVER=([switchx2]=$SX_DRIVER [rocker]=rocker)

rocker_port() {
	local p
	for p in $(netdevs_of_driver rocker); do
		case "$(cat "/sys/class/net/$p/phys_port_name")" in
		*p"$1") echo "$p" && return 0 ;;
		esac
	done
	return 1
}

# host_ns NS NIC_MAC ADDR/PREFIX: that NIC as eth0 of a new namespace NS,
# promiscuous (its counters then count every frame the switch sends it)
# and without IPv6 (so that the counters count our frames only)
host_ns() {
	local nic
	nic=$(netdev_by_mac "$2") || return 1
	ip netns add "$1" || return 1
	ip link set "$nic" netns "$1" || return 1
	ip -n "$1" link set "$nic" name eth0
	ip netns exec "$1" sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6'
	ip -n "$1" addr add "$3" dev eth0
	ip -n "$1" link set eth0 promisc on up
	ip -n "$1" link set lo up
}

# soft_bridge_of NAME NETDEV...: a VLAN-unaware bridge, IPv6 off
soft_bridge_of() {
	local br=$1 p
	shift
	ip link add "$br" type bridge || return 1
	echo 1 >"/proc/sys/net/ipv6/conf/$br/disable_ipv6"
	ip link set "$br" up
	for p in "$@"; do
		echo 1 >"/proc/sys/net/ipv6/conf/$p/disable_ipv6"
		ip link set "$p" master "$br" || return 1
		ip link set "$p" up || return 1
	done
}

# sw_setup SW: the switch's bridge over all its cabled ports, a host
# namespace on each, and the tables above filled in
sw_setup() {
	local sw=$1 k ports=()
	case $sw in
	switchx2)
		sx_l2_hosts_setup || return 1
		sx_bridge_create br0 0 $(seq 1 "$SX_WIRED") || return 1
		for k in $(seq 1 "$SX_WIRED"); do
			NS[$sw,$k]=h$k
			IP[$sw,$k]=$(sx_l2_ip "$k")
			HMAC[$sw,$k]=$(sx_host_mac "$k")
			PORT[$sw,$k]=$(sx_port "$k")
		done
		return 0
		;;
	rocker)
		for k in $(seq 1 "$ROCKER_PORTS"); do
			NS[$sw,$k]=r$k
			IP[$sw,$k]=203.0.113.$k
			HMAC[$sw,$k]=$ROCKER_HOST_MAC_PREFIX:0$k
			PORT[$sw,$k]=$(rocker_port "$k") || return 1
		done
		;;
	bridge)
		for k in $(seq 1 "$BRIDGE_PORTS"); do
			NS[$sw,$k]=s$k
			IP[$sw,$k]=203.0.113.$((64 + k))
			HMAC[$sw,$k]=$SOFT_HOST_MAC_PREFIX:0$k
			PORT[$sw,$k]=$(netdev_by_mac "$SOFT_PORT_MAC_PREFIX:0$k") || return 1
		done
		;;
	cable)
		for k in 1 2; do
			NS[$sw,$k]=c$k
			IP[$sw,$k]=203.0.113.$((128 + k))
			HMAC[$sw,$k]=$CABLE_HOST_MAC_PREFIX:0$k
			host_ns "${NS[$sw,$k]}" "${HMAC[$sw,$k]}" "${IP[$sw,$k]}/24" ||
				return 1
		done
		return 0
		;;
	esac
	for k in $(seq 1 "${NPORTS[$sw]}"); do
		host_ns "${NS[$sw,$k]}" "${HMAC[$sw,$k]}" "${IP[$sw,$k]}/24" || return 1
		ports+=("${PORT[$sw,$k]}")
	done
	soft_bridge_of "${BR[$sw]}" "${ports[@]}"
}

# sw_vlan_check SW: the ports of a VLAN-unaware bridge have VLAN 1 too,
# so `bridge fdb add` without a VLAN adds each entry twice, without a
# VLAN and for VLAN 1, the latter queued last. rocker offloads both, the
# SwitchX-2 driver only the first (VLAN 1 means nothing to a VLAN-unaware
# bridge). Ask with a sentinel entry; LAST_VLAN[SW] is "vlan 1" where the
# twin is offloaded too: fdb_program waits for that one then.
sw_vlan_check() {
	local sw=$1 mac=02:5f:00:00:00:02 i
	LAST_VLAN[$sw]=
	[ "$sw" = bridge ] && return 0
	bridge fdb add "$mac" dev "${PORT[$sw,2]}" master static || return 1
	for i in $(seq 1 300); do
		is_offloaded "$sw" "$mac" && break
		snooze 0.1
	done
	for i in $(seq 1 20); do
		if is_offloaded "$sw" "$mac" "vlan 1"; then
			LAST_VLAN[$sw]="vlan 1"
			break
		fi
		snooze 0.1
	done
	bridge fdb del "$mac" dev "${PORT[$sw,2]}" master static
	fdb_drain "$sw"
}

# sw_ping SW A B: host A reaches host B (and the switch learns both)
sw_ping() {
	ip netns exec "${NS[$1,$2]}" ping -q -c 3 -i 0.2 -W 2 "${IP[$1,$3]}" >/dev/null 2>&1
}

# counter SW K NAME: netdev statistic NAME of host K's NIC
counter() {
	ip netns exec "${NS[$1,$2]}" cat "/sys/class/net/eth0/statistics/$3"
}

# --- TCP throughput --------------------------------------------------------
# iperf_mbps FILE: the receiver's rate an iperf3 -f m client printed (its
# [SUM] line with -P > 1: the last "receiver" line)
iperf_mbps() {
	awk '/receiver/ { r = $(NF - 2) } END { if (r == "") exit 1; print r }' "$1"
}

# iperf_retransmits FILE: the segments the sender retransmitted (its
# [SUM] line with -P > 1: the last "sender" line)
iperf_retransmits() {
	awk '/sender/ { r = $(NF - 1) } END { if (r == "") exit 1; print r }' "$1"
}

# tcp_mbps SW STREAMS PAIRS: aggregate receiver throughput in Mbit/s of
# PAIRS concurrent iperf3 runs, host 2i-1 -> host 2i, each with STREAMS
# parallel TCP streams, BENCH_SECONDS long; into MBPS, and the senders'
# retransmitted segments into RETR
tcp_mbps() {
	local sw=$1 streams=$2 pairs=$3 i pids=() rc=0 r
	MBPS='' RETR=
	for i in $(seq 1 "$pairs"); do
		ip netns exec "${NS[$sw,$((2 * i))]}" iperf3 -s -1 -D \
			-I "/tmp/iperf-s.$i.pid" >/dev/null 2>&1 || return 1
	done
	snooze 1
	for i in $(seq 1 "$pairs"); do
		ip netns exec "${NS[$sw,$((2 * i - 1))]}" iperf3 -f m -P "$streams" \
			-t "$BENCH_SECONDS" -c "${IP[$sw,$((2 * i))]}" >"/tmp/iperf-c.$i" 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}" || rc=1
	MBPS=0
	RETR=0
	for i in $(seq 1 "$pairs"); do
		# A server whose client never came is still there.
		kill "$(cat "/tmp/iperf-s.$i.pid" 2>/dev/null)" 2>/dev/null
		r=$(iperf_mbps "/tmp/iperf-c.$i") || {
			sed 's/^/bench:   iperf3: /' "/tmp/iperf-c.$i" | tail -n 5
			return 1
		}
		MBPS=$(awk -v a="$MBPS" -v b="$r" 'BEGIN { printf "%.1f", a + b }')
		r=$(iperf_retransmits "/tmp/iperf-c.$i") || r=0
		RETR=$((RETR + r))
	done
	return $rc
}

# tcp_flows SW THROUGHPUT RETRANSMITS WHAT: iperf3 h1 -> h2 with each
# of BENCH_FLOWS streams, the figures THROUGHPUT and RETRANSMITS of each;
# WHAT begins the progress lines
tcp_flows() {
	local sw=$1 f
	for f in $BENCH_FLOWS; do
		progress "$4, $f stream(s), $BENCH_SECONDS s"
		if tcp_mbps "$sw" "$f" 1; then
			result "$sw" "$2" "flows=$f" "$MBPS" Mbit/s
			result "$sw" "$3" "flows=$f" "$RETR" segments
		else
			bench_error "$sw $2 with $f stream(s): iperf3 failed"
		fi
	done
}

# --- Small frames ------------------------------------------------------------
# frame_rate SW DST_MAC SECONDS: 64-byte frames (60 bytes and the FCS),
# EtherType 0x88b5 (or what FRAME_MZ tells mausezahn to build instead),
# from host 1 to DST_MAC as fast as mausezahn sends them. Once host 1's NIC sends, and half a second of warm-up later, FPS
# is the rate host 2's NIC counted over SECONDS, OFFERED the rate host
# 1's NIC sent over the same window; DELIVERED is the share of all frames
# sent that host 2 received once the switch has worked off its backlog
# (waited for, so that it does not slow down what is measured next).
frame_rate() {
	local sw=$1 dst=$2 secs=$3 pid rxa txa rx0 rx1 rxb rxc tx0 tx1 txb t0 t1 i
	FPS='' OFFERED='' DELIVERED=''
	rxa=$(counter "$sw" 2 rx_packets) && txa=$(counter "$sw" 1 tx_packets) || return 1
	ip netns exec "${NS[$sw,1]}" timeout $((secs + 60)) \
		mausezahn eth0 -q -c 0 -b "$dst" ${FRAME_MZ:-88:b5 -p 60} >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 1 100); do
		[ "$(counter "$sw" 1 tx_packets)" -gt "$txa" ] && break
		snooze 0.1
	done
	snooze 0.5
	rx0=$(counter "$sw" 2 rx_packets)
	now
	t0=$NOW
	tx0=$(counter "$sw" 1 tx_packets)
	snooze "$secs"
	rx1=$(counter "$sw" 2 rx_packets)
	now
	t1=$NOW
	tx1=$(counter "$sw" 1 tx_packets)
	kill "$pid" 2>/dev/null
	wait "$pid"
	rxb=$(counter "$sw" 2 rx_packets)
	for i in $(seq 1 100); do
		snooze 0.3
		rxc=$(counter "$sw" 2 rx_packets)
		[ "$rxc" = "$rxb" ] && break
		rxb=$rxc
	done
	txb=$(counter "$sw" 1 tx_packets)
	[ $((tx1 - tx0)) -gt 0 ] || return 1
	FPS=$(per_s $((rx1 - rx0)) $((t1 - t0)))
	OFFERED=$(per_s $((tx1 - tx0)) $((t1 - t0)))
	DELIVERED=$(awk -v r=$((rxb - rxa)) -v t=$((txb - txa)) \
		'BEGIN { printf "%.1f", (t > 0 ? 100 * r / t : 0) }')
}

# frame_figures SW DST_MAC PREFIX: frame_rate over BENCH_SECONDS, its
# figures PREFIXframe_rate, PREFIXframe_offered, PREFIXframe_delivered
frame_figures() {
	if frame_rate "$1" "$2" "$BENCH_SECONDS"; then
		result "$1" "${3}frame_rate" 64B "$FPS" frames/s
		result "$1" "${3}frame_offered" 64B "$OFFERED" frames/s
		result "$1" "${3}frame_delivered" 64B "$DELIVERED" %
	else
		bench_error "$1 ${3}frame_rate: no frames sent or counted"
	fi
}

# --- Learned entries -----------------------------------------------------------
# The bridge monitor, with timestamps, runs in the background for the
# whole benchmark (tests/bench/l2.sh starts it).
FDB_MONITOR=/tmp/bench-fdb-monitor

# learn_us MAC: from the monitor's log, the time from the bridge's own
# (software) learning of MAC to the driver reporting the entry
# (extern_learn), in microseconds; 0 when the driver's entry came first
# (the bridge then learns nothing new and says nothing); fails while the
# driver's entry is missing
learn_us() {
	awk -v mac="$1" '
	/^Timestamp:/ {
		split($5, t, ":")
		ts = (t[1] * 3600 + t[2] * 60 + t[3]) * 1000000 + $7
		next
	}
	tolower($1) == mac && /extern_learn/ && hw == "" { hw = ts }
	tolower($1) == mac && !/extern_learn/ && sw == "" && hw == "" { sw = ts }
	END {
		if (hw == "")
			exit 1
		if (sw == "")
			sw = hw
		d = hw - sw
		if (d < -43200000000)
			d += 86400000000
		printf "%d\n", d
	}' "$FDB_MONITOR"
}

# learn_latency SW RUNS: RUNS frames from host 1, each with a new source
# MAC, broadcast so that the CPU sees the frame too and the bridge learns
# the address in software at once: its monitor timestamps that, then the
# driver's extern_learn entry. Runs are spaced by a random 300-500 ms,
# so that they sample every phase of a polling driver's timer.
learn_latency() {
	local sw=$1 runs=$2 i mac us idx
	idx=$([ "$sw" = switchx2 ] && echo 1 || echo 2)
	for i in $(seq 1 "$runs"); do
		mac=$(printf '02:5e:%02x:00:%02x:%02x' "$idx" $((i / 256)) $((i % 256)))
		snooze "0.$((300 + RANDOM % 200))"
		ip netns exec "${NS[$sw,1]}" mausezahn eth0 -q -c 1 -a "$mac" \
			-b ff:ff:ff:ff:ff:ff 88:b5 -p 60 >/dev/null 2>&1 || {
			bench_error "$sw learned-entry latency: mausezahn failed (run $i)"
			return 1
		}
		us=
		for _ in $(seq 1 100); do
			us=$(learn_us "$mac") && break
			snooze 0.1
		done
		if [ -z "$us" ]; then
			bench_error "$sw learned-entry latency: no extern_learn entry for $mac within 10 s (run $i)"
			grep -i -B1 "^$mac " "$FDB_MONITOR" | sed 's/^/bench:   monitor: /'
			return 1
		fi
		result "$sw" learn_latency "run=$i" "$(ms "$us")" ms
	done
}

# --- Probe ---------------------------------------------------------------------
# port_netdevs DRIVER: the netdevs of DRIVER's PCI functions, into NETDEVS
# (a glob, no fork)
port_netdevs() {
	local d
	NETDEVS=()
	for d in /sys/bus/pci/drivers/"$1"/0000:*/net/*; do
		[ -e "$d" ] && NETDEVS+=("${d##*/}")
	done
}

# cabled_ports SW: of NETDEVS, those cabled to a host (SwitchX-2: front
# panel ports 1..SX_WIRED; rocker: all), into CABLED
cabled_ports() {
	local p name k
	CABLED=()
	for p in "${NETDEVS[@]}"; do
		if [ "$1" = rocker ]; then
			CABLED+=("$p")
			continue
		fi
		read -r name <"/sys/class/net/$p/phys_port_name" || continue
		for k in $(seq 1 "$SX_WIRED"); do
			[ "$name" = "p$k" ] && CABLED+=("$p")
		done
	done
}

# carriers_up: every netdev in CABLED has its carrier
carriers_up() {
	local p c
	for p in "${CABLED[@]}"; do
		read -r c <"/sys/class/net/$p/carrier" 2>/dev/null || return 1
		[ "$c" = 1 ] || return 1
	done
}

# probe_time SW RUN: rmmod, then from modprobe until the driver's ports
# all exist as netdevs, and until the cabled ones, set up as soon as they
# exist, report carrier. Into PROBE_DEV_US and PROBE_CARRIER_US.
probe_time() {
	local sw=$1 drv=${DRIVER[$1]} n t0 deadline
	n=$([ "$sw" = switchx2 ] && echo "$SX_PORTS" || echo "$ROCKER_PORTS")
	rmmod "$drv" || return 1
	port_netdevs "$drv"
	[ ${#NETDEVS[@]} -eq 0 ] || return 1
	now
	t0=$NOW
	deadline=$((t0 + 60000000))
	modprobe "$drv" || return 1
	while :; do
		port_netdevs "$drv"
		now
		[ ${#NETDEVS[@]} -ge "$n" ] && break
		[ "$NOW" -lt "$deadline" ] || return 1
		snooze 0.002
	done
	PROBE_DEV_US=$((NOW - t0))
	cabled_ports "$sw"
	printf 'link set dev %s up\n' "${CABLED[@]}" | ip -batch - || return 1
	until carriers_up; do
		now
		[ "$NOW" -lt "$deadline" ] || return 1
		snooze 0.002
	done
	now
	PROBE_CARRIER_US=$((NOW - t0))
}

# --- Static FDB entries -----------------------------------------------------------
# fdb_batch_file OP DEV FIRST COUNT PREFIX FILE: a `bridge -batch` file of
# COUNT static entries PREFIX:xx:xx:xx (PREFIX three bytes) numbered from
# FIRST, on DEV (one awk, not a shell loop: the sweep writes 48K lines)
fdb_batch_file() {
	awk -v op="$1" -v dev="$2" -v first="$3" -v count="$4" -v prefix="$5" 'BEGIN {
		for (i = first; i < first + count; i++)
			printf "fdb %s %s:%02x:%02x:%02x dev %s master static\n", op, prefix,
				int(i / 65536), int(i / 256) % 256, i % 256, dev
	}' >"$6"
}

# fdb_mac PREFIX I: the address of entry I of such a file
fdb_mac() {
	printf '%s:%02x:%02x:%02x' "$1" $(($2 / 65536)) $(($2 / 256 % 256)) $(($2 % 256))
}

# is_offloaded SW MAC [VLAN_ARGS]: the bridge marks MAC offloaded (one
# netlink get, not a dump)
is_offloaded() {
	# shellcheck disable=SC2086 # VLAN_ARGS is "" or "vlan 1".
	case "$(bridge fdb get "$2" br "${BR[$1]}" ${3:-} 2>/dev/null)" in
	*offload*) return 0 ;;
	esac
	return 1
}

# offloaded_count SW PREFIX: entries of PREFIX the bridge marks offloaded
# (a dump: for checks outside the timed part). Only the VLAN-less ones:
# where a port has VLAN 1 (rocker's, the software bridge's), `bridge fdb
# add` without a VLAN adds the entry for VLAN 1 too.
offloaded_count() {
	bridge fdb show br "${BR[$1]}" | grep -i "^$2:.* offload" | grep -vc ' vlan '
}

# fdb_program SW FILE LAST_MAC TIMEOUT_S: run the batch; on an offloading
# switch wait until LAST_MAC is offloaded (both drivers program entries
# in order, from an ordered workqueue). PROG_US is the time from the
# batch's start, BATCH_US the batch alone; for the software bridge both
# are the batch.
fdb_program() {
	local sw=$1 t0 deadline poll_ms poll_s
	now
	t0=$NOW
	bridge -batch "$2" >/dev/null || return 1
	now
	BATCH_US=$((NOW - t0))
	PROG_US=$BATCH_US
	[ "$sw" = bridge ] && return 0
	deadline=$((t0 + $4 * 1000000))
	# Each poll runs `bridge` on the vCPU the driver needs: poll every
	# 2% of the time so far (10 to 200 ms), an error of 2% at most.
	until is_offloaded "$sw" "$3" "${LAST_VLAN[$sw]}"; do
		[ "$NOW" -lt "$deadline" ] || return 1
		poll_ms=$(((NOW - t0) / 50000))
		poll_ms=$((poll_ms < 10 ? 10 : poll_ms > 200 ? 200 : poll_ms))
		printf -v poll_s '0.%03d' "$poll_ms"
		snooze "$poll_s"
		now
	done
	now
	PROG_US=$((NOW - t0))
}

# fdb_drain SW: wait until the driver has worked through everything
# queued before: a sentinel static entry, queued last, is offloaded
fdb_drain() {
	local sw=$1 mac=02:5f:00:00:00:01 i
	[ "$sw" = bridge ] && return 0
	bridge fdb add "$mac" dev "${PORT[$sw,2]}" master static || return 1
	for i in $(seq 1 1200); do
		is_offloaded "$sw" "$mac" && break
		snooze 0.1
	done
	bridge fdb del "$mac" dev "${PORT[$sw,2]}" master static
	[ "$i" -lt 1200 ]
}

# asic_fdb: "SIZE ENTRIES" of the emulated SwitchX-2's FDB, from the host
# (QMP query-switchx2 through the host agent)
asic_fdb() {
	host_qmp "{\"execute\": \"query-switchx2\", \"arguments\": {\"id\": \"$SX_ID\"}}" |
		jq -r '.return[0] | "\(."fdb-size") \(."fdb-entries")"'
}
