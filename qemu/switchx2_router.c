/*
 * Mellanox SwitchX-2 switch ASIC emulation: the router
 *
 * RGCR enables the router and sizes its interface table; RITR creates
 * router interfaces (RIFs) on a VLAN or on one {port or LAG, VLAN}
 * (a sub-port); RICNT reads and clears the RIF counter sets that RITR
 * binds to a RIF's ingress and egress.  The routing stage at the end
 * of the file routes what the forwarding stage hands it, with the
 * routes of switchx2_lpm.c and the next hops and neighbours of
 * switchx2_neigh.c.
 *
 * The router is the most speculative part of the silicon (SX2-SILICON
 * section 5): reg.h's SwitchX-2 notes are all the sources give, and the
 * model takes the least they allow (docs/switchx2-conformance.md):
 * - the router exists only when the profile types a switch partition
 *   "router port" (cmd.h: "SwitchX-2 only"); how the router attaches is
 *   otherwise silent, and sx2_router_attached() is the one place that
 *   decides it;
 * - RGCR usp, pcp_rw and activity_dis are not supported by SwitchX-2;
 * - RITR op is reserved for SwitchX-2 (a RIF is deleted by writing it
 *   disabled), ipv4_fe/ipv6_fe are not supported, FID interfaces exist
 *   only for vFIDs (not modelled): VLAN and sub-port RIFs only;
 * - no multicast routing, loopback filter, VRRP, MAC profiles or egress
 *   FIDs (fields newer than SwitchX-2's drivers, or silent).
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "net/eth.h"
#include "qemu/xxhash.h"
#include "switchx2.h"
#include "trace.h"

#define BAD_PARAM   SX2_EMAD_STATUS_BAD_PARAMETER
#define OK          SX2_EMAD_STATUS_SUCCESS

static const uint8_t sx2_zero_mac[6];

/* The smallest IP MTU a RIF may have: IPv4's (RFC 791) */
#define SX2_RIF_MTU_MIN     68

void sx2_router_init(SwitchX2State *s)
{
    sx2_lpm_init(s);
    sx2_neigh_init(s);
}

void sx2_router_fini(SwitchX2State *s)
{
    sx2_lpm_fini(s);
    sx2_neigh_fini(s);
}

void sx2_router_reset(SwitchX2State *s)
{
    memset(&s->router, 0, sizeof(s->router));
    sx2_lpm_reset(s);
    sx2_neigh_reset(s);
}

static unsigned sx2_router_rif_count(const SX2Router *r)
{
    unsigned i, n = 0;

    for (i = 0; i < SX2_MAX_RIFS; i++) {
        n += r->rif[i].valid;
    }
    return n;
}

/* A register field the model refuses to see set, and why */
typedef struct SX2UnsetField {
    const char *name;
    unsigned off, shift, bits;
} SX2UnsetField;

/*
 * Whether every one of @fields is 0 in @pl; the first that is not is
 * logged as unimplemented (LOG_UNIMP) with its reason.
 */
static bool sx2_fields_unset(const char *reg, const uint8_t *pl,
                             const SX2UnsetField *fields, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        uint32_t v = sx2_fget(pl, fields[i].off, fields[i].shift,
                              fields[i].bits);

        if (v) {
            qemu_log_mask(LOG_UNIMP, "switchx2: %s: %s = %u\n", reg,
                          fields[i].name, v);
            return false;
        }
    }
    return true;
}

/* RGCR: what SwitchX-2 does not support, refused with LOG_UNIMP */
static bool sx2_rgcr_supported(const uint8_t *pl)
{
    static const SX2UnsetField unsupported[] = {
        { "usp (not supported by SwitchX-2)", SX2_REG_RGCR_USP },
        { "pcp_rw (not supported by SwitchX-2)", SX2_REG_RGCR_PCP_RW },
        { "activity_dis (not supported by SwitchX-2)",
          SX2_REG_RGCR_ACTIVITY_DIS },
    };

    return sx2_fields_unset("RGCR", pl, unsupported,
                            ARRAY_SIZE(unsupported));
}

/*
 * RGCR - router general configuration
 */
