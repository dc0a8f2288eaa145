/*
 * Mellanox SwitchX-2 switch ASIC emulation: command interface
 *
 * The command interface registers (CIR) carry an opcode, an input and
 * an output parameter (usually mailbox addresses) and an input
 * modifier.  Writing the control register with the GO bit set runs the
 * command; completion is signalled by clearing GO (polled mode) and,
 * when EVREQ was set, by a command-completion EQE on the async EQ.
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "switchx2.h"
#include "trace.h"

typedef struct SX2CmdCtx {
    uint16_t opcode;
    uint8_t opmod;
    uint32_t in_mod;
    uint64_t in_param;
    uint64_t out_param;
    uint8_t in[SX2_MBOX_SIZE];
    uint8_t out[SX2_MBOX_SIZE];
    bool has_out;           /* out mailbox must be written back */
} SX2CmdCtx;

static const char *sx2_cmd_name(uint16_t opcode)
{
    switch (opcode) {
    case SX2_CMD_QUERY_AQ_CAP:      return "QUERY_AQ_CAP";
    case SX2_CMD_QUERY_FW:          return "QUERY_FW";
    case SX2_CMD_QUERY_BOARDINFO:   return "QUERY_BOARDINFO";
    case SX2_CMD_SW2HW_EQ:          return "SW2HW_EQ";
    case SX2_CMD_HW2SW_EQ:          return "HW2SW_EQ";
    case SX2_CMD_QUERY_EQ:          return "QUERY_EQ";
    case SX2_CMD_SW2HW_CQ:          return "SW2HW_CQ";
    case SX2_CMD_HW2SW_CQ:          return "HW2SW_CQ";
    case SX2_CMD_QUERY_CQ:          return "QUERY_CQ";
    case SX2_CMD_2ERR_DQ:           return "2ERR_DQ";
    case SX2_CMD_QUERY_DQ:          return "QUERY_DQ";
    case SX2_CMD_ACCESS_REG:        return "ACCESS_REG";
    case SX2_CMD_CONFIG_PROFILE:    return "CONFIG_PROFILE";
    case SX2_CMD_QUERY_RESOURCES:   return "QUERY_RESOURCES";
    case SX2_CMD_SW2HW_DQ:          return "SW2HW_DQ";
    case SX2_CMD_HW2SW_DQ:          return "HW2SW_DQ";
    case SX2_CMD_UNMAP_FA:          return "UNMAP_FA";
    case SX2_CMD_MAP_FA:            return "MAP_FA";
    default:                        return "UNKNOWN";
    }
}

void sx2_cmd_reset(SwitchX2State *s)
{
    s->cir_in_param_hi = 0;
    s->cir_in_param_lo = 0;
    s->cir_in_modifier = 0;
    s->cir_out_param_hi = 0;
    s->cir_out_param_lo = 0;
    s->cir_token = 0;
    s->cir_ctrl = 0;
    if (s->cmd_timer) {
        timer_del(s->cmd_timer);     /* a command fault-cmd-timeout held */
    }
    s->fa_pages = 0;
    memset(s->fa_pa, 0, sizeof(s->fa_pa));
    memset(&s->profile, 0, sizeof(s->profile));
}

static bool sx2_cmd_read_in(SwitchX2State *s, SX2CmdCtx *c)
{
    if (pci_dma_read(PCI_DEVICE(s), c->in_param, c->in, SX2_MBOX_SIZE)
        != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "switchx2: %s: cannot read input mailbox at 0x%"
                      PRIx64 "\n", sx2_cmd_name(c->opcode), c->in_param);
        return false;
    }
    return true;
}

