#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Relay QMP commands from the guest to the QEMU it runs in.

Guest tests sometimes need the host's view or hand: query the emulated
ASIC, inject a fault into it, unplug it. The guest writes one QMP command
per line (JSON) to a serial port whose other end is HOSTCTL; this agent
sends it to QEMU's QMP socket and writes the reply (the "return" or
"error" object, as one line of JSON) back. Asynchronous QMP events are
skipped.

Usage: host-agent.py QMP-SOCKET HOSTCTL-SOCKET LOG
"""
import json
import socket
import sys
import time


def connect(path, timeout=30.0):
    """Connect to a UNIX socket QEMU creates, waiting for it to appear."""
    deadline = time.monotonic() + timeout
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


class Qmp:
    def __init__(self, path):
        self.sock = connect(path)
        self.rfile = self.sock.makefile('r', encoding='utf-8')
        self.read_reply()                       # the greeting
        self.command({'execute': 'qmp_capabilities'})

    def read_reply(self):
        while True:
            line = self.rfile.readline()
            if not line:
                raise EOFError('QMP socket closed')
            msg = json.loads(line)
            if 'event' not in msg:
                return msg

    def command(self, cmd):
        self.sock.sendall((json.dumps(cmd) + '\n').encode())
        return self.read_reply()


def main():
    qmp_path, ctl_path, log_path = sys.argv[1:4]
    with open(log_path, 'a', buffering=1) as log:
        qmp = Qmp(qmp_path)
        ctl = connect(ctl_path)
        ctl_in = ctl.makefile('r', encoding='utf-8', errors='replace')
        log.write('host-agent: ready\n')
        for line in ctl_in:
            line = line.strip()
            if not line.startswith('{'):
                continue                        # serial noise
            try:
                reply = qmp.command(json.loads(line))
            except json.JSONDecodeError as e:
                reply = {'error': {'class': 'AgentError',
                                   'desc': 'bad JSON from guest: %s' % e}}
            except EOFError:
                break
            log.write('guest: %s\nqemu:  %s\n' % (line, json.dumps(reply)))
            ctl.sendall((json.dumps(reply) + '\n').encode())


if __name__ == '__main__':
    try:
        main()
    except (EOFError, ConnectionError, OSError) as e:
        # QEMU went away: the run is over.
        sys.stderr.write('host-agent: %s\n' % e)
