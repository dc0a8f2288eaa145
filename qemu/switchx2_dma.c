/*
 * Mellanox SwitchX-2 switch ASIC emulation: asynchronous queues
 *
 * Send and receive descriptor queues (SDQ/RDQ), completion queues (CQ,
 * element format version 0) and event queues (EQ): their creation and
 * destruction commands, doorbells, ownership bits and arming.
 *
 * Counters are free running 16 bit values; an element index is the
 * counter modulo the queue size and the ownership bit of a CQE/EQE
 * written by the device is the "wrap" bit (counter & size).
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/atomic.h"
#include "switchx2.h"
#include "trace.h"

/* Largest frame a WQE can describe: 3 gather entries of 14 bits each */
#define SX2_WQE_MAX_BYTES   (SX2_WQE_SG_ENTRIES * SX2_WQE_BYTE_COUNT_MASK)

static dma_addr_t sx2_elem_addr(const uint64_t *pa, unsigned esize,
                                uint16_t count, uint16_t counter)
{
    uint32_t off = (uint32_t)(counter & (count - 1)) * esize;

    return pa[off / SX2_PAGE_SIZE] + off % SX2_PAGE_SIZE;
}

static const char *sx2_dq_kind(unsigned opmod)
{
    return opmod == SX2_OPMOD_SDQ ? "SDQ" : "RDQ";
}

static SX2DescQueue *sx2_dq_lookup(SwitchX2State *s, unsigned opmod,
                                   uint32_t dqn)
{
    if (opmod == SX2_OPMOD_SDQ && dqn < SX2_NUM_SDQS) {
        return &s->sdq[dqn];
    }
    if (opmod == SX2_OPMOD_RDQ && dqn < SX2_NUM_RDQS) {
        return &s->rdq[dqn];
    }
    return NULL;
}

void sx2_dma_reset(SwitchX2State *s)
{
    memset(s->sdq, 0, sizeof(s->sdq));
    memset(s->rdq, 0, sizeof(s->rdq));
    memset(s->cq, 0, sizeof(s->cq));
    memset(s->eq, 0, sizeof(s->eq));
}

/*
 * Write one CQE/EQE.  The dword holding the ownership bit is written
 * last so that a driver polling it never sees a half written element.
 */
static bool sx2_write_elem(SwitchX2State *s, dma_addr_t addr, uint8_t *elem)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    if (pci_dma_write(pdev, addr, elem, 12) != MEMTX_OK) {
        return false;
    }
    /* Element body before the ownership dword */
    smp_wmb();
    return pci_dma_write(pdev, addr + 12, elem + 12, 4) == MEMTX_OK;
}

static void sx2_read_pages(const uint8_t *mbox, unsigned first_off,
                           uint64_t mask, unsigned npages, uint64_t *pa)
{
    unsigned i;

    for (i = 0; i < npages; i++) {
        pa[i] = sx2_get64(mbox, first_off + 8 * i) & mask;
    }
}

/*
 * Rings: what completion and event queues have in common.  A kind
 * describes where its fields sit in the SW2HW/QUERY mailbox.
 */
typedef struct SX2Field {
    unsigned off, shift, bits;
} SX2Field;

typedef struct SX2RingKind {
    const char *name;
    unsigned esize;
    unsigned log_max;
    SX2Field log_size;
    SX2Field producer;
    SX2Field owner;             /* in the element */
    unsigned pa_off;            /* first page address in the mailbox */
    uint64_t pa_mask;
} SX2RingKind;

static const SX2RingKind sx2_cq_kind = {
    .name = "CQ", .esize = SX2_CQE_SIZE,
    .log_max = SX2_LOG_MAX_CQ_SZ, .log_size = { SX2_CQ_LOG_CQ_SIZE },
    .producer = { SX2_CQ_PRODUCER_COUNTER }, .owner = { SX2_CQE_OWNER },
    .pa_off = SX2_CQ_PA_OFF(0), .pa_mask = SX2_CQ_PA_MASK,
};

static const SX2RingKind sx2_eq_kind = {
    .name = "EQ", .esize = SX2_EQE_SIZE,
    .log_max = SX2_LOG_MAX_EQ_SZ, .log_size = { SX2_EQ_LOG_EQ_SIZE },
    .producer = { SX2_EQ_PRODUCER_COUNTER }, .owner = { SX2_EQE_OWNER },
    .pa_off = SX2_EQ_PA_OFF(0), .pa_mask = SX2_EQ_PA_MASK,
};

static uint32_t sx2_field_get(const uint8_t *buf, const SX2Field *f)
{
    return sx2_fget(buf, f->off, f->shift, f->bits);
}

