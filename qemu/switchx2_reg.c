/*
 * Mellanox SwitchX-2 switch ASIC emulation: registers
 *
 * One handler per register, reached through sx2_reg_find().  A handler
 * gets the register payload (at least the register length), applies it
 * for a write, and in both cases fills in the current state, the way
 * the firmware echoes a register after a write.  It returns an EMAD
 * status.  Registers absent from the table are answered with "register
 * not supported".
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "switchx2.h"
#include "trace.h"

#define BAD_PARAM   SX2_EMAD_STATUS_BAD_PARAMETER
#define OK          SX2_EMAD_STATUS_SUCCESS

#define SX2_DEFAULT_ADMIN_MTU   1522

/* Combine the 8 bit local port and its 2 most significant bits */
static unsigned sx2_lp(const uint8_t *pl, unsigned lsb_shift,
                       unsigned msb_shift)
{
    return sx2_fget(pl, 0x00, lsb_shift, 8) |
           (sx2_fget(pl, 0x00, msb_shift, 2) << 8);
}

/* Front panel port addressed by a register, or NULL (bad parameter) */
static SX2Port *sx2_reg_fp(SwitchX2State *s, const char *reg, unsigned lp)
{
    if (lp < 1 || lp > s->num_ports) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: local port %u does "
                      "not exist\n", reg, lp);
        return NULL;
    }
    return &s->fp[lp];
}

/*
 * Front panel port a register's local_port field addresses, or NULL
 * (bad parameter).
 * @cpu_unsupported: reg.h documents the CPU port as unsupported for
 * this register; otherwise local port 0 is plain out of range here.
 */
SX2Port *sx2_reg_port(SwitchX2State *s, const char *reg, const uint8_t *pl,
                      bool cpu_unsupported)
{
    unsigned lp = sx2_reg_local_port(pl);

    if (lp == SX2_CPU_PORT && cpu_unsupported) {
        qemu_log_mask(LOG_UNIMP, "switchx2: %s: local_port 0: CPU port "
                      "unsupported\n", reg);
        return NULL;
    }
    return sx2_reg_fp(s, reg, lp);
}

/*
 * SGCR - switch general configuration
 */
static uint8_t sx2_reg_sgcr(SwitchX2State *s, uint8_t *pl, bool write)
{
    if (write) {
        s->sgcr_llb = sx2_fget(pl, SX2_REG_SGCR_LLB);
    }
    sx2_fset(pl, SX2_REG_SGCR_LLB, s->sgcr_llb);
    return OK;
}

/*
 * SPAD - switch physical address (base MAC, also the switch ID)
 */
static uint8_t sx2_reg_spad(SwitchX2State *s, uint8_t *pl, bool write)
{
    if (write) {
        if (pl[SX2_REG_SPAD_BASE_MAC_OFF] & 1) {
            return BAD_PARAM;
        }
        memcpy(s->spad_mac, pl + SX2_REG_SPAD_BASE_MAC_OFF, 6);
    }
    memcpy(pl + SX2_REG_SPAD_BASE_MAC_OFF, s->spad_mac, 6);
    return OK;
}

/*
 * SSPR - switch system port record (local port to system port)
 */
static uint8_t sx2_reg_sspr(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned lp = sx2_lp(pl, 16, 12);
    SX2Port *p = sx2_reg_fp(s, "SSPR", lp);

    if (!p) {
        return BAD_PARAM;
    }
    if (sx2_fget(pl, SX2_REG_SSPR_SUB_PORT) != 0) {
        return BAD_PARAM;
    }
    if (write) {
        uint32_t sys = sx2_fget(pl, SX2_REG_SSPR_SYSTEM_PORT);

        if (s->profile.max_system_port && sys > s->profile.max_system_port) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SSPR: system port %u "
                          "above profile maximum %u\n", sys,
                          s->profile.max_system_port);
            return BAD_PARAM;
        }
        p->system_port = sys;
    }
    sx2_fset(pl, SX2_REG_SSPR_M, 1);
    sx2_fset(pl, SX2_REG_SSPR_SYSTEM_PORT, p->system_port);
    return OK;
}

/*
 * SPMS - switch port MSTP/RSTP state, 2 bits per VID
 */
static uint8_t sx2_reg_spms(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_fp(s, "SPMS", sx2_lp(pl, 16, 12));
    uint8_t *st = pl + SX2_REG_SPMS_STATE_OFF;
    unsigned i, j;

    if (!p) {
        return BAD_PARAM;
    }
    if (write) {
        for (i = 0; i < SX2_REG_SPMS_STATE_BYTES; i++) {
            for (j = 0; j < 8; j += 2) {
                uint8_t v = (st[i] >> j) & 3;

                if (v != SX2_STP_NO_CHANGE) {
                    p->stp[i] = (p->stp[i] & ~(3u << j)) | (v << j);
                }
            }
        }
    }
    memcpy(st, p->stp, SX2_REG_SPMS_STATE_BYTES);
    return OK;
}

/*
 * Flood table kinds (SFGC and SFTR table_type).  SwitchX-2 has
 * single-entry and per-VID tables; FID-offset and FID tables are
 * documented as unsupported on it, and what "any" means is documented
 * nowhere, so the model does not implement it.
 */
static const char *sx2_ft_kind(unsigned kind)
{
    return kind == SX2_FT_TYPE_VID ? "VID" : "single";
}

static bool sx2_ft_type_ok(const char *reg, unsigned tt)
{
    switch (tt) {
    case SX2_FT_TYPE_VID:
    case SX2_FT_TYPE_SINGLE:
        return true;
    case SX2_FT_TYPE_ANY:
        qemu_log_mask(LOG_UNIMP, "switchx2: %s: table_type 0 (any): "
                      "semantics undocumented, not implemented\n", reg);
        return false;
    case SX2_FT_TYPE_FID_OFFSET:
    case SX2_FT_TYPE_FID:
        qemu_log_mask(LOG_UNIMP, "switchx2: %s: table_type %u: FID-offset "
                      "and FID flood tables are not supported on "
                      "SwitchX-2\n", reg, tt);
        return false;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: table_type %u is "
                      "reserved\n", reg, tt);
        return false;
    }
}

/*
 * SFGC - switch flooding group configuration: packet type to flood
 * table, for 802.1Q FIDs (bridge_type 0), the only kind SwitchX-2 has.
 */
