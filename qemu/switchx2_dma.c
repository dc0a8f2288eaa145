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

/*
 * Event queues
 */
static void sx2_eq_fire(SwitchX2State *s, SX2EventQueue *q)
{
    if (!q->always_armed) {
        q->armed = false;
    }
    if (q->int_msix) {
        sx2_irq_notify(s);
    }
}

bool sx2_eq_post(SwitchX2State *s, unsigned eqn, uint8_t *eqe)
{
    SX2EventQueue *q;
    dma_addr_t addr;

    if (eqn >= SX2_NUM_EQS || !s->eq[eqn].hw_owned) {
        return false;
    }
    q = &s->eq[eqn];
    if ((uint16_t)(q->prod - q->cons) >= q->count) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: EQ%u overflow, event "
                      "dropped (prod %u cons %u)\n", eqn, q->prod, q->cons);
        return false;
    }
    sx2_fset(eqe, SX2_EQE_OWNER, !!(q->prod & q->count));
    addr = sx2_elem_addr(q->pa, SX2_EQE_SIZE, q->count, q->prod);
    if (!sx2_write_elem(s, addr, eqe)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: EQ%u: DMA write to 0x%"
                      PRIx64 " failed\n", eqn, (uint64_t)addr);
        return false;
    }
    trace_switchx2_eqe(eqn, q->prod, sx2_fget(eqe, SX2_EQE_EVENT_TYPE),
                       q->armed);
    q->prod++;
    if (q->armed || q->always_armed) {
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

    q->armed = false;
    sx2_fset(eqe, SX2_EQE_EVENT_TYPE, SX2_EQE_TYPE_COMP);
    sx2_fset(eqe, SX2_EQE_CQN, cqn);
    if (!sx2_eq_post(s, q->eqn, eqe)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: CQ%u: completion event "
                      "lost, EQ%u not usable\n", cqn, q->eqn);
    }
}

static bool sx2_cq_has_room(SwitchX2State *s, unsigned cqn)
{
    SX2CompQueue *q;

    if (cqn >= SX2_NUM_CQS || !s->cq[cqn].hw_owned) {
        return false;
    }
    q = &s->cq[cqn];
    return (uint16_t)(q->prod - q->cons) < q->count;
}

static bool sx2_cq_post(SwitchX2State *s, unsigned cqn, uint8_t *cqe)
{
    SX2CompQueue *q;
    dma_addr_t addr;

    if (!sx2_cq_has_room(s, cqn)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: CQ%u missing or full, "
                      "completion dropped\n", cqn);
        return false;
    }
    q = &s->cq[cqn];
    sx2_fset(cqe, SX2_CQE_OWNER, !!(q->prod & q->count));
    addr = sx2_elem_addr(q->pa, SX2_CQE_SIZE, q->count, q->prod);
    if (!sx2_write_elem(s, addr, cqe)) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: CQ%u: DMA write to 0x%"
                      PRIx64 " failed\n", cqn, (uint64_t)addr);
        return false;
    }
    trace_switchx2_cqe(cqn, q->prod, sx2_fget(cqe, SX2_CQE_SR),
                       sx2_fget(cqe, SX2_CQE_DQN),
                       sx2_fget(cqe, SX2_CQE_WQE_COUNTER),
                       sx2_fget(cqe, SX2_CQE_TRAP_ID),
                       sx2_fget(cqe, SX2_CQE_BYTE_COUNT));
    q->prod++;
    if (q->armed) {
        sx2_cq_event(s, cqn);
    }
    return true;
}