static void sx2_field_set(uint8_t *buf, const SX2Field *f, uint32_t val)
{
    sx2_fset(buf, f->off, f->shift, f->bits, val);
}

/* Pages a ring of @count elements spans; at most SX2_AQ_MAX_PAGES */
static unsigned sx2_ring_pages(const SX2RingKind *k, unsigned count)
{
    return MAX(1u, (count * k->esize + SX2_PAGE_SIZE - 1) / SX2_PAGE_SIZE);
}

static bool sx2_ring_has_room(const SX2Ring *r)
{
    return r->hw_owned && (uint16_t)(r->prod - r->cons) < r->count;
}

/* Append one element; the caller has checked there is room */
static bool sx2_ring_post(SwitchX2State *s, const SX2RingKind *k,
                          unsigned n, SX2Ring *r, uint8_t *elem)
{
    dma_addr_t addr = sx2_elem_addr(r->pa, k->esize, r->count, r->prod);

    sx2_field_set(elem, &k->owner, !!(r->prod & r->count));
    if (!sx2_write_elem(s, addr, elem)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s%u: DMA write to 0x%"
                      PRIx64 " failed\n", k->name, n, (uint64_t)addr);
        return false;
    }
    r->prod++;
    return true;
}

/*
 * SW2HW_CQ/EQ checks common to both kinds.  Nothing has changed when
 * this refuses.
 */
static uint8_t sx2_ring_check_create(const SX2RingKind *k, SX2Ring *r,
                                     uint32_t n, const uint8_t *mbox)
{
    unsigned log_size = sx2_field_get(mbox, &k->log_size);

    if (!r) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_%s: no %s%u\n",
                      k->name, k->name, n);
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    if (r->hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_%s: %s%u already "
                      "owned by hardware\n", k->name, k->name, n);
        return SX2_CMD_STATUS_BAD_RES_STATE;
    }
    if (log_size > k->log_max) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_%s: %s%u size 2^%u "
                      "too big\n", k->name, k->name, n, log_size);
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    return SX2_CMD_STATUS_OK;
}

/* Take a checked mailbox: size, producer counter and pages */
static void sx2_ring_create(const SX2RingKind *k, SX2Ring *r,
                            const uint8_t *mbox)
{
    memset(r, 0, sizeof(*r));
    r->log_size = sx2_field_get(mbox, &k->log_size);
    r->count = 1u << r->log_size;
    r->prod = sx2_field_get(mbox, &k->producer);
    r->cons = r->prod;
    sx2_read_pages(mbox, k->pa_off, k->pa_mask,
                   sx2_ring_pages(k, r->count), r->pa);
    r->hw_owned = true;
}

static void sx2_ring_query(const SX2RingKind *k, const SX2Ring *r,
                           uint8_t *mbox)
{
    unsigned i;

    sx2_field_set(mbox, &k->log_size, r->log_size);
    sx2_field_set(mbox, &k->producer, r->prod);
    for (i = 0; i < sx2_ring_pages(k, r->count); i++) {
        sx2_set64(mbox, k->pa_off + 8 * i, r->pa[i]);
    }
}

/* The ring a HW2SW/QUERY command names, or a command status */
static uint8_t sx2_ring_lookup(const SX2RingKind *k, SX2Ring *r, uint32_t n,
                               const char *cmd)
{
    if (!r) {
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    if (!r->hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s_%s: %s%u not owned by "
                      "hardware\n", cmd, k->name, k->name, n);
        return SX2_CMD_STATUS_BAD_RES_STATE;
    }
    return SX2_CMD_STATUS_OK;
}

/*
 * CQ and EQ doorbells share one format. The consumer doorbell carries the
 * consumer counter plus the queue size, the arm doorbell the bare counter;
 * either must fall within the entries the hardware has produced.  Returns
 * true when an arm doorbell finds elements the driver has not consumed:
 * the caller signals them at once.
 */
static bool sx2_ring_doorbell(const SX2RingKind *k, SX2Ring *r, unsigned n,
                              uint32_t val, bool arm)
{
    uint16_t cons;

    if (!r || !r->hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %sdoorbell for %s%u which "
                      "is not owned by hardware\n", arm ? "arm " : "",
                      k->name, n);
        return false;
    }
    cons = arm ? (uint16_t)val : (uint16_t)(val - r->count);
    if ((uint16_t)(r->prod - cons) > r->count) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s%u %sdoorbell %u is not "
                      "within the %u outstanding %sEs\n", k->name, n,
                      arm ? "arm " : "", cons, (uint16_t)(r->prod - r->cons),
                      k->name);
        return false;
    }
    if (!arm) {
        r->cons = cons;
        return false;
    }
    r->armed = true;
    return cons != r->prod;
}