static uint8_t sx2_cmd_query_fw(SwitchX2State *s, SX2CmdCtx *c)
{
    uint8_t *o = c->out;

    sx2_fset(o, SX2_QFW_FW_PAGES, SX2_FW_PAGES);
    sx2_fset(o, SX2_QFW_FW_REV_MAJOR, s->fw_major);
    sx2_fset(o, SX2_QFW_FW_REV_MINOR, s->fw_minor);
    sx2_fset(o, SX2_QFW_FW_REV_SUBMINOR, s->fw_subminor);
    sx2_fset(o, SX2_QFW_CORE_CLK, SX2_CORE_CLK_MHZ);
    sx2_fset(o, SX2_QFW_CMD_IF_REV, SX2_CMD_IF_REV);
    sx2_fset(o, SX2_QFW_API_VERSION, 1);
    sx2_set64(o, SX2_QFW_DB_PAGE_OFFSET, SX2_DB_PAGE_OFFSET);
    sx2_fset(o, SX2_QFW_DB_PAGE_BAR, 0);
    sx2_set64(o, SX2_QFW_FRC_OFFSET, SX2_FRC_OFFSET);
    sx2_fset(o, SX2_QFW_FRC_BAR, 0);
    sx2_set64(o, SX2_QFW_UTC_SEC_OFFSET, SX2_UTC_SEC_OFFSET);
    sx2_fset(o, SX2_QFW_UTC_SEC_BAR, 0);
    sx2_set64(o, SX2_QFW_UTC_NSEC_OFFSET, SX2_UTC_NSEC_OFFSET);
    sx2_fset(o, SX2_QFW_UTC_NSEC_BAR, 0);
    c->has_out = true;
    return SX2_CMD_STATUS_OK;
}

static uint8_t sx2_cmd_query_boardinfo(SwitchX2State *s, SX2CmdCtx *c)
{
    uint8_t *o = c->out;

    sx2_fset(o, SX2_QBI_INTAPIN, 0);
    sx2_fset(o, SX2_QBI_VSD_VENDOR_ID, SX2_PCI_VENDOR_ID_MELLANOX);
    memcpy(o + SX2_QBI_PSID_OFF, s->psid,
           MIN(strlen(s->psid), SX2_PSID_LEN));
    c->has_out = true;
    return SX2_CMD_STATUS_OK;
}

static uint8_t sx2_cmd_query_aq_cap(SwitchX2State *s, SX2CmdCtx *c)
{
    uint8_t *o = c->out;

    sx2_fset(o, SX2_QAQ_LOG_MAX_SDQ_SZ, SX2_LOG_MAX_DQ_SZ);
    sx2_fset(o, SX2_QAQ_MAX_NUM_SDQS, SX2_NUM_SDQS);
    sx2_fset(o, SX2_QAQ_LOG_MAX_RDQ_SZ, SX2_LOG_MAX_DQ_SZ);
    sx2_fset(o, SX2_QAQ_MAX_NUM_RDQS, SX2_NUM_RDQS);
    sx2_fset(o, SX2_QAQ_LOG_MAX_CQ_SZ, SX2_LOG_MAX_CQ_SZ);
    sx2_fset(o, SX2_QAQ_LOG_MAX_CQV2_SZ, 0);   /* no CQE v2 */
    sx2_fset(o, SX2_QAQ_MAX_NUM_CQS, SX2_NUM_CQS);
    sx2_fset(o, SX2_QAQ_LOG_MAX_EQ_SZ, SX2_LOG_MAX_EQ_SZ);
    sx2_fset(o, SX2_QAQ_MAX_NUM_EQS, SX2_NUM_EQS);
    sx2_fset(o, SX2_QAQ_MAX_SG_SQ, SX2_MAX_SG_SQ);
    sx2_fset(o, SX2_QAQ_MAX_SG_RQ, SX2_MAX_SG_RQ);
    c->has_out = true;
    return SX2_CMD_STATUS_OK;
}

static uint8_t sx2_cmd_map_fa(SwitchX2State *s, SX2CmdCtx *c)
{
    uint32_t n = c->in_mod;
    unsigned i;

    if (n == 0 || n > SX2_MAP_FA_MAX_ENTRIES) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: MAP_FA with %u entries\n",
                      n);
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    if (!sx2_cmd_read_in(s, c)) {
        return SX2_CMD_STATUS_INTERNAL_ERR;
    }
    for (i = 0; i < n; i++) {
        uint64_t pa = sx2_get64(c->in, SX2_MAP_FA_PA_OFF(i)) &
                      SX2_MAP_FA_PA_MASK;
        uint32_t log2size = sx2_get32(c->in, SX2_MAP_FA_LOG2SIZE_OFF(i)) &
                            SX2_MAP_FA_LOG2SIZE_MASK;
        uint64_t pages;

        if (log2size > 8) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "switchx2: MAP_FA entry %u log2size %u too big\n",
                          i, log2size);
            return SX2_CMD_STATUS_BAD_PARAM;
        }
        pages = 1ull << log2size;
        if (s->fa_pages + pages > SX2_FW_PAGES) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "switchx2: MAP_FA maps more than the %u pages "
                          "QUERY_FW asked for\n", SX2_FW_PAGES);
            return SX2_CMD_STATUS_EXCEED_LIM;
        }
        /* The area is firmware scratch space: nothing is ever stored */
        s->fa_pa[s->fa_pages] = pa;
        s->fa_pages += pages;
    }
    return SX2_CMD_STATUS_OK;
}