/*
 * Send path: gather one WQE, hand it to EMAD or forwarding, complete it
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
    bool local;
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

    local = q->lp_ignore_wqe || sx2_fget(wqe, SX2_WQE_LP) ||
            sx2_fget(buf, SX2_TXHDR_EMAD);
    trace_switchx2_sdq_wqe(sdqn, q->cons, total, local);
    if (local) {
        sx2_emad_rx_from_cpu(s, buf + SX2_TXHDR_LEN, total - SX2_TXHDR_LEN);
    } else {
        sx2_fwd_from_cpu(s, buf, buf + SX2_TXHDR_LEN, total - SX2_TXHDR_LEN);
    }
    g_free(buf);
    return true;
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
bool sx2_rdq_deliver(SwitchX2State *s, unsigned rdqn, uint16_t sys_port,
                     uint16_t trap_id, const uint8_t *buf, size_t len)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint8_t wqe[SX2_WQE_SIZE];
    uint8_t cqe[SX2_CQE_SIZE] = { 0 };
    SX2DescQueue *q;
    size_t cap = 0, off = 0;
    dma_addr_t addr;
    unsigned i;

    if (rdqn >= SX2_NUM_RDQS || !s->rdq[rdqn].hw_owned ||
        s->rdq[rdqn].error) {
        trace_switchx2_rx_drop(sys_port, trap_id, "RDQ not usable");
        return false;
    }
    q = &s->rdq[rdqn];
    if (q->cons == q->prod) {
        trace_switchx2_rx_drop(sys_port, trap_id, "no RDQ buffer");
        return false;
    }
    if (!sx2_cq_has_room(s, q->cqn)) {
        trace_switchx2_rx_drop(sys_port, trap_id, "CQ full");
        return false;
    }
    addr = sx2_elem_addr(q->pa, SX2_WQE_SIZE, q->count, q->cons);
    if (pci_dma_read(pdev, addr, wqe, sizeof(wqe)) != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RDQ%u: cannot read WQE at "
                      "0x%" PRIx64 "\n", rdqn, (uint64_t)addr);
        return false;
    }
    for (i = 0; i < SX2_WQE_SG_ENTRIES; i++) {
        cap += lduw_be_p(wqe + SX2_WQE_BYTE_COUNT_OFF(i)) &
               SX2_WQE_BYTE_COUNT_MASK;
    }
    if (len > cap || len > SX2_WQE_BYTE_COUNT_MASK) {
        trace_switchx2_rx_drop(sys_port, trap_id, "frame exceeds RDQ buffer");
        return false;
    }
    for (i = 0; i < SX2_WQE_SG_ENTRIES && off < len; i++) {
        size_t n = lduw_be_p(wqe + SX2_WQE_BYTE_COUNT_OFF(i)) &
                   SX2_WQE_BYTE_COUNT_MASK;
        dma_addr_t a = ldq_be_p(wqe + SX2_WQE_ADDR_OFF(i));

        n = MIN(n, len - off);
        if (n && pci_dma_write(pdev, a, buf + off, n) != MEMTX_OK) {
            qemu_log_mask(LOG_GUEST_ERROR, "switchx2: RDQ%u WQE %u: DMA "
                          "write of %zu bytes at 0x%" PRIx64 " failed\n",
                          rdqn, q->cons, n, (uint64_t)a);
            return false;
        }
        off += n;
    }

    sx2_fset(cqe, SX2_CQE_LAG, 0);
    sx2_fset(cqe, SX2_CQE_SYSTEM_PORT, sys_port);
    sx2_fset(cqe, SX2_CQE_WQE_COUNTER, q->cons);
    sx2_fset(cqe, SX2_CQE_BYTE_COUNT, len);
    sx2_fset(cqe, SX2_CQE_TRAP_ID, trap_id);
    sx2_fset(cqe, SX2_CQE_CRC, 0);
    sx2_fset(cqe, SX2_CQE_SR, 0);
    sx2_fset(cqe, SX2_CQE_DQN, rdqn);
    trace_switchx2_rx_deliver(rdqn, q->cons, sys_port, trap_id, len);
    q->cons++;
    return sx2_cq_post(s, q->cqn, cqe);
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

/*
 * CQ and EQ doorbells share one format. The consumer doorbell carries the
 * consumer counter plus the queue size, the arm doorbell the bare counter;
 * either must fall within the entries the hardware has produced.
 */
static bool sx2_db_consumer(const char *kind, unsigned n, uint32_t val,
                            bool arm, uint16_t prod, uint16_t cur_cons,
                            uint16_t count, uint16_t *cons)
{
    *cons = arm ? (uint16_t)val : (uint16_t)(val - count);
    if ((uint16_t)(prod - *cons) > count) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %s%u %sdoorbell %u is not "
                      "within the %u outstanding %sEs\n", kind, n,
                      arm ? "arm " : "", *cons, (uint16_t)(prod - cur_cons),
                      kind);
        return false;
    }
    return true;
}

