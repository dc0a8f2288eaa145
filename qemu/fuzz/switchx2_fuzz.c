/*
 * Fuzz target for the emulated Mellanox SwitchX-2 switch ASIC (switchx2)
 *
 * Before fuzzing, the target brings the device up the way the Linux
 * mlxsw_pci + switchx2 driver does at probe time (and as
 * qemu/tests/sx2_qtest.py does): PCI BAR and bus mastering, MSI-X,
 * MRSR, QUERY_FW, MAP_FA, CONFIG_PROFILE, QUERY_AQ_CAP, the event,
 * completion, send and receive queues with receive buffers posted,
 * traps, flood tables, STP and learning, and every port up.  Each input
 * then runs in a forked child of that state (fork_fuzz.c), so inputs
 * never see each other's effects.
 *
 * The switch sits behind a PCI bridge, as in the guest tests, so that a
 * secondary bus reset resets it and nothing else.  Four front panel
 * ports are each cabled to a QEMU hub of their own.
 * A second port on every hub has no peer: the target injects ingress
 * frames by handing them to that port as if they came off the wire
 * (qemu_receive_packet), and the hub carries them to the switch.
 *
 * Input format.  An input is a sequence of operations separated by the
 * four bytes "SX2|".  The first byte of an operation selects it, modulo
 * the number of operations.  Its fields follow, multi-byte ones
 * big-endian; fields the input does not supply read as zero.  What
 * follows the fields is the operation's payload.
 *
 *   0 CMD     u16 opcode, u8 flags, u32 in_mod, mailbox...
 *             Command interface.  opcode < 0x100 picks one of the
 *             commands the driver uses (modulo their number), any
 *             other value is the raw 12-bit opcode.  flags: bits 0-3
 *             opmod, bit 4 event completion, bit 5 input mailbox and
 *             bit 6 output mailbox outside guest RAM.
 *   1 REG     u16 register, u8 method, u8 length, payload...
 *             Register access by ACCESS_REG: a well formed operation
 *             TLV and register TLV.  register < 0x100 picks one of the
 *             registers the driver uses, any other value is the raw
 *             register ID.  method: bit 0 write (else query); with
 *             bit 7 set, bits 2-6 are the raw method.  length: payload
 *             dwords, 0 for 0x420 bytes; missing payload reads as zero.
 *   2 EMAD    like REG, sent as an EMAD frame on SDQ 0 with the EMAD
 *             bit of the TX header set; method bit 1 adds a string TLV.
 *             The queues are then serviced.
 *   3 TX      u8 sdq, u16 port, u8 flags, frame...
 *             CPU transmit of a frame through an SDQ (modulo their
 *             number) to a local port.  flags: bit 0 EMAD bit, bit 1
 *             data (else control) packet, bit 2 the payload's first 16
 *             bytes are the whole TX header, bit 3 no completion asked.
 *             The queues are then serviced.
 *   4 RX      u8 port, frame...
 *             Ingress frame on front panel port 1 + port % 4; the
 *             queues are then serviced.
 *   5 DB      u16 offset, u32 value
 *             Doorbell write, offset modulo the doorbell page.
 *   6 MMIO    u32 offset, u32 value, u8 flags
 *             BAR0 access (offset modulo the BAR, dword aligned): write,
 *             or read when flags bit 0 is set.
 *   7 DMA     u8 region, u32 offset, data...
 *             Guest memory write into one of the areas the driver gave
 *             the device (mailboxes, EQ/CQ/SDQ/RDQ rings, RX and TX
 *             buffers, the MSI-X message page), offset modulo its size.
 *   8 CLOCK   u8 unit, u16 count
 *             Advance the virtual clock by count ns, us, ms or s, and
 *             by CLOCK_BUDGET_S in all per input: virtual time costs
 *             real time (the PC's own timers, the PIT at 18 Hz, tick
 *             along), and FDB ageing needs no more.
 *   9 SERVICE Poll every CQ and EQ like the interrupt handler: repost
 *             RX buffers, ring consumer and arm doorbells.
 *  10 RESET   u8 kind
 *             0: MRSR and bring the device up again, 1: MRSR only,
 *             2: device reset (secondary bus reset by the bridge above
 *             it) and bring-up again, 3: device reset only.  Only the
 *             first RESET_BUDGET of an input act; a bring-up takes
 *             tens of milliseconds, and a few hundred of them would
 *             pass for a hang.
 *
 * Checks beyond the sanitizers: bring-up after a reset must succeed,
 * and after every input the device must still complete QUERY_FW.
 * A failed check aborts, which libFuzzer records as a crash.
 *
 * qemu/tests/sx2_fuzz_regress.py replays inputs in this format through
 * the qtest protocol.
 *
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"

#include <sys/prctl.h>

#include "hw/core/cpu.h"
#include "net/net.h"
#include "qemu/timer.h"
#include "tests/qtest/libqtest.h"
#include "tests/qtest/fuzz/fuzz.h"
#include "tests/qtest/fuzz/fork_fuzz.h"

#define SEPARATOR           "SX2|"

/* Guest physical memory the driver side uses */
#define BAR0_ADDR           0xe0000000ull
#define MSI_ADDR            0x1000
#define MSI_DATA            0xabcd
#define IN_MBOX             0x10000
#define OUT_MBOX            0x11000
#define EQ_BASE             0x20000
#define CQ_BASE             0x100000
#define SDQ_BASE            0x200000
#define RDQ_BASE            0x300000
#define RX_BUF_BASE         0x800000
#define TX_BUF_BASE         0xc00000
#define WILD_ADDR           0xfffffffff000ull   /* beyond guest RAM */
#define RING_SPAN           0x8000              /* 8 pages per queue */
#define BUF_SPAN            0x10000             /* 4 buffers per queue */
#define BUF_SIZE            0x4000
#define RX_BUF_BYTES        10000