static SX2Ring *sx2_cq_ring(SwitchX2State *s, uint32_t cqn)
{
    return cqn < SX2_NUM_CQS ? &s->cq[cqn].ring : NULL;
}

static SX2Ring *sx2_eq_ring(SwitchX2State *s, uint32_t eqn)
{
    return eqn < SX2_NUM_EQS ? &s->eq[eqn].ring : NULL;
}

/*
 * Event queues
 */
static void sx2_eq_fire(SwitchX2State *s, SX2EventQueue *q)
{
    if (!q->always_armed) {
        q->ring.armed = false;
    }
    if (q->int_msix) {
        sx2_irq_notify(s);
    }
}

bool sx2_eq_post(SwitchX2State *s, unsigned eqn, uint8_t *eqe)
{
    SX2EventQueue *q;

    if (eqn >= SX2_NUM_EQS || !s->eq[eqn].ring.hw_owned) {
        return false;
    }
    q = &s->eq[eqn];
    if (!sx2_ring_has_room(&q->ring)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: EQ%u overflow, event "
                      "dropped (prod %u cons %u)\n", eqn, q->ring.prod,
                      q->ring.cons);
        return false;
    }
    if (!sx2_ring_post(s, &sx2_eq_kind, eqn, &q->ring, eqe)) {
        return false;
    }
    trace_switchx2_eqe(eqn, (uint16_t)(q->ring.prod - 1),
                       sx2_fget(eqe, SX2_EQE_EVENT_TYPE), q->ring.armed);
    if (q->ring.armed || q->always_armed) {
        sx2_eq_fire(s, q);
    }
    return true;
}

/*
 * Completion queues
 */
static void sx2_cq_event(SwitchX2State *s, unsigned cqn)
{
    SX2CompQueue *q = &s->cq[cqn];
    uint8_t eqe[SX2_EQE_SIZE] = { 0 };

    q->ring.armed = false;
    sx2_fset(eqe, SX2_EQE_EVENT_TYPE, SX2_EQE_TYPE_COMP);
    sx2_fset(eqe, SX2_EQE_CQN, cqn);
    if (!sx2_eq_post(s, q->eqn, eqe)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: CQ%u: completion event "
                      "lost, EQ%u not usable\n", cqn, q->eqn);
    }
}

static bool sx2_cq_has_room(SwitchX2State *s, unsigned cqn)
{
    return cqn < SX2_NUM_CQS && sx2_ring_has_room(&s->cq[cqn].ring);
}

static bool sx2_cq_post(SwitchX2State *s, unsigned cqn, uint8_t *cqe)
{
    SX2CompQueue *q;

    if (!sx2_cq_has_room(s, cqn)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: CQ%u missing or full, "
                      "completion dropped\n", cqn);
        return false;
    }
    q = &s->cq[cqn];
    if (!sx2_ring_post(s, &sx2_cq_kind, cqn, &q->ring, cqe)) {
        return false;
    }
    trace_switchx2_cqe(cqn, (uint16_t)(q->ring.prod - 1),
                       sx2_fget(cqe, SX2_CQE_SR), sx2_fget(cqe, SX2_CQE_DQN),
                       sx2_fget(cqe, SX2_CQE_WQE_COUNTER),
                       sx2_fget(cqe, SX2_CQE_TRAP_ID),
                       sx2_fget(cqe, SX2_CQE_BYTE_COUNT));
    if (q->ring.armed) {
        sx2_cq_event(s, cqn);
    }
    return true;
}

/*
 * Send path: gather one WQE, hand it to the consumer the CPU port
 * registered (sx2_dma_set_sdq_consumer), complete it
 */
static void sx2_sdq_complete(SwitchX2State *s, unsigned sdqn,
                             SX2DescQueue *q, bool error)
{
    uint8_t cqe[SX2_CQE_SIZE] = { 0 };

    sx2_fset(cqe, SX2_CQE_WQE_COUNTER, q->cons);
    sx2_fset(cqe, SX2_CQE_SR, 1);
    sx2_fset(cqe, SX2_CQE_DQN, sdqn);
    sx2_fset(cqe, SX2_CQE_E, error);
    sx2_cq_post(s, q->cqn, cqe);
}

