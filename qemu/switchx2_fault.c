/*
 * Mellanox SwitchX-2 switch ASIC emulation: fault injection
 *
 * A host-side test facility, not silicon behaviour: QOM properties a
 * test sets at run time (QMP qom-set) to make the next N EMADs,
 * commands or RX completions fail in a chosen way, delay EMAD
 * responses, or flap the links that are up.  Each count is decremented
 * as it is used; 0 is off.  The knobs survive device resets (they
 * belong to the host, not the ASIC); what a fault has in flight (a held
 * command, delayed responses, a flap) does not.
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/timer.h"
#include "switchx2.h"
#include "trace.h"

/* Time between the down and up steps of fault-pude-flap */
#define SX2_FLAP_STEP_MS    5

typedef struct SX2FaultKnob {
    const char *name;
    const char *desc;
} SX2FaultKnob;

static const SX2FaultKnob sx2_fault_knobs[SX2_FAULT_MAX] = {
    [SX2_FAULT_EMAD_DROP] = {
        "fault-emad-drop",
        "the next N EMAD responses are not sent (the EMAD is executed)" },
    [SX2_FAULT_EMAD_BUSY] = {
        "fault-emad-busy",
        "the next N EMADs are answered BUSY (1) without being executed" },
    [SX2_FAULT_EMAD_ERROR] = {
        "fault-emad-error",
        "the next N EMADs are answered INTERNAL_ERROR (0x70) without "
        "being executed" },
    [SX2_FAULT_EMAD_DELAY_MS] = {
        "fault-emad-delay-ms",
        "EMAD responses leave this many ms of virtual time late, in order "
        "(0: at once)" },
    [SX2_FAULT_CMD_TIMEOUT] = {
        "fault-cmd-timeout",
        "the next N commands are not executed: GO stays set for 2 s of "
        "virtual time, then clears with INTERNAL_ERR" },
    [SX2_FAULT_CMD_ERROR] = {
        "fault-cmd-error",
        "the next N commands complete at once with BAD_SYS_STATE (4) "
        "without being executed" },
    [SX2_FAULT_CQE_ERROR] = {
        "fault-cqe-error",
        "the next N RX completions carry the error bit; the frame is not "
        "delivered" },
    [SX2_FAULT_CQE_BAD_LENGTH] = {
        "fault-cqe-bad-length",
        "the next N RX completions report a byte count larger than the "
        "posted buffer" },
    [SX2_FAULT_RDQ_BAD_PORT] = {
        "fault-rdq-bad-port",
        "the next N RX completions carry a system port that maps to no "
        "port" },
    [SX2_FAULT_PUDE_FLAP] = {
        "fault-pude-flap",
        "writing N takes every front panel port whose link is up down and "
        "up again N times, 5 ms of virtual time apart; reads the flaps to "
        "come" },
    [SX2_FAULT_EMAD_REG] = {
        "fault-emad-reg",
        "fault-emad-error and fault-emad-busy only hit EMADs for this "
        "register ID (0: any register)" },
    [SX2_FAULT_EMAD_SKIP] = {
        "fault-emad-skip",
        "the next N EMADs fault-emad-error or fault-emad-busy would hit "
        "pass unharmed first" },
    [SX2_FAULT_WQE_BYTE_COUNT] = {
        "fault-wqe-byte-count",
        "the next N RX completions first raise the byte count of the "
        "WQE's first buffer, in guest memory, to 0x3FFF and then report "
        "that many bytes: more than the driver posted, as the WQE now "
        "says" },
    [SX2_FAULT_CQE_FOREIGN_DQ] = {
        "fault-cqe-foreign-dq",
        "the next N RX completions name the next RDQ, one their CQ does "
        "not serve" },
    [SX2_FAULT_MAX_VID_FLOOD_TABLES] = {
        "fault-max-vid-flood-tables",
        "CONFIG_PROFILE asking for more than N per-VID flood tables is "
        "refused, as by silicon that has fewer (0: the model's limit "
        "alone)" },
    [SX2_FAULT_NO_ROUTER] = {
        "fault-no-router",
        "while not 0, CONFIG_PROFILE typing a switch partition router "
        "port is refused, as by silicon or firmware without a router" },
};

/* Use one of the next-N faults if it is armed; false if it is not */
bool sx2_fault_take(SwitchX2State *s, SX2Fault f)
{
    assert(f < SX2_FAULT_MAX && f != SX2_FAULT_EMAD_DELAY_MS &&
           f != SX2_FAULT_EMAD_REG && f != SX2_FAULT_MAX_VID_FLOOD_TABLES &&
           f != SX2_FAULT_NO_ROUTER);
    if (!s->fault[f]) {
        return false;
    }
    s->fault[f]--;
    trace_switchx2_fault(sx2_fault_knobs[f].name, s->fault[f]);
    return true;
}

