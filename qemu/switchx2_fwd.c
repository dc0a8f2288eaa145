/*
 * Mellanox SwitchX-2 switch ASIC emulation: packet pipeline
 *
 * Ingress: the L2 pipeline of docs/switchx2-l2.md: VLAN tag and PVID,
 * link-local control traps (HPKT/HTGT), acceptable frame types, VLAN
 * membership, FID classification (802.1Q: FID = VID), STP, port
 * security and learning, the other control traps, FDB lookup, and
 * flooding through SFGC and the single-entry and
 * per-VID flood tables (SFTR) to front panel ports and to the CPU.  The
 * CPU member of a flood set receives frames with the FDB_MC trap, which
 * is how the slow-path-only driver gets all traffic.  Egress applies per
 * port STP, VLAN membership and tagging; the egress VID is the FID.
 *
 * Frames for the CPU go through the CPU port (switchx2_cpu.c).
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

/*
 * Flood tables.  The profile (CONFIG_PROFILE) provisions
 * max_flood_tables single-entry tables and max_vid_flood_tables per-VID
 * tables of 4K entries; SwitchX-2 has no FID-offset or per-FID tables.
 * Each kind is numbered from 0.  cmd.h (v4.3): "In SwitchX silicon,
 * tables are split equally between the switch partitions", the first
 * share to the first partition: with k partitions configured (swid type
 * Ethernet or InfiniBand, ranked in swid order) and n tables of a kind,
 * table t belongs to the partition of rank t / (n / k); tables beyond
 * k * (n / k) belong to none.
 */
void sx2_flood_reset(SwitchX2State *s)
{
    memset(s->sfgc, 0, sizeof(s->sfgc));
    memset(s->ft_single, 0, sizeof(s->ft_single));
    if (s->ft_vid) {
        memset(s->ft_vid, 0,
               sizeof(SX2PortSet) * SX2_MAX_FLOOD_TABLES * SX2_FT_VID_ENTRIES);
    }
}

unsigned sx2_flood_tables(SwitchX2State *s, unsigned kind)
{
    switch (kind) {
    case SX2_FT_TYPE_SINGLE:
        return s->profile.max_flood_tables;
    case SX2_FT_TYPE_VID:
        return s->profile.max_vid_flood_tables;
    default:
        return 0;
    }
}

static bool sx2_swid_configured(SwitchX2State *s, unsigned swid)
{
    return s->profile.swid_type[swid] == SX2_SWID_TYPE_ETH ||
           s->profile.swid_type[swid] == SX2_SWID_TYPE_IB;
}

/* The switch partition flood table @table of @kind belongs to, or -1 */
int sx2_flood_table_swid(SwitchX2State *s, unsigned kind, unsigned table)
{
    unsigned n = sx2_flood_tables(s, kind);
    unsigned k = 0, per, rank, swid;

    for (swid = 0; swid < SX2_NUM_SWIDS; swid++) {
        k += sx2_swid_configured(s, swid);
    }
    if (!k || table >= n) {
        return -1;
    }
    per = n / k;
    if (!per || table / per >= k) {
        return -1;
    }
    rank = table / per;
    for (swid = 0; swid < SX2_NUM_SWIDS; swid++) {
        if (sx2_swid_configured(s, swid) && rank-- == 0) {
            return swid;
        }
    }
    return -1;
}

/* Entry @index of a VID table, or the one entry of a single table */
SX2PortSet *sx2_flood_entry(SwitchX2State *s, unsigned kind, unsigned table,
                            unsigned index)
{
    assert(table < SX2_MAX_FLOOD_TABLES);
    if (kind == SX2_FT_TYPE_SINGLE) {
        return &s->ft_single[table];
    }
    assert(kind == SX2_FT_TYPE_VID && index < SX2_FT_VID_ENTRIES);
    return &s->ft_vid[table * SX2_FT_VID_ENTRIES + index];
}