uint8_t sx2_reg_rgcr(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Router *r = &s->router;
    unsigned max_rifs = sx2_fget(pl, SX2_REG_RGCR_MAX_RIFS);

    if (!write) {
        memset(pl, 0, SX2_REG_RGCR_LEN);
        sx2_fset(pl, SX2_REG_RGCR_IPV4_EN, r->ipv4_en);
        sx2_fset(pl, SX2_REG_RGCR_IPV6_EN, r->ipv6_en);
        sx2_fset(pl, SX2_REG_RGCR_MAX_RIFS, r->max_rifs);
        return OK;
    }
    if (!sx2_router_write_ok(s, "RGCR") || !sx2_rgcr_supported(pl)) {
        return BAD_PARAM;
    }
    if (max_rifs > SX2_MAX_RIFS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RGCR: %u router interfaces "
                      "(the device has %u)\n", max_rifs, SX2_MAX_RIFS);
        return BAD_PARAM;
    }
    if (max_rifs != r->max_rifs && sx2_router_rif_count(r)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RGCR: max_router_interfaces "
                      "%u -> %u while %u router interfaces exist\n",
                      r->max_rifs, max_rifs, sx2_router_rif_count(r));
        return BAD_PARAM;
    }
    r->ipv4_en = sx2_fget(pl, SX2_REG_RGCR_IPV4_EN);
    r->ipv6_en = sx2_fget(pl, SX2_REG_RGCR_IPV6_EN);
    r->max_rifs = max_rifs;
    trace_switchx2_router_config(r->ipv4_en, r->ipv6_en, r->max_rifs);
    return OK;
}

/* RITR fields SwitchX-2 reserves or does not support: LOG_UNIMP */
static bool sx2_ritr_supported(const uint8_t *pl)
{
    static const SX2UnsetField unsupported[] = {
        { "op (reserved for SwitchX-2)", SX2_REG_RITR_OP },
        { "ipv4_fe (not supported in SwitchX-2)", SX2_REG_RITR_IPV4_FE },
        { "ipv6_fe (not supported in SwitchX-2)", SX2_REG_RITR_IPV6_FE },
        { "ipv4_mc (no multicast routing)", SX2_REG_RITR_IPV4_MC },
        { "ipv6_mc (no multicast routing)", SX2_REG_RITR_IPV6_MC },
        { "ipv4_mc_fe (no multicast routing)", SX2_REG_RITR_IPV4_MC_FE },
        { "ipv6_mc_fe (no multicast routing)", SX2_REG_RITR_IPV6_MC_FE },
        { "lb_en (no loopback filter)", SX2_REG_RITR_LB_EN },
        { "if_mac_profile_id", SX2_REG_RITR_IF_MAC_PROFILE },
        { "if_vrrp_id_ipv6", SX2_REG_RITR_IF_VRRP_IPV6 },
        { "if_vrrp_id_ipv4", SX2_REG_RITR_IF_VRRP_IPV4 },
    };
    unsigned type = sx2_fget(pl, SX2_REG_RITR_TYPE);
    unsigned efid;

    if (type != SX2_RITR_TYPE_VLAN && type != SX2_RITR_TYPE_SUB_PORT) {
        qemu_log_mask(LOG_UNIMP, "switchx2: RITR: type %u: only VLAN (0) "
                      "and sub-port (2) interfaces (FID interfaces need "
                      "vFIDs on SwitchX-2)\n", type);
        return false;
    }
    if (!sx2_fields_unset("RITR", pl, unsupported,
                          ARRAY_SIZE(unsupported))) {
        return false;
    }
    efid = type == SX2_RITR_TYPE_VLAN ? sx2_fget(pl, SX2_REG_RITR_VLAN_EFID)
                                      : sx2_fget(pl, SX2_REG_RITR_SP_EFID);
    if (efid) {
        qemu_log_mask(LOG_UNIMP, "switchx2: RITR: efid: no egress FIDs "
                      "(6.1's unified bridge model)\n");
        return false;
    }
    return true;
}