/*
 * Whether fault-emad-error and fault-emad-busy may hit an EMAD for
 * @reg_id: one of them is armed, the EMAD is for fault-emad-reg (when
 * set), and fault-emad-skip has let through as many EMADs as it was
 * told to.  That lets a test fail exactly the Nth write of a register.
 */
bool sx2_fault_emad_selected(SwitchX2State *s, uint16_t reg_id)
{
    uint32_t reg = s->fault[SX2_FAULT_EMAD_REG];

    if (!s->fault[SX2_FAULT_EMAD_ERROR] && !s->fault[SX2_FAULT_EMAD_BUSY]) {
        return false;
    }
    if (reg && reg != reg_id) {
        return false;
    }
    return !sx2_fault_take(s, SX2_FAULT_EMAD_SKIP);
}

/*
 * fault-pude-flap.  Writing N picks the front panel ports whose link is
 * up; a timer then holds them down, lets them up, N times.  Each change
 * goes through sx2_port_update_oper(), so PUDE follows PAOS event mode.
 * Only our side of the cable flaps: the far end is not told.
 */
bool sx2_fault_link_held_down(SX2Port *p)
{
    return p->s->flap_down && sx2_portset_test(&p->s->flap_ports,
                                               p->local_port);
}

static void sx2_flap_apply(SwitchX2State *s)
{
    unsigned lp;

    for (lp = 1; lp <= s->num_ports; lp++) {
        if (sx2_portset_test(&s->flap_ports, lp)) {
            sx2_port_update_oper(&s->fp[lp]);
        }
    }
}

static void sx2_flap_step(SwitchX2State *s, void *opaque)
{
    s->flap_down = !s->flap_down;
    if (!s->flap_down && s->fault[SX2_FAULT_PUDE_FLAP]) {
        s->fault[SX2_FAULT_PUDE_FLAP]--;
    }
    trace_switchx2_pude_flap(s->flap_down, s->fault[SX2_FAULT_PUDE_FLAP]);
    sx2_flap_apply(s);
    if (s->flap_down || s->fault[SX2_FAULT_PUDE_FLAP]) {
        timer_mod(s->flap_timer, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) +
                  SX2_FLAP_STEP_MS);
    } else {
        memset(&s->flap_ports, 0, sizeof(s->flap_ports));
    }
}

static void sx2_flap_timer(void *opaque)
{
    /* PUDE is DMA and MSI-X: as if the guest were accessing us */
    sx2_run_guarded(opaque, sx2_flap_step, NULL);
}

static void sx2_flap_start(SwitchX2State *s)
{
    unsigned lp;

    if (!s->flap_timer || timer_pending(s->flap_timer) ||
        !s->fault[SX2_FAULT_PUDE_FLAP]) {
        return;     /* not realized, already flapping, or nothing to do */
    }
    memset(&s->flap_ports, 0, sizeof(s->flap_ports));
    for (lp = 1; lp <= s->num_ports; lp++) {
        sx2_portset_assign(&s->flap_ports, lp,
                           s->fp[lp].oper_status == SX2_OPER_UP);
    }
    timer_mod(s->flap_timer, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) +
              SX2_FLAP_STEP_MS);
}

static void sx2_flap_stop(SwitchX2State *s)
{
    if (s->flap_timer) {
        timer_del(s->flap_timer);
    }
    s->flap_down = false;
    memset(&s->flap_ports, 0, sizeof(s->flap_ports));
}

/* Stopped by writing 0: let the links that are held down up again */
static void sx2_flap_cancel(SwitchX2State *s, void *opaque)
{
    SX2PortSet held = s->flap_ports;
    bool was_down = s->flap_down;
    unsigned lp;

    sx2_flap_stop(s);
    for (lp = 1; was_down && lp <= s->num_ports; lp++) {
        if (sx2_portset_test(&held, lp)) {
            sx2_port_update_oper(&s->fp[lp]);
        }
    }
}

static void sx2_cmd_timer(void *opaque)
{
    sx2_run_guarded(opaque, sx2_cmd_timeout, NULL);
}

static void sx2_emad_timer(void *opaque)
{
    sx2_run_guarded(opaque, sx2_emad_delayed_tick, NULL);
}

/*
 * QOM accessors.  Any uint32 is accepted: every count is bounded by
 * the events that consume it, and the delay by the queue of responses
 * it holds (see sx2_emad_respond()).
 */
static void sx2_fault_get(Object *obj, Visitor *v, const char *name,
                          void *opaque, Error **errp)
{
    SwitchX2State *s = SWITCHX2(obj);
    SX2Fault f = (const SX2FaultKnob *)opaque - sx2_fault_knobs;

    visit_type_uint32(v, name, &s->fault[f], errp);
}

