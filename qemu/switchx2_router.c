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
 * - no multicast routing, VRRP, MAC profiles or egress
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
        { "ipv4_fe (not supported in SwitchX-2)", SX2_REG_RITR_IPV4_FE },
        { "ipv6_fe (not supported in SwitchX-2)", SX2_REG_RITR_IPV6_FE },
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

/*
 * RITR op, "Reserved for SwitchX-2" (a RIF is deleted by a write with
 * enable 0): 0 always; 1 ("Delete RIF", what 6.1's pack sends with
 * enable 0) only on such a write, where it means what the write does.
 */
static bool sx2_ritr_op_ok(const uint8_t *pl)
{
    unsigned op = sx2_fget(pl, SX2_REG_RITR_OP);

    if (op == 0 || (op == 1 && !sx2_fget(pl, SX2_REG_RITR_ENABLE))) {
        return true;
    }
    qemu_log_mask(LOG_UNIMP, "switchx2: RITR: op %u with enable %u (op is "
                  "reserved for SwitchX-2: a RIF goes by a write with "
                  "enable 0)\n", op, sx2_fget(pl, SX2_REG_RITR_ENABLE));
    return false;
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
    rif->lb_en = sx2_fget(pl, SX2_REG_RITR_LB_EN);
    /* Multicast routing: stored, read back, inert (no multicast routes) */
    rif->mc = sx2_fget(pl, SX2_REG_RITR_IPV4_MC) |
              sx2_fget(pl, SX2_REG_RITR_IPV6_MC) << 1 |
              sx2_fget(pl, SX2_REG_RITR_IPV4_MC_FE) << 2 |
              sx2_fget(pl, SX2_REG_RITR_IPV6_MC_FE) << 3;

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
        (rif->sp_lag ? !sx2_lag_created(s, rif->sp_port) :
         sx2_local_port_of_system_port(s, rif->sp_port) <= SX2_CPU_PORT)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: sub-port on %s %u, "
                      "which does not exist\n",
                      rif->sp_lag ? "LAG" : "system port", rif->sp_port);
        return false;
    }
    return sx2_rif_counter_ok(pl, SX2_RIF_INGRESS) &&
           sx2_rif_counter_ok(pl, SX2_RIF_EGRESS);
}

