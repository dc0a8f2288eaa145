#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (c) 2026 The switchx2-emu authors
#
# Drive the switchx2 model through QEMU's qtest protocol the way the
# Linux mlxsw_pci + switchx2 driver does at probe time, without a guest
# kernel: reset, firmware queries, queue setup, register access by
# command and by EMAD, link bring-up and PUDE, packets both ways, and a
# handful of malformed inputs.  Usage: sx2_qtest.py QEMU-BINARY
import json
import os
import socket
import struct
import subprocess
import sys
import time

QEMU = sys.argv[1] if len(sys.argv) > 1 else 'qemu-system-x86_64'
BAR = 0xE0000000
MSI_ADDR = 0x1000
IN_MBOX, OUT_MBOX = 0x10000, 0x11000
EQ_BASE, CQ_BASE, SDQ_BASE, RDQ_BASE = 0x20000, 0x100000, 0x200000, 0x300000
BUF_BASE = 0x800000
AQ = 0x8000
NUM_SDQ = NUM_RDQ = NUM_CQ = 0
FAIL = 0


class QTest:
    def __init__(self, args):
        self.bar = BAR
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)

    def cmd(self, line):
        self.p.stdin.write(line + '\n')
        self.p.stdin.flush()
        while True:
            r = self.p.stdout.readline()
            if not r:
                raise RuntimeError('qemu died')
            if r.startswith('OK') or r.startswith('FAIL') or \
               r.startswith('ERR'):
                return r.strip()

    def outl(self, port, v): self.cmd('outl 0x%x 0x%x' % (port, v))
    def inl(self, port): return int(self.cmd('inl 0x%x' % port).split()[1], 16)
    def outw(self, port, v): self.cmd('outw 0x%x 0x%x' % (port, v))
    def inw(self, port): return int(self.cmd('inw 0x%x' % port).split()[1], 16)

    def mem_write(self, addr, data):
        if data:
            self.cmd('write 0x%x 0x%x 0x%s' % (addr, len(data), data.hex()))

    def mem_read(self, addr, n):
        r = self.cmd('read 0x%x 0x%x' % (addr, n))
        return bytes.fromhex(r.split()[1][2:])

    # BAR0 registers are 32 bit big-endian
    def reg_w(self, off, v):
        self.cmd('write 0x%x 0x4 0x%s' % (self.bar + off,
                                          struct.pack('>I', v).hex()))

    def reg_r(self, off):
        return struct.unpack('>I', self.mem_read(self.bar + off, 4))[0]

    def quit(self):
        self.p.kill()
        self.p.wait(timeout=10)


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


def cfg_addr(dev, reg): return 0x80000000 | (dev << 11) | reg


def find_devs(q):
    devs = []
    for dev in range(32):
        q.outl(0xcf8, cfg_addr(dev, 0))
        if q.inl(0xcfc) == 0xc73815b3:
            devs.append(dev)
    return devs


def find_dev(q):
    devs = find_devs(q)
    return devs[0] if devs else None


def cfg_w32(q, dev, reg, v):
    q.outl(0xcf8, cfg_addr(dev, reg))
    q.outl(0xcfc, v)


def cfg_r32(q, dev, reg):
    q.outl(0xcf8, cfg_addr(dev, reg))
    return q.inl(0xcfc)


def exec_cmd(q, opcode, opmod=0, in_mod=0, in_mbox=None, evreq=False):
    if in_mbox is not None:
        q.mem_write(IN_MBOX, bytes(in_mbox))
    q.mem_write(OUT_MBOX, bytes(4096))
    q.reg_w(0x71000, 0)
    q.reg_w(0x71004, IN_MBOX)
    q.reg_w(0x7100C, 0)
    q.reg_w(0x71010, OUT_MBOX)
    q.reg_w(0x71008, in_mod)
    q.reg_w(0x71014, 0)
    q.reg_w(0x71018, (1 << 23) | ((1 << 22) if evreq else 0) |
            (opmod << 12) | opcode)
    ctrl = q.reg_r(0x71018)
    assert not ctrl & (1 << 23)
    return ctrl >> 24, bytearray(q.mem_read(OUT_MBOX, 4096))


def op_tlv(reg_id, write, tid):
    t = bytearray(16)
    fset(t, 0, 27, 5, 1)
    fset(t, 0, 16, 11, 4)
    fset(t, 4, 16, 16, reg_id)
    fset(t, 4, 8, 7, 2 if write else 1)
    fset(t, 4, 0, 8, 1)
    struct.pack_into('>Q', t, 8, tid)
    return t