static void sx2_fault_set(Object *obj, Visitor *v, const char *name,
                          void *opaque, Error **errp)
{
    SwitchX2State *s = SWITCHX2(obj);
    SX2Fault f = (const SX2FaultKnob *)opaque - sx2_fault_knobs;
    uint32_t val;

    if (!visit_type_uint32(v, name, &val, errp)) {
        return;
    }
    s->fault[f] = val;
    trace_switchx2_fault_set(name, val);
    if (f == SX2_FAULT_PUDE_FLAP) {
        if (val) {
            sx2_flap_start(s);
        } else {
            sx2_run_guarded(s, sx2_flap_cancel, NULL);
        }
    }
}

/*
 * refuse-reg: a comma-separated list of register names whose writes
 * are answered "bad parameter" and not executed (queries still work),
 * as on silicon that lacks them.  Not a count: it stays until changed.
 */
bool sx2_fault_reg_refused(SwitchX2State *s, uint16_t reg_id)
{
    unsigned i;

    for (i = 0; i < s->refuse_n; i++) {
        if (s->refuse_ids[i] == reg_id) {
            return true;
        }
    }
    return false;
}

static char *sx2_refuse_reg_get(Object *obj, Error **errp)
{
    SwitchX2State *s = SWITCHX2(obj);

    return g_strdup(s->refuse_reg ? s->refuse_reg : "");
}

static void sx2_refuse_reg_set(Object *obj, const char *value, Error **errp)
{
    SwitchX2State *s = SWITCHX2(obj);
    g_auto(GStrv) names = g_strsplit(value, ",", -1);
    g_autoptr(GString) norm = g_string_new("");
    uint16_t ids[SX2_REFUSE_REG_MAX];
    unsigned n = 0, i, j;

    for (i = 0; names[i]; i++) {
        const char *name = g_strstrip(names[i]);
        const SX2RegInfo *r;

        if (!*name) {
            continue;
        }
        r = sx2_reg_find_name(name);
        if (!r) {
            error_setg(errp, "refuse-reg: the model has no register named "
                       "'%s'", name);
            return;
        }
        for (j = 0; j < n && ids[j] != r->id; j++) {
            /* skip duplicates */
        }
        if (j < n) {
            continue;
        }
        if (n == SX2_REFUSE_REG_MAX) {
            error_setg(errp, "refuse-reg: more than %u registers",
                       SX2_REFUSE_REG_MAX);
            return;
        }
        ids[n++] = r->id;
        g_string_append_printf(norm, "%s%s", norm->len ? "," : "", r->name);
    }
    memcpy(s->refuse_ids, ids, n * sizeof(ids[0]));
    s->refuse_n = n;
    g_free(s->refuse_reg);
    s->refuse_reg = g_string_free(g_steal_pointer(&norm), false);
    trace_switchx2_refuse_reg_set(s->refuse_reg);
}

void sx2_fault_finalize(SwitchX2State *s)
{
    g_free(s->refuse_reg);
    s->refuse_reg = NULL;
}

void sx2_fault_class_init(ObjectClass *klass)
{
    unsigned i;

    object_class_property_add_str(klass, "refuse-reg", sx2_refuse_reg_get,
                                  sx2_refuse_reg_set);
    object_class_property_set_description(klass, "refuse-reg",
        "comma-separated register names (e.g. SPVM,SPVMLR) whose writes "
        "are answered 'bad parameter' and not executed, as on silicon "
        "without them; queries still answer");

    for (i = 0; i < SX2_FAULT_MAX; i++) {
        object_class_property_add(klass, sx2_fault_knobs[i].name, "uint32",
                                  sx2_fault_get, sx2_fault_set, NULL,
                                  (void *)&sx2_fault_knobs[i]);
        object_class_property_set_description(klass,
                                              sx2_fault_knobs[i].name,
                                              sx2_fault_knobs[i].desc);
    }
}

void sx2_fault_realize(SwitchX2State *s)
{
    QSIMPLEQ_INIT(&s->emad_delayed);
    s->cmd_timer = timer_new_ms(QEMU_CLOCK_VIRTUAL, sx2_cmd_timer, s);
    s->emad_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, sx2_emad_timer, s);
    s->flap_timer = timer_new_ms(QEMU_CLOCK_VIRTUAL, sx2_flap_timer, s);
}

/*
 * Device reset: what faults have in flight is gone (a flap, like the
 * ports it flaps, ends), the other knobs stay.
 */
void sx2_fault_reset(SwitchX2State *s)
{
    sx2_flap_stop(s);
    s->fault[SX2_FAULT_PUDE_FLAP] = 0;
}

void sx2_fault_unrealize(SwitchX2State *s)
{
    sx2_flap_stop(s);
    sx2_emad_reset(s);
    if (s->cmd_timer) {
        timer_free(s->cmd_timer);
        s->cmd_timer = NULL;
    }
    if (s->emad_timer) {
        timer_free(s->emad_timer);
        s->emad_timer = NULL;
    }
    if (s->flap_timer) {
        timer_free(s->flap_timer);
        s->flap_timer = NULL;
    }
}