/* Whether a valid sub-port RIF is on LAG @lag_id */
bool sx2_router_lag_has_rif(const SwitchX2State *s, unsigned lag_id)
{
    const SX2Router *r = &s->router;
    unsigned i;

    for (i = 0; i < r->max_rifs; i++) {
        const SX2Rif *rif = &r->rif[i];

        if (rif->valid && rif->type == SX2_RITR_TYPE_SUB_PORT &&
            rif->sp_lag && rif->sp_port == lag_id) {
            return true;
        }
    }
    return false;
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
        if (old->valid && sx2_host_rif_count(s, index)) {
            /*
             * Silent: assumed.  Spectrum deletes a RIF's neighbours
             * before the RIF (mlxsw_sp_rif_destroy); left behind, they
             * would route through whatever RIF takes the index next.
             */
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RITR: RIF %u deleted "
                          "while %u neighbours (RAUHT) use it\n", index,
                          sx2_host_rif_count(s, index));
            return BAD_PARAM;
        }
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
    sx2_fset(pl, SX2_REG_RITR_LB_EN, rif->lb_en);
    sx2_fset(pl, SX2_REG_RITR_IPV4_MC, rif->mc & 1);
    sx2_fset(pl, SX2_REG_RITR_IPV6_MC, (rif->mc >> 1) & 1);
    sx2_fset(pl, SX2_REG_RITR_IPV4_MC_FE, (rif->mc >> 2) & 1);
    sx2_fset(pl, SX2_REG_RITR_IPV6_MC_FE, (rif->mc >> 3) & 1);
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
    if (!sx2_ritr_op_ok(pl)) {
        return BAD_PARAM;
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
    if (write && op == SX2_RICNT_OP_NOP) {
        /* "Nop. Supported only for read access" */
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RICNT: a write with op "
                      "NOP (read only)\n");
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
 * ingress RIF, checks the IP header and addresses, looks the destination
 * up (LPM, then the adjacency or the neighbour), and gives back the
 * verdict: a frame rewritten for the egress RIF's VLAN, a trap ID, or a
 * drop; a forwarded frame may also owe the CPU mirrored copies (packet
 * traps whose HPKT action is mirror).
 */

/* What a routed packet's IP header says, parsed once */
typedef struct SX2IpInfo {
    unsigned proto;             /* SX2_L3_PROTO_* */
    const uint8_t *ip;          /* the IP header in the frame */
    size_t ip_len;              /* IPv4 total length / IPv6 40 + payload */
    const uint8_t *sip;
    const uint8_t *dip;
    unsigned ttl;
} SX2IpInfo;

/* Why the router does not take a packet: RICNT error or discard */
typedef enum SX2IpCheck {
    SX2_IP_OK,
    SX2_IP_ERROR,               /* errored: the header is corrupt */
    SX2_IP_DISCARD,             /* not errored, but no router forwards it */
} SX2IpCheck;

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

/*
 * The octets RICNT counts of a frame of @len bytes whose L3 packet
 * starts at @l3off: "L3 data and padding octets not including L2
 * headers"; the padding is what a frame shorter than the 60-byte
 * minimum (without FCS) carries on the wire.
 */
static uint64_t sx2_rif_octets(size_t len, size_t l3off)
{
    return MAX(len, ETH_ZLEN) - l3off;
}

static void sx2_rif_count(SX2Router *r, const SX2Rif *rif, unsigned dir,
                          unsigned pkts, unsigned bytes, uint64_t octets)
{
    uint64_t *c;

    if (!rif->counted[dir]) {
        return;
    }
    c = r->counters[rif->counter[dir]];
    c[pkts]++;
    c[bytes] += octets;
}

static SX2RouteVerdict sx2_route_drop(SX2Router *r, const SX2Rif *rif,
                                      const SX2Frame *f, SX2Routed *out,
                                      SX2IpCheck kind, const char *why)
{
    if (rif) {
        bool err = kind == SX2_IP_ERROR;

        sx2_rif_count(r, rif, SX2_RIF_INGRESS,
                      err ? SX2_RIF_ERROR_PKTS : SX2_RIF_DISCARD_PKTS,
                      err ? SX2_RIF_ERROR_BYTES : SX2_RIF_DISCARD_BYTES,
                      sx2_rif_octets(f->len, f->l3off));
    }
    trace_switchx2_route_drop(kind == SX2_IP_ERROR ? "error" : "discard", why);
    out->why = why;
    return SX2_ROUTE_DROP;
}

static SX2RouteVerdict sx2_route_trap(SX2Routed *out, uint16_t trap_id)
{
    trace_switchx2_route_trap(trap_id);
    out->trap_id = trap_id;
    return SX2_ROUTE_TRAP;
}

/*
 * A packet trap of the router (router alert, the loopback filter): the
 * router may go on with the packet, so the trap's HPKT action decides,
 * as for the pipeline's traps: forward (0) goes on as if nothing
 * trapped, mirror (2) goes on and owes the CPU a copy of the packet as
 * received, discard (3) and soft discard (4) drop it, and the trap
 * actions (1, 5, 6) give it to the CPU alone.  Returns
 * SX2_ROUTE_FORWARD to go on.
 */
static SX2RouteVerdict sx2_route_packet_trap(SwitchX2State *s,
                                             SX2Routed *out,
                                             uint16_t trap_id)
{
    switch (s->hpkt[trap_id].action) {
    case SX2_HPKT_FORWARD:
        return SX2_ROUTE_FORWARD;
    case SX2_HPKT_MIRROR_TO_CPU:
        trace_switchx2_route_mirror(trap_id);
        if (out->n_mirror < ARRAY_SIZE(out->mirror_trap)) {
            out->mirror_trap[out->n_mirror++] = trap_id;
        }
        return SX2_ROUTE_FORWARD;
    case SX2_HPKT_DISCARD:
    case SX2_HPKT_SOFT_DISCARD:
        out->why = "packet trap action discard (HPKT)";
        return SX2_ROUTE_DROP;
    default:
        return sx2_route_trap(out, trap_id);
    }
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

/*
 * IPv4 addresses no router forwards (RFC 1812 5.3.7, 4.2.2.11): sources
 * on network 0 or 127, multicast, class E and the limited broadcast;
 * destinations on network 0 or 127, multicast, class E, broadcast.
 */
static const char *sx2_route_ipv4_martian(const uint8_t *sip,
                                          const uint8_t *dip)
{
    if (sip[0] == 0 || sip[0] == 127) {
        return "IPv4 source on network 0 or 127";
    }
    if (sip[0] >= 224) {
        return "IPv4 source multicast, class E or broadcast";
    }
    if (dip[0] == 0 || dip[0] == 127) {
        return "IPv4 destination on network 0 or 127";
    }
    if (dip[0] >= 224) {
        return "IPv4 destination is not unicast";
    }
    return NULL;
}

/* The IPv4 header of @f, checked as a router must (RFC 1812 5.2.2) */
static SX2IpCheck sx2_route_parse_ipv4(const SX2Frame *f, SX2IpInfo *ip,
                                       const char **why)
{
    const uint8_t *h = f->buf + f->l3off;
    size_t avail = f->len - f->l3off;
    unsigned ihl;

    if (avail < 20 || (h[0] >> 4) != 4) {
        *why = "IPv4 header truncated or not version 4";
        return SX2_IP_ERROR;
    }
    ihl = (h[0] & 0xF) * 4;
    ip->ip_len = lduw_be_p(h + 2);
    if (ihl < 20 || ip->ip_len < ihl || ip->ip_len > avail ||
        !sx2_ipv4_csum_ok(h, ihl)) {
        *why = "IPv4 header corrupted (length or checksum)";
        return SX2_IP_ERROR;
    }
    ip->proto = SX2_L3_PROTO_IPV4;
    ip->ip = h;
    ip->sip = h + 12;
    ip->dip = h + 16;
    ip->ttl = h[8];
    *why = sx2_route_ipv4_martian(ip->sip, ip->dip);
    return *why ? SX2_IP_DISCARD : SX2_IP_OK;
}

static bool sx2_ipv6_unspecified(const uint8_t *a)
{
    static const uint8_t zero[16];

    return !memcmp(a, zero, 16);
}

static bool sx2_ipv6_loopback(const uint8_t *a)
{
    static const uint8_t one[16] = { [15] = 1 };

    return !memcmp(a, one, 16);
}

static bool sx2_ipv6_link_local(const uint8_t *a)
{
    return a[0] == 0xfe && (a[1] & 0xc0) == 0x80;
}

/*
 * IPv6 addresses no router forwards (RFC 4291 2.5.2, 2.5.3, 2.7): a
 * multicast or loopback source, a loopback, unspecified or multicast
 * destination.  Unspecified and link-local sources have traps of their
 * own (sx2_router_route()).
 */
static const char *sx2_route_ipv6_martian(const uint8_t *sip,
                                          const uint8_t *dip)
{
    if (sip[0] == 0xff || sx2_ipv6_loopback(sip)) {
        return "IPv6 source multicast or loopback";
    }
    if (dip[0] == 0xff || sx2_ipv6_loopback(dip) ||
        sx2_ipv6_unspecified(dip)) {
        return "IPv6 destination not unicast, loopback or unspecified";
    }
    return NULL;
}

static SX2IpCheck sx2_route_parse_ipv6(const SX2Frame *f, SX2IpInfo *ip,
                                       const char **why)
{
    const uint8_t *h = f->buf + f->l3off;
    size_t avail = f->len - f->l3off;

    if (avail < 40 || (h[0] >> 4) != 6) {
        *why = "IPv6 header truncated or not version 6";
        return SX2_IP_ERROR;
    }
    ip->ip_len = 40 + lduw_be_p(h + 4);
    if (ip->ip_len > avail) {
        *why = "IPv6 payload length beyond the frame";
        return SX2_IP_ERROR;
    }
    ip->proto = SX2_L3_PROTO_IPV6;
    ip->ip = h;
    ip->sip = h + 8;
    ip->dip = h + 24;
    ip->ttl = h[7];
    *why = sx2_route_ipv6_martian(ip->sip, ip->dip);
    return *why ? SX2_IP_DISCARD : SX2_IP_OK;
}

/* Whether an IPv4 header's options carry a router alert (RFC 2113) */
static bool sx2_ipv4_router_alert(const SX2IpInfo *ip)
{
    unsigned ihl = (ip->ip[0] & 0xF) * 4;
    unsigned i = 20;

    while (i < ihl) {
        unsigned type = ip->ip[i];

        if (type == SX2_IPOPT_END) {
            break;
        }
        if (type == SX2_IPOPT_NOP) {
            i++;
            continue;
        }
        if (i + 2 > ihl || ip->ip[i + 1] < 2 || i + ip->ip[i + 1] > ihl) {
            return false;       /* malformed: no option is read */
        }
        if (type == SX2_IPOPT_ROUTER_ALERT) {
            return true;
        }
        i += ip->ip[i + 1];
    }
    return false;
}

/*
 * Whether an IPv6 packet's hop-by-hop options header, right after the
 * fixed header, carries a router alert (RFC 2711)
 */
static bool sx2_ipv6_router_alert(const SX2IpInfo *ip)
{
    const uint8_t *hbh = ip->ip + 40;
    size_t hlen, i = 2;

    if (ip->ip[6] != SX2_IPPROTO_HOPOPTS || ip->ip_len < 40 + 8) {
        return false;
    }
    hlen = (hbh[1] + 1) * 8;
    if (40 + hlen > ip->ip_len) {
        return false;
    }
    while (i < hlen) {
        unsigned type = hbh[i];

        if (type == SX2_IP6OPT_PAD1) {
            i++;
            continue;
        }
        if (i + 2 > hlen || i + 2 + hbh[i + 1] > hlen) {
            return false;
        }
        if (type == SX2_IP6OPT_ROUTER_ALERT) {
            return true;
        }
        i += 2 + hbh[i + 1];
    }
    return false;
}

/*
 * A flow's hash for ECMP: addresses, protocol and, if there, L4 ports.
 * A fragment of an IPv4 datagram (offset or more-fragments set) hashes
 * its addresses and protocol only, so that all its fragments take one
 * next hop and no non-first fragment's data passes for ports; IPv6 ports
 * are read only right after the fixed header, so a fragment header (or
 * any other extension) leaves them out.
 */
static uint32_t sx2_route_hash(const SX2IpInfo *ip)
{
    uint64_t a = 0, b = 0;
    unsigned alen = ip->proto == SX2_L3_PROTO_IPV4 ? 4 : 16;
    unsigned l4 = ip->proto == SX2_L3_PROTO_IPV4 ? ip->ip[9] : ip->ip[6];
    size_t l4off = ip->proto == SX2_L3_PROTO_IPV4 ? (ip->ip[0] & 0xF) * 4
                                                  : 40;
    bool frag = ip->proto == SX2_L3_PROTO_IPV4 &&
                (lduw_be_p(ip->ip + 6) & (SX2_IP_MF | SX2_IP_OFFMASK));
    unsigned i;

    for (i = 0; i < alen; i++) {
        a = a * 31 + ip->sip[i];
        b = b * 31 + ip->dip[i];
    }
    if ((l4 == IP_PROTO_TCP || l4 == IP_PROTO_UDP) && !frag &&
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

/* Whether @rif routes @f's protocol, and what its IP header says (@ip) */
static SX2IpCheck sx2_route_ip(SwitchX2State *s, const SX2Rif *rif,
                               const SX2Frame *f, SX2IpInfo *ip,
                               const char **why)
{
    const SX2Router *r = &s->router;

    if (f->ethertype == ETH_P_IP && rif->ipv4 && r->ipv4_en) {
        return sx2_route_parse_ipv4(f, ip, why);
    }
    if (f->ethertype == ETH_P_IPV6 && rif->ipv6 && r->ipv6_en) {
        return sx2_route_parse_ipv6(f, ip, why);
    }
    *why = "not a protocol the RIF routes";
    return SX2_IP_DISCARD;
}

/*
 * The traps of a packet the router took, before its route: IPv6
 * link-local destinations (for the CPU), unspecified and link-local
 * IPv6 sources (no router forwards them), router alerts (packet traps:
 * their HPKT action decides), TTL or hop limit expiry.  SX2_ROUTE_FORWARD
 * to go on.
 */
static SX2RouteVerdict sx2_route_exceptions(SwitchX2State *s,
                                            const SX2IpInfo *ip,
                                            SX2Routed *out)
{
    bool v6 = ip->proto == SX2_L3_PROTO_IPV6;
    SX2RouteVerdict v;

    if (v6 && sx2_ipv6_link_local(ip->dip)) {
        /* A router never forwards link-local: it is for the CPU */
        return sx2_route_trap(out, SX2_TRAP_IPV6_LL_DEST);
    }
    if (v6 && sx2_ipv6_unspecified(ip->sip)) {
        return sx2_route_trap(out, SX2_TRAP_IPV6_UNSPECIFIED_ADDR);
    }
    if (v6 && sx2_ipv6_link_local(ip->sip)) {
        return sx2_route_trap(out, SX2_TRAP_IPV6_LL_SRC);
    }
    if (v6 ? sx2_ipv6_router_alert(ip) : sx2_ipv4_router_alert(ip)) {
        v = sx2_route_packet_trap(s, out, v6 ? SX2_TRAP_ROUTER_ALERT_IPV6
                                             : SX2_TRAP_ROUTER_ALERT_IPV4);
        if (v != SX2_ROUTE_FORWARD) {
            return v;
        }
    }
    if (ip->ttl <= 1) {
        return sx2_route_trap(out, SX2_TRAP_TTLERROR);
    }
    return SX2_ROUTE_FORWARD;
}

SX2RouteVerdict sx2_router_route(SwitchX2State *s, SX2Port *in,
                                 const SX2Frame *f, SX2Routed *out)
{
    SX2Router *r = &s->router;
    const SX2Route *rt;
    const uint8_t *dmac = NULL;
    unsigned irif_index, erif_index = 0;
    SX2RouteVerdict v;
    SX2IpCheck chk;
    const char *why;
    SX2IpInfo ip;
    SX2Rif *irif = sx2_router_rif_in(r, in, f->vid, &irif_index);
    SX2Rif *erif;

    out->n_mirror = 0;
    if (!irif) {
        return sx2_route_drop(r, NULL, f, out, SX2_IP_DISCARD,
                              "no RIF for the port and VID");
    }
    if (f->ethertype == ETH_P_ARP) {
        /* An ARP reply (or request) to the router's own MAC */
        return sx2_route_trap(out, SX2_TRAP_ARPUC);
    }
    chk = sx2_route_ip(s, irif, f, &ip, &why);
    if (chk != SX2_IP_OK) {
        return sx2_route_drop(r, irif, f, out, chk, why);
    }
    v = sx2_route_exceptions(s, &ip, out);
    if (v == SX2_ROUTE_DROP) {
        return sx2_route_drop(r, irif, f, out, SX2_IP_DISCARD, out->why);
    }
    if (v == SX2_ROUTE_TRAP) {
        return v;
    }
    rt = sx2_lpm_lookup(s, irif->vr, ip.proto, ip.dip);
    if (!rt) {
        return sx2_route_drop(r, irif, f, out, SX2_IP_DISCARD, "no route");
    }
    v = sx2_route_resolve(s, rt, &ip, out, &erif_index, &dmac);
    if (v == SX2_ROUTE_DROP) {
        return sx2_route_drop(r, irif, f, out, SX2_IP_DISCARD, out->why);
    }
    if (v == SX2_ROUTE_TRAP) {
        return v;
    }
    erif = erif_index < r->max_rifs ? &r->rif[erif_index] : NULL;
    if (!erif || !erif->valid) {
        return sx2_route_drop(r, irif, f, out, SX2_IP_DISCARD,
                              "egress RIF deleted");
    }
    if (ip.ip_len > erif->mtu) {
        /* Also what keeps the rewritten packet within out->buf */
        return sx2_route_trap(out, SX2_TRAP_MTUERROR);
    }
    if (irif->lb_en && erif == irif) {
        /* The unicast loopback filter (RITR lb_en): a packet trap */
        v = sx2_route_packet_trap(s, out, SX2_TRAP_LBERROR);
        if (v == SX2_ROUTE_DROP) {
            return sx2_route_drop(r, irif, f, out, SX2_IP_DISCARD, out->why);
        }
        if (v == SX2_ROUTE_TRAP) {
            return v;
        }
    }
    sx2_route_rewrite(&ip, erif, dmac, out);
    sx2_rif_count(r, irif, SX2_RIF_INGRESS, SX2_RIF_GOOD_UC_PKTS,
                  SX2_RIF_GOOD_UC_BYTES, sx2_rif_octets(f->len, f->l3off));
    sx2_rif_count(r, erif, SX2_RIF_EGRESS, SX2_RIF_GOOD_UC_PKTS,
                  SX2_RIF_GOOD_UC_BYTES, sx2_rif_octets(out->len, ETH_HLEN));
    trace_switchx2_route(irif_index, erif_index, ip.proto, out->vid);
    return SX2_ROUTE_FORWARD;
}