static bool sx2_rif_counter_ok(const uint8_t *pl, unsigned dir)
{
    unsigned type = dir == SX2_RIF_INGRESS ?
                    sx2_fget(pl, SX2_REG_RITR_IN_CNT_TYPE) :
                    sx2_fget(pl, SX2_REG_RITR_EG_CNT_TYPE);
    unsigned index = dir == SX2_RIF_INGRESS ?
                     sx2_fget(pl, SX2_REG_RITR_IN_CNT_INDEX) :
                     sx2_fget(pl, SX2_REG_RITR_EG_CNT_INDEX);

    if (type == SX2_RIF_CNT_NONE) {
        return true;
    }
    if (type != SX2_RIF_CNT_BASIC || index >= SX2_RIF_COUNTER_SETS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: %s counter set type "
                      "%u index %u (basic sets 0..%u)\n",
                      dir == SX2_RIF_INGRESS ? "ingress" : "egress", type,
                      index, SX2_RIF_COUNTER_SETS - 1);
        return false;
    }
    return true;
}

/* The RIF a RITR write describes, checked; false for a bad parameter */
static bool sx2_ritr_parse(SwitchX2State *s, const uint8_t *pl, SX2Rif *rif)
{
    unsigned swid = sx2_fget(pl, SX2_REG_RITR_IF_SWID);

    memset(rif, 0, sizeof(*rif));
    rif->valid = true;
    rif->type = sx2_fget(pl, SX2_REG_RITR_TYPE);
    rif->ipv4 = sx2_fget(pl, SX2_REG_RITR_IPV4);
    rif->ipv6 = sx2_fget(pl, SX2_REG_RITR_IPV6);
    rif->vr = sx2_fget(pl, SX2_REG_RITR_VR);
    rif->mtu = sx2_fget(pl, SX2_REG_RITR_MTU);
    memcpy(rif->mac, pl + SX2_REG_RITR_IF_MAC, 6);
    if (rif->type == SX2_RITR_TYPE_SUB_PORT) {
        rif->sp_lag = sx2_fget(pl, SX2_REG_RITR_SP_LAG);
        rif->sp_port = sx2_fget(pl, SX2_REG_RITR_SP_SYSTEM_PORT);
        rif->vid = sx2_fget(pl, SX2_REG_RITR_SP_VID);
        /* The lag bit lies in if_swid's byte: the swid is 0 here */
        swid = 0;
    } else {
        rif->vid = sx2_fget(pl, SX2_REG_RITR_VLAN_VID);
    }
    rif->counted[SX2_RIF_INGRESS] =
        sx2_fget(pl, SX2_REG_RITR_IN_CNT_TYPE) == SX2_RIF_CNT_BASIC;
    rif->counter[SX2_RIF_INGRESS] = sx2_fget(pl, SX2_REG_RITR_IN_CNT_INDEX);
    rif->counted[SX2_RIF_EGRESS] =
        sx2_fget(pl, SX2_REG_RITR_EG_CNT_TYPE) == SX2_RIF_CNT_BASIC;
    rif->counter[SX2_RIF_EGRESS] = sx2_fget(pl, SX2_REG_RITR_EG_CNT_INDEX);

    if (swid >= SX2_NUM_SWIDS ||
        s->profile.swid_type[swid] != SX2_SWID_TYPE_ETH) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: if_swid %u is no "
                      "Ethernet switch partition\n", swid);
        return false;
    }
    if (rif->vr >= SX2_MAX_VRS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: virtual router %u "
                      "(0..%u)\n", rif->vr, SX2_MAX_VRS - 1);
        return false;
    }
    if (rif->mtu < SX2_RIF_MTU_MIN || rif->mtu > SX2_MAX_MTU) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: MTU %u (%u..%u)\n",
                      rif->mtu, SX2_RIF_MTU_MIN, SX2_MAX_MTU);
        return false;
    }
    if (!is_unicast_ether_addr(rif->mac) ||
        !memcmp(rif->mac, sx2_zero_mac, 6)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: interface MAC "
                      "%02x:%02x:%02x:%02x:%02x:%02x is no unicast address\n",
                      rif->mac[0], rif->mac[1], rif->mac[2], rif->mac[3],
                      rif->mac[4], rif->mac[5]);
        return false;
    }
    if (!sx2_fid_valid(rif->vid)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: VID %u (1..4094)\n",
                      rif->vid);
        return false;
    }
    if (rif->type == SX2_RITR_TYPE_SUB_PORT &&
        (rif->sp_lag ? rif->sp_port >= s->profile.max_lag :
         sx2_local_port_of_system_port(s, rif->sp_port) <= SX2_CPU_PORT)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: sub-port on %s %u, "
                      "which does not exist\n",
                      rif->sp_lag ? "LAG" : "system port", rif->sp_port);
        return false;
    }
    return sx2_rif_counter_ok(pl, SX2_RIF_INGRESS) &&
           sx2_rif_counter_ok(pl, SX2_RIF_EGRESS);
}

