/*
 * Mellanox SwitchX-2 switch ASIC emulation: port mirroring
 *
 * MPAT sets up port analyzers, each sending the copies it gets out of
 * one front panel port; MPAR binds a port's ingress or egress to an
 * analyzer.  The forwarding stage hands this stage every frame a port
 * receives and every frame it transmits; a bound direction sends a copy
 * of it, as it was received or is transmitted, to the analyzer's port.
 *
 * Neither register carries a SwitchX note in any reg.h version, so the
 * model follows reg.h and Spectrum-1's use of them, and offers the least
 * the sources allow (docs/switchx2-conformance.md): local SPAN only (no
 * encapsulation), no mirroring policers (MOGCR's pid base is reserved on
 * SwitchX-2), no sampling (probability_rate is reserved on Spectrum-1),
 * four analyzers, the order Spectrum-1 keeps (an analyzer is enabled
 * before a port is bound to it) and reg.h's rule that an enabled
 * analyzer changes nothing but its enable bit.
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

void sx2_span_reset(SwitchX2State *s)
{
    unsigned i;

    memset(s->analyzer, 0, sizeof(s->analyzer));
    for (i = 0; i <= SX2_MAX_PORTS; i++) {
        memset(s->fp[i].span_enabled, 0, sizeof(s->fp[i].span_enabled));
        memset(s->fp[i].span_pa, 0, sizeof(s->fp[i].span_pa));
    }
}

static SX2Analyzer *sx2_span_analyzer(SwitchX2State *s, const char *reg,
                                      unsigned pa_id)
{
    if (pa_id >= SX2_SPAN_ANALYZERS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s: port analyzer %u does "
                      "not exist (0..%u)\n", reg, pa_id,
                      SX2_SPAN_ANALYZERS - 1);
        return NULL;
    }
    return &s->analyzer[pa_id];
}

/* What SwitchX-2 is not known to do: refused with LOG_UNIMP */
static bool sx2_mpat_supported(const uint8_t *pl)
{
    if (sx2_fget(pl, SX2_REG_MPAT_SPAN_TYPE) != SX2_MPAT_SPAN_TYPE_LOCAL_ETH) {
        qemu_log_mask(LOG_UNIMP, "switchx2: MPAT: span_type %u: only local "
                      "SPAN (0) is implemented\n",
                      sx2_fget(pl, SX2_REG_MPAT_SPAN_TYPE));
        return false;
    }
    if (sx2_fget(pl, SX2_REG_MPAT_PIDE)) {
        qemu_log_mask(LOG_UNIMP, "switchx2: MPAT: pide 1: no mirroring "
                      "policers on SwitchX-2 (MOGCR pid base reserved)\n");
        return false;
    }
    return true;
}

/* Whether the write changes @pa in more than its enable bit */
static bool sx2_mpat_changes(const SX2Analyzer *pa, const uint8_t *pl)
{
    return sx2_fget(pl, SX2_REG_MPAT_SYSTEM_PORT) != pa->system_port ||
           sx2_fget(pl, SX2_REG_MPAT_SESSION_ID) != pa->session_id ||
           sx2_fget(pl, SX2_REG_MPAT_QOS) != pa->qos ||
           sx2_fget(pl, SX2_REG_MPAT_BE) != pa->be;
}

/*
 * MPAT - port analyzer table
 */