static uint8_t sx2_cmd_unmap_fa(SwitchX2State *s, SX2CmdCtx *c)
{
    s->fa_pages = 0;
    memset(s->fa_pa, 0, sizeof(s->fa_pa));
    return SX2_CMD_STATUS_OK;
}

/* Switch partitions the flood tables are split between (cmd.h v4.3) */
static unsigned sx2_profile_swids(const SX2Profile *p)
{
    unsigned i, n = 0;

    for (i = 0; i < SX2_NUM_SWIDS; i++) {
        n += p->swid_type[i] == SX2_SWID_TYPE_ETH ||
             p->swid_type[i] == SX2_SWID_TYPE_IB;
    }
    return n;
}

/*
 * CONFIG_PROFILE.  The whole mailbox is checked before the profile
 * changes.  What SwitchX-2 does not have is refused with BAD_PARAM and
 * LOG_UNIMP: FID-offset and per-FID flood tables (per-FID tables exist
 * only for vFIDs), flood modes other than mixed (modes 0-2 are
 * backward-compatible SwitchX modes the model does not implement),
 * 3 or 4 adaptive routing sub-groups and adaptive routing notification
 * (cmd.h: not supported in SwitchX/SwitchX-2).
 */
static uint8_t sx2_cmd_config_profile(SwitchX2State *s, SX2CmdCtx *c)
{
    SX2Profile p = s->profile;
    uint32_t mask;
    unsigned i;

    if (c->opmod != SX2_OPMOD_CONFIG_PROFILE_SET) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "switchx2: CONFIG_PROFILE opmod %u unsupported\n",
                      c->opmod);
        return SX2_CMD_STATUS_BAD_OP;
    }
    if (!sx2_cmd_read_in(s, c)) {
        return SX2_CMD_STATUS_INTERNAL_ERR;
    }
    mask = sx2_get32(c->in, SX2_CP_SET_MASK_OFF);

    /* SwitchX-2 has no KVD and no unified bridge model; CQE v0 only */
    if (mask & (SX2_CP_SET_KVD_LINEAR | SX2_CP_SET_KVD_HASH_SINGLE |
                SX2_CP_SET_KVD_HASH_DOUBLE)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "switchx2: CONFIG_PROFILE sets KVD sizes\n");
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    if ((mask & SX2_CP_SET_UBRIDGE) && sx2_fget(c->in, SX2_CP_UBRIDGE)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "switchx2: CONFIG_PROFILE asks for unified bridge\n");
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    if (sx2_fget(c->in, SX2_CP_SET_CQE_VERSION) &&
        sx2_fget(c->in, SX2_CP_CQE_VERSION) != 0) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "switchx2: CONFIG_PROFILE asks for CQE version %u\n",
                      sx2_fget(c->in, SX2_CP_CQE_VERSION));
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    if ((mask & SX2_CP_SET_AR_SEC) && sx2_fget(c->in, SX2_CP_AR_SEC) > 1) {
        qemu_log_mask(LOG_UNIMP, "switchx2: CONFIG_PROFILE: ar_sec %u: 3 or 4 "
                      "adaptive routing sub-groups not supported on "
                      "SwitchX-2\n", sx2_fget(c->in, SX2_CP_AR_SEC));
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    /* arn has no set_* bit of its own in cmd.h: it is read as it is */
    if (sx2_fget(c->in, SX2_CP_ARN)) {
        qemu_log_mask(LOG_UNIMP, "switchx2: CONFIG_PROFILE: arn 1: adaptive "
                      "routing notification not supported on SwitchX-2\n");
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    if (mask & SX2_CP_SET_MAX_MID) {
        p.max_mid = sx2_fget(c->in, SX2_CP_MAX_MID);
    }
    if (mask & SX2_CP_SET_MAX_LAG) {
        p.max_lag = sx2_fget(c->in, SX2_CP_MAX_LAG);
    }
    if (mask & SX2_CP_SET_MAX_PORT_PER_LAG) {
        p.max_port_per_lag = sx2_fget(c->in, SX2_CP_MAX_PORT_PER_LAG);
    }
    if (p.max_lag > SX2_MAX_LAGS ||
        p.max_port_per_lag > SX2_MAX_PORTS_PER_LAG) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: CONFIG_PROFILE asks for %u "
                      "LAGs of %u ports, the model has %u of %u\n",
                      p.max_lag, p.max_port_per_lag, SX2_MAX_LAGS,
                      SX2_MAX_PORTS_PER_LAG);
        return SX2_CMD_STATUS_EXCEED_LIM;
    }
    if (mask & SX2_CP_SET_MAX_SYSTEM_PORT) {
        p.max_system_port = sx2_fget(c->in, SX2_CP_MAX_SYSTEM_PORT);
    }
    if (mask & SX2_CP_SET_FLOOD_TABLES) {
        if (sx2_fget(c->in, SX2_CP_MAX_FID_OFFSET_FT) ||
            sx2_fget(c->in, SX2_CP_MAX_FID_FT)) {
            qemu_log_mask(LOG_UNIMP, "switchx2: CONFIG_PROFILE: "
                          "max_fid_offset_flood_tables %u "
                          "max_fid_flood_tables %u: SwitchX-2 has neither "
                          "(per-FID tables exist only for vFIDs)\n",
                          sx2_fget(c->in, SX2_CP_MAX_FID_OFFSET_FT),
                          sx2_fget(c->in, SX2_CP_MAX_FID_FT));
            return SX2_CMD_STATUS_BAD_PARAM;
        }
        p.max_flood_tables = sx2_fget(c->in, SX2_CP_MAX_FLOOD_TABLES);
        p.max_vid_flood_tables = sx2_fget(c->in, SX2_CP_MAX_VID_FLOOD_TABLES);
        if (s->fault[SX2_FAULT_MAX_VID_FLOOD_TABLES] &&
            p.max_vid_flood_tables >
            s->fault[SX2_FAULT_MAX_VID_FLOOD_TABLES]) {
            qemu_log_mask(LOG_UNIMP, "switchx2: CONFIG_PROFILE asks for %u "
                          "per-VID flood tables, fault-max-vid-flood-tables "
                          "allows %u\n", p.max_vid_flood_tables,
                          s->fault[SX2_FAULT_MAX_VID_FLOOD_TABLES]);
            return SX2_CMD_STATUS_EXCEED_LIM;
        }
        if (p.max_flood_tables + p.max_vid_flood_tables >
            SX2_MAX_FLOOD_TABLES) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "switchx2: CONFIG_PROFILE asks for %u+%u flood "
                          "tables, the model has %u\n", p.max_flood_tables,
                          p.max_vid_flood_tables, SX2_MAX_FLOOD_TABLES);
            return SX2_CMD_STATUS_EXCEED_LIM;
        }
    }
    if (mask & SX2_CP_SET_FLOOD_MODE) {
        p.flood_mode = sx2_fget(c->in, SX2_CP_FLOOD_MODE);
        if (p.flood_mode != SX2_CP_FLOOD_MODE_MIXED) {
            qemu_log_mask(LOG_UNIMP, "switchx2: CONFIG_PROFILE: flood_mode "
                          "%u: only mixed mode (3) is implemented\n",
                          p.flood_mode);
            return SX2_CMD_STATUS_BAD_PARAM;
        }
    }
    for (i = 0; i < SX2_NUM_SWIDS; i++) {
        uint32_t smask = sx2_fget(c->in, SX2_CP_SWID_MASK(i));

        if (smask & 1) {
            uint32_t type = sx2_fget(c->in, SX2_CP_SWID_TYPE(i));

            if (type == SX2_SWID_TYPE_ROUTER_PORT &&
                s->fault[SX2_FAULT_NO_ROUTER]) {
                qemu_log_mask(LOG_UNIMP, "switchx2: CONFIG_PROFILE: swid %u "
                              "type 8 (router port): fault-no-router\n", i);
                return SX2_CMD_STATUS_BAD_PARAM;
            }
            if (type > SX2_SWID_TYPE_ETH &&
                type != SX2_SWID_TYPE_ROUTER_PORT) {
                qemu_log_mask(LOG_GUEST_ERROR,
                              "switchx2: CONFIG_PROFILE swid %u type %u\n",
                              i, type);
                return SX2_CMD_STATUS_BAD_PARAM;
            }
            p.swid_type[i] = type;
        }
        if (smask & 2) {
            p.swid_props[i] = sx2_fget(c->in, SX2_CP_SWID_PROPS(i));
        }
    }
    /*
     * New table counts or partitions re-deal the flood tables: start
     * them and the packet type mapping over rather than keep entries
     * that now belong elsewhere.
     */
    if (p.max_flood_tables != s->profile.max_flood_tables ||
        p.max_vid_flood_tables != s->profile.max_vid_flood_tables ||
        memcmp(p.swid_type, s->profile.swid_type, sizeof(p.swid_type))) {
        sx2_flood_reset(s);
        /* The router hangs off a partition: it may be gone */
        sx2_router_reset(s);
        trace_switchx2_profile_flood(p.max_flood_tables,
                                     p.max_vid_flood_tables,
                                     sx2_profile_swids(&p));
    }
    if (p.max_lag != s->profile.max_lag ||
        p.max_port_per_lag != s->profile.max_port_per_lag) {
        /* Other LAG dimensions: the LAG table starts over */
        sx2_lag_reset(s);
    }
    if (p.max_mid != s->profile.max_mid) {
        /* A new MID table: MIDs 0..max_mid-1, all empty */
        sx2_smid_resize(s, p.max_mid);
    }
    p.set = true;
    s->profile = p;
    return SX2_CMD_STATUS_OK;
}