static const uint8_t sx2_mac_stp[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 };
static const uint8_t sx2_mac_mmrp[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x20 };
static const uint8_t sx2_mac_mvrp[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x21 };
static const uint8_t sx2_mac_rpvst[6] = { 0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcd };

/*
 * The MLD trap of an IPv6 packet: ICMPv6 (RFC 2710, RFC 3810), directly
 * after the IPv6 header or after a hop-by-hop options header (where MLD
 * carries its router alert).  0 for any other packet.
 */
static uint16_t sx2_classify_mld(const uint8_t *buf, size_t len, size_t l3off)
{
    const uint8_t *ip = buf + l3off;
    size_t l4off = l3off + 40;
    uint8_t next;

    if (l3off + 40 > len || (ip[0] >> 4) != 6) {
        return 0;
    }
    next = ip[6];
    if (next == SX2_IPPROTO_HOPOPTS) {
        if (l4off + 2 > len) {
            return 0;
        }
        next = buf[l4off];
        l4off += (buf[l4off + 1] + 1) * 8;
    }
    if (next != SX2_IPPROTO_ICMPV6 || l4off + 1 > len) {
        return 0;
    }
    switch (buf[l4off]) {
    case 130:
        return SX2_TRAP_MLD_QUERY;
    case 131:
        return SX2_TRAP_MLD_V1_REPORT;
    case 132:
        return SX2_TRAP_MLD_V1_DONE;
    case 143:
        return SX2_TRAP_MLD_V2_REPORT;
    default:
        return 0;
    }
}

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
    case ETH_P_IPV6:
        return sx2_classify_mld(buf, len, l3off);
    default:
        return 0;
    }
}

static void sx2_fwd_drop(SX2Port *in, const SX2Frame *f, const char *why)
{
    trace_switchx2_fwd_drop(in->local_port, f->vid, f->fid, why);
    in->cnt.rx_discards++;
}

/* Step 1: the VID of the frame, and whether SPAFT admits its kind */
static bool sx2_fwd_tag(SX2Port *in, SX2Frame *f)
{
    f->ethertype = lduw_be_p(f->buf + 12);
    f->l3off = ETH_HLEN;
    f->tagged = f->ethertype == ETH_P_VLAN && f->len >= ETH_HLEN + 4;
    if (f->tagged) {
        f->tci = lduw_be_p(f->buf + 14);
        f->ethertype = lduw_be_p(f->buf + 16);
        f->l3off += 4;
    }
    f->vid = f->tci & 0xFFF;
    if (!f->tagged) {
        f->vid = in->pvid;
        return in->allow_untagged;
    }
    if (!f->vid) {
        f->vid = in->pvid;
        return in->allow_prio_tagged;
    }
    return in->allow_tagged;
}

/*
 * Link-local control protocols whose entities sit below the bridge
 * relay (IEEE 802.1Q): STP BPDUs (and Cisco RPVST), LACP (802.1AX,
 * beneath the aggregator), LLDP (802.1AB) and EAPOL (802.1X, the
 * uncontrolled port).  They reach the CPU whatever the port's STP state,
 * VLAN membership and acceptable frame types; MRP (MMRP, MVRP), DHCP,
 * IGMP and MLD are bridged traffic and meet those checks first.
 */
static bool sx2_trap_link_local(uint16_t trap)
{
    switch (trap) {
    case SX2_TRAP_STP:
    case SX2_TRAP_RPVST:
    case SX2_TRAP_LACP:
    case SX2_TRAP_LLDP:
    case SX2_TRAP_EAPOL:
        return true;
    default:
        return false;
    }
}

/*
 * A control protocol trap (HPKT action).  Returns true if the frame
 * goes on through the pipeline: forward (0, "forward to CPU based on
 * switching rules": no trap) and mirror (2); trap (1), trap and soft
 * discard (5) and trap exception (6) give the CPU the sole copy;
 * discard (3) and soft discard (4: no other trap acts on a frame here)
 * drop it.
 */