/* Whether @a and @b take the same packets in: one {VID} or {port, VID} */
static bool sx2_rif_same_place(const SX2Rif *a, const SX2Rif *b)
{
    if (a->type != b->type || a->vid != b->vid) {
        return false;
    }
    return a->type == SX2_RITR_TYPE_VLAN ||
           (a->sp_lag == b->sp_lag && a->sp_port == b->sp_port);
}

/* Another valid RIF than @index where @rif would be, or -1 */
static int sx2_rif_clash(const SX2Router *r, unsigned index,
                         const SX2Rif *rif)
{
    unsigned i;

    for (i = 0; i < r->max_rifs; i++) {
        if (i != index && r->rif[i].valid &&
            sx2_rif_same_place(&r->rif[i], rif)) {
            return i;
        }
    }
    return -1;
}

static uint8_t sx2_ritr_write(SwitchX2State *s, const uint8_t *pl,
                              unsigned index)
{
    SX2Router *r = &s->router;
    SX2Rif *old = &r->rif[index];
    SX2Rif rif;
    int other;

    if (!sx2_fget(pl, SX2_REG_RITR_ENABLE)) {
        /* op is reserved: a RIF written disabled is gone */
        if (old->valid) {
            trace_switchx2_router_rif_del(index);
        }
        memset(old, 0, sizeof(*old));
        return OK;
    }
    if (!sx2_ritr_parse(s, pl, &rif)) {
        return BAD_PARAM;
    }
    other = sx2_rif_clash(r, index, &rif);
    if (other >= 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: RIF %u: RIF %d "
                      "already routes VID %u there\n", index, other, rif.vid);
        return BAD_PARAM;
    }
    if (old->valid && !sx2_rif_same_place(old, &rif)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: RIF %u moves to "
                      "another VLAN or port: write it disabled first\n",
                      index);
        return BAD_PARAM;
    }
    *old = rif;
    trace_switchx2_router_rif(index, rif.type, rif.vid,
                              rif.type == SX2_RITR_TYPE_SUB_PORT ?
                              rif.sp_port : 0, rif.vr, rif.mtu);
    return OK;
}

static void sx2_ritr_query(const SX2Rif *rif, uint8_t *pl)
{
    unsigned index = sx2_fget(pl, SX2_REG_RITR_RIF);

    memset(pl, 0, SX2_REG_RITR_LEN);
    sx2_fset(pl, SX2_REG_RITR_RIF, index);
    if (!rif->valid) {
        return;
    }
    sx2_fset(pl, SX2_REG_RITR_ENABLE, 1);
    sx2_fset(pl, SX2_REG_RITR_IPV4, rif->ipv4);
    sx2_fset(pl, SX2_REG_RITR_IPV6, rif->ipv6);
    sx2_fset(pl, SX2_REG_RITR_TYPE, rif->type);
    sx2_fset(pl, SX2_REG_RITR_VR, rif->vr);
    sx2_fset(pl, SX2_REG_RITR_MTU, rif->mtu);
    memcpy(pl + SX2_REG_RITR_IF_MAC, rif->mac, 6);
    if (rif->type == SX2_RITR_TYPE_SUB_PORT) {
        sx2_fset(pl, SX2_REG_RITR_SP_LAG, rif->sp_lag);
        sx2_fset(pl, SX2_REG_RITR_SP_SYSTEM_PORT, rif->sp_port);
        sx2_fset(pl, SX2_REG_RITR_SP_VID, rif->vid);
    } else {
        sx2_fset(pl, SX2_REG_RITR_VLAN_VID, rif->vid);
    }
    if (rif->counted[SX2_RIF_INGRESS]) {
        sx2_fset(pl, SX2_REG_RITR_IN_CNT_TYPE, SX2_RIF_CNT_BASIC);
        sx2_fset(pl, SX2_REG_RITR_IN_CNT_INDEX, rif->counter[SX2_RIF_INGRESS]);
    }
    if (rif->counted[SX2_RIF_EGRESS]) {
        sx2_fset(pl, SX2_REG_RITR_EG_CNT_TYPE, SX2_RIF_CNT_BASIC);
        sx2_fset(pl, SX2_REG_RITR_EG_CNT_INDEX, rif->counter[SX2_RIF_EGRESS]);
    }
}

