#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (c) 2026 The switchx2-emu authors
#
# Write a seed corpus for switchx2-fuzz: one small input per kind of
# operation, in the format qemu/fuzz/switchx2_fuzz.c documents, so that
# the fuzzer starts from traffic and register accesses that do something.
# Usage: switchx2_seeds.py OUTDIR
import hashlib
import os
import struct
import sys

SEP = b'SX2|'
CMD, REG, EMAD, TX, RX, DB, MMIO, DMA, CLOCK, SERVICE, RESET = range(11)
MAC_A = bytes.fromhex('02000000000a')
MAC_B = bytes.fromhex('02000000000b')
PAYLOAD = struct.pack('>H', 0x0800) + bytes(range(46))


def op(code, fields=(), payload=b''):
    """fields: (value, bytes) pairs, big-endian as the target reads them."""
    b = bytes([code])
    for v, n in fields:
        b += v.to_bytes(n, 'big')
    return b + payload


def cmd(opcode, opmod=0, in_mod=0, mbox=b'', evreq=False):
    # Selectors >= 0x100 are raw opcodes (the low 12 bits)
    return op(CMD, ((0x1000 | opcode, 2), (opmod | (0x10 if evreq else 0), 1),
                    (in_mod, 4)), mbox)


def reg(reg_id, payload, write=False, emad=False, string=False):
    method = (1 if write else 0) | (2 if string else 0)
    # Length 0 stands for 0x420 bytes, the largest register
    dwords = len(payload) // 4 if len(payload) <= 255 * 4 else 0
    return op(EMAD if emad else REG, ((reg_id, 2), (method, 1), (dwords, 1)),
              payload)


def fset(b, off, shift, bits, v):
    w = struct.unpack_from('>I', b, off)[0] & ~(((1 << bits) - 1) << shift)
    struct.pack_into('>I', b, off, w | ((v & ((1 << bits) - 1)) << shift))


def lp_payload(size, lp):
    p = bytearray(size)
    fset(p, 0, 16, 8, lp)
    return bytes(p)


def sfd_add(mac, fid, port):
    p = bytearray(0x410)
    fset(p, 4, 30, 2, 1)
    fset(p, 8, 0, 8, 1)
    p[0x12:0x18] = mac
    fset(p, 0x18, 0, 16, fid)
    fset(p, 0x1C, 0, 16, port)
    return bytes(p)