static bool sx2_fwd_trap(SwitchX2State *s, SX2Port *in, SX2Frame *f,
                         uint16_t trap)
{
    uint8_t action = s->hpkt[trap].action;

    switch (action) {
    case SX2_HPKT_FORWARD:
        return true;
    case SX2_HPKT_DISCARD:
    case SX2_HPKT_SOFT_DISCARD:
        sx2_fwd_drop(in, f, "trap action discard");
        return false;
    default:
        if (!sx2_cpu_trap(s, trap, sx2_cpu_src(in), f->buf, f->len)) {
            in->cnt.rx_discards++;
        }
        return action == SX2_HPKT_MIRROR_TO_CPU;
    }
}

/* Step 4: the 802.1Q FID, equal to the VID */
static bool sx2_fwd_classify_fid(SX2Frame *f)
{
    f->fid = sx2_fid_valid(f->vid) ? f->vid : 0;
    return f->fid != 0;
}

/* Out of @p, and a copy to its egress analyzer if it has one */
static void sx2_fwd_transmit(SwitchX2State *s, SX2Port *p,
                             const uint8_t *buf, size_t len)
{
    sx2_span_mirror(s, p, SX2_MPAR_EGRESS, buf, len);
    sx2_port_egress(p, buf, len);
}

/* Egress checks of one port, then tag push/strip/rewrite and transmit */
static void sx2_fwd_egress(SwitchX2State *s, SX2Port *p, const SX2Frame *f)
{
    size_t body = f->tagged ? ETH_HLEN + 4 - 2 : ETH_HLEN - 2;
    bool untag;
    uint16_t tci;
    uint8_t *out;
    size_t olen;
    uint16_t vid = f->fid;      /* egress VID = FID */

    if (p->swid >= SX2_NUM_SWIDS || p->oper_status != SX2_OPER_UP) {
        trace_switchx2_fwd_egress_skip(p->local_port, f->fid, "port down");
        return;
    }
    if (sx2_stp_state(p, vid) != SX2_STP_FORWARDING) {
        trace_switchx2_fwd_egress_skip(p->local_port, f->fid, "STP");
        return;
    }
    if (!sx2_vid_test(p->vlan_e, vid)) {
        trace_switchx2_fwd_egress_skip(p->local_port, f->fid, "not a VLAN "
                                       "member");
        return;
    }
    untag = sx2_vid_test(p->vlan_u, vid) && !p->prio_tag;
    tci = (f->tci & 0xF000) |
          (sx2_vid_test(p->vlan_u, vid) ? 0 : (uint16_t)vid);
    if (untag ? !f->tagged : f->tagged && f->tci == tci) {
        sx2_fwd_transmit(s, p, f->buf, f->len);
        return;
    }
    /* Rebuild the header: addresses, optional tag, then the rest */
    olen = f->len - body + 12 + (untag ? 0 : 4);
    out = g_malloc(olen);
    memcpy(out, f->buf, 12);
    if (!untag) {
        stw_be_p(out + 12, ETH_P_VLAN);
        stw_be_p(out + 14, tci);
    }
    memcpy(out + 12 + (untag ? 0 : 4), f->buf + body, f->len - body);
    sx2_fwd_transmit(s, p, out, olen);
    g_free(out);
}

/* IPv4 destination in 224.0.0.0/24 (link-local multicast) */
static bool sx2_ipv4_link_local(const SX2Frame *f)
{
    const uint8_t *ip = f->buf + f->l3off;

    return f->l3off + 20 <= f->len && (ip[0] >> 4) == 4 &&
           ip[16] == 224 && ip[17] == 0 && ip[18] == 0;
}