static void sx2_db_cq(SwitchX2State *s, unsigned n, uint32_t val, bool arm)
{
    SX2CompQueue *q = n < SX2_NUM_CQS ? &s->cq[n] : NULL;
    uint16_t cons;

    if (!q || !q->hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %sdoorbell for CQ%u which "
                      "is not owned by hardware\n", arm ? "arm " : "", n);
        return;
    }
    if (!sx2_db_consumer("CQ", n, val, arm, q->prod, q->cons, q->count,
                         &cons)) {
        return;
    }
    if (!arm) {
        q->cons = cons;
        return;
    }
    q->armed = true;
    if (cons != q->prod) {
        /* Completions the driver has not seen yet: notify right away */
        sx2_cq_event(s, n);
    }
}

static void sx2_db_eq(SwitchX2State *s, unsigned n, uint32_t val, bool arm)
{
    SX2EventQueue *q = n < SX2_NUM_EQS ? &s->eq[n] : NULL;
    uint16_t cons;

    if (!q || !q->hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: %sdoorbell for EQ%u which "
                      "is not owned by hardware\n", arm ? "arm " : "", n);
        return;
    }
    if (!sx2_db_consumer("EQ", n, val, arm, q->prod, q->cons, q->count,
                         &cons)) {
        return;
    }
    if (!arm) {
        q->cons = cons;
        return;
    }
    q->armed = true;
    if (cons != q->prod) {
        sx2_eq_fire(s, q);
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
static bool sx2_read_pages(const uint8_t *mbox, unsigned first_off,
                           uint64_t mask, unsigned npages, uint64_t *pa)
{
    unsigned i;

    for (i = 0; i < npages; i++) {
        pa[i] = sx2_get64(mbox, first_off + 8 * i) & mask;
    }
    return true;
}

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
    if (cqn >= SX2_NUM_CQS || !s->cq[cqn].hw_owned) {
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

static unsigned sx2_ring_pages(unsigned count, unsigned esize)
{
    return MAX(1u, (count * esize + SX2_PAGE_SIZE - 1) / SX2_PAGE_SIZE);
}

uint8_t sx2_cmd_sw2hw_cq(SwitchX2State *s, uint32_t cqn, const uint8_t *mbox)
{
    SX2CompQueue *q = cqn < SX2_NUM_CQS ? &s->cq[cqn] : NULL;
    unsigned log_size = sx2_fget(mbox, SX2_CQ_LOG_CQ_SIZE);
    unsigned eqn = sx2_fget(mbox, SX2_CQ_C_EQN);

    if (!q) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_CQ: no CQ%u\n", cqn);
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    if (q->hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_CQ: CQ%u already "
                      "owned by hardware\n", cqn);
        return SX2_CMD_STATUS_BAD_RES_STATE;
    }
    if (log_size > SX2_LOG_MAX_CQ_SZ) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_CQ: CQ%u size 2^%u "
                      "too big\n", cqn, log_size);
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    if (sx2_fget(mbox, SX2_CQ_CQE_VER) != 0) {
        /* Only CQE version 0 exists on this ASIC */
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_CQ: CQ%u asks for "
                      "CQE format %u\n", cqn, sx2_fget(mbox, SX2_CQ_CQE_VER));
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    memset(q, 0, sizeof(*q));
    q->log_size = log_size;
    q->count = 1u << log_size;
    q->eqn = eqn;
    q->armed = sx2_fget(mbox, SX2_CQ_ST);
    q->prod = sx2_fget(mbox, SX2_CQ_PRODUCER_COUNTER);
    q->cons = q->prod;
    sx2_read_pages(mbox, SX2_CQ_PA_OFF(0), SX2_CQ_PA_MASK,
                   sx2_ring_pages(q->count, SX2_CQE_SIZE), q->pa);
    q->hw_owned = true;
    trace_switchx2_queue_create("CQ", cqn, q->count, eqn);
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_hw2sw_cq(SwitchX2State *s, uint32_t cqn)
{
    unsigned i;

    if (cqn >= SX2_NUM_CQS) {
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    if (!s->cq[cqn].hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: HW2SW_CQ: CQ%u not owned "
                      "by hardware\n", cqn);
        return SX2_CMD_STATUS_BAD_RES_STATE;
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
    SX2CompQueue *q;
    unsigned i;

    if (cqn >= SX2_NUM_CQS) {
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    q = &s->cq[cqn];
    if (!q->hw_owned) {
        return SX2_CMD_STATUS_BAD_RES_STATE;
    }
    sx2_fset(mbox, SX2_CQ_C_EQN, q->eqn);
    sx2_fset(mbox, SX2_CQ_ST, q->armed);
    sx2_fset(mbox, SX2_CQ_LOG_CQ_SIZE, q->log_size);
    sx2_fset(mbox, SX2_CQ_PRODUCER_COUNTER, q->prod);
    for (i = 0; i < sx2_ring_pages(q->count, SX2_CQE_SIZE); i++) {
        sx2_set64(mbox, SX2_CQ_PA_OFF(i), q->pa[i]);
    }
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_sw2hw_eq(SwitchX2State *s, uint32_t eqn, const uint8_t *mbox)
{
    SX2EventQueue *q = eqn < SX2_NUM_EQS ? &s->eq[eqn] : NULL;
    unsigned log_size = sx2_fget(mbox, SX2_EQ_LOG_EQ_SIZE);
    unsigned st = sx2_fget(mbox, SX2_EQ_ST);

    if (!q) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_EQ: no EQ%u\n", eqn);
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    if (q->hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_EQ: EQ%u already "
                      "owned by hardware\n", eqn);
        return SX2_CMD_STATUS_BAD_RES_STATE;
    }
    if (log_size > SX2_LOG_MAX_EQ_SZ) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_EQ: EQ%u size 2^%u "
                      "too big\n", eqn, log_size);
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    if (st != SX2_EQ_ST_FIRED && st != SX2_EQ_ST_ARMED &&
        st != SX2_EQ_ST_ALWAYS_ARMED) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: SW2HW_EQ: EQ%u state %u "
                      "reserved\n", eqn, st);
        return SX2_CMD_STATUS_BAD_PARAM;
    }
    memset(q, 0, sizeof(*q));
    q->log_size = log_size;
    q->count = 1u << log_size;
    q->int_msix = sx2_fget(mbox, SX2_EQ_INT_MSIX);
    q->armed = st == SX2_EQ_ST_ARMED;
    q->always_armed = st == SX2_EQ_ST_ALWAYS_ARMED;
    q->prod = sx2_fget(mbox, SX2_EQ_PRODUCER_COUNTER);
    q->cons = q->prod;
    if (!q->int_msix) {
        qemu_log_mask(LOG_UNIMP, "switchx2: EQ%u wants INTx interrupts; "
                      "only MSI-X is implemented\n", eqn);
    }
    sx2_read_pages(mbox, SX2_EQ_PA_OFF(0), SX2_EQ_PA_MASK,
                   sx2_ring_pages(q->count, SX2_EQE_SIZE), q->pa);
    q->hw_owned = true;
    trace_switchx2_queue_create("EQ", eqn, q->count, 0);
    return SX2_CMD_STATUS_OK;
}