static uint8_t sx2_cmd_access_reg(SwitchX2State *s, SX2CmdCtx *c)
{
    if (!sx2_cmd_read_in(s, c)) {
        return SX2_CMD_STATUS_INTERNAL_ERR;
    }
    memcpy(c->out, c->in, SX2_MBOX_SIZE);
    if (!sx2_reg_access(s, c->out, SX2_MBOX_SIZE, "cmd")) {
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    c->has_out = true;
    return SX2_CMD_STATUS_OK;
}

static uint8_t sx2_cmd_dispatch(SwitchX2State *s, SX2CmdCtx *c)
{
    uint8_t st;

    switch (c->opcode) {
    case SX2_CMD_QUERY_FW:
        return sx2_cmd_query_fw(s, c);
    case SX2_CMD_QUERY_BOARDINFO:
        return sx2_cmd_query_boardinfo(s, c);
    case SX2_CMD_QUERY_AQ_CAP:
        return sx2_cmd_query_aq_cap(s, c);
    case SX2_CMD_MAP_FA:
        return sx2_cmd_map_fa(s, c);
    case SX2_CMD_UNMAP_FA:
        return sx2_cmd_unmap_fa(s, c);
    case SX2_CMD_CONFIG_PROFILE:
        return sx2_cmd_config_profile(s, c);
    case SX2_CMD_ACCESS_REG:
        return sx2_cmd_access_reg(s, c);
    case SX2_CMD_SW2HW_DQ:
        if (!sx2_cmd_read_in(s, c)) {
            return SX2_CMD_STATUS_INTERNAL_ERR;
        }
        return sx2_cmd_sw2hw_dq(s, c->opmod, c->in_mod, c->in);
    case SX2_CMD_HW2SW_DQ:
        return sx2_cmd_hw2sw_dq(s, c->opmod, c->in_mod);
    case SX2_CMD_2ERR_DQ:
        return sx2_cmd_2err_dq(s, c->opmod, c->in_mod);
    case SX2_CMD_QUERY_DQ:
        st = sx2_cmd_query_dq(s, c->opmod, c->in_mod, c->out);
        c->has_out = st == SX2_CMD_STATUS_OK;
        return st;
    case SX2_CMD_SW2HW_CQ:
        if (!sx2_cmd_read_in(s, c)) {
            return SX2_CMD_STATUS_INTERNAL_ERR;
        }
        return sx2_cmd_sw2hw_cq(s, c->in_mod, c->in);
    case SX2_CMD_HW2SW_CQ:
        return sx2_cmd_hw2sw_cq(s, c->in_mod);
    case SX2_CMD_QUERY_CQ:
        st = sx2_cmd_query_cq(s, c->in_mod, c->out);
        c->has_out = st == SX2_CMD_STATUS_OK;
        return st;
    case SX2_CMD_SW2HW_EQ:
        if (!sx2_cmd_read_in(s, c)) {
            return SX2_CMD_STATUS_INTERNAL_ERR;
        }
        return sx2_cmd_sw2hw_eq(s, c->in_mod, c->in);
    case SX2_CMD_HW2SW_EQ:
        return sx2_cmd_hw2sw_eq(s, c->in_mod);
    case SX2_CMD_QUERY_EQ:
        st = sx2_cmd_query_eq(s, c->in_mod, c->out);
        c->has_out = st == SX2_CMD_STATUS_OK;
        return st;
    case SX2_CMD_QUERY_RESOURCES:
        /* SwitchX-2 firmware predates the resource query */
        return SX2_CMD_STATUS_BAD_OP;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: unknown command opcode "
                      "0x%03x\n", c->opcode);
        return SX2_CMD_STATUS_BAD_OP;
    }
}