/* BAR0 */
#define BAR0_SIZE           0x100000
#define CIR_IN_PARAM_HI     0x71000
#define CIR_IN_PARAM_LO     0x71004
#define CIR_IN_MODIFIER     0x71008
#define CIR_OUT_PARAM_HI    0x7100c
#define CIR_OUT_PARAM_LO    0x71010
#define CIR_TOKEN           0x71014
#define CIR_CTRL            0x71018
#define CIR_CTRL_GO         (1u << 23)
#define CIR_CTRL_EVREQ      (1u << 22)
#define DB_PAGE             0x80000
#define DB_PAGE_SIZE        0xc00
#define DB_SDQ              0x000
#define DB_RDQ              0x200
#define DB_CQ               0x400
#define DB_EQ               0x600
#define DB_ARM_CQ           0x800
#define DB_ARM_EQ           0xa00
#define FW_READY            0xa1844     /* reads 0 on SwitchX-2 */
#define SW_RESET            0xf0010

#define PCI_ID_SWITCHX2     0xc73815b3u     /* device << 16 | vendor */
#define PCI_ID_BRIDGE       0x00011b36u     /* QEMU's pci-bridge */
#define SX2_BUS             1               /* the bridge's secondary bus */
#define BRIDGE_CTL_SBR      (1u << 22)      /* at 0x3c: bus reset (0x3e.6) */
#define BRIDGE_MEM_WINDOW   0xe000e000u     /* 0xe0000000-0xe00fffff */

/* Commands */
#define CMD_QUERY_AQ_CAP    0x003
#define CMD_QUERY_FW        0x004
#define CMD_SW2HW_EQ        0x013
#define CMD_SW2HW_CQ        0x016
#define CMD_ACCESS_REG      0x040
#define CMD_CONFIG_PROFILE  0x100
#define CMD_SW2HW_DQ        0x201
#define CMD_MAP_FA          0xfff

/* Registers */
#define REG_SPMS            0x200d
#define REG_SFGC            0x2011
#define REG_SFTR            0x2012
#define REG_SPMLR           0x2018
#define REG_PAOS            0x5006
#define REG_HTGT            0x7002
#define REG_HPKT            0x7003
#define REG_MRSR            0x9023
#define REG_MAX_LEN         0x420

#define EMAD_METHOD_QUERY   1
#define EMAD_METHOD_WRITE   2
#define EMAD_ETHERTYPE      0x8932
#define EMAD_ETH_HDR_LEN    16
#define OP_TLV_LEN          16
#define STRING_TLV_LEN      132
#define TXHDR_LEN           16
#define WQE_SIZE            32
#define WQE_MAX_BYTES       0x3fff
#define ELEM_SIZE           16          /* CQE v0 and EQE */

#define LOG_RING            11          /* EQ and CQ: 2048 elements */
#define RING_COUNT          (1u << LOG_RING)
#define DQ_COUNT            1024        /* 8 pages of WQEs */
#define RX_BUFS             4

/* What one input may spend (see CLOCK and RESET above) */
#define CLOCK_BUDGET_S      1200
#define RESET_BUDGET        4

#define MAX_SDQ             8
#define MAX_RDQ             32
#define MAX_CQ              96
#define MAX_EQ              2

#define TRAP_FDB_MC         0x01
#define TRAP_ETHEMAD        0x05
#define TRAP_PUDE           0x08
#define TRAP_STP            0x10
#define TRAP_LACP           0x11
#define TRAP_LLDP           0x13
#define EMAD_RDQ            0x15
#define EVENT_RDQ           0x14

#define SX2_PORTS           6           /* local ports 1..6 */
#define SX2_WIRED           4           /* 1..4 cabled to injectors */

/* Commands and registers the driver uses; REG and CMD pick from these */
static const uint16_t known_cmds[] = {
    0x003, 0x004, 0x006, 0x013, 0x014, 0x015, 0x016, 0x017, 0x018,
    0x01e, 0x022, 0x040, 0x100, 0x101, 0x201, 0x202, 0xffe, 0xfff,
};

static const uint16_t known_regs[] = {
    0x2000, 0x2002, 0x2008, 0x2009, 0x200a, 0x200b, 0x200d, 0x200e,
    0x200f, 0x2010, 0x2011, 0x2012, 0x2013, 0x2018, 0x201c, 0x201e,
    0x201f, 0x2020, 0x5002, 0x5003, 0x5004, 0x5005, 0x5006, 0x5008,
    0x500a, 0x500d, 0x7002, 0x7003, 0x9020, 0x9023, 0x9100,
    /* appended: older corpus selectors keep their register */
    0x2007, 0x4004, 0x2014, 0x2015, 0x2016, 0x901a, 0x901b,
    0x8001, 0x8002, 0x800b, 0x8008, 0x8010, 0x8011, 0x8012, 0x8013,
    0x8014, 0x8018,
};

/* What the driver side knows about the device, copied into each child */
typedef struct SX2Driver {
    QTestState *qts;
    unsigned bridge_bdf;
    unsigned bdf;                           /* bus << 8 | devfn */
    unsigned num_sdq, num_rdq, num_cq, num_eq;
    uint16_t sdq_pc[MAX_SDQ];
    uint16_t rdq_pc[MAX_RDQ];
    uint16_t cq_cc[MAX_CQ];
    uint16_t eq_cc[MAX_EQ];
    uint64_t tid;
    NetClientState *inject[SX2_WIRED];
    int64_t clock_left_ns;                  /* of this input */
    unsigned resets_left;
} SX2Driver;

static SX2Driver drv;

/* Big-endian field helpers, as the PRM describes registers */
static uint32_t be32(const uint8_t *b, unsigned off)
{
    return ldl_be_p(b + off);
}

static uint32_t fget(const uint8_t *b, unsigned off, unsigned shift,
                     unsigned bits)
{
    return (be32(b, off) >> shift) & ((1ull << bits) - 1);
}

