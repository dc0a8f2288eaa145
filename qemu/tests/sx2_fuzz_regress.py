#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (c) 2026 The switchx2-emu authors
#
# Regression cases from fuzzing the switchx2 model (make fuzz).  Each
# case is an input of the switchx2-fuzz target (format: the comment at
# the top of qemu/fuzz/switchx2_fuzz.c) that once crashed, hung or
# wedged QEMU.  The script replays it through the qtest protocol with
# no fuzzer involved: the same driver bring-up, then the same register,
# doorbell and DMA sequence, with ingress frames sent to UDP socket
# netdevs (a zero-length frame cannot travel that way and is skipped);
# it then checks that QEMU is alive and the device still completes
# commands.  A case that runs longer than SX2_REPLAY_TIMEOUT seconds
# (default 60) is a hang: QEMU is killed and the case fails.
#
#   sx2_fuzz_regress.py QEMU-BINARY            the cases below
#   sx2_fuzz_regress.py QEMU-BINARY FILE...    fuzzer inputs, e.g. the
#                                              crash-* and hang-* files
#                                              make fuzz leaves
#
# Prints 'ok   DESC' or 'FAIL DESC' per check; exits 1 on any failure.
# QEMU's stderr is passed through (no qtest protocol log).
import os
import socket
import struct
import subprocess
import sys
import threading
import time

QEMU = sys.argv[1] if len(sys.argv) > 1 else 'qemu-system-x86_64'
TIMEOUT = float(os.environ.get('SX2_REPLAY_TIMEOUT', '60'))
FAIL = 0

# Must match qemu/fuzz/switchx2_fuzz.c
SEP = b'SX2|'
BAR = 0xE0000000
MSI_ADDR, MSI_DATA = 0x1000, 0xABCD
IN_MBOX, OUT_MBOX = 0x10000, 0x11000
EQ_BASE, CQ_BASE, SDQ_BASE, RDQ_BASE = 0x20000, 0x100000, 0x200000, 0x300000
RX_BUF_BASE, TX_BUF_BASE = 0x800000, 0xC00000
WILD_ADDR = 0xFFFFFFFFF000
RING_SPAN, BUF_SPAN, BUF_SIZE, RX_BUF_BYTES = 0x8000, 0x10000, 0x4000, 10000
BAR0_SIZE, DB_PAGE, DB_PAGE_SIZE = 0x100000, 0x80000, 0xC00
DB_SDQ, DB_RDQ, DB_CQ, DB_EQ, DB_ARM_CQ, DB_ARM_EQ = (0, 0x200, 0x400, 0x600,
                                                       0x800, 0xA00)
CIR = 0x71000
FW_READY = 0xA1844
RING_COUNT, DQ_COUNT, RX_BUFS = 2048, 1024, 4
MAX_SDQ, MAX_RDQ, MAX_CQ, MAX_EQ = 8, 32, 96, 2
REG_MAX_LEN, WQE_MAX_BYTES = 0x420, 0x3FFF
PORTS, WIRED = 6, 4
CLOCK_BUDGET_S, RESET_BUDGET = 1200, 4
KNOWN_CMDS = [0x003, 0x004, 0x006, 0x013, 0x014, 0x015, 0x016, 0x017, 0x018,
              0x01E, 0x022, 0x040, 0x100, 0x101, 0x201, 0x202, 0xFFE, 0xFFF]
KNOWN_REGS = [0x2000, 0x2002, 0x2008, 0x2009, 0x200A, 0x200B, 0x200D, 0x200E,
              0x200F, 0x2010, 0x2011, 0x2012, 0x2013, 0x2018, 0x201C, 0x201E,
              0x201F, 0x2020, 0x5002, 0x5003, 0x5004, 0x5005, 0x5006, 0x5008,
              0x500A, 0x500D, 0x7002, 0x7003, 0x9020, 0x9023, 0x9100,
              0x2007, 0x4004]
DMA_REGIONS = [(IN_MBOX, 0x2000), (EQ_BASE, MAX_EQ * RING_SPAN),
               (CQ_BASE, MAX_CQ * RING_SPAN), (SDQ_BASE, MAX_SDQ * RING_SPAN),
               (RDQ_BASE, MAX_RDQ * RING_SPAN),
               (RX_BUF_BASE, MAX_RDQ * BUF_SPAN),
               (TX_BUF_BASE, MAX_SDQ * BUF_SPAN), (MSI_ADDR, 0x1000)]