uint8_t sx2_reg_mpat(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned pa_id = sx2_fget(pl, SX2_REG_MPAT_PA_ID);
    SX2Analyzer *pa = sx2_span_analyzer(s, "MPAT", pa_id);
    bool enable = sx2_fget(pl, SX2_REG_MPAT_E);
    int local = 0;

    if (!pa) {
        return BAD_PARAM;
    }
    if (write) {
        if (!sx2_mpat_supported(pl)) {
            return BAD_PARAM;
        }
        if (pa->enabled && sx2_mpat_changes(pa, pl)) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: MPAT: analyzer %u is "
                          "enabled: only its enable bit may change\n", pa_id);
            return BAD_PARAM;
        }
        if (enable) {
            local = sx2_local_port_of_system_port(s,
                        sx2_fget(pl, SX2_REG_MPAT_SYSTEM_PORT));
            if (local <= SX2_CPU_PORT) {
                qemu_log_mask(LOG_GUEST_ERROR, "switchx2: MPAT: analyzer %u: "
                              "system port %u is no front panel port\n",
                              pa_id, sx2_fget(pl, SX2_REG_MPAT_SYSTEM_PORT));
                return BAD_PARAM;
            }
        }
        pa->enabled = enable;
        pa->session_id = sx2_fget(pl, SX2_REG_MPAT_SESSION_ID);
        pa->system_port = sx2_fget(pl, SX2_REG_MPAT_SYSTEM_PORT);
        pa->local_port = local;
        pa->qos = sx2_fget(pl, SX2_REG_MPAT_QOS);
        pa->be = sx2_fget(pl, SX2_REG_MPAT_BE);
        trace_switchx2_span_analyzer(pa_id, pa->system_port, pa->enabled);
        return OK;
    }
    memset(pl, 0, SX2_REG_MPAT_LEN);
    sx2_fset(pl, SX2_REG_MPAT_PA_ID, pa_id);
    sx2_fset(pl, SX2_REG_MPAT_SESSION_ID, pa->session_id);
    sx2_fset(pl, SX2_REG_MPAT_SYSTEM_PORT, pa->system_port);
    sx2_fset(pl, SX2_REG_MPAT_E, pa->enabled);
    sx2_fset(pl, SX2_REG_MPAT_QOS, pa->qos);
    sx2_fset(pl, SX2_REG_MPAT_BE, pa->be);
    sx2_fset(pl, SX2_REG_MPAT_SPAN_TYPE, SX2_MPAT_SPAN_TYPE_LOCAL_ETH);
    return OK;
}

/*
 * MPAR - port mirroring binding, indexed by local port and direction
 */
uint8_t sx2_reg_mpar(SwitchX2State *s, uint8_t *pl, bool write)
{
    SX2Port *p = sx2_reg_port(s, "MPAR", pl, false);
    unsigned dir = sx2_fget(pl, SX2_REG_MPAR_I_E);
    unsigned pa_id = sx2_fget(pl, SX2_REG_MPAR_PA_ID);
    uint32_t rate = sx2_fget(pl, SX2_REG_MPAR_PROBABILITY_RATE);
    bool enable = sx2_fget(pl, SX2_REG_MPAR_ENABLE);
    SX2Analyzer *pa;

    if (!p) {
        return BAD_PARAM;
    }
    if (dir != SX2_MPAR_EGRESS && dir != SX2_MPAR_INGRESS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: MPAR: i_e %u\n", dir);
        return BAD_PARAM;
    }
    if (!write) {
        sx2_fset(pl, SX2_REG_MPAR_ENABLE, p->span_enabled[dir]);
        sx2_fset(pl, SX2_REG_MPAR_PA_ID, p->span_pa[dir]);
        sx2_fset(pl, SX2_REG_MPAR_PROBABILITY_RATE, 1);
        return OK;
    }
    if (rate > 1) {
        qemu_log_mask(LOG_UNIMP, "switchx2: MPAR: probability_rate %u: no "
                      "sampled mirroring (reserved on Spectrum-1)\n", rate);
        return BAD_PARAM;
    }
    pa = sx2_span_analyzer(s, "MPAR", pa_id);
    if (!pa) {
        return BAD_PARAM;
    }
    if (enable && !pa->enabled) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: MPAR: port %u bound to "
                      "analyzer %u, which MPAT has not enabled\n",
                      p->local_port, pa_id);
        return BAD_PARAM;
    }
    p->span_enabled[dir] = enable;
    p->span_pa[dir] = pa_id;
    trace_switchx2_span_bind(p->local_port, dir, pa_id, enable);
    return OK;
}

/*
 * A copy of what port @p received (@dir SX2_MPAR_INGRESS) or transmits
 * (SX2_MPAR_EGRESS), out of its analyzer's port as is, if it is bound.
 */
void sx2_span_mirror(SwitchX2State *s, const SX2Port *p, unsigned dir,
                     const uint8_t *buf, size_t len)
{
    SX2Analyzer *pa;
    SX2Port *out;

    if (!p->span_enabled[dir]) {
        return;
    }
    pa = &s->analyzer[p->span_pa[dir]];
    if (!pa->enabled) {
        return;
    }
    out = &s->fp[pa->local_port];
    if (out->swid >= SX2_NUM_SWIDS || out->oper_status != SX2_OPER_UP) {
        trace_switchx2_span_skip(p->local_port, dir, out->local_port);
        return;
    }
    pa->mirrored++;
    trace_switchx2_span_mirror(p->local_port, dir, out->local_port, len);
    sx2_port_egress(out, buf, len);
}