def smid(mid, ports, size=0x240):
    p = bytearray(size)
    fset(p, 0, 0, 16, mid)
    for lp in ports:
        p[0x20 + 31 - lp // 8] |= 1 << (lp % 8)
        p[0x220 + 31 - lp // 8] |= 1 << (lp % 8)
    return bytes(p)


def ppcnt_pl(lp, grp, clr=0, swid=0):
    p = bytearray(lp_payload(0x100, lp))
    fset(p, 0, 24, 8, swid)
    fset(p, 0, 0, 6, grp)
    fset(p, 4, 31, 1, clr)
    return bytes(p)


def qpcr(pid, cir, cbs, byts=0):
    p = bytearray(0x28)
    fset(p, 0, 14, 2, 2)
    fset(p, 0, 0, 14, pid)
    fset(p, 4, 14, 1, byts)
    fset(p, 4, 8, 2, 1)
    fset(p, 8, 24, 6, cbs)
    fset(p, 0xC, 0, 32, cir)
    fset(p, 0x18, 0, 4, 1)
    return bytes(p)


def htgt_policed(group, rdq, pid):
    p = bytearray(0x20)
    fset(p, 0, 0, 8, group)
    fset(p, 4, 15, 1, 1)
    fset(p, 4, 0, 8, pid)
    fset(p, 0x10, 0, 6, rdq)
    return bytes(p)


def sfn_query():
    p = bytearray(0x410)
    fset(p, 4, 0, 8, 64)
    return bytes(p)


def paos(lp, up):
    p = bytearray(lp_payload(0x10, lp))
    fset(p, 0, 8, 4, 1 if up else 2)
    fset(p, 4, 31, 1, 1)
    fset(p, 4, 0, 2, 1)
    return bytes(p)


def emad_frame(reg_id, payload, tid=0x55):
    """An EMAD query frame: Ethernet header, operation, register, end."""
    f = bytearray(bytes.fromhex('0102c9000001' '0002c9010203') +
                  struct.pack('>HBB', 0x8932, 0, 0) + bytes(16 + 4) +
                  payload + bytes(4))
    fset(f, 16, 27, 5, 1)
    fset(f, 16, 16, 11, 4)
    fset(f, 20, 16, 16, reg_id)
    fset(f, 20, 8, 7, 1)
    fset(f, 20, 0, 8, 1)
    struct.pack_into('>Q', f, 24, tid)
    fset(f, 32, 27, 5, 3)
    fset(f, 32, 16, 11, len(payload) // 4 + 1)
    fset(f, 36 + len(payload), 16, 11, 1)
    return bytes(f)


RMAC = bytes.fromhex('02000000000f')


def router_setup():
    """RGCR, a VLAN RIF on VID 1, the router MAC in FID 1, a default route
    through it to neighbour 10.0.0.9 (MAC_B, on port 2)."""
    rgcr = bytearray(0x28)
    fset(rgcr, 0, 30, 2, 3)
    fset(rgcr, 0x10, 0, 16, 16)
    ritr = bytearray(0x40)
    fset(ritr, 0, 28, 4, 0xB)
    fset(ritr, 8, 0, 12, 1)
    ritr[0x12:0x18] = RMAC
    fset(ritr, 0x34, 0, 16, 1500)
    sfd = bytearray(sfd_add(RMAC, 1, 0))
    fset(sfd, 0x1C, 28, 4, 3)
    ralue = bytearray(0x38)
    fset(ralue, 0x1C, 30, 2, 2)
    fset(ralue, 0x1C, 0, 2, 1)
    rauht = bytearray(0x74)
    rauht[0x1C:0x20] = bytes([10, 0, 0, 9])
    rauht[0x6E:0x74] = MAC_B
    return [reg(0x8001, bytes(rgcr), write=True),
            reg(0x8002, bytes(ritr), write=True, emad=True),
            reg(0x200A, bytes(sfd), write=True),
            reg(0x200A, sfd_add(MAC_B, 1, 2), write=True),
            reg(0x8013, bytes(ralue), write=True),
            reg(0x8014, bytes(rauht), write=True, emad=True)]


def raleu_pl():
    """RALEU: virtual router 0's IPv4 routes via adjacency 0 (one) move
    to adjacencies 4..5"""
    p = bytearray(0x28)
    fset(p, 0x14, 0, 13, 1)
    fset(p, 0x20, 0, 24, 4)
    fset(p, 0x24, 0, 13, 2)
    return bytes(p)


def rauhtd_pl(num_rec):
    p = bytearray(0x420)
    fset(p, 4, 0, 8, num_rec)
    return bytes(p)


def ipv4(dmac, dip, ttl=64):
    ip = bytearray(struct.pack('>BBHHHBBH4s4s', 0x45, 0, 46, 0, 0, ttl, 17,
                               0, bytes([10, 0, 1, 2]), bytes(dip)))
    s = sum(struct.unpack('>10H', ip))
    s = (s & 0xFFFF) + (s >> 16)
    struct.pack_into('>H', ip, 10, ~((s & 0xFFFF) + (s >> 16)) & 0xFFFF)
    return dmac + MAC_A + b'\x08\x00' + bytes(ip) + bytes(26)


def rx(port, frame):
    return op(RX, ((port, 1),), frame)


def tx(sdq, port, frame, flags=0):
    return op(TX, ((sdq, 1), (port, 2), (flags, 1)), frame)


BCAST_A = b'\xff' * 6 + MAC_A + PAYLOAD
UCAST_B_TO_A = MAC_A + MAC_B + PAYLOAD
TAGGED = b'\xff' * 6 + MAC_A + b'\x81\x00\x00\x01' + PAYLOAD
STP = bytes.fromhex('0180c2000000') + MAC_A + b'\x00\x26' + bytes(46)
LLDP = bytes.fromhex('0180c200000e') + MAC_A + b'\x88\xcc' + bytes(46)

wild_wqe = bytearray(32)
fset(wild_wqe, 0, 31, 1, 1)
fset(wild_wqe, 0, 23, 4, 0xA)
struct.pack_into('>H', wild_wqe, 2, 0x3FFF)
struct.pack_into('>Q', wild_wqe, 8, 0xFFFFFFFFF000)

SEEDS = {
    'emad-spad': [reg(0x2002, bytes(16), emad=True)],
    'emad-string-tlv': [reg(0x900F, bytes(0x14), emad=True, string=True)],
    'reg-sfd-add-dump': [reg(0x200A, sfd_add(MAC_A, 1, 1), write=True),
                         reg(0x200A, bytes(0x410), emad=True)],
    'rx-learn-forward': [rx(0, BCAST_A), rx(1, UCAST_B_TO_A),
                         reg(0x200B, sfn_query())],
    'rx-tagged-traps': [rx(2, TAGGED), rx(0, STP), rx(3, LLDP)],
    'tx-control-data': [tx(1, 2, BCAST_A), tx(1, 3, UCAST_B_TO_A, flags=2)],
    'tx-emad-on-sdq1': [tx(1, 0, emad_frame(0x2002, bytes(16)), flags=1)],
    'clock-ageing': [rx(0, BCAST_A), op(CLOCK, ((3, 1), (20, 2))),
                     reg(0x200B, sfn_query(), emad=True)],
    'reset-mrsr': [op(RESET, ((0, 1),)), reg(0x2002, bytes(16), emad=True)],
    'reset-device': [op(RESET, ((2, 1),)), rx(0, BCAST_A)],
    'cmd-queues': [cmd(0x003), cmd(0x018, in_mod=5), cmd(0x202, 1, 3),
                   cmd(0x01E, 0, 1), tx(1, 2, BCAST_A),
                   cmd(0x004, evreq=True), op(SERVICE)],
    'sw-reset': [op(MMIO, ((0xF0010, 4), (1, 4), (0, 1))),
                 op(MMIO, ((0xA1844, 4), (0, 4), (1, 1))), cmd(0x004)],
    'db-mmio': [op(DB, ((0x400 + 4 * 5, 2), (7, 4))),
                op(MMIO, ((0xA1844, 4), (0, 4), (1, 1))),
                op(MMIO, ((0x71018, 4), (0x800004, 4), (0, 1)))],
    'dma-wild-wqe': [op(DMA, ((3, 1), (0x8000, 4)), bytes(wild_wqe)),
                     op(DB, ((4, 2), (1, 4))), op(SERVICE)],
    'paos-cycle': [reg(0x5006, paos(1, False), write=True, emad=True),
                   reg(0x5006, paos(1, True), write=True, emad=True),
                   rx(0, BCAST_A)],
    'ppcnt': [rx(0, BCAST_A), reg(0x5008, lp_payload(0x100, 1), emad=True)],
    'ppcnt-clear': [rx(0, BCAST_A),
                    reg(0x5008, ppcnt_pl(1, 0, clr=1), emad=True),
                    reg(0x5008, ppcnt_pl(255, 63, clr=1, swid=255),
                        write=True),
                    reg(0x5008, ppcnt_pl(1, 2), emad=True)],
    # A policer on the RX trap group, then a flood that reaches the CPU
    'policer': [reg(0x4004, qpcr(1, 2, 4), write=True),
                reg(0x7002, htgt_policed(1, 0x14, 1), write=True),
                rx(0, BCAST_A), rx(1, BCAST_A), rx(2, BCAST_A),
                op(CLOCK, ((2, 1), (600, 2))), rx(3, BCAST_A),
                reg(0x4004, qpcr(1, 0, 0), emad=True)],
    # The router: a routed packet, a TTL-1 one, and the query of a route
    'router': router_setup() + [rx(0, ipv4(RMAC, (10, 0, 0, 9))),
                                rx(0, ipv4(RMAC, (10, 0, 0, 9), ttl=1)),
                                reg(0x8013, bytes(0x38), emad=True)],
    # RALEU, and a RAUHTD dump of the IPv4 neighbours (2 records a query)
    'router-tables': router_setup() + [
        reg(0x8015, raleu_pl(), write=True),
        reg(0x8018, rauhtd_pl(2), emad=True),
        reg(0x8018, rauhtd_pl(2), emad=True)],
    'smid': [reg(0x2007, smid(0xD000, [0], 0x420), write=True),
             reg(0x2007, smid(3, [1, 2]), write=True, emad=True),
             reg(0x2007, smid(0xD000, []), emad=True)],
}


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: switchx2_seeds.py OUTDIR')
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, ops in SEEDS.items():
        data = SEP.join(ops)
        path = os.path.join(sys.argv[1], 'seed-%s-%s' % (
            name, hashlib.sha1(data).hexdigest()[:8]))
        with open(path, 'wb') as f:
            f.write(data)
    print('switchx2 seeds: %d inputs in %s' % (len(SEEDS), sys.argv[1]))


if __name__ == '__main__':
    main()
