/*
 * Mellanox SwitchX-2 switch ASIC emulation: VLANs and FIDs
 *
 * Per-port VLAN configuration (PVID, acceptable frame types, membership,
 * per-VID learning), virtual port mode and {port, VID} to FID mappings,
 * and 802.1D FID (vFID) management.  docs/switchx2-l2.md says what the
 * fields do; the pipeline that uses them is in switchx2_fwd.c.
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

/* Reset defaults: VID 1 untagged member, all frame types, learning on */
void sx2_vlan_port_reset(SX2Port *p)
{
    p->pvid = 1;
    p->allow_untagged = true;
    p->allow_prio_tagged = true;
    p->allow_tagged = true;
    p->prio_tag = false;
    p->vp_en = false;
    memset(p->vlan_i, 0, sizeof(p->vlan_i));
    memset(p->vlan_e, 0, sizeof(p->vlan_e));
    memset(p->vlan_u, 0, sizeof(p->vlan_u));
    sx2_vid_assign(p->vlan_i, 1, true);
    sx2_vid_assign(p->vlan_e, 1, true);
    sx2_vid_assign(p->vlan_u, 1, true);
    memset(p->learn_vid, 0xFF, sizeof(p->learn_vid));
}

void sx2_vlan_reset(SwitchX2State *s)
{
    memset(s->vfid_valid, 0, sizeof(s->vfid_valid));
    memset(s->fid_offset, 0, sizeof(s->fid_offset));
    if (s->vport) {
        memset(s->vport, 0, sizeof(SX2VPort) * (SX2_MAX_PORTS + 1));
    }
}

bool sx2_fid_exists(SwitchX2State *s, uint32_t fid)
{
    if (fid >= 1 && fid <= SX2_VID_MAX) {
        return true;
    }
    return fid >= SX2_VFID_BASE && fid < SX2_NUM_FIDS &&
           s->vfid_valid[fid - SX2_VFID_BASE];
}

/* Local port (0 = CPU) a system port refers to, -1 if none */
int sx2_local_port_of_system_port(SwitchX2State *s, uint32_t sys)
{
    unsigned i;

    for (i = 1; i <= s->num_ports; i++) {
        if (s->fp[i].system_port == sys) {
            return i;
        }
    }
    return sys == s->fp[SX2_CPU_PORT].system_port ? SX2_CPU_PORT : -1;
}

static SX2Port *sx2_vlan_reg_port(SwitchX2State *s, const char *reg,
                                  const uint8_t *pl)
{
    unsigned lp = sx2_reg_local_port(pl);

    if (lp < 1 || lp > s->num_ports) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: local port %u does "
                      "not exist\n", reg, lp);
        return NULL;
    }
    return &s->fp[lp];
}

/*
 * SPVID - port default VID for untagged and priority tagged frames
 */
uint8_t sx2_reg_spvid(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_vlan_reg_port(s, "SPVID", pl);

    if (!p) {
        return BAD_PARAM;
    }
    if (sx2_fget(pl, SX2_REG_SPVID_TPORT) ||
        sx2_fget(pl, SX2_REG_SPVID_SUB_PORT)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SPVID: port %u: tunnel "
                      "ports and sub ports do not exist\n", p->local_port);
        return BAD_PARAM;
    }
    if (write) {
        p->pvid = sx2_fget(pl, SX2_REG_SPVID_PVID);
    }
    sx2_fset(pl, SX2_REG_SPVID_PVID, p->pvid);
    return OK;
}

/*
 * SPVM - port VLAN membership, a list of {VID, i, e, u} records.  A
 * write is validated as a whole before anything is applied.
 */
uint8_t sx2_reg_spvm(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_vlan_reg_port(s, "SPVM", pl);
    unsigned n = sx2_fget(pl, SX2_REG_SPVM_NUM_REC);
    unsigned i;

    if (!p) {
        return BAD_PARAM;
    }
    if (sx2_fget(pl, SX2_REG_SPVM_SUB_PORT)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SPVM: port %u: sub "
                      "ports do not exist\n", p->local_port);
        return BAD_PARAM;
    }
    /* num_rec is 8 bits wide, but keep the payload bound explicit */
    if (n > SX2_REG_SPVM_REC_MAX) {
        return BAD_PARAM;
    }
    if (write && sx2_fget(pl, SX2_REG_SPVM_PTE)) {
        p->prio_tag = sx2_fget(pl, SX2_REG_SPVM_PT);
    }
    for (i = 0; i < n; i++) {
        uint8_t *rec = pl + SX2_REG_SPVM_BASE_LEN + i * SX2_REG_SPVM_REC_LEN;
        unsigned vid = sx2_fget(rec, SX2_SPVM_REC_VID);

        if (write) {
            sx2_vid_assign(p->vlan_i, vid, sx2_fget(rec, SX2_SPVM_REC_I));
            sx2_vid_assign(p->vlan_e, vid, sx2_fget(rec, SX2_SPVM_REC_E));
            sx2_vid_assign(p->vlan_u, vid, sx2_fget(rec, SX2_SPVM_REC_U));
        }
        sx2_fset(rec, SX2_SPVM_REC_I, sx2_vid_test(p->vlan_i, vid));
        sx2_fset(rec, SX2_SPVM_REC_E, sx2_vid_test(p->vlan_e, vid));
        sx2_fset(rec, SX2_SPVM_REC_U, sx2_vid_test(p->vlan_u, vid));
    }
    sx2_fset(pl, SX2_REG_SPVM_PT, p->prio_tag);
    sx2_fset(pl, SX2_REG_SPVM_PTE, 0);
    return OK;
}