static bool sx2_sdq_handle_wqe(SwitchX2State *s, unsigned sdqn,
                               SX2DescQueue *q, const uint8_t *wqe)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint16_t bc[SX2_WQE_SG_ENTRIES];
    size_t total = 0, off = 0;
    uint8_t *buf;
    bool lp;
    unsigned i;

    for (i = 0; i < SX2_WQE_SG_ENTRIES; i++) {
        bc[i] = lduw_be_p(wqe + SX2_WQE_BYTE_COUNT_OFF(i)) &
                SX2_WQE_BYTE_COUNT_MASK;
        total += bc[i];
    }
    if (total < SX2_TXHDR_LEN) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SDQ%u WQE %u carries %zu "
                      "bytes, less than a TX header\n", sdqn, q->cons, total);
        return false;
    }
    if (sx2_fget(wqe, SX2_WQE_TYPE) != SX2_WQE_TYPE_ETHERNET) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SDQ%u WQE %u has type "
                      "0x%x\n", sdqn, q->cons, sx2_fget(wqe, SX2_WQE_TYPE));
        return false;
    }

    buf = g_malloc(total);
    for (i = 0; i < SX2_WQE_SG_ENTRIES; i++) {
        dma_addr_t a = ldq_be_p(wqe + SX2_WQE_ADDR_OFF(i));

        if (!bc[i]) {
            continue;
        }
        if (pci_dma_read(pdev, a, buf + off, bc[i]) != MEMTX_OK) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SDQ%u WQE %u: DMA "
                          "read of %u bytes at 0x%" PRIx64 " failed\n",
                          sdqn, q->cons, bc[i], (uint64_t)a);
            g_free(buf);
            return false;
        }
        off += bc[i];
    }

    lp = q->lp_ignore_wqe || sx2_fget(wqe, SX2_WQE_LP);
    trace_switchx2_sdq_wqe(sdqn, q->cons, total, lp);
    /* The packet is the consumer's business, not the queue's */
    s->sdq_consumer(s, buf, total, lp);
    g_free(buf);
    return true;
}

void sx2_dma_set_sdq_consumer(SwitchX2State *s, SX2SdqConsumer *fn)
{
    s->sdq_consumer = fn;
}

static void sx2_sdq_process(SwitchX2State *s, unsigned sdqn)
{
    SX2DescQueue *q = &s->sdq[sdqn];
    unsigned budget = q->count;

    while (q->hw_owned && !q->error && q->cons != q->prod && budget--) {
        uint8_t wqe[SX2_WQE_SIZE];
        dma_addr_t addr = sx2_elem_addr(q->pa, SX2_WQE_SIZE, q->count,
                                        q->cons);
        bool ok;

        if (pci_dma_read(PCI_DEVICE(s), addr, wqe, sizeof(wqe))
            != MEMTX_OK) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SDQ%u: cannot read "
                          "WQE at 0x%" PRIx64 "\n", sdqn, (uint64_t)addr);
            ok = false;
            memset(wqe, 0, sizeof(wqe));
            sx2_fset(wqe, SX2_WQE_C, 1);
        } else {
            ok = sx2_sdq_handle_wqe(s, sdqn, q, wqe);
        }
        /* The queue may have been torn down by a reset while sending */
        if (!q->hw_owned) {
            break;
        }
        if (sx2_fget(wqe, SX2_WQE_C)) {
            sx2_sdq_complete(s, sdqn, q, !ok);
        }
        q->cons++;
    }
}

/*
 * Receive path: place a frame into the next RDQ buffer and complete it
 */

/* Total length the buffer @wqe describes */
static size_t sx2_wqe_capacity(const uint8_t *wqe)
{
    size_t cap = 0;
    unsigned i;

    for (i = 0; i < SX2_WQE_SG_ENTRIES; i++) {
        cap += lduw_be_p(wqe + SX2_WQE_BYTE_COUNT_OFF(i)) &
               SX2_WQE_BYTE_COUNT_MASK;
    }
    return cap;
}

/* Scatter @len bytes over the buffer @wqe describes */
static bool sx2_rdq_scatter(SwitchX2State *s, unsigned rdqn, uint16_t cons,
                            const uint8_t *wqe, const uint8_t *buf,
                            size_t len)
{
    size_t off = 0;
    unsigned i;

    for (i = 0; i < SX2_WQE_SG_ENTRIES && off < len; i++) {
        size_t n = lduw_be_p(wqe + SX2_WQE_BYTE_COUNT_OFF(i)) &
                   SX2_WQE_BYTE_COUNT_MASK;
        dma_addr_t a = ldq_be_p(wqe + SX2_WQE_ADDR_OFF(i));

        n = MIN(n, len - off);
        if (n && pci_dma_write(PCI_DEVICE(s), a, buf + off, n) != MEMTX_OK) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RDQ%u WQE %u: DMA "
                          "write of %zu bytes at 0x%" PRIx64 " failed\n",
                          rdqn, cons, n, (uint64_t)a);
            return false;
        }
        off += n;
    }
    return true;
}

