/*
 * Mellanox SwitchX-2 switch ASIC emulation: trap group policers
 *
 * QPCR (v5.10/v6.1 layout) configures a policer; HTGT pide/pid binds a
 * trap group to one.  Everything the group gives the CPU (trapped
 * frames, frames flooded to the CPU, EMAD answers and events alike)
 * passes the policer's token bucket first: what finds the bucket short
 * is dropped and counted in violate_count.  reg.h says nothing of
 * policers on SwitchX-2; the model takes its QPCR text at its word for
 * the CPU port (single rate, colour blind) and gives SwitchX-2 16 of
 * them, a count no source gives (docs/switchx2-conformance.md).
 *
 * The bucket is continuous (reg.h's 50 ns slices are not modelled):
 * it holds at most the burst, 2^cbs packets or 2^cbs * 512 bits, fills
 * at cir packets/s or cir * 10^3 (or 10^6) bits/s in virtual time, and
 * a packet passes if the bucket holds its cost (1 packet, or its
 * length with FCS in bits), as RFC 2697's committed bucket does.
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include <math.h>
#include "qemu/log.h"
#include "qemu/timer.h"
#include "switchx2.h"
#include "trace.h"

#define BAD_PARAM   SX2_EMAD_STATUS_BAD_PARAMETER
#define OK          SX2_EMAD_STATUS_SUCCESS

/* Tokens per second: packets, or bits */
double sx2_policer_rate(const SX2Policer *p)
{
    if (!p->bytes) {
        return p->cir;
    }
    return (double)p->cir * (p->ir_units == SX2_QPCR_IR_UNITS_K ? 1e3 : 1e6);
}

/* The bucket's size: packets, or bits */
double sx2_policer_burst(const SX2Policer *p)
{
    return ldexp(p->bytes ? SX2_QPCR_CBS_BITS_UNIT : 1, p->cbs);
}

void sx2_policer_reset(SwitchX2State *s)
{
    memset(s->policer, 0, sizeof(s->policer));
}

/* Whether HTGT may bind a trap group to policer @pid */
bool sx2_policer_usable(SwitchX2State *s, unsigned pid)
{
    return pid < SX2_NUM_POLICERS && s->policer[pid].set;
}

/*
 * A packet of @len bytes (no FCS) for the CPU through policer @pid:
 * true if it conforms.  Violations are counted (both violate actions
 * drop what is meant for the CPU).
 */
bool sx2_policer_admit(SwitchX2State *s, unsigned pid, size_t len)
{
    SX2Policer *p;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    double cost;

    if (pid >= SX2_NUM_POLICERS || !s->policer[pid].set) {
        return true;    /* HTGT binds configured policers only */
    }
    p = &s->policer[pid];
    if (now > p->last) {
        p->tokens = MIN(sx2_policer_burst(p),
                        p->tokens + (double)(now - p->last) *
                                    sx2_policer_rate(p) / 1e9);
        p->last = now;
    }
    cost = p->bytes ? (double)(MAX(len, SX2_MIN_FRAME) + SX2_FCS_LEN) * 8
                    : 1;
    if (p->tokens >= cost) {
        p->tokens -= cost;
        return true;
    }
    p->violate_count++;
    trace_switchx2_policer_violate(pid, p->violate_count);
    return false;
}

/* Whether a trap group is bound to policer @pid */
static bool sx2_policer_bound(SwitchX2State *s, unsigned pid)
{
    unsigned g;

    for (g = 0; g < SX2_TRAP_GROUPS; g++) {
        if (s->htgt[g].valid && s->htgt[g].pide && s->htgt[g].pid == pid) {
            return true;
        }
    }
    return false;
}