/*
 * RITR - router interface table, indexed by RIF
 */
uint8_t sx2_reg_ritr(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Router *r = &s->router;
    unsigned index = sx2_fget(pl, SX2_REG_RITR_RIF);

    if (index >= r->max_rifs) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: RIF %u does not exist "
                      "(RGCR: %u router interfaces)\n", index, r->max_rifs);
        return BAD_PARAM;
    }
    if (!write) {
        sx2_ritr_query(&r->rif[index], pl);
        return OK;
    }
    if (!sx2_ritr_supported(pl)) {
        return BAD_PARAM;
    }
    return sx2_ritr_write(s, pl, index);
}

/*
 * RICNT - router interface counters: a query reads a basic counter set
 * (and clears it with op CLEAR), a write with op CLEAR clears it.
 */
uint8_t sx2_reg_ricnt(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned op = sx2_fget(pl, SX2_REG_RICNT_OP);
    unsigned type = sx2_fget(pl, SX2_REG_RICNT_CNT_TYPE);
    unsigned index = sx2_fget(pl, SX2_REG_RICNT_CNT_INDEX);
    uint64_t *cnt;
    unsigned i;

    if (op != SX2_RICNT_OP_NOP && op != SX2_RICNT_OP_CLEAR) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RICNT: op %u\n", op);
        return BAD_PARAM;
    }
    if (type != SX2_RIF_CNT_BASIC || index >= SX2_RIF_COUNTER_SETS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RICNT: counter set type %u "
                      "index %u (basic sets 0..%u)\n", type, index,
                      SX2_RIF_COUNTER_SETS - 1);
        return BAD_PARAM;
    }
    cnt = s->router.counters[index];
    if (!write) {
        for (i = 0; i < SX2_RIF_COUNTERS; i++) {
            sx2_set64(pl, SX2_REG_RICNT_COUNTERS + 8 * i, cnt[i]);
        }
    }
    if (op == SX2_RICNT_OP_CLEAR) {
        memset(cnt, 0, sizeof(s->router.counters[index]));
    }
    return OK;
}

/*
 * The routing stage.  The forwarding stage hands it unicast to a router
 * MAC (an SFD FORWARD_IP_ROUTER entry of the frame's FID); it finds the
 * ingress RIF, checks the IP header, looks the destination up (LPM, then
 * the adjacency or the neighbour), and gives back the verdict: a frame
 * rewritten for the egress RIF's VLAN, a trap ID, or a drop.
 */

/* Trap IDs of the routing stage: trap.h of the SwitchX-2 era (v4.x) */
#define SX2_TRAP_ARPUC              0x51
#define SX2_TRAP_MTUERROR           0x52
#define SX2_TRAP_TTLERROR           0x53
#define SX2_TRAP_IP2ME              0x5F
#define SX2_TRAP_IPV6_LL_DEST       0x61
#define SX2_TRAP_HOST_MISS_IPV4     0x90
#define SX2_TRAP_HOST_MISS_IPV6     0x92

/* What a routed packet's IP header says, parsed once */
typedef struct SX2IpInfo {
    unsigned proto;             /* SX2_L3_PROTO_* */
    const uint8_t *ip;          /* the IP header in the frame */
    size_t ip_len;              /* IPv4 total length / IPv6 40 + payload */
    const uint8_t *dip;
    unsigned ttl;
} SX2IpInfo;

static bool sx2_rif_takes(const SX2Rif *rif, const SX2Port *in, uint16_t vid)
{
    if (!rif->valid || rif->vid != vid) {
        return false;
    }
    if (rif->type == SX2_RITR_TYPE_VLAN) {
        return true;
    }
    return rif->sp_lag ? in->lagged && in->lag_id == rif->sp_port
                       : !in->lagged && in->system_port == rif->sp_port;
}

