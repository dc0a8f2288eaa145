#!/bin/sh
# A port that joins a bridge while the driver is still creating the later
# ports (udev or networkd do that at boot) is offloaded like any other:
# in particular what the ASIC learns reaches the bridge, which needs the
# driver to poll the device's FDB notifications however the probe and
# the first bridge interleave.
. /tests/lib.sh

sx_l2_hosts_setup || not_ok "switchx2: set up hosts on the shared subnet"

ip link add br0 type bridge
echo 1 >/proc/sys/net/ipv6/conf/br0/disable_ipv6
ip link set br0 up
rmmod "$SX_DRIVER"
# Late EMAD responses make the probe take a few seconds; the first port
# exists long before the last.
sx_qom_set fault-emad-delay-ms 10
modprobe "$SX_DRIVER" &
probe=$!
if wait_for 30 sx_port 1; then
	swp1=$(sx_port 1)
	ip link set "$swp1" master br0
	if sx_port 8 >/dev/null; then
		not_ok "switchx2: $swp1 joined br0 while the driver was creating ports" \
			"every port already existed"
	else
		ok "switchx2: $swp1 joined br0 while the driver was creating ports"
	fi
else
	not_ok "switchx2: port 1 appeared during the probe"
fi
wait "$probe"
sx_qom_set fault-emad-delay-ms 0

swp1=$(sx_port 1)
swp2=$(sx_port 2)
ip link set "$swp2" master br0
sx_l2_hosts_setup || not_ok "switchx2: hosts on the shared subnet again"
check "switchx2: h1 pings h2 through br0" sx_ping 1 "$(sx_l2_ip 2)" 5
for n in 1 2; do
	mac=$(sx_host_mac "$n")
	swp=$(sx_port "$n")
	if wait_for 5 sx_br_offloaded br0 "$mac" "$swp"; then
		ok "switchx2: the ASIC's entry for h$n reached the bridge ($swp, offloaded)"
	else
		not_ok "switchx2: the ASIC's entry for h$n reached the bridge ($swp, offloaded)" \
			"$(bridge fdb show br br0 | grep -i "$mac")"
	fi
done
sx_bridge_destroy br0