/* SFGC packet type of a frame that floods */
static unsigned sx2_flood_type(SwitchX2State *s, const SX2Frame *f)
{
    static const uint8_t all_hosts[4] = { 0x00, 0x00, 0x00, 0x01 };
    const uint8_t *da = f->buf;

    if (is_broadcast_ether_addr(da)) {
        return SX2_SFGC_TYPE_BROADCAST;
    }
    if (!is_multicast_ether_addr(da)) {
        return SX2_SFGC_TYPE_UNKNOWN_UNICAST;
    }
    if (da[0] == 0x01 && da[1] == 0x00 && da[2] == 0x5e &&
        f->ethertype == ETH_P_IP) {
        if (!sx2_ipv4_link_local(f)) {
            return SX2_SFGC_TYPE_UNREG_MC_IPV4;
        }
        /* SGCR.llb: link-local multicast is treated as broadcast */
        return s->sgcr_llb ? SX2_SFGC_TYPE_BROADCAST
                           : SX2_SFGC_TYPE_IPV4_LINK_LOCAL;
    }
    if (da[0] == 0x33 && da[1] == 0x33 && f->ethertype == ETH_P_IPV6) {
        return memcmp(da + 2, all_hosts, 4) ? SX2_SFGC_TYPE_UNREG_MC_IPV6
                                            : SX2_SFGC_TYPE_IPV6_ALL_HOST;
    }
    return SX2_SFGC_TYPE_UNREG_MC_NON_IP;
}

/* The LAG hash of a frame, for the ports its ingress port's SLCR sets */
static uint32_t sx2_fwd_lag_hash(SwitchX2State *s, SX2Port *in,
                                 const SX2Frame *f)
{
    return sx2_lag_hash(s, in, f->buf, f->len, f->l3off, f->ethertype,
                        f->vid);
}

/* The LAGs one flood has served, and the frame's hash once computed */
typedef struct SX2FloodLags {
    uint64_t done;              /* a bit per LAG ID */
    bool hashed;
    uint32_t hash;
} SX2FloodLags;

/*
 * The flood set's copy for LAG member @p: a frame leaves a LAG once, by
 * one of its distributors in the set, and never by the LAG it came in
 * on.  Returns the port to send to, or NULL.
 */
static SX2Port *sx2_fwd_flood_lag(SwitchX2State *s, SX2Port *in,
                                  const SX2Frame *f, SX2Port *p,
                                  const SX2PortSet *set, SX2FloodLags *fl)
{
    unsigned port;

    QEMU_BUILD_BUG_ON(SX2_MAX_LAGS > 64);

    if ((in->lagged && in->lag_id == p->lag_id && !f->routed) ||
        (fl->done >> p->lag_id) & 1) {
        return NULL;
    }
    fl->done |= 1ull << p->lag_id;
    if (!fl->hashed) {
        fl->hash = sx2_fwd_lag_hash(s, in, f);
        fl->hashed = true;
    }
    port = sx2_lag_pick(s, p->lag_id, fl->hash, set);
    return port ? &s->fp[port] : NULL;
}

/*
 * A copy to each port of @ports but the ingress port, the CPU included
 * (trap FDB_MC), each LAG getting one.  Returns the copies sent.
 */
static unsigned sx2_fwd_to_set(SwitchX2State *s, SX2Port *in,
                               const SX2Frame *f, const SX2PortSet *ports)
{
    /* A copy: transmitting may re-enter the model and change the table */
    const SX2PortSet copy = *ports, *set = &copy;
    SX2FloodLags lags = { .done = 0 };
    unsigned port, n = 0;

    if (sx2_portset_test(set, SX2_CPU_PORT)) {
        n++;
        if (!sx2_cpu_trap(s, SX2_TRAP_FDB_MC, sx2_cpu_src(in), f->buf,
                             f->len)) {
            in->cnt.rx_discards++;
        }
    }
    for (port = 1; port <= s->num_ports; port++) {
        SX2Port *p = &s->fp[port];

        if ((port == in->local_port && !f->routed) ||
            !sx2_portset_test(set, port)) {
            continue;
        }
        if (p->lagged) {
            p = sx2_fwd_flood_lag(s, in, f, p, set, &lags);
        }
        if (p) {
            n++;
            sx2_fwd_egress(s, p, f);
        }
    }
    return n;
}