static void fset(uint8_t *b, unsigned off, unsigned shift, unsigned bits,
                 uint32_t v)
{
    uint32_t mask = ((1ull << bits) - 1) << shift;

    stl_be_p(b + off, (be32(b, off) & ~mask) | ((v << shift) & mask));
}

/*
 * Device access
 */
static void bar_write(uint32_t off, uint32_t val)
{
    uint8_t b[4];

    stl_be_p(b, val);
    qtest_memwrite(drv.qts, BAR0_ADDR + off, b, 4);
}

static uint32_t bar_read(uint32_t off)
{
    uint8_t b[4];

    qtest_memread(drv.qts, BAR0_ADDR + off, b, 4);
    return ldl_be_p(b);
}

static void doorbell(unsigned type_off, unsigned n, uint32_t val)
{
    bar_write(DB_PAGE + type_off + 4 * n, val & 0xffff);
}

static uint32_t cfg_read_at(unsigned bdf, unsigned reg)
{
    qtest_outl(drv.qts, 0xcf8, 0x80000000u | (bdf << 8) | reg);
    return qtest_inl(drv.qts, 0xcfc);
}

static void cfg_write_at(unsigned bdf, unsigned reg, uint32_t val)
{
    qtest_outl(drv.qts, 0xcf8, 0x80000000u | (bdf << 8) | reg);
    qtest_outl(drv.qts, 0xcfc, val);
}

static uint32_t cfg_read(unsigned reg)
{
    return cfg_read_at(drv.bdf, reg);
}

static void cfg_write(unsigned reg, uint32_t val)
{
    cfg_write_at(drv.bdf, reg, val);
}

/* Run a command; returns its status, the output mailbox in out if given */
static uint8_t exec_cmd_at(uint16_t opcode, unsigned opmod, uint32_t in_mod,
                           const uint8_t *mbox, size_t mbox_len,
                           bool evreq, uint64_t in_pa, uint64_t out_pa,
                           uint8_t *out)
{
    static const uint8_t zero[4096];

    if (mbox) {
        qtest_memwrite(drv.qts, IN_MBOX, zero, sizeof(zero));
        qtest_memwrite(drv.qts, IN_MBOX, mbox, MIN(mbox_len, sizeof(zero)));
    }
    qtest_memwrite(drv.qts, OUT_MBOX, zero, sizeof(zero));
    bar_write(CIR_IN_PARAM_HI, in_pa >> 32);
    bar_write(CIR_IN_PARAM_LO, in_pa);
    bar_write(CIR_OUT_PARAM_HI, out_pa >> 32);
    bar_write(CIR_OUT_PARAM_LO, out_pa);
    bar_write(CIR_IN_MODIFIER, in_mod);
    bar_write(CIR_TOKEN, 0);
    bar_write(CIR_CTRL, CIR_CTRL_GO | (evreq ? CIR_CTRL_EVREQ : 0) |
              ((opmod & 0xf) << 12) | (opcode & 0xfff));
    if (out) {
        qtest_memread(drv.qts, OUT_MBOX, out, 4096);
    }
    return bar_read(CIR_CTRL) >> 24;
}

static uint8_t exec_cmd(uint16_t opcode, unsigned opmod, uint32_t in_mod,
                        const uint8_t *mbox, uint8_t *out)
{
    return exec_cmd_at(opcode, opmod, in_mod, mbox, 4096, false, IN_MBOX,
                       OUT_MBOX, out);
}

static void op_tlv(uint8_t *t, uint16_t reg_id, unsigned method)
{
    memset(t, 0, OP_TLV_LEN);
    fset(t, 0, 27, 5, 1);               /* type: operation */
    fset(t, 0, 16, 11, 4);              /* length in dwords */
    fset(t, 4, 16, 16, reg_id);
    fset(t, 4, 8, 7, method);
    fset(t, 4, 0, 8, 1);                /* class: register access */
    stq_be_p(t + 8, ++drv.tid);
}

/* Register access by command; returns the EMAD status, 0xff if none */
static unsigned reg_cmd(uint16_t reg_id, unsigned method, const uint8_t *pl,
                        size_t len)
{
    g_autofree uint8_t *mbox = g_malloc0(4096);
    g_autofree uint8_t *out = g_malloc0(4096);
    uint8_t st;

    len = MIN(len, 4096 - OP_TLV_LEN - 4);
    op_tlv(mbox, reg_id, method);
    fset(mbox, OP_TLV_LEN, 27, 5, 3);               /* type: register */
    fset(mbox, OP_TLV_LEN, 16, 11, len / 4 + 1);
    memcpy(mbox + OP_TLV_LEN + 4, pl, len);
    st = exec_cmd(CMD_ACCESS_REG, 0, 0, mbox, out);
    return st ? 0xff : fget(out, 0, 8, 7);
}

static bool reg_write(uint16_t reg_id, const uint8_t *pl, size_t len)
{
    return reg_cmd(reg_id, EMAD_METHOD_WRITE, pl, len) == 0;
}

/* Queue service, as the driver's interrupt handler does it */
static void rdq_post(unsigned rdq)
{
    uint8_t wqe[WQE_SIZE] = { 0 };
    uint16_t pc = drv.rdq_pc[rdq];

    stw_be_p(wqe + 2, RX_BUF_BYTES);
    stq_be_p(wqe + 8, RX_BUF_BASE + rdq * BUF_SPAN + (pc % RX_BUFS) * BUF_SIZE);
    qtest_memwrite(drv.qts, RDQ_BASE + rdq * RING_SPAN + (pc % DQ_COUNT) *
                   WQE_SIZE, wqe, sizeof(wqe));
    drv.rdq_pc[rdq] = ++pc;
    doorbell(DB_RDQ, rdq, pc);
}