static uint8_t sx2_reg_sfgc(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned type = sx2_fget(pl, SX2_REG_SFGC_TYPE);
    unsigned bt = sx2_fget(pl, SX2_REG_SFGC_BRIDGE_TYPE);
    SX2FloodCfg *f;

    if (type >= SX2_SFGC_TYPE_MAX || type == SX2_SFGC_TYPE_RESERVED) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFGC: packet type %u is "
                      "reserved\n", type);
        return BAD_PARAM;
    }
    if (bt != SX2_SFGC_BRIDGE_TYPE_8021Q) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SFGC: bridge_type %u: not "
                      "supported on SwitchX-2 (802.1Q FIDs only)\n", bt);
        return BAD_PARAM;
    }
    f = &s->sfgc[type];
    if (write) {
        unsigned tt = sx2_fget(pl, SX2_REG_SFGC_TABLE_TYPE);
        unsigned ft = sx2_fget(pl, SX2_REG_SFGC_FLOOD_TABLE);

        if (!sx2_ft_type_ok("SFGC", tt)) {
            return BAD_PARAM;
        }
        if (ft >= sx2_flood_tables(s, tt)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFGC: %s flood table "
                          "%u: the profile provisions %u\n", sx2_ft_kind(tt),
                          ft, sx2_flood_tables(s, tt));
            return BAD_PARAM;
        }
        f->valid = true;
        f->table_type = tt;
        f->flood_table = ft;
        f->mid = sx2_fget(pl, SX2_REG_SFGC_MID);
        f->counter_set_type = sx2_fget(pl, SX2_REG_SFGC_COUNTER_SET_TYPE);
        f->counter_index = sx2_fget(pl, SX2_REG_SFGC_COUNTER_INDEX);
        trace_switchx2_sfgc(type, sx2_ft_kind(tt), ft, f->mid);
    }
    sx2_fset(pl, SX2_REG_SFGC_TABLE_TYPE, f->table_type);
    sx2_fset(pl, SX2_REG_SFGC_FLOOD_TABLE, f->flood_table);
    sx2_fset(pl, SX2_REG_SFGC_MID, f->mid);
    sx2_fset(pl, SX2_REG_SFGC_COUNTER_SET_TYPE, f->counter_set_type);
    sx2_fset(pl, SX2_REG_SFGC_COUNTER_INDEX, f->counter_index);
    return OK;
}

/*
 * SFTR - switch flooding table: port membership, 1 bit per local port,
 * applied only where port_mask is set.  For a per-VID table, range is
 * the number of entries from index on (1 = one entry); a single-entry
 * table ignores index and takes range 0 or 1.  The table must belong to
 * the swid named (tables are split between switch partitions).
 */
static unsigned sx2_bitmap_byte(unsigned port)
{
    return (SX2_REG_SFTR_BITMAP_BYTES * 8 - 1 - port) / 8;
}

static bool sx2_bitmap_test(const uint8_t *map, unsigned port)
{
    return (map[sx2_bitmap_byte(port)] >> (port % 8)) & 1;
}

static void sx2_bitmap_assign(uint8_t *map, unsigned port, bool on)
{
    uint8_t *b = &map[sx2_bitmap_byte(port)];

    *b = on ? *b | (1u << (port % 8)) : *b & ~(1u << (port % 8));
}

static uint8_t sx2_reg_sftr(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned swid = sx2_fget(pl, SX2_REG_SFTR_SWID);
    unsigned ft = sx2_fget(pl, SX2_REG_SFTR_FLOOD_TABLE);
    unsigned index = sx2_fget(pl, SX2_REG_SFTR_INDEX);
    unsigned tt = sx2_fget(pl, SX2_REG_SFTR_TABLE_TYPE);
    unsigned range = sx2_fget(pl, SX2_REG_SFTR_RANGE);
    uint8_t *ports = pl + SX2_REG_SFTR_PORT_OFF;
    uint8_t *mask = pl + SX2_REG_SFTR_PORT_MASK_OFF;
    unsigned i, port, count = 1;
    SX2PortSet *e;
    int owner;

    if (!sx2_ft_type_ok("SFTR", tt)) {
        return BAD_PARAM;
    }
    if (ft >= sx2_flood_tables(s, tt)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFTR: %s flood table %u: "
                      "the profile provisions %u\n", sx2_ft_kind(tt), ft,
                      sx2_flood_tables(s, tt));
        return BAD_PARAM;
    }
    owner = sx2_flood_table_swid(s, tt, ft);
    if (owner < 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFTR: %s flood table %u "
                      "belongs to no swid (tables are split equally between "
                      "the configured swids)\n", sx2_ft_kind(tt), ft);
        return BAD_PARAM;
    }
    if ((unsigned)owner != swid) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFTR: %s flood table %u "
                      "belongs to swid %d, not to swid %u\n", sx2_ft_kind(tt),
                      ft, owner, swid);
        return BAD_PARAM;
    }
    if (tt == SX2_FT_TYPE_VID) {
        if (index >= SX2_FT_VID_ENTRIES ||
            (write && (range < 1 || index + range > SX2_FT_VID_ENTRIES))) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFTR: VID table %u "
                          "index %u range %u: outside the %u entries\n", ft,
                          index, range, SX2_FT_VID_ENTRIES);
            return BAD_PARAM;
        }
        count = range;
    } else {
        if (write && range > 1) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFTR: single table %u "
                          "range %u: it has one entry\n", ft, range);
            return BAD_PARAM;
        }
        index = 0;
    }
    if (write) {
        for (port = s->num_ports + 1; port < SX2_REG_SFTR_BITMAP_BYTES * 8;
             port++) {
            if (sx2_bitmap_test(mask, port)) {
                qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFTR: local port "
                              "%u does not exist\n", port);
                return BAD_PARAM;
            }
        }
        for (i = index; i < index + count; i++) {
            e = sx2_flood_entry(s, tt, ft, i);
            for (port = 0; port <= s->num_ports; port++) {
                if (sx2_bitmap_test(mask, port)) {
                    sx2_portset_assign(e, port, sx2_bitmap_test(ports, port));
                }
            }
        }
        trace_switchx2_sftr(swid, sx2_ft_kind(tt), ft, index, count);
    }
    e = sx2_flood_entry(s, tt, ft, index);
    memset(ports, 0, SX2_REG_SFTR_BITMAP_BYTES);
    memset(mask, 0, SX2_REG_SFTR_BITMAP_BYTES);
    for (port = 0; port <= s->num_ports; port++) {
        sx2_bitmap_assign(ports, port, sx2_portset_test(e, port));
    }
    return OK;
}

/*
 * SMID - switch multicast ID: MID to port membership, applied only where
 * port_mask is set (as SFTR).  MIDs 0..max_mid-1 (the profile's
 * multicast group count) exist once a profile is set, and so does MID
 * 0xD000, the swid flooding MID upstream writes here (v4.3, "due to FW
 * bug") and in every SFGC.mid.  No source says more: other MIDs are
 * refused.  The table is global; swid must be an Ethernet partition.
 * Flooding does not read it (no source ties SFGC.mid to forwarding).
 */
void sx2_smid_resize(SwitchX2State *s, unsigned count)
{
    g_free(s->smid);
    s->smid = count ? g_new0(SX2PortSet, count) : NULL;
    s->smid_count = count;
    memset(&s->smid_flood, 0, sizeof(s->smid_flood));
}

