# Guest-side test helpers (POSIX sh: dash). Source, do not execute.
#
# Results are kselftest-style TAP lines; the test number is shared by all
# cases through a counter file, so every case can run as its own process.

# What the host's scripts/topology.sh says about the cabling.
# shellcheck source=/dev/null
[ -f /harness/env ] && . /harness/env

TAP_COUNTER=/tmp/tap.count
SWITCH_DRIVERS="rocker mlxsw_switchx2"

tap_next() {
	n=$(($(cat "$TAP_COUNTER" 2>/dev/null || echo 0) + 1))
	echo "$n" >"$TAP_COUNTER"
	echo "$n"
}

ok() {
	echo "ok $(tap_next) $*"
}

# not_ok DESCRIPTION [REASON...]: a failed test with its reason as a
# TAP diagnostic.
not_ok() {
	desc=$1
	shift
	echo "not ok $(tap_next) $desc"
	[ $# -gt 0 ] && echo "$*" | sed 's/^/#   /'
	return 0
}

# check DESCRIPTION COMMAND [ARGS...]: passes when COMMAND exits 0.
check() {
	desc=$1
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc" "command failed: $*" "$out"
	fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected '$2', got '$3'"
	fi
}

load_switch_drivers() {
	for drv in $SWITCH_DRIVERS; do
		modprobe "$drv" || echo "harness: modprobe $drv failed" >&2
	done
	# Let udev-less netdev registration settle.
	sleep 1
}

# Netdevs bound to a PCI driver, one name per line, sorted.
netdevs_of_driver() {
	for dev in /sys/class/net/*; do
		drv=$(readlink "$dev/device/driver" 2>/dev/null) || continue
		[ "${drv##*/}" = "$1" ] && echo "${dev##*/}"
	done | sort
}

# The netdev whose MAC address is $1.
netdev_by_mac() {
	for dev in /sys/class/net/*; do
		[ "$(cat "$dev/address")" = "$1" ] && echo "${dev##*/}" && return 0
	done
	return 1
}

switch_ports() {
	for dev in /sys/class/net/*; do
		[ -n "$(cat "$dev/phys_switch_id" 2>/dev/null)" ] && echo "${dev##*/}"
	done
}

show_switch_ports() {
	for p in $(switch_ports); do
		ip -d link show dev "$p"
	done
}

# --- SwitchX-2 helpers ---

SX_DRIVER=mlxsw_switchx2

# PCI address of the SwitchX-2 function bound to our driver.
sx_pci_addr() {
	for d in /sys/bus/pci/drivers/$SX_DRIVER/0000:*; do
		[ -e "$d" ] && echo "${d##*/}" && return 0
	done
	return 1
}

# The netdev of front-panel port N (phys_port_name pN).
sx_port() {
	for p in $(netdevs_of_driver "$SX_DRIVER"); do
		[ "$(cat "/sys/class/net/$p/phys_port_name" 2>/dev/null)" = "p$1" ] &&
			echo "$p" && return 0
	done
	return 1
}

# Move the host NIC cabled to port N into network namespace hN (once) as
# interface "eth0", and give both ends addresses on their own /30.
sx_host_setup() {
	n=$1
	if ! ip netns list | grep -qw "h$n"; then
		nic=$(netdev_by_mac "$SX_HOST_MAC_PREFIX:0$n") || return 1
		ip netns add "h$n"
		ip link set "$nic" netns "h$n"
		ip -n "h$n" link set "$nic" name eth0
		ip -n "h$n" addr add "$(sx_host_ip "$n")/30" dev eth0
		ip -n "h$n" link set eth0 up
	fi
	swp=$(sx_port "$n") || return 1
	ip addr replace "$(sx_swp_ip "$n")/30" dev "$swp"
	ip link set "$swp" up
}

# 192.0.2.0/24 (TEST-NET-1), one /30 per port: .4n+1 switch, .4n+2 host.
sx_swp_ip() {
	echo "192.0.2.$((4 * $1 + 1))"
}

sx_host_ip() {
	echo "192.0.2.$((4 * $1 + 2))"
}

# Wait up to $2 seconds for a sysfs carrier value $3 on netdev $1 (in
# namespace $4, when given).
wait_carrier() {
	i=0
	while [ $i -lt $(($2 * 10)) ]; do
		if [ -n "$4" ]; then
			c=$(ip netns exec "$4" cat "/sys/class/net/$1/carrier" 2>/dev/null)
		else
			c=$(cat "/sys/class/net/$1/carrier" 2>/dev/null)
		fi
		[ "$c" = "$3" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
