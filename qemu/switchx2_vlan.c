/*
 * Mellanox SwitchX-2 switch ASIC emulation: VLANs and FIDs
 *
 * Per-port VLAN configuration (PVID, acceptable frame types, membership,
 * per-VID learning) and the FID registers.  SwitchX-2 has 802.1Q FIDs
 * only, FID = VID, 1..4094: SVFA, SVPE and SFMR accept nothing beyond
 * that identity and refuse vFIDs, virtual ports, {port, VID} mappings
 * and FID offsets (docs/switchx2-conformance.md gives the sources).
 * docs/switchx2-l2.md says what the fields do; the pipeline that uses
 * them is in switchx2_fwd.c.
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

/*
 * Reset defaults (silent: assumed, no source gives them): PVID 1, VID 1
 * untagged ingress and egress member, all frame types accepted, learning
 * enabled for every VID in SPVMLR (SPMLR, reset to disabled, gates it).
 */
void sx2_vlan_port_reset(SX2Port *p)
{
    p->pvid = 1;
    p->allow_untagged = true;
    p->allow_prio_tagged = true;
    p->allow_tagged = true;
    p->prio_tag = false;
    memset(p->vlan_i, 0, sizeof(p->vlan_i));
    memset(p->vlan_e, 0, sizeof(p->vlan_e));
    memset(p->vlan_u, 0, sizeof(p->vlan_u));
    sx2_vid_assign(p->vlan_i, 1, true);
    sx2_vid_assign(p->vlan_e, 1, true);
    sx2_vid_assign(p->vlan_u, 1, true);
    memset(p->learn_vid, 0xFF, sizeof(p->learn_vid));
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

/* VIDs a VLAN register record may name: 0 and 4095 are not VLANs */
static bool sx2_vid_ok(const char *reg, unsigned vid)
{
    if (vid < 1 || vid > SX2_VID_MAX) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: VID %u is not a VLAN "
                      "(1..%u)\n", reg, vid, SX2_VID_MAX);
        return false;
    }
    return true;
}

/*
 * SPVID - port default VID for untagged and priority tagged frames
 */
uint8_t sx2_reg_spvid(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_port(s, "SPVID", pl, false);

    if (!p) {
        return BAD_PARAM;
    }
    if (sx2_fget(pl, SX2_REG_SPVID_TPORT)) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SPVID: tport 1: reserved on "
                      "SwitchX/SwitchX-2 (no tunnel ports)\n");
        return BAD_PARAM;
    }
    if (sx2_fget(pl, SX2_REG_SPVID_SUB_PORT)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SPVID: port %u: sub port "
                      "%u does not exist\n", p->local_port,
                      sx2_fget(pl, SX2_REG_SPVID_SUB_PORT));
        return BAD_PARAM;
    }
    if (write) {
        unsigned pvid = sx2_fget(pl, SX2_REG_SPVID_PVID);

        if (!sx2_vid_ok("SPVID", pvid)) {
            return BAD_PARAM;
        }
        p->pvid = pvid;
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
    SX2Port *p = sx2_reg_port(s, "SPVM", pl, false);
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
    for (i = 0; write && i < n; i++) {
        uint8_t *rec = pl + SX2_REG_SPVM_BASE_LEN + i * SX2_REG_SPVM_REC_LEN;

        if (!sx2_vid_ok("SPVM", sx2_fget(rec, SX2_SPVM_REC_VID))) {
            return BAD_PARAM;
        }
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
    SX2Port *p = sx2_reg_port(s, "SPAFT", pl, true);

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
 * SPVMLR - learning enable per {port, VID}; a write is validated as a
 * whole before anything is applied.
 */
uint8_t sx2_reg_spvmlr(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_port(s, "SPVMLR", pl, true);
    unsigned n = sx2_fget(pl, SX2_REG_SPVMLR_NUM_REC);
    unsigned i;

    if (!p) {
        return BAD_PARAM;
    }
    if (n > SX2_REG_SPVMLR_REC_MAX) {
        return BAD_PARAM;
    }
    for (i = 0; write && i < n; i++) {
        uint8_t *rec = pl + SX2_REG_SPVMLR_BASE_LEN +
                       i * SX2_REG_SPVMLR_REC_LEN;

        if (!sx2_vid_ok("SPVMLR", sx2_fget(rec, SX2_SPVMLR_REC_VID))) {
            return BAD_PARAM;
        }
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
 * SVPE - virtual port mode.  SwitchX-2 has no virtual ports: only
 * vp_en = 0 (VLAN mode, VID to FID) is accepted and it always reads 0.
 */
uint8_t sx2_reg_svpe(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_port(s, "SVPE", pl, true);

    if (!p) {
        return BAD_PARAM;
    }
    if (write && sx2_fget(pl, SX2_REG_SVPE_VP_EN)) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SVPE: vp_en 1: no virtual ports "
                      "on SwitchX-2\n");
        return BAD_PARAM;
    }
    sx2_fset(pl, SX2_REG_SVPE_VP_EN, 0);
    return OK;
}

/*
 * SVFA - VID to FID mapping.  On SwitchX-2 mapping_table, v and the
 * counter fields are reserved and local_port is reserved for 802.1Q
 * FIDs, the only FIDs there are; so the one valid access is the global
 * VID to FID table, whose mappings are the fixed identity FID = VID.
 * A write of that identity is accepted and changes nothing.
 */
uint8_t sx2_reg_svfa(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned mt = sx2_fget(pl, SX2_REG_SVFA_MAPPING_TABLE);
    unsigned lp = sx2_fget(pl, SX2_REG_SVFA_LOCAL_PORT);
    unsigned fid = sx2_fget(pl, SX2_REG_SVFA_FID);
    unsigned vid = sx2_fget(pl, SX2_REG_SVFA_VID);

    if (mt != 0) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SVFA: mapping_table %u: reserved "
                      "on SwitchX-2 (no {port, VID} to FID mapping)\n", mt);
        return BAD_PARAM;
    }
    if (lp != 0) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SVFA: local_port %u: reserved "
                      "for 802.1Q FIDs, the only FIDs on SwitchX-2\n", lp);
        return BAD_PARAM;
    }
    if (write && sx2_fget(pl, SX2_REG_SVFA_V)) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SVFA: v 1: reserved on "
                      "SwitchX-2\n");
        return BAD_PARAM;
    }
    if (write && (sx2_fget(pl, SX2_REG_SVFA_COUNTER_SET_TYPE) ||
                  sx2_fget(pl, SX2_REG_SVFA_COUNTER_INDEX))) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SVFA: counter_set_type %u "
                      "counter_index %u: reserved on SwitchX-2\n",
                      sx2_fget(pl, SX2_REG_SVFA_COUNTER_SET_TYPE),
                      sx2_fget(pl, SX2_REG_SVFA_COUNTER_INDEX));
        return BAD_PARAM;
    }
    if (!sx2_vid_ok("SVFA", vid)) {
        return BAD_PARAM;
    }
    if (write && fid != vid) {
        /*
         * reg.h's SFD note ("when independent learning is configured,
         * VID=FID") implies shared learning exists, but nothing says how
         * flood tables, static entries (keyed by VID) and dynamic ones
         * (by FID) behave under it: not implemented rather than guessed.
         */
        qemu_log_mask(fid >= SX2_VFID_BASE || !sx2_fid_valid(fid) ?
                      LOG_GUEST_ERROR : LOG_UNIMP,
                      "switchx2: SVFA: VID %u to FID %u: only FID = VID "
                      "(independent learning) is implemented; shared "
                      "learning is undocumented\n", vid, fid);
        return BAD_PARAM;
    }
    sx2_fset(pl, SX2_REG_SVFA_V, 0);
    sx2_fset(pl, SX2_REG_SVFA_FID, vid);
    sx2_fset(pl, SX2_REG_SVFA_COUNTER_SET_TYPE, 0);
    sx2_fset(pl, SX2_REG_SVFA_COUNTER_INDEX, 0);
    return OK;
}