/* The RIF a frame of @vid from @in enters: its sub-port's, or the VLAN's */
static SX2Rif *sx2_router_rif_in(SX2Router *r, const SX2Port *in,
                                 uint16_t vid, unsigned *index)
{
    SX2Rif *vlan_rif = NULL;
    unsigned i, vlan_index = 0;

    for (i = 0; i < r->max_rifs; i++) {
        SX2Rif *rif = &r->rif[i];

        if (!sx2_rif_takes(rif, in, vid)) {
            continue;
        }
        if (rif->type == SX2_RITR_TYPE_SUB_PORT) {
            *index = i;
            return rif;
        }
        vlan_rif = rif;
        vlan_index = i;
    }
    *index = vlan_index;
    return vlan_rif;
}

static void sx2_rif_count(SX2Router *r, const SX2Rif *rif, unsigned dir,
                          unsigned pkts, unsigned bytes, size_t len)
{
    uint64_t *c;

    if (!rif->counted[dir]) {
        return;
    }
    c = r->counters[rif->counter[dir]];
    c[pkts]++;
    c[bytes] += len;
}

static SX2RouteVerdict sx2_route_drop(SX2Router *r, const SX2Rif *rif,
                                      const SX2Frame *f, SX2Routed *out,
                                      const char *why)
{
    if (rif) {
        sx2_rif_count(r, rif, SX2_RIF_INGRESS, SX2_RIF_DISCARD_PKTS,
                      SX2_RIF_DISCARD_BYTES, f->len);
    }
    out->why = why;
    return SX2_ROUTE_DROP;
}

static SX2RouteVerdict sx2_route_trap(SX2Routed *out, uint16_t trap_id)
{
    trace_switchx2_route_trap(trap_id);
    out->trap_id = trap_id;
    return SX2_ROUTE_TRAP;
}