/* The fields of a QPCR write: refused whole if any is out of bounds */
static bool sx2_qpcr_check(SwitchX2State *s, const uint8_t *pl, unsigned pid)
{
    const SX2Policer *p = &s->policer[pid];
    bool bytes = sx2_fget(pl, SX2_REG_QPCR_BYTES);
    unsigned rate_type = sx2_fget(pl, SX2_REG_QPCR_RATE_TYPE);
    unsigned va = sx2_fget(pl, SX2_REG_QPCR_VIOLATE_ACTION);
    unsigned cbs = sx2_fget(pl, SX2_REG_QPCR_CBS);
    uint64_t cir = sx2_fget(pl, SX2_REG_QPCR_CIR);

    if (sx2_fget(pl, SX2_REG_QPCR_COLOR_AWARE)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: QPCR: policer %u: "
                      "color_aware 1: must be 0 for the CPU port\n", pid);
        return false;
    }
    if (rate_type != SX2_QPCR_RATE_TYPE_SINGLE) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: QPCR: policer %u: "
                      "rate_type %u: the CPU port's must be single rate "
                      "(1)\n", pid, rate_type);
        return false;
    }
    if (va != SX2_QPCR_ACTION_DISCARD && va != SX2_QPCR_ACTION_FORWARD) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: QPCR: policer %u: "
                      "violate_action %u is reserved\n", pid, va);
        return false;
    }
    if (bytes) {
        uint64_t bits = cir * (sx2_fget(pl, SX2_REG_QPCR_IR_UNITS) ==
                               SX2_QPCR_IR_UNITS_K ? 1000 : 1000000);

        if (bits < SX2_QPCR_CIR_BITS_MIN || bits > SX2_QPCR_CIR_BITS_MAX ||
            cbs < SX2_QPCR_CBS_BITS_MIN || cbs > SX2_QPCR_CBS_BITS_MAX) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: QPCR: policer %u: "
                          "%" PRIu64 " bit/s, cbs %u: outside %llu..%llu "
                          "bit/s, cbs %u..%u\n", pid, bits, cbs,
                          SX2_QPCR_CIR_BITS_MIN, SX2_QPCR_CIR_BITS_MAX,
                          SX2_QPCR_CBS_BITS_MIN, SX2_QPCR_CBS_BITS_MAX);
            return false;
        }
    } else if (cir < SX2_QPCR_CIR_PKTS_MIN || cir > SX2_QPCR_CIR_PKTS_MAX ||
               cbs < SX2_QPCR_CBS_PKTS_MIN || cbs > SX2_QPCR_CBS_PKTS_MAX) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: QPCR: policer %u: %" PRIu64
                      " packets/s, cbs %u: outside %u..%u packets/s, cbs "
                      "%u..%u\n", pid, cir, cbs, SX2_QPCR_CIR_PKTS_MIN,
                      SX2_QPCR_CIR_PKTS_MAX, SX2_QPCR_CBS_PKTS_MIN,
                      SX2_QPCR_CBS_PKTS_MAX);
        return false;
    }
    /* reg.h: bytes and violate_action are RO for a bound policer */
    if (p->set && sx2_policer_bound(s, pid) &&
        (bytes != p->bytes || va != p->violate_action)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: QPCR: policer %u is bound "
                      "to a trap group: bytes and violate_action are read "
                      "only\n", pid);
        return false;
    }
    return true;
}

/*
 * QPCR - QoS policer configuration.  Global policers (g = 2) only:
 * storm control policers (3) police ports, which the model does not
 * do.  A write configures the policer and fills its bucket; its
 * violate_count stays unless clear_counter is set.  clear_counter on a
 * query answers the count, then clears it.
 */
uint8_t sx2_reg_qpcr(SwitchX2State *s, uint8_t *pl, bool write)
{
    unsigned g = sx2_fget(pl, SX2_REG_QPCR_G);
    unsigned pid = sx2_fget(pl, SX2_REG_QPCR_PID);
    bool clear = sx2_fget(pl, SX2_REG_QPCR_CLEAR_COUNTER);
    SX2Policer *p;

    if (g != SX2_QPCR_G_GLOBAL) {
        qemu_log_mask(g == SX2_QPCR_G_STORM_CONTROL ? LOG_UNIMP
                                                    : LOG_GUEST_ERROR,
                      "switchx2: QPCR: g %u: only global (2) trap group "
                      "policers are implemented\n", g);
        return BAD_PARAM;
    }
    if (pid >= SX2_NUM_POLICERS) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: QPCR: policer %u does not "
                      "exist (0..%u)\n", pid, SX2_NUM_POLICERS - 1);
        return BAD_PARAM;
    }
    p = &s->policer[pid];
    if (write) {
        if (!sx2_qpcr_check(s, pl, pid)) {
            return BAD_PARAM;
        }
        p->set = true;
        p->bytes = sx2_fget(pl, SX2_REG_QPCR_BYTES);
        p->ir_units = sx2_fget(pl, SX2_REG_QPCR_IR_UNITS);
        p->cbs = sx2_fget(pl, SX2_REG_QPCR_CBS);
        p->cir = sx2_fget(pl, SX2_REG_QPCR_CIR);
        p->violate_action = sx2_fget(pl, SX2_REG_QPCR_VIOLATE_ACTION);
        p->tokens = sx2_policer_burst(p);
        p->last = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        trace_switchx2_qpcr(pid, p->bytes, (uint64_t)sx2_policer_rate(p),
                            (uint64_t)sx2_policer_burst(p));
    }
    memset(pl + 0x04, 0, SX2_REG_QPCR_LEN - 0x04);
    sx2_fset(pl, SX2_REG_QPCR_BYTES, p->bytes);
    sx2_fset(pl, SX2_REG_QPCR_IR_UNITS, p->ir_units);
    sx2_fset(pl, SX2_REG_QPCR_RATE_TYPE,
             p->set ? SX2_QPCR_RATE_TYPE_SINGLE : 0);
    sx2_fset(pl, SX2_REG_QPCR_CBS, p->cbs);
    sx2_fset(pl, SX2_REG_QPCR_CIR, p->cir);
    sx2_fset(pl, SX2_REG_QPCR_VIOLATE_ACTION, p->violate_action);
    sx2_set64(pl, SX2_REG_QPCR_VIOLATE_COUNT_OFF, p->violate_count);
    if (clear) {
        p->violate_count = 0;
    }
    return OK;
}