/* A system port no local port has: what fault-rdq-bad-port reports */
static uint16_t sx2_unmapped_system_port(SwitchX2State *s)
{
    uint16_t sys = 0xFFFE;

    /* At most num_ports + 1 values are taken: this ends quickly */
    while (sx2_local_port_of_system_port(s, sys) >= 0) {
        sys--;
    }
    return sys;
}

/*
 * fault-wqe-byte-count: the WQE is in memory the device can write.  Make
 * its first buffer as large as the field allows and return that size.
 */
static size_t sx2_wqe_grow(SwitchX2State *s, SX2DescQueue *q)
{
    dma_addr_t addr = sx2_elem_addr(q->pa, SX2_WQE_SIZE, q->count, q->cons);
    uint8_t bc[2];

    stw_be_p(bc, SX2_WQE_BYTE_COUNT_MASK);
    pci_dma_write(PCI_DEVICE(s), addr + SX2_WQE_BYTE_COUNT_OFF(0), bc,
                  sizeof(bc));
    return SX2_WQE_BYTE_COUNT_MASK;
}

/*
 * Complete an RX WQE.  The RX completion faults apply here; returns
 * whether the frame counts as delivered.
 */
static bool sx2_rdq_complete(SwitchX2State *s, unsigned rdqn,
                             SX2DescQueue *q, uint32_t src,
                             uint16_t trap_id, size_t len, size_t cap,
                             bool error)
{
    uint8_t cqe[SX2_CQE_SIZE] = { 0 };
    size_t byte_count = error ? 0 : len;
    unsigned dqn = rdqn;

    if (!error && sx2_fault_take(s, SX2_FAULT_CQE_BAD_LENGTH)) {
        /* One byte more than the buffer, if the field can say so */
        byte_count = MIN(cap + 1, SX2_WQE_BYTE_COUNT_MASK);
    }
    if (!error && sx2_fault_take(s, SX2_FAULT_WQE_BYTE_COUNT)) {
        byte_count = sx2_wqe_grow(s, q);
    }
    if (sx2_fault_take(s, SX2_FAULT_CQE_FOREIGN_DQ)) {
        dqn = (rdqn + 1) % SX2_NUM_RDQS;
    }
    if (sx2_fault_take(s, SX2_FAULT_RDQ_BAD_PORT)) {
        src = sx2_unmapped_system_port(s);
    }
    /* A LAG member's frames name the LAG and the member's port index */
    sx2_fset(cqe, SX2_CQE_LAG, !!(src & SX2_CPU_SRC_LAG));
    sx2_fset(cqe, SX2_CQE_SYSTEM_PORT, src & 0xFFFF);
    sx2_fset(cqe, SX2_CQE_WQE_COUNTER, q->cons);
    sx2_fset(cqe, SX2_CQE_BYTE_COUNT, byte_count);
    sx2_fset(cqe, SX2_CQE_TRAP_ID, trap_id);
    sx2_fset(cqe, SX2_CQE_CRC, 0);
    sx2_fset(cqe, SX2_CQE_E, error);
    sx2_fset(cqe, SX2_CQE_SR, 0);
    sx2_fset(cqe, SX2_CQE_DQN, dqn);
    trace_switchx2_rx_deliver(dqn, q->cons, src, trap_id, byte_count);
    q->cons++;
    return sx2_cq_post(s, q->cqn, cqe) && !error;
}

bool sx2_rdq_deliver(SwitchX2State *s, unsigned rdqn, uint32_t src,
                     uint16_t trap_id, const uint8_t *buf, size_t len)
{
    uint8_t wqe[SX2_WQE_SIZE];
    SX2DescQueue *q;
    size_t cap;
    dma_addr_t addr;

    if (rdqn >= SX2_NUM_RDQS || !s->rdq[rdqn].hw_owned ||
        s->rdq[rdqn].error) {
        trace_switchx2_rx_drop(src, trap_id, "RDQ not usable");
        return false;
    }
    q = &s->rdq[rdqn];
    if (q->cons == q->prod) {
        trace_switchx2_rx_drop(src, trap_id, "no RDQ buffer");
        return false;
    }
    if (!sx2_cq_has_room(s, q->cqn)) {
        trace_switchx2_rx_drop(src, trap_id, "CQ full");
        return false;
    }
    addr = sx2_elem_addr(q->pa, SX2_WQE_SIZE, q->count, q->cons);
    if (pci_dma_read(PCI_DEVICE(s), addr, wqe, sizeof(wqe)) != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RDQ%u: cannot read WQE at "
                      "0x%" PRIx64 "\n", rdqn, (uint64_t)addr);
        return false;
    }
    cap = sx2_wqe_capacity(wqe);
    if (len > cap || len > SX2_WQE_BYTE_COUNT_MASK) {
        trace_switchx2_rx_drop(src, trap_id, "frame exceeds RDQ buffer");
        return false;
    }
    if (sx2_fault_take(s, SX2_FAULT_CQE_ERROR)) {
        /* The buffer is used up, the frame is not delivered */
        return sx2_rdq_complete(s, rdqn, q, src, trap_id, len, cap, true);
    }
    if (!sx2_rdq_scatter(s, rdqn, q->cons, wqe, buf, len)) {
        return false;
    }
    return sx2_rdq_complete(s, rdqn, q, src, trap_id, len, cap, false);
}