SX2PortSet *sx2_smid_entry(SwitchX2State *s, unsigned mid)
{
    if (!s->profile.set) {
        return NULL;
    }
    if (mid == SX2_MID_FLOOD) {
        return &s->smid_flood;
    }
    return mid < s->smid_count ? &s->smid[mid] : NULL;
}

static uint8_t sx2_reg_smid(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned swid = sx2_fget(pl, SX2_REG_SMID_SWID);
    unsigned mid = sx2_fget(pl, SX2_REG_SMID_MID);
    uint8_t *ports = pl + SX2_REG_SMID_PORT_OFF;
    uint8_t *mask = pl + SX2_REG_SMID_PORT_MASK_OFF;
    SX2PortSet *e;
    unsigned port;

    if (swid >= SX2_NUM_SWIDS ||
        s->profile.swid_type[swid] != SX2_SWID_TYPE_ETH) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SMID: swid %u is not an "
                      "Ethernet switch partition\n", swid);
        return BAD_PARAM;
    }
    e = sx2_smid_entry(s, mid);
    if (!e) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SMID: MID 0x%x does not "
                      "exist (0..%u from the profile's max_mid, and 0x%x)\n",
                      mid, s->smid_count ? s->smid_count - 1 : 0,
                      SX2_MID_FLOOD);
        return BAD_PARAM;
    }
    if (write) {
        for (port = s->num_ports + 1; port < SX2_REG_SMID_BITMAP_BYTES * 8;
             port++) {
            if (sx2_bitmap_test(mask, port)) {
                qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SMID: local port "
                              "%u does not exist\n", port);
                return BAD_PARAM;
            }
        }
        for (port = 0; port <= s->num_ports; port++) {
            if (sx2_bitmap_test(mask, port)) {
                sx2_portset_assign(e, port, sx2_bitmap_test(ports, port));
            }
        }
        trace_switchx2_smid(swid, mid, e->lo, e->hi);
    }
    memset(ports, 0, SX2_REG_SMID_BITMAP_BYTES);
    memset(mask, 0, SX2_REG_SMID_BITMAP_BYTES);
    for (port = 0; port <= s->num_ports; port++) {
        sx2_bitmap_assign(ports, port, sx2_portset_test(e, port));
    }
    return OK;
}

/*
 * SPMLR - switch port MAC learning mode
 */
static uint8_t sx2_reg_spmlr(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_fp(s, "SPMLR", sx2_lp(pl, 16, 12));

    if (!p || sx2_fget(pl, SX2_REG_SPMLR_SUB_PORT) != 0) {
        return BAD_PARAM;
    }
    if (write) {
        unsigned mode = sx2_fget(pl, SX2_REG_SPMLR_LEARN_MODE);

        if (mode != SX2_LEARN_DISABLE && mode != SX2_LEARN_ENABLE &&
            mode != SX2_LEARN_SEC) {
            return BAD_PARAM;
        }
        p->learn_mode = mode;
    }
    sx2_fset(pl, SX2_REG_SPMLR_LEARN_MODE, p->learn_mode);
    return OK;
}

/*
 * PMLP - port module to local port mapping.  Local ports that are not
 * wired to the front panel read back with width 0 so that drivers skip
 * them.
 */
static uint8_t sx2_reg_pmlp(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned lp = sx2_lp(pl, 16, 12);
    SX2Port *p;
    unsigned i, width;

    if (lp < 1 || lp > SX2_MAX_PORTS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PMLP: local port %u\n", lp);
        return BAD_PARAM;
    }
    if (lp > s->num_ports) {
        if (write) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PMLP: local port %u is "
                          "not connected\n", lp);
            return BAD_PARAM;
        }
        sx2_fset(pl, SX2_REG_PMLP_WIDTH, 0);
        for (i = 0; i < SX2_LANES_PER_PORT; i++) {
            sx2_set32(pl, 0x04 + 4 * i, 0);
        }
        return OK;
    }
    p = &s->fp[lp];
    if (write) {
        width = sx2_fget(pl, SX2_REG_PMLP_WIDTH);
        if (width != 0 && width != 1 && width != 2 && width != 4) {
            return BAD_PARAM;
        }
        for (i = 0; i < width; i++) {
            if (sx2_fget(pl, SX2_REG_PMLP_MODULE(i)) >= s->num_ports ||
                sx2_fget(pl, SX2_REG_PMLP_TX_LANE(i)) >= SX2_LANES_PER_PORT ||
                sx2_fget(pl, SX2_REG_PMLP_RX_LANE(i)) >= SX2_LANES_PER_PORT) {
                return BAD_PARAM;
            }
        }
        p->rxtx_differ = sx2_fget(pl, SX2_REG_PMLP_RXTX);
        p->width = width;
        for (i = 0; i < SX2_LANES_PER_PORT; i++) {
            p->module[i] = i < width ? sx2_fget(pl, SX2_REG_PMLP_MODULE(i)) : 0;
            p->tx_lane[i] = i < width ? sx2_fget(pl, SX2_REG_PMLP_TX_LANE(i))
                                      : 0;
            p->rx_lane[i] = i < width ? (p->rxtx_differ ?
                                         sx2_fget(pl, SX2_REG_PMLP_RX_LANE(i)) :
                                         p->tx_lane[i]) : 0;
        }
        /* Speeds the new width cannot carry are no longer enabled */
        p->eth_proto_admin &= sx2_port_eth_cap(p);
        if (!p->eth_proto_admin) {
            p->eth_proto_admin = sx2_port_eth_cap(p);
        }
        sx2_port_update_oper(p);
    }
    sx2_fset(pl, SX2_REG_PMLP_RXTX, p->rxtx_differ);
    sx2_fset(pl, SX2_REG_PMLP_WIDTH, p->width);
    for (i = 0; i < SX2_LANES_PER_PORT; i++) {
        sx2_set32(pl, 0x04 + 4 * i, 0);
        if (i < p->width) {
            sx2_fset(pl, SX2_REG_PMLP_MODULE(i), p->module[i]);
            sx2_fset(pl, SX2_REG_PMLP_TX_LANE(i), p->tx_lane[i]);
            sx2_fset(pl, SX2_REG_PMLP_RX_LANE(i), p->rx_lane[i]);
        }
    }
    return OK;
}

/*
 * PMTU - port MTU
 */
static uint8_t sx2_reg_pmtu(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_fp(s, "PMTU", sx2_lp(pl, 16, 12));

    if (!p) {
        return BAD_PARAM;
    }
    if (write) {
        unsigned mtu = sx2_fget(pl, SX2_REG_PMTU_ADMIN_MTU);

        if (mtu == 0 || mtu > SX2_MAX_MTU) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PMTU: port %u MTU %u "
                          "out of range (1..%u)\n", p->local_port, mtu,
                          SX2_MAX_MTU);
            return BAD_PARAM;
        }
        p->admin_mtu = mtu;
    }
    sx2_fset(pl, SX2_REG_PMTU_MAX_MTU, SX2_MAX_MTU);
    sx2_fset(pl, SX2_REG_PMTU_ADMIN_MTU, p->admin_mtu);
    sx2_fset(pl, SX2_REG_PMTU_OPER_MTU, p->admin_mtu);
    return OK;
}