static void sx2_cmd_complete(SwitchX2State *s, uint16_t opcode, uint8_t status,
                             bool evreq)
{
    uint8_t eqe[SX2_EQE_SIZE] = { 0 };

    s->cir_ctrl &= ~(SX2_CIR_CTRL_GO | (0xFFu << SX2_CIR_CTRL_STATUS_SHIFT));
    s->cir_ctrl |= (uint32_t)status << SX2_CIR_CTRL_STATUS_SHIFT;
    trace_switchx2_cmd_done(opcode, sx2_cmd_name(opcode), status);

    if (!evreq) {
        return;
    }
    sx2_fset(eqe, SX2_EQE_CMD_TOKEN, s->cir_token & 0xFFFF);
    sx2_fset(eqe, SX2_EQE_CMD_STATUS, status);
    sx2_fset(eqe, SX2_EQE_CMD_OUT_PARAM_H, s->cir_out_param_hi);
    sx2_fset(eqe, SX2_EQE_CMD_OUT_PARAM_L, s->cir_out_param_lo);
    sx2_fset(eqe, SX2_EQE_EVENT_TYPE, SX2_EQE_TYPE_CMD);
    if (!sx2_eq_post(s, SX2_EQ_ASYNC, eqe)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: command completion event "
                      "requested but EQ%u cannot take it\n", SX2_EQ_ASYNC);
    }
}