/*
 * Step 8: flood.  SFGC maps the packet type to a single-entry table or
 * a per-VID table (indexed by the frame's VID); the table must belong to
 * the ingress port's switch partition.  A packet type SFGC never
 * configured is dropped.  Each LAG in the set gets one copy.
 */
static void sx2_fwd_flood(SwitchX2State *s, SX2Port *in, const SX2Frame *f)
{
    unsigned type = sx2_flood_type(s, f);
    const SX2FloodCfg *fc = &s->sfgc[type];
    const SX2PortSet *set;
    unsigned index;

    if (!fc->valid) {
        trace_switchx2_fwd_flood_none(in->local_port, f->fid, type);
        sx2_fwd_drop(in, f, "flood type not configured (SFGC)");
        return;
    }
    if (sx2_flood_table_swid(s, fc->table_type, fc->flood_table) !=
        in->swid) {
        sx2_fwd_drop(in, f, "flood table not of the port's swid");
        return;
    }
    index = fc->table_type == SX2_FT_TYPE_VID ? f->vid : 0;
    set = sx2_flood_entry(s, fc->table_type, fc->flood_table, index);
    trace_switchx2_fwd_flood(in->local_port, f->fid, type,
                             fc->table_type == SX2_FT_TYPE_VID ? "VID"
                                                               : "single",
                             fc->flood_table, index);
    if (!sx2_fwd_to_set(s, in, f, set)) {
        sx2_fwd_drop(in, f, "empty flood set");
    }
}

/* A registered group (SFD multicast record): the ports of its MID */
static void sx2_fwd_to_mid(SwitchX2State *s, SX2Port *in, const SX2Frame *f,
                           unsigned mid)
{
    const SX2PortSet *ports = sx2_smid_entry(s, mid);

    if (!ports) {
        sx2_fwd_drop(in, f, "MID beyond the profile's max_mid");
        return;
    }
    trace_switchx2_fwd_mid(in->local_port, f->fid, mid);
    if (!sx2_fwd_to_set(s, in, f, ports)) {
        sx2_fwd_drop(in, f, "MID has no port but the ingress port");
    }
}

/* Known unicast to a LAG: out of one of its distributors, by the hash */
static void sx2_fwd_to_lag(SwitchX2State *s, SX2Port *in, const SX2Frame *f,
                           unsigned lag_id)
{
    unsigned port = sx2_lag_pick(s, lag_id, sx2_fwd_lag_hash(s, in, f), NULL);

    if (!port) {
        sx2_fwd_drop(in, f, "destination LAG has no distributor");
        return;
    }
    trace_switchx2_fwd_unicast(in->local_port, port, f->fid);
    sx2_fwd_egress(s, &s->fp[port], f);
}

static void sx2_fwd_forward(SwitchX2State *s, SX2Port *in,
                            const SX2Frame *f);

/*
 * Step 7a: unicast to a router MAC goes through the routing stage; what
 * it forwards comes back to the L2 stage in the egress RIF's VLAN, as if
 * received there, but free to leave by the port it came in on.
 */