/*
 * PTYS - port type and speed
 */
static uint8_t sx2_reg_ptys(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_fp(s, "PTYS", sx2_lp(pl, 16, 12));
    unsigned mask = sx2_fget(pl, SX2_REG_PTYS_PROTO_MASK);
    bool up;

    if (!p) {
        return BAD_PARAM;
    }
    if (write) {
        uint32_t eth = sx2_fget(pl, SX2_REG_PTYS_ETH_ADMIN);
        uint32_t ibp = sx2_fget(pl, SX2_REG_PTYS_IB_PROTO_ADMIN);
        uint32_t ibw = sx2_fget(pl, SX2_REG_PTYS_IB_WIDTH_ADMIN);

        if (!(mask & (SX2_PTYS_PROTO_ETH | SX2_PTYS_PROTO_IB))) {
            return BAD_PARAM;
        }
        /*
         * Link modes the port cannot do are ignored (drivers ask for
         * every mode up to a speed); at least one must remain.
         */
        if ((mask & SX2_PTYS_PROTO_ETH) && !(eth & sx2_port_eth_cap(p))) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PTYS: port %u eth "
                          "admin 0x%x has nothing in capability 0x%x\n",
                          p->local_port, eth, sx2_port_eth_cap(p));
            return BAD_PARAM;
        }
        if ((mask & SX2_PTYS_PROTO_IB) &&
            (!(ibp & SX2_IB_PROTO_CAP) || !(ibw & SX2_IB_WIDTH_CAP))) {
            return BAD_PARAM;
        }
        if (mask & SX2_PTYS_PROTO_ETH) {
            p->eth_proto_admin = eth & sx2_port_eth_cap(p);
            p->an_disable = sx2_fget(pl, SX2_REG_PTYS_AN_DISABLE_ADMIN);
        }
        if (mask & SX2_PTYS_PROTO_IB) {
            p->ib_proto_admin = ibp & SX2_IB_PROTO_CAP;
            p->ib_width_admin = ibw & SX2_IB_WIDTH_CAP;
        }
        p->proto_mask = mask;
        sx2_port_update_oper(p);
    }
    up = p->oper_status == SX2_OPER_UP;
    sx2_fset(pl, SX2_REG_PTYS_AN_DISABLE_ADMIN, p->an_disable);
    sx2_fset(pl, SX2_REG_PTYS_AN_STATUS,
             up && !p->an_disable ? SX2_PTYS_AN_STATUS_OK
                                  : SX2_PTYS_AN_STATUS_NA);
    sx2_fset(pl, SX2_REG_PTYS_EXT_ETH_CAP, 0);
    sx2_fset(pl, SX2_REG_PTYS_ETH_CAP, sx2_port_eth_cap(p));
    sx2_fset(pl, SX2_REG_PTYS_IB_WIDTH_CAP, SX2_IB_WIDTH_CAP);
    sx2_fset(pl, SX2_REG_PTYS_IB_PROTO_CAP, SX2_IB_PROTO_CAP);
    sx2_fset(pl, SX2_REG_PTYS_EXT_ETH_ADMIN, 0);
    sx2_fset(pl, SX2_REG_PTYS_ETH_ADMIN, p->eth_proto_admin);
    sx2_fset(pl, SX2_REG_PTYS_IB_WIDTH_ADMIN, p->ib_width_admin);
    sx2_fset(pl, SX2_REG_PTYS_IB_PROTO_ADMIN, p->ib_proto_admin);
    sx2_fset(pl, SX2_REG_PTYS_EXT_ETH_OPER, 0);
    sx2_fset(pl, SX2_REG_PTYS_ETH_OPER, up ? sx2_port_eth_oper(p) : 0);
    sx2_fset(pl, SX2_REG_PTYS_IB_WIDTH_OPER, 0);
    sx2_fset(pl, SX2_REG_PTYS_IB_PROTO_OPER, 0);
    sx2_fset(pl, SX2_REG_PTYS_CONNECTOR_TYPE, SX2_PTYS_CONNECTOR_DA);
    return OK;
}

/*
 * PPAD - port physical address
 */
static uint8_t sx2_reg_ppad(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned lp = sx2_lp(pl, 16, 24);
    uint8_t *mac = pl + SX2_REG_PPAD_MAC_OFF;

    if (lp == 0) {
        /* The base address ports derive theirs from */
        if (write) {
            return BAD_PARAM;
        }
        memcpy(mac, s->spad_mac, 6);
        return OK;
    }
    if (!sx2_reg_fp(s, "PPAD", lp)) {
        return BAD_PARAM;
    }
    if (write) {
        if (mac[0] & 1) {
            return BAD_PARAM;
        }
        memcpy(s->fp[lp].mac, mac, 6);
    }
    memcpy(mac, s->fp[lp].mac, 6);
    return OK;
}

/*
 * PAOS - port administrative and operational status
 */
static uint8_t sx2_reg_paos(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_fp(s, "PAOS", sx2_lp(pl, 16, 12));

    if (!p) {
        return BAD_PARAM;
    }
    if (write) {
        bool ase = sx2_fget(pl, SX2_REG_PAOS_ASE);
        bool ee = sx2_fget(pl, SX2_REG_PAOS_EE);
        unsigned admin = sx2_fget(pl, SX2_REG_PAOS_ADMIN_STATUS);
        unsigned e = sx2_fget(pl, SX2_REG_PAOS_E);

        if (ase && (admin < SX2_ADMIN_UP || admin > SX2_ADMIN_DISABLED)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PAOS: port %u admin "
                          "status %u\n", p->local_port, admin);
            return BAD_PARAM;
        }
        if (ee && e > SX2_EVENT_SINGLE) {
            return BAD_PARAM;
        }
        if (ee) {
            p->event_mode = e;
        }
        if (ase) {
            p->admin_status = admin;
            sx2_port_update_oper(p);
        }
    }
    sx2_fset(pl, SX2_REG_PAOS_SWID, p->swid);
    sx2_fset(pl, SX2_REG_PAOS_ADMIN_STATUS, p->admin_status);
    sx2_fset(pl, SX2_REG_PAOS_OPER_STATUS, p->oper_status);
    sx2_fset(pl, SX2_REG_PAOS_ASE, 0);
    sx2_fset(pl, SX2_REG_PAOS_EE, 0);
    sx2_fset(pl, SX2_REG_PAOS_E, p->event_mode);
    return OK;
}

/*
 * PPCNT - port performance counters.  Each group reports the port's MAC
 * counters the way its standard defines them (IEEE 802.3 clause 30,
 * RFC 2863 with RFC 3635's Ethernet reading, RFC 2819, RFC 3635); see
 * SX2PortCounters for how frames are counted.  clr resets one group,
 * whatever the others read: each group reads its counters minus what
 * they were at its last clear.
 */