/*
 * Doorbells
 */
static void sx2_db_dq(SwitchX2State *s, unsigned opmod, unsigned n,
                      uint32_t val)
{
    SX2DescQueue *q = sx2_dq_lookup(s, opmod, n);
    uint16_t prod = val;

    if (!q || !q->hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: doorbell for %s%u which "
                      "is not owned by hardware\n", sx2_dq_kind(opmod), n);
        return;
    }
    if ((uint16_t)(prod - q->cons) > q->count) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s%u producer doorbell %u "
                      "runs more than %u ahead of consumer %u\n",
                      sx2_dq_kind(opmod), n, prod, q->count, q->cons);
        return;
    }
    q->prod = prod;
    if (opmod == SX2_OPMOD_SDQ) {
        sx2_sdq_process(s, n);
    }
}

static void sx2_db_cq(SwitchX2State *s, unsigned n, uint32_t val, bool arm)
{
    if (sx2_ring_doorbell(&sx2_cq_kind, sx2_cq_ring(s, n), n, val, arm)) {
        /* Completions the driver has not seen yet: notify right away */
        sx2_cq_event(s, n);
    }
}

static void sx2_db_eq(SwitchX2State *s, unsigned n, uint32_t val, bool arm)
{
    if (sx2_ring_doorbell(&sx2_eq_kind, sx2_eq_ring(s, n), n, val, arm)) {
        sx2_eq_fire(s, &s->eq[n]);
    }
}

void sx2_doorbell_write(SwitchX2State *s, hwaddr off, uint32_t val)
{
    unsigned type = off / SX2_DB_TYPE_SIZE;
    unsigned n = (off % SX2_DB_TYPE_SIZE) / 4;

    trace_switchx2_doorbell(type, n, val);
    switch (type * SX2_DB_TYPE_SIZE) {
    case SX2_DB_SDQ:
        sx2_db_dq(s, SX2_OPMOD_SDQ, n, val);
        break;
    case SX2_DB_RDQ:
        sx2_db_dq(s, SX2_OPMOD_RDQ, n, val);
        break;
    case SX2_DB_CQ:
        sx2_db_cq(s, n, val, false);
        break;
    case SX2_DB_EQ:
        sx2_db_eq(s, n, val, false);
        break;
    case SX2_DB_ARM_CQ:
        sx2_db_cq(s, n, val, true);
        break;
    case SX2_DB_ARM_EQ:
        sx2_db_eq(s, n, val, true);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: write to unknown doorbell "
                      "offset 0x%" HWADDR_PRIx "\n", off);
        break;
    }
}

/*
 * Queue ownership commands
 */