/*
 * SPAFT - acceptable frame types at ingress
 */
uint8_t sx2_reg_spaft(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_vlan_reg_port(s, "SPAFT", pl);

    if (!p) {
        return BAD_PARAM;
    }
    if (sx2_fget(pl, SX2_REG_SPAFT_SUB_PORT)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SPAFT: port %u: sub "
                      "ports do not exist\n", p->local_port);
        return BAD_PARAM;
    }
    if (write) {
        p->allow_untagged = sx2_fget(pl, SX2_REG_SPAFT_ALLOW_UNTAGGED);
        p->allow_prio_tagged = sx2_fget(pl, SX2_REG_SPAFT_ALLOW_PRIO_TAGGED);
        p->allow_tagged = sx2_fget(pl, SX2_REG_SPAFT_ALLOW_TAGGED);
    }
    sx2_fset(pl, SX2_REG_SPAFT_ALLOW_UNTAGGED, p->allow_untagged);
    sx2_fset(pl, SX2_REG_SPAFT_ALLOW_PRIO_TAGGED, p->allow_prio_tagged);
    sx2_fset(pl, SX2_REG_SPAFT_ALLOW_TAGGED, p->allow_tagged);
    return OK;
}

/*
 * SPVMLR - learning enable per {port, VID}
 */
uint8_t sx2_reg_spvmlr(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_vlan_reg_port(s, "SPVMLR", pl);
    unsigned n = sx2_fget(pl, SX2_REG_SPVMLR_NUM_REC);
    unsigned i;

    if (!p) {
        return BAD_PARAM;
    }
    if (n > SX2_REG_SPVMLR_REC_MAX) {
        return BAD_PARAM;
    }
    for (i = 0; i < n; i++) {
        uint8_t *rec = pl + SX2_REG_SPVMLR_BASE_LEN +
                       i * SX2_REG_SPVMLR_REC_LEN;
        unsigned vid = sx2_fget(rec, SX2_SPVMLR_REC_VID);

        if (write) {
            sx2_vid_assign(p->learn_vid, vid,
                           sx2_fget(rec, SX2_SPVMLR_REC_LEARN_ENABLE));
        }
        sx2_fset(rec, SX2_SPVMLR_REC_LEARN_ENABLE,
                 sx2_vid_test(p->learn_vid, vid));
    }
    return OK;
}

/*
 * SVPE - virtual port mode: {port, VID} classifies to a FID through SVFA
 */
uint8_t sx2_reg_svpe(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_vlan_reg_port(s, "SVPE", pl);

    if (!p) {
        return BAD_PARAM;
    }
    if (write) {
        p->vp_en = sx2_fget(pl, SX2_REG_SVPE_VP_EN);
    }
    sx2_fset(pl, SX2_REG_SVPE_VP_EN, p->vp_en);
    return OK;
}

/*
 * SVFA - {port, VID} to FID mappings.  The reverse map keeps, per FID,
 * the lowest VID of the port mapped to it: the VID egress uses.
 */
static void sx2_vport_unmap(SX2VPort *vp, unsigned vid)
{
    unsigned fid = vp->fid_of_vid[vid];
    unsigned v;

    if (!fid) {
        return;
    }
    vp->fid_of_vid[vid] = 0;
    if (vp->vid_of_fid[fid] != vid + 1) {
        return;
    }
    vp->vid_of_fid[fid] = 0;
    for (v = vid + 1; v < SX2_NUM_VIDS; v++) {
        if (vp->fid_of_vid[v] == fid) {
            vp->vid_of_fid[fid] = v + 1;
            break;
        }
    }
}

static void sx2_vport_map(SX2VPort *vp, unsigned vid, unsigned fid)
{
    sx2_vport_unmap(vp, vid);
    vp->fid_of_vid[vid] = fid;
    if (!vp->vid_of_fid[fid] || vid + 1 < vp->vid_of_fid[fid]) {
        vp->vid_of_fid[fid] = vid + 1;
    }
}