/*
 * SFMR - FID management.  802.1Q FIDs 1..4094 always exist and cannot
 * be destroyed; vFIDs (4096 and up) and FID offsets (which only index
 * FID-offset flood tables, absent on SwitchX-2) are refused.  Create of
 * an 802.1Q FID is accepted and changes nothing.
 */
uint8_t sx2_reg_sfmr(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned op = sx2_fget(pl, SX2_REG_SFMR_OP);
    unsigned fid = sx2_fget(pl, SX2_REG_SFMR_FID);

    if (fid >= SX2_VFID_BASE) {
        qemu_log_mask(LOG_UNIMP, "switchx2: SFMR: fid %u: no vFIDs on "
                      "SwitchX-2 (802.1Q FIDs 1..%u only)\n", fid,
                      SX2_VID_MAX);
        return BAD_PARAM;
    }
    if (!sx2_fid_valid(fid)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFMR: FID %u does not "
                      "exist (1..%u)\n", fid, SX2_VID_MAX);
        return BAD_PARAM;
    }
    if (write) {
        unsigned bt = sx2_fget(pl, SX2_REG_SFMR_FLOOD_BRIDGE_TYPE);
        unsigned off = sx2_fget(pl, SX2_REG_SFMR_FID_OFFSET);

        if (op == SX2_SFMR_OP_DESTROY) {
            qemu_log_mask(LOG_UNIMP, "switchx2: SFMR: op 1 (destroy) of FID "
                          "%u: 802.1Q FIDs cannot be destroyed\n", fid);
            return BAD_PARAM;
        }
        if (op != SX2_SFMR_OP_CREATE) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SFMR: op %u\n", op);
            return BAD_PARAM;
        }
        if (bt != SX2_SFGC_BRIDGE_TYPE_8021Q) {
            qemu_log_mask(LOG_UNIMP, "switchx2: SFMR: flood_bridge_type %u: "
                          "not supported on SwitchX-2 (802.1Q FIDs "
                          "only)\n", bt);
            return BAD_PARAM;
        }
        if (off != 0) {
            qemu_log_mask(LOG_UNIMP, "switchx2: SFMR: fid_offset %u: only "
                          "meaningful for FID-offset flood tables, absent "
                          "on SwitchX-2\n", off);
            return BAD_PARAM;
        }
    }
    sx2_fset(pl, SX2_REG_SFMR_FLOOD_BRIDGE_TYPE, SX2_SFGC_BRIDGE_TYPE_8021Q);
    sx2_fset(pl, SX2_REG_SFMR_FID_OFFSET, 0);
    return OK;
}