uint8_t sx2_cmd_hw2sw_eq(SwitchX2State *s, uint32_t eqn)
{
    unsigned i;

    if (eqn >= SX2_NUM_EQS) {
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    if (!s->eq[eqn].hw_owned) {
        qemu_log_mask(LOG_GUEST_ERROR, "switchx2: HW2SW_EQ: EQ%u not owned "
                      "by hardware\n", eqn);
        return SX2_CMD_STATUS_BAD_RES_STATE;
    }
    for (i = 0; i < SX2_NUM_CQS; i++) {
        if (s->cq[i].hw_owned && s->cq[i].eqn == eqn) {
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
    SX2EventQueue *q;
    unsigned i;

    if (eqn >= SX2_NUM_EQS) {
        return SX2_CMD_STATUS_BAD_INDEX;
    }
    q = &s->eq[eqn];
    if (!q->hw_owned) {
        return SX2_CMD_STATUS_BAD_RES_STATE;
    }
    sx2_fset(mbox, SX2_EQ_INT_MSIX, q->int_msix);
    sx2_fset(mbox, SX2_EQ_ST, q->always_armed ? SX2_EQ_ST_ALWAYS_ARMED :
                              q->armed ? SX2_EQ_ST_ARMED : SX2_EQ_ST_FIRED);
    sx2_fset(mbox, SX2_EQ_LOG_EQ_SIZE, q->log_size);
    sx2_fset(mbox, SX2_EQ_PRODUCER_COUNTER, q->prod);
    for (i = 0; i < sx2_ring_pages(q->count, SX2_EQE_SIZE); i++) {
        sx2_set64(mbox, SX2_EQ_PA_OFF(i), q->pa[i]);
    }
    return SX2_CMD_STATUS_OK;
}