uint8_t sx2_reg_svfa(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned mt = sx2_fget(pl, SX2_REG_SVFA_MAPPING_TABLE);
    unsigned fid = sx2_fget(pl, SX2_REG_SVFA_FID);
    unsigned vid = sx2_fget(pl, SX2_REG_SVFA_VID);
    bool v = sx2_fget(pl, SX2_REG_SVFA_V);
    SX2VPort *vp;
    SX2Port *p;

    if (mt == SX2_SVFA_MT_VID_TO_FID) {
        /* 802.1Q FIDs are fixed: only the identity mapping is accepted */
        if (write && v && fid != vid) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SVFA: VID %u to FID "
                          "%u: 802.1Q FIDs equal their VID\n", vid, fid);
            return BAD_PARAM;
        }
        sx2_fset(pl, SX2_REG_SVFA_V, vid >= 1 && vid <= SX2_VID_MAX);
        sx2_fset(pl, SX2_REG_SVFA_FID, vid);
        return OK;
    }
    if (mt != SX2_SVFA_MT_PORT_VID_TO_FID) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SVFA: mapping table %u is "
                      "not supported\n", mt);
        return BAD_PARAM;
    }
    p = sx2_vlan_reg_port(s, "SVFA", pl);
    if (!p) {
        return BAD_PARAM;
    }
    vp = &s->vport[p->local_port];
    if (write) {
        if (v && !sx2_fid_exists(s, fid)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SVFA: port %u VID %u: "
                          "FID %u does not exist\n", p->local_port, vid, fid);
            return BAD_PARAM;
        }
        if (v) {
            sx2_vport_map(vp, vid, fid);
        } else {
            sx2_vport_unmap(vp, vid);
        }
        trace_switchx2_svfa(p->local_port, vid, v ? fid : 0);
    }
    sx2_fset(pl, SX2_REG_SVFA_V, vp->fid_of_vid[vid] != 0);
    sx2_fset(pl, SX2_REG_SVFA_FID, vp->fid_of_vid[vid]);
    return OK;
}

/*
 * SFMR - create (or edit) and destroy FIDs.  802.1Q FIDs always exist:
 * create only sets their flood table offset, destroy only flushes them.
 */
static void sx2_vfid_destroy(SwitchX2State *s, unsigned fid)
{
    unsigned lp, vid;

    s->vfid_valid[fid - SX2_VFID_BASE] = false;
    /* Mappings must not keep classifying frames to a FID that is gone */
    for (lp = 1; lp <= s->num_ports; lp++) {
        SX2VPort *vp = &s->vport[lp];

        for (vid = 0; vp->vid_of_fid[fid] && vid < SX2_NUM_VIDS; vid++) {
            if (vp->fid_of_vid[vid] == fid) {
                sx2_vport_unmap(vp, vid);
            }
        }
    }
}

uint8_t sx2_reg_sfmr(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned op = sx2_fget(pl, SX2_REG_SFMR_OP);
    unsigned fid = sx2_fget(pl, SX2_REG_SFMR_FID);
    bool vfid = fid >= SX2_VFID_BASE;

    if (fid < 1 || fid >= SX2_NUM_FIDS || fid == SX2_VID_MAX + 1) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFMR: FID %u is out of "
                      "range\n", fid);
        return BAD_PARAM;
    }
    if (write && op == SX2_SFMR_OP_CREATE) {
        unsigned off = sx2_fget(pl, SX2_REG_SFMR_FID_OFFSET);

        if (off >= (vfid ? SX2_NUM_VFIDS : SX2_FT_MAX_INDEX)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFMR: FID %u offset "
                          "%u is out of range\n", fid, off);
            return BAD_PARAM;
        }
        if (vfid) {
            s->vfid_valid[fid - SX2_VFID_BASE] = true;
        }
        s->fid_offset[fid] = off;
        trace_switchx2_fid(fid, "create", off);
    } else if (write && op == SX2_SFMR_OP_DESTROY) {
        if (!sx2_fid_exists(s, fid)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFMR: destroy of FID "
                          "%u which does not exist\n", fid);
            return BAD_PARAM;
        }
        sx2_fdb_flush_fid(s, fid);
        if (vfid) {
            sx2_vfid_destroy(s, fid);
        }
        s->fid_offset[fid] = 0;
        trace_switchx2_fid(fid, "destroy", 0);
        return OK;
    } else if (write) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFMR: op %u\n", op);
        return BAD_PARAM;
    } else if (!sx2_fid_exists(s, fid)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFMR: query of FID %u "
                      "which does not exist\n", fid);
        return BAD_PARAM;
    }
    sx2_fset(pl, SX2_REG_SFMR_FLOOD_BRIDGE_TYPE, vfid);
    sx2_fset(pl, SX2_REG_SFMR_FID_OFFSET, s->fid_offset[fid]);
    return OK;
}