static const uint8_t sx2_ppcnt_slot_grp[SX2_PPCNT_SLOTS] = {
    [SX2_PPCNT_SLOT_IEEE_8023] = SX2_PPCNT_IEEE_8023,
    [SX2_PPCNT_SLOT_RFC_2863] = SX2_PPCNT_RFC_2863,
    [SX2_PPCNT_SLOT_RFC_2819] = SX2_PPCNT_RFC_2819,
    [SX2_PPCNT_SLOT_RFC_3635] = SX2_PPCNT_RFC_3635,
    [SX2_PPCNT_SLOT_EXT] = SX2_PPCNT_EXT,
    [SX2_PPCNT_SLOT_DISCARD] = SX2_PPCNT_DISCARD,
    [SX2_PPCNT_SLOT_PRIO] = SX2_PPCNT_PRIO,
    [SX2_PPCNT_SLOT_TC] = SX2_PPCNT_TC,
    [SX2_PPCNT_SLOT_TC_CONG] = SX2_PPCNT_TC_CONG,
};

static int sx2_ppcnt_slot(unsigned grp)
{
    unsigned i;

    for (i = 0; i < SX2_PPCNT_SLOTS; i++) {
        if (sx2_ppcnt_slot_grp[i] == grp) {
            return i;
        }
    }
    return -1;
}

static bool sx2_ppcnt_per_prio(unsigned grp)
{
    return grp == SX2_PPCNT_PRIO || grp == SX2_PPCNT_TC ||
           grp == SX2_PPCNT_TC_CONG;
}

/* What group @grp (priority / TC @prio_tc) reads from @c, uncleared */
static void sx2_ppcnt_raw(const SX2PortCounters *c, unsigned grp,
                          unsigned prio_tc, uint64_t *v)
{
    unsigned i;

#define SX2_CNT(off, val)   (v[(off) / 8] = (val))
    memset(v, 0, sizeof(*v) * SX2_PPCNT_COUNTERS);
    switch (grp) {
    case SX2_PPCNT_IEEE_8023:
        SX2_CNT(0x00, c->tx_frames);        /* aFramesTransmittedOK */
        SX2_CNT(0x08, c->rx_frames);        /* aFramesReceivedOK */
        SX2_CNT(0x20, c->tx_payload);       /* aOctetsTransmittedOK */
        SX2_CNT(0x28, c->rx_payload);       /* aOctetsReceivedOK */
        SX2_CNT(0x30, c->tx_mcast);
        SX2_CNT(0x38, c->tx_bcast);
        SX2_CNT(0x40, c->rx_mcast);
        SX2_CNT(0x48, c->rx_bcast);
        SX2_CNT(0x60, c->rx_too_long);      /* aFrameTooLongErrors */
        break;
    case SX2_PPCNT_RFC_2863:
        SX2_CNT(0x00, c->rx_octets);        /* ifInOctets */
        SX2_CNT(0x08, c->rx_ucast);
        SX2_CNT(0x10, c->rx_discards);      /* ifInDiscards */
        SX2_CNT(0x18, c->rx_too_long + c->rx_undersize);   /* ifInErrors */
        SX2_CNT(0x28, c->tx_octets);        /* ifOutOctets */
        SX2_CNT(0x30, c->tx_ucast);
        SX2_CNT(0x38, c->tx_discards);      /* ifOutDiscards */
        SX2_CNT(0x48, c->rx_mcast);
        SX2_CNT(0x50, c->rx_bcast);
        SX2_CNT(0x58, c->tx_mcast);
        SX2_CNT(0x60, c->tx_bcast);
        break;
    case SX2_PPCNT_RFC_2819:
        /* 0x00 etherStatsDropEvents: no drop for lack of resources */
        SX2_CNT(0x08, c->rx_all_octets);    /* etherStatsOctets */
        SX2_CNT(0x10, c->rx_frames + c->rx_too_long + c->rx_undersize);
        SX2_CNT(0x18, c->rx_bcast);
        SX2_CNT(0x20, c->rx_mcast);
        SX2_CNT(0x30, c->rx_undersize);     /* etherStatsUndersizePkts */
        SX2_CNT(0x38, c->rx_oversize);      /* etherStatsOversizePkts */
        for (i = 0; i < ARRAY_SIZE(c->rx_hist); i++) {
            SX2_CNT(0x58 + 8 * i, c->rx_hist[i]);
        }
        break;
    case SX2_PPCNT_RFC_3635:
        SX2_CNT(0x50, c->rx_too_long);      /* dot3StatsFrameTooLongs */
        break;
    case SX2_PPCNT_PRIO:
        /* Untagged slow-path traffic is priority 0 */
        if (prio_tc == 0) {
            SX2_CNT(0x00, c->rx_octets);
            SX2_CNT(0x20, c->rx_frames);
            SX2_CNT(0x28, c->tx_octets);
            SX2_CNT(0x48, c->tx_frames);
        }
        break;
    default:
        break;
    }
#undef SX2_CNT
}

/* Set the clear point of group slot @slot of port @p to now */
static void sx2_ppcnt_clear(SX2Port *p, unsigned slot)
{
    sx2_ppcnt_raw(&p->cnt, sx2_ppcnt_slot_grp[slot], 0, p->ppcnt_base[slot]);
    trace_switchx2_ppcnt_clear(p->local_port, sx2_ppcnt_slot_grp[slot]);
}