static void service(void)
{
    uint8_t e[ELEM_SIZE];
    unsigned n, i;

    for (n = 0; n < drv.num_cq; n++) {
        for (i = 0; i < RING_COUNT; i++) {
            uint16_t cc = drv.cq_cc[n];

            qtest_memread(drv.qts, CQ_BASE + n * RING_SPAN +
                          (cc & (RING_COUNT - 1)) * ELEM_SIZE, e, sizeof(e));
            if (fget(e, 12, 0, 1) != !!(cc & RING_COUNT)) {
                break;
            }
            /* A receive completion gives its buffer back: repost one */
            if (!fget(e, 12, 6, 1) && fget(e, 12, 1, 5) < drv.num_rdq) {
                rdq_post(fget(e, 12, 1, 5));
            }
            drv.cq_cc[n]++;
        }
        if (i) {
            doorbell(DB_CQ, n, drv.cq_cc[n] + RING_COUNT);
            doorbell(DB_ARM_CQ, n, drv.cq_cc[n]);
        }
    }
    for (n = 0; n < drv.num_eq; n++) {
        for (i = 0; i < RING_COUNT; i++) {
            uint16_t cc = drv.eq_cc[n];

            qtest_memread(drv.qts, EQ_BASE + n * RING_SPAN +
                          (cc & (RING_COUNT - 1)) * ELEM_SIZE, e, sizeof(e));
            if (fget(e, 12, 0, 1) != !!(cc & RING_COUNT)) {
                break;
            }
            drv.eq_cc[n]++;
        }
        if (i) {
            doorbell(DB_EQ, n, drv.eq_cc[n] + RING_COUNT);
            doorbell(DB_ARM_EQ, n, drv.eq_cc[n]);
        }
    }
}

static void txhdr(uint8_t *h, unsigned port, bool emad, bool data)
{
    memset(h, 0, TXHDR_LEN);
    fset(h, 0, 26, 2, data ? 1 : 0);    /* ctl */
    fset(h, 0, 21, 3, 1);               /* protocol: Ethernet */
    fset(h, 0, 18, 3, emad ? 6 : 5);    /* egress traffic class */
    fset(h, 4, 16, 16, port);
    fset(h, 4, 9, 5, emad ? 0x1f : 0);  /* RDQ */
    fset(h, 12, 16, 16, 0xe0e0);        /* signature */
    fset(h, 12, 5, 1, emad);
    fset(h, 12, 0, 4, 6);               /* type: Ethernet */
}

/* Queue buf (TX header included) on an SDQ and ring its doorbell */
static void sdq_send(unsigned sdq, const uint8_t *buf, size_t len,
                     bool completion)
{
    uint8_t wqe[WQE_SIZE] = { 0 };
    uint16_t pc = drv.sdq_pc[sdq];
    uint64_t pa = TX_BUF_BASE + sdq * BUF_SPAN + (pc % 4) * BUF_SIZE;

    len = MIN(len, WQE_MAX_BYTES);
    qtest_memwrite(drv.qts, pa, buf, len);
    fset(wqe, 0, 31, 1, completion);
    fset(wqe, 0, 23, 4, 0xa);           /* type: Ethernet */
    stw_be_p(wqe + 2, len);
    stq_be_p(wqe + 8, pa);
    qtest_memwrite(drv.qts, SDQ_BASE + sdq * RING_SPAN + (pc % DQ_COUNT) *
                   WQE_SIZE, wqe, sizeof(wqe));
    drv.sdq_pc[sdq] = ++pc;
    doorbell(DB_SDQ, sdq, pc);
}

/*
 * Bring-up, the driver's probe
 */
static bool find_on_bus(unsigned bus, uint32_t id, unsigned *bdf)
{
    unsigned dev;

    for (dev = 0; dev < 32; dev++) {
        if (cfg_read_at(bus << 8 | dev << 3, 0) == id) {
            *bdf = bus << 8 | dev << 3;
            return true;
        }
    }
    return false;
}

/*
 * Firmware's job, which qtest skips: number the bridge's secondary bus,
 * open its memory window over BAR0, let memory and DMA through.
 */
static bool setup_bridge(void)
{
    if (!find_on_bus(0, PCI_ID_BRIDGE, &drv.bridge_bdf)) {
        return false;
    }
    cfg_write_at(drv.bridge_bdf, 0x18, SX2_BUS << 16 | SX2_BUS << 8);
    cfg_write_at(drv.bridge_bdf, 0x20, BRIDGE_MEM_WINDOW);
    cfg_write_at(drv.bridge_bdf, 0x04, 0x6);
    return find_on_bus(SX2_BUS, PCI_ID_SWITCHX2, &drv.bdf);
}

/* A hot reset of the bridge's secondary bus: the switch alone */
static void bus_reset(void)
{
    uint32_t v = cfg_read_at(drv.bridge_bdf, 0x3c);

    cfg_write_at(drv.bridge_bdf, 0x3c, v | BRIDGE_CTL_SBR);
    cfg_write_at(drv.bridge_bdf, 0x3c, v & ~BRIDGE_CTL_SBR);
}

static bool setup_pci(void)
{
    unsigned cap;
    uint8_t entry[16];

    if (!setup_bridge()) {
        return false;
    }
    cfg_write(0x10, (uint32_t)BAR0_ADDR | 4);     /* 64-bit memory BAR */
    cfg_write(0x14, 0);
    cfg_write(0x04, 0x6);                       /* memory, bus master */
    cap = cfg_read(0x34) & 0xff;
    while (cap && (cfg_read(cap) & 0xff) != 0x11) {
        cap = (cfg_read(cap) >> 8) & 0xff;
    }
    if (!cap) {
        return false;
    }
    stl_le_p(entry, MSI_ADDR);
    stl_le_p(entry + 4, 0);
    stl_le_p(entry + 8, MSI_DATA);
    stl_le_p(entry + 12, 0);
    qtest_memwrite(drv.qts, BAR0_ADDR + (cfg_read(cap + 4) & ~7u), entry,
                   sizeof(entry));
    cfg_write(cap, cfg_read(cap) | (1u << 31));
    return true;
}