/*
 * fault-cmd-timeout: GO stays set (the CIR refuses writes meanwhile)
 * until cmd_timer completes the command, unexecuted, 2 s of virtual
 * time later: longer than the Linux driver waits.  fault-cmd-error:
 * complete at once, unexecuted.  Returns true if a fault took the
 * command.
 */
#define SX2_CMD_TIMEOUT_MS  2000

static bool sx2_cmd_fault(SwitchX2State *s, uint16_t opcode, bool evreq)
{
    if (sx2_fault_take(s, SX2_FAULT_CMD_TIMEOUT)) {
        trace_switchx2_cmd_held(opcode, sx2_cmd_name(opcode),
                                SX2_CMD_TIMEOUT_MS);
        timer_mod(s->cmd_timer, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) +
                  SX2_CMD_TIMEOUT_MS);
        return true;
    }
    if (sx2_fault_take(s, SX2_FAULT_CMD_ERROR)) {
        sx2_cmd_complete(s, opcode, SX2_CMD_STATUS_BAD_SYS_STATE, evreq);
        return true;
    }
    return false;
}

/* cmd_timer: the held command ends, unexecuted, in an internal error */
void sx2_cmd_timeout(SwitchX2State *s, void *opaque)
{
    if (!(s->cir_ctrl & SX2_CIR_CTRL_GO)) {
        return;
    }
    sx2_cmd_complete(s, s->cir_ctrl & SX2_CIR_CTRL_OPCODE_MASK,
                     SX2_CMD_STATUS_INTERNAL_ERR,
                     s->cir_ctrl & SX2_CIR_CTRL_EVREQ);
}