static uint8_t sx2_reg_ppcnt(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned lp = sx2_lp(pl, 16, 12);
    unsigned swid = sx2_fget(pl, SX2_REG_PPCNT_SWID);
    unsigned pnat = sx2_fget(pl, SX2_REG_PPCNT_PNAT);
    unsigned grp = sx2_fget(pl, SX2_REG_PPCNT_GRP);
    unsigned prio_tc = sx2_fget(pl, SX2_REG_PPCNT_PRIO_TC);
    bool clr = sx2_fget(pl, SX2_REG_PPCNT_CLR);
    /* v6.1's lp_gl 1: local_port 255 is port 255, not "all ports" */
    bool all_ports = lp == SX2_PPCNT_ALL_PORTS &&
                     !sx2_fget(pl, SX2_REG_PPCNT_LP_GL);
    bool all_groups = grp == SX2_PPCNT_ALL_GROUPS;
    uint64_t v[SX2_PPCNT_COUNTERS];
    int slot = -1;
    unsigned i, port;

    if (pnat != 0) {
        qemu_log_mask(pnat == 1 ? LOG_UNIMP : LOG_GUEST_ERROR,
                      "switchx2: PPCNT: pnat %u: only local port numbers "
                      "(0) are implemented\n", pnat);
        return BAD_PARAM;
    }
    if (all_groups) {
        if (!write || !clr) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PPCNT: group 63 (all "
                          "groups) is only valid on Set() with clr\n");
            return BAD_PARAM;
        }
    } else {
        slot = sx2_ppcnt_slot(grp);
        if (slot < 0) {
            qemu_log_mask(grp == 0x8 || grp == 0x12 ? LOG_UNIMP
                                                    : LOG_GUEST_ERROR,
                          "switchx2: PPCNT: group 0x%x is not "
                          "implemented\n", grp);
            return BAD_PARAM;
        }
        if (sx2_ppcnt_per_prio(grp) ? prio_tc > 7 : prio_tc != 0) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PPCNT: group 0x%x "
                          "prio_tc %u\n", grp, prio_tc);
            return BAD_PARAM;
        }
    }
    if (all_ports) {
        if (!write) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PPCNT: local port 255 "
                          "(all ports) is only valid on Set()\n");
            return BAD_PARAM;
        }
        if (swid >= SX2_NUM_SWIDS && swid != SX2_PPCNT_SWID_ALL) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PPCNT: swid %u\n",
                          swid);
            return BAD_PARAM;
        }
    } else {
        if (lp > s->num_ports) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PPCNT: local port "
                          "%u\n", lp);
            return BAD_PARAM;
        }
        if (swid == SX2_PPCNT_SWID_ALL) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PPCNT: swid 255 (all "
                          "partitions) is only valid with local port "
                          "255\n");
            return BAD_PARAM;
        }
    }

    memset(pl + SX2_PPCNT_CNT_OFF, 0, SX2_REG_PPCNT_LEN - SX2_PPCNT_CNT_OFF);
    if (!all_ports && !all_groups && lp != SX2_CPU_PORT) {
        SX2Port *p = &s->fp[lp];
        bool cleared = !sx2_ppcnt_per_prio(grp) || prio_tc == 0;

        sx2_ppcnt_raw(&p->cnt, grp, prio_tc, v);
        for (i = 0; i < SX2_PPCNT_COUNTERS; i++) {
            sx2_set64(pl, SX2_PPCNT_CNT_OFF + 8 * i,
                      v[i] - (cleared ? p->ppcnt_base[slot][i] : 0));
        }
    }
    if (!clr || (!all_groups && sx2_ppcnt_per_prio(grp) && prio_tc != 0)) {
        return OK;
    }
    for (port = 1; port <= s->num_ports; port++) {
        SX2Port *p = &s->fp[port];

        if (all_ports ? (swid != SX2_PPCNT_SWID_ALL && p->swid != swid)
                      : port != lp) {
            continue;
        }
        for (i = 0; i < SX2_PPCNT_SLOTS; i++) {
            if (all_groups || (int)i == slot) {
                sx2_ppcnt_clear(p, i);
            }
        }
    }
    return OK;
}

/*
 * PLIB - port local to InfiniBand port mapping
 */
static uint8_t sx2_reg_plib(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_fp(s, "PLIB", sx2_fget(pl, SX2_REG_PLIB_LOCAL_PORT));

    if (!p) {
        return BAD_PARAM;
    }
    if (write) {
        p->ib_port = sx2_fget(pl, SX2_REG_PLIB_IB_PORT);
    }
    sx2_fset(pl, SX2_REG_PLIB_IB_PORT, p->ib_port);
    return OK;
}

/*
 * PSPA - port switch partition allocation
 */
static uint8_t sx2_reg_pspa(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_fp(s, "PSPA", sx2_lp(pl, 16, 0));

    if (!p || sx2_fget(pl, SX2_REG_PSPA_SUB_PORT) != 0) {
        return BAD_PARAM;
    }
    if (write) {
        unsigned swid = sx2_fget(pl, SX2_REG_PSPA_SWID);

        if (swid >= SX2_NUM_SWIDS && swid != SX2_SWID_DISABLED) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: PSPA: port %u swid "
                          "%u\n", p->local_port, swid);
            return BAD_PARAM;
        }
        p->swid = swid;
    }
    sx2_fset(pl, SX2_REG_PSPA_SWID, p->swid);
    return OK;
}

/*
 * HTGT - host trap group table
 */
static uint8_t sx2_reg_htgt(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned g = sx2_fget(pl, SX2_REG_HTGT_TRAP_GROUP);
    SX2TrapGroup *t;

    if (g >= SX2_TRAP_GROUPS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: HTGT: trap group %u\n", g);
        return BAD_PARAM;
    }
    t = &s->htgt[g];
    if (write) {
        unsigned rdq = sx2_fget(pl, SX2_REG_HTGT_RDQ);

        if (sx2_fget(pl, SX2_REG_HTGT_TYPE) != SX2_HTGT_PATH_LOCAL) {
            qemu_log_mask(LOG_UNIMP, "switchx2: HTGT: only the local CPU "
                          "path is implemented\n");
            return BAD_PARAM;
        }
        if (sx2_fget(pl, SX2_REG_HTGT_MIRROR_ACTION) ||
            sx2_fget(pl, SX2_REG_HTGT_MIRRORING_AGENT)) {
            qemu_log_mask(LOG_UNIMP, "switchx2: HTGT: mirror_action %u "
                          "mirroring_agent %u: mirror agents are "
                          "Spectrum-only\n",
                          sx2_fget(pl, SX2_REG_HTGT_MIRROR_ACTION),
                          sx2_fget(pl, SX2_REG_HTGT_MIRRORING_AGENT));
            return BAD_PARAM;
        }
        if (sx2_fget(pl, SX2_REG_HTGT_PIDE) &&
            !sx2_policer_usable(s, sx2_fget(pl, SX2_REG_HTGT_PID))) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: HTGT: group %u pid %u: "
                          "no such policer configured (QPCR, 0..%u)\n", g,
                          sx2_fget(pl, SX2_REG_HTGT_PID),
                          SX2_NUM_POLICERS - 1);
            return BAD_PARAM;
        }
        if (rdq >= SX2_NUM_RDQS) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: HTGT: group %u RDQ %u "
                          "does not exist\n", g, rdq);
            return BAD_PARAM;
        }
        t->valid = true;
        t->swid = sx2_fget(pl, SX2_REG_HTGT_SWID);
        t->pide = sx2_fget(pl, SX2_REG_HTGT_PIDE);
        t->pid = sx2_fget(pl, SX2_REG_HTGT_PID);
        /* Stored and echoed; SwitchX-2 orders by trap group instead */
        t->priority = sx2_fget(pl, SX2_REG_HTGT_PRIORITY);
        t->cpu_tclass = sx2_fget(pl, SX2_REG_HTGT_CPU_TCLASS);
        t->rdq = rdq;
    }
    sx2_fset(pl, SX2_REG_HTGT_SWID, t->swid);
    sx2_fset(pl, SX2_REG_HTGT_TYPE, SX2_HTGT_PATH_LOCAL);
    sx2_fset(pl, SX2_REG_HTGT_PIDE, t->pide);
    sx2_fset(pl, SX2_REG_HTGT_PID, t->pid);
    sx2_fset(pl, SX2_REG_HTGT_MIRROR_ACTION, 0);
    sx2_fset(pl, SX2_REG_HTGT_MIRRORING_AGENT, 0);
    sx2_fset(pl, SX2_REG_HTGT_PRIORITY, t->priority);
    sx2_fset(pl, SX2_REG_HTGT_CPU_TCLASS, t->cpu_tclass);
    sx2_fset(pl, SX2_REG_HTGT_RDQ, t->rdq);
    return OK;
}

