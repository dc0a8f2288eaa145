/*
 * Mellanox SwitchX-2 switch ASIC emulation: packet pipeline
 *
 * Ingress: control protocol classification and trapping (HPKT/HTGT),
 * STP state, flood group selection (SFGC) and flood table lookup
 * (SFTR).  With no FDB yet every frame is "unknown" and floods; the
 * CPU member of a flood set receives it with the FDB_MC trap, which is
 * how the slow-path-only driver gets all traffic.  Flooding to other
 * front panel ports, the FDB, VLAN membership and learning belong to
 * the L2 forwarding pipeline that is still to come.
 *
 * Egress from the CPU: control packets (TX header ctl = ETH_CTL) go
 * straight out of the local port named in the TX header.
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "net/eth.h"
#include "switchx2.h"
#include "trace.h"

#define SX2_DEFAULT_PVID    1
#define SX2_MAX_TX_DEPTH    4

SX2PortSet *sx2_sftr_entry(SwitchX2State *s, unsigned table, unsigned index)
{
    assert(table < SX2_MAX_FLOOD_TABLES && index < SX2_FT_MAX_INDEX);
    return &s->sftr[table * SX2_FT_MAX_INDEX + index];
}

static bool sx2_trap_action_traps(uint8_t action)
{
    return action == SX2_HPKT_TRAP_TO_CPU ||
           action == SX2_HPKT_MIRROR_TO_CPU ||
           action == SX2_HPKT_TRAP_AND_SOFT_DISCARD ||
           action == SX2_HPKT_TRAP_EXCEPTION_TO_CPU;
}

bool sx2_trap_to_cpu(SwitchX2State *s, uint16_t trap_id, uint16_t sys_port,
                     const uint8_t *buf, size_t len)
{
    const SX2Trap *t;
    const SX2TrapGroup *g;

    if (trap_id >= SX2_TRAP_ID_MAX) {
        return false;
    }
    t = &s->hpkt[trap_id];
    if (!sx2_trap_action_traps(t->action)) {
        trace_switchx2_rx_drop(sys_port, trap_id, "trap not enabled");
        s->cpu_drops++;
        return false;
    }
    g = &s->htgt[t->group];
    if (!g->valid) {
        trace_switchx2_rx_drop(sys_port, trap_id, "trap group not set up");
        s->cpu_drops++;
        return false;
    }
    if (!sx2_rdq_deliver(s, g->rdq, sys_port, trap_id, buf, len)) {
        s->cpu_drops++;
        return false;
    }
    return true;
}

static const uint8_t sx2_mac_stp[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 };
static const uint8_t sx2_mac_mmrp[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x20 };
static const uint8_t sx2_mac_mvrp[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x21 };
static const uint8_t sx2_mac_rpvst[6] = { 0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcd };

/* Trap ID of a control protocol frame, 0 for ordinary traffic */
static uint16_t sx2_classify(const uint8_t *buf, size_t len, size_t l3off,
                             uint16_t ethertype)
{
    if (!memcmp(buf, sx2_mac_stp, 6)) {
        return SX2_TRAP_STP;
    }
    if (!memcmp(buf, sx2_mac_mmrp, 6)) {
        return SX2_TRAP_MMRP;
    }
    if (!memcmp(buf, sx2_mac_mvrp, 6)) {
        return SX2_TRAP_MVRP;
    }
    if (!memcmp(buf, sx2_mac_rpvst, 6)) {
        return SX2_TRAP_RPVST;
    }
    switch (ethertype) {
    case SX2_ETHERTYPE_SLOW:
        /* Slow protocols subtype 1 is LACP */
        return l3off < len && buf[l3off] == 1 ? SX2_TRAP_LACP : 0;
    case SX2_ETHERTYPE_EAPOL:
        return SX2_TRAP_EAPOL;
    case SX2_ETHERTYPE_LLDP:
        return SX2_TRAP_LLDP;
    case ETH_P_IP: {
        const uint8_t *ip = buf + l3off;
        size_t ihl, l4off;

        if (l3off + 20 > len || (ip[0] >> 4) != 4) {
            return 0;
        }
        ihl = (ip[0] & 0xF) * 4;
        l4off = l3off + ihl;
        if (ihl < 20 || l4off + 4 > len) {
            return 0;
        }
        if (ip[9] == SX2_IPPROTO_IGMP) {
            switch (buf[l4off]) {
            case 0x11:
                return SX2_TRAP_IGMP_QUERY;
            case 0x12:
                return SX2_TRAP_IGMP_V1_REPORT;
            case 0x16:
                return SX2_TRAP_IGMP_V2_REPORT;
            case 0x17:
                return SX2_TRAP_IGMP_V2_LEAVE;
            case 0x22:
                return SX2_TRAP_IGMP_V3_REPORT;
            }
            return 0;
        }
        if (ip[9] == IP_PROTO_UDP) {
            uint16_t dport = lduw_be_p(buf + l4off + 2);

            return dport == 67 || dport == 68 ? SX2_TRAP_DHCP : 0;
        }
        return 0;
    }
    default:
        return 0;
    }
}