static void init_ring(uint64_t pa)
{
    g_autofree uint8_t *ring = g_malloc0(RING_COUNT * ELEM_SIZE);
    unsigned i;

    /* Owner bit 1: software owns every element of a fresh ring */
    for (i = 0; i < RING_COUNT; i++) {
        ring[i * ELEM_SIZE + 15] = 1;
    }
    qtest_memwrite(drv.qts, pa, ring, RING_COUNT * ELEM_SIZE);
}

static void mbox_pages(uint8_t *m, uint64_t base)
{
    unsigned i;

    for (i = 0; i < 8; i++) {
        stq_be_p(m + 0x10 + 8 * i, base + i * 4096);
    }
}

static bool create_queues(void)
{
    uint8_t m[4096];
    unsigned n, i;

    for (n = 0; n < drv.num_eq; n++) {
        init_ring(EQ_BASE + n * RING_SPAN);
        memset(m, 0, sizeof(m));
        fset(m, 0, 24, 1, 1);           /* MSI-X */
        fset(m, 0, 8, 2, 1);            /* armed */
        fset(m, 0, 0, 4, LOG_RING);
        mbox_pages(m, EQ_BASE + n * RING_SPAN);
        if (exec_cmd(CMD_SW2HW_EQ, 0, n, m, NULL)) {
            return false;
        }
        doorbell(DB_EQ, n, RING_COUNT);
        doorbell(DB_ARM_EQ, n, 0);
    }
    for (n = 0; n < drv.num_cq; n++) {
        init_ring(CQ_BASE + n * RING_SPAN);
        memset(m, 0, sizeof(m));
        fset(m, 0, 24, 1, 1);
        fset(m, 0, 0, 4, LOG_RING);
        mbox_pages(m, CQ_BASE + n * RING_SPAN);
        if (exec_cmd(CMD_SW2HW_CQ, 0, n, m, NULL)) {
            return false;
        }
        doorbell(DB_CQ, n, RING_COUNT);
        doorbell(DB_ARM_CQ, n, 0);
    }
    for (n = 0; n < drv.num_sdq; n++) {
        memset(m, 0, sizeof(m));
        fset(m, 0, 24, 8, n);           /* CQ */
        fset(m, 0, 23, 1, n == 0);      /* SDQ 0: local processing */
        fset(m, 0, 0, 6, 3);            /* 8 pages */
        mbox_pages(m, SDQ_BASE + n * RING_SPAN);
        if (exec_cmd(CMD_SW2HW_DQ, 0, n, m, NULL)) {
            return false;
        }
        doorbell(DB_SDQ, n, 0);
    }
    for (n = 0; n < drv.num_rdq; n++) {
        memset(m, 0, sizeof(m));
        fset(m, 0, 24, 8, drv.num_sdq + n);
        fset(m, 0, 0, 6, 3);
        mbox_pages(m, RDQ_BASE + n * RING_SPAN);
        if (exec_cmd(CMD_SW2HW_DQ, 1, n, m, NULL)) {
            return false;
        }
        doorbell(DB_RDQ, n, 0);
        for (i = 0; i < RX_BUFS; i++) {
            rdq_post(n);
        }
    }
    return true;
}

static bool htgt(unsigned group, unsigned rdq)
{
    uint8_t p[0x20] = { 0 };

    fset(p, 0, 0, 8, group);
    fset(p, 0x10, 0, 6, rdq);
    return reg_write(REG_HTGT, p, sizeof(p));
}

static bool hpkt(unsigned trap, unsigned group)
{
    uint8_t p[0x10] = { 0 };

    fset(p, 0, 20, 3, 1);               /* action: trap */
    fset(p, 0, 12, 6, group);
    fset(p, 0, 0, 10, trap);
    return reg_write(REG_HPKT, p, sizeof(p));
}

static bool sftr(unsigned table, unsigned type, unsigned index, unsigned range)
{
    uint8_t p[0x420] = { 0 };
    unsigned lp;

    fset(p, 0, 16, 6, table);
    fset(p, 0, 0, 16, index);
    fset(p, 4, 16, 3, type);
    fset(p, 4, 0, 16, range);
    for (lp = 0; lp <= SX2_WIRED; lp++) {       /* CPU and ports 1-4 */
        p[0x20 + 31 - lp / 8] |= 1 << (lp % 8);
        p[0x220 + 31 - lp / 8] |= 1 << (lp % 8);
    }
    return reg_write(REG_SFTR, p, sizeof(p));
}

static bool sfgc(unsigned type, unsigned table_type)
{
    uint8_t p[0x14] = { 0 };

    fset(p, 0, 0, 4, type);
    fset(p, 4, 16, 3, table_type);
    return reg_write(REG_SFGC, p, sizeof(p));
}