static void sx2_fwd_route(SwitchX2State *s, SX2Port *in, const SX2Frame *f)
{
    g_autofree SX2Routed *r = g_new0(SX2Routed, 1);
    SX2RouteVerdict v = sx2_router_route(s, in, f, r);
    SX2Frame g;
    unsigned i;

    /* Packet traps that mirror: the CPU's copy is the packet as received */
    for (i = 0; i < r->n_mirror; i++) {
        sx2_cpu_trap(s, r->mirror_trap[i], sx2_cpu_src(in), f->buf, f->len);
    }
    switch (v) {
    case SX2_ROUTE_DROP:
        sx2_fwd_drop(in, f, r->why);
        return;
    case SX2_ROUTE_TRAP:
        if (!sx2_cpu_trap(s, r->trap_id, sx2_cpu_src(in), f->buf, f->len)) {
            in->cnt.rx_discards++;
        }
        return;
    case SX2_ROUTE_FORWARD:
        break;
    }
    g = (SX2Frame) {
        .buf = r->buf, .len = r->len, .vid = r->vid, .fid = r->vid,
        .ethertype = lduw_be_p(r->buf + 12), .l3off = ETH_HLEN,
        .routed = true,
    };
    if (!r->sub_port) {
        sx2_fwd_forward(s, in, &g);
    } else if (r->lag) {
        sx2_fwd_to_lag(s, in, &g, r->port);
    } else {
        int lp = sx2_local_port_of_system_port(s, r->port);

        if (lp > SX2_CPU_PORT) {
            sx2_fwd_egress(s, &s->fp[lp], &g);
        }
    }
}

/* Step 7: known unicast, or flood */
static void sx2_fwd_forward(SwitchX2State *s, SX2Port *in, const SX2Frame *f)
{
    const SX2FdbEntry *e = NULL;
    uint8_t action;
    uint16_t dest;

    e = sx2_fdb_lookup(s, f->buf, f->fid);
    if (!e || e->mc != is_multicast_ether_addr(f->buf)) {
        /* Unknown, or a multicast address with no multicast record */
        sx2_fwd_flood(s, in, f);
        return;
    }
    /* Copied out: the entry may change once the frame is sent */
    action = e->action;
    dest = e->dest;
    if (e->mc && action == SX2_SFD_ACTION_NOP) {
        sx2_fwd_to_mid(s, in, f, dest);
    } else if (action == SX2_SFD_ACTION_DISCARD_ERROR) {
        sx2_fwd_drop(in, f, "FDB discard");
    } else if (action == SX2_SFD_ACTION_FORWARD_IP_ROUTER) {
        if (f->routed) {
            sx2_fwd_drop(in, f, "routed frame to a router MAC");
        } else {
            sx2_fwd_route(s, in, f);
        }
    } else if (action == SX2_SFD_ACTION_TRAP || dest == SX2_CPU_PORT) {
        trace_switchx2_fwd_unicast(in->local_port, SX2_CPU_PORT, f->fid);
        if (!sx2_cpu_trap(s, SX2_TRAP_FDB_MC, sx2_cpu_src(in), f->buf,
                             f->len)) {
            in->cnt.rx_discards++;
        }
    } else if (!f->routed &&
               (dest == in->local_port || dest == sx2_port_dest(in))) {
        sx2_fwd_drop(in, f, "destination is the ingress port or its LAG");
    } else if (sx2_dest_is_lag(dest)) {
        sx2_fwd_to_lag(s, in, f, sx2_dest_lag_id(dest));
    } else {
        trace_switchx2_fwd_unicast(in->local_port, dest, f->fid);
        sx2_fwd_egress(s, &s->fp[dest], f);
    }
}

/*
 * Whether {@in, @f} learns: a unicast source, a port in learn mode
 * (SPMLR 2), learning on for the VID (SPVMLR), STP learning or
 * forwarding.  Secure ports (SPMLR 3) never learn.
 */
static bool sx2_fwd_learns(SX2Port *in, const SX2Frame *f, uint8_t stp)
{
    return in->learn_mode == SX2_LEARN_ENABLE &&
           sx2_vid_test(in->learn_vid, f->vid) &&
           (stp == SX2_STP_LEARNING || stp == SX2_STP_FORWARDING);
}