static unsigned sx2_flood_type(const uint8_t *buf, uint16_t ethertype)
{
    if (is_broadcast_ether_addr(buf)) {
        return SX2_SFGC_TYPE_BROADCAST;
    }
    if (!is_multicast_ether_addr(buf)) {
        return SX2_SFGC_TYPE_UNKNOWN_UNICAST;
    }
    if (buf[0] == 0x01 && buf[1] == 0x00 && buf[2] == 0x5e &&
        ethertype == ETH_P_IP) {
        return SX2_SFGC_TYPE_UNREG_MC_IPV4;
    }
    if (buf[0] == 0x33 && buf[1] == 0x33 && ethertype == ETH_P_IPV6) {
        return SX2_SFGC_TYPE_UNREG_MC_IPV6;
    }
    return SX2_SFGC_TYPE_UNREG_MC_NON_IP;
}

static uint8_t sx2_stp_state(const SX2Port *p, uint16_t vid)
{
    unsigned be = 4095 - vid;

    return (p->stp[be / 4] >> ((vid % 4) * 2)) & 3;
}

void sx2_fwd_ingress(SwitchX2State *s, SX2Port *in, const uint8_t *buf,
                     size_t len)
{
    uint16_t ethertype = lduw_be_p(buf + 12);
    uint16_t vid = SX2_DEFAULT_PVID;
    size_t l3off = ETH_HLEN;
    const SX2FloodCfg *fc;
    const SX2PortSet *set;
    unsigned type, index, port;
    uint16_t trap;

    if (in->swid >= SX2_NUM_SWIDS) {
        trace_switchx2_rx_port_drop(in->local_port, len, "port has no swid");
        in->cnt.rx_discards++;
        return;
    }
    if (ethertype == ETH_P_VLAN && len >= ETH_HLEN + 4) {
        vid = lduw_be_p(buf + 14) & 0xFFF;
        ethertype = lduw_be_p(buf + 16);
        l3off += 4;
    }

    /* Control protocols are trapped regardless of the STP state */
    trap = sx2_classify(buf, len, l3off, ethertype);
    if (trap && s->hpkt[trap].action == SX2_HPKT_DISCARD) {
        trace_switchx2_rx_port_drop(in->local_port, len, "trap discard");
        in->cnt.rx_discards++;
        return;
    }
    if (trap && sx2_trap_action_traps(s->hpkt[trap].action)) {
        if (!sx2_trap_to_cpu(s, trap, in->system_port, buf, len)) {
            in->cnt.rx_discards++;
        }
        if (s->hpkt[trap].action != SX2_HPKT_MIRROR_TO_CPU) {
            return;
        }
    }

    if (sx2_stp_state(in, vid) != SX2_STP_FORWARDING) {
        trace_switchx2_rx_port_drop(in->local_port, len, "STP not forwarding");
        in->cnt.rx_discards++;
        return;
    }

    type = sx2_flood_type(buf, ethertype);
    fc = &s->sfgc[type][0];
    if (!fc->valid) {
        trace_switchx2_rx_port_drop(in->local_port, len, "no flood group");
        in->cnt.rx_discards++;
        return;
    }
    index = fc->table_type == SX2_FT_TYPE_VID ||
            fc->table_type == SX2_FT_TYPE_FID ||
            fc->table_type == SX2_FT_TYPE_FID_OFFSET ? vid : 0;
    set = sx2_sftr_entry(s, fc->flood_table, index);

    for (port = 1; port <= s->num_ports; port++) {
        if (port != in->local_port && sx2_portset_test(set, port) &&
            !s->flood_unimp_logged) {
            qemu_log_mask(LOG_UNIMP, "switchx2: flooding to front panel "
                          "ports is not implemented yet\n");
            s->flood_unimp_logged = true;
        }
    }
    if (!sx2_portset_test(set, SX2_CPU_PORT)) {
        trace_switchx2_rx_port_drop(in->local_port, len,
                                    "CPU not in flood set");
        in->cnt.rx_discards++;
        return;
    }
    if (!sx2_trap_to_cpu(s, SX2_TRAP_FDB_MC, in->system_port, buf, len)) {
        in->cnt.rx_discards++;
    }
}

void sx2_fwd_from_cpu(SwitchX2State *s, const uint8_t *txhdr,
                      const uint8_t *buf, size_t len)
{
    unsigned port = sx2_fget(txhdr, SX2_TXHDR_PORT_MID);
    SX2Port *p;

    if (sx2_fget(txhdr, SX2_TXHDR_VERSION) != SX2_TXHDR_VERSION_0 ||
        sx2_fget(txhdr, SX2_TXHDR_PROTO) != SX2_TXHDR_PROTO_ETH) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: TX header version %u "
                      "protocol %u unsupported, packet dropped\n",
                      sx2_fget(txhdr, SX2_TXHDR_VERSION),
                      sx2_fget(txhdr, SX2_TXHDR_PROTO));
        return;
    }
    if (sx2_fget(txhdr, SX2_TXHDR_CTL) != SX2_TXHDR_CTL_ETH_CTL) {
        qemu_log_mask(LOG_UNIMP, "switchx2: data packets from the CPU "
                      "need the forwarding pipeline, dropped\n");
        return;
    }
    p = sx2_port_get(s, port);
    if (!p) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: control packet for local "
                      "port %u which does not exist, dropped\n", port);
        return;
    }
    if (p->swid >= SX2_NUM_SWIDS) {
        trace_switchx2_tx_drop(port, len, "port has no swid");
        p->cnt.tx_discards++;
        return;
    }
    if (s->tx_depth >= SX2_MAX_TX_DEPTH) {
        trace_switchx2_tx_drop(port, len, "nested transmit");
        p->cnt.tx_discards++;
        return;
    }
    s->tx_depth++;
    sx2_port_egress(p, buf, len);
    s->tx_depth--;
}