(OP_CMD, OP_REG, OP_EMAD, OP_TX, OP_RX, OP_DB, OP_MMIO, OP_DMA, OP_CLOCK,
 OP_SERVICE, OP_RESET, OP_COUNT) = range(12)


# Regression cases: (description, input as hex, where it came from)
CASES = [
    ('MSI-X entry aimed at the local APIC, every delivery mode',
     # MMIO: MSI-X table entry 0 = 0xfeeff000 (APIC, broadcast), then
     # for delivery modes 0-7 with vector 0x30: data, QUERY_FW with an
     # event completion (an EQE, so an MSI-X message); SERVICE
     '06000f000000f0effe005358327c06000f000400000000005358327c06000f00'
     '0c00000000005358327c06000f000830000000005358327c0010041000000000'
     '5358327c06000f000830010000005358327c00100410000000005358327c0600'
     '0f000830020000005358327c00100410000000005358327c06000f0008300300'
     '00005358327c00100410000000005358327c06000f000830040000005358327c'
     '00100410000000005358327c06000f000830050000005358327c001004100000'
     '00005358327c06000f000830060000005358327c00100410000000005358327c'
     '06000f000830070000005358327c00100410000000005358327c09',
     'switchx2-fuzz, 2026-12-04: the input\'s child exited in '
     'cpus_kick_thread() (a forked child has no vCPU thread to kick); '
     'harness, not model: fixed in qemu/fuzz/switchx2_fuzz.c'),
]


def check(cond, what):
    global FAIL
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        FAIL += 1


def be32(b, off): return struct.unpack_from('>I', b, off)[0]
def fget(b, off, shift, bits): return (be32(b, off) >> shift) & ((1 << bits) - 1)


def fset(b, off, shift, bits, v):
    w = be32(b, off) & ~(((1 << bits) - 1) << shift)
    struct.pack_into('>I', b, off, w | ((v & ((1 << bits) - 1)) << shift))


class Died(Exception):
    pass