/* Traps, flooding, STP, learning and links: an L2 switch that forwards */
static bool configure_switch(void)
{
    static const unsigned traps[] = { TRAP_FDB_MC, TRAP_STP, TRAP_LACP,
                                      TRAP_LLDP };
    unsigned i, lp;
    bool ok;

    ok = hpkt(TRAP_ETHEMAD, 0) && htgt(0, EMAD_RDQ) && hpkt(TRAP_PUDE, 0) &&
         htgt(1, EVENT_RDQ);
    for (i = 0; ok && i < ARRAY_SIZE(traps); i++) {
        ok = hpkt(traps[i], 1);
    }
    /* VID flood table 0 entry 1 and single table 0: CPU and ports 1-4 */
    ok = ok && sftr(0, 1, 1, 1) && sftr(0, 2, 0, 0);
    for (i = 0; ok && i < 4; i++) {
        ok = sfgc(i, 1);                /* UC, BC, IPv4 and IPv6 MC */
    }
    ok = ok && sfgc(5, 2);              /* non-IP MC: single table */
    for (lp = 1; ok && lp <= SX2_PORTS; lp++) {
        uint8_t spms[0x404] = { 0 };
        uint8_t spmlr[8] = { 0 };
        uint8_t paos[0x10] = { 0 };

        fset(spms, 0, 16, 8, lp);
        spms[4 + (4095 - 1) / 4] = 3 << 2;     /* VID 1 forwarding */
        fset(spmlr, 0, 16, 8, lp);
        fset(spmlr, 4, 30, 2, 2);               /* learn */
        fset(paos, 0, 16, 8, lp);
        fset(paos, 0, 8, 4, 1);                 /* admin up */
        fset(paos, 4, 31, 1, 1);
        fset(paos, 4, 30, 1, 1);
        fset(paos, 4, 0, 2, 1);                 /* PUDE events */
        ok = reg_write(REG_SPMS, spms, sizeof(spms)) &&
             reg_write(REG_SPMLR, spmlr, sizeof(spmlr)) &&
             reg_write(REG_PAOS, paos, sizeof(paos));
        service();
    }
    return ok;
}

static bool mrsr(void)
{
    uint8_t p[8] = { 0 };

    fset(p, 0, 0, 4, 1);
    if (!reg_write(REG_MRSR, p, sizeof(p))) {
        return false;
    }
    /*
     * The reset runs in a bottom half.  SwitchX-2 has no readiness
     * indication (FW_READY reads 0): once the main loop has run, the
     * command interface answers again.
     */
    flush_events(drv.qts);
    return exec_cmd(CMD_QUERY_FW, 0, 0, NULL, NULL) == 0;
}

/* The driver's probe; NULL on success, else the step that failed */
static const char *bring_up(void)
{
    g_autofree uint8_t *m = g_malloc0(4096);
    g_autofree uint8_t *out = g_malloc0(4096);
    unsigned pages, i;

    memset(&drv.sdq_pc, 0, sizeof(drv.sdq_pc));
    memset(&drv.rdq_pc, 0, sizeof(drv.rdq_pc));
    memset(&drv.cq_cc, 0, sizeof(drv.cq_cc));
    memset(&drv.eq_cc, 0, sizeof(drv.eq_cc));
    drv.num_sdq = drv.num_rdq = drv.num_cq = drv.num_eq = 0;
    if (!setup_pci()) {
        return "PCI: no pci-bridge with a switchx2 with MSI-X behind it";
    }
    if (!mrsr()) {
        return "MRSR";
    }
    if (exec_cmd(CMD_QUERY_FW, 0, 0, NULL, out)) {
        return "QUERY_FW";
    }
    pages = fget(out, 0, 16, 16);
    for (i = 0; i < pages && i < 512; i++) {
        stq_be_p(m + 8 * i, 0x2000000 + i * 4096);
    }
    if (exec_cmd(CMD_MAP_FA, 0, pages, m, NULL)) {
        return "MAP_FA";
    }
    /*
     * 1 single and 3 per-VID flood tables, mixed mode, 64 MIDs, swid 0
     * Ethernet, swid 1 the router's (so that router registers work)
     */
    memset(m, 0, 4096);
    stl_be_p(m + 0x0c, 0x308);
    fset(m, 0x1c, 0, 16, 64);
    fset(m, 0x30, 16, 4, 1);
    fset(m, 0x30, 8, 4, 3);
    fset(m, 0x30, 0, 3, 3);
    fset(m, 0x60, 24, 8, 1);
    fset(m, 0x60, 20, 4, 2);
    fset(m, 0x68, 24, 8, 1);
    fset(m, 0x68, 20, 4, 8);
    if (exec_cmd(CMD_CONFIG_PROFILE, 1, 0, m, NULL)) {
        return "CONFIG_PROFILE";
    }
    if (exec_cmd(CMD_QUERY_AQ_CAP, 0, 0, NULL, out)) {
        return "QUERY_AQ_CAP";
    }
    drv.num_sdq = MIN(fget(out, 0, 0, 8), MAX_SDQ);
    drv.num_rdq = MIN(fget(out, 4, 0, 8), MAX_RDQ);
    drv.num_cq = MIN(fget(out, 8, 0, 8), MAX_CQ);
    drv.num_eq = MIN(fget(out, 12, 0, 8), MAX_EQ);
    if (drv.num_sdq < 2 || drv.num_rdq <= EMAD_RDQ ||
        drv.num_cq < drv.num_sdq + drv.num_rdq || drv.num_eq < 1) {
        return "QUERY_AQ_CAP: fewer queues than the driver needs";
    }
    if (!create_queues()) {
        return "queue creation (SW2HW_EQ/CQ/DQ)";
    }
    if (!configure_switch()) {
        return "switch configuration (HPKT/HTGT/SFTR/SFGC/SPMS/SPMLR/PAOS)";
    }
    service();
    return NULL;
}

/*
 * Operations
 */
typedef struct Input {
    const uint8_t *p;
    size_t len;
} Input;

static uint32_t take(Input *in, unsigned bytes)
{
    uint32_t v = 0;

    while (bytes--) {
        v <<= 8;
        if (in->len) {
            v |= *in->p++;
            in->len--;
        }
    }
    return v;
}

enum {
    OP_CMD, OP_REG, OP_EMAD, OP_TX, OP_RX, OP_DB, OP_MMIO, OP_DMA,
    OP_CLOCK, OP_SERVICE, OP_RESET, OP_COUNT
};

static void op_cmd(Input *in)
{
    uint16_t sel = take(in, 2);
    uint8_t flags = take(in, 1);
    uint32_t in_mod = take(in, 4);
    uint16_t opcode = sel < 0x100 ? known_cmds[sel % ARRAY_SIZE(known_cmds)]
                                  : sel & 0xfff;

    exec_cmd_at(opcode, flags & 0xf, in_mod, in->p, in->len, flags & 0x10,
                flags & 0x20 ? WILD_ADDR : IN_MBOX,
                flags & 0x40 ? WILD_ADDR : OUT_MBOX, NULL);
}