/*
 * A link-local control frame (sx2_trap_link_local()) the CPU takes (or
 * that is discarded) before any bridge check.  Its source is learned
 * only if the frame would have passed them.  Returns true if it goes on
 * (a mirrored copy) through the whole pipeline.
 */
static bool sx2_fwd_link_local(SwitchX2State *s, SX2Port *in, SX2Frame *f,
                               bool admitted, uint16_t trap)
{
    uint8_t stp = sx2_stp_state(in, f->vid);

    if (admitted && sx2_port_collects(in) &&
        sx2_vid_test(in->vlan_i, f->vid) &&
        sx2_fid_valid(f->vid) && !is_multicast_ether_addr(f->buf + 6) &&
        !(in->learn_mode == SX2_LEARN_SEC &&
          sx2_fdb_source_elsewhere(s, in, f->buf + 6, f->vid))) {
        sx2_fdb_learn(s, in, f->buf + 6, f->vid,
                      sx2_fwd_learns(in, f, stp));
    }
    return sx2_fwd_trap(s, in, f, trap);
}

/*
 * The ingress pipeline of docs/switchx2-l2.md, step by step: ingress
 * mirroring, tag,
 * link-local control traps, the LAG collector, SPAFT, VLAN membership,
 * FID, STP, port security and learning, the other traps, forwarding.
 */
void sx2_fwd_ingress(SwitchX2State *s, SX2Port *in, const uint8_t *buf,
                     size_t len)
{
    SX2Frame f = { .buf = buf, .len = len };
    bool admitted;
    uint16_t trap;
    uint8_t stp;

    if (in->swid >= SX2_NUM_SWIDS) {
        sx2_fwd_drop(in, &f, "port has no swid");
        return;
    }
    /* Ingress mirroring copies the frame as received, whatever follows */
    sx2_span_mirror(s, in, SX2_MPAR_INGRESS, buf, len);
    admitted = sx2_fwd_tag(in, &f);
    trap = sx2_classify(buf, len, f.l3off, f.ethertype);
    if (trap && sx2_trap_link_local(trap) &&
        s->hpkt[trap].action != SX2_HPKT_FORWARD) {
        if (!sx2_fwd_link_local(s, in, &f, admitted, trap)) {
            return;
        }
        trap = 0;   /* a mirrored copy goes on as a plain frame */
    }
    if (!sx2_port_collects(in)) {
        /* Only the link-local control frames above get past it */
        sx2_fwd_drop(in, &f, "LAG member's collector disabled (SLCOR)");
        return;
    }
    if (!admitted) {
        sx2_fwd_drop(in, &f, "frame type not accepted (SPAFT)");
        return;
    }
    if (!sx2_vid_test(in->vlan_i, f.vid)) {
        sx2_fwd_drop(in, &f, "not an ingress VLAN member");
        return;
    }
    if (!sx2_fwd_classify_fid(&f)) {
        sx2_fwd_drop(in, &f, "no FID");
        return;
    }
    stp = sx2_stp_state(in, f.vid);
    if (stp != SX2_STP_LEARNING && stp != SX2_STP_FORWARDING) {
        sx2_fwd_drop(in, &f, "STP discarding");
        return;
    }
    if (!is_multicast_ether_addr(buf + 6)) {
        if (in->learn_mode == SX2_LEARN_SEC &&
            sx2_fdb_source_elsewhere(s, in, buf + 6, f.fid)) {
            /* No trap ID exists to register for port security errors */
            in->cnt.rx_security++;
            sx2_fwd_drop(in, &f, "port security: source known on another "
                         "port");
            return;
        }
        sx2_fdb_learn(s, in, buf + 6, f.fid, sx2_fwd_learns(in, &f, stp));
    }
    if (stp != SX2_STP_FORWARDING) {
        sx2_fwd_drop(in, &f, "STP learning");
        return;
    }
    if (trap && !sx2_fwd_trap(s, in, &f, trap)) {
        return;
    }
    sx2_fwd_forward(s, in, &f);
}