def reg_tlv(payload):
    t = bytearray(4)
    fset(t, 0, 27, 5, 3)
    fset(t, 0, 16, 11, len(payload) // 4 + 1)
    return t + payload


def reg_cmd(q, reg_id, payload, write):
    mbox = bytearray(4096)
    body = op_tlv(reg_id, write, 0x77) + reg_tlv(payload)
    mbox[:len(body)] = body
    st, out = exec_cmd(q, 0x040, in_mbox=mbox)
    return st, fget(out, 0, 8, 7), out[20:20 + len(payload)]


class Rings:
    def __init__(self, q):
        self.q = q
        self.sdq_pc = [0] * 8
        self.rdq_pc = [0] * 32
        self.cq_cc = [0] * 96
        self.eq_cc = [0, 0]
        self.tid = 0x1000
        self.events = []

    def db(self, type_off, n, v):
        self.q.reg_w(0x80000 + type_off + 4 * n, v & 0xFFFF)

    def cqe_poll(self, cqn, count=2048):
        """Return list of new CQEs on cqn, ringing the consumer doorbell."""
        out = []
        while True:
            cc = self.cq_cc[cqn]
            idx = cc & (count - 1)
            e = self.q.mem_read(CQ_BASE + cqn * AQ + idx * 16, 16)
            owner = be32(e, 12) & 1
            if owner != (1 if cc & count else 0):
                break
            out.append(e)
            self.cq_cc[cqn] += 1
            self.db(0x400, cqn, self.cq_cc[cqn] + count)
        return out

    def eqe_poll(self, eqn, count=2048):
        out = []
        while True:
            cc = self.eq_cc[eqn]
            e = self.q.mem_read(EQ_BASE + eqn * AQ + (cc & (count - 1)) * 16,
                                16)
            if (be32(e, 12) & 1) != (1 if cc & count else 0):
                break
            out.append(e)
            self.eq_cc[eqn] += 1
        if out:
            self.db(0x600, eqn, self.eq_cc[eqn] + count)
        return out

    def sdq_send(self, sdqn, frame):
        pc = self.sdq_pc[sdqn]
        buf = BUF_BASE + 0x400000 + sdqn * 0x10000 + (pc % 4) * 0x4000
        self.q.mem_write(buf, frame)
        w = bytearray(32)
        fset(w, 0, 31, 1, 1)
        fset(w, 0, 23, 4, 0xA)
        struct.pack_into('>H', w, 2, len(frame))
        struct.pack_into('>Q', w, 8, buf)
        self.q.mem_write(SDQ_BASE + sdqn * AQ + (pc % 1024) * 32, bytes(w))
        self.sdq_pc[sdqn] += 1
        self.db(0x000, sdqn, self.sdq_pc[sdqn])

    def rdq_post(self, rdqn, n):
        for _ in range(n):
            pc = self.rdq_pc[rdqn]
            w = bytearray(32)
            struct.pack_into('>H', w, 2, 10000)
            struct.pack_into('>Q', w, 8, self.rdq_buf(rdqn, pc))
            self.q.mem_write(RDQ_BASE + rdqn * AQ + (pc % 1024) * 32, bytes(w))
            self.rdq_pc[rdqn] += 1
            self.db(0x200, rdqn, self.rdq_pc[rdqn])

    def rdq_buf(self, rdqn, pc):
        return BUF_BASE + rdqn * 0x10000 + (pc % 4) * 0x4000


def txhdr(port, emad):
    h = bytearray(16)
    fset(h, 0, 28, 4, 0)
    fset(h, 0, 26, 2, 0)
    fset(h, 0, 21, 3, 1)
    fset(h, 0, 18, 3, 6 if emad else 5)
    fset(h, 4, 16, 16, port)
    fset(h, 4, 9, 5, 0x1f if emad else 0)
    fset(h, 12, 16, 16, 0xE0E0)
    fset(h, 12, 5, 1, 1 if emad else 0)
    fset(h, 12, 0, 4, 6)
    return h


def emad_frame(reg_id, payload, write, tid, string_tlv=False):
    eth = bytes.fromhex('0102c9000001' '0002c9010203') + \
        struct.pack('>HBB', 0x8932, 0, 0)
    body = op_tlv(reg_id, write, tid)
    if string_tlv:
        s = bytearray(132)
        fset(s, 0, 27, 5, 2)
        fset(s, 0, 16, 11, 33)
        body += s
    end = bytearray(4)
    fset(end, 0, 16, 11, 1)
    return eth + body + reg_tlv(payload) + end


def main():
    global NUM_SDQ, NUM_RDQ, NUM_CQ
    qmp_path = '/tmp/sx2-qtest-main-%d.sock' % os.getpid()
    args = [QEMU, '-M', 'pc', '-accel', 'qtest', '-qtest', 'stdio',
            '-display', 'none', '-vga', 'none', '-nodefaults', '-m', '64M',
            '-L', '/usr/share/seabios', '-L', '/usr/share/qemu',
            '-qmp', 'unix:%s,server=on,wait=off' % qmp_path,
            '-netdev', 'hubport,id=n1,hubid=1',
            '-netdev', 'hubport,id=n2,hubid=1',
            '-device', 'switchx2,id=sw,ports=4,port1=n1,port2=n2']
    q = QTest(args)
    qmp = QMP(qmp_path)
    os.unlink(qmp_path)
    dev = find_dev(q)
    check(dev is not None, 'switchx2 found on PCI bus')
    cfg_w32(q, dev, 0x10, BAR | 4)
    cfg_w32(q, dev, 0x14, 0)
    cfg_w32(q, dev, 0x04, 0x6)
    # MSI-X: find the capability, point vector 0 at RAM, enable
    cap = cfg_r32(q, dev, 0x34) & 0xFF
    while cap and (cfg_r32(q, dev, cap) & 0xFF) != 0x11:
        cap = (cfg_r32(q, dev, cap) >> 8) & 0xFF
    check(cap != 0, 'MSI-X capability present')
    tbl = cfg_r32(q, dev, cap + 4)
    check(tbl & 7 == 0, 'MSI-X table in BAR0')
    t = BAR + (tbl & ~7)
    q.mem_write(t, struct.pack('<IIII', MSI_ADDR, 0, 0xABCD, 0))
    cfg_w32(q, dev, cap, cfg_r32(q, dev, cap) | (1 << 31))

    check(q.reg_r(0xA1844) == 0, 'FW_READY (BAR0 0xA1844) reads 0: '
          'SwitchX-2 offers no readiness indication')

    def sgcr_llb(v=None):
        p = bytearray(0x10)
        fset(p, 4, 0, 1, v or 0)
        return fget(reg_cmd(q, 0x2000, p, v is not None)[2], 4, 0, 1)

    # MRSR through the command interface resets the device
    sgcr_llb(1)
    mrsr = bytearray(8)
    fset(mrsr, 0, 0, 4, 1)
    st, est, _ = reg_cmd(q, 0x9023, mrsr, True)
    check(st == 0 and est == 0, 'MRSR write by ACCESS_REG completes OK')
    q.cmd('clock_step 1000000')
    check(sgcr_llb() == 0 and q.reg_r(0xA1844) == 0,
          'MRSR reset the device (SGCR.llb back to 0); FW_READY still 0')
    # The legacy SW_RESET register (v4.3-v4.14): BAR0 0xF0010 bit 0
    sgcr_llb(1)
    q.reg_w(0xF0010, 0)
    q.cmd('clock_step 1000000')
    kept = sgcr_llb()
    q.reg_w(0xF0010, 1)
    q.cmd('clock_step 1000000')
    st, out = exec_cmd(q, 0x004)
    check(kept == 1 and sgcr_llb() == 0 and st == 0 and
          q.reg_r(0xF0010) == 0,
          'SW_RESET (BAR0 0xF0010): 0 does nothing, bit 0 resets the device '
          'as MRSR does; reads 0')

    st, out = exec_cmd(q, 0x004)
    check(st == 0 and fget(out, 8, 0, 16) == 1, 'QUERY_FW: cmd if rev 1')
    print('     fw %d.%d.%d pages %d db 0x%x' % (
        fget(out, 0, 0, 16), fget(out, 4, 0, 16), fget(out, 4, 16, 16),
        fget(out, 0, 16, 16), struct.unpack_from('>Q', out, 0x40)[0]))
    pages = fget(out, 0, 16, 16)
    fa = bytearray(4096)
    for i in range(pages):
        struct.pack_into('>Q', fa, 8 * i, 0x2000000 + i * 4096)
    st, _ = exec_cmd(q, 0xFFF, in_mod=pages, in_mbox=fa)
    check(st == 0, 'MAP_FA %d pages' % pages)
    st, _ = exec_cmd(q, 0xFFF, in_mod=1, in_mbox=fa)
    check(st == 0x08, 'MAP_FA beyond fw_pages -> EXCEED_LIM (0x%x)' % st)
    st, out = exec_cmd(q, 0x006)
    check(st == 0 and out[0xF0:0xF3] == b'MT_', 'QUERY_BOARDINFO PSID %r'
          % out[0xF0:0x100])
    st, _ = exec_cmd(q, 0x101)
    check(st == 0x02, 'QUERY_RESOURCES -> BAD_OP')
    st, _ = exec_cmd(q, 0x7AB)
    check(st == 0x02, 'unknown opcode -> BAD_OP')
    # Debian 5.10's profile: 2 single + 1 per-VID flood table, mixed
    # flood mode, swid 0 Ethernet and swid 1 InfiniBand
    def max_mid_7000(m):
        fset(m, 0x1C, 0, 16, 7000)
    prof = profile_mbox(2, 1, 3, ((0, 2), (1, 1)), mask=0x33FD,
                        extra=max_mid_7000)
    st, _ = exec_cmd(q, 0x100, opmod=1, in_mbox=prof)
    check(st == 0, 'CONFIG_PROFILE as 5.10 sends it')
    st, out = exec_cmd(q, 0x003)
    NUM_SDQ, NUM_RDQ = fget(out, 0, 0, 8), fget(out, 4, 0, 8)
    NUM_CQ, num_eq = fget(out, 8, 0, 8), fget(out, 12, 0, 8)
    check(st == 0 and 1 << fget(out, 0, 24, 8) == 1024 and
          1 << fget(out, 8, 24, 8) == 2048 and num_eq == 2 and
          NUM_SDQ >= 2 and NUM_SDQ + NUM_RDQ <= NUM_CQ <= 96 and
          NUM_RDQ > 0x15,
          'QUERY_AQ_CAP sdq %d rdq %d cq %d eq %d' % (NUM_SDQ, NUM_RDQ,
                                                      NUM_CQ, num_eq))
    r = Rings(q)
    # EQs (armed), CQs (CQE v0), SDQs, RDQs as mlxsw_pci_aqs_init
    for n in range(2):
        q.mem_write(EQ_BASE + n * AQ, bytes.fromhex('00' * 12 + '00000001') *
                    2048)
        m = bytearray(4096)
        fset(m, 0, 24, 1, 1)
        fset(m, 0, 8, 2, 1)
        fset(m, 0, 0, 4, 11)
        for i in range(8):
            struct.pack_into('>Q', m, 0x10 + 8 * i, EQ_BASE + n * AQ + i * 4096)
        st, _ = exec_cmd(q, 0x013, in_mod=n, in_mbox=m)
        check(st == 0, 'SW2HW_EQ %d' % n)
        r.db(0x600, n, 2048)
        r.db(0xA00, n, 0)
    ok = True
    for n in range(NUM_CQ):
        q.mem_write(CQ_BASE + n * AQ, bytes.fromhex('00' * 12 + '00000001') *
                    2048)
        m = bytearray(4096)
        fset(m, 0, 24, 1, 1)
        fset(m, 0, 0, 4, 11)
        for i in range(8):
            struct.pack_into('>Q', m, 0x10 + 8 * i, CQ_BASE + n * AQ + i * 4096)
        st, _ = exec_cmd(q, 0x016, in_mod=n, in_mbox=m)
        ok = ok and st == 0
        r.db(0x400, n, 2048)
        r.db(0x800, n, 0)
    check(ok, 'SW2HW_CQ x%d' % NUM_CQ)
    ok = True
    for n in range(NUM_SDQ):
        m = bytearray(4096)
        fset(m, 0, 24, 8, n)
        fset(m, 0, 23, 1, 1 if n == 0 else 0)
        fset(m, 0, 0, 6, 3)
        for i in range(8):
            struct.pack_into('>Q', m, 0x10 + 8 * i, SDQ_BASE + n * AQ + i * 4096)
        st, _ = exec_cmd(q, 0x201, opmod=0, in_mod=n, in_mbox=m)
        ok = ok and st == 0
        r.db(0, n, 0)
    for n in range(NUM_RDQ):
        m = bytearray(4096)
        fset(m, 0, 24, 8, NUM_SDQ + n)
        fset(m, 0, 0, 6, 3)
        for i in range(8):
            struct.pack_into('>Q', m, 0x10 + 8 * i, RDQ_BASE + n * AQ + i * 4096)
        st, _ = exec_cmd(q, 0x201, opmod=1, in_mod=n, in_mbox=m)
        ok = ok and st == 0
        r.db(0x200, n, 0)
        r.rdq_post(n, 4)
    check(ok, 'SW2HW_DQ all SDQs/RDQs')
    st, _ = exec_cmd(q, 0x201, opmod=0, in_mod=0, in_mbox=m)
    check(st == 0x09, 'SW2HW_DQ on busy SDQ -> BAD_RES_STATE (0x%x)' % st)

    # Event mode command: completion EQE on EQ0 plus an MSI-X message
    q.mem_write(MSI_ADDR, bytes(4))
    st, _ = exec_cmd(q, 0x004, evreq=True)
    eqes = r.eqe_poll(0)
    check(len(eqes) == 1 and fget(eqes[0], 12, 24, 8) == 0x0A and
          fget(eqes[0], 0, 0, 8) == 0, 'event mode: command EQE on EQ0')
    check(q.mem_read(MSI_ADDR, 4) == struct.pack('<I', 0xABCD),
          'MSI-X message written')
    r.db(0xA00, 0, r.eq_cc[0])

    # Trap setup the way core + switchx2 do it (HPKT/HTGT via command)
    def htgt(group, rdq):
        p = bytearray(0x20)
        fset(p, 0, 0, 8, group)
        fset(p, 0x10, 0, 6, rdq)
        return reg_cmd(q, 0x7002, p, True)[:2]

    def hpkt(trap, group, action=1):
        p = bytearray(0x10)
        fset(p, 0, 20, 3, action)
        fset(p, 0, 12, 6, group)
        fset(p, 0, 0, 10, trap)
        return reg_cmd(q, 0x7003, p, True)[:2]
    check(hpkt(0x05, 0) == (0, 0), 'HPKT ETHEMAD -> group 0 (cmd)')
    check(htgt(0, 0x15) == (0, 0), 'HTGT EMAD group -> RDQ 0x15 (cmd)')
    check(htgt(0, 60)[1] == 7, 'HTGT with bad RDQ -> bad parameter')
    check(reg_cmd(q, 0x1234, bytearray(16), False)[1] == 4,
          'unknown register -> register not supported')

    # EMAD over SDQ0 from here on
    def emad(reg_id, payload, write=False, string_tlv=False):
        r.tid += 1
        r.sdq_send(0, bytes(txhdr(0, True)) +
                   emad_frame(reg_id, payload, write, r.tid, string_tlv))
        r.cqe_poll(0)
        resp = None
        for c in r.cqe_poll(NUM_SDQ + 0x15):
            rdq = fget(c, 12, 1, 5)
            wc = fget(c, 4, 16, 16)
            f = q.mem_read(r.rdq_buf(rdq, wc), fget(c, 4, 0, 14))
            r.rdq_post(rdq, 1)
            if fget(c, 8, 0, 10) == 0x05:
                resp = f
            else:
                r.events.append((fget(c, 8, 0, 10), f))
        if resp is None:
            return None, None
        f = resp
        op = f[16:32]
        assert struct.unpack_from('>Q', op, 8)[0] == r.tid
        off = 32 + (132 if string_tlv else 0)
        return fget(op, 0, 8, 7), bytearray(f[off + 4:off + 4 + len(payload)])

    st, pl = emad(0x2002, bytearray(16))
    check(st == 0 and pl[2:8] == bytes.fromhex('525400123600'),
          'EMAD SPAD query: base MAC %s' % (pl[2:8].hex() if pl else None))
    widths = []
    for lp in range(1, 65):
        p = bytearray(0x40)
        fset(p, 0, 16, 8, lp)
        st, pl = emad(0x5002, p)
        widths.append(fget(pl, 0, 0, 8) if st == 0 else -1)
    check(widths[:4] == [4] * 4 and widths[4:] == [0] * 60,
          'PMLP widths %s...' % widths[:6])
    st, pl = emad(0x9020, bytearray(0x9C))
    check(st == 0 and pl[0x30:0x33] == b'MT_' and fget(pl, 0x44, 0, 32) == 9,
          'MGIR: fw %d.%d.%d' % (fget(pl, 0x44, 0, 32), fget(pl, 0x48, 0, 32),
                                 fget(pl, 0x4C, 0, 32)))
    st, pl = emad(0x9100, bytearray(0xA0))
    check(st == 0, 'MGPIR answered')
    st, pl = emad(0x900F, bytearray(0x14), string_tlv=True)
    check(st == 4, 'MTBR -> register not supported (string TLV)')
    st, pl = emad(0x5004, bytearray(0x40))
    check(st == 7, 'PTYS on local port 0 -> bad parameter')
    p = bytearray(0x10)
    fset(p, 0, 16, 8, 1)
    fset(p, 8, 16, 16, 1530)
    check(emad(0x5003, p, True)[0] == 0, 'PMTU write 1530')

    # PUDE event + link up on ports 1 and 2, traps for the data path
    check(hpkt(0x08, 0)[1] == 0, 'HPKT PUDE')

    def hpkt_query(trap):
        p = bytearray(0x10)
        fset(p, 0, 0, 10, trap)
        out = reg_cmd(q, 0x7003, p, False)[2]
        return fget(out, 0, 20, 3), fget(out, 0, 12, 6), fget(out, 0, 24, 1)

    p = bytearray(0x10)
    fset(p, 0, 24, 1, 1)
    fset(p, 0, 20, 3, 1)
    fset(p, 0, 12, 6, 1)
    fset(p, 0, 0, 10, 0x13)
    check(reg_cmd(q, 0x7003, p, True)[1] == 7 and
          hpkt_query(0x13) == (0, 0, 0),
          'HPKT ack 1 ("not supported by firmware") -> bad parameter, '
          'nothing stored')
    check([hpkt(0x08, 0, action=a)[1] for a in (2, 3, 6)] == [7] * 3 and
          hpkt_query(0x08) == (1, 0, 0),
          'HPKT PUDE (an event trap) action 2 / 3 / 6 -> bad parameter: '
          'events take 0 (forward) or 1 (trap) only')
    hpkt(0x13, 1, action=1)
    st = hpkt(0x13, 2, action=7)[1]
    lldp = hpkt_query(0x13)
    hpkt(0x13, 1, action=1)
    fset(p, 0, 24, 1, 0)
    fset(p, 0, 20, 4, 15)
    fset(p, 0, 12, 6, 3)
    st2 = reg_cmd(q, 0x7003, p, True)[1]
    check(st == 0 and lldp == (0, 2, 0) and st2 == 0 and
          hpkt_query(0x13) == (0, 3, 0),
          'HPKT action 7 (6.1\'s SET_FW_DEFAULT 15 through the 3-bit field), '
          'and 15 itself with the reserved bit 23: LLDP back to the firmware '
          'default (forward), in the group written (%s)' % (lldp,))
    check(htgt(1, 0x14)[1] == 0 and hpkt(0x01, 1)[1] == 0,
          'HTGT/HPKT FDB_MC -> RDQ 0x14 (EMAD)')
    # 5.10's flood setup: SFTR swid 0 single table 0 index 0 range 0 with
    # the CPU bit; SFGC UC, BC, MC non-IP, MC IPv6, MC IPv4 -> that
    # table, mid 0xD000; then SGCR.llb = 1
    sts = [emad(0x2012, sftr_pl(0, 2, 0, 0, [0]), True)[0]]
    for t in (1, 0, 5, 3, 2):
        sts.append(emad(0x2011, sfgc_pl(t, 2, 0, mid=0xD000)[:0x10],
                        True)[0])
    p = bytearray(0x10)
    fset(p, 4, 0, 1, 1)
    sts.append(emad(0x2000, p, True)[0])
    st, pl = emad(0x2011, sfgc_pl(5, 0, 0)[:0x10])
    check(sts == [0] * 7 and st == 0 and fget(pl, 4, 16, 3) == 2 and
          fget(pl, 8, 0, 16) == 0xD000,
          '5.10 flood setup (SFTR CPU into single table 0, SFGC types '
          '1,0,5,3,2, SGCR.llb) accepted: %s' % sts)
    check(emad(0x2012, sftr_pl(1, 2, 0, 0, [0], swid=1), True)[0] == 0 and
          emad(0x2012, sftr_pl(1, 2, 0, 0, [0]), True)[0] == 7,
          '5.10 profile: single table 1 belongs to swid 1, not swid 0')
    check(emad(0x2012, sftr_pl(0, 1, 1, 1, [0]), True)[0] == 7,
          '5.10 profile: the one VID table belongs to no swid (of 2)')
    # SMID: the MID table (v4.3 wrote MID 0xD000 = {CPU})
    def smid(mid, ports=(), mask=None, swid=0, size=0x240, write=True):
        p = bytearray(size)
        fset(p, 0, 24, 8, swid)
        fset(p, 0, 0, 16, mid)
        for lp in ports:
            p[0x20 + 31 - lp // 8] |= 1 << (lp % 8)
        for lp in (ports if mask is None else mask):
            p[0x220 + 31 - lp // 8] |= 1 << (lp % 8)
        st, pl = emad(0x2007, p, write)
        return st, sftr_ports(pl) if st == 0 else None

    st, _ = smid(0xD000, [0], size=0x420)
    check(st == 0 and smid(0xD000, write=False) == (0, [0]),
          'SMID as v4.3 writes it (0x420 bytes): MID 0xD000 = {CPU}, the '
          'query returns it')
    sts = [smid(6999, [1, 2, 3])[0], smid(6999, [1, 2], mask=[1, 2, 3])[0]]
    check(sts == [0, 0] and smid(6999, write=False) == (0, [1, 2]),
          'SMID MID 6999 (max_mid 7000): bits applied where port_mask is '
          'set: {1,2,3} then {1,2} of mask {1,2,3} -> {1,2}')
    check([smid(7000, [1])[0], smid(0xD001, [1])[0],
           smid(7000, write=False)[0]] == [7, 7, 7],
          'SMID MID 7000 / 0xD001 (no such MID) -> bad parameter')
    check([smid(5, [1], swid=1)[0], smid(5, [1, 5])[0]] == [7, 7] and
          smid(5, write=False) == (0, []),
          'SMID swid 1 (InfiniBand) / port_mask bit of port 5 of 4 -> bad '
          'parameter, nothing changed')
    f = qmp.cmd('query-switchx2-fdb', id='sw').get('return', {})
    check(f.get('mid-count') == 7000 and f.get('mids') ==
          [{'mid': 6999, 'ports': [1, 2]}, {'mid': 0xD000, 'ports': [0]}],
          'query-switchx2-fdb: mid-count 7000, MIDs 6999 {1,2} and 0xD000 '
          '{CPU} (%s)' % f.get('mids'))
    smid(6999, [], mask=[1, 2])
    # VID 1 forwarding on every port, as 5.10 does
    sts = []
    for lp in (1, 2, 3, 4):
        p = bytearray(0x404)
        fset(p, 0, 16, 8, lp)
        p[4 + (4095 - 1) // 4] = 3 << 2
        sts.append(emad(0x200D, p, True)[0])
    check(sts == [0] * 4, 'SPMS ports 1-4 VID 1 forwarding')
    # Ports 1 and 2 are cabled to each other (one hub): a port comes up
    # only once its link partner's transmitter is on too.
    def paos_up(lp):
        p = bytearray(0x10)
        fset(p, 0, 16, 8, lp)
        fset(p, 0, 8, 4, 1)
        fset(p, 4, 31, 1, 1)
        fset(p, 4, 30, 1, 1)
        fset(p, 4, 0, 2, 1)
        r.events = []
        st, pl = emad(0x5006, p, True)
        return st, [(fget(e[1], 36, 16, 8), fget(e[1], 36, 0, 4))
                    for e in r.events if e[0] == 0x08]

    def paos_oper(lp):
        p = bytearray(0x10)
        fset(p, 0, 16, 8, lp)
        st, pl = emad(0x5006, p)
        return fget(pl, 0, 0, 4) if st == 0 else None

    st, ev = paos_up(1)
    check(st == 0 and ev == [], 'PAOS up port 1, partner down -> no PUDE')
    check(paos_oper(1) == 2, 'PAOS oper down port 1 while partner is down')
    st, ev = paos_up(2)
    check(st == 0 and sorted(ev) == [(1, 1), (2, 1)],
          'PAOS up port 2 -> PUDE oper up for both ends of the cable')
    for lp in (1, 2):
        check(paos_oper(lp) == 1, 'PAOS oper up port %d' % lp)

    # CPU sends on port 1; the hub brings it to port 2; trapped to CPU
    frame = bytes.fromhex('ffffffffffff' '020000000001' '0800') + bytes(50)
    r.sdq_send(1, bytes(txhdr(1, False)) + frame)
    check(len(r.cqe_poll(1)) == 1, 'TX completion on CQ1')
    cqes = r.cqe_poll(NUM_SDQ + 0x14)
    check(len(cqes) == 1 and fget(cqes[0], 0, 0, 16) == 2 and
          fget(cqes[0], 8, 0, 10) == 0x01 and fget(cqes[0], 4, 0, 14) == 64,
          'frame from port 2 trapped FDB_MC to RDQ 0x14')
    p = bytearray(0x100)
    fset(p, 0, 16, 8, 1)
    st, pl = emad(0x5008, p)
    check(st == 0 and struct.unpack_from('>Q', pl, 8)[0] == 1,
          'PPCNT port1 tx frames = 1')
    fset(p, 0, 16, 8, 2)
    st, pl = emad(0x5008, p)
    check(st == 0 and struct.unpack_from('>Q', pl, 16)[0] == 1,
          'PPCNT port2 rx frames = 1')
    big = bytes.fromhex('ffffffffffff' '020000000001' '0800') + bytes(1600)
    r.sdq_send(1, bytes(txhdr(1, False)) + big)
    r.cqe_poll(1)
    check(r.cqe_poll(NUM_SDQ + 0x14) == [], 'frame above PMTU not sent')

    cpu_counters_main(qmp, r.tid - 0x1000)
    faults_main(q, qmp, r, emad, paos_oper)

    # Garbage: wild doorbells, bad WQEs, truncated EMAD, bad mailboxes
    r.db(0x000, 31, 5)
    r.db(0x400, 90, 7)
    r.db(0x200, 0, 60000)
    r.sdq_send(0, bytes(txhdr(0, True)) + bytes(20))
    r.cqe_poll(0)
    w = bytearray(32)
    fset(w, 0, 31, 1, 1)
    fset(w, 0, 23, 4, 0xA)
    struct.pack_into('>H', w, 2, 0x3FFF)
    struct.pack_into('>Q', w, 8, 0xFFFFFFFFF000)
    pc = r.sdq_pc[1]
    q.mem_write(SDQ_BASE + 1 * AQ + (pc % 1024) * 32, bytes(w))
    r.sdq_pc[1] += 1
    r.db(0, 1, r.sdq_pc[1])
    c = r.cqe_poll(1)
    check(len(c) == 1 and fget(c[0], 12, 7, 1) == 1,
          'wild DMA WQE completes with error bit')
    q.reg_w(0x71004, 0xFFFFF000)
    q.reg_w(0x71004, 0xFFFFF000)
    q.reg_w(0x71000, 0xFFFF)
    q.reg_w(0x71018, (1 << 23) | 0x040)
    check(q.reg_r(0x71018) >> 24 == 0x01, 'ACCESS_REG with wild mailbox -> '
          'INTERNAL_ERR')
    st, pl = emad(0x2002, bytearray(16))
    check(st == 0, 'device still answers EMADs')

    # Random garbage through every entry point; QEMU must survive it
    import random
    rnd = random.Random(1234)
    regs = [0x2000, 0x2002, 0x2008, 0x200D, 0x2011, 0x2012, 0x2018, 0x5002,
            0x5003, 0x5004, 0x5005, 0x5006, 0x5008, 0x500A, 0x500D, 0x7002,
            0x7003, 0x9020, 0x9100, 0x2009, 0x200A, 0x200B, 0x200E, 0x200F,
            0x2010, 0x2013, 0x201C, 0x201E, 0x201F, 0x2020, 0x2007,
            0x4004]
    ops = [0x003, 0x004, 0x006, 0x013, 0x014, 0x015, 0x016, 0x017, 0x018,
           0x01E, 0x022, 0x040, 0x100, 0x101, 0x201, 0x202, 0xFFE, 0xFFF]
    # The fault knobs (but the command timeout) come and go meanwhile
    krnd = random.Random(99)
    knobs = ['fault-emad-drop', 'fault-emad-busy', 'fault-emad-error',
             'fault-emad-delay-ms', 'fault-cmd-error', 'fault-cqe-error',
             'fault-cqe-bad-length', 'fault-rdq-bad-port', 'fault-pude-flap',
             'fault-emad-reg', 'fault-emad-skip', 'fault-wqe-byte-count',
             'fault-cqe-foreign-dq', 'fault-max-vid-flood-tables',
             'fault-no-router']
    # ... and the host looks at whatever state the garbage makes
    queries = []
    for i in range(1500):
        if krnd.random() < 0.02:
            qom_set(qmp, 'refuse-reg', krnd.choice(['', 'SPVM', 'PAOS,HTGT',
                                                    'SFD,SFN,MRSR']))
        if krnd.random() < 0.05:
            qom_set(qmp, krnd.choice(knobs), krnd.randrange(4))
            q.cmd('clock_step %d' % krnd.randrange(10 ** 7))
            queries += [qmp.cmd('query-switchx2'),
                        qmp.cmd('query-switchx2-fdb', id='sw'),
                        qmp.cmd('human-monitor-command',
                                **{'command-line': 'info switchx2'})]
        k = rnd.randrange(5)
        if k == 0:
            m = bytearray(rnd.randbytes(4096))
            exec_cmd(q, rnd.choice(ops), opmod=rnd.randrange(4),
                     in_mod=rnd.choice([0, 1, 2, 5, 30, 95, 0xFFFFFFFF]),
                     in_mbox=m, evreq=rnd.random() < 0.3)
        elif k == 1:
            r.db(rnd.randrange(0, 0xC00, 4), 0, rnd.getrandbits(32))
        elif k == 2:
            pl = bytearray(rnd.randbytes(rnd.choice([8, 16, 0x40, 0x410,
                                                     0x420])))
            fset(pl, 0, 16, 8, rnd.randrange(0, 8))
            fr = emad_frame(rnd.choice(regs), pl, rnd.random() < 0.5,
                            rnd.getrandbits(64))
            if rnd.random() < 0.3:
                fr = bytearray(fr)
                fr[rnd.randrange(len(fr))] = rnd.getrandbits(8)
                fr = fr[:rnd.randrange(len(fr))]
            r.sdq_send(rnd.randrange(NUM_SDQ), bytes(txhdr(
                rnd.randrange(6), rnd.random() < 0.5)) + bytes(fr))
        elif k == 3:
            w = bytearray(rnd.randbytes(32))
            n = rnd.randrange(NUM_SDQ)
            q.mem_write(SDQ_BASE + n * AQ + (r.sdq_pc[n] % 1024) * 32, bytes(w))
            r.sdq_pc[n] += 1
            r.db(0, n, r.sdq_pc[n])
        else:
            q.reg_w(rnd.randrange(0x71000, 0x7101C, 4), rnd.getrandbits(32))
    for k in knobs:
        qom_set(qmp, k, 0)
    qom_set(qmp, 'refuse-reg', '')
    check(queries and all('return' in x for x in queries),
          'query-switchx2, query-switchx2-fdb, info switchx2 answer '
          'throughout the garbage (%d calls)' % len(queries))
    # Whatever state that left, a device reset must bring it back
    check(q.reg_r(0xA1844) == 0, 'alive after fuzzing, FW_READY 0')
    mrsr = bytearray(8)
    fset(mrsr, 0, 0, 4, 1)
    q.reg_w(0x71018, 0)
    st, est, _ = reg_cmd(q, 0x9023, mrsr, True)
    q.cmd('clock_step 1000000')
    st, out = exec_cmd(q, 0x004)
    check(st == 0 and fget(out, 8, 0, 16) == 1,
          'MRSR recovers the device after fuzzing')
    q.quit()


def cpu_counters_main(qmp, emads):
    """query-switchx2 cpu: what main() sent and had trapped so far."""
    r = qmp.cmd('query-switchx2', id='sw')
    cpu = r['return'][0]['cpu'] if r.get('return') else {}
    traps = {t['trap-id']: t for t in cpu.get('traps', [])}
    print('     cpu: %s' % {k: v for k, v in cpu.items() if k != 'traps'})
    check(cpu.get('sent') == emads + 2 and cpu.get('sent-emads') == emads,
          'query-switchx2 cpu: sent %s = %d EMADs + 2 control packets, '
          'sent-emads %s' % (cpu.get('sent'), emads, cpu.get('sent-emads')))
    check(traps.get(5, {}).get('trapped') == emads and
          traps[5].get('name') == 'ETHEMAD' and
          traps.get(8, {}).get('trapped') == 2 and
          traps.get(1, {}).get('trapped') == 1,
          'query-switchx2 cpu traps: ETHEMAD %d responses, PUDE 2, FDB_MC '
          '1 (%s)' % (emads, [(t, traps[t]['trapped']) for t in traps]))
    check(cpu.get('trapped') == sum(t['trapped'] for t in traps.values())
          and cpu.get('dropped') == sum(t['dropped']
                                        for t in traps.values()),
          'query-switchx2 cpu: totals are the sums over the trap IDs')


def qom_set(qmp, prop, val, dev='sw'):
    return 'return' in qmp.cmd('qom-set', path='/machine/peripheral/' + dev,
                               property=prop, value=val)


def qom_get(qmp, prop, dev='sw'):
    return qmp.cmd('qom-get', path='/machine/peripheral/' + dev,
                   property=prop).get('return')


# Fault injection knobs (host side), on the device main() set up: EMADs
# on SDQ 0 answered on RDQ 0x15, ports 1 and 2 cabled to each other and
# up, frames trapped to the CPU on RDQ 0x14.
def faults_main(q, qmp, r, emad, paos_oper):
    def pmtu(mtu=None):
        p = lp_pl(0x10, 1)
        if mtu:
            fset(p, 8, 16, 16, mtu)
        st, pl = emad(0x5003, p, mtu is not None)
        return st, fget(pl, 8, 16, 16) if pl else None

    def emad_rx():
        """EMAD responses (tid, status) and PUDEs (port, oper) so far."""
        resp, pude = [], []
        for c in r.cqe_poll(NUM_SDQ + 0x15):
            rdq, wc = fget(c, 12, 1, 5), fget(c, 4, 16, 16)
            f = q.mem_read(r.rdq_buf(rdq, wc), fget(c, 4, 0, 14))
            r.rdq_post(rdq, 1)
            if fget(c, 8, 0, 10) == 0x05:
                resp.append((struct.unpack_from('>Q', f, 24)[0],
                             fget(f, 16, 8, 7)))
            elif fget(c, 8, 0, 10) == 0x08:
                pude.append((fget(f, 36, 16, 8), fget(f, 36, 0, 4)))
        return resp, pude

    def emad_send(reg_id, payload):
        r.tid += 1
        r.sdq_send(0, bytes(txhdr(0, True)) +
                   emad_frame(reg_id, payload, False, r.tid))
        r.cqe_poll(0)
        return r.tid

    check(qom_get(qmp, 'fault-emad-drop') == 0 and
          qom_set(qmp, 'fault-emad-drop', 1) and
          qom_get(qmp, 'fault-emad-drop') == 1,
          'fault-emad-drop: qom-set /machine/peripheral/sw, reads back 1')
    st1, _ = emad(0x2002, bytearray(16))
    st2, _ = emad(0x2002, bytearray(16))
    check(st1 is None and st2 == 0 and qom_get(qmp, 'fault-emad-drop') == 0,
          'fault-emad-drop 1: one EMAD unanswered, the next answered, knob '
          'back to 0')
    qom_set(qmp, 'fault-emad-busy', 2)
    sts = [pmtu(1600)[0], pmtu()[0]]
    st, mtu = pmtu()
    check(sts == [1, 1] and st == 0 and mtu == 1530,
          'fault-emad-busy 2: two EMADs BUSY, the PMTU write among them '
          'not executed (MTU %s)' % mtu)
    qom_set(qmp, 'fault-emad-error', 1)
    st1, _ = pmtu(1600)
    st2, mtu = pmtu()
    check(st1 == 0x70 and st2 == 0 and mtu == 1530,
          'fault-emad-error 1: INTERNAL_ERROR (0x70), write not executed')
    # Aimed at the second PMTU EMAD: SPAD and the first PMTU pass
    qom_set(qmp, 'fault-emad-reg', 0x5003)
    qom_set(qmp, 'fault-emad-skip', 1)
    qom_set(qmp, 'fault-emad-error', 1)
    sts = [emad(0x2002, bytearray(16))[0], pmtu()[0], pmtu(1600)[0]]
    st, mtu = pmtu()
    check(sts == [0, 0, 0x70] and st == 0 and mtu == 1530 and
          qom_get(qmp, 'fault-emad-skip') == 0 and
          qom_get(qmp, 'fault-emad-error') == 0,
          'fault-emad-reg PMTU, fault-emad-skip 1, fault-emad-error 1: SPAD '
          'and the first PMTU pass, the second PMTU fails unexecuted (%s)' %
          sts)
    qom_set(qmp, 'fault-emad-skip', 3)
    sts = [pmtu()[0] for _ in range(2)]
    check(sts == [0, 0] and qom_get(qmp, 'fault-emad-skip') == 3,
          'fault-emad-skip is not used while no EMAD fault is armed')
    qom_set(qmp, 'fault-emad-skip', 0)
    qom_set(qmp, 'fault-emad-reg', 0)


    # Delayed responses keep their order, even when the delay shrinks
    qom_set(qmp, 'fault-emad-delay-ms', 20)
    t1 = emad_send(0x2002, bytearray(16))
    qom_set(qmp, 'fault-emad-delay-ms', 0)
    t2 = emad_send(0x2002, bytearray(16))
    early, _ = emad_rx()
    q.cmd('clock_step %d' % (15 * 10 ** 6))
    mid, _ = emad_rx()
    q.cmd('clock_step %d' % (10 * 10 ** 6))
    late, _ = emad_rx()
    check(early == [] and mid == [] and late == [(t1, 0), (t2, 0)],
          'fault-emad-delay-ms 20 then 0: nothing before 20 ms of virtual '
          'time, then both, in order (%s)' % late)
    check(emad(0x2002, bytearray(16))[0] == 0,
          'fault-emad-delay-ms 0 with nothing held: answered at once')

    # Commands: held for 2 s of virtual time, or refused at once
    qom_set(qmp, 'fault-cmd-timeout', 1)
    q.reg_w(0x71008, 0)
    q.reg_w(0x71018, (1 << 23) | 0x004)
    go1 = q.reg_r(0x71018) >> 23 & 1
    q.reg_w(0x71008, 0x1234)
    refused = q.reg_r(0x71008) == 0
    q.cmd('clock_step %d' % (1900 * 10 ** 6))
    go2 = q.reg_r(0x71018) >> 23 & 1
    q.cmd('clock_step %d' % (200 * 10 ** 6))
    ctrl = q.reg_r(0x71018)
    check(go1 == 1 and refused and go2 == 1 and not ctrl & (1 << 23) and
          ctrl >> 24 == 0x01,
          'fault-cmd-timeout 1: GO set for 2 s of virtual time, CIR writes '
          'refused, then INTERNAL_ERR (0x%x)' % (ctrl >> 24))
    st, _ = exec_cmd(q, 0x004)
    check(st == 0, 'next command runs normally')
    qom_set(qmp, 'fault-cmd-error', 1)
    st1, out = exec_cmd(q, 0x004)
    st2, _ = exec_cmd(q, 0x004)
    check(st1 == 4 and out == bytes(4096) and st2 == 0,
          'fault-cmd-error 1: BAD_SYS_STATE (4), not executed, then normal')

    # RX completions: frames sent on port 1 come back trapped from port 2
    def rx_raw():
        frame = bytes.fromhex('ffffffffffff' '020000000001' '0800') + \
            bytes(50)
        r.sdq_send(1, bytes(txhdr(1, False)) + frame)
        r.cqe_poll(1)
        c = r.cqe_poll(NUM_SDQ + 0x14)
        for x in c:
            r.rdq_post(0x14, 1)
        return c

    def rx_one():
        return [(fget(x, 12, 7, 1), fget(x, 4, 0, 14), fget(x, 0, 0, 16))
                for x in rx_raw()]

    qom_set(qmp, 'fault-cqe-error', 1)
    got = [rx_one(), rx_one()]
    check(got == [[(1, 0, 2)], [(0, 64, 2)]],
          'fault-cqe-error 1: error bit, no bytes; then a good completion '
          '(%s)' % got)
    qom_set(qmp, 'fault-cqe-bad-length', 1)
    got = [rx_one(), rx_one()]
    check(got == [[(0, 10001, 2)], [(0, 64, 2)]],
          'fault-cqe-bad-length 1: byte count 10001 for a 10000 byte '
          'buffer; then 64 (%s)' % got)
    qom_set(qmp, 'fault-rdq-bad-port', 1)
    got = [rx_one(), rx_one()]
    check(got == [[(0, 64, 0xFFFE)], [(0, 64, 2)]],
          'fault-rdq-bad-port 1: system port 0xFFFE; then 2 (%s)' % got)
    qom_set(qmp, 'fault-wqe-byte-count', 1)
    c = rx_raw()
    wc = fget(c[0], 4, 16, 16) if c else 0
    wqe = q.mem_read(RDQ_BASE + 0x14 * AQ + (wc % 1024) * 32, 32)
    got = rx_one()
    check(len(c) == 1 and fget(c[0], 4, 0, 14) == 0x3FFF and
          fget(wqe, 0, 0, 14) == 0x3FFF and got == [(0, 64, 2)],
          'fault-wqe-byte-count 1: the WQE in guest memory and the CQE '
          'both say 0x3FFF bytes; then 64 (%s)' % got)
    qom_set(qmp, 'fault-cqe-foreign-dq', 1)
    dqns = [[fget(x, 12, 1, 5) for x in rx_raw()] for _ in range(2)]
    check(dqns == [[0x15], [0x14]],
          'fault-cqe-foreign-dq 1: an RDQ 0x14 completion names RDQ 0x15 on '
          'RDQ 0x14\'s CQ; then 0x14 (%s)' % dqns)

    # Link flaps: ports 1 and 2 are up, PAOS event mode 1 (always)
    emad_rx()
    qom_set(qmp, 'fault-pude-flap', 2)
    left = qom_get(qmp, 'fault-pude-flap')
    seq = []
    for _ in range(5):
        q.cmd('clock_step %d' % (5 * 10 ** 6))
        seq += emad_rx()[1]
    check(left == 2 and seq == [(1, 2), (2, 2), (1, 1), (2, 1)] * 2 and
          qom_get(qmp, 'fault-pude-flap') == 0 and
          [paos_oper(1), paos_oper(2)] == [1, 1],
          'fault-pude-flap 2: ports 1 and 2 down and up twice, a PUDE for '
          'each change, 5 ms of virtual time apart (%s)' % seq)
    qom_set(qmp, 'fault-pude-flap', 5)
    q.cmd('clock_step %d' % (5 * 10 ** 6))
    down = [paos_oper(1), paos_oper(2)]
    qom_set(qmp, 'fault-pude-flap', 0)
    q.cmd('clock_step %d' % (50 * 10 ** 6))
    emad_rx()
    check(down == [2, 2] and [paos_oper(1), paos_oper(2)] == [1, 1],
          'fault-pude-flap set to 0 half way: links up again, flapping '
          'stops')
    # Events (PUDE) reach the CPU with HPKT action 0, as reg.h asks, and
    # with 1, as v4.14+ drivers send; action 7 (firmware default) makes
    # the event unregistered again
    def pude_with(action):
        p = bytearray(0x10)
        fset(p, 0, 20, 3, action)
        fset(p, 0, 0, 10, 0x08)
        st = emad(0x7003, p, True)[0]
        emad_rx()
        qom_set(qmp, 'fault-pude-flap', 1)
        ev = []
        for _ in range(3):
            q.cmd('clock_step %d' % (5 * 10 ** 6))
            ev += emad_rx()[1]
        return st, ev

    flap = [(1, 2), (2, 2), (1, 1), (2, 1)]
    got = [pude_with(a) for a in (0, 7, 1)]
    check(got == [(0, flap), (0, []), (0, flap)],
          'PUDE delivered with HPKT action 0 (forward: reg.h, v4.3-v4.9) and '
          '1 (trap: v4.14+), not after action 7 (firmware default: not '
          'registered) (%s)' % got)

    bad = qmp.cmd('qom-set', path='/machine/peripheral/sw',
                  property='fault-cqe-error', value=-1)
    check('error' in bad, 'fault knobs refuse a negative count')

    # Last: new flood table counts start the flood tables over.
    # Silicon with fewer per-VID flood tables than a profile asks for
    qom_set(qmp, 'fault-max-vid-flood-tables', 1)
    sts = [exec_cmd(q, 0x100, opmod=1, in_mbox=profile_mbox(2, v))[0]
           for v in (3, 1)]
    qom_set(qmp, 'fault-max-vid-flood-tables', 0)
    st3 = exec_cmd(q, 0x100, opmod=1, in_mbox=profile_mbox(2, 3))[0]
    check(sts == [8, 0] and st3 == 0,
          'fault-max-vid-flood-tables 1: CONFIG_PROFILE with 3 per-VID '
          'flood tables -> EXCEED_LIM, with 1 taken; 0: 3 taken (%s)' %
          (sts + [st3]))
    # Silicon (or firmware) without a router
    router = ((0, 2), (1, 8))
    qom_set(qmp, 'fault-no-router', 1)
    sts = [exec_cmd(q, 0x100, opmod=1,
                    in_mbox=profile_mbox(2, 3, swids=sw))[0]
           for sw in (router, ((0, 2),))]
    qom_set(qmp, 'fault-no-router', 0)
    sts.append(exec_cmd(q, 0x100, opmod=1,
                        in_mbox=profile_mbox(2, 3, swids=router))[0])
    check(sts == [3, 0, 0],
          'fault-no-router 1: CONFIG_PROFILE with a router port swid -> '
          'BAD_PARAM, without one taken; 0: the router swid taken (%s)' %
          sts)

    # refuse-reg: silicon without the registers named
    def spvm_vid7(ieu, write=True):
        p = lp_pl(0x400, 1)
        fset(p, 0, 0, 8, 1)
        fset(p, 4, 0, 12, 7)
        fset(p, 4, 12, 3, ieu)
        st, pl = emad(0x200F, p, write)
        return st, fget(pl, 4, 12, 3) if pl else None

    ok = qom_set(qmp, 'refuse-reg', 'spvm, SPVMLR')
    val = qom_get(qmp, 'refuse-reg')
    st_emad = spvm_vid7(6)[0]
    p = lp_pl(0x400, 1)
    fset(p, 0, 0, 8, 1)
    fset(p, 4, 0, 12, 7)
    fset(p, 4, 12, 3, 6)
    st_cmd = reg_cmd(q, 0x200F, p, True)[1]
    st_q, ieu = spvm_vid7(0, write=False)
    check(ok and val == 'SPVM,SPVMLR' and st_emad == 7 and st_cmd == 7 and
          st_q == 0 and ieu == 0,
          'refuse-reg "spvm, SPVMLR" (qom-set): SPVM writes by EMAD and by '
          'ACCESS_REG -> bad parameter, not executed; queries answer (%s)'
          % [val, st_emad, st_cmd, st_q, ieu])
    bad = qmp.cmd('qom-set', path='/machine/peripheral/sw',
                  property='refuse-reg', value='SPVM,NOPE')
    check('error' in bad and qom_get(qmp, 'refuse-reg') == 'SPVM,SPVMLR',
          'refuse-reg with an unknown register name -> error, unchanged')
    qom_set(qmp, 'refuse-reg', '')
    st1 = spvm_vid7(6)[0]
    st2, ieu = spvm_vid7(0, write=False)
    spvm_vid7(0)
    check(qom_get(qmp, 'refuse-reg') == '' and st1 == 0 and ieu == 6,
          'refuse-reg "": SPVM writes executed again')


# L2 pipeline: a second device with a 4 entry FDB and three front panel
# ports on UDP socket netdevs that this script sends and receives on.
MAC_A = bytes.fromhex('02000000000a')
MAC_B = bytes.fromhex('02000000000b')
MAC_C = bytes.fromhex('02000000000c')


def free_udp_port():
    t = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    t.bind(('127.0.0.1', 0))
    port = t.getsockname()[1]
    t.close()
    return port


def lp_pl(size, lp):
    p = bytearray(size)
    fset(p, 0, 16, 8, lp)
    return p


def sfd_rec(pl, i, mac, fid, sys_port, policy=0, action=0, rtype=0):
    o = 0x10 + 0x10 * i
    fset(pl, o, 20, 4, rtype)
    fset(pl, o, 18, 2, policy)
    pl[o + 2:o + 8] = mac
    fset(pl, o + 8, 0, 16, fid)
    fset(pl, o + 12, 28, 4, action)
    fset(pl, o + 12, 0, 16, sys_port)


def sfd_write(q, op, recs):
    pl = bytearray(0x410)
    fset(pl, 4, 30, 2, op)
    fset(pl, 8, 0, 8, len(recs))
    for i, r in enumerate(recs):
        sfd_rec(pl, i, *r)
    st, est, out = reg_cmd(q, 0x200A, pl, True)
    return est, fget(out, 8, 0, 8)


def sfd_dump(q):
    """All entries as {(mac, fid): (sys_port, policy, action)}."""
    ents, loc = {}, 0
    for _ in range(100):
        pl = bytearray(0x410)
        fset(pl, 4, 0, 30, loc)
        st, est, out = reg_cmd(q, 0x200A, pl, False)
        if est != 0:
            return None
        n = fget(out, 8, 0, 8)
        for i in range(n):
            o = 0x10 + 0x10 * i
            key = (bytes(out[o + 2:o + 8]), fget(out, o + 8, 0, 16))
            if key in ents:
                return None
            ents[key] = (fget(out, o + 12, 0, 16), fget(out, o, 18, 2),
                         fget(out, o + 12, 28, 4))
        loc = fget(out, 4, 0, 30)
        if n < 64:
            return ents
    return None


def sfn_read(q, want=64, end=0, swid=0):
    pl = bytearray(0x410)
    fset(pl, 0, 24, 8, swid)
    fset(pl, 4, 20, 1, end)
    fset(pl, 4, 0, 8, want)
    st, est, out = reg_cmd(q, 0x200B, pl, False)
    recs = []
    for i in range(min(fget(out, 4, 0, 8), 64) if est == 0 else 0):
        o = 0x10 + 0x10 * i
        recs.append((fget(out, o, 20, 4), bytes(out[o + 2:o + 8]),
                     fget(out, o + 8, 0, 16), fget(out, o + 12, 0, 16)))
    return est, recs, fget(out, 4, 20, 1)


def sfn_answer(q):
    """What the driver does with SFN (as upstream Spectrum did): an SFD
    edit (policy 3, NOP) for each learned record, a remove for each aged
    one.  Returns the records."""
    est, recs, end = sfn_read(q)
    for t, mac, fid, sp in recs:
        sfd_write(q, 1 if t == 5 else 2, [(mac, fid, sp, 3)])
    return recs


def profile_mbox(single, vid, mode=3, swids=((0, 2),), mask=0x300,
                 extra=None):
    """CONFIG_PROFILE mailbox: flood tables, flood mode and swid types."""
    m = bytearray(4096)
    struct.pack_into('>I', m, 0x0C, mask)
    fset(m, 0x30, 16, 4, single)
    fset(m, 0x30, 8, 4, vid)
    fset(m, 0x30, 0, 3, mode)
    for swid, t in swids:
        fset(m, 0x60 + 8 * swid, 24, 8, 1)
        fset(m, 0x60 + 8 * swid, 20, 4, t)
    if extra:
        extra(m)
    return m


def sftr_pl(table, ttype, index=0, rng=1, ports=(), mask=None, swid=0):
    p = bytearray(0x420)
    fset(p, 0, 24, 8, swid)
    fset(p, 0, 16, 6, table)
    fset(p, 0, 0, 16, index)
    fset(p, 4, 16, 3, ttype)
    fset(p, 4, 0, 16, rng)
    for lp in ports:
        p[0x20 + 31 - lp // 8] |= 1 << (lp % 8)
    for lp in (ports if mask is None else mask):
        p[0x220 + 31 - lp // 8] |= 1 << (lp % 8)
    return p


def sftr_ports(out):
    return [lp for lp in range(0, 256) if out[0x20 + 31 - lp // 8] >>
            (lp % 8) & 1]


def sfgc_pl(ptype, ttype, table, bt=0, mid=0):
    p = bytearray(0x14)
    fset(p, 0, 0, 4, ptype)
    fset(p, 4, 24, 3, bt)
    fset(p, 4, 16, 3, ttype)
    fset(p, 4, 0, 6, table)
    fset(p, 8, 0, 16, mid)
    return p


VID_T, SINGLE_T = 1, 2
MAC_T = bytes.fromhex('02000000001f')


def lag_checks(reg, profile):
    """SLDR, SLCOR and SLCR: the LAG tables and every refusal."""
    def sldr(op, lag, port=None, n=1, write=True):
        p = bytearray(0x0C)
        fset(p, 0, 29, 3, op)
        fset(p, 0, 0, 10, lag)
        if port is not None:
            fset(p, 4, 24, 8, n)
            fset(p, 8, 0, 16, port)
        return reg(0x2014, p, write)

    def slcor(col, lp, lag, index=0, write=True):
        p = bytearray(0x10)
        fset(p, 0, 30, 2, col)
        fset(p, 0, 16, 8, lp)
        fset(p, 0, 0, 10, lag)
        fset(p, 4, 0, 10, index)
        return reg(0x2016, p, write)

    def slcr(pp=0, lp=0, typ=0, fields=0x1FE, seed=0, write=True):
        p = bytearray(0x10)
        fset(p, 0, 24, 1, pp)
        fset(p, 0, 16, 8, lp)
        fset(p, 0, 0, 4, typ)
        fset(p, 4, 0, 20, fields)
        fset(p, 8, 0, 32, seed)
        est, out = reg(0x2015, p, write)
        return est, fget(out, 0, 0, 4), fget(out, 4, 0, 20), fget(out, 8, 0, 32)

    def lag_profile(lags, ports):
        def extra(m):
            fset(m, 0x14, 0, 16, lags)
            fset(m, 0x18, 0, 16, ports)
        return profile(1, 3, mask=0x306, extra=extra)

    check(sldr(0, 0)[0] == 7, 'SLDR create LAG 0 while the profile gives no '
          'LAG -> bad parameter')
    check([lag_profile(65, 16), lag_profile(64, 17)] == [8, 8],
          'CONFIG_PROFILE 65 LAGs / 17 ports per LAG -> EXCEED_LIM')
    check(lag_profile(64, 16) == 0, 'CONFIG_PROFILE 64 LAGs of 16 ports, as '
          'v4.3 asked')
    st = [sldr(0, 64)[0], sldr(0, 3)[0], sldr(0, 3)[0]]
    check(st == [7, 0, 7], 'SLDR create LAG 64 (max_lag 64) -> bad parameter, '
          'LAG 3 created, created again -> bad parameter (%s)' % st)
    st = [slcor(0, 0, 3)[0], slcor(0, 1, 5)[0], sldr(2, 3, port=1)[0],
          slcor(0, 1, 3, index=16)[0]]
    check(st == [7] * 4, 'SLCOR add the CPU port ("not supported for CPU '
          'port") / to LAG 5 (not created); SLDR distributor port 1, not a '
          'member; SLCOR port index 16 (16 per LAG) -> bad parameter (%s)' % st)
    st = [slcor(0, 1, 3, index=0)[0], slcor(0, 2, 3, index=0)[0],
          slcor(0, 2, 3, index=1)[0], slcor(0, 1, 3, index=2)[0]]
    est, out = slcor(0, 1, 3, write=False)
    check(st == [0, 7, 0, 7] and est == 0 and fget(out, 0, 30, 2) == 2 and
          fget(out, 4, 0, 10) == 0,
          'SLCOR port 1 at index 0 of LAG 3; port 2 at index 0 (taken) -> '
          'bad parameter, at 1 accepted; port 1 again -> bad parameter; '
          'port 1 reads collector disabled, index 0 (%s)' % st)
    st = [slcor(1, 1, 3)[0], sldr(2, 3, port=1)[0], sldr(2, 3, port=1)[0],
          sldr(2, 3, port=2, n=2)[0]]
    est, out = slcor(0, 1, 3, write=False)
    est2, out2 = sldr(0, 3, write=False)
    check(st == [0, 0, 0, 7] and fget(out, 0, 30, 2) == 1 and est2 == 0 and
          fget(out2, 4, 24, 8) == 1 and fget(out2, 8, 0, 16) == 1,
          'SLCOR collector on, SLDR distributor port 1; again accepted (on '
          'the list once); a 2-port list -> bad parameter; SLDR reads 1 '
          'distributor, port 1 (%s)' % st)
    st = [slcor(3, 1, 3)[0], sldr(1, 3)[0], sldr(3, 3, port=1)[0],
          sldr(3, 3, port=1)[0], slcor(3, 1, 3)[0], slcor(3, 2, 3)[0],
          sldr(1, 3)[0], sldr(1, 3)[0], slcor(0, 1, 3)[0]]
    check(st == [7, 7, 0, 0, 0, 0, 0, 7, 7],
          'SLCOR remove a distributor / SLDR destroy a LAG with members -> '
          'bad parameter; distributor off (twice: accepted, off already), '
          'members out, LAG destroyed (twice -> bad parameter, then no '
          'SLCOR) (%s)' % st)
    st = [slcr(seed=5)[0], slcr(typ=3)[0], slcr(fields=1 << 18)[0],
          slcr(pp=1, lp=5)[0],
          slcr(pp=1, lp=0, typ=1, fields=0x3E00, seed=5)[0]]
    cpu = slcr(pp=1, lp=0, write=False)
    glob = slcr(write=False)
    check(st == [0, 7, 7, 7, 0] and cpu == (0, 1, 0x3E00, 5) and
          glob == (0, 0, 0x1FE, 5),
          'SLCR global CRC hash seed 5; type 3 / undefined bit 18 / port 5 of '
          '4 -> bad parameter; the CPU port XOR of IPs and L4 ports; global '
          'reads port 1; the seed is one for all (%s, %s, %s)' % (st, cpu, glob))


def cpu_path_setup(q):
    """CQ num_sdq + 0x14 and RDQ 0x14 (4 buffers posted), for trap group
    1 to deliver into.  Returns (statuses, rings, rdqn, cpu_rx), where
    cpu_rx() takes what arrived as (system port field, trap ID, frame)."""
    st, out = exec_cmd(q, 0x003)
    num_sdq = fget(out, 0, 0, 8)
    cqn, rdqn = num_sdq + 0x14, 0x14
    r = Rings(q)
    q.mem_write(CQ_BASE + cqn * AQ, bytes.fromhex('00' * 12 + '00000001') *
                2048)
    m = bytearray(4096)
    fset(m, 0, 24, 1, 1)
    fset(m, 0, 0, 4, 11)
    for i in range(8):
        struct.pack_into('>Q', m, 0x10 + 8 * i, CQ_BASE + cqn * AQ + i * 4096)
    st1, _ = exec_cmd(q, 0x016, in_mod=cqn, in_mbox=m)
    r.db(0x400, cqn, 2048)
    m = bytearray(4096)
    fset(m, 0, 24, 8, cqn)
    fset(m, 0, 0, 6, 3)
    for i in range(8):
        struct.pack_into('>Q', m, 0x10 + 8 * i, RDQ_BASE + rdqn * AQ + i * 4096)
    st2, _ = exec_cmd(q, 0x201, opmod=1, in_mod=rdqn, in_mbox=m)
    r.db(0x200, rdqn, 0)
    r.rdq_post(rdqn, 4)

    def cpu_rx(lag=False):
        """With @lag, (lag bit, LAG ID, port index, trap ID) instead."""
        out = []
        for c in r.cqe_poll(cqn):
            f = q.mem_read(r.rdq_buf(rdqn, fget(c, 4, 16, 16)),
                           fget(c, 4, 0, 14))
            r.rdq_post(rdqn, 1)
            if lag:
                out.append((fget(c, 0, 23, 1), fget(c, 0, 4, 12),
                            fget(c, 0, 0, 4), fget(c, 8, 0, 10)))
            else:
                out.append((fget(c, 0, 0, 16), fget(c, 8, 0, 10), bytes(f)))
        return out
    return (st1, st2), r, rdqn, cpu_rx, cqn


def l2_main():
    q, socks = qtest_wired(',fdb-size=4')
    dev = find_dev(q)
    check(dev is not None, 'L2: switchx2 with fdb-size=4 found')
    cfg_w32(q, dev, 0x10, BAR | 4)
    cfg_w32(q, dev, 0x14, 0)
    cfg_w32(q, dev, 0x04, 0x6)

    def reg(reg_id, pl, write):
        st, est, out = reg_cmd(q, reg_id, pl, write)
        return est, out

    def profile(*a, **kw):
        return exec_cmd(q, 0x100, opmod=1, in_mbox=profile_mbox(*a, **kw))[0]

    # CONFIG_PROFILE: what SwitchX-2 does not have is refused whole
    def fid_offset_tables(m):
        fset(m, 0x34, 24, 4, 1)

    def fid_tables(m):
        fset(m, 0x38, 24, 4, 1)

    def ar_sec(m):
        fset(m, 0x4C, 24, 2, 2)

    def arn(m):
        fset(m, 0x50, 31, 1, 1)
    check(profile(1, 3, extra=fid_offset_tables) == 3,
          'CONFIG_PROFILE max_fid_offset_flood_tables 1 -> BAD_PARAM')
    check(profile(1, 3, extra=fid_tables) == 3,
          'CONFIG_PROFILE max_fid_flood_tables 1 -> BAD_PARAM')
    check([profile(1, 3, mode=m) for m in (0, 1, 2, 4)] == [3] * 4,
          'CONFIG_PROFILE flood_mode 0/1/2/4 -> BAD_PARAM')
    check(profile(1, 3, mask=0x300 | (1 << 15), extra=ar_sec) == 3,
          'CONFIG_PROFILE ar_sec 2 -> BAD_PARAM')
    check(profile(1, 3, extra=arn) == 3, 'CONFIG_PROFILE arn 1 -> BAD_PARAM')
    check(profile(5, 4) == 8, 'CONFIG_PROFILE 5 + 4 flood tables -> '
          'EXCEED_LIM')
    check([reg(0x2011, sfgc_pl(0, t, 0), True)[0] for t in (1, 2)] ==
          [7, 7], 'no flood tables before a profile provisions them '
          '(refused profiles changed nothing): SFGC -> bad parameter')
    check(profile(1, 3) == 0, 'CONFIG_PROFILE 1 single + 3 VID flood '
          'tables, swid 0 Ethernet, flood_mode 3')
    lag_checks(reg, profile)

    # SFN with nothing learned
    est, recs, end = sfn_read(q)
    check(est == 0 and recs == [] and end == 0,
          'SFN empty: 0 records, end 0 (a request bit, never reported)')

    # SFDAT
    est, out = reg(0x2009, bytearray(8), False)
    check(est == 0 and fget(out, 4, 0, 20) == 300, 'SFDAT default 300 s')
    bad = []
    for t in (0, 9, 1000001):
        p = bytearray(8)
        fset(p, 4, 0, 20, t)
        bad.append(reg(0x2009, p, True)[0])
    p = bytearray(8)
    fset(p, 0, 24, 8, 1)
    fset(p, 4, 0, 20, 100)
    bad.append(reg(0x2009, p, True)[0])
    check(bad == [7] * 4, 'SFDAT 0/9/1000001 s and swid 1 -> bad parameter')
    p = bytearray(8)
    fset(p, 4, 0, 20, 10)
    reg(0x2009, p, True)
    est, out = reg(0x2009, bytearray(8), False)
    check(est == 0 and fget(out, 4, 0, 20) == 10, 'SFDAT 10 s round trip')

    # SPVID
    def spvid(lp, pvid, tport=0, sub=0):
        p = lp_pl(8, lp)
        fset(p, 0, 24, 1, tport)
        fset(p, 0, 8, 8, sub)
        fset(p, 4, 0, 12, pvid)
        return reg(0x200E, p, True)[0]

    est = spvid(3, 100)
    est2, out = reg(0x200E, lp_pl(8, 3), False)
    check(est == 0 and est2 == 0 and fget(out, 4, 0, 12) == 100,
          'SPVID port 3 PVID 100 round trip')
    est, out = reg(0x200E, lp_pl(8, 2), False)
    check(est == 0 and fget(out, 4, 0, 12) == 1, 'SPVID default PVID 1')
    check(reg(0x200E, lp_pl(8, 0), True)[0] == 7 and
          reg(0x200E, lp_pl(8, 5), False)[0] == 7,
          'SPVID CPU port / port 5 of 4 -> bad parameter')
    check(spvid(3, 5, tport=1) == 7, 'SPVID tport 1 (reserved on '
          'SwitchX-2) -> bad parameter')
    check(spvid(3, 5, sub=1) == 7, 'SPVID sub_port 1 -> bad parameter')
    check([spvid(3, 0), spvid(3, 4095)] == [7, 7] and
          fget(reg(0x200E, lp_pl(8, 3), False)[1], 4, 0, 12) == 100,
          'SPVID PVID 0 / 4095 -> bad parameter, PVID unchanged')
    spvid(3, 1)

    # SPVM
    def spvm_query(lp, vids):
        p = lp_pl(0x400, lp)
        fset(p, 0, 0, 8, len(vids))
        for i, v in enumerate(vids):
            fset(p, 4 + 4 * i, 0, 12, v)
        est, out = reg(0x200F, p, False)
        return est, [fget(out, 4 + 4 * i, 12, 3) for i in range(len(vids))]

    def spvm(lp, recs):
        p = lp_pl(0x400, lp)
        fset(p, 0, 0, 8, len(recs))
        for i, (v, ieu) in enumerate(recs):
            fset(p, 4 + 4 * i, 0, 12, v)
            fset(p, 4 + 4 * i, 12, 3, ieu)
        return reg(0x200F, p, True)[0]

    check(spvm_query(2, [1, 2, 100]) == (0, [7, 0, 0]),
          'SPVM default: VID 1 i/e/u member, VID 2 and 100 not')
    est = spvm(2, [(100, 6), (101, 6), (102, 7)])
    check(est == 0 and spvm_query(2, [99, 100, 101, 102]) == (0, [0, 6, 6,
                                                                  7]),
          'SPVM port 2 VIDs 100-102 round trip')
    check(reg(0x200F, lp_pl(0x400, 7), True)[0] == 7,
          'SPVM port 7 -> bad parameter')
    check([spvm(2, [(200, 6), (0, 6)]), spvm(2, [(200, 6), (4095, 6)])] ==
          [7, 7] and spvm_query(2, [200]) == (0, [0]),
          'SPVM VID 0 / 4095 -> bad parameter, whole write refused (VID '
          '200 not added)')

    # SPAFT, SPVMLR
    p = lp_pl(8, 2)
    fset(p, 4, 29, 1, 1)
    est, _ = reg(0x2010, p, True)
    est2, out = reg(0x2010, lp_pl(8, 2), False)
    check(est == 0 and fget(out, 4, 29, 3) == 1,
          'SPAFT port 2 tagged only round trip')
    fset(p, 4, 29, 3, 7)
    reg(0x2010, p, True)
    check(reg(0x2010, lp_pl(8, 0), True)[0] == 7,
          'SPAFT CPU port (unsupported) -> bad parameter')

    def spvmlr(lp, recs, write=True):
        p = lp_pl(0x400, lp)
        fset(p, 0, 0, 8, len(recs))
        for i, (v, en) in enumerate(recs):
            fset(p, 4 + 4 * i, 0, 12, v)
            fset(p, 4 + 4 * i, 31, 1, en)
        return reg(0x2020, p, write)

    spvmlr(1, [(5, 0), (6, 1)])
    est, out = spvmlr(1, [(5, 0), (6, 0)], False)
    check(est == 0 and fget(out, 4, 31, 1) == 0 and fget(out, 8, 31, 1) == 1,
          'SPVMLR port 1 VID 5 off, VID 6 on')
    check(spvmlr(0, [(5, 1)])[0] == 7,
          'SPVMLR CPU port (unsupported) -> bad parameter')
    est, out = spvmlr(1, [(6, 0), (4095, 0)])
    est2, out = spvmlr(1, [(6, 0), (0, 0)])
    check((est, est2) == (7, 7) and
          fget(spvmlr(1, [(6, 0)], False)[1], 4, 31, 1) == 1,
          'SPVMLR VID 4095 / 0 -> bad parameter, whole write refused')

    # SFMR: 802.1Q FIDs only, they always exist
    def sfmr(op, fid, off=0, bt=0, write=True):
        p = bytearray(0x30)
        fset(p, 0, 24, 4, op)
        fset(p, 0, 0, 16, fid)
        fset(p, 8, 28, 1, bt)
        fset(p, 8, 0, 16, off)
        return reg(0x201F, p, write)

    est, out = sfmr(0, 10, write=False)
    check(sfmr(0, 10)[0] == 0 and est == 0 and fget(out, 8, 0, 16) == 0 and
          fget(out, 8, 28, 1) == 0,
          'SFMR create of 802.1Q FID 10 accepted, query: offset 0')
    check([sfmr(0, 4096)[0], sfmr(0, 5000, write=False)[0]] == [7, 7],
          'SFMR FID 4096 / 5000 (no vFIDs on SwitchX-2) -> bad parameter')
    check([sfmr(0, 0)[0], sfmr(0, 4095)[0]] == [7, 7],
          'SFMR FID 0 / 4095 -> bad parameter')
    check(sfmr(0, 10, off=10)[0] == 7,
          'SFMR fid_offset 10 (no FID-offset tables) -> bad parameter')
    check(sfmr(0, 10, bt=1)[0] == 7,
          'SFMR flood_bridge_type 1 -> bad parameter')
    check(sfmr(1, 10)[0] == 7,
          'SFMR destroy of an 802.1Q FID -> bad parameter')
    check(sfmr(2, 10)[0] == 7, 'SFMR op 2 -> bad parameter')

    # SVFA: the global VID to FID table, FID = VID
    def svfa(vid, fid, lp=0, v=0, mt=0, cst=0, ci=0, write=True):
        p = lp_pl(0x18, lp)
        fset(p, 0, 8, 3, mt)
        fset(p, 0, 0, 1, v)
        fset(p, 4, 16, 16, fid)
        fset(p, 4, 0, 12, vid)
        fset(p, 8, 24, 8, cst)
        fset(p, 8, 0, 24, ci)
        return reg(0x201C, p, write)

    est, out = svfa(10, 0, write=False)
    check(svfa(10, 10)[0] == 0 and est == 0 and
          fget(out, 4, 16, 16) == 10 and fget(out, 0, 0, 1) == 0,
          'SVFA VID 10 -> FID 10 accepted, query returns FID = VID')
    check(svfa(10, 10, mt=1, lp=3)[0] == 7,
          'SVFA mapping_table 1 (reserved on SwitchX-2) -> bad parameter')
    check(svfa(10, 10, v=1)[0] == 7,
          'SVFA v 1 (reserved on SwitchX-2) -> bad parameter')
    check([svfa(10, 10, cst=1)[0], svfa(10, 10, ci=5)[0]] == [7, 7],
          'SVFA counter_set_type / counter_index (reserved) -> bad '
          'parameter')
    check(svfa(10, 10, lp=3)[0] == 7,
          'SVFA local_port 3 (reserved for 802.1Q FIDs) -> bad parameter')
    check(svfa(10, 4096)[0] == 7 and svfa(11, 7)[0] == 7,
          'SVFA VID 10 -> FID 4096, VID 11 -> FID 7 (shared learning: '
          'undocumented) -> bad parameter')

    # SVPE: no virtual ports
    est, _ = reg(0x201E, lp_pl(4, 3), True)
    est2, out = reg(0x201E, lp_pl(4, 3), False)
    check(est == 0 and est2 == 0 and fget(out, 0, 8, 1) == 0,
          'SVPE port 3 vp_en 0 accepted, reads 0')
    p = lp_pl(4, 3)
    fset(p, 0, 8, 1, 1)
    check(reg(0x201E, p, True)[0] == 7 and
          fget(reg(0x201E, lp_pl(4, 3), False)[1], 0, 8, 1) == 0,
          'SVPE vp_en 1 (no virtual ports) -> bad parameter')
    check(reg(0x201E, lp_pl(4, 0), True)[0] == 7,
          'SVPE CPU port (unsupported) -> bad parameter')

    # SFGC
    check(reg(0x2011, sfgc_pl(0, VID_T, 0, bt=1), True)[0] == 7,
          'SFGC bridge_type 1 (802.1Q only) -> bad parameter')
    check([reg(0x2011, sfgc_pl(0, t, 0), True)[0] for t in (3, 4)] ==
          [7, 7], 'SFGC table_type 3 / 4 (FID-offset, FID) -> bad parameter')
    check(reg(0x2011, sfgc_pl(0, 0, 0), True)[0] == 7,
          'SFGC table_type 0 (any: not implemented) -> bad parameter')
    check([reg(0x2011, sfgc_pl(0, VID_T, 3), True)[0],
           reg(0x2011, sfgc_pl(0, SINGLE_T, 1), True)[0]] == [7, 7],
          'SFGC VID table 3 / single table 1 beyond the profile -> bad '
          'parameter')
    check(reg(0x2011, sfgc_pl(4, VID_T, 0), True)[0] == 7,
          'SFGC packet type 4 (reserved) -> bad parameter')
    est, out = reg(0x2011, sfgc_pl(7, 0, 0), False)
    check(est == 0 and fget(out, 4, 16, 3) == 0,
          'SFGC type 7 unconfigured, bad writes changed nothing')

    # SFTR
    check(reg(0x2012, sftr_pl(0, VID_T, 1, 1, [1], swid=1), True)[0] == 7,
          'SFTR naming swid 1 for a table of swid 0 -> bad parameter')
    check([reg(0x2012, sftr_pl(0, VID_T, 1, 0, [1]), True)[0],
           reg(0x2012, sftr_pl(0, VID_T, 4095, 2, [1]), True)[0]] == [7, 7],
          'SFTR VID table range 0 / index 4095 range 2 -> bad parameter')
    check(reg(0x2012, sftr_pl(0, SINGLE_T, 0, 2, [1]), True)[0] == 7,
          'SFTR single table range 2 -> bad parameter')
    check([reg(0x2012, sftr_pl(0, t, 1, 1, [1]), True)[0]
           for t in (0, 3, 4)] == [7] * 3,
          'SFTR table_type 0 / 3 / 4 -> bad parameter')
    check(reg(0x2012, sftr_pl(0, VID_T, 1, 1, [1, 5]), True)[0] == 7,
          'SFTR port_mask bit of port 5 of 4 -> bad parameter')
    est = reg(0x2012, sftr_pl(1, VID_T, 10, 2, [1]), True)[0]
    got = [sftr_ports(reg(0x2012, sftr_pl(1, VID_T, i), False)[1])
           for i in (9, 10, 11, 12)]
    check(est == 0 and got == [[], [1], [1], []],
          'SFTR range is a count: index 10 range 2 sets entries 10 and 11 '
          'only (%s)' % got)
    reg(0x2012, sftr_pl(1, VID_T, 11, 1, [], mask=[1]), True)
    est, out = reg(0x2012, sftr_pl(1, VID_T, 11), False)
    check(est == 0 and sftr_ports(out) == [] and
          sftr_ports(reg(0x2012, sftr_pl(1, VID_T, 10), False)[1]) == [1],
          'SFTR clears only where port_mask is set, one entry')
    est = reg(0x2012, sftr_pl(0, SINGLE_T, 77, 0, [2, 3], mask=[0, 2, 3]),
              True)[0]
    check(est == 0 and sftr_ports(reg(0x2012, sftr_pl(0, SINGLE_T), False)
                                  [1]) == [2, 3],
          'SFTR single table: index ignored, range 0 accepted')

    # SFD: add, dump, full table, remove, malformed and unsupported
    est, n = sfd_write(q, 1, [(MAC_A, 1, 1), (MAC_B, 1, 2),
                              (MAC_C, 2, 3, 3)])
    check(est == 0 and n == 3, 'SFD add 3 records: num_rec 3')
    d = sfd_dump(q)
    check(d == {(MAC_A, 1): (1, 0, 0), (MAC_B, 1): (2, 0, 0),
                (MAC_C, 2): (3, 3, 0)}, 'SFD dump returns them: %s' % d)
    macs = [bytes.fromhex('0200000001%02x' % i) for i in range(3)]
    est, n = sfd_write(q, 1, [(m, 1, 1) for m in macs])
    check(est == 0 and n == 1, 'SFD add 3 more to a 4 entry table: '
          'num_rec %d' % n)
    est, n = sfd_write(q, 1, [(MAC_A, 1, 2, 0, 15)])
    check(est == 0 and n == 1 and sfd_dump(q)[(MAC_A, 1)] == (2, 0, 15),
          'SFD update of an entry in a full table')
    est, n = sfd_write(q, 2, [(MAC_A, 1, 0), (macs[1], 1, 0)])
    check(est == 0 and n == 2 and len(sfd_dump(q)) == 3,
          'SFD remove (one missing) -> num_rec 2')

    # SFDF
    def sfdf(ftype, fid=0, statics=0):
        p = bytearray(0x14)
        fset(p, 4, 28, 4, ftype)
        fset(p, 4, 24, 1, statics)
        fset(p, 0x0C, 0, 16, fid)
        return reg(0x2013, p, True)[0]

    check(sfdf(1, 2) == 0 and len(sfd_dump(q)) == 2,
          'SFDF FID 2 flushes its dynamic entry')
    check([sfdf(1, 4096), sfdf(1, 0), sfdf(1, 4095)] == [7] * 3,
          'SFDF FID 4096 / 0 / 4095 -> bad parameter')
    check([sfdf(4, 64), sfdf(5)] == [7, 7] and sfdf(4, 0) == 0 and
          len(sfd_dump(q)) == 2, 'SFDF LAG 64 (max_lag 64) / LAG and FID 0 '
          '-> bad parameter; LAG 0 flushes nothing of the ports\' entries')
    check(sfdf(0) == 0 and len(sfd_dump(q)) == 2, 'SFDF all, dynamic only: '
          'static entries stay')
    check(sfdf(0, statics=1) == 0 and sfd_dump(q) == {},
          'SFDF all with static: empty')

    def sfd_one(fid=1, sys_port=1, policy=0, action=0, rtype=0,
                set_vid=False):
        pl = bytearray(0x410)
        fset(pl, 4, 30, 2, 1)
        fset(pl, 8, 0, 8, 2)
        sfd_rec(pl, 0, MAC_A, 1, 1)
        sfd_rec(pl, 1, MAC_T, fid, sys_port, policy, action, rtype)
        fset(pl, 0x20 + 8, 31, 1, 1 if set_vid else 0)
        st, est, out = reg_cmd(q, 0x200A, pl, True)
        d = sfd_dump(q)
        sfd_write(q, 2, [(MAC_A, 1, 0)])
        return est, fget(out, 8, 0, 8), (MAC_T, fid) in d

    check(sfd_one() == (0, 2, True) and sfd_write(q, 2, [(MAC_T, 1, 0)]) ==
          (0, 1), 'SFD two valid records: num_rec 2 (control)')
    check(sfd_one(rtype=2) == (0, 1, False),
          'SFD multicast record with mc_pgi 0 (no port group table) -> '
          'stops, num_rec 1')
    check(sfd_one(fid=4096) == (0, 1, False),
          'SFD FID 4096 (no vFIDs) -> stops, num_rec 1')
    check(sfd_one(fid=0) == (0, 1, False) and
          sfd_one(fid=4095) == (0, 1, False),
          'SFD FID 0 / 4095 -> stops, num_rec 1')
    check(sfd_one(policy=1) == (0, 1, False),
          'SFD policy 1 (dynamic MLAG) -> stops, num_rec 1')
    check(sfd_one(policy=2) == (0, 1, False),
          'SFD policy 2 (not in the enum, semantics undocumented) -> '
          'stops, num_rec 1')
    check(sfd_one(set_vid=True) == (0, 1, False),
          'SFD set_vid 1 -> stops, num_rec 1')
    check(sfd_one(action=1) == (0, 1, False) and
          sfd_one(action=3) == (0, 1, False),
          'SFD action MIRROR_TO_CPU / FORWARD_IP_ROUTER -> stops, num_rec 1')
    check(sfd_one(action=5) == (0, 1, False),
          'SFD action 5 (reserved) -> stops, num_rec 1')
    check(sfd_one(policy=3, action=2) == (0, 1, False) and
          sfd_one(policy=3, action=15) == (0, 1, False),
          'SFD dynamic entry with action TRAP / DISCARD_ERROR -> stops, '
          'num_rec 1')
    check(sfd_one(sys_port=77) == (0, 1, False),
          'SFD system port mapping to no port -> stops, num_rec 1')
    pl = bytearray(0x410)
    fset(pl, 4, 30, 2, 1)
    fset(pl, 8, 0, 8, 65)
    check(reg(0x200A, pl, True)[0] == 7, 'SFD 65 records -> bad parameter')

    # Ageing of a dynamic entry
    sfd_write(q, 1, [(MAC_B, 1, 2, 3)])
    q.cmd('clock_step %d' % (5 * 10 ** 9))
    check(len(sfd_dump(q)) == 1, 'dynamic entry still there after 5 s')
    q.cmd('clock_step %d' % (7 * 10 ** 9))
    est, recs, end = sfn_read(q)
    check(sfd_dump(q) == {} and recs == [(7, MAC_B, 1, 2)] and end == 0,
          'aged out after 10 s, SFN AGED_OUT_MAC %s' % recs)

    # HTGT / HPKT, and a CPU path: FDB_MC -> group 1 -> RDQ 0x14
    def htgt(group, rdq, mirror=0, agent=0, pide=0, pid=0):
        p = bytearray(0x20)
        fset(p, 0, 0, 8, group)
        fset(p, 4, 15, 1, pide)
        fset(p, 4, 0, 8, pid)
        fset(p, 8, 8, 2, mirror)
        fset(p, 8, 0, 3, agent)
        fset(p, 0x10, 0, 6, rdq)
        return reg(0x7002, p, True)[0]

    check(htgt(1, 0x14, mirror=1) == 7 and htgt(1, 0x14, agent=2) == 7,
          'HTGT mirror_action / mirroring_agent (Spectrum-only) -> bad '
          'parameter')
    check(htgt(1, 0x14, pide=1) == 7, 'HTGT pide 1 pid 0, a policer QPCR '
          'never configured -> bad parameter')
    check(htgt(1, 0x14) == 0, 'HTGT group 1 -> RDQ 0x14')
    p = bytearray(0x10)
    fset(p, 0, 20, 3, 1)
    fset(p, 0, 12, 6, 1)
    fset(p, 0, 0, 10, 0x01)
    fset(p, 4, 16, 2, 2)
    est, _ = reg(0x7003, p, True)
    p = bytearray(0x10)
    fset(p, 0, 0, 10, 0x01)
    est2, out = reg(0x7003, p, False)
    check(est == 0 and est2 == 0 and fget(out, 0, 12, 6) == 1 and
          fget(out, 4, 16, 2) == 0,
          'HPKT FDB_MC with ctrl 2 accepted (ignored), ctrl reads 0')
    (st1, st2), r, rdqn, cpu_rx, cqn = cpu_path_setup(q)
    check(st1 == 0 and st2 == 0, 'CPU path: CQ %d and RDQ 0x14' % cqn)

    # Learning and forwarding.  VID table 0 floods broadcast, unknown
    # unicast and IP multicast; single table 0 floods non-IP multicast.
    for lp in (1, 2, 3):
        p = lp_pl(0x10, lp)
        fset(p, 0, 8, 4, 1)
        fset(p, 4, 31, 1, 1)
        reg(0x5006, p, True)
    check(reg(0x2012, sftr_pl(0, VID_T, 1, 1, [1, 2, 3]), True)[0] == 0,
          'SFTR VID table 0 entry 1 (VID 1) = ports 1-3')
    ok = True
    for t in (0, 1, 2, 3):
        ok = ok and reg(0x2011, sfgc_pl(t, VID_T, 0), True)[0] == 0
    ok = ok and reg(0x2011, sfgc_pl(5, SINGLE_T, 0, mid=0x1234),
                    True)[0] == 0
    est, out = reg(0x2011, sfgc_pl(5, 0, 0), False)
    check(ok and est == 0 and fget(out, 4, 16, 3) == 2 and
          fget(out, 8, 0, 16) == 0x1234,
          'SFGC types 0-3 -> VID table 0, type 5 -> single table 0, mid '
          'echoed')
    for lp in (1, 2):
        p = lp_pl(8, lp)
        fset(p, 4, 30, 2, 2)
        reg(0x2018, p, True)

    def spms(lp, states):
        p = lp_pl(0x404, lp)
        for vid, st in states:
            p[4 + (4095 - vid) // 4] |= st << ((vid % 4) * 2)
        return reg(0x200D, p, True)[0]

    def inject(lp, frame):
        for sk, _ in socks:
            sk.setblocking(False)
            try:
                while True:
                    sk.recv(20000)
            except BlockingIOError:
                pass
            sk.settimeout(0.3)
        socks[lp - 1][0].sendto(frame, ('127.0.0.1', socks[lp - 1][1]))
        time.sleep(0.1)
        q.cmd('clock_step 1000')
        got = {}
        for i, (sk, _) in enumerate(socks):
            try:
                got[i + 1] = sk.recv(20000)
            except socket.timeout:
                pass
        return got

    payload = struct.pack('>H', 0x0800) + bytes(range(46))
    est, out = reg(0x200D, lp_pl(0x404, 1), False)
    got = inject(1, b'\xff' * 6 + MAC_A + payload)
    check(est == 0 and out[4:0x404] == b'\x55' * 0x400 and got == {},
          'SPMS default: every VID discarding, nothing forwarded')
    check([spms(lp, [(1, 3), (20, 3), (30, 3)]) for lp in (1, 2, 3)] ==
          [0] * 3, 'SPMS ports 1-3 VIDs 1, 20, 30 forwarding')
    got = inject(1, b'\xff' * 6 + MAC_A + payload)
    check(sorted(got) == [2, 3] and got[2][:60] == b'\xff' * 6 + MAC_A +
          payload, 'broadcast from port 1 floods to ports 2 and 3 (%s)' %
          sorted(got))
    est, recs, end = sfn_read(q)
    check(recs == [(5, MAC_A, 1, 1)] and (MAC_A, 1) not in sfd_dump(q),
          'SFN LEARNED_MAC %s on port 1, no FDB entry until the driver '
          'writes one' % recs)
    est, n = sfd_write(q, 1, [(MAC_A, 1, 1, 3)])
    check(est == 0 and n == 1 and sfd_dump(q).get((MAC_A, 1)) == (1, 3, 0),
          'the driver\'s SFD edit (policy 3, NOP) installs MAC A on port 1')
    got = inject(2, MAC_A + MAC_B + payload)
    check(sorted(got) == [1], 'unicast to the learned MAC goes to port 1 '
          'only (%s)' % sorted(got))
    sfn_answer(q)
    got = inject(3, MAC_A + MAC_C + payload)
    est, recs, end = sfn_read(q)
    check(sorted(got) == [1] and recs == [] and
          (MAC_C, 1) not in sfd_dump(q),
          'port 3 (learning disabled) forwards but raises no LEARNED_MAC')
    check(cpu_rx() == [], 'the CPU is in no flood set: it got nothing')

    # SFD TRAP: unicast to the CPU only, whatever floods would do
    got = inject(2, MAC_T + MAC_B + payload)
    check(sorted(got) == [1, 3], 'unknown unicast floods to ports 1 and 3 '
          '(%s)' % sorted(got))
    est, n = sfd_write(q, 1, [(MAC_T, 1, 0, 0, 2)])
    got = inject(2, MAC_T + MAC_B + payload)
    rx = cpu_rx()
    check(est == 0 and n == 1 and got == {} and len(rx) == 1 and
          rx[0][:2] == (2, 0x01) and rx[0][2][:6] == MAC_T,
          'SFD TRAP entry: unicast to the CPU only, trap FDB_MC, from '
          'port 2 (%s, %s)' % (sorted(got), [x[:2] for x in rx]))
    sfd_write(q, 2, [(MAC_T, 1, 0)])

    # Flood classification: single table, unconfigured types, SGCR.llb
    nonip = bytes.fromhex('030000000001') + MAC_A + b'\x88\xb5' + bytes(46)
    got = inject(1, nonip)
    check(sorted(got) == [2, 3], 'non-IP multicast -> single table 0 = '
          'ports 2, 3 (%s)' % sorted(got))
    got = inject(3, nonip)
    check(sorted(got) == [2], 'single table: not back to the ingress port '
          '(%s)' % sorted(got))

    def ip4(dst):
        return (b'\x45\x00\x00\x2e' + bytes(4) + b'\x01\x11\x00\x00' +
                bytes([10, 0, 0, 1]) + bytes(dst) + bytes(26))

    mdns = bytes.fromhex('01005e0000fb') + MAC_A + b'\x08\x00' + \
        ip4([224, 0, 0, 251])
    mc1 = bytes.fromhex('01005e000105') + MAC_A + b'\x08\x00' + \
        ip4([224, 0, 1, 5])
    got1 = inject(1, mdns)
    got2 = inject(1, mc1)
    check(got1 == {} and sorted(got2) == [2, 3],
          'SGCR.llb 0: 224.0.0.251 is type 6 (unconfigured: dropped), '
          '224.0.1.5 type 2 floods (%s, %s)' % (sorted(got1), sorted(got2)))
    p = bytearray(0x10)
    fset(p, 4, 0, 1, 1)
    est, _ = reg(0x2000, p, True)
    got = inject(1, mdns)
    check(est == 0 and sorted(got) == [2, 3],
          'SGCR.llb 1: 224.0.0.251 flooded as broadcast (%s)' % sorted(got))
    v6 = b'\x86\xdd' + b'\x60' + bytes(45)
    got1 = inject(1, bytes.fromhex('333300000001') + MAC_A + v6)
    got2 = inject(1, bytes.fromhex('3333ff000001') + MAC_A + v6)
    check(got1 == {} and sorted(got2) == [2, 3],
          'IPv6 all-hosts is type 7 (unconfigured: dropped), other IPv6 '
          'multicast type 3 floods (%s, %s)' % (sorted(got1), sorted(got2)))

    # VID tables: two VIDs with different flood memberships
    for lp in (1, 2, 3):
        spvm(lp, [(20, 6), (30, 6)])
    reg(0x2012, sftr_pl(0, VID_T, 20, 1, [1, 2]), True)
    reg(0x2012, sftr_pl(0, VID_T, 30, 1, [1, 3]), True)

    def tagged(vid, src=MAC_A):
        return b'\xff' * 6 + src + b'\x81\x00' + struct.pack('>H', vid) + \
            payload

    got20 = inject(1, tagged(20))
    got30 = inject(1, tagged(30))
    check(sorted(got20) == [2] and got20[2][12:16] == b'\x81\x00\x00\x14' and
          sorted(got30) == [3] and got30[3][12:16] == b'\x81\x00\x00\x1e',
          'VID 20 floods to port 2 only, VID 30 to port 3 only, tagged '
          '(%s, %s)' % (sorted(got20), sorted(got30)))
    got = inject(2, tagged(20, MAC_B))
    check(sorted(got) == [1], 'VID 20 from port 2 reaches port 1, not 3 '
          '(%s)' % sorted(got))

    # VLAN membership, tagging and STP, all VID 1
    got = inject(1, b'\xff' * 6 + MAC_A + b'\x81\x00\x00\x64' + payload)
    check(got == {}, 'tagged VID 100 frame on a non-member port dropped')
    spvm(3, [(1, 6)])
    got = inject(1, b'\xff' * 6 + MAC_A + payload)
    check(sorted(got) == [2, 3] and got[3][12:16] == b'\x81\x00\x00\x01'
          and got[2][12:14] == b'\x08\x00',
          'tagged member port 3 gets VID 1 tagged, port 2 untagged')
    got = inject(3, b'\xff' * 6 + MAC_C + b'\x81\x00\x00\x01' + payload)
    check(sorted(got) == [1, 2] and got[1][12:14] == b'\x08\x00',
          'tagged VID 1 from port 3 leaves port 1 untagged')
    p = lp_pl(0x404, 2)
    p[4 + (4095 - 1) // 4] = 1 << 2
    reg(0x200D, p, True)
    got = inject(1, b'\xff' * 6 + MAC_A + payload)
    check(sorted(got) == [3], 'port 2 STP discarding for VID 1: not sent')

    # Pipeline order: traps after VLAN filtering and STP, but for the
    # link-local protocols (BPDUs, LACP, LLDP, EAPOL)
    def hpkt_set(trap, action, group=1):
        p = bytearray(0x10)
        fset(p, 0, 20, 3, action)
        fset(p, 0, 12, 6, group)
        fset(p, 0, 0, 10, trap)
        return reg(0x7003, p, True)[0]

    sts = [hpkt_set(t, 1) for t in (0x10, 0x13, 0x15, 0x19)]
    MAC_L, MAC_M, MAC_N = (bytes.fromhex('0200000000%02x' % i)
                           for i in (0x41, 0x42, 0x43))
    bpdu = bytes.fromhex('0180c2000000') + MAC_M + b'\x00\x26' + \
        b'\x42\x42\x03' + bytes(43)
    lldp = bytes.fromhex('0180c200000e') + MAC_M + b'\x88\xcc' + bytes(46)
    mvrp = bytes.fromhex('0180c2000021') + MAC_M + b'\x88\xf5' + bytes(46)

    def dhcp(src, vid=None):
        udp = struct.pack('>HHHH', 68, 67, 8 + 18, 0) + bytes(18)
        ip = b'\x45\x00' + struct.pack('>H', 20 + len(udp)) + bytes(4) + \
            b'\x40\x11\x00\x00' + bytes(4) + b'\xff' * 4 + udp
        tag = b'' if vid is None else b'\x81\x00' + struct.pack('>H', vid)
        return b'\xff' * 6 + src + tag + b'\x08\x00' + ip

    sfn_read(q)
    cpu_rx()
    res = {}
    for name, frame in (('bpdu', bpdu), ('lldp', lldp), ('mvrp', mvrp),
                        ('dhcp', dhcp(MAC_M))):
        got = inject(2, frame)
        res[name] = (sorted(got), [x[:2] for x in cpu_rx()])
    recs = sfn_read(q)[1]
    check(sts == [0] * 4 and res == {'bpdu': ([], [(2, 0x10)]),
                                     'lldp': ([], [(2, 0x13)]),
                                     'mvrp': ([], []), 'dhcp': ([], [])} and
          recs == [],
          'port 2 STP discarding: its BPDU and LLDP reach the CPU (trap '
          '0x10, 0x13), its MVRP and DHCP do not; none is learned (%s)' %
          res)
    bpdu1 = bytes.fromhex('0180c2000000') + MAC_N + bpdu[12:]
    got = inject(1, bpdu1)
    rx1 = [x[:2] for x in cpu_rx()]
    recs = sfn_read(q)[1]
    check(got == {} and rx1 == [(1, 0x10)] and recs == [(5, MAC_N, 1, 1)],
          'a BPDU from port 1 (forwarding, learning): trapped and its '
          'source learned (%s, %s)' % (rx1, recs))
    got = inject(1, dhcp(MAC_L, vid=100))
    rx1 = cpu_rx()
    got2 = inject(1, dhcp(MAC_L))
    rx2 = [x[:2] for x in cpu_rx()]
    recs = sfn_read(q)[1]
    check(got == {} and rx1 == [] and got2 == {} and rx2 == [(1, 0x19)] and
          recs == [(5, MAC_L, 1, 1)],
          'DHCP in VID 100 (port 1 no member) is dropped before the trap; '
          'in VID 1 it is trapped (0x19) and its source learned (%s, %s)'
          % (rx2, recs))
    hpkt_set(0x19, 2)
    got = inject(1, dhcp(MAC_L))
    rx1 = [x[:2] for x in cpu_rx()]
    hpkt_set(0x19, 4)
    got2 = inject(1, dhcp(MAC_L))
    rx2 = cpu_rx()
    hpkt_set(0x19, 0)
    got3 = inject(1, dhcp(MAC_L))
    rx3 = cpu_rx()
    check(sorted(got) == [3] and rx1 == [(1, 0x19)] and got2 == {} and
          rx2 == [] and sorted(got3) == [3] and rx3 == [],
          'HPKT DHCP mirror (2): the CPU and port 3 get it; soft discard '
          '(4): nobody; forward (0): switched only (%s, %s, %s)' %
          (sorted(got), sorted(got2), sorted(got3)))
    sfd_write(q, 2, [(MAC_L, 1, 0)])

    # MLD (ICMPv6 130/131/132/143, after a hop-by-hop header or not)
    def icmp6(icmp_type, dst, hbh=True):
        icmp = bytes([icmp_type]) + bytes(23)
        ext = b'\x3a\x00\x05\x02\x00\x00\x01\x00' if hbh else b''
        ip = b'\x60' + bytes(3) + struct.pack('>H', len(ext) + len(icmp)) + \
            (b'\x00' if hbh else b'\x3a') + b'\x01' + bytes(16) + \
            bytes.fromhex('ff02') + bytes(10) + dst[2:] + ext + icmp
        return dst + MAC_L + b'\x86\xdd' + ip

    sts = [hpkt_set(t, 1) for t in (0x65, 0x66, 0x67, 0x68)]
    got = {}
    rx = []
    for icmp_type, dst, hbh in ((143, bytes.fromhex('333300000016'), True),
                                (130, bytes.fromhex('333300000001'), True),
                                (131, bytes.fromhex('3333000000aa'), False),
                                (132, bytes.fromhex('333300000002'), True),
                                (128, bytes.fromhex('333300000001'), True)):
        got.update(inject(1, icmp6(icmp_type, dst, hbh)))
        rx += [x[:2] for x in cpu_rx()]
    check(sts == [0] * 4 and
          rx == [(1, 0x68), (1, 0x65), (1, 0x66), (1, 0x67)] and got == {},
          'MLD traps: v2 report 0x68, query 0x65, v1 report 0x66 (no '
          'hop-by-hop header), done 0x67 reach the CPU alone; an ICMPv6 '
          'echo is not trapped (%s, %s)' % (rx, sorted(got)))
    for t in (0x65, 0x66, 0x67, 0x68):
        hpkt_set(t, 0)
    sfd_write(q, 2, [(MAC_L, 1, 0)])

    # Trap group policers: QPCR, HTGT pide/pid
    def qpcr(pid, cir=200, cbs=4, byts=0, units=0, g=2, rt=1, va=1, ca=0,
             clear=0, write=True):
        p = bytearray(0x28)
        fset(p, 0, 14, 2, g)
        fset(p, 0, 0, 14, pid)
        fset(p, 4, 31, 1, clear)
        fset(p, 4, 15, 1, ca)
        fset(p, 4, 14, 1, byts)
        fset(p, 4, 12, 1, units)
        fset(p, 4, 8, 2, rt)
        fset(p, 8, 24, 6, cbs)
        fset(p, 0xC, 0, 32, cir)
        fset(p, 0x18, 0, 4, va)
        est, out = reg(0x4004, p, write)
        return (est, struct.unpack_from('>Q', out, 0x20)[0],
                fget(out, 0xC, 0, 32), fget(out, 8, 24, 6))

    bad = [qpcr(64)[0], qpcr(0, g=3)[0], qpcr(0, g=1)[0], qpcr(0, ca=1)[0],
           qpcr(0, rt=2)[0], qpcr(0, va=0)[0], qpcr(0, cir=0)[0],
           qpcr(0, cbs=3)[0], qpcr(0, cbs=25)[0],
           qpcr(0, byts=1, cbs=26)[0], qpcr(0, byts=1, units=1, cir=1)[0]]
    check(bad == [7] * 11,
          'QPCR -> bad parameter: pid 64 (64 policers), g 3 (storm control) '
          '/ 1, color aware, double rate, violate action 0, cir 0, packet '
          'cbs 3 / 25, bit cbs 26, 1000 bit/s (%s)' % bad)
    st = qpcr(3)[0]
    q3 = qpcr(3, cir=0, cbs=0, write=False)
    check(st == 0 and q3 == (0, 0, 200, 4) and
          [htgt(1, 0x14, pide=1, pid=p) for p in (5, 64)] == [7, 7] and
          htgt(1, 0x14, pide=1, pid=3) == 0,
          'QPCR policer 3: 200 packets/s, burst 2^4; HTGT group 1 to '
          'policer 5 (not configured) / 64 -> bad parameter, to 3 accepted')
    st = [qpcr(63)[0], htgt(62, 0x13, pide=1, pid=63), htgt(62, 0x13)]
    check(st == [0, 0, 0],
          'QPCR policer 63 (64 policers: one per trap group, within HTGT\'s '
          '8-bit pid) configured, group 62 bound to it and unbound (%s)' % st)
    p = bytearray(0x20)
    fset(p, 0, 0, 8, 1)
    out = reg(0x7002, p, False)[1]
    bound = [qpcr(3, byts=1, units=0, cir=1, cbs=10)[0],
             qpcr(3, va=2)[0], qpcr(3, cir=300)[0], qpcr(3)[0]]
    check(fget(out, 4, 15, 1) == 1 and fget(out, 4, 0, 8) == 3 and
          bound == [7, 7, 0, 0],
          'HTGT reads pide 1 pid 3; policer 3 bound: bytes and '
          'violate_action read only (bad parameter), cir may change (%s)' %
          bound)
    # Trapped frames over the rate are dropped and counted
    sfd_write(q, 1, [(MAC_T, 1, 0, 0, 2)])
    r.rdq_post(rdqn, 100)
    cpu_rx()
    ucast = MAC_T + MAC_B + payload
    udp_send_many(q, socks, 1, [ucast] * 40)
    n1 = len(cpu_rx())
    v1 = qpcr(3, write=False)[1]
    q.cmd('clock_step %d' % (100 * 10 ** 6))
    udp_send_many(q, socks, 1, [ucast] * 20)
    n2 = len(cpu_rx())
    v2 = qpcr(3, write=False, clear=1)[1]
    v3 = qpcr(3, write=False)[1]
    check((n1, v1, n2, v2, v3) == (16, 24, 16, 28, 0),
          'policer 3 (200/s, burst 16): 40 trapped frames at once: 16 reach '
          'the CPU, 24 violate; 100 ms later 20 more: 16 pass (the bucket '
          'refilled to its burst); query with clear_counter answers 28, then '
          '0 (%s)' % [n1, v1, n2, v2, v3])
    udp_send_many(q, socks, 1, [ucast] * 5)
    v4 = qpcr(3, write=False)[1]
    st = qpcr(3)[0]
    udp_send_many(q, socks, 1, [ucast] * 5)
    n5 = len(cpu_rx())
    check(v4 == 5 and st == 0 and qpcr(3, write=False)[1] == 5 and n5 == 5,
          'an empty bucket drops 5; a QPCR write keeps violate_count (5) and '
          'fills the bucket: 5 more pass')
    htgt(1, 0x14)
    st = qpcr(4, byts=1, units=1, cir=64, cbs=4)[0]
    htgt(1, 0x14, pide=1, pid=4)
    udp_send_many(q, socks, 1, [ucast] * 20)
    n6 = len(cpu_rx())
    check(st == 0 and n6 == 16 and qpcr(4, write=False)[1] == 4,
          'a bit policer, 64 kbit/s, burst 2^4 * 512 bits: 60-byte frames '
          '(512 bits with FCS): 16 of 20 pass, 4 violate (%s)' % n6)
    htgt(1, 0x14)
    udp_send_many(q, socks, 1, [ucast] * 20)
    n7 = len(cpu_rx())
    check(n7 == 20 and qpcr(3, byts=1, units=1, cir=64, cbs=4)[0] == 0,
          'HTGT pide 0 unbinds: all 20 reach the CPU; the unbound policer '
          'may change to bytes')
    sfd_write(q, 2, [(MAC_T, 1, 0)])

    # A new flood-table layout starts the tables over
    check(profile(1, 3, swids=((0, 2), (1, 1))) == 0,
          'CONFIG_PROFILE adds swid 1 (InfiniBand)')
    est, out = reg(0x2011, sfgc_pl(0, 0, 0), False)
    est2, out2 = reg(0x2012, sftr_pl(0, VID_T, 1), False)
    check(est == 0 and fget(out, 4, 16, 3) == 0 and est2 == 0 and
          sftr_ports(out2) == [] and
          reg(0x2012, sftr_pl(1, VID_T, 1), False)[0] == 7 and
          reg(0x2012, sftr_pl(1, VID_T, 1, swid=1), False)[0] == 0 and
          [reg(0x2012, sftr_pl(2, VID_T, 1, swid=w), False)[0]
           for w in (0, 1)] == [7, 7] and
          reg(0x2012, sftr_pl(0, SINGLE_T), False)[0] == 7,
          'new layout: SFGC and tables cleared; 3 VID tables over 2 swids: '
          '0 -> swid 0, 1 -> swid 1, 2 -> none; 1 single table -> none')
    q.quit()


class QMP:
    """A QMP monitor on a unix socket, answering one command at a time."""
    def __init__(self, path):
        for _ in range(600):    # slow starts (valgrind) take seconds
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                time.sleep(0.05)
        self.buf = b''
        self.events = []
        self.line(10)
        self.cmd('qmp_capabilities')

    def line(self, timeout):
        """The next JSON message, or None after @timeout seconds."""
        end = time.monotonic() + timeout
        while b'\n' not in self.buf:
            left = end - time.monotonic()
            if left <= 0:
                return None
            self.s.settimeout(left)
            try:
                data = self.s.recv(65536)
            except socket.timeout:
                return None
            if not data:
                raise RuntimeError('QMP closed')
            self.buf += data
        ln, self.buf = self.buf.split(b'\n', 1)
        return json.loads(ln)

    def cmd(self, command, **args):
        msg = {'execute': command}
        if args:
            msg['arguments'] = args
        self.s.sendall(json.dumps(msg).encode() + b'\n')
        while True:
            r = self.line(10)
            if r is None:
                return {}
            if 'event' in r:
                self.events.append(r)
                continue
            return r

    def timed(self, command, **args):
        t = time.monotonic()
        r = self.cmd(command, **args)
        return r, time.monotonic() - t

    def wait_event(self, name, timeout=5.0):
        end = time.monotonic() + timeout
        while True:
            for e in self.events:
                if e['event'] == name:
                    self.events.remove(e)
                    return e
            r = self.line(max(0.0, end - time.monotonic()))
            if r is None:
                return None
            if 'event' in r:
                self.events.append(r)


def dev_setup(q, dev, bar):
    """BAR0 at @bar, memory and bus mastering on; later calls use it."""
    cfg_w32(q, dev, 0x10, bar | 4)
    cfg_w32(q, dev, 0x14, 0)
    cfg_w32(q, dev, 0x04, 0x6)
    q.bar = bar


def paos_set(q, lp, up):
    p = lp_pl(0x10, lp)
    fset(p, 0, 8, 4, 1 if up else 2)
    fset(p, 4, 31, 1, 1)
    return reg_cmd(q, 0x5006, p, True)[1]


def paos_oper_of(q, lp):
    st, est, out = reg_cmd(q, 0x5006, lp_pl(0x10, lp), False)
    return fget(out, 0, 0, 4) if est == 0 else None


def spms_vid1(q, lp, state):
    p = lp_pl(0x404, lp)
    p[4 + (4095 - 1) // 4] = state << 2
    return reg_cmd(q, 0x200D, p, True)[1]


def ppcnt_rx_tx(q, lp):
    st, est, out = reg_cmd(q, 0x5008, lp_pl(0x100, lp), False)
    return (struct.unpack_from('>Q', out, 16)[0],
            struct.unpack_from('>Q', out, 8)[0])


def storm_rate(q, lp, secs=0.3):
    """Frames port @lp received during @secs of wall clock time."""
    a = ppcnt_rx_tx(q, lp)[0]
    time.sleep(secs)
    return ppcnt_rx_tx(q, lp)[0] - a


# Loops: ports 1 and 2 of switch A on one hub, port 3 on a socket the
# script injects through, port 4 cabled to port 1 of switch B.  A QMP
# monitor must keep answering while a broadcast storms around the loop;
# STP or a cut cable stops it; A is hot-unplugged in the middle of one.
def storm_main():
    qmp_path = '/tmp/sx2-qtest-qmp-%d.sock' % os.getpid()
    sk = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sk.bind(('127.0.0.1', 0))
    local = free_udp_port()
    args = [QEMU, '-M', 'pc', '-accel', 'qtest', '-qtest', 'stdio',
            '-display', 'none', '-vga', 'none', '-nodefaults', '-m', '64M',
            '-L', '/usr/share/seabios', '-L', '/usr/share/qemu',
            '-qmp', 'unix:%s,server=on,wait=off' % qmp_path,
            '-netdev', 'hubport,id=a,hubid=5',
            '-netdev', 'hubport,id=b,hubid=5',
            '-netdev', 'socket,id=u3,udp=127.0.0.1:%d,localaddr='
            '127.0.0.1:%d' % (sk.getsockname()[1], local),
            '-netdev', 'hubport,id=c4,hubid=6',
            '-netdev', 'hubport,id=d1,hubid=6',
            '-device', 'switchx2,id=sx,ports=4,port1=a,port2=b,port3=u3,'
            'port4=c4',
            '-device', 'switchx2,id=sy,ports=2,mac=52:54:00:12:37:00,'
            'port1=d1']
    q = QTest(args)
    qmp = QMP(qmp_path)
    os.unlink(qmp_path)
    devs = find_devs(q)
    check(len(devs) == 2, 'storm: two switches found (%s)' % devs)
    bar_a, bar_b = BAR, BAR + 0x1000000
    dev_setup(q, devs[1], bar_b)
    dev_setup(q, devs[0], bar_a)

    # A: one single-entry flood table {1, 2} for broadcast, VID 1
    # forwarding, learning off (the default), ports up
    st = exec_cmd(q, 0x100, opmod=1, in_mbox=profile_mbox(1, 0))[0]
    ests = [reg_cmd(q, 0x2012, sftr_pl(0, SINGLE_T, 0, 1, [1, 2]), True)[1],
            reg_cmd(q, 0x2011, sfgc_pl(0, SINGLE_T, 0), True)[1]]
    # ... and the CPU in that flood table, FDB_MC in trap group 1, which
    # a policer holds to 1024 packets/s, burst 512
    qp = bytearray(0x28)
    fset(qp, 0, 14, 2, 2)
    fset(qp, 4, 8, 2, 1)
    fset(qp, 8, 24, 6, 9)
    fset(qp, 0xC, 0, 32, 1024)
    fset(qp, 0x18, 0, 4, 1)
    hg = bytearray(0x20)
    fset(hg, 0, 0, 8, 1)
    fset(hg, 4, 15, 1, 1)
    fset(hg, 0x10, 0, 6, 0x14)
    hp = bytearray(0x10)
    fset(hp, 0, 20, 3, 1)
    fset(hp, 0, 12, 6, 1)
    fset(hp, 0, 0, 10, 0x01)
    police = [reg_cmd(q, 0x2012, sftr_pl(0, SINGLE_T, 0, 1, [0], [0]),
                      True)[1],
              reg_cmd(q, 0x4004, qp, True)[1],
              reg_cmd(q, 0x7002, hg, True)[1],
              reg_cmd(q, 0x7003, hp, True)[1]]
    ests += [spms_vid1(q, lp, 3) for lp in (1, 2, 3, 4)]
    ests += [paos_set(q, lp, True) for lp in (1, 2, 3, 4)]
    opers = [paos_oper_of(q, lp) for lp in (1, 2, 3, 4)]
    check(st == 0 and ests == [0] * 10 and opers == [2, 2, 1, 2] or
          opers == [1, 1, 1, 2],
          'storm: A flood table {1, 2} for broadcast, ports up (oper %s)' %
          opers)
    # The cable A4-B1: both ends admin up -> both oper up; A4 down takes
    # B1 down (B's link change runs under B's reentrancy guard)
    q.bar = bar_b
    paos_set(q, 1, True)
    b_up = paos_oper_of(q, 1)
    q.bar = bar_a
    paos_set(q, 4, False)
    q.bar = bar_b
    b_down = paos_oper_of(q, 1)
    q.bar = bar_a
    check(b_up == 1 and b_down == 2, 'storm: cable A4-B1 up, A4 admin '
          'down takes B1 down (%s, %s)' % (b_up, b_down))

    frame = b'\xff' * 6 + MAC_A + struct.pack('>H', 0x88b5) + bytes(46)

    def inject():
        sk.sendto(frame, ('127.0.0.1', local))
        time.sleep(0.1)

    inject()
    rate = storm_rate(q, 1)
    times = []
    ok = True
    for _ in range(20):
        r, t = qmp.timed('query-status')
        ok = ok and r.get('return', {}).get('status') == 'running'
        times.append(t)
    rate2 = storm_rate(q, 2)
    print('     storm: port 1 took %d, port 2 %d frames in 0.3 s; QMP '
          'query-status max %.1f ms, mean %.1f ms' %
          (rate, rate2, max(times) * 1000, sum(times) / len(times) * 1000))
    check(rate > 1000 and rate2 > 1000, 'storm: PPCNT rx keeps growing on '
          'both looped ports (%d, %d in 0.3 s)' % (rate, rate2))
    info = qmp.cmd('query-switchx2', id='sx').get('return', [{}])[0]
    pol = info.get('policers', [])
    fdb_mc = [t for t in info.get('cpu', {}).get('traps', [])
              if t['trap-id'] == 1]
    tried = fdb_mc[0]['trapped'] + fdb_mc[0]['dropped'] if fdb_mc else 0
    passed = tried - (pol[0]['violate-count'] if pol else 0)
    check(police == [0] * 4 and len(pol) == 1 and pol[0]['pid'] == 0 and
          pol[0]['rate'] == 1024 and pol[0]['burst'] == 512 and
          pol[0]['trap-groups'] == [1] and pol[0]['violate-count'] > 1000
          and passed <= 512,
          'storm: the CPU, in the flood table, gets at most the policer\'s '
          'burst (512) of %d flooded frames while virtual time stands '
          'still; query-switchx2 policers: %s' %
          (tried, [{k: v for k, v in x.items()} for x in pol]))
    check(ok and max(times) < 1.0, 'storm: QMP query-status answers within '
          '1 s while it storms (max %.1f ms)' % (max(times) * 1000))
    check(spms_vid1(q, 1, 1) == 0, 'storm: SPMS port 1 VID 1 discarding')
    time.sleep(0.1)
    check(storm_rate(q, 1) == 0 and storm_rate(q, 2) == 0,
          'storm: STP blocking one looped port stops it')
    spms_vid1(q, 1, 3)
    inject()
    rate = storm_rate(q, 2)
    r = qmp.cmd('set_link', name='a', up=False)
    time.sleep(0.1)
    check(rate > 1000 and 'return' in r and storm_rate(q, 2) == 0 and
          paos_oper_of(q, 1) == 2,
          'storm: resumed (%d frames), stops when QMP set_link cuts the '
          'loop; port 1 oper down' % rate)

    # Hot-unplug A while it storms: B gets its link back, QEMU lives on
    qmp.cmd('set_link', name='a', up=True)
    inject()
    rate = storm_rate(q, 2)
    slot = devs[0]
    r = qmp.cmd('device_del', id='sx')
    q.outl(0xae08, 1 << slot)
    ev = qmp.wait_event('DEVICE_DELETED')
    r2, t = qmp.timed('query-status')
    check(rate > 1000 and 'return' in r and ev is not None and
          r2.get('return', {}).get('status') == 'running',
          'storm: device_del of A during a storm (%d frames/0.3 s) '
          'completes, QEMU runs on' % rate)
    check(find_devs(q) == [devs[1]], 'storm: A gone from the bus')
    r = qmp.cmd('query-switchx2')
    check([d.get('id') for d in r.get('return', [])] == ['sy'] and
          'error' in qmp.cmd('query-switchx2-fdb', id='sx'),
          'storm: query-switchx2 lists only B after the unplug, '
          'query-switchx2-fdb of A fails')
    q.bar = bar_b
    check(paos_oper_of(q, 1) == 1, 'storm: unplugged A gave B1 its link '
          'back: oper up')
    # Plug it back: its reset takes the far end down again
    r = qmp.cmd('device_add', driver='switchx2', id='sx2', ports=4,
                port1='a', port2='b', port3='u3', port4='c4')
    devs2 = find_devs(q)
    check('return' in r and len(devs2) == 2 and paos_oper_of(q, 1) == 2,
          'storm: device_add brings a new A (%s) whose ports are down: B1 '
          'oper down' % devs2)
    new = [d for d in devs2 if d != devs[1]]
    if new:
        dev_setup(q, new[0], bar_a)
        st, out = exec_cmd(q, 0x004)
        check(st == 0, 'storm: the hot-plugged switch answers QUERY_FW')
        r = qmp.cmd('device_del', id='sx2')
        q.outl(0xae08, 1 << new[0])
        check(qmp.wait_event('DEVICE_DELETED') is not None and
              find_devs(q) == [devs[1]],
              'storm: and unplugs again cleanly')
    q.quit()


# The ASIC from the host: a known state, then query-switchx2,
# query-switchx2-fdb and "info switchx2" must show exactly it.
MAC_D = bytes.fromhex('02000000000d')


def spms_pl(lp, states):
    p = lp_pl(0x404, lp)
    for vid, st in states:
        p[4 + (4095 - vid) // 4] |= st << ((vid % 4) * 2)
    return p


def spvm_pl(lp, recs):
    p = lp_pl(0x400, lp)
    fset(p, 0, 0, 8, len(recs))
    for i, (vid, ieu) in enumerate(recs):
        fset(p, 4 + 4 * i, 0, 12, vid)
        fset(p, 4 + 4 * i, 12, 3, ieu)
    return p


def udp_netdevs(n):
    """@n UDP socket netdevs u1..un: (sockets, QEMU arguments)."""
    socks, args = [], []
    for lp in range(1, n + 1):
        sk = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sk.bind(('127.0.0.1', 0))
        sk.settimeout(0.3)
        local = free_udp_port()
        socks.append((sk, local))
        args += ['-netdev', 'socket,id=u%d,udp=127.0.0.1:%d,localaddr='
                 '127.0.0.1:%d' % (lp, sk.getsockname()[1], local)]
    return socks, args


def qtest_wired(props='', qemu_args=(), devices=()):
    """QEMU under qtest with switchx2 'sw' of 4 ports, ports 1-3 cabled to
    UDP sockets; @props adds device properties, @qemu_args options,
    @devices more -device arguments.  Returns (QTest, sockets)."""
    socks, args = udp_netdevs(3)
    q = QTest([QEMU, '-M', 'pc', '-accel', 'qtest', '-qtest', 'stdio',
               '-display', 'none', '-vga', 'none', '-nodefaults', '-m', '64M',
               '-L', '/usr/share/seabios', '-L', '/usr/share/qemu'] +
              list(qemu_args) + args +
              ['-device', 'switchx2,id=sw,ports=4,port1=u1,port2=u2,'
               'port3=u3' + props] + [a for d in devices
                                     for a in ('-device', d)])
    return q, socks


def udp_drain(socks):
    """Read and count what each port's socket holds: {port: frames}.
    The sockets are left non-blocking."""
    counts = {}
    for i, (sk, _) in enumerate(socks):
        sk.setblocking(False)
        n = 0
        try:
            while True:
                sk.recv(20000)
                n += 1
        except BlockingIOError:
            pass
        counts[i + 1] = n
    return counts


def udp_inject(q, socks, lp, frame):
    """Send @frame into port @lp; the ports it came out of."""
    return sorted(udp_frames(q, socks, lp, frame, timeout=0.3))


def query_setup(q):
    """Ports 1-3 up, VLANs, STP, learning, flood tables, two static FDB
    entries; the EMAD statuses of it all."""
    def reg(reg_id, pl):
        return reg_cmd(q, reg_id, pl, True)[1]

    def spmlr(lp, mode):
        p = lp_pl(8, lp)
        fset(p, 4, 30, 2, mode)
        return p

    def spvmlr_off(lp, vid):
        p = lp_pl(0x400, lp)
        fset(p, 0, 0, 8, 1)
        fset(p, 4, 0, 12, vid)
        return p

    def sfdat(secs):
        p = bytearray(8)
        fset(p, 4, 0, 20, secs)
        return p

    spvid = lp_pl(8, 2)
    fset(spvid, 4, 0, 12, 10)
    spaft = lp_pl(8, 3)
    fset(spaft, 4, 29, 3, 1)
    sts = [exec_cmd(q, 0x100, opmod=1, in_mbox=profile_mbox(1, 2))[0]]
    sts += [paos_set(q, lp, True) for lp in (1, 2, 3)]
    sts += [reg(0x200D, spms_pl(1, [(1, 3), (10, 3), (11, 3)])),
            reg(0x200D, spms_pl(2, [(1, 3), (10, 3), (11, 3)])),
            reg(0x200D, spms_pl(3, [(1, 3), (20, 2)])),
            reg(0x200F, spvm_pl(1, [(10, 6), (11, 6)])),
            reg(0x200F, spvm_pl(2, [(10, 7), (11, 7)])),
            reg(0x200F, spvm_pl(3, [(20, 6)])),
            reg(0x200E, spvid), reg(0x2010, spaft),
            reg(0x2018, spmlr(1, 2)), reg(0x2018, spmlr(2, 2)),
            reg(0x2018, spmlr(3, 3)), reg(0x2020, spvmlr_off(1, 11)),
            reg(0x2012, sftr_pl(0, VID_T, 1, 1, [1, 2, 3])),
            reg(0x2012, sftr_pl(0, VID_T, 10, 2, [0, 1, 2])),
            reg(0x2012, sftr_pl(0, SINGLE_T, 0, 1, [1, 2, 3])),
            reg(0x2011, sfgc_pl(0, VID_T, 0)),
            reg(0x2011, sfgc_pl(1, VID_T, 0)),
            reg(0x2011, sfgc_pl(5, SINGLE_T, 0, mid=0x1234)),
            reg(0x2009, sfdat(100))]
    est, n = sfd_write(q, 1, [(MAC_C, 10, 2), (MAC_T, 1, 0, 0, 2)])
    return sts + [est, 0 if n == 2 else -1]


def vlan(first, last, ieu, stp='forwarding', learning=True):
    return {'first': first, 'last': last, 'ingress': bool(ieu & 4),
            'egress': bool(ieu & 2), 'untagged': bool(ieu & 1), 'stp': stp,
            'learning': learning}


def query_ports_check(ports):
    p = {x['local-port']: x for x in ports}
    check(sorted(p) == [1, 2, 3, 4], 'query-switchx2: ports 1-4 listed '
          '(%s)' % sorted(p))
    if sorted(p) != [1, 2, 3, 4]:
        return
    print('     port 1: %s' % {k: v for k, v in p[1].items()
                               if k not in ('vlans', 'counters')})
    check(p[1]['admin-state'] == 'up' and p[1]['oper-state'] == 'up' and
          p[1]['speed'] == 40000 and p[1]['eth-proto-oper'] != 0 and
          p[1]['name'] == 'sw.p1' and p[1]['peer'] == 'u1' and
          p[1]['mac'] == '52:54:00:12:36:01' and p[1]['mtu'] == 1522 and
          p[1]['system-port'] == 1 and p[1]['swid'] == 0 and
          p[1]['width'] == 4,
          'query-switchx2 port 1: up/up 40000 Mb/s, name sw.p1 cabled to '
          'u1, MAC, MTU 1522, system port 1, swid 0, 4 lanes')
    check(p[4]['admin-state'] == 'down' and p[4]['oper-state'] == 'down'
          and p[4]['speed'] == 0 and p[4]['eth-proto-oper'] == 0 and
          'peer' not in p[4] and
          p[4]['vlans'] == [vlan(1, 1, 7, 'discarding')],
          'query-switchx2 port 4 (reset state): down/down, speed 0, no '
          'peer, VID 1 ieu discarding')
    check(p[1]['learning'] == 'enabled' and p[3]['learning'] == 'secure'
          and p[4]['learning'] == 'disabled',
          'query-switchx2: learning enabled / secure / disabled')
    check(p[2]['pvid'] == 10 and p[1]['pvid'] == 1 and
          [p[3][k] for k in ('accept-untagged', 'accept-priority-tagged',
                             'accept-tagged')] == [False, False, True] and
          p[1]['accept-untagged'] and not p[1]['priority-tagging'],
          'query-switchx2: PVID 10 on port 2, port 3 admits tagged only')
    want = {1: [vlan(1, 1, 7), vlan(10, 10, 6), vlan(11, 11, 6,
                                                     learning=False)],
            2: [vlan(1, 1, 7), vlan(10, 11, 7)],
            3: [vlan(1, 1, 7), vlan(20, 20, 6, 'learning')]}
    for lp in (1, 2, 3):
        check(p[lp]['vlans'] == want[lp], 'query-switchx2 port %d VLAN '
              'ranges: %s' % (lp, [(v['first'], v['last'], v['untagged'],
                                    v['stp'], v['learning'])
                                   for v in p[lp]['vlans']]))
    c1, c2 = p[1]['counters'], p[2]['counters']
    check(c1['rx-frames'] == 2 and c1['rx-broadcast'] == 2 and
          c1['rx-unicast'] == 0 and c1['rx-discards'] == 1 and
          c1['tx-frames'] == 0 and c2['tx-frames'] == 2 and
          c2['tx-broadcast'] == 2 and c2['rx-frames'] == 0 and
          c2['tx-octets'] == 2 * 64 and c1['rx-octets'] == 64 + 68,
          'query-switchx2 counters: port 1 rx 2 broadcasts (one not '
          'taken by the CPU: rx-discards 1), port 2 tx 2; octets with the '
          'FCS (%s / %s)' %
          ({k: v for k, v in c1.items() if v}, {k: v for k, v in c2.items()
                                                if v}))


def fdb_entry(mac, fid, port, dynamic, action, age=None):
    e = {'mac': ':'.join('%02x' % b for b in mac), 'fid': fid, 'vid': fid,
         'port': port, 'system-port': port, 'dynamic': dynamic,
         'action': action}
    if age is not None:
        e['age'] = age
    return e


def query_fdb_check(qmp):
    r = qmp.cmd('query-switchx2-fdb', id='sw')
    fdb = r.get('return', {})
    ents = fdb.get('entries')
    want = [fdb_entry(MAC_C, 10, 2, False, 'forward'),
            fdb_entry(MAC_T, 1, 0, False, 'trap'),
            fdb_entry(MAC_A, 1, 1, True, 'forward', 3),
            fdb_entry(MAC_D, 10, 1, True, 'forward', 3)]
    check(ents == want, 'query-switchx2-fdb: 2 static (forward, trap to '
          'the CPU), 2 learned with age 3 s, in slot order: %s' %
          [(e['mac'], e['fid'], e['port'], e['dynamic'], e['action'],
            e.get('age')) for e in ents or []])
    vid_entries = [{'first': 1, 'last': 1, 'ports': [1, 2, 3]},
                   {'first': 10, 'last': 11, 'ports': [0, 1, 2]}]
    want = [{'type': 'broadcast', 'table-kind': 'vid', 'table': 0,
             'swid': 0, 'mid': 0, 'entries': vid_entries},
            {'type': 'unknown-unicast', 'table-kind': 'vid', 'table': 0,
             'swid': 0, 'mid': 0, 'entries': vid_entries},
            {'type': 'unregistered-multicast-non-ip',
             'table-kind': 'single', 'table': 0, 'swid': 0, 'mid': 0x1234,
             'entries': [{'first': 0, 'last': 0, 'ports': [1, 2, 3]}]}]
    check(fdb.get('flood') == want and fdb.get('id') == 'sw',
          'query-switchx2-fdb flood: types 0, 1 -> VID table 0 (VID 1 '
          '{1,2,3}, VIDs 10-11 {CPU,1,2}), type 5 -> single table 0')
    print('     fdb flood: %s' % json.dumps(fdb.get('flood'))[:300])
    r = qmp.cmd('query-switchx2-fdb', id='sw', fid=10)
    f = r.get('return', {})
    check([(e['mac'], e['fid']) for e in f.get('entries', [])] ==
          [('02:00:00:00:00:0c', 10), ('02:00:00:00:00:0d', 10)] and
          [x['entries'] for x in f.get('flood', [])] ==
          [[{'first': 10, 'last': 10, 'ports': [0, 1, 2]}]] * 2 +
          [[{'first': 0, 'last': 0, 'ports': [1, 2, 3]}]],
          'query-switchx2-fdb fid 10: its 2 entries, VID 10 of the VID '
          'tables, the single table whole')
    errs = [qmp.cmd('query-switchx2-fdb', id='sw', fid=v).get('error')
            for v in (0, 4095)]
    check(all(errs), 'query-switchx2-fdb fid 0 / 4095 -> error (%s)' %
          (errs[0] or {}).get('desc'))


def query_hmp_check(qmp):
    def hmp(line):
        return qmp.cmd('human-monitor-command',
                       **{'command-line': line}).get('return', '')

    out = hmp('info switchx2 sw')
    print('\n'.join('     | ' + ln for ln in out.splitlines()[:40]))
    want = ['switchx2 sw (/machine/peripheral/sw): 4 ports, MAC '
            '52:54:00:12:36:00', 'flood mode 3, 1 single + 2 per-VID',
            'FDB: 4 of 8 entries in use, 2 dynamic, age time 100 s',
            'VLANs: 1:ieu/fwd 10:ie/fwd 11:ie/fwd,nolearn',
            'VLANs: 1:ieu/fwd 20:ie/lrn', '02:00:00:00:00:0a  FID 1 ',
            'broadcast -> vid table 0 (swid 0): 1 {1,2,3} 10-11 {0,1,2}',
            'trap 0x001 FDB_MC', 'sw.p1', 'dynamic forward (age 3 s)']
    missing = [w for w in want if w not in out]
    check(not missing, 'info switchx2 sw: device, profile, FDB, VLANs, '
          'entries, flooding, CPU traps (missing: %s)' % missing)
    out = hmp('info switchx2')
    check(out.count('switchx2 ') == 2 and 'profile: not set' in out,
          'info switchx2: both devices, the second untouched')
    out = hmp('info switchx2 nope')
    check("no switchx2 device 'nope'" in out, 'info switchx2 nope -> '
          'error: %r' % out.strip())


def query_main():
    qmp_path = '/tmp/sx2-qtest-query-%d.sock' % os.getpid()
    q, socks = qtest_wired(
        ',fdb-size=8',
        ['-qmp', 'unix:%s,server=on,wait=off' % qmp_path],
        ['switchx2,ports=2,mac=52:54:00:12:37:00'])
    qmp = QMP(qmp_path)
    os.unlink(qmp_path)
    devs = find_devs(q)
    check(len(devs) == 2, 'query: two switches (%s)' % devs)
    dev_setup(q, devs[0], BAR)
    sts = query_setup(q)
    check(sts == [0] * len(sts), 'query: known state set up (%s)' % sts)
    bcast = b'\xff' * 6 + MAC_A + struct.pack('>H', 0x88b5) + bytes(46)
    got1 = udp_inject(q, socks, 1, bcast)
    tagged = b'\xff' * 6 + MAC_D + b'\x81\x00\x00\x0a' + \
        struct.pack('>H', 0x88b5) + bytes(46)
    got2 = udp_inject(q, socks, 1, tagged)
    recs = sfn_answer(q)
    check(got1 == [2, 3] and got2 == [2] and len(recs) == 2,
          'query: a broadcast from port 1 in VID 1 and one in VID 10 flood '
          '(%s, %s), 2 MACs learned through SFN and SFD edits' %
          (got1, got2))
    q.cmd('clock_step %d' % (3 * 10 ** 9 + 10 ** 8))

    r = qmp.cmd('query-switchx2', id='sw')
    info = r.get('return', [{}])[0]
    print('     device: %s' % {k: v for k, v in info.items()
                               if k not in ('ports', 'cpu')})
    check(info.get('id') == 'sw' and
          info.get('qom-path') == '/machine/peripheral/sw' and
          info.get('num-ports') == 4 and
          info.get('mac') == '52:54:00:12:36:00' and
          info.get('fw-version') == '9.4.5070' and
          info.get('psid') == 'MT_0000000036' and
          info.get('fdb-size') == 8 and info.get('fdb-entries') == 4 and
          info.get('fdb-dynamic') == 2 and info.get('age-time') == 100 and
          info.get('fdb-notifications') == 0 and
          info.get('fdb-learning-outstanding') == 0 and
          info.get('fdb-notifications-lost') == 0 and
          info.get('fdb-ageing-deferred') == 0 and
          info.get('fdb-full-drops') == 0,
          'query-switchx2 sw: id, path, 4 ports, MAC, firmware, PSID, FDB '
          '4 of 8 (2 dynamic, every SFN record answered), age time 100 s')
    check(info.get('profile') == {'set': True, 'flood-mode': 3,
                                  'single-flood-tables': 1,
                                  'vid-flood-tables': 2,
                                  'swids': [{'swid': 0,
                                             'type': 'ethernet'}]},
          'query-switchx2 profile: 1 single + 2 VID tables, swid 0 '
          'Ethernet (%s)' % info.get('profile'))
    cpu = info.get('cpu', {})
    check(cpu == {'trapped': 0, 'dropped': 1, 'sent': 0, 'sent-emads': 0,
                  'traps': [{'trap-id': 1, 'name': 'FDB_MC', 'trapped': 0,
                             'dropped': 1}]},
          'query-switchx2 cpu: the VID 10 broadcast for the CPU dropped '
          '(FDB_MC not trapped) (%s)' % cpu)
    query_ports_check(info.get('ports', []))

    r = qmp.cmd('query-switchx2')
    all_ = r.get('return', [])
    other = all_[1] if len(all_) == 2 else {}
    check([d.get('id') for d in all_] == ['sw', None] and
          other.get('mac') == '52:54:00:12:37:00' and
          other.get('num-ports') == 2 and
          other.get('profile', {}).get('set') is False and
          other.get('fdb-entries') == 0,
          'query-switchx2 without id: both, in PCI order; the second has '
          'no id, reset state')
    path = other.get('qom-path', '')
    r = qmp.cmd('query-switchx2', id=path)
    r2 = qmp.cmd('query-switchx2-fdb', id=path)
    check(len(r.get('return', [])) == 1 and
          r2.get('return', {}).get('entries') == [] and
          r2.get('return', {}).get('flood') == [] and
          'id' not in r2.get('return', {'id': 1}),
          'query-switchx2 / -fdb by QOM path %s: no entries, no flooding'
          % path)
    errs = [qmp.cmd('query-switchx2', id='nope').get('error', {}),
            qmp.cmd('query-switchx2-fdb', id='nope').get('error', {}),
            qmp.cmd('query-switchx2-fdb').get('error', {})]
    check(all(e.get('class') == 'GenericError' for e in errs),
          'unknown id, or no id with two switches -> GenericError (%s)' %
          [e.get('desc') for e in errs])
    query_fdb_check(qmp)
    query_hmp_check(qmp)
    q.quit()


def udp_send_many(q, socks, lp, frames, chunk=100):
    """Send @frames into port @lp, a chunk at a time so that the UDP
    socket buffers keep up, then let QEMU take them."""
    for i in range(0, len(frames), chunk):
        for f in frames[i:i + chunk]:
            socks[lp - 1][0].sendto(f, ('127.0.0.1', socks[lp - 1][1]))
        time.sleep(0.05)
        q.cmd('clock_step 1000')
    time.sleep(0.1)
    q.cmd('clock_step 1000')


def sfn_drain(q):
    """Every queued SFN record, unanswered."""
    recs = []
    for _ in range(40):
        est, r, end = sfn_read(q)
        recs += r
        if len(r) < 64:
            break
    return recs


def learn_setup(q):
    """Ports 1-3 up in VID 1, flooding to each other; learning on 1 and
    2, secure mode on 3; ageing time 10 s.  EMAD statuses."""
    def reg(reg_id, pl):
        return reg_cmd(q, reg_id, pl, True)[1]

    def spmlr(lp, mode):
        p = lp_pl(8, lp)
        fset(p, 4, 30, 2, mode)
        return p

    sfdat = bytearray(8)
    fset(sfdat, 4, 0, 20, 10)
    sts = [exec_cmd(q, 0x100, opmod=1, in_mbox=profile_mbox(1, 1))[0]]
    sts += [paos_set(q, lp, True) for lp in (1, 2, 3)]
    sts += [reg(0x200D, spms_pl(lp, [(1, 3)])) for lp in (1, 2, 3)]
    sts += [reg(0x2018, spmlr(1, 2)), reg(0x2018, spmlr(2, 2)),
            reg(0x2018, spmlr(3, 3)), reg(0x2009, sfdat),
            reg(0x2012, sftr_pl(0, VID_T, 1, 1, [1, 2, 3])),
            reg(0x2011, sfgc_pl(0, VID_T, 0)),
            reg(0x2011, sfgc_pl(1, VID_T, 0))]
    return sts


def mac_n(i):
    return bytes.fromhex('0200000a%04x' % i)


# Controlled learning (SFN/SFD) and secure ports, on a device of its own
def learn_main():
    qmp_path = '/tmp/sx2-qtest-learn-%d.sock' % os.getpid()
    q, socks = qtest_wired(',fdb-size=64,refuse-reg=SVPE,,spaft',
                           ['-qmp', 'unix:%s,server=on,wait=off' % qmp_path])
    qmp = QMP(qmp_path)
    os.unlink(qmp_path)
    dev_setup(q, find_dev(q), BAR)
    spaft = lp_pl(8, 2)
    fset(spaft, 4, 29, 3, 7)
    sts = [reg_cmd(q, 0x201E, lp_pl(4, 3), True)[1],
           reg_cmd(q, 0x2010, spaft, True)[1],
           reg_cmd(q, 0x2010, lp_pl(8, 2), False)[1]]
    val = qom_get(qmp, 'refuse-reg')
    qom_set(qmp, 'refuse-reg', '')
    sts.append(reg_cmd(q, 0x201E, lp_pl(4, 3), True)[1])
    check(val == 'SVPE,SPAFT' and sts == [7, 7, 0, 0],
          'refuse-reg=SVPE,,spaft at -device: SVPE and SPAFT writes -> bad '
          'parameter, SPAFT query answers; cleared by qom-set (%s, %s)' %
          (val, sts))
    sts = learn_setup(q)
    check(sts == [0] * len(sts), 'learn: ports 1-3 up, learning on 1 and 2, '
          'secure on 3, age 10 s (%s)' % sts)
    payload = struct.pack('>H', 0x88b5) + bytes(46)

    def bcast(src):
        return b'\xff' * 6 + src + payload

    def info():
        r = qmp.cmd('query-switchx2', id='sw').get('return', [{}])
        return r[0]

    # SFN's request: num_rec is how many are wanted (0..64), swid 0
    check([sfn_read(q, want=65)[0], sfn_read(q, swid=1)[0]] == [7, 7],
          'learn: SFN num_rec 65 / swid 1 -> bad parameter')
    # One notification per key while it is outstanding
    X, Y, Z = mac_n(1), mac_n(2), mac_n(3)
    udp_inject(q, socks, 1, bcast(X))
    udp_inject(q, socks, 1, bcast(X))
    outstanding = info().get('fdb-learning-outstanding')
    est, recs, end = sfn_read(q, end=1)
    check(est == 0 and recs == [(5, X, 1, 1)] and end == 0 and
          outstanding == 1 and sfd_dump(q) == {},
          'learn: two frames from a new source: one LEARNED_MAC, no FDB '
          'entry; a request with end 1 answers end 0 (%s)' % recs)
    udp_inject(q, socks, 1, bcast(X))
    check(sfn_read(q)[1] == [],
          'learn: popped and unanswered: still no second LEARNED_MAC')
    # The driver's answer installs it; the next frame refreshes it
    est, n = sfd_write(q, 1, [(X, 1, 1, 3)])
    check(est == 0 and n == 1 and sfd_dump(q) == {(X, 1): (1, 3, 0)} and
          info().get('fdb-learning-outstanding') == 0,
          'learn: SFD edit policy 3 NOP answers it: entry on port 1, '
          'nothing outstanding')
    got = udp_inject(q, socks, 2, X + Y + payload)
    check(got == [1], 'learn: unicast to X from port 2 goes to port 1 only '
          '(%s)' % got)
    # num_rec asks for a number of records
    udp_inject(q, socks, 1, bcast(Z))
    est, r1, _ = sfn_read(q, want=1)
    est2, r2, _ = sfn_read(q, want=0)
    est3, r3, _ = sfn_read(q)
    check(r1 == [(5, Y, 1, 2)] and r2 == [] and r3 == [(5, Z, 1, 1)],
          'learn: SFN num_rec 1 returns one record, num_rec 0 none, then '
          'the rest (%s, %s, %s)' % (r1, r2, r3))
    sfd_write(q, 1, [(Y, 1, 2, 3), (Z, 1, 1, 3)])
    # A station that moves: LEARNED_MAC for the new port, the entry moves
    # when the driver edits it
    W = mac_n(4)
    udp_inject(q, socks, 2, bcast(X))
    recs = sfn_read(q)[1]
    got = udp_inject(q, socks, 3, X + W + payload)
    est, n = sfd_write(q, 1, [(X, 1, 2, 3)])
    got2 = udp_inject(q, socks, 3, X + W + payload)
    check(recs == [(5, X, 1, 2)] and got == [1] and n == 1 and got2 == [2],
          'learn: X seen on port 2: LEARNED_MAC for port 2, frames to X '
          'still go to port 1 until the edit, then to port 2 (%s, %s, %s)'
          % (recs, got, got2))
    # Secure mode (port 3): no learning; a source known on another port
    # is discarded and counted
    def p3():
        ports = info().get('ports', [])
        return ports[2]['counters'] if len(ports) > 2 else {}

    c0 = p3()
    got1 = udp_inject(q, socks, 3, bcast(W))
    recs1 = sfn_read(q)[1]
    got2 = udp_inject(q, socks, 3, bcast(X))
    recs2 = sfn_read(q)[1]
    c1 = p3()
    check(got1 == [1, 2] and recs1 == [] and (W, 1) not in sfd_dump(q) and
          got2 == [] and recs2 == [] and
          c1.get('rx-port-security-discards', 0) -
          c0.get('rx-port-security-discards', 0) == 1 and
          c1.get('rx-discards', 0) - c0.get('rx-discards', 0) == 1,
          'secure port 3: an unknown source floods, raises no LEARNED_MAC '
          'and stays unknown; source X (known on port 2) is discarded and '
          'counted in rx-port-security-discards and rx-discards (%s, %s)'
          % (got1, got2))
    S, S2 = mac_n(0x20), mac_n(0x21)
    sfd_write(q, 1, [(S, 1, 3), (S2, 1, 1)])
    got1 = udp_inject(q, socks, 3, bcast(S))
    got2 = udp_inject(q, socks, 3, bcast(S2))
    sfd_write(q, 2, [(S, 1, 0), (S2, 1, 0)])
    check(got1 == [1, 2] and got2 == [] and
          p3().get('rx-port-security-discards', 0) -
          c0.get('rx-port-security-discards', 0) == 2,
          'secure port 3: a source static on port 3 forwards, one static on '
          'port 1 is discarded (%s, %s)' % (got1, got2))

    # What the driver's writes take back from the queue
    A, B, C, D = mac_n(0x10), mac_n(0x11), mac_n(0x12), mac_n(0x13)
    sfn_drain(q)
    udp_inject(q, socks, 1, bcast(A))
    udp_inject(q, socks, 2, bcast(D))
    sfd_write(q, 1, [(A, 1, 1, 3)])
    recs = sfn_drain(q)
    check(recs == [(5, D, 1, 2)],
          'learn: an SFD edit of a key takes back its queued LEARNED_MAC, '
          'not the others (%s)' % recs)
    sfd_write(q, 2, [(D, 1, 0)])
    sfd_write(q, 1, [(B, 1, 2, 3)])
    q.cmd('clock_step %d' % (11 * 10 ** 9))
    aged = [r for r in sfn_drain(q) if r[0] == 7]
    sfd_write(q, 1, [(B, 1, 2, 3)])
    q.cmd('clock_step %d' % (11 * 10 ** 9))
    udp_inject(q, socks, 1, bcast(C))
    est, n = sfd_write(q, 2, [(B, 1, 0), (C, 1, 0)])
    recs = [r for r in sfn_drain(q) if r[1] in (B, C)]
    check(any(r[1] == B for r in aged) and n == 2 and recs == [],
          'learn: an SFD remove takes back the queued AGED_OUT_MAC and '
          'LEARNED_MAC of its keys (%s)' % recs)
    sfd_write(q, 2, [(m, 1, 0) for m in (X, Y, Z, A)])
    udp_inject(q, socks, 1, bcast(C))
    udp_inject(q, socks, 2, bcast(D))
    p = bytearray(0x14)
    fset(p, 4, 28, 4, 2)
    fset(p, 0x0C, 0, 16, 1)
    est = reg_cmd(q, 0x2013, p, True)[1]
    recs = sfn_read(q)[1]
    check(est == 0 and recs == [(5, D, 1, 2)],
          'learn: SFDF of port 1 flushes port 1\'s queued LEARNED_MAC, '
          'not port 2\'s (%s)' % recs)
    # Unanswered for the ageing time: it may be raised again
    udp_inject(q, socks, 1, bcast(C))
    r1 = sfn_read(q)[1]
    q.cmd('clock_step %d' % (5 * 10 ** 9))
    udp_inject(q, socks, 1, bcast(C))
    r2 = sfn_read(q)[1]
    q.cmd('clock_step %d' % (6 * 10 ** 9))
    udp_inject(q, socks, 1, bcast(C))
    r3 = sfn_read(q)[1]
    check(r1 == [(5, C, 1, 1)] and r2 == [] and r3 == [(5, C, 1, 1)],
          'learn: a LEARNED_MAC left unanswered is raised again only after '
          'the ageing time (10 s) (%s, %s, %s)' % (r1, r2, r3))
    sfd_write(q, 2, [(m, 1, 0) for m in (C, D)])
    # Overflow: 1024 records queued at most, the rest counted and traced
    udp_send_many(q, socks, 1, [bcast(mac_n(0x100 + i)) for i in range(1030)])
    i1 = info()
    check(i1.get('fdb-notifications') == 1024 and
          i1.get('fdb-notifications-lost', 0) >= 6,
          'learn: 1030 new sources: 1024 LEARNED_MAC queued, the rest '
          'counted in fdb-notifications-lost (%s, %s)' %
          (i1.get('fdb-notifications'), i1.get('fdb-notifications-lost')))
    # An entry due to age while the queue is full stays until there is room
    sfd_write(q, 1, [(A, 1, 1, 3)])
    q.cmd('clock_step %d' % (11 * 10 ** 9))
    i2 = info()
    kept = (A, 1) in sfd_dump(q)
    recs = sfn_drain(q)
    q.cmd('clock_step %d' % (2 * 10 ** 9))
    aged = sfn_read(q)[1]
    check(kept and i2.get('fdb-ageing-deferred', 0) >= 1 and
          len(recs) == 1024 and aged == [(7, A, 1, 1)] and
          (A, 1) not in sfd_dump(q),
          'learn: queue full: the aged entry stays (fdb-ageing-deferred %s) '
          'and ages out once the driver drained the queue (%s)' %
          (i2.get('fdb-ageing-deferred'), aged))
    q.quit()


def ppcnt(q, lp, grp, write=False, clr=0, prio=0, swid=0, pnat=0, lp_gl=0):
    """PPCNT: (EMAD status, the 31 counters)."""
    p = bytearray(0x100)
    fset(p, 0, 24, 8, swid)
    fset(p, 0, 16, 8, lp)
    fset(p, 0, 14, 2, pnat)
    fset(p, 0, 0, 6, grp)
    fset(p, 4, 31, 1, clr)
    fset(p, 4, 30, 1, lp_gl)
    fset(p, 4, 0, 5, prio)
    st, est, out = reg_cmd(q, 0x5008, p, write)
    return est, [struct.unpack_from('>Q', out, 8 + 8 * i)[0]
                 for i in range(31)]


# PPCNT: what each group counts, and clearing one group
def udp_counts(q, socks, lp, frames):
    """Send @frames into port @lp; how many came out of each port."""
    udp_drain(socks)
    udp_send_many(q, socks, lp, frames)
    counts = udp_drain(socks)
    for sk, _ in socks:
        sk.settimeout(0.3)
    return counts


def lag_reg(q, reg_id, size, fields, mac=None):
    p = bytearray(size)
    for off, shift, bits, v in fields:
        fset(p, off, shift, bits, v)
    if mac:
        p[mac[0]:mac[0] + 6] = mac[1]
    return reg_cmd(q, reg_id, p, True)[1]


def udp4(dmac, smac, sip, dip, sport, dport):
    """An IPv4 UDP frame (checksums are not checked by the model)."""
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 28, 0, 0, 64, 17, 0,
                     bytes(sip), bytes(dip))
    return dmac + smac + b'\x08\x00' + ip + struct.pack('>HHHH', sport,
                                                        dport, 8, 0)


def profile_lags(m):
    """CONFIG_PROFILE extra: 64 LAGs of 16 ports, as v4.3 asked."""
    fset(m, 0x14, 0, 16, 64)
    fset(m, 0x18, 0, 16, 16)


# Link aggregation in the pipeline: ports 2 and 3 are LAG 5
def lag_main():
    q, socks = qtest_wired(',fdb-size=64')
    dev_setup(q, find_dev(q), BAR)
    sts = learn_setup(q)

    sts.append(exec_cmd(q, 0x100, opmod=1,
                        in_mbox=profile_mbox(1, 1, mask=0x306,
                                             extra=profile_lags))[0])
    sts.append(lag_reg(q, 0x2018, 8, [(0, 16, 8, 3), (4, 30, 2, 2)]))
    sts.append(lag_reg(q, 0x2014, 0x0C, [(0, 0, 10, 5)]))
    for lp, idx in ((2, 0), (3, 1)):
        sts.append(lag_reg(q, 0x2016, 0x10, [(0, 16, 8, lp), (0, 0, 10, 5),
                                             (4, 0, 10, idx)]))
    (st1, st2), _, _, cpu_rx, _ = cpu_path_setup(q)
    sts += [st1, st2,
            lag_reg(q, 0x7002, 0x20, [(0, 0, 8, 1), (0x10, 0, 6, 0x14)]),
            lag_reg(q, 0x7003, 0x10, [(0, 20, 3, 1), (0, 12, 6, 1),
                                      (0, 0, 10, 0x11)])]
    lacpdu = bytes.fromhex('0180c2000002') + MAC_B + b'\x88\x09\x01\x01' + \
        bytes(106)
    lacp = [udp_inject(q, socks, lp, lacpdu) for lp in (3, 1)]
    rx = cpu_rx(lag=True)
    check(lacp == [[], []] and rx == [(1, 5, 1, 0x11), (0, 0, 1, 0x11)],
          'lag: an LACPDU on port 3 (LAG 5 index 1, collector off) reaches '
          'the CPU with the CQE\'s lag bit, LAG 5, port index 1; one on port '
          '1 (no LAG) with its system port (%s, %s)' % (lacp, rx))
    payload = struct.pack('>H', 0x88b5) + bytes(46)
    X, Y = mac_n(0x51), mac_n(0x52)
    got_off = udp_inject(q, socks, 1, b'\xff' * 6 + MAC_A + payload)
    got_x = udp_inject(q, socks, 2, b'\xff' * 6 + X + payload)
    check(sts == [0] * len(sts) and got_off == [] and got_x == [],
          'lag: ports 2, 3 join LAG 5, collectors off: a broadcast from '
          'port 1 leaves by no member (none distributes), one from port 2 '
          'is dropped (%s, %s, %s)' % (sts, got_off, got_x))
    for lp in (2, 3):
        sts = [lag_reg(q, 0x2016, 0x10, [(0, 30, 2, 1), (0, 16, 8, lp),
                                         (0, 0, 10, 5)]),
               lag_reg(q, 0x2014, 0x0C, [(0, 29, 3, 2), (0, 0, 10, 5),
                                         (4, 24, 8, 1), (8, 0, 16, lp)])]
    sfn_drain(q)
    got = [udp_inject(q, socks, 1, b'\xff' * 6 + MAC_A + payload)
           for _ in range(8)]
    got_x = udp_inject(q, socks, 2, b'\xff' * 6 + X + payload)
    est, recs, _ = sfn_read(q)
    check(sts == [0, 0] and all(len(g) == 1 and g[0] in (2, 3) for g in got)
          and got_x == [1] and est == 0 and recs == [(6, X, 1, 5)],
          'lag: collectors and distributors on: each broadcast from port 1 '
          'leaves by one member; one from member 2 only by port 1, not '
          'back into its LAG, and is learned on the LAG: SFN '
          'LEARNED_MAC_LAG, LAG 5 (%s, %s, %s)' % (got, got_x, recs))
    est, n = sfd_write(q, 1, [(X, 1, 5, 3, 0, 1)])
    dump = sfd_dump(q)
    flows = [udp4(X, MAC_A, (10, 0, 0, 1), (10, 0, 1, i % 256), 1000 + i,
                  2000 + 7 * i) for i in range(64)]
    same = udp_counts(q, socks, 1, flows)
    st = lag_reg(q, 0x2015, 0x10, [(4, 0, 20, 0x1FE | 0x3E00)])
    spread = udp_counts(q, socks, 1, flows)
    again = udp_counts(q, socks, 1, [flows[7]] * 10)
    check(est == 0 and n == 1 and dump.get((X, 1)) == (5, 3, 0) and
          sorted(same.values()) == [0, 0, 64] and st == 0 and
          spread[1] == 0 and spread[2] + spread[3] == 64 and
          min(spread[2], spread[3]) >= 8 and sorted(again.values()) ==
          [0, 0, 10],
          'lag: SFD UC_LAG X -> LAG 5; 64 UDP flows to X: the default hash '
          '(MACs, Ethertype, VID) sends all by one member; with IPs and L4 '
          'ports in SLCR they spread (%d / %d); one flow keeps its member '
          '(%s, %s, %s)' % (spread[2], spread[3], same, spread, again))
    sts = [lag_reg(q, 0x2014, 0x0C, [(0, 29, 3, 3), (0, 0, 10, 5),
                                     (4, 24, 8, 1), (8, 0, 16, 3)]),
           lag_reg(q, 0x2016, 0x10, [(0, 30, 2, 2), (0, 16, 8, 3),
                                     (0, 0, 10, 5)])]
    one = udp_counts(q, socks, 1, flows)
    got_y = udp_inject(q, socks, 3, b'\xff' * 6 + Y + payload)
    got_own = udp_inject(q, socks, 2, X + MAC_A + payload)
    check(sts == [0, 0] and one == {1: 0, 2: 64, 3: 0} and got_y == [] and
          got_own == [],
          'lag: port 3 stops distributing and collecting: every flow to X '
          'leaves by port 2; what port 3 receives is dropped; unicast to X '
          'from inside LAG 5 is dropped (%s, %s, %s)' % (one, got_y, got_own))
    q.cmd('clock_step %d' % (12 * 10 ** 9))
    est, recs, _ = sfn_read(q)
    check(est == 0 and recs == [(8, X, 1, 5)] and (X, 1) not in sfd_dump(q),
          'lag: the dynamic LAG entry ages out: SFN AGED_OUT_MAC_LAG, LAG 5 '
          '(%s)' % recs)
    sfd_write(q, 1, [(X, 1, 5, 0, 0, 1), (Y, 1, 5, 0, 0, 1),
                     (MAC_A, 1, 1, 0)])
    flush = [lag_reg(q, 0x2013, 0x14, [(4, 28, 4, 4), (4, 24, 1, 1),
                                        (0xC, 0, 10, 64)]),
             lag_reg(q, 0x2013, 0x14, [(4, 28, 4, 5), (4, 24, 1, 1),
                                       (8, 0, 10, 5), (0xC, 0, 16, 2)])]
    left = sorted(k[0] for k in sfd_dump(q))
    flush.append(lag_reg(q, 0x2013, 0x14, [(4, 28, 4, 4), (4, 24, 1, 1),
                                           (0xC, 0, 10, 5)]))
    left2 = sorted(k[0] for k in sfd_dump(q))
    check(flush == [7, 0, 0] and left == sorted([X, Y, MAC_A]) and
          left2 == [MAC_A],
          'lag: SFDF of LAG 64 -> bad parameter; LAG 5 and FID 2 flushes '
          'nothing of FID 1; LAG 5 flushes its two entries, not port 1\'s '
          '(%s)' % flush)
    q.quit()


def mpat(q, pa, sys_port, e=1, span_type=0, pide=0, session=0, qos=1,
         be=1):
    return lag_reg(q, 0x901A, 0x78, [(0, 28, 4, pa), (0, 24, 4, session),
                                     (0, 0, 16, sys_port), (4, 31, 1, e),
                                     (4, 26, 1, qos), (4, 25, 1, be),
                                     (4, 0, 4, span_type), (0xC, 15, 1, pide)])


def mpar(q, lp, ingress, pa, enable=1, rate=1):
    return lag_reg(q, 0x901B, 0x0C, [(0, 16, 8, lp), (0, 0, 4, ingress),
                                     (4, 31, 1, enable), (4, 0, 4, pa),
                                     (8, 0, 32, rate)])


# Port mirroring: analyzers (MPAT) and their bindings (MPAR)
def span_main():
    q, socks = qtest_wired()
    dev_setup(q, find_dev(q), BAR)
    sts = learn_setup(q)
    payload = struct.pack('>H', 0x88b5) + bytes(46)
    X = mac_n(0x61)
    bad = [mpat(q, 4, 3), mpat(q, 0, 3, span_type=1), mpat(q, 0, 3, pide=1),
           mpat(q, 0, 0), mpat(q, 0, 9), mpar(q, 1, 1, 0),
           mpar(q, 1, 2, 0), mpar(q, 0, 1, 0)]
    check(sts == [0] * len(sts) and bad == [7] * 8,
          'span: MPAT analyzer 4 (of 4), remote SPAN, a mirroring policer, '
          'system port 0 (CPU) or 9 (none); MPAR to an analyzer not '
          'enabled, i_e 2, local port 0 -> bad parameter (%s)' % bad)
    sts = [mpat(q, 0, 3), mpar(q, 1, 1, 0)]
    changed = [mpat(q, 0, 2), mpat(q, 0, 3, session=1),
               mpar(q, 2, 1, 0, rate=2)]
    frame = X + MAC_A + payload
    got = udp_counts(q, socks, 1, [frame])
    check(sts == [0, 0] and changed == [7, 7, 7] and
          got == {1: 0, 2: 1, 3: 2},
          'span: analyzer 0 to port 3, port 1\'s ingress bound to it: an '
          'unknown unicast from port 1 floods to ports 2 and 3, and port 3 '
          'gets the mirrored copy besides; the enabled analyzer keeps its '
          'port and session; sampling (rate 2) -> bad parameter (%s, %s)' %
          (changed, got))
    sts = [mpar(q, 1, 1, 0, enable=0), mpat(q, 1, 1), mpar(q, 2, 0, 1)]
    got = udp_counts(q, socks, 3, [frame])
    st_off = mpat(q, 1, 1, e=0)
    got_off = udp_counts(q, socks, 3, [frame])
    p8 = bytearray(8)
    for off, sh, bits, v in [(0, 16, 8, 1), (0, 0, 4, 1), (4, 31, 1, 1),
                             (4, 0, 4, 0)]:
        fset(p8, off, sh, bits, v)
    st8 = [reg_cmd(q, 0x901B, p8, True)[1], reg_cmd(q, 0x901B, p8[:4],
                                                    True)[1]]
    fset(p8, 4, 31, 1, 0)
    _, est8, out8 = reg_cmd(q, 0x901B, p8, False)
    got8 = udp_counts(q, socks, 1, [frame])
    check(st8 == [0, 7] and est8 == 0 and len(out8) == 8 and
          fget(out8, 4, 31, 1) == 1 and got8 == {1: 0, 2: 1, 3: 2},
          'span: MPAR in the 0x08-byte layout of v4.9..v5.10 binds port 1\'s '
          'ingress to analyzer 0 and reads back in 8 bytes (every packet '
          'mirrored); 4 bytes -> bad parameter (%s, %s)' % (st8, got8))
    check(sts == [0, 0, 0] and got == {1: 2, 2: 1, 3: 0} and st_off == 0 and
          got_off == {1: 1, 2: 1, 3: 0},
          'span: port 1 unbound; analyzer 1 to port 1 mirrors port 2\'s '
          'egress: a frame from port 3 reaches port 2 and port 1 twice '
          '(flood, copy); analyzer 1 disabled: no copy (%s, %s)' %
          (got, got_off))
    q.quit()


def sfd_mc(q, op, mac, fid, mid, pgi=0x1FFF, policy=0, action=0):
    """One SFD multicast record; (EMAD status, num_rec)."""
    pl = bytearray(0x410)
    fset(pl, 4, 30, 2, op)
    fset(pl, 8, 0, 8, 1)
    sfd_rec(pl, 0, mac, fid, mid, policy, action, rtype=2)
    fset(pl, 0x18, 16, 13, pgi)
    st, est, out = reg_cmd(q, 0x200A, pl, True)
    return est, fget(out, 8, 0, 8)


# Registered multicast: SFD multicast records send a group to a MID
def mc_main():
    q, socks = qtest_wired()
    dev_setup(q, find_dev(q), BAR)
    sts = learn_setup(q)

    def mids(m):
        fset(m, 0x1C, 0, 16, 16)
    sts.append(exec_cmd(q, 0x100, opmod=1,
                        in_mbox=profile_mbox(1, 1, mask=0x308,
                                             extra=mids))[0])
    smid = bytearray(0x240)
    fset(smid, 0, 0, 16, 5)
    for lp in (0, 3):
        smid[0x20 + 31 - lp // 8] |= 1 << (lp % 8)
        smid[0x220 + 31 - lp // 8] |= 1 << (lp % 8)
    sts.append(reg_cmd(q, 0x2007, smid, True)[1])
    # Unregistered IPv4 multicast floods as broadcast does
    sts.append(reg_cmd(q, 0x2011, sfgc_pl(2, VID_T, 0), True)[1])
    G = bytes.fromhex('01005e010203')
    payload = struct.pack('>H', 0x0800) + bytes(46)
    before = udp_counts(q, socks, 1, [G + MAC_A + payload])
    bad = [sfd_mc(q, 1, G, 1, 5, pgi=0), sfd_mc(q, 1, G, 1, 16),
           sfd_mc(q, 1, MAC_T, 1, 5), sfd_mc(q, 1, G, 1, 5, policy=3)]
    check(sts == [0] * len(sts) and before == {1: 0, 2: 1, 3: 1} and
          bad == [(0, 0)] * 4,
          'mc: group 01:00:5e:01:02:03 without a record floods (%s); a '
          'multicast record with mc_pgi 0 (no PGT), MID 16 (max_mid 16), '
          'for a unicast address, or dynamic -> stops, num_rec 0 (%s)' %
          (before, bad))
    rec = sfd_mc(q, 1, G, 1, 5)
    after = udp_counts(q, socks, 1, [G + MAC_A + payload])
    dump = sfd_dump(q)
    check(rec == (0, 1) and after == {1: 0, 2: 0, 3: 1} and
          dump.get((G, 1)) == (5, 0, 0),
          'mc: SFD multicast record G -> MID 5 = {CPU, 3}: G leaves by '
          'port 3 only; the dump shows it with MID 5 (%s, %s)' %
          (after, dump.get((G, 1))))
    from_3 = udp_counts(q, socks, 3, [G + MAC_B + payload])
    flush = [lag_reg(q, 0x2013, 0x14, [(4, 28, 4, 2), (0xC, 0, 16, 3),
                                       (4, 24, 1, 1)])]
    kept = (G, 1) in sfd_dump(q)
    flush.append(lag_reg(q, 0x2013, 0x14, [(4, 28, 4, 1), (4, 24, 1, 1),
                                           (0xC, 0, 16, 1)]))
    gone = (G, 1) not in sfd_dump(q)
    check(from_3 == {1: 0, 2: 0, 3: 0} and flush == [0, 0] and kept and
          gone,
          'mc: G from port 3 (the MID\'s only port) goes nowhere; a flush '
          'of port 3 with statics keeps the record, one of FID 1 removes '
          'it (%s)' % from_3)
    q.quit()


def ppcnt_main():
    q, socks = qtest_wired()
    dev_setup(q, find_dev(q), BAR)
    sts = learn_setup(q)
    et = struct.pack('>H', 0x88b5)
    f1 = b'\xff' * 6 + MAC_A + et + bytes(28)             # 42: padded
    f2 = b'\xff' * 6 + MAC_A + et + bytes(1500)           # 1514
    f3 = b'\xff' * 6 + MAC_A + b'\x81\x00\x00\x01' + et + bytes(1500)
    f4 = b'\xff' * 6 + MAC_A + et + bytes(1586)           # 1600 > MTU
    f5 = bytes(10)                                        # a runt
    got = [udp_inject(q, socks, 1, f) for f in (f1, f2, f3, f4, f5)]
    check(sts == [0] * len(sts) and got == [[2, 3]] * 3 + [[], []],
          'PPCNT: 42, 1514 and tagged 1518 byte broadcasts flood, a 1600 '
          'byte frame (MTU 1522) and a 10 byte runt do not (%s)' % got)

    def c(v, off):
        return v[off // 8]

    st, v = ppcnt(q, 1, 0x0)
    check(st == 0 and [c(v, o) for o in (0x00, 0x08, 0x28, 0x48, 0x60)] ==
          [0, 3, 46 + 1500 + 1500, 3, 1],
          'PPCNT IEEE 802.3 port 1: 3 frames received OK, aOctetsReceivedOK '
          '= data and padding only (46 + 1500 + 1500), 3 broadcasts, 1 '
          'frame too long (%s)' % [c(v, o) for o in (0, 8, 0x28, 0x48, 0x60)])
    st, v = ppcnt(q, 1, 0x1)
    check(st == 0 and [c(v, o) for o in (0x00, 0x08, 0x10, 0x18, 0x50)] ==
          [64 + 1518 + 1522, 0, 0, 2, 3],
          'PPCNT RFC 2863 port 1: ifInOctets with header and FCS (64 + 1518 '
          '+ 1522), ifInErrors 2 (too long, runt), 3 broadcasts (%s)' %
          [c(v, o) for o in (0, 8, 0x10, 0x18, 0x50)])
    st, v = ppcnt(q, 1, 0x2)
    want = [0, 64 + 1518 + 1522 + 1604 + 14, 5, 3, 0, 1, 2]
    got = [c(v, o) for o in (0x00, 0x08, 0x10, 0x18, 0x20, 0x30, 0x38)]
    hist = [c(v, 0x58 + 8 * i) for i in range(10)]
    check(st == 0 and got == want and hist == [1, 0, 0, 0, 0, 1, 2, 0, 0, 0],
          'PPCNT RFC 2819 port 1: octets and packets of every frame, bad '
          'ones included, with FCS; 1 undersize, 2 oversize (> 1518), '
          'histogram 64: 1, 1024-1518: 1, 1519-2047: 2; no drop events '
          '(%s, %s)' % (got, hist))
    st, v = ppcnt(q, 1, 0x3)
    check(st == 0 and c(v, 0x50) == 1 and c(v, 0x48) == 0,
          'PPCNT RFC 3635 port 1: dot3StatsFrameTooLongs (0x50) 1')
    st, v = ppcnt(q, 2, 0x0)
    st2, v2 = ppcnt(q, 2, 0x1)
    check(st == st2 == 0 and [c(v, 0x00), c(v, 0x20), c(v, 0x38)] ==
          [3, 46 + 1500 + 1500, 3] and c(v2, 0x28) == 64 + 1518 + 1518,
          'PPCNT port 2 tx: 3 frames, aOctetsTransmittedOK 3046 (the tag '
          'stripped, the short frame padded), ifOutOctets with FCS 3100')

    # clr resets the group asked for, and only it
    st, v = ppcnt(q, 1, 0x0, clr=1)
    st2, v2 = ppcnt(q, 1, 0x0)
    st3, v3 = ppcnt(q, 1, 0x1)
    check(st == st2 == st3 == 0 and c(v, 0x08) == 3 and c(v2, 0x08) == 0 and
          c(v2, 0x28) == 0 and c(v3, 0x00) == 3104,
          'PPCNT Get IEEE 802.3 with clr: answers 3 frames, then reads 0; '
          'RFC 2863 still reads 3104 octets')
    udp_inject(q, socks, 1, f1)
    check(c(ppcnt(q, 1, 0x0)[1], 0x08) == 1 and
          c(ppcnt(q, 1, 0x1)[1], 0x00) == 3104 + 64,
          'PPCNT after the clear: IEEE counts from 0, RFC 2863 goes on')
    st = ppcnt(q, 255, 0x1, write=True, clr=1, swid=255)[0]
    check(st == 0 and c(ppcnt(q, 1, 0x1)[1], 0x00) == 0 and
          c(ppcnt(q, 2, 0x1)[1], 0x28) == 0 and
          c(ppcnt(q, 2, 0x0)[1], 0x00) == 4,
          'PPCNT Set local port 255 (all ports) swid 255 clr RFC 2863: '
          'cleared on ports 1 and 2; port 2 IEEE 802.3 still 4 frames')
    st = ppcnt(q, 2, 63, write=True, clr=1)[0]
    check(st == 0 and c(ppcnt(q, 2, 0x0)[1], 0x00) == 0 and
          c(ppcnt(q, 1, 0x2)[1], 0x10) == 6,
          'PPCNT Set group 63 (all groups) clr on port 2: its IEEE 802.3 '
          'reads 0; port 1\'s RFC 2819 still 6 packets')
    bad = [ppcnt(q, 255, 0x0)[0], ppcnt(q, 1, 63)[0],
           ppcnt(q, 1, 63, write=True)[0], ppcnt(q, 1, 63, clr=1)[0],
           ppcnt(q, 255, 0x0, write=True, clr=1, lp_gl=1)[0],
           ppcnt(q, 1, 0x0, swid=255)[0], ppcnt(q, 1, 0x0, prio=1)[0],
           ppcnt(q, 1, 0x0, pnat=1)[0], ppcnt(q, 1, 0x8)[0],
           ppcnt(q, 1, 0x10, prio=8)[0]]
    check(bad == [7] * 10,
          'PPCNT -> bad parameter: Get of port 255 or group 63, group 63 '
          'without clr or by Get, port 255 with v6.1 lp_gl 1, swid 255 for '
          'one port, prio_tc 1 for a group not per priority, pnat 1, group '
          '0x8, priority 8 (%s)' % bad)
    q.quit()


RMAC = bytes.fromhex('0200000a0fff')


def rgcr(q, v4=1, v6=1, max_rifs=16, usp=0, pcp_rw=0, activity_dis=0):
    return lag_reg(q, 0x8001, 0x28, [(0, 31, 1, v4), (0, 30, 1, v6),
                                     (0x10, 0, 16, max_rifs),
                                     (0x18, 20, 1, usp),
                                     (0x18, 16, 2, pcp_rw),
                                     (0x20, 0, 8, activity_dis)])


def ritr_pl(rif, enable=1, rtype=0, vid=10, mac=RMAC, mtu=1500, vr=0,
            port=None, lag=0, extra=()):
    """RITR as a driver for SwitchX-2 writes it: a VLAN RIF, or a
    sub-port one on system port (or LAG) @port."""
    p = bytearray(0x40)
    if port is not None:
        rtype = 2
    for off, shift, bits, v in [(0, 31, 1, enable), (0, 29, 1, 1),
                                (0, 28, 1, 1), (0, 23, 3, rtype),
                                (0, 0, 16, rif), (4, 0, 16, vr),
                                (0x34, 0, 16, mtu)] + list(extra):
        fset(p, off, shift, bits, v)
    if port is None:
        fset(p, 8, 0, 12, vid)
    else:
        fset(p, 8, 24, 1, lag)
        fset(p, 8, 0, 16, port)
        fset(p, 0x18, 0, 12, vid)
    p[0x12:0x18] = mac
    return p


def ritr(q, rif, **kw):
    return reg_cmd(q, 0x8002, ritr_pl(rif, **kw), True)[1]


def ritr_query(q, rif):
    return reg_cmd(q, 0x8002, ritr_pl(rif, enable=0, vid=0, mac=bytes(6),
                                      mtu=0), False)[2]


def ricnt(q, index, op=0, set_type=9, write=False):
    p = bytearray(0x100)
    fset(p, 0, 28, 4, op)
    fset(p, 4, 24, 8, set_type)
    fset(p, 4, 0, 24, index)
    _, est, out = reg_cmd(q, 0x800B, p, write)
    return est, [struct.unpack_from('>Q', out, 8 + 8 * i)[0]
                 for i in range(10)]


# The router's registers: RGCR, RITR and RICNT as SwitchX-2 allows them
def router_main():
    q, _ = qtest_wired()
    dev_setup(q, find_dev(q), BAR)
    sts = learn_setup(q)
    no_router = [rgcr(q), ritr(q, 0)]
    sts.append(exec_cmd(q, 0x100, opmod=1,
                        in_mbox=profile_mbox(1, 1, swids=((0, 2), (1, 8))))[0])
    check(sts == [0] * len(sts) and no_router == [7, 7],
          'router: without a router port partition in the profile, RGCR '
          'and RITR -> bad parameter; CONFIG_PROFILE takes swid 1 of type 8 '
          '(router port) (%s)' % no_router)
    bad = [rgcr(q, usp=1), rgcr(q, pcp_rw=2), rgcr(q, activity_dis=1),
           rgcr(q, max_rifs=257)]
    st = rgcr(q)
    _, est, out = reg_cmd(q, 0x8001, bytearray(0x28), False)
    check(bad == [7] * 4 and st == 0 and est == 0 and
          (fget(out, 0, 31, 1), fget(out, 0, 30, 1),
           fget(out, 0x10, 0, 16)) == (1, 1, 16),
          'router: RGCR usp, pcp_rw, activity_dis (not supported by '
          'SwitchX-2) and 257 interfaces -> bad parameter; IPv4 + IPv6 with '
          '16 interfaces read back (%s)' % bad)
    st = ritr(q, 0, vid=10)
    out = ritr_query(q, 0)
    back = (fget(out, 0, 31, 1), fget(out, 0, 23, 3), fget(out, 8, 0, 12),
            bytes(out[0x12:0x18]), fget(out, 0x34, 0, 16))
    check(st == 0 and back == (1, 0, 10, RMAC, 1500),
          'router: RITR VLAN RIF 0 on VID 10 with its MAC and MTU 1500, read '
          'back (%s)' % (back,))
    bad = [ritr(q, 16), ritr(q, 1, vid=11, extra=[(0, 20, 2, 1)]),
           ritr(q, 1, vid=11, extra=[(4, 29, 1, 1)]),
           ritr(q, 1, vid=11, extra=[(4, 28, 1, 1)]),
           ritr(q, 1, vid=11, rtype=1), ritr(q, 1, vid=11, rtype=3),
           ritr(q, 1, vid=11, extra=[(0xC, 0, 16, 5)]),
           ritr(q, 1, vid=11, extra=[(0x10, 16, 4, 1)]),
           ritr(q, 1, vid=11, vr=16), ritr(q, 1, vid=11, mtu=0),
           ritr(q, 1, vid=11, mac=bytes.fromhex('01005e000001')),
           ritr(q, 1, vid=4095), ritr(q, 1, vid=10),
           ritr(q, 1, vid=10, port=9),
           ritr(q, 1, vid=10, port=64, lag=1),
           ritr(q, 1, vid=11, extra=[(0x38, 24, 8, 9),
                                     (0x38, 0, 24, 512)])]
    check(bad == [7] * len(bad),
          'router: RITR -> bad parameter for RIF 16 of 16, op 1 with enable '
          '1 (op reserved for SwitchX-2), ipv4_fe/ipv6_fe (not supported), '
          'FID and loopback interfaces, an '
          'egress FID, a MAC profile, virtual router 16, MTU 0, a multicast '
          'MAC, VID 4095, a second RIF on VID 10, a sub-port on no port or '
          'on LAG 64, counter set 512 (%s)' % bad)
    sts = [ritr(q, 2, vid=10, port=1),
           ritr(q, 0, vid=10, mtu=9000, extra=[(0x38, 24, 8, 9),
                                               (0x38, 0, 24, 3)])]
    moved = ritr(q, 0, vid=20)
    out = ritr_query(q, 0)
    cnt = ricnt(q, 3)
    bad_cnt = [ricnt(q, 3, set_type=0)[0], ricnt(q, 512)[0],
               ricnt(q, 3, op=1)[0]]
    check(sts == [0, 0] and moved == 7 and
          (fget(out, 0x34, 0, 16), fget(out, 0x38, 24, 8),
           fget(out, 0x38, 0, 24)) == (9000, 9, 3) and
          cnt == (0, [0] * 10) and bad_cnt == [7, 7, 7],
          'router: sub-port RIF {port 1, VID 10} beside the VLAN RIF; RIF 0 '
          'edited in place (MTU 9000, ingress counter set 3), not moved to '
          'VID 20; RICNT reads set 3 (zero), refuses set type 0, set 512 '
          'and op 1 (%s, %s, %s)' % (moved, cnt, bad_cnt))
    sts = [ritr(q, 0, enable=0, extra=[(0, 20, 2, 2)]),
           ritr(q, 0, enable=0), rgcr(q, max_rifs=32)]
    sts += [fget(ritr_query(q, 0), 0, 31, 1), ritr(q, 1, vid=10),
            ritr(q, 2, enable=0), ritr(q, 1, enable=0),
            rgcr(q, max_rifs=32)]
    check(sts == [7, 0, 7, 0, 0, 0, 0, 0],
          'router: a RIF goes by a disabled write with op 0 (op 2 -> bad '
          'parameter); VID 10 is free for RIF 1 then; '
          'RGCR resizes only with no RIF left (%s)' % sts)
    q.quit()


def ipv4_csum(hdr):
    s = sum(struct.unpack('>%dH' % (len(hdr) // 2), hdr))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ip4_frame(dmac, smac, dip, ttl=64, sip=(10, 0, 0, 2), payload=18):
    """An IPv4 UDP frame with a correct header checksum."""
    ip = bytearray(struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + 8 + payload,
                               0, 0, ttl, 17, 0, bytes(sip), bytes(dip)))
    struct.pack_into('>H', ip, 10, ipv4_csum(ip))
    return (dmac + smac + b'\x08\x00' + bytes(ip) +
            struct.pack('>HHHH', 1000, 2000, 8 + payload, 0) +
            bytes(payload))


def udp_frames(q, socks, lp, frame, timeout=0.2):
    """Send @frame into port @lp: {port: [frames it sent out]}, each
    socket read until @timeout seconds pass without a frame."""
    udp_drain(socks)
    socks[lp - 1][0].sendto(frame, ('127.0.0.1', socks[lp - 1][1]))
    time.sleep(0.1)
    q.cmd('clock_step 1000')
    out = {}
    for i, (sk, _) in enumerate(socks):
        sk.settimeout(timeout)
        try:
            while True:
                frame = sk.recv(20000)
                out.setdefault(i + 1, []).append(frame)
        except (socket.timeout, BlockingIOError):
            pass
    return out


def route_setup(q):
    """Port 1 in VLAN 10, port 2 in VLAN 20 (untagged), a router with a
    RIF in each (RMAC), 192.0.2.0/24 on VLAN 20 with neighbour MAC_B,
    198.51.100.0/24 via next hop MAC_C on VLAN 20.  EMAD statuses."""
    def reg(reg_id, pl):
        return reg_cmd(q, reg_id, pl, True)[1]

    def spvid(lp, pvid):
        p = lp_pl(8, lp)
        fset(p, 4, 0, 12, pvid)
        return reg(0x200E, p)

    sts = [exec_cmd(q, 0x100, opmod=1,
                    in_mbox=profile_mbox(1, 1, swids=((0, 2), (1, 8))))[0]]
    for lp, vid in ((1, 10), (2, 20)):
        sts += [paos_set(q, lp, True), reg(0x200F, spvm_pl(lp, [(vid, 7)])),
                spvid(lp, vid), reg(0x200D, spms_pl(lp, [(vid, 3)]))]
    sts += [rgcr(q, max_rifs=16), ritr(q, 0, vid=10),
            ritr(q, 1, vid=20, extra=[(0x3C, 24, 8, 9), (0x3C, 0, 24, 1)]),
            ritr(q, 0, vid=10, extra=[(0x38, 24, 8, 9), (0x38, 0, 24, 0)])]
    sts += [sfd_write(q, 1, [(RMAC, 10, 0, 0, 3), (RMAC, 20, 0, 0, 3),
                             (MAC_B, 20, 2, 0, 0), (MAC_C, 20, 2, 0, 0)])[0]]
    ralst = bytearray(0x104)
    ralst[4:] = b'\xff' * 0x100
    fset(ralst, 0, 16, 8, 24)
    fset(ralst, 0, 0, 8, 1)
    sts += [lag_reg(q, 0x8010, 4, [(0, 24, 4, 0), (0, 0, 8, 1)]),
            reg(0x8011, ralst),
            lag_reg(q, 0x8012, 4, [(0, 0, 8, 1)]),
            ralue4(q, (192, 0, 2, 0), 24, action=1, erif=1),
            ralue4(q, (198, 51, 100, 0), 24, action=0, adj=0),
            lag_reg(q, 0x8008, 0x2C, [(0, 28, 4, 1), (0, 24, 1, 1),
                                      (8, 0, 16, 1)], mac=(0x12, MAC_C)),
            rauht4(q, 1, (192, 0, 2, 2), MAC_B)]
    return sts


def ralue4(q, dip, plen, action, erif=0, adj=0, ecmp=1, trap_action=0,
           trap_id=0, op=0):
    """An IPv4 route in virtual router 0 (ralue_pl below)."""
    return ralue(q, 0, dip, plen, action, erif=erif, adj=adj, ecmp=ecmp,
                 trap_action=trap_action, trap_id=trap_id, op=op)


def ralue6(q, dip, plen, erif=1):
    """An IPv6 route, local through @erif."""
    return ralue(q, 1, bytes(dip), plen, 1, erif=erif)


def rauht6(q, rif, dip, mac):
    p = bytearray(0x74)
    fset(p, 0, 24, 2, 1)
    fset(p, 0, 0, 16, rif)
    p[0x10:0x20] = dip
    p[0x6E:0x74] = mac
    return reg_cmd(q, 0x8014, p, True)[1]


def ip6_frame(dmac, smac, dip, hlim=64, payload=18):
    sip = bytes.fromhex('20010db8001000000000000000000002')
    ip = struct.pack('>IHBB16s16s', 6 << 28, 8 + payload, 17, hlim, sip,
                     dip)
    return (dmac + smac + b'\x86\xdd' + ip +
            struct.pack('>HHHH', 1000, 2000, 8 + payload, 0) + bytes(payload))


def rauhtd(q, proto):
    """RAUHTD as Spectrum asks it: active entries, dump and clear, 32
    records: [(rif, address)]."""
    p = bytearray(0x420)
    fset(p, 0, 0, 8, 1)
    fset(p, 4, 24, 2, 1)
    fset(p, 4, 0, 8, 32)
    fset(p, 8, 16, 1, 1)
    fset(p, 8, 0, 4, proto)
    _, est, out = reg_cmd(q, 0x8018, p, False)
    got = []
    for r in range(fget(out, 4, 0, 8)):
        rec = out[0x20 + 0x20 * r:0x40 + 0x20 * r]
        if proto == 0:
            for e in range(fget(rec, 0, 28, 2) + 1):
                got.append((fget(rec, 8 * e, 0, 16),
                            socket.inet_ntop(socket.AF_INET,
                                             bytes(rec[8 * e + 4:8 * e + 8]))))
        else:
            got.append((fget(rec, 0, 0, 16),
                        socket.inet_ntop(socket.AF_INET6,
                                         bytes(rec[0x10:0x20]))))
    return got if est == 0 else est


def rauht4(q, rif, dip, mac, op=0):
    p = bytearray(0x74)
    fset(p, 0, 20, 3, op)
    fset(p, 0, 0, 16, rif)
    p[0x1C:0x20] = bytes(dip)
    p[0x6E:0x74] = mac
    return reg_cmd(q, 0x8014, p, True)[1]


# Routing between two VLANs: LPM, neighbours, next hops, exceptions
def route_main():
    qmp_path = '/tmp/sx2-qtest-route-%d.sock' % os.getpid()
    q, socks = qtest_wired(qemu_args=['-qmp', 'unix:%s,server=on,wait=off'
                                      % qmp_path])
    qmp = QMP(qmp_path)
    os.unlink(qmp_path)
    dev_setup(q, find_dev(q), BAR)
    sts = route_setup(q)
    check(sts == [0] * len(sts),
          'route: VLANs 10 and 20, RIFs, router MACs in the FDB, an LPM '
          'tree with bin 24, a local and a remote route, a neighbour and a '
          'next hop (%s)' % sts)
    got = udp_frames(q, socks, 1, ip4_frame(RMAC, MAC_A, (192, 0, 2, 2)))
    out = got.get(2, [b''])[0]
    ip = out[14:34]
    check(sorted(got) == [2] and len(got[2]) == 1 and out[:6] == MAC_B and
          out[6:12] == RMAC and ip[8] == 63 and ipv4_csum(ip) == 0,
          'route: 10.0.0.2 -> 192.0.2.2 from VLAN 10 leaves port 2 to the '
          'neighbour\'s MAC, from the router\'s, TTL 63, checksum right '
          '(%s)' % {k: len(v) for k, v in got.items()})
    got = udp_frames(q, socks, 1, ip4_frame(RMAC, MAC_A, (198, 51, 100, 7)))
    out = got.get(2, [b''])[0]
    check(sorted(got) == [2] and out[:6] == MAC_C,
          'route: 198.51.100.7 leaves port 2 to the next hop MAC_C (%s)' %
          sorted(got))
    before = qmp.cmd('query-switchx2', id='sw')['return'][0]['cpu']
    lost = [udp_frames(q, socks, 1, f) for f in (
        ip4_frame(RMAC, MAC_A, (192, 0, 2, 2), ttl=1),
        ip4_frame(RMAC, MAC_A, (192, 0, 2, 9)),
        ip4_frame(RMAC, MAC_A, (203, 0, 113, 1)))]
    after = qmp.cmd('query-switchx2', id='sw')['return'][0]['cpu']

    def tried(cpu, tid):
        t = {x['trap-id']: x for x in cpu.get('traps', [])}.get(tid, {})
        return t.get('trapped', 0) + t.get('dropped', 0)
    traps = [tried(after, t) - tried(before, t) for t in (0x53, 0x90)]
    check(lost == [{}, {}, {}] and traps == [1, 1],
          'route: TTL 1 (trap TTLERROR 0x53), an unresolved neighbour (trap '
          'HOST_MISS_IPV4 0x90) and no route are not forwarded (%s, %s)' %
          (lost, traps))
    _, cnt_in = ricnt(q, 0)
    _, cnt_out = ricnt(q, 1)
    check(cnt_in[0] == 2 and cnt_out[0] == 2 and cnt_in[7] == 1,
          'route: RIF 0 ingress counted 2 routed and 1 discarded (no '
          'route), RIF 1 egress 2 routed (%s, %s)' % (cnt_in[:8],
                                                       cnt_out[:8]))
    dip6 = bytes.fromhex('20010db8002000000000000000000002')
    ralst = bytearray(0x104)
    ralst[4:] = b'\xff' * 0x100
    fset(ralst, 0, 16, 8, 64)
    fset(ralst, 0, 0, 8, 2)
    sts = [lag_reg(q, 0x8010, 4, [(0, 24, 4, 1), (0, 0, 8, 2)]),
           reg_cmd(q, 0x8011, ralst, True)[1],
           ralue6(q, dip6[:8] + bytes(8), 48),
           lag_reg(q, 0x8012, 4, [(0, 12, 4, 1), (0, 0, 8, 2)]),
           ralue6(q, dip6[:6] + bytes(10), 48),
           ralue6(q, dip6[:8] + bytes(8), 64),
           rauht6(q, 1, dip6, MAC_B)]
    got = udp_frames(q, socks, 1, ip6_frame(RMAC, MAC_A, dip6))
    out = got.get(2, [b''])[0]
    low = udp_frames(q, socks, 1, ip6_frame(RMAC, MAC_A, dip6, hlim=1))
    check(sts == [0, 0, 7, 0, 7, 0, 0] and sorted(got) == [2] and
          out[:6] == MAC_B and out[6:12] == RMAC and out[21] == 63 and
          low == {},
          'route: IPv6: a /48 route refused before the virtual router has a '
          'tree and after (no bin 48); 2001:db8:20::2 routed to the '
          'neighbour, hop '
          'limit 63; hop limit 1 not forwarded (%s, %s)' % (sts, sorted(got)))
    r = qmp.cmd('query-switchx2-routes', id='sw').get('return', {})
    rifs = [(x['rif'], x['vid'], x.get('routed-in'), x.get('routed-out'))
            for x in r.get('rifs', [])]
    routes = [(x['prefix'], x['action'], x.get('rif'), x.get('adjacency'))
              for x in r.get('routes', []) if ':' not in x['prefix']]
    hosts = [(x['address'], x['rif'], x['mac'], x['active'])
             for x in r.get('neighbours', []) if ':' not in x['address']]
    hops = [(x['index'], x['rif'], x['mac'], x['active'])
            for x in r.get('next-hops', [])]
    check(r.get('attached') and r.get('max-rifs') == 16 and
          rifs == [(0, 10, 3, None), (1, 20, None, 3)] and
          routes == [('192.0.2.0/24', 'local', 1, None),
                     ('198.51.100.0/24', 'remote', None, 0)] and
          hosts == [('192.0.2.2', 1, '02:00:00:00:00:0b', True)] and
          hops == [(0, 1, '02:00:00:00:00:0c', True)],
          'route: query-switchx2-routes shows the RIFs with their counters, '
          'the two routes, the neighbour and the next hop, both active '
          '(%s, %s, %s, %s)' % (rifs, routes, hosts, hops))
    # RAUHTD: the active neighbours, cleared as they are dumped
    rauht4(q, 1, (192, 0, 2, 3), MAC_C)
    dumps = [rauhtd(q, 0), rauhtd(q, 0), rauhtd(q, 1)]
    check(dumps == [[(1, '192.0.2.2'), (1, '192.0.2.3')], [],
                    [(1, '2001:db8:20::2')]],
          'route: RAUHTD dumps the active IPv4 neighbours (the used one and '
          'the new one: "Activity bit is set for new entries") and clears '
          'them: a second dump is empty; IPv6 apart (%s)' % dumps)
    q.quit()


# Model pass 3 of the router (issue 31): helpers and checks
NB = 0xff   # RALST: no child


def ralst(q, tree, root, bins=None):
    """RALST of @tree: @root and {bin: (left, right)}; EMAD status."""
    p = bytearray(0x104)
    p[4:] = b'\xff' * 0x100
    fset(p, 0, 16, 8, root)
    fset(p, 0, 0, 8, tree)
    for b, (left, right) in (bins or {}).items():
        p[4 + 2 * (b - 1)] = left
        p[5 + 2 * (b - 1)] = right
    return reg_cmd(q, 0x8011, p, True)[1]


def ralue_pl(proto, dip, plen, action, erif=0, adj=0, ecmp=1,
             trap_action=0, trap_id=0, op=0, vr=0):
    p = bytearray(0x38)
    fset(p, 0, 24, 4, proto)
    fset(p, 0, 20, 3, op)
    fset(p, 4, 16, 16, vr)
    fset(p, 8, 0, 8, plen)
    if proto == 0:
        p[0x18:0x1C] = bytes(dip)
    else:
        p[0x0C:0x1C] = bytes(dip)
    fset(p, 0x1C, 30, 2, 2)
    fset(p, 0x1C, 16, 8, plen)
    fset(p, 0x1C, 0, 2, action)
    fset(p, 0x20, 28, 4, trap_action)
    fset(p, 0x20, 0, 9, trap_id)
    if action == 0:
        fset(p, 0x24, 0, 24, adj)
        fset(p, 0x28, 0, 13, ecmp)
    elif action == 1:
        fset(p, 0x24, 0, 16, erif)
    return p


def ralue(q, *a, **kw):
    return reg_cmd(q, 0x8013, ralue_pl(*a, **kw), True)[1]


def ralue_query(q, proto, dip, plen, vr=0):
    """(status, action, erif or adjacency, ecmp_size)"""
    _, est, out = reg_cmd(q, 0x8013, ralue_pl(proto, dip, plen, 0, vr=vr),
                          False)
    act = fget(out, 0x1C, 0, 2)
    return (est, act, fget(out, 0x24, 0, 16 if act == 1 else 24),
            fget(out, 0x28, 0, 13))


def ratr(q, index, erif, mac, valid=1, trap_action=0, trap_id=0):
    return lag_reg(q, 0x8008, 0x2C, [(0, 28, 4, 1), (0, 24, 1, valid),
                                     (4, 0, 16, index & 0xFFFF),
                                     (0xC, 16, 8, index >> 16),
                                     (8, 0, 16, erif),
                                     (0xC, 28, 4, trap_action),
                                     (0xC, 0, 8, trap_id)], mac=(0x12, mac))


def rauht(q, proto, rif, dip, mac, op=0, trap_action=0, trap_id=0):
    p = bytearray(0x74)
    fset(p, 0, 24, 2, proto)
    fset(p, 0, 20, 3, op)
    fset(p, 0, 0, 16, rif)
    if proto == 0:
        p[0x1C:0x20] = bytes(dip)
    else:
        p[0x10:0x20] = bytes(dip)
    fset(p, 0x60, 28, 4, trap_action)
    fset(p, 0x60, 0, 9, trap_id)
    p[0x6E:0x74] = mac
    return reg_cmd(q, 0x8014, p, True)[1]


def rauhtd_q(q, proto, num_rec=32, op=1, active=None):
    """One RAUHTD query: (status, [(rif, address)], records)."""
    p = bytearray(0x420)
    fset(p, 0, 0, 8, 0 if active is None else 1)
    fset(p, 4, 24, 2, op)
    fset(p, 4, 0, 8, num_rec)
    fset(p, 8, 16, 1, active or 0)
    fset(p, 8, 0, 4, proto)
    _, est, out = reg_cmd(q, 0x8018, p, False)
    got = []
    nrec = fget(out, 4, 0, 8)
    for r in range(min(nrec, 32)):
        rec = out[0x20 + 0x20 * r:0x40 + 0x20 * r]
        if proto == 0:
            for e in range(fget(rec, 0, 28, 2) + 1):
                got.append((fget(rec, 8 * e, 0, 16),
                            socket.inet_ntop(socket.AF_INET,
                                             bytes(rec[8 * e + 4:8 * e + 8]))))
        else:
            got.append((fget(rec, 0, 0, 16),
                        socket.inet_ntop(socket.AF_INET6,
                                         bytes(rec[0x10:0x20]))))
    return est, got, nrec


def rauhtd_all(q, proto, num_rec, op=0, active=None, most=20):
    """Queries until a short answer ends the session (at most @most):
    (entries in order, queries)."""
    got = []
    for n in range(1, most + 1):
        est, part, nrec = rauhtd_q(q, proto, num_rec, op, active)
        got += part
        if est or len(part) < num_rec * (4 if proto == 0 else 1):
            return got, n
    return got, most + 1


def hpkt_w(q, trap, action, group=1):
    p = bytearray(0x10)
    fset(p, 0, 20, 3, action)
    fset(p, 0, 12, 6, group)
    fset(p, 0, 0, 10, trap)
    return reg_cmd(q, 0x7003, p, True)[1]


def ip4_pkt(dmac, smac, sip, dip, ttl=64, options=b'', frag=0, l4=None,
            bad_csum=False, payload=18):
    """IPv4 UDP: @frag is the flags/offset word, @l4 replaces the UDP
    header and payload."""
    body = l4 if l4 is not None else (
        struct.pack('>HHHH', 1000, 2000, 8 + payload, 0) + bytes(payload))
    ihl = 5 + len(options) // 4
    ip = bytearray(struct.pack('>BBHHHBBH4s4s', 0x40 | ihl, 0,
                               ihl * 4 + len(body), 0, frag, ttl, 17, 0,
                               bytes(sip), bytes(dip)) + options)
    struct.pack_into('>H', ip, 10, ipv4_csum(ip) ^ (1 if bad_csum else 0))
    return dmac + smac + b'\x08\x00' + bytes(ip) + body


def ip6_pkt(dmac, smac, sip, dip, hlim=64, hbh=None, payload=18):
    udp = struct.pack('>HHHH', 1000, 2000, 8 + payload, 0) + bytes(payload)
    nh, ext = 17, b''
    if hbh is not None:
        nh, ext = 0, bytes([17, 0]) + hbh
    ip = struct.pack('>IHBB16s16s', 6 << 28, len(ext) + len(udp), nh, hlim,
                     bytes(sip), bytes(dip))
    return dmac + smac + b'\x86\xdd' + ip + ext + udp


def v6(a):
    return socket.inet_pton(socket.AF_INET6, a)


def route3_setup(q):
    """route_setup, an IPv6 tree (bins 64 and 128: 128 the root, 64 its
    left child) for virtual router 0 with 2001:db8:20::/64 on RIF 1 and
    its neighbour ::2, default routes via next hop 0 (MAC_C)."""
    sts = route_setup(q)
    sts += [lag_reg(q, 0x8010, 4, [(0, 24, 4, 1), (0, 0, 8, 2)]),
            ralst(q, 2, 128, {128: (64, NB)}),
            lag_reg(q, 0x8012, 4, [(0, 12, 4, 1), (0, 0, 8, 2)]),
            ralue(q, 1, v6('2001:db8:20::'), 64, 1, erif=1),
            rauht(q, 1, 1, v6('2001:db8:20::2'), MAC_B),
            ralue(q, 0, (0, 0, 0, 0), 0, 0, adj=0),
            ralue(q, 1, bytes(16), 0, 0, adj=0)]
    return sts


def route3_main():
    qmp_path = '/tmp/sx2-qtest-route3-%d.sock' % os.getpid()
    q, socks = qtest_wired(qemu_args=['-qmp', 'unix:%s,server=on,wait=off'
                                      % qmp_path])
    qmp = QMP(qmp_path)
    os.unlink(qmp_path)
    dev_setup(q, find_dev(q), BAR)
    sts = route3_setup(q)
    check(sts == [0] * len(sts),
          'route3: the router of route_setup, an IPv6 tree with bins 128 '
          'and 64, a /64, its neighbour, default routes (%s)' % sts)

    def tried(tid):
        cpu = qmp.cmd('query-switchx2', id='sw')['return'][0]['cpu']
        t = {x['trap-id']: x for x in cpu.get('traps', [])}.get(tid, {})
        return t.get('trapped', 0) + t.get('dropped', 0)

    def send(frame, lp=1):
        """{port: [frames]} out of the switch"""
        return udp_frames(q, socks, lp, frame, timeout=0.1)

    # a, m: RALST
    sts = [lag_reg(q, 0x8010, 4, [(0, 24, 4, 0), (0, 0, 8, 3)])]
    bad = [ralst(q, 3, 24, {24: (28, NB)}), ralst(q, 3, 24, {24: (NB, 16)}),
           ralst(q, 3, 24, {24: (16, NB), 16: (NB, 30)})]
    good = ralst(q, 3, 24, {24: (16, 28), 16: (8, NB)})
    check(sts == [0] and bad == [7, 7, 7] and good == 0,
          'route3: RALST trees not sorted ("must be sorted as a sorted binary '
          'tree": left child 28 of bin 24, right child 16 of 24, 30 in the '
          'left subtree of 24) -> bad parameter; 24 over 16 and 28, 16 over '
          '8 accepted (%s, %s)' % (bad, good))
    sts = [ralst(q, 3, 0), lag_reg(q, 0x8012, 4, [(0, 16, 16, 1),
                                                 (0, 0, 8, 3)])]
    p = bytearray(0x104)
    fset(p, 0, 0, 8, 3)
    _, est, out = reg_cmd(q, 0x8011, p, False)
    sts += [ralue(q, 0, (10, 1, 0, 0), 24, 1, erif=0, vr=1),
            ralue(q, 0, (0, 0, 0, 0), 0, 1, erif=0, vr=1)]
    check(sts == [0, 0, 7, 0] and est == 0 and fget(out, 0, 16, 8) == 0,
          'route3: RALST root_bin 0 (Spectrum\'s tree of the default route '
          'alone) accepted, reads back 0: no bins, so virtual router 1 bound '
          'to it takes its default route and no /24 (%s)' % sts)

    # b: host bits past the prefix length
    sts = [ralue(q, 0, (192, 0, 2, 1), 24, 1, erif=1),
           ralue(q, 0, (192, 0, 2, 1), 24, 1, erif=1, op=3),
           ralue(q, 1, v6('2001:db8:20::1'), 64, 1, erif=1)]
    back = ralue_query(q, 0, (192, 0, 2, 0), 24)
    check(sts == [7, 7, 7] and back[:3] == (0, 1, 1),
          'route3: RALUE 192.0.2.1/24 (write, delete) and 2001:db8:20::1/64 '
          '("the least significant bits must be \'0\'") -> bad parameter, '
          'not masked: 192.0.2.0/24 still local through RIF 1 (%s, %s)' %
          (sts, back))

    # c: trap IDs
    sts = [ralue(q, 0, (203, 0, 113, 0), 24, 1, trap_action=1, trap_id=t)
           for t in (0x70, 0x71, 0x53, 0x80)]
    sts += [ralue(q, 0, (203, 0, 113, 0), 24, 1, erif=1, trap_id=0x1FF)]
    sts += [ratr(q, 5, 1, MAC_C, trap_action=1, trap_id=t)
            for t in (0x80, 0x81, 0x70)]
    sts += [ratr(q, 5, 1, MAC_C, valid=0)]
    sts += [rauht(q, 0, 1, (192, 0, 2, 77), MAC_C, trap_action=1,
                  trap_id=t) for t in (0x80, 0x19)]
    sts += [rauht(q, 0, 1, (192, 0, 2, 77), MAC_C, op=3)]
    check(sts == [0, 0, 7, 7, 0, 0, 0, 7, 0, 0, 7, 0],
          'route3: trap IDs: RALUE traps with RTR_INGRESS0/1 (0x70/0x71), '
          'not 0x53 or 0x80 (reserved with NOP: 0x1ff accepted); RATR and '
          'RAUHT with RTR_EGRESS0/1 (0x80/0x81), not 0x70 or 0x19 (%s)' % sts)

    # d: IP2ME takes NOP (and MIRROR, which the model does not mirror)
    sts = [ralue(q, 0, (198, 18, 0, 0), 24, 2, trap_action=t, trap_id=0x70)
           for t in (1, 2, 3, 4, 0)]
    check(sts == [7, 7, 7, 7, 0],
          'route3: RALUE IP2ME with trap_action trap, mirror to CPU, mirror, '
          'discard -> bad parameter ("only NOP and MIRROR"; no router '
          'mirroring), NOP accepted (%s)' % sts)

    # e: update/delete of entries that do not exist
    sts = [ralue(q, 0, (10, 99, 0, 0), 24, 1, op=3),
           rauht(q, 0, 1, (192, 0, 2, 99), MAC_C, op=3),
           rauht(q, 0, 1, (192, 0, 2, 99), MAC_C, op=1),
           rauht(q, 0, 1, (192, 0, 2, 99), MAC_C, op=2),
           rauht(q, 0, 1, (192, 0, 2, 2), MAC_B, op=1),
           rauht(q, 0, 1, (192, 0, 2, 2), MAC_B, op=2),
           rauht(q, 0, 0, (0, 0, 0, 0), bytes(6), op=4)]
    r99 = qmp.cmd('query-switchx2-routes', id='sw')['return']
    n99 = [x for x in r99.get('neighbours', [])
           if x['address'] == '192.0.2.99']
    check(sts == [7, 7, 7, 7, 0, 0, 0] and n99 == [],
          'route3: RALUE delete, RAUHT delete, update and clear activity of '
          'entries that do not exist -> bad parameter (no entry made); '
          'update and clear activity of 192.0.2.2, DELETE_ALL of a RIF '
          'without neighbours accepted (%s)' % sts)

    # g: RIF counters
    _, in0 = ricnt(q, 0)
    _, out0 = ricnt(q, 1)
    got = [send(ip4_pkt(RMAC, MAC_A, (10, 0, 0, 2), (192, 0, 2, 2))),
           send(ip4_pkt(RMAC, MAC_A, (10, 0, 0, 2), (192, 0, 2, 2),
                        payload=0)),
           send(ip4_pkt(RMAC, MAC_A, (10, 0, 0, 2), (192, 0, 2, 2),
                        bad_csum=True))]
    _, in1 = ricnt(q, 0)
    _, out1 = ricnt(q, 1)
    d_in = [b - a for a, b in zip(in0, in1)]
    d_out = [b - a for a, b in zip(out0, out1)]
    wr = [ricnt(q, 0, op=0, write=True)[0], ricnt(q, 0, op=8,
                                                 write=True)[0]]
    check([sorted(g) for g in got] == [[2], [2], []] and
          (d_in[0], d_in[3], d_in[6], d_in[8], d_in[7]) ==
          (2, 92, 1, 46, 0) and (d_out[0], d_out[3]) == (2, 92) and
          wr == [7, 0],
          'route3: RICNT bytes are L3 octets with padding, no L2 header (a '
          '60-byte frame counts 46, a 42-byte one its padded 46); a bad '
          'header checksum counts as error (packets and bytes), not '
          'discard; a write with op NOP ("supported only for read") -> bad '
          'parameter, with op CLEAR accepted (%s, %s, %s)' %
          (d_in, d_out[:4], wr))

    # h: packets no router forwards
    _, c0 = ricnt(q, 0)
    mart = [((127, 0, 0, 1), (192, 0, 2, 2)), ((0, 0, 0, 7), (192, 0, 2, 2)),
            ((224, 1, 2, 3), (192, 0, 2, 2)),
            ((255, 255, 255, 255), (192, 0, 2, 2)),
            ((240, 0, 0, 1), (192, 0, 2, 2)),
            ((10, 0, 0, 2), (127, 0, 0, 1)), ((10, 0, 0, 2), (0, 1, 2, 3))]
    got = [send(ip4_pkt(RMAC, MAC_A, a, b)) for a, b in mart]
    t0 = [tried(0x60), tried(0x62)]
    dst6 = v6('2001:db8:20::2')
    got6 = [send(ip6_pkt(RMAC, MAC_A, v6(a), d)) for a, d in (
        ('fe80::1', dst6), ('::', dst6), ('::1', dst6), ('ff02::1', dst6),
        ('2001:db8:10::2', v6('::1')))]
    t1 = [tried(0x60) - t0[0], tried(0x62) - t0[1]]
    _, c1 = ricnt(q, 0)
    ok = send(ip6_pkt(RMAC, MAC_A, v6('2001:db8:10::2'), dst6))
    check(got == [{}] * 7 and got6 == [{}] * 5 and t1 == [1, 1] and
          c1[7] - c0[7] == 10 and sorted(ok) == [2],
          'route3: not forwarded: IPv4 sources 127/8, 0/8, multicast, '
          'broadcast, class E, destinations 127/8 and 0/8 (with a default '
          'route), IPv6 sources ::1 and multicast, destination ::1 (RIF '
          'discards 10); IPv6 sources fe80::1 and :: trapped '
          'IPV6_LINK_LOCAL_SRC 0x62 / IPV6_UNSPECIFIED_ADDRESS 0x60; a '
          'global source routed (%s, %s, %s, %d)' %
          ([sorted(g) for g in got], [sorted(g) for g in got6], t1,
           c1[7] - c0[7]))

    # l: ECMP and fragments; t: ECMP sizes; r: RALEU
    sts = [ratr(q, 10, 1, MAC_B), ratr(q, 11, 1, MAC_C),
           ralue(q, 0, (203, 0, 113, 0), 24, 0, adj=10, ecmp=2)]

    def hop(frame):
        out = send(frame).get(2, [b''])
        return out[0][:6] if len(out) == 1 else None
    whole = {hop(ip4_pkt(RMAC, MAC_A, (10, 0, 0, 2), (203, 0, 113, 5),
                         l4=struct.pack('>HHHH', 1000 + i, 2000, 8, 0)))
             for i in range(8)}
    later = {hop(ip4_pkt(RMAC, MAC_A, (10, 0, 0, 2), (203, 0, 113, 5),
                         frag=185, l4=bytes([i * 37 % 256] * 4) + bytes(4)))
             for i in range(8)}
    first = {hop(ip4_pkt(RMAC, MAC_A, (10, 0, 0, 2), (203, 0, 113, 5),
                         frag=0x2000,
                         l4=struct.pack('>HHHH', 1000 + i, 2000, 8, 0)))
             for i in range(8)}
    check(sts == [0, 0, 0] and len(whole) == 2 and None not in whole and
          len(later) == 1 and len(first) == 1 and None not in later | first,
          'route3: ECMP over 2 next hops: 8 UDP flows take both; 8 non-first '
          'fragments of one datagram (their data where ports would be) take '
          'one, as do 8 first fragments (MF set) of different ports (%s, %s, '
          '%s)' % (len(whole), len(later), len(first)))
    sts = [ralue(q, 0, (203, 0, 113, 0), 24, 0, adj=0, ecmp=n)
           for n in (512, 1024, 2048, 4096, 65, 100, 513)]
    sts += [ralue(q, 0, (203, 0, 113, 0), 24, 0, adj=16000, ecmp=512),
            ralue(q, 0, (203, 0, 113, 0), 24, 0, adj=10, ecmp=2)]
    check(sts == [0, 0, 0, 0, 7, 7, 7, 7, 0],
          'route3: RALUE ECMP sizes 512, 1024, 2048, 4096 accepted ("1-64, '
          '512, 1024, 2048 and 4096"); 65, 100, 513, and 512 from adjacency '
          '16000 (past the table) -> bad parameter (%s)' % sts)

    def raleu(adj, size, new_adj, new_size, proto=0, vr=0):
        return lag_reg(q, 0x8015, 0x28, [(0, 24, 4, proto), (0, 0, 16, vr),
                                         (0x10, 0, 24, adj),
                                         (0x14, 0, 13, size),
                                         (0x20, 0, 24, new_adj),
                                         (0x24, 0, 13, new_size)])
    sts = [ralue(q, 0, (203, 0, 114, 0), 24, 0, adj=10, ecmp=2),
           raleu(10, 2, 0, 1), raleu(10, 2, 0, 65), raleu(11, 2, 0, 1)]
    back = [ralue_query(q, 0, (203, 0, 113, 0), 24),
            ralue_query(q, 0, (203, 0, 114, 0), 24),
            ralue_query(q, 0, (198, 51, 100, 0), 24)]
    h = hop(ip4_pkt(RMAC, MAC_A, (10, 0, 0, 2), (203, 0, 113, 5)))
    check(sts == [0, 0, 7, 0] and back == [(0, 0, 0, 1), (0, 0, 0, 1),
                                           (0, 0, 0, 1)] and h == MAC_C,
          'route3: RALEU moves every route of virtual router 0 through '
          'adjacencies 10+2 to 0+1 (203.0.113.0/24 and 203.0.114.0/24 '
          'follow, leave to MAC_C); a new ECMP size 65 -> bad parameter; no '
          'route matching is no error (%s, %s)' % (sts, back))

    # v: keys whose halves are swapped (one value under an XOR fold)
    a6 = v6('2001:db8:30::1')
    b6 = a6[8:] + a6[:8]
    sts = [ralue(q, 1, a6, 128, 1, erif=1), ralue(q, 1, b6, 128, 1, erif=1),
           rauht(q, 1, 1, a6, MAC_B), rauht(q, 1, 1, b6, MAC_C)]
    ha = hop(ip6_pkt(RMAC, MAC_A, v6('2001:db8:10::2'), a6))
    hb = hop(ip6_pkt(RMAC, MAC_A, v6('2001:db8:10::2'), b6))
    check(sts == [0] * 4 and (ha, hb) == (MAC_B, MAC_C),
          'route3: two /128 routes and neighbours whose halves are swapped '
          '(one value if the key is folded by XOR) are two entries, each '
          'routed to its own MAC (%s, %s, %s)' % (sts, ha, hb))

    # w: a RIF with neighbours
    sts = [ritr(q, 2, vid=30), rauht(q, 0, 2, (10, 30, 0, 5), MAC_C),
           ritr(q, 2, enable=0)]
    on = fget(ritr_query(q, 2), 0, 31, 1)
    sts += [rauht(q, 0, 2, (0, 0, 0, 0), bytes(6), op=4),
            ritr(q, 2, enable=0)]
    check(sts == [0, 0, 7, 0, 0] and on == 1,
          'route3: RITR delete of RIF 2 while a neighbour (RAUHT) uses it -> '
          'bad parameter, the RIF stays; after RAUHT DELETE_ALL accepted '
          '(%s)' % sts)

    # o: RITR op on a delete, multicast enables
    sts = [ritr(q, 3, vid=31), ritr(q, 3, enable=0, extra=[(0, 20, 2, 1)])]
    gone = fget(ritr_query(q, 3), 0, 31, 1)
    mc = [(0, 27, 1, 1), (0, 26, 1, 1), (4, 27, 1, 1), (4, 26, 1, 1)]
    sts += [ritr(q, 3, vid=31, extra=mc)]
    out = ritr_query(q, 3)
    back = [fget(out, o, sh, 1) for o, sh, _, _ in mc]
    sts += [ritr(q, 3, enable=0, extra=[(0, 20, 2, 2)]),
            ritr(q, 3, vid=31, extra=[(0, 20, 2, 1)]),
            ritr(q, 3, enable=0)]
    check(sts == [0, 0, 0, 7, 7, 0] and gone == 0 and back == [1] * 4,
          'route3: RITR enable 0 with op 1 (6.1\'s delete) deletes RIF 3; '
          'ipv4_mc, ipv6_mc, ipv4_mc_fe, ipv6_mc_fe accepted and read back '
          '(inert: no multicast routing); op 2, and op 1 with enable 1 -> '
          'bad parameter (%s, %s)' % (sts, back))

    # s: RAUHTD sessions; new entries active
    sts = [rauht(q, 0, 1, (192, 0, 2, 100 + i), MAC_C) for i in range(21)]
    v4 = sorted(x['address'] for x in qmp.cmd(
        'query-switchx2-routes', id='sw')['return']['neighbours']
        if ':' not in x['address'])
    got, n = rauhtd_all(q, 0, 2)
    again, n2 = rauhtd_all(q, 0, 2)
    check(sts == [0] * 21 and sorted(a for _, a in got) == v4 and
          len(got) == len(v4) and n == len(v4) // 8 + 1 and
          sorted(again) == sorted(got),
          'route3: RAUHTD DUMP (no clear) of %d IPv4 neighbours, 2 records '
          'a query: each entry once, the session ends with the short '
          'answer after %d queries; the next query starts a new session '
          '(%d entries, %d queries)' % (len(v4), len(v4) // 8 + 1, len(got),
                                        n))
    cleared, _ = rauhtd_all(q, 0, 2, op=1, active=1)
    left, _ = rauhtd_all(q, 0, 32, op=1, active=1)
    sts = [rauht(q, 0, 1, (192, 0, 2, 200), MAC_C)]
    new, _ = rauhtd_all(q, 0, 32, op=1, active=1)
    got6, n6 = rauhtd_all(q, 1, 1)
    check(len(cleared) == len(v4) and left == [] and
          new == [(1, '192.0.2.200')] and n6 == len(got6) + 1 and
          len(got6) == 3,
          'route3: RAUHTD DUMP_AND_CLEAR of the active ones clears them all '
          '(a new session: empty); a new neighbour is active ("set for new '
          'entries"); IPv6 one entry a record (%s, %s, %d)' %
          (left, new, len(got6)))

    # i: router alert
    ra4 = ip4_pkt(RMAC, MAC_A, (10, 0, 0, 2), (192, 0, 2, 2),
                  options=b'\x94\x04\x00\x00')
    res = []
    for action in (None, 1, 2, 3):
        if action is not None:
            hpkt_w(q, 0xD6, action)
        t = tried(0xD6)
        res.append((sorted(send(ra4)), tried(0xD6) - t))
    hpkt_w(q, 0xD7, 1)
    t = tried(0xD7)
    ra6 = send(ip6_pkt(RMAC, MAC_A, v6('2001:db8:10::2'), dst6,
                       hbh=b'\x05\x02\x00\x00\x01\x00'))
    res.append((sorted(ra6), tried(0xD7) - t))
    check(res == [([2], 0), ([], 1), ([2], 1), ([], 0), ([], 1)],
          'route3: router alert: an IPv4 packet with the option routes while '
          'ROUTER_ALERT_IPV4 0xD6 is at its default (forward); HPKT trap: '
          'to the CPU only; mirror: routed and to the CPU; discard: '
          'dropped; IPv6 hop-by-hop router alert trapped 0xD7 (%s)' % res)

    # n: the unicast loopback filter
    MAC_E = bytes.fromhex('02000000000e')
    sts = [sfd_write(q, 1, [(MAC_E, 10, 1, 0, 0)])[0],
           ralue(q, 0, (10, 0, 0, 0), 24, 1, erif=0),
           rauht(q, 0, 0, (10, 0, 0, 9), MAC_E)]
    back_out = ip4_pkt(RMAC, MAC_A, (10, 0, 0, 2), (10, 0, 0, 9))
    res = []

    def lb_try():
        t = tried(0x54)
        out = send(back_out)
        res.append((sorted(out), out.get(1, [b''])[0][:6] == MAC_E,
                    tried(0x54) - t))
    lb_try()
    sts += [ritr(q, 0, vid=10, extra=[(4, 24, 1, 1), (0x38, 24, 8, 9),
                                      (0x38, 0, 24, 0)])]
    lb = fget(ritr_query(q, 0), 4, 24, 1)
    lb_try()
    for action in (2, 1, 0):
        sts.append(hpkt_w(q, 0x54, action))
        lb_try()
    check(sts == [0] * 7 and lb == 1 and
          res == [([1], True, 0), ([1], True, 0), ([1], True, 1),
                  ([], False, 1), ([1], True, 0)],
          'route3: a packet routed back out of its ingress RIF 0: routed '
          'without lb_en; with RITR lb_en (read back) the filter raises '
          'LBERROR 0x54 by its HPKT action: default forward: routed; mirror: '
          'routed and to the CPU (Spectrum\'s MIRROR_TO_CPU, for ICMP '
          'redirects); trap: to the CPU only; forward: routed (%s, %s)' %
          (sts, res))
    q.quit()

    # f: IPv6 prefixes longer than 64 take two LPM entries
    q, socks = qtest_wired(props=',lpm-size=4')
    dev_setup(q, find_dev(q), BAR)
    sts = route_setup(q)
    sts += [lag_reg(q, 0x8010, 4, [(0, 24, 4, 1), (0, 0, 8, 2)]),
            ralst(q, 2, 128, {128: (64, NB)}),
            lag_reg(q, 0x8012, 4, [(0, 12, 4, 1), (0, 0, 8, 2)])]
    full = [ralue(q, 1, a6, 128, 1, erif=1),
            ralue(q, 1, v6('2001:db8:20::'), 64, 1, erif=1),
            ralue(q, 0, (203, 0, 113, 0), 24, 1, erif=1),
            ralue(q, 1, a6, 128, 1, erif=1, op=3),
            ralue(q, 1, v6('2001:db8:20::'), 64, 1, erif=1),
            ralue(q, 1, v6('2001:db8:21::'), 64, 1, erif=1),
            ralue(q, 0, (203, 0, 113, 0), 24, 1, erif=1)]
    check(sts == [0] * len(sts) and full == [0, 8, 8, 0, 0, 0, 8],
          'route3: lpm-size=4 with two IPv4 routes: an IPv6 /128 takes the '
          'last two entries (a /64 or a /24 more -> RESOURCE_NOT_AVAIL); '
          'without it two /64s fit, and then no /24 (%s)' % full)
    q.quit()


# Sub-port RIFs on LAGs: on LAGs SLDR created, which outlive them
def router_lag_main():
    q, _ = qtest_wired()
    dev_setup(q, find_dev(q), BAR)
    sts = learn_setup(q)

    def sldr(op, lag):
        return lag_reg(q, 0x2014, 0x0C, [(0, 29, 3, op), (0, 0, 10, lag)])
    sts += [exec_cmd(q, 0x100, opmod=1,
                     in_mbox=profile_mbox(1, 1, mask=0x306,
                                          swids=((0, 2), (1, 8)),
                                          extra=profile_lags))[0],
            rgcr(q, max_rifs=16), sldr(0, 5)]
    on_lag = [ritr(q, 0, vid=10, port=6, lag=1), ritr(q, 0, vid=10, port=5,
                                                       lag=1)]
    held = sldr(1, 5)
    gone = [ritr(q, 0, enable=0), sldr(1, 5)]
    check(sts == [0] * len(sts) and on_lag == [7, 0] and held == 7 and
          gone == [0, 0],
          'router_lag: a sub-port RIF on LAG 6 (not created) -> bad '
          'parameter, on LAG 5 (SLDR created) accepted; SLDR destroy of LAG '
          '5 while the RIF is on it -> bad parameter, once RITR deleted it '
          'accepted (%s, %s, %s, %s)' % (sts, on_lag, held, gone))
    q.quit()


# SX2_QTEST_ONLY=route3_main,span_main runs those parts alone
for part in (main, l2_main, query_main, learn_main, ppcnt_main, storm_main,
             lag_main, span_main, mc_main, router_main, router_lag_main,
             route_main, route3_main):
    only = os.environ.get('SX2_QTEST_ONLY')
    if not only or part.__name__ in only.split(','):
        part()
print('%d failure(s)' % FAIL)
sys.exit(1 if FAIL else 0)