static void op_reg(Input *in, bool emad)
{
    uint16_t sel = take(in, 2);
    uint8_t m = take(in, 1);
    uint8_t dwords = take(in, 1);
    uint16_t reg_id = sel < 0x100 ? known_regs[sel % ARRAY_SIZE(known_regs)]
                                  : sel;
    unsigned method = m & 0x80 ? (m >> 2) & 0x1f
                               : m & 1 ? EMAD_METHOD_WRITE
                                       : EMAD_METHOD_QUERY;
    size_t plen = dwords ? dwords * 4 : REG_MAX_LEN;
    g_autofree uint8_t *pl = g_malloc0(plen);
    g_autofree uint8_t *f = NULL;
    uint8_t *t;
    size_t len;

    memcpy(pl, in->p, MIN(in->len, plen));
    if (!emad) {
        reg_cmd(reg_id, method, pl, plen);
        return;
    }
    len = TXHDR_LEN + EMAD_ETH_HDR_LEN + OP_TLV_LEN +
          (m & 2 ? STRING_TLV_LEN : 0) + 4 + plen + 4;
    f = g_malloc0(len);
    txhdr(f, 0, true, false);
    t = f + TXHDR_LEN;
    memcpy(t, "\x01\x02\xc9\x00\x00\x01\x00\x02\xc9\x01\x02\x03", 12);
    stw_be_p(t + 12, EMAD_ETHERTYPE);
    t += EMAD_ETH_HDR_LEN;
    op_tlv(t, reg_id, method);
    t += OP_TLV_LEN;
    if (m & 2) {
        fset(t, 0, 27, 5, 2);           /* type: string */
        fset(t, 0, 16, 11, STRING_TLV_LEN / 4);
        t += STRING_TLV_LEN;
    }
    fset(t, 0, 27, 5, 3);
    fset(t, 0, 16, 11, plen / 4 + 1);
    memcpy(t + 4, pl, plen);
    fset(t + 4 + plen, 0, 16, 11, 1);   /* end TLV */
    sdq_send(0, f, len, true);
    service();
}

static void op_tx(Input *in)
{
    unsigned sdq = take(in, 1) % drv.num_sdq;
    uint16_t port = take(in, 2);
    uint8_t flags = take(in, 1);
    g_autofree uint8_t *buf = g_malloc0(TXHDR_LEN + in->len);
    size_t len = TXHDR_LEN + in->len;

    if (flags & 4) {
        memcpy(buf, in->p, in->len);
        len = MAX(in->len, 1);
    } else {
        txhdr(buf, port, flags & 1, flags & 2);
        memcpy(buf + TXHDR_LEN, in->p, in->len);
    }
    sdq_send(sdq, buf, len, !(flags & 8));
    service();
}

static void op_rx(Input *in)
{
    unsigned port = take(in, 1) % SX2_WIRED;

    qemu_receive_packet(drv.inject[port], in->p, MIN(in->len, INT_MAX));
    flush_events(drv.qts);
    service();
}

static void op_dma(Input *in)
{
    static const struct {
        uint64_t base;
        uint64_t size;
    } regions[] = {
        { IN_MBOX, 0x2000 },
        { EQ_BASE, MAX_EQ * RING_SPAN },
        { CQ_BASE, MAX_CQ * RING_SPAN },
        { SDQ_BASE, MAX_SDQ * RING_SPAN },
        { RDQ_BASE, MAX_RDQ * RING_SPAN },
        { RX_BUF_BASE, MAX_RDQ * BUF_SPAN },
        { TX_BUF_BASE, MAX_SDQ * BUF_SPAN },
        { MSI_ADDR, 0x1000 },
    };
    unsigned r = take(in, 1) % ARRAY_SIZE(regions);
    uint64_t off = take(in, 4) % regions[r].size;

    qtest_memwrite(drv.qts, regions[r].base + off, in->p,
                   MIN(in->len, regions[r].size - off));
}

static void op_clock(Input *in)
{
    static const int64_t unit_ns[] = { 1, 1000, 1000000, 1000000000 };
    unsigned unit = take(in, 1) % ARRAY_SIZE(unit_ns);
    int64_t ns = MIN(take(in, 2) * unit_ns[unit], drv.clock_left_ns);

    drv.clock_left_ns -= ns;
    qtest_clock_step(drv.qts, ns);
}

static void op_reset(Input *in)
{
    unsigned kind = take(in, 1) % 4;
    const char *fail;

    if (!drv.resets_left) {
        return;
    }
    drv.resets_left--;
    if (kind < 2) {
        mrsr();
    } else {
        bus_reset();
    }
    flush_events(drv.qts);
    if (kind == 1 || kind == 3) {
        return;
    }
    fail = bring_up();
    if (fail) {
        fprintf(stderr, "switchx2-fuzz: bring-up after %s failed at %s\n",
                kind ? "device reset" : "MRSR", fail);
        abort();
    }
}

static void run_op(const uint8_t *op, size_t len)
{
    Input in = { op + 1, len - 1 };

    switch (op[0] % OP_COUNT) {
    case OP_CMD:
        op_cmd(&in);
        break;
    case OP_REG:
        op_reg(&in, false);
        break;
    case OP_EMAD:
        op_reg(&in, true);
        break;
    case OP_TX:
        op_tx(&in);
        break;
    case OP_RX:
        op_rx(&in);
        break;
    case OP_DB: {
        uint16_t off = take(&in, 2) % DB_PAGE_SIZE;

        bar_write(DB_PAGE + (off & ~3u), take(&in, 4));
        break;
    }
    case OP_MMIO: {
        uint32_t off = (take(&in, 4) % BAR0_SIZE) & ~3u;
        uint32_t val = take(&in, 4);

        if (take(&in, 1) & 1) {
            bar_read(off);
        } else {
            bar_write(off, val);
        }
        break;
    }
    case OP_DMA:
        op_dma(&in);
        break;
    case OP_CLOCK:
        op_clock(&in);
        break;
    case OP_SERVICE:
        service();
        break;
    case OP_RESET:
        op_reset(&in);
        break;
    }
    flush_events(drv.qts);
}