/*
 * HPKT - host packet trap (trap ID to action and trap group).  The
 * firmware defaults (silent: assumed): ETHEMAD traps to group 0 (EMAD
 * answers always reach the CPU); every other trap forwards, i.e. a
 * control frame is switched like any other and an event is not
 * delivered until HPKT registers it.
 */
static void sx2_hpkt_default(SwitchX2State *s, unsigned trap_id)
{
    SX2Trap *t = &s->hpkt[trap_id];

    memset(t, 0, sizeof(*t));
    if (trap_id == SX2_TRAP_ETHEMAD) {
        t->action = SX2_HPKT_TRAP_TO_CPU;
        t->group = 0;
    }
}

static uint8_t sx2_reg_hpkt(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned id = sx2_fget(pl, SX2_REG_HPKT_TRAP_ID);
    SX2Trap *t = &s->hpkt[id];

    if (write) {
        unsigned action = sx2_fget(pl, SX2_REG_HPKT_ACTION);
        unsigned g = sx2_fget(pl, SX2_REG_HPKT_TRAP_GROUP);

        if (sx2_fget(pl, SX2_REG_HPKT_ACK)) {
            qemu_log_mask(LOG_UNIMP, "switchx2: HPKT: trap 0x%x ack 1: "
                          "event acknowledgements are not supported by "
                          "firmware\n", id);
            return BAD_PARAM;
        }
        if (action == SX2_HPKT_SET_FW_DEFAULT) {
            /* The last trap group written is the trap's group */
            sx2_hpkt_default(s, id);
            t->group = g;
        } else if (sx2_trap_is_event(id) && action != SX2_HPKT_FORWARD &&
                   action != SX2_HPKT_TRAP_TO_CPU) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: HPKT: event trap 0x%x "
                          "action %u: must be 0 (forward) for event trap "
                          "IDs\n", id, action);
            return BAD_PARAM;
        } else {
            t->set = true;
            t->action = action;
            t->group = g;
            /* ctrl is ignored by SwitchX-2: accepted, not kept */
        }
        trace_switchx2_hpkt(id, action, g, t->action);
    }
    sx2_fset(pl, SX2_REG_HPKT_ACK, 0);
    sx2_fset(pl, SX2_REG_HPKT_ACTION, t->action);
    sx2_fset(pl, SX2_REG_HPKT_TRAP_GROUP, t->group);
    sx2_fset(pl, SX2_REG_HPKT_CTRL, 0);
    return OK;
}

/*
 * MGIR - management general information
 */
static uint8_t sx2_reg_mgir(SwitchX2State *s, uint8_t *pl, bool write)
{
    if (write) {
        return SX2_EMAD_STATUS_METHOD_NOT_SUPP;
    }
    memset(pl, 0, SX2_REG_MGIR_LEN);
    sx2_fset(pl, SX2_REG_MGIR_HW_REVISION, SX2_HW_REVISION);
    sx2_fset(pl, SX2_REG_MGIR_DEVICE_ID, SX2_PCI_DEVICE_ID_SWITCHX2);
    memcpy(pl + SX2_REG_MGIR_PSID_OFF, s->psid,
           MIN(strlen(s->psid), SX2_PSID_LEN));
    sx2_fset(pl, SX2_REG_MGIR_EXT_MAJOR, s->fw_major);
    sx2_fset(pl, SX2_REG_MGIR_EXT_MINOR, s->fw_minor);
    sx2_fset(pl, SX2_REG_MGIR_EXT_SUB_MINOR, s->fw_subminor);
    return OK;
}

/*
 * MRSR - management reset and shutdown: the answer goes out first, the
 * reset happens right after.
 */
static uint8_t sx2_reg_mrsr(SwitchX2State *s, uint8_t *pl, bool write)
{
    if (write) {
        if (sx2_fget(pl, SX2_REG_MRSR_COMMAND) != SX2_MRSR_SW_RESET) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: MRSR: command %u\n",
                          sx2_fget(pl, SX2_REG_MRSR_COMMAND));
            return BAD_PARAM;
        }
        sx2_schedule_soft_reset(s, "software (MRSR)");
        return OK;
    }
    sx2_fset(pl, SX2_REG_MRSR_COMMAND, 0);
    return OK;
}

/*
 * MGPIR - management general peripheral information.  There are no
 * gearboxes, line cards or manageable (EEPROM/thermal) modules.
 */
static uint8_t sx2_reg_mgpir(SwitchX2State *s, uint8_t *pl, bool write)
{
    if (write) {
        return SX2_EMAD_STATUS_METHOD_NOT_SUPP;
    }
    if (sx2_fget(pl, SX2_REG_MGPIR_SLOT_INDEX) != 0) {
        return BAD_PARAM;
    }
    memset(pl, 0, SX2_REG_MGPIR_LEN);
    return OK;
}