static bool sx2_ipv4_csum_ok(const uint8_t *h, unsigned ihl)
{
    uint32_t sum = 0;
    unsigned i;

    for (i = 0; i < ihl; i += 2) {
        sum += lduw_be_p(h + i);
    }
    while (sum >> 16) {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return sum == 0xFFFF;
}

/* The IPv4 header of @f, checked as a router must (RFC 1812 5.2.2) */
static const char *sx2_route_parse_ipv4(const SX2Frame *f, SX2IpInfo *ip)
{
    const uint8_t *h = f->buf + f->l3off;
    size_t avail = f->len - f->l3off;
    unsigned ihl;

    if (avail < 20 || (h[0] >> 4) != 4) {
        return "IPv4 header truncated or not version 4";
    }
    ihl = (h[0] & 0xF) * 4;
    ip->ip_len = lduw_be_p(h + 2);
    if (ihl < 20 || ip->ip_len < ihl || ip->ip_len > avail ||
        !sx2_ipv4_csum_ok(h, ihl)) {
        return "IPv4 header corrupted (length or checksum)";
    }
    ip->proto = SX2_L3_PROTO_IPV4;
    ip->ip = h;
    ip->dip = h + 16;
    ip->ttl = h[8];
    if (ip->dip[0] >= 224 || !memcmp(ip->dip, "\0\0\0\0", 4)) {
        return "IPv4 destination is not unicast";
    }
    return NULL;
}

static const char *sx2_route_parse_ipv6(const SX2Frame *f, SX2IpInfo *ip)
{
    const uint8_t *h = f->buf + f->l3off;
    size_t avail = f->len - f->l3off;

    if (avail < 40 || (h[0] >> 4) != 6) {
        return "IPv6 header truncated or not version 6";
    }
    ip->ip_len = 40 + lduw_be_p(h + 4);
    if (ip->ip_len > avail) {
        return "IPv6 payload length beyond the frame";
    }
    ip->proto = SX2_L3_PROTO_IPV6;
    ip->ip = h;
    ip->dip = h + 24;
    ip->ttl = h[7];
    if (ip->dip[0] == 0xff) {
        return "IPv6 destination is multicast";
    }
    return NULL;
}

/* A flow's hash for ECMP: addresses, protocol and, if there, L4 ports */
static uint32_t sx2_route_hash(const SX2IpInfo *ip)
{
    uint64_t a = 0, b = 0;
    unsigned alen = ip->proto == SX2_L3_PROTO_IPV4 ? 4 : 16;
    const uint8_t *sip = ip->dip - alen;
    unsigned l4 = ip->proto == SX2_L3_PROTO_IPV4 ? ip->ip[9] : ip->ip[6];
    size_t l4off = ip->proto == SX2_L3_PROTO_IPV4 ? (ip->ip[0] & 0xF) * 4
                                                  : 40;
    unsigned i;

    for (i = 0; i < alen; i++) {
        a = a * 31 + sip[i];
        b = b * 31 + ip->dip[i];
    }
    if ((l4 == IP_PROTO_TCP || l4 == IP_PROTO_UDP) &&
        ip->ip_len >= l4off + 4) {
        b ^= (uint64_t)ldl_be_p(ip->ip + l4off) << 8;
    }
    return qemu_xxhash4(a, b ^ l4);
}

/*
 * What a route's, neighbour's or next hop's trap action makes of the
 * packet: a trap (@trap_id) or a drop (@discard_why) verdict, or
 * SX2_ROUTE_FORWARD to go on.
 */
static SX2RouteVerdict sx2_route_trap_action(unsigned trap_action,
                                             unsigned trap_id,
                                             const char *discard_why,
                                             SX2Routed *out)
{
    if (trap_action == SX2_RTR_TRAP_TRAP) {
        return sx2_route_trap(out, trap_id);
    }
    if (trap_action == SX2_RTR_TRAP_DISCARD_ERROR) {
        out->why = discard_why;
        return SX2_ROUTE_DROP;
    }
    return SX2_ROUTE_FORWARD;
}

/*
 * Where a route sends the packet: the egress RIF and next-hop MAC, or
 * a trap or drop verdict (returned; SX2_ROUTE_FORWARD means resolved).
 */
static SX2RouteVerdict sx2_route_resolve(SwitchX2State *s,
                                         const SX2Route *rt,
                                         const SX2IpInfo *ip,
                                         SX2Routed *out, unsigned *erif,
                                         const uint8_t **dmac)
{
    const SX2Adj *adj;
    const SX2Host *h;
    SX2RouteVerdict v;
    unsigned hop;

    v = sx2_route_trap_action(rt->trap_action, rt->trap_id,
                              "route discards (RALUE trap_action)", out);
    if (v != SX2_ROUTE_FORWARD) {
        return v;
    }
    switch (rt->action) {
    case SX2_RALUE_ACTION_IP2ME:
        return sx2_route_trap(out, SX2_TRAP_IP2ME);
    case SX2_RALUE_ACTION_LOCAL:
        h = sx2_host_lookup(s, rt->local_erif, ip->proto, ip->dip);
        if (!h) {
            return sx2_route_trap(out, ip->proto == SX2_L3_PROTO_IPV4 ?
                                       SX2_TRAP_HOST_MISS_IPV4 :
                                       SX2_TRAP_HOST_MISS_IPV6);
        }
        *erif = rt->local_erif;
        *dmac = h->mac;
        return sx2_route_trap_action(h->trap_action, h->trap_id,
                                     "neighbour discards (RAUHT "
                                     "trap_action)", out);
    default:
        /* A single next hop needs no flow hash */
        hop = rt->ecmp_size > 1 ? sx2_route_hash(ip) % rt->ecmp_size : 0;
        adj = sx2_adj_entry(s, rt->adj_index + hop);
        if (!adj->valid) {
            out->why = "next hop not valid (RATR)";
            return SX2_ROUTE_DROP;
        }
        *erif = adj->erif;
        *dmac = adj->dmac;
        return sx2_route_trap_action(adj->trap_action, adj->trap_id,
                                     "next hop discards (RATR "
                                     "trap_action)", out);
    }
}

/* The packet as it leaves: new addresses, TTL or hop limit one less */
static void sx2_route_rewrite(const SX2IpInfo *ip, const SX2Rif *erif,
                              const uint8_t *dmac, SX2Routed *out)
{
    uint8_t *h = out->buf + ETH_HLEN;

    memcpy(out->buf, dmac, 6);
    memcpy(out->buf + 6, erif->mac, 6);
    stw_be_p(out->buf + 12, ip->proto == SX2_L3_PROTO_IPV4 ? ETH_P_IP
                                                          : ETH_P_IPV6);
    memcpy(h, ip->ip, ip->ip_len);
    out->len = ETH_HLEN + ip->ip_len;
    if (ip->proto == SX2_L3_PROTO_IPV4) {
        /* RFC 1624: the checksum follows the TTL's word down by 0x0100 */
        uint32_t sum = (uint16_t)~lduw_be_p(h + 10) + (uint16_t)~0x0100u;

        h[8]--;
        sum = (sum & 0xFFFF) + (sum >> 16);
        stw_be_p(h + 10, ~((sum & 0xFFFF) + (sum >> 16)));
    } else {
        h[7]--;
    }
    out->vid = erif->vid;
    out->sub_port = erif->type == SX2_RITR_TYPE_SUB_PORT;
    out->lag = erif->sp_lag;
    out->port = erif->sp_port;
}

/* Whether @rif routes @f's protocol and @f's IP header is sound (@ip) */
static bool sx2_route_ip(SwitchX2State *s, const SX2Rif *rif,
                         const SX2Frame *f, SX2IpInfo *ip, const char **why)
{
    const SX2Router *r = &s->router;

    if (f->ethertype == ETH_P_IP && rif->ipv4 && r->ipv4_en) {
        *why = sx2_route_parse_ipv4(f, ip);
    } else if (f->ethertype == ETH_P_IPV6 && rif->ipv6 && r->ipv6_en) {
        *why = sx2_route_parse_ipv6(f, ip);
    } else {
        *why = "not a protocol the RIF routes";
    }
    return !*why;
}

SX2RouteVerdict sx2_router_route(SwitchX2State *s, SX2Port *in,
                                 const SX2Frame *f, SX2Routed *out)
{
    SX2Router *r = &s->router;
    const SX2Route *rt;
    const uint8_t *dmac = NULL;
    unsigned irif_index, erif_index = 0;
    SX2RouteVerdict v;
    const char *why;
    SX2IpInfo ip;
    SX2Rif *irif = sx2_router_rif_in(r, in, f->vid, &irif_index);
    SX2Rif *erif;

    if (!irif) {
        return sx2_route_drop(r, NULL, f, out, "no RIF for the port and VID");
    }
    if (f->ethertype == ETH_P_ARP) {
        /* An ARP reply (or request) to the router's own MAC */
        return sx2_route_trap(out, SX2_TRAP_ARPUC);
    }
    if (!sx2_route_ip(s, irif, f, &ip, &why)) {
        return sx2_route_drop(r, irif, f, out, why);
    }
    if (ip.proto == SX2_L3_PROTO_IPV6 && ip.dip[0] == 0xfe &&
        (ip.dip[1] & 0xc0) == 0x80) {
        /* A router never forwards link-local: it is for the CPU */
        return sx2_route_trap(out, SX2_TRAP_IPV6_LL_DEST);
    }
    if (ip.ttl <= 1) {
        return sx2_route_trap(out, SX2_TRAP_TTLERROR);
    }
    rt = sx2_lpm_lookup(s, irif->vr, ip.proto, ip.dip);
    if (!rt) {
        return sx2_route_drop(r, irif, f, out, "no route");
    }
    v = sx2_route_resolve(s, rt, &ip, out, &erif_index, &dmac);
    if (v == SX2_ROUTE_DROP) {
        return sx2_route_drop(r, irif, f, out, out->why);
    }
    if (v == SX2_ROUTE_TRAP) {
        return v;
    }
    erif = erif_index < r->max_rifs ? &r->rif[erif_index] : NULL;
    if (!erif || !erif->valid) {
        return sx2_route_drop(r, irif, f, out, "egress RIF deleted");
    }
    if (ip.ip_len > erif->mtu) {
        /* Also what keeps the rewritten packet within out->buf */
        return sx2_route_trap(out, SX2_TRAP_MTUERROR);
    }
    sx2_route_rewrite(&ip, erif, dmac, out);
    sx2_rif_count(r, irif, SX2_RIF_INGRESS, SX2_RIF_GOOD_UC_PKTS,
                  SX2_RIF_GOOD_UC_BYTES, f->len);
    sx2_rif_count(r, erif, SX2_RIF_EGRESS, SX2_RIF_GOOD_UC_PKTS,
                  SX2_RIF_GOOD_UC_BYTES, out->len);
    trace_switchx2_route(irif_index, erif_index, ip.proto, out->vid);
    return SX2_ROUTE_FORWARD;
}