static void sx2_cmd_execute(SwitchX2State *s)
{
    SX2CmdCtx *c;
    uint8_t status;
    bool evreq = s->cir_ctrl & SX2_CIR_CTRL_EVREQ;
    uint16_t opcode = s->cir_ctrl & SX2_CIR_CTRL_OPCODE_MASK;

    if (s->reset_pending) {
        sx2_cmd_complete(s, opcode, SX2_CMD_STATUS_RUNNING_RESET, false);
        return;
    }
    if (sx2_cmd_fault(s, opcode, evreq)) {
        return;
    }

    c = g_new0(SX2CmdCtx, 1);
    c->opcode = opcode;
    c->opmod = (s->cir_ctrl >> SX2_CIR_CTRL_OPMOD_SHIFT) &
               SX2_CIR_CTRL_OPMOD_MASK;
    c->in_mod = s->cir_in_modifier;
    c->in_param = ((uint64_t)s->cir_in_param_hi << 32) | s->cir_in_param_lo;
    c->out_param = ((uint64_t)s->cir_out_param_hi << 32) |
                   s->cir_out_param_lo;
    trace_switchx2_cmd(c->opcode, sx2_cmd_name(c->opcode), c->opmod,
                       c->in_mod, c->in_param, c->out_param, evreq);

    status = sx2_cmd_dispatch(s, c);
    if (status == SX2_CMD_STATUS_OK && c->has_out) {
        if (pci_dma_write(PCI_DEVICE(s), c->out_param, c->out,
                          SX2_MBOX_SIZE) != MEMTX_OK) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "switchx2: %s: cannot write output mailbox at 0x%"
                          PRIx64 "\n", sx2_cmd_name(c->opcode),
                          c->out_param);
            status = SX2_CMD_STATUS_INTERNAL_ERR;
        }
    }
    g_free(c);
    sx2_cmd_complete(s, opcode, status, evreq);
}

uint32_t sx2_cir_read(SwitchX2State *s, hwaddr addr)
{
    switch (addr) {
    case SX2_CIR_IN_PARAM_HI:
        return s->cir_in_param_hi;
    case SX2_CIR_IN_PARAM_LO:
        return s->cir_in_param_lo;
    case SX2_CIR_IN_MODIFIER:
        return s->cir_in_modifier;
    case SX2_CIR_OUT_PARAM_HI:
        return s->cir_out_param_hi;
    case SX2_CIR_OUT_PARAM_LO:
        return s->cir_out_param_lo;
    case SX2_CIR_TOKEN:
        return s->cir_token;
    case SX2_CIR_CTRL:
        return s->cir_ctrl;
    default:
        return 0;
    }
}

void sx2_cir_write(SwitchX2State *s, hwaddr addr, uint32_t val)
{
    if (s->cir_ctrl & SX2_CIR_CTRL_GO) {
        /* Only a command fault-cmd-timeout holds is still running */
        qemu_log_mask(LOG_GUEST_ERROR,
                      "switchx2: CIR written while a command is running\n");
        return;
    }
    switch (addr) {
    case SX2_CIR_IN_PARAM_HI:
        s->cir_in_param_hi = val;
        break;
    case SX2_CIR_IN_PARAM_LO:
        s->cir_in_param_lo = val;
        break;
    case SX2_CIR_IN_MODIFIER:
        s->cir_in_modifier = val;
        break;
    case SX2_CIR_OUT_PARAM_HI:
        s->cir_out_param_hi = val;
        break;
    case SX2_CIR_OUT_PARAM_LO:
        s->cir_out_param_lo = val;
        break;
    case SX2_CIR_TOKEN:
        s->cir_token = val;
        break;
    case SX2_CIR_CTRL:
        /* Status is owned by the device */
        s->cir_ctrl = (val & ~(0xFFu << SX2_CIR_CTRL_STATUS_SHIFT)) |
                      (s->cir_ctrl & (0xFFu << SX2_CIR_CTRL_STATUS_SHIFT));
        if (val & SX2_CIR_CTRL_GO) {
            sx2_cmd_execute(s);
        }
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "switchx2: write to unknown CIR offset 0x%" HWADDR_PRIx
                      "\n", addr);
        break;
    }
}
