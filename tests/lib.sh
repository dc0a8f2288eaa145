# Guest-side test helpers (POSIX sh: dash). Source, do not execute.
#
# Results are kselftest-style TAP lines; the test number is shared by all
# cases through a counter file, so every case can run as its own process.

# What the host's scripts/topology.sh says about the cabling.
# shellcheck source=/dev/null
[ -f /harness/env ] && . /harness/env

TAP_COUNTER=/tmp/tap.count
SWITCH_DRIVERS="rocker"

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