class Device:
    """QEMU under qtest with the fuzz target's switch, and its driver."""

    def __init__(self):
        self.socks = []
        args = []
        for lp in range(1, WIRED + 1):
            sk = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sk.bind(('127.0.0.1', 0))
            sk.setblocking(False)
            t = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            t.bind(('127.0.0.1', 0))
            local = t.getsockname()[1]
            t.close()
            self.socks.append((sk, local))
            args += ['-netdev', 'socket,id=p%d,udp=127.0.0.1:%d,localaddr='
                     '127.0.0.1:%d' % (lp, sk.getsockname()[1], local)]
        ports = ''.join(',port%d=p%d' % (i, i) for i in range(1, WIRED + 1))
        self.p = subprocess.Popen(
            [QEMU, '-machine', 'pc,accel=qtest', '-qtest', 'stdio',
             '-qtest-log', '/dev/null', '-m', '64M', '-nodefaults', '-display', 'none', '-L', '/usr/share/seabios',
             '-L', '/usr/share/qemu'] + args +
            ['-device', 'pci-bridge,id=br,chassis_nr=1',
             '-device', 'switchx2,id=sw,bus=br,addr=1,ports=%d,fdb-size=16%s'
             % (PORTS, ports)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.tid = 0
        self.bdf = self.bridge = 0
        self.num = {'sdq': 0, 'rdq': 0, 'cq': 0, 'eq': 0}

    # qtest protocol
    def cmd(self, line):
        try:
            self.p.stdin.write(line + '\n')
            self.p.stdin.flush()
        except BrokenPipeError:
            raise Died()
        while True:
            r = self.p.stdout.readline()
            if not r:
                raise Died()
            if r.startswith(('OK', 'FAIL', 'ERR')):
                return r.strip()

    def quit(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait(timeout=10)
        for sk, _ in self.socks:
            sk.close()

    def mem_write(self, addr, data):
        if data:
            self.cmd('write 0x%x 0x%x 0x%s' % (addr, len(data), data.hex()))

    def mem_read(self, addr, n):
        return bytes.fromhex(self.cmd('read 0x%x 0x%x' % (addr, n)).split()[1][2:])

    def bar_write(self, off, v):
        self.mem_write(BAR + off, struct.pack('>I', v & 0xFFFFFFFF))

    def bar_read(self, off):
        return struct.unpack('>I', self.mem_read(BAR + off, 4))[0]

    def doorbell(self, type_off, n, v):
        self.bar_write(DB_PAGE + type_off + 4 * n, v & 0xFFFF)

    def cfg_read(self, reg, bdf=None):
        bdf = self.bdf if bdf is None else bdf
        self.cmd('outl 0xcf8 0x%x' % (0x80000000 | (bdf << 8) | reg))
        return int(self.cmd('inl 0xcfc').split()[1], 16)

    def cfg_write(self, reg, v, bdf=None):
        bdf = self.bdf if bdf is None else bdf
        self.cmd('outl 0xcf8 0x%x' % (0x80000000 | (bdf << 8) | reg))
        self.cmd('outl 0xcfc 0x%x' % v)

    def find_on_bus(self, bus, pci_id):
        for dev in range(32):
            if self.cfg_read(0, bus << 8 | dev << 3) == pci_id:
                return bus << 8 | dev << 3
        return None

    def bus_reset(self):
        v = self.cfg_read(0x3C, self.bridge)
        self.cfg_write(0x3C, v | 1 << 22, self.bridge)
        self.cfg_write(0x3C, v & ~(1 << 22), self.bridge)

    # The driver side, as switchx2_fuzz.c does it
    def exec_cmd(self, opcode, opmod=0, in_mod=0, mbox=None, evreq=False,
                 in_pa=IN_MBOX, out_pa=OUT_MBOX, out=False):
        if mbox is not None:
            self.mem_write(IN_MBOX, bytes(4096))
            self.mem_write(IN_MBOX, bytes(mbox[:4096]))
        self.mem_write(OUT_MBOX, bytes(4096))
        self.bar_write(CIR + 0x00, in_pa >> 32)
        self.bar_write(CIR + 0x04, in_pa)
        self.bar_write(CIR + 0x0C, out_pa >> 32)
        self.bar_write(CIR + 0x10, out_pa)
        self.bar_write(CIR + 0x08, in_mod)
        self.bar_write(CIR + 0x14, 0)
        self.bar_write(CIR + 0x18, (1 << 23) | ((1 << 22) if evreq else 0) |
                       ((opmod & 0xF) << 12) | (opcode & 0xFFF))
        data = self.mem_read(OUT_MBOX, 4096) if out else None
        st = self.bar_read(CIR + 0x18) >> 24
        return (st, data) if out else st

    def op_tlv(self, reg_id, method):
        t = bytearray(16)
        fset(t, 0, 27, 5, 1)
        fset(t, 0, 16, 11, 4)
        fset(t, 4, 16, 16, reg_id)
        fset(t, 4, 8, 7, method)
        fset(t, 4, 0, 8, 1)
        self.tid += 1
        struct.pack_into('>Q', t, 8, self.tid)
        return t

    def reg_cmd(self, reg_id, method, pl):
        pl = bytes(pl[:4096 - 20])
        m = self.op_tlv(reg_id, method) + bytearray(4) + pl
        fset(m, 16, 27, 5, 3)
        fset(m, 16, 16, 11, len(pl) // 4 + 1)
        st, out = self.exec_cmd(0x040, mbox=m, out=True)
        return 0xFF if st else fget(out, 0, 8, 7)

    def reg_write(self, reg_id, pl):
        return self.reg_cmd(reg_id, 2, pl) == 0

    def rdq_post(self, rdq):
        pc = self.rdq_pc[rdq]
        w = bytearray(32)
        struct.pack_into('>H', w, 2, RX_BUF_BYTES)
        struct.pack_into('>Q', w, 8, RX_BUF_BASE + rdq * BUF_SPAN +
                         (pc % RX_BUFS) * BUF_SIZE)
        self.mem_write(RDQ_BASE + rdq * RING_SPAN + (pc % DQ_COUNT) * 32,
                       bytes(w))
        self.rdq_pc[rdq] = (pc + 1) & 0xFFFF
        self.doorbell(DB_RDQ, rdq, self.rdq_pc[rdq])

    def service(self):
        for n in range(self.num['cq']):
            i = 0
            while i < RING_COUNT:
                cc = self.cq_cc[n]
                e = self.mem_read(CQ_BASE + n * RING_SPAN +
                                  (cc & (RING_COUNT - 1)) * 16, 16)
                if fget(e, 12, 0, 1) != (1 if cc & RING_COUNT else 0):
                    break
                if not fget(e, 12, 6, 1) and fget(e, 12, 1, 5) < self.num['rdq']:
                    self.rdq_post(fget(e, 12, 1, 5))
                self.cq_cc[n] = (cc + 1) & 0xFFFF
                i += 1
            if i:
                self.doorbell(DB_CQ, n, self.cq_cc[n] + RING_COUNT)
                self.doorbell(DB_ARM_CQ, n, self.cq_cc[n])
        for n in range(self.num['eq']):
            i = 0
            while i < RING_COUNT:
                cc = self.eq_cc[n]
                e = self.mem_read(EQ_BASE + n * RING_SPAN +
                                  (cc & (RING_COUNT - 1)) * 16, 16)
                if fget(e, 12, 0, 1) != (1 if cc & RING_COUNT else 0):
                    break
                self.eq_cc[n] = (cc + 1) & 0xFFFF
                i += 1
            if i:
                self.doorbell(DB_EQ, n, self.eq_cc[n] + RING_COUNT)
                self.doorbell(DB_ARM_EQ, n, self.eq_cc[n])

    @staticmethod
    def txhdr(port, emad, data):
        h = bytearray(16)
        fset(h, 0, 26, 2, 1 if data else 0)
        fset(h, 0, 21, 3, 1)
        fset(h, 0, 18, 3, 6 if emad else 5)
        fset(h, 4, 16, 16, port)
        fset(h, 4, 9, 5, 0x1F if emad else 0)
        fset(h, 12, 16, 16, 0xE0E0)
        fset(h, 12, 5, 1, 1 if emad else 0)
        fset(h, 12, 0, 4, 6)
        return h

    def sdq_send(self, sdq, buf, completion=True):
        buf = bytes(buf[:WQE_MAX_BYTES])
        pc = self.sdq_pc[sdq]
        pa = TX_BUF_BASE + sdq * BUF_SPAN + (pc % 4) * BUF_SIZE
        self.mem_write(pa, buf)
        w = bytearray(32)
        fset(w, 0, 31, 1, 1 if completion else 0)
        fset(w, 0, 23, 4, 0xA)
        struct.pack_into('>H', w, 2, len(buf))
        struct.pack_into('>Q', w, 8, pa)
        self.mem_write(SDQ_BASE + sdq * RING_SPAN + (pc % DQ_COUNT) * 32,
                       bytes(w))
        self.sdq_pc[sdq] = (pc + 1) & 0xFFFF
        self.doorbell(DB_SDQ, sdq, self.sdq_pc[sdq])

    def setup_pci(self):
        # The bridge's secondary bus 1, its memory window over BAR0
        self.bridge = self.find_on_bus(0, 0x00011B36)
        if self.bridge is None:
            return False
        self.cfg_write(0x18, 1 << 16 | 1 << 8, self.bridge)
        self.cfg_write(0x20, 0xE000E000, self.bridge)
        self.cfg_write(0x04, 0x6, self.bridge)
        self.bdf = self.find_on_bus(1, 0xC73815B3)
        if self.bdf is None:
            return False
        self.cfg_write(0x10, BAR | 4)
        self.cfg_write(0x14, 0)
        self.cfg_write(0x04, 0x6)
        cap = self.cfg_read(0x34) & 0xFF
        while cap and (self.cfg_read(cap) & 0xFF) != 0x11:
            cap = (self.cfg_read(cap) >> 8) & 0xFF
        if not cap:
            return False
        self.mem_write(BAR + (self.cfg_read(cap + 4) & ~7),
                       struct.pack('<IIII', MSI_ADDR, 0, MSI_DATA, 0))
        self.cfg_write(cap, self.cfg_read(cap) | (1 << 31))
        return True

    def mrsr(self):
        p = bytearray(8)
        fset(p, 0, 0, 4, 1)
        if not self.reg_write(0x9023, p):
            return False
        # The reset runs in a bottom half: give the main loop a turn.
        # There is no readiness indication (FW_READY reads 0): commands
        # answer RUNNING_RESET (0x26) until the reset has run.
        for _ in range(50):
            st = self.exec_cmd(0x004)
            if st != 0x26:
                return st == 0
            time.sleep(0.01)
        return False

    def create_queues(self):
        ring = bytes.fromhex('00' * 15 + '01') * RING_COUNT

        def pages(m, base):
            for i in range(8):
                struct.pack_into('>Q', m, 0x10 + 8 * i, base + i * 4096)
        for n in range(self.num['eq']):
            self.mem_write(EQ_BASE + n * RING_SPAN, ring)
            m = bytearray(4096)
            fset(m, 0, 24, 1, 1)
            fset(m, 0, 8, 2, 1)
            fset(m, 0, 0, 4, 11)
            pages(m, EQ_BASE + n * RING_SPAN)
            if self.exec_cmd(0x013, 0, n, m):
                return False
            self.doorbell(DB_EQ, n, RING_COUNT)
            self.doorbell(DB_ARM_EQ, n, 0)
        for n in range(self.num['cq']):
            self.mem_write(CQ_BASE + n * RING_SPAN, ring)
            m = bytearray(4096)
            fset(m, 0, 24, 1, 1)
            fset(m, 0, 0, 4, 11)
            pages(m, CQ_BASE + n * RING_SPAN)
            if self.exec_cmd(0x016, 0, n, m):
                return False
            self.doorbell(DB_CQ, n, RING_COUNT)
            self.doorbell(DB_ARM_CQ, n, 0)
        for n in range(self.num['sdq']):
            m = bytearray(4096)
            fset(m, 0, 24, 8, n)
            fset(m, 0, 23, 1, 1 if n == 0 else 0)
            fset(m, 0, 0, 6, 3)
            pages(m, SDQ_BASE + n * RING_SPAN)
            if self.exec_cmd(0x201, 0, n, m):
                return False
            self.doorbell(DB_SDQ, n, 0)
        for n in range(self.num['rdq']):
            m = bytearray(4096)
            fset(m, 0, 24, 8, self.num['sdq'] + n)
            fset(m, 0, 0, 6, 3)
            pages(m, RDQ_BASE + n * RING_SPAN)
            if self.exec_cmd(0x201, 1, n, m):
                return False
            self.doorbell(DB_RDQ, n, 0)
            for _ in range(RX_BUFS):
                self.rdq_post(n)
        return True

    def configure_switch(self):
        def htgt(group, rdq):
            p = bytearray(0x20)
            fset(p, 0, 0, 8, group)
            fset(p, 0x10, 0, 6, rdq)
            return self.reg_write(0x7002, p)

        def hpkt(trap, group):
            p = bytearray(0x10)
            fset(p, 0, 20, 3, 1)
            fset(p, 0, 12, 6, group)
            fset(p, 0, 0, 10, trap)
            return self.reg_write(0x7003, p)

        def sftr(table, ttype, index, rng):
            p = bytearray(0x420)
            fset(p, 0, 16, 6, table)
            fset(p, 0, 0, 16, index)
            fset(p, 4, 16, 3, ttype)
            fset(p, 4, 0, 16, rng)
            for lp in range(WIRED + 1):
                p[0x20 + 31 - lp // 8] |= 1 << (lp % 8)
                p[0x220 + 31 - lp // 8] |= 1 << (lp % 8)
            return self.reg_write(0x2012, p)

        def sfgc(ptype, ttype):
            p = bytearray(0x14)
            fset(p, 0, 0, 4, ptype)
            fset(p, 4, 16, 3, ttype)
            return self.reg_write(0x2011, p)

        ok = hpkt(0x05, 0) and htgt(0, 0x15) and hpkt(0x08, 0) and \
            htgt(1, 0x14)
        for trap in (0x01, 0x10, 0x11, 0x13):
            ok = ok and hpkt(trap, 1)
        ok = ok and sftr(0, 1, 1, 1) and sftr(0, 2, 0, 0)
        for t in range(4):
            ok = ok and sfgc(t, 1)
        ok = ok and sfgc(5, 2)
        for lp in range(1, PORTS + 1):
            if not ok:
                break
            spms = bytearray(0x404)
            fset(spms, 0, 16, 8, lp)
            spms[4 + (4095 - 1) // 4] = 3 << 2
            spmlr = bytearray(8)
            fset(spmlr, 0, 16, 8, lp)
            fset(spmlr, 4, 30, 2, 2)
            paos = bytearray(0x10)
            fset(paos, 0, 16, 8, lp)
            fset(paos, 0, 8, 4, 1)
            fset(paos, 4, 31, 1, 1)
            fset(paos, 4, 30, 1, 1)
            fset(paos, 4, 0, 2, 1)
            ok = self.reg_write(0x200D, spms) and \
                self.reg_write(0x2018, spmlr) and self.reg_write(0x5006, paos)
            self.service()
        return ok

    def bring_up(self):
        """None on success, else the step that failed."""
        self.sdq_pc, self.rdq_pc = [0] * MAX_SDQ, [0] * MAX_RDQ
        self.cq_cc, self.eq_cc = [0] * MAX_CQ, [0] * MAX_EQ
        self.num = {'sdq': 0, 'rdq': 0, 'cq': 0, 'eq': 0}
        if not self.setup_pci():
            return 'PCI'
        if not self.mrsr():
            return 'MRSR'
        st, out = self.exec_cmd(0x004, out=True)
        if st:
            return 'QUERY_FW'
        pages = fget(out, 0, 16, 16)
        fa = bytearray(4096)
        for i in range(min(pages, 512)):
            struct.pack_into('>Q', fa, 8 * i, 0x2000000 + i * 4096)
        if self.exec_cmd(0xFFF, 0, pages, fa):
            return 'MAP_FA'
        m = bytearray(4096)
        struct.pack_into('>I', m, 0x0C, 0x308)
        fset(m, 0x1C, 0, 16, 64)
        fset(m, 0x30, 16, 4, 1)
        fset(m, 0x30, 8, 4, 3)
        fset(m, 0x30, 0, 3, 3)
        fset(m, 0x60, 24, 8, 1)
        fset(m, 0x60, 20, 4, 2)
        if self.exec_cmd(0x100, 1, 0, m):
            return 'CONFIG_PROFILE'
        st, out = self.exec_cmd(0x003, out=True)
        if st:
            return 'QUERY_AQ_CAP'
        self.num = {'sdq': min(fget(out, 0, 0, 8), MAX_SDQ),
                    'rdq': min(fget(out, 4, 0, 8), MAX_RDQ),
                    'cq': min(fget(out, 8, 0, 8), MAX_CQ),
                    'eq': min(fget(out, 12, 0, 8), MAX_EQ)}
        n = self.num
        if n['sdq'] < 2 or n['rdq'] <= 0x15 or \
           n['cq'] < n['sdq'] + n['rdq'] or n['eq'] < 1:
            return 'QUERY_AQ_CAP: too few queues'
        if not self.create_queues():
            return 'queue creation'
        if not self.configure_switch():
            return 'switch configuration'
        self.service()
        return None

    # The operations of an input
    def run_input(self, data):
        self.clock_left = CLOCK_BUDGET_S * 10 ** 9
        self.resets_left = RESET_BUDGET
        for op in data.split(SEP):
            if op:
                self.run_op(op)

    def run_op(self, op):
        rest = bytearray(op[1:])

        def take(n):
            v = 0
            for _ in range(n):
                v = (v << 8) | (rest.pop(0) if rest else 0)
            return v
        code = op[0] % OP_COUNT
        if code == OP_CMD:
            sel, flags, in_mod = take(2), take(1), take(4)
            opcode = KNOWN_CMDS[sel % len(KNOWN_CMDS)] if sel < 0x100 \
                else sel & 0xFFF
            self.exec_cmd(opcode, flags & 0xF, in_mod, bytes(rest),
                          bool(flags & 0x10),
                          WILD_ADDR if flags & 0x20 else IN_MBOX,
                          WILD_ADDR if flags & 0x40 else OUT_MBOX)
        elif code in (OP_REG, OP_EMAD):
            sel, m, dwords = take(2), take(1), take(1)
            reg_id = KNOWN_REGS[sel % len(KNOWN_REGS)] if sel < 0x100 else sel
            method = (m >> 2) & 0x1F if m & 0x80 else (2 if m & 1 else 1)
            plen = dwords * 4 if dwords else REG_MAX_LEN
            pl = (bytes(rest) + bytes(plen))[:plen]
            if code == OP_REG:
                self.reg_cmd(reg_id, method, pl)
                return
            f = self.txhdr(0, True, False) + \
                bytes.fromhex('0102c9000001' '0002c9010203') + \
                struct.pack('>HBB', 0x8932, 0, 0) + self.op_tlv(reg_id, method)
            if m & 2:
                s = bytearray(132)
                fset(s, 0, 27, 5, 2)
                fset(s, 0, 16, 11, 33)
                f += s
            t = bytearray(4)
            fset(t, 0, 27, 5, 3)
            fset(t, 0, 16, 11, plen // 4 + 1)
            end = bytearray(4)
            fset(end, 0, 16, 11, 1)
            self.sdq_send(0, f + t + pl + end)
            self.service()
        elif code == OP_TX:
            sdq, port, flags = take(1) % self.num['sdq'], take(2), take(1)
            if flags & 4:
                buf = bytes(rest) if rest else bytes(1)
            else:
                buf = self.txhdr(port, flags & 1, flags & 2) + bytes(rest)
            self.sdq_send(sdq, buf, not flags & 8)
            self.service()
        elif code == OP_RX:
            port = take(1) % WIRED
            # A UDP socket netdev cannot carry an empty frame (it reads
            # a zero-length datagram as end of connection): skipped.
            if rest:
                sk, qemu_port = self.socks[port]
                sk.sendto(bytes(rest[:65507]), ('127.0.0.1', qemu_port))
                time.sleep(0.05)
                self.cmd('clock_step 0')
            self.service()
        elif code == OP_DB:
            off = take(2) % DB_PAGE_SIZE
            self.bar_write(DB_PAGE + (off & ~3), take(4))
        elif code == OP_MMIO:
            off, val = (take(4) % BAR0_SIZE) & ~3, take(4)
            if take(1) & 1:
                self.bar_read(off)
            else:
                self.bar_write(off, val)
        elif code == OP_DMA:
            base, size = DMA_REGIONS[take(1) % len(DMA_REGIONS)]
            off = take(4) % size
            self.mem_write(base + off, bytes(rest[:size - off]))
        elif code == OP_CLOCK:
            unit, count = take(1) % 4, take(2)
            ns = min(count * (1, 1000, 1000000, 1000000000)[unit],
                     self.clock_left)
            self.clock_left -= ns
            self.cmd('clock_step %d' % ns)
        elif code == OP_SERVICE:
            self.service()
        elif code == OP_RESET:
            kind = take(1) % 4
            if not self.resets_left:
                return
            self.resets_left -= 1
            if kind < 2:
                self.mrsr()
            else:
                self.bus_reset()
            if kind in (0, 2):
                fail = self.bring_up()
                if fail:
                    raise AssertionError('bring-up after %s failed at %s' %
                                         ('MRSR' if kind == 0 else
                                          'device reset', fail))


def replay(desc, data):
    d = Device()
    hung = threading.Event()

    def kill():
        hung.set()
        d.p.kill()
    timer = threading.Timer(TIMEOUT, kill)
    timer.start()
    try:
        fail = d.bring_up()
        if fail:
            check(False, '%s: bring-up failed at %s' % (desc, fail))
            return
        d.run_input(data)
        st = d.exec_cmd(0x004)
        check(st == 0, '%s: QEMU alive, QUERY_FW completes (status 0x%x)'
              % (desc, st))
    except Died:
        if hung.is_set():
            check(False, '%s: QEMU hung: killed after %g s' % (desc, TIMEOUT))
        else:
            check(False, '%s: QEMU died (exit %s)'
                  % (desc, d.p.wait(timeout=10)))
    except AssertionError as e:
        check(False, '%s: %s' % (desc, e))
    finally:
        timer.cancel()
        d.quit()


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: sx2_fuzz_regress.py QEMU-BINARY [INPUT-FILE...]')
    if len(sys.argv) > 2:
        for path in sys.argv[2:]:
            with open(path, 'rb') as f:
                replay(os.path.basename(path), f.read())
    else:
        for desc, hexdata, _origin in CASES:
            replay(desc, bytes.fromhex(''.join(hexdata.split())))
    print('%d failure(s)' % FAIL)
    sys.exit(1 if FAIL else 0)


if __name__ == '__main__':
    main()
