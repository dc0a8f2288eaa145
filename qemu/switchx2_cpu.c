/*
 * Mellanox SwitchX-2 switch ASIC emulation: the CPU port
 *
 * Local port 0 is the CPU.  Frames reach it only through
 * sx2_cpu_trap(): a trap ID selects, through HPKT and HTGT, the RDQ the
 * frame lands on.  Packets from it arrive on the SDQs; the DMA layer
 * hands each to sx2_cpu_tx(), which this file registers with it, so the
 * DMA layer never calls up into EMAD or forwarding by name.  EMADs
 * (locally processed) go to the register machinery, control packets
 * straight out of the port the TX header names.
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "switchx2.h"
#include "trace.h"

bool sx2_cpu_trap_action_traps(uint8_t action)
{
    return action == SX2_HPKT_TRAP_TO_CPU ||
           action == SX2_HPKT_MIRROR_TO_CPU ||
           action == SX2_HPKT_TRAP_AND_SOFT_DISCARD ||
           action == SX2_HPKT_TRAP_EXCEPTION_TO_CPU;
}

/*
 * Event trap IDs: the device addresses them to the CPU itself.  reg.h
 * (HPKT action, every version): "Must be set to 0 (forward) for event
 * trap IDs, as they are already addressed to the CPU"; v4.14+ drivers
 * send 1 (trap) all the same.
 */
bool sx2_trap_is_event(unsigned trap_id)
{
    switch (trap_id) {
    case SX2_TRAP_MFDE:
    case SX2_TRAP_PUDE:
    case SX2_TRAP_PMPE:
    case SX2_TRAP_MTWE:
    case SX2_TRAP_PTP_ING_FIFO:
    case SX2_TRAP_PTP_EGR_FIFO:
        return true;
    default:
        return false;
    }
}

/*
 * Whether the CPU gets what @t traps: packet traps by their action;
 * events once HPKT registered them, with action forward (0, as reg.h
 * asks) or trap (1, as v4.14+ drivers send).
 */
static bool sx2_cpu_trap_delivers(const SX2Trap *t, unsigned trap_id)
{
    if (sx2_trap_is_event(trap_id)) {
        return t->set && (t->action == SX2_HPKT_FORWARD ||
                          t->action == SX2_HPKT_TRAP_TO_CPU);
    }
    return sx2_cpu_trap_action_traps(t->action);
}

/* Count a frame for the CPU that it did not get; returns false */
static bool sx2_cpu_trap_dropped(SwitchX2State *s, uint16_t trap_id)
{
    s->cpu_drops++;
    s->cpu_cnt.dropped[trap_id]++;
    return false;
}

/*
 * Hand a frame to the CPU with @trap_id, as received from @src (a system
 * port, or a LAG member: see sx2_cpu_src()).
 * Returns false (and counts the drop) if the trap is off, its group
 * has no RDQ, or the RDQ cannot take it.
 */
bool sx2_cpu_trap(SwitchX2State *s, uint16_t trap_id, uint32_t src,
                  const uint8_t *buf, size_t len)
{
    const SX2Trap *t;
    const SX2TrapGroup *g;

    if (trap_id >= SX2_TRAP_ID_MAX) {
        return false;
    }
    t = &s->hpkt[trap_id];
    if (!sx2_cpu_trap_delivers(t, trap_id)) {
        trace_switchx2_rx_drop(src, trap_id, "trap not enabled");
        return sx2_cpu_trap_dropped(s, trap_id);
    }
    g = &s->htgt[t->group];
    if (!g->valid) {
        trace_switchx2_rx_drop(src, trap_id, "trap group not set up");
        return sx2_cpu_trap_dropped(s, trap_id);
    }
    if (g->pide && !sx2_policer_admit(s, g->pid, len)) {
        trace_switchx2_rx_drop(src, trap_id, "trap group policer");
        return sx2_cpu_trap_dropped(s, trap_id);
    }
    if (!sx2_rdq_deliver(s, g->rdq, src, trap_id, buf, len)) {
        return sx2_cpu_trap_dropped(s, trap_id);
    }
    s->cpu_cnt.trapped[trap_id]++;
    return true;
}

/* A control packet: out of the local port the TX header names, as is */
static void sx2_cpu_tx_control(SwitchX2State *s, const uint8_t *txhdr,
                               const uint8_t *buf, size_t len)
{
    unsigned port = sx2_fget(txhdr, SX2_TXHDR_PORT_MID);
    SX2Port *p;

    if (sx2_fget(txhdr, SX2_TXHDR_VERSION) != SX2_TXHDR_VERSION_0 ||
        sx2_fget(txhdr, SX2_TXHDR_PROTO) != SX2_TXHDR_PROTO_ETH) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: TX header version %u "
                      "protocol %u unsupported, packet dropped\n",
                      sx2_fget(txhdr, SX2_TXHDR_VERSION),
                      sx2_fget(txhdr, SX2_TXHDR_PROTO));
        return;
    }
    if (sx2_fget(txhdr, SX2_TXHDR_CTL) != SX2_TXHDR_CTL_ETH_CTL) {
        qemu_log_mask(LOG_UNIMP, "switchx2: data packets from the CPU "
                      "need the forwarding pipeline, dropped\n");
        return;
    }
    p = sx2_port_get(s, port);
    if (!p) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: control packet for local "
                      "port %u which does not exist, dropped\n", port);
        return;
    }
    if (p->swid >= SX2_NUM_SWIDS) {
        trace_switchx2_tx_drop(port, len, "port has no swid");
        p->cnt.tx_discards++;
        return;
    }
    sx2_port_egress(p, buf, len);
}

/* The SDQ consumer: EMADs are processed locally, the rest is sent */
static void sx2_cpu_tx(SwitchX2State *s, const uint8_t *pkt, size_t len,
                       bool lp)
{
    bool local;

    if (len < SX2_TXHDR_LEN) {
        return;     /* the DMA layer refuses such WQEs already */
    }
    local = lp || sx2_fget(pkt, SX2_TXHDR_EMAD);
    trace_switchx2_cpu_tx(len - SX2_TXHDR_LEN, local);
    s->cpu_cnt.sent++;
    s->cpu_cnt.sent_emads += local;
    if (local) {
        sx2_emad_rx_from_cpu(s, pkt + SX2_TXHDR_LEN, len - SX2_TXHDR_LEN);
    } else {
        sx2_cpu_tx_control(s, pkt, pkt + SX2_TXHDR_LEN, len - SX2_TXHDR_LEN);
    }
}

void sx2_cpu_init(SwitchX2State *s)
{
    sx2_dma_set_sdq_consumer(s, sx2_cpu_tx);
}