static const SX2RegInfo sx2_regs[] = {
    { SX2_REG_SGCR_ID,  SX2_REG_SGCR_LEN,  "SGCR",  sx2_reg_sgcr },
    { SX2_REG_SPAD_ID,  SX2_REG_SPAD_LEN,  "SPAD",  sx2_reg_spad },
    { SX2_REG_SMID_ID,  SX2_REG_SMID_LEN,  "SMID",  sx2_reg_smid },
    { SX2_REG_SSPR_ID,  SX2_REG_SSPR_LEN,  "SSPR",  sx2_reg_sspr },
    { SX2_REG_SPMS_ID,  SX2_REG_SPMS_LEN,  "SPMS",  sx2_reg_spms },
    { SX2_REG_SFGC_ID,  SX2_REG_SFGC_LEN,  "SFGC",  sx2_reg_sfgc },
    { SX2_REG_SFTR_ID,  SX2_REG_SFTR_LEN,  "SFTR",  sx2_reg_sftr },
    { SX2_REG_SPMLR_ID, SX2_REG_SPMLR_LEN, "SPMLR", sx2_reg_spmlr },
    { SX2_REG_SFDAT_ID, SX2_REG_SFDAT_LEN, "SFDAT", sx2_reg_sfdat },
    { SX2_REG_SFD_ID,   SX2_REG_SFD_LEN,   "SFD",   sx2_reg_sfd },
    { SX2_REG_SFN_ID,   SX2_REG_SFN_LEN,   "SFN",   sx2_reg_sfn },
    { SX2_REG_SFDF_ID,  SX2_REG_SFDF_LEN,  "SFDF",  sx2_reg_sfdf },
    { SX2_REG_SLDR_ID,  SX2_REG_SLDR_LEN,  "SLDR",  sx2_reg_sldr },
    { SX2_REG_SLCR_ID,  SX2_REG_SLCR_LEN,  "SLCR",  sx2_reg_slcr },
    { SX2_REG_SLCOR_ID, SX2_REG_SLCOR_LEN, "SLCOR", sx2_reg_slcor },
    { SX2_REG_SPVID_ID, SX2_REG_SPVID_LEN, "SPVID", sx2_reg_spvid },
    { SX2_REG_SPVM_ID,  SX2_REG_SPVM_LEN,  "SPVM",  sx2_reg_spvm },
    { SX2_REG_SPAFT_ID, SX2_REG_SPAFT_LEN, "SPAFT", sx2_reg_spaft },
    { SX2_REG_SVFA_ID,  SX2_REG_SVFA_LEN,  "SVFA",  sx2_reg_svfa },
    { SX2_REG_SVPE_ID,  SX2_REG_SVPE_LEN,  "SVPE",  sx2_reg_svpe },
    { SX2_REG_SFMR_ID,  SX2_REG_SFMR_LEN,  "SFMR",  sx2_reg_sfmr },
    { SX2_REG_SPVMLR_ID, SX2_REG_SPVMLR_LEN, "SPVMLR", sx2_reg_spvmlr },
    { SX2_REG_PMLP_ID,  SX2_REG_PMLP_LEN,  "PMLP",  sx2_reg_pmlp },
    { SX2_REG_PMTU_ID,  SX2_REG_PMTU_LEN,  "PMTU",  sx2_reg_pmtu },
    { SX2_REG_PTYS_ID,  SX2_REG_PTYS_LEN,  "PTYS",  sx2_reg_ptys },
    { SX2_REG_PPAD_ID,  SX2_REG_PPAD_LEN,  "PPAD",  sx2_reg_ppad },
    { SX2_REG_PAOS_ID,  SX2_REG_PAOS_LEN,  "PAOS",  sx2_reg_paos },
    { SX2_REG_PPCNT_ID, SX2_REG_PPCNT_LEN, "PPCNT", sx2_reg_ppcnt },
    { SX2_REG_PLIB_ID,  SX2_REG_PLIB_LEN,  "PLIB",  sx2_reg_plib },
    { SX2_REG_PSPA_ID,  SX2_REG_PSPA_LEN,  "PSPA",  sx2_reg_pspa },
    { SX2_REG_QPCR_ID,  SX2_REG_QPCR_LEN,  "QPCR",  sx2_reg_qpcr },
    { SX2_REG_HTGT_ID,  SX2_REG_HTGT_LEN,  "HTGT",  sx2_reg_htgt },
    { SX2_REG_HPKT_ID,  SX2_REG_HPKT_LEN,  "HPKT",  sx2_reg_hpkt },
    { SX2_REG_MGIR_ID,  SX2_REG_MGIR_LEN,  "MGIR",  sx2_reg_mgir },
    { SX2_REG_MPAT_ID,  SX2_REG_MPAT_LEN,  "MPAT",  sx2_reg_mpat },
    { SX2_REG_MPAR_ID,  SX2_REG_MPAR_LEN,  "MPAR",  sx2_reg_mpar,
      SX2_REG_MPAR_LEN_V4_9 },
    { SX2_REG_MRSR_ID,  SX2_REG_MRSR_LEN,  "MRSR",  sx2_reg_mrsr },
    { SX2_REG_MGPIR_ID, SX2_REG_MGPIR_LEN, "MGPIR", sx2_reg_mgpir },
    { SX2_REG_RGCR_ID,  SX2_REG_RGCR_LEN,  "RGCR",  sx2_reg_rgcr },
    { SX2_REG_RITR_ID,  SX2_REG_RITR_LEN,  "RITR",  sx2_reg_ritr },
    { SX2_REG_RICNT_ID, SX2_REG_RICNT_LEN, "RICNT", sx2_reg_ricnt },
    { SX2_REG_RATR_ID,  SX2_REG_RATR_LEN,  "RATR",  sx2_reg_ratr },
    { SX2_REG_RALTA_ID, SX2_REG_RALTA_LEN, "RALTA", sx2_reg_ralta },
    { SX2_REG_RALST_ID, SX2_REG_RALST_LEN, "RALST", sx2_reg_ralst },
    { SX2_REG_RALTB_ID, SX2_REG_RALTB_LEN, "RALTB", sx2_reg_raltb },
    { SX2_REG_RALUE_ID, SX2_REG_RALUE_LEN, "RALUE", sx2_reg_ralue },
    { SX2_REG_RALEU_ID, SX2_REG_RALEU_LEN, "RALEU", sx2_reg_raleu },
    { SX2_REG_RAUHT_ID, SX2_REG_RAUHT_LEN, "RAUHT", sx2_reg_rauht },
    { SX2_REG_RAUHTD_ID, SX2_REG_RAUHTD_LEN, "RAUHTD", sx2_reg_rauhtd },
};

const SX2RegInfo *sx2_reg_find(uint16_t id)
{
    unsigned i;

    for (i = 0; i < ARRAY_SIZE(sx2_regs); i++) {
        if (sx2_regs[i].id == id) {
            return &sx2_regs[i];
        }
    }
    return NULL;
}

/* The register the model implements under @name (any case), or NULL */
const SX2RegInfo *sx2_reg_find_name(const char *name)
{
    unsigned i;

    for (i = 0; i < ARRAY_SIZE(sx2_regs); i++) {
        if (!g_ascii_strcasecmp(sx2_regs[i].name, name)) {
            return &sx2_regs[i];
        }
    }
    return NULL;
}

const char *sx2_reg_name(uint16_t id)
{
    const SX2RegInfo *r = sx2_reg_find(id);

    if (r) {
        return r->name;
    }
    return id == SX2_REG_PUDE_ID ? "PUDE" : "unsupported";
}

void sx2_reg_reset(SwitchX2State *s)
{
    unsigned i;

    s->sgcr_llb = false;
    memcpy(s->spad_mac, s->base_mac.a, 6);
    memset(s->htgt, 0, sizeof(s->htgt));
    sx2_policer_reset(s);
    /* Until the driver retargets it, the EMAD group lands on RDQ 0 */
    s->htgt[0].valid = true;
    for (i = 0; i < SX2_TRAP_ID_MAX; i++) {
        sx2_hpkt_default(s, i);
    }
    sx2_flood_reset(s);
    sx2_smid_resize(s, 0);
    for (i = 0; i <= SX2_MAX_PORTS; i++) {
        sx2_port_reset(&s->fp[i]);
    }
    sx2_lag_reset(s);
    sx2_span_reset(s);
    sx2_router_reset(s);
    sx2_fdb_reset(s);
}