static void run_input(const uint8_t *data, size_t size)
{
    const size_t sep = strlen(SEPARATOR);

    drv.clock_left_ns = CLOCK_BUDGET_S * NANOSECONDS_PER_SECOND;
    drv.resets_left = RESET_BUDGET;

    while (size) {
        const uint8_t *next = memmem(data, size, SEPARATOR, sep);
        size_t len = next ? next - data : size;

        if (len) {
            run_op(data, len);
        }
        if (!next) {
            break;
        }
        size -= len + sep;
        data = next + sep;
    }
}

/* After any input the command interface must still answer */
static void check_alive(void)
{
    uint8_t st = exec_cmd(CMD_QUERY_FW, 0, 0, NULL, NULL);

    if (st) {
        fprintf(stderr, "switchx2-fuzz: device wedged: QUERY_FW status "
                "0x%x after the input\n", st);
        abort();
    }
}

/*
 * QEMU's main loop blocks SIGALRM (it reads it from a signalfd);
 * libFuzzer's -timeout needs it delivered to its handler.
 */
static void unblock_sigalrm(void)
{
    sigset_t set;

    sigemptyset(&set);
    sigaddset(&set, SIGALRM);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

static void switchx2_fuzz(QTestState *s, const unsigned char *data,
                          size_t size)
{
    pid_t pid;
    int status;

    pid = fork();
    if (pid < 0) {
        perror("switchx2-fuzz: fork");
        abort();
    }
    if (pid == 0) {
        /* libFuzzer's alarm handler times the input out in the child */
        struct itimerval tick = { { 1, 0 }, { 1, 0 } };

        prctl(PR_SET_PDEATHSIG, SIGKILL);
        unblock_sigalrm();
        setitimer(ITIMER_REAL, &tick, NULL);
        run_input(data, size);
        check_alive();
        _Exit(0);
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            perror("switchx2-fuzz: waitpid");
            abort();
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return;
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
        /* Killed from outside (OOM killer?): no artifact yet, make one */
        fprintf(stderr, "switchx2-fuzz: the input's process was killed\n");
        abort();
    }
    /* The child reported and saved the input; stop like libFuzzer does */
    fprintf(stderr, "switchx2-fuzz: the input's process %s %d\n",
            WIFEXITED(status) ? "exited with" : "died of signal",
            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    _Exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

static void switchx2_pre_fuzz(QTestState *s)
{
    const char *fail;
    unsigned i;

    drv.qts = s;
    for (i = 0; i < SX2_WIRED; i++) {
        g_autofree char *id = g_strdup_printf("inj%u", i + 1);

        drv.inject[i] = qemu_find_netdev(id);
        if (!drv.inject[i]) {
            fprintf(stderr, "switchx2-fuzz: no netdev %s\n", id);
            exit(1);
        }
    }
    fail = bring_up();
    if (fail) {
        fprintf(stderr, "switchx2-fuzz: device bring-up failed at %s\n",
                fail);
        exit(1);
    }
    flush_events(s);
    unblock_sigalrm();
    counter_shm_init();
}

static GString *switchx2_cmdline(FuzzTarget *t)
{
    GString *cmd = g_string_new(TARGET_NAME
                                " -machine pc,accel=qtest -m 64M"
                                " -nodefaults -display none"
                                " -L /usr/share/seabios -L /usr/share/qemu");
    GString *ports = g_string_new("");
    unsigned i;

    for (i = 1; i <= SX2_WIRED; i++) {
        g_string_append_printf(cmd, " -netdev hubport,id=p%u,hubid=%u"
                               " -netdev hubport,id=inj%u,hubid=%u",
                               i, i, i, i);
        g_string_append_printf(ports, ",port%u=p%u", i, i);
    }
    g_string_append_printf(cmd, " -device pci-bridge,id=br,chassis_nr=1"
                           " -device switchx2,id=sw,bus=br,addr=1,ports=%u,"
                           "fdb-size=16%s", SX2_PORTS, ports->str);
    g_string_free(ports, true);
    return cmd;
}

/*
 * A forked child has none of QEMU's threads, the vCPU thread included.
 * An input that aims an MSI (or any DMA write) at the local APIC makes
 * QEMU kick that thread; pthread_kill() on a thread the process does
 * not have fails and cpus_kick_thread() exits: the fuzzer reported the
 * harness, not the device.  Every input child starts with its vCPUs
 * marked as kicked already, which makes the kick a no-op; the interrupt
 * itself is still delivered to the APIC.  Registered for every fork, so
 * that generic-fuzz's children get it too.
 */
static void fuzz_child_no_vcpu_kick(void)
{
    CPUState *cpu;

    CPU_FOREACH(cpu) {
        cpu->thread_kicked = true;
    }
}

static void register_switchx2_fuzz_targets(void)
{
    pthread_atfork(NULL, NULL, fuzz_child_no_vcpu_kick);
    fuzz_add_target(&(FuzzTarget){
        .name = "switchx2-fuzz",
        .description = "Fuzz the SwitchX-2 model through its command "
                       "interface, EMADs, queues, doorbells, front panel "
                       "ports, clock and resets, after a driver's bring-up",
        .get_init_cmdline = switchx2_cmdline,
        .pre_fuzz = switchx2_pre_fuzz,
        .fuzz = switchx2_fuzz,
    });
}

fuzz_target_init(register_switchx2_fuzz_targets);