uint8_t sx2_cmd_sw2hw_dq(SwitchX2State *s, unsigned opmod, uint32_t dqn,
                         const uint8_t *mbox)
{
    SX2DescQueue *q = sx2_dq_lookup(s, opmod, dqn);
    unsigned log2_pages = sx2_fget(mbox, SX2_DQ_LOG2_DQ_SZ);
    unsigned cqn = sx2_fget(mbox, SX2_DQ_CQ);

    if (opmod > SX2_OPMOD_RDQ) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_DQ opmod %u\n",
                      opmod);
        return SX2_CMD_STATUS_BAD_OP;
    }
    if (!q) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_DQ: no %s%u\n",
                      sx2_dq_kind(opmod), dqn);
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    if (q->hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_DQ: %s%u already "
                      "owned by hardware\n", sx2_dq_kind(opmod), dqn);
        return SX2_CMD_STATUS_BAD_RES_STATE;
    }
    /* The exponent is guest input: bound it before shifting by it */
    if (log2_pages > SX2_LOG2_MAX_DQ_PAGES) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_DQ: %s%u size 2^%u "
                      "pages unsupported\n", sx2_dq_kind(opmod), dqn,
                      log2_pages);
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    if (cqn >= SX2_NUM_CQS || !s->cq[cqn].ring.hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_DQ: %s%u bound to "
                      "CQ%u which is not owned by hardware\n",
                      sx2_dq_kind(opmod), dqn, cqn);
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    memset(q, 0, sizeof(*q));
    q->log2_pages = log2_pages;
    q->count = ((1u << log2_pages) * SX2_PAGE_SIZE) / SX2_WQE_SIZE;
    q->cqn = cqn;
    if (opmod == SX2_OPMOD_SDQ) {
        q->tclass = sx2_fget(mbox, SX2_DQ_SDQ_TCLASS);
        q->lp_ignore_wqe = sx2_fget(mbox, SX2_DQ_SDQ_LP);
    }
    sx2_read_pages(mbox, SX2_DQ_PA_OFF(0), SX2_DQ_PA_MASK, 1u << log2_pages,
                   q->pa);
    q->hw_owned = true;
    trace_switchx2_queue_create(sx2_dq_kind(opmod), dqn, q->count, cqn);
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_hw2sw_dq(SwitchX2State *s, unsigned opmod, uint32_t dqn)
{
    SX2DescQueue *q = sx2_dq_lookup(s, opmod, dqn);

    if (opmod > SX2_OPMOD_RDQ) {
        return SX2_CMD_STATUS_BAD_OP;
    }
    if (!q) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: HW2SW_DQ: no %s%u\n",
                      sx2_dq_kind(opmod), dqn);
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    if (!q->hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: HW2SW_DQ: %s%u not owned "
                      "by hardware\n", sx2_dq_kind(opmod), dqn);
        return SX2_CMD_STATUS_BAD_RES_STATE;
    }
    memset(q, 0, sizeof(*q));
    trace_switchx2_queue_destroy(sx2_dq_kind(opmod), dqn);
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_2err_dq(SwitchX2State *s, unsigned opmod, uint32_t dqn)
{
    SX2DescQueue *q = sx2_dq_lookup(s, opmod, dqn);

    if (opmod > SX2_OPMOD_RDQ) {
        return SX2_CMD_STATUS_BAD_OP;
    }
    if (!q) {
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    if (!q->hw_owned) {
        return SX2_CMD_STATUS_BAD_RES_STATE;
    }
    q->error = true;
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_query_dq(SwitchX2State *s, unsigned opmod, uint32_t dqn,
                         uint8_t *mbox)
{
    SX2DescQueue *q = sx2_dq_lookup(s, opmod, dqn);
    unsigned i;

    if (opmod > SX2_OPMOD_RDQ) {
        return SX2_CMD_STATUS_BAD_OP;
    }
    if (!q) {
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    if (!q->hw_owned) {
        return SX2_CMD_STATUS_BAD_RES_STATE;
    }
    sx2_fset(mbox, SX2_DQ_CQ, q->cqn);
    sx2_fset(mbox, SX2_DQ_SDQ_LP, q->lp_ignore_wqe);
    sx2_fset(mbox, SX2_DQ_SDQ_TCLASS, q->tclass);
    sx2_fset(mbox, SX2_DQ_LOG2_DQ_SZ, q->log2_pages);
    for (i = 0; i < (1u << q->log2_pages); i++) {
        sx2_set64(mbox, SX2_DQ_PA_OFF(i), q->pa[i]);
    }
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_sw2hw_cq(SwitchX2State *s, uint32_t cqn, const uint8_t *mbox)
{
    SX2Ring *r = sx2_cq_ring(s, cqn);
    uint8_t st = sx2_ring_check_create(&sx2_cq_kind, r, cqn, mbox);

    if (st != SX2_CMD_STATUS_OK) {
        return st;
    }
    if (sx2_fget(mbox, SX2_CQ_CQE_VER) != 0) {
        /* Only CQE version 0 exists on this ASIC */
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_CQ: CQ%u asks for "
                      "CQE format %u\n", cqn, sx2_fget(mbox, SX2_CQ_CQE_VER));
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    sx2_ring_create(&sx2_cq_kind, r, mbox);
    r->armed = sx2_fget(mbox, SX2_CQ_ST);
    s->cq[cqn].eqn = sx2_fget(mbox, SX2_CQ_C_EQN);
    trace_switchx2_queue_create("CQ", cqn, r->count, s->cq[cqn].eqn);
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_hw2sw_cq(SwitchX2State *s, uint32_t cqn)
{
    SX2Ring *r = sx2_cq_ring(s, cqn);
    uint8_t st = sx2_ring_lookup(&sx2_cq_kind, r, cqn, "HW2SW");
    unsigned i;

    if (st != SX2_CMD_STATUS_OK) {
        return st;
    }
    for (i = 0; i < SX2_NUM_SDQS + SX2_NUM_RDQS; i++) {
        SX2DescQueue *dq = i < SX2_NUM_SDQS ? &s->sdq[i]
                                            : &s->rdq[i - SX2_NUM_SDQS];

        if (dq->hw_owned && dq->cqn == cqn) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: HW2SW_CQ: CQ%u still "
                          "used by a descriptor queue\n", cqn);
            return SX2_CMD_STATUS_BAD_RES_STATE;
        }
    }
    memset(&s->cq[cqn], 0, sizeof(s->cq[cqn]));
    trace_switchx2_queue_destroy("CQ", cqn);
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_query_cq(SwitchX2State *s, uint32_t cqn, uint8_t *mbox)
{
    SX2Ring *r = sx2_cq_ring(s, cqn);
    uint8_t st = sx2_ring_lookup(&sx2_cq_kind, r, cqn, "QUERY");

    if (st != SX2_CMD_STATUS_OK) {
        return st;
    }
    sx2_ring_query(&sx2_cq_kind, r, mbox);
    sx2_fset(mbox, SX2_CQ_C_EQN, s->cq[cqn].eqn);
    sx2_fset(mbox, SX2_CQ_ST, r->armed);
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_sw2hw_eq(SwitchX2State *s, uint32_t eqn, const uint8_t *mbox)
{
    SX2Ring *r = sx2_eq_ring(s, eqn);
    uint8_t st = sx2_ring_check_create(&sx2_eq_kind, r, eqn, mbox);
    unsigned state = sx2_fget(mbox, SX2_EQ_ST);
    SX2EventQueue *q;

    if (st != SX2_CMD_STATUS_OK) {
        return st;
    }
    if (state != SX2_EQ_ST_FIRED && state != SX2_EQ_ST_ARMED &&
        state != SX2_EQ_ST_ALWAYS_ARMED) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_EQ: EQ%u state %u "
                      "reserved\n", eqn, state);
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    q = &s->eq[eqn];
    sx2_ring_create(&sx2_eq_kind, r, mbox);
    r->armed = state == SX2_EQ_ST_ARMED;
    q->always_armed = state == SX2_EQ_ST_ALWAYS_ARMED;
    q->int_msix = sx2_fget(mbox, SX2_EQ_INT_MSIX);
    if (!q->int_msix) {
        qemu_log_mask(LOG_UNIMP, "switchx2: EQ%u wants INTx interrupts; "
                      "only MSI-X is implemented\n", eqn);
    }
    trace_switchx2_queue_create("EQ", eqn, r->count, 0);
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_hw2sw_eq(SwitchX2State *s, uint32_t eqn)
{
    SX2Ring *r = sx2_eq_ring(s, eqn);
    uint8_t st = sx2_ring_lookup(&sx2_eq_kind, r, eqn, "HW2SW");
    unsigned i;

    if (st != SX2_CMD_STATUS_OK) {
        return st;
    }
    for (i = 0; i < SX2_NUM_CQS; i++) {
        if (s->cq[i].ring.hw_owned && s->cq[i].eqn == eqn) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: HW2SW_EQ: EQ%u still "
                          "used by CQ%u\n", eqn, i);
            return SX2_CMD_STATUS_BAD_RES_STATE;
        }
    }
    memset(&s->eq[eqn], 0, sizeof(s->eq[eqn]));
    trace_switchx2_queue_destroy("EQ", eqn);
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_query_eq(SwitchX2State *s, uint32_t eqn, uint8_t *mbox)
{
    SX2Ring *r = sx2_eq_ring(s, eqn);
    uint8_t st = sx2_ring_lookup(&sx2_eq_kind, r, eqn, "QUERY");
    SX2EventQueue *q;

    if (st != SX2_CMD_STATUS_OK) {
        return st;
    }
    q = &s->eq[eqn];
    sx2_ring_query(&sx2_eq_kind, r, mbox);
    sx2_fset(mbox, SX2_EQ_INT_MSIX, q->int_msix);
    sx2_fset(mbox, SX2_EQ_ST, q->always_armed ? SX2_EQ_ST_ALWAYS_ARMED :
                              r->armed ? SX2_EQ_ST_ARMED : SX2_EQ_ST_FIRED);
    return SX2_CMD_STATUS_OK;
}
