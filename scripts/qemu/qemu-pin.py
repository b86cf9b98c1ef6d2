#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qemu-pin.py SOCKET REPORT - isolate a QEMU guest's threads on the host.

Used by scripts/qemu/guest.sh --isolate. Connects to QEMU's QMP socket (retrying
while QEMU starts), reads the thread ids of the vCPUs (query-cpus-fast) and
of the I/O threads (query-iothreads), and places them so that a vCPU that
busy-waits an emulated C-state exit delays neither the busy vCPU nor the
I/O thread:

  - vCPU i runs only on host CPU i (modulo the host's CPU count);
  - every I/O thread and QEMU's main loop run on the host CPU of the last
    vCPU (the benchmark's busy vCPU is vCPU 0), the I/O threads at
    SCHED_FIFO priority 1, so they preempt that vCPU whenever they have
    work.

Writes what it did to REPORT (one "name tid cpus policy" line per thread)
and exits 0, or 1 with the reason on stderr.
"""

import json
import os
import socket
import struct
import sys
import time


def qmp(sock_path, timeout=60):
    """Connect to the QMP socket; return a function that runs a command,
    and QEMU's pid (the socket's peer)."""
    end = time.monotonic() + timeout
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sock_path)
            break
        except OSError:
            s.close()
            if time.monotonic() > end:
                raise SystemExit(f"qemu-pin: no QMP socket at {sock_path} after {timeout} s")
            time.sleep(0.2)
    pid = struct.unpack("3i", s.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                           struct.calcsize("3i")))[0]
    f = s.makefile("rw")

    def read_reply():
        while True:
            msg = json.loads(f.readline())
            if "return" in msg or "error" in msg:
                return msg
            # greeting and events

    def run(cmd):
        f.write(json.dumps({"execute": cmd}) + "\n")
        f.flush()
        msg = read_reply()
        if "error" in msg:
            raise SystemExit(f"qemu-pin: {cmd}: {msg['error']}")
        return msg["return"]

    greeting = json.loads(f.readline())
    if "QMP" not in greeting:
        raise SystemExit(f"qemu-pin: not a QMP greeting: {greeting}")
    run("qmp_capabilities")
    return run, pid


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: qemu-pin.py SOCKET REPORT")
    run, pid = qmp(sys.argv[1])
    ncpu = os.cpu_count()
    vcpus = sorted(run("query-cpus-fast"), key=lambda c: c["cpu-index"])
    iothreads = run("query-iothreads")
    if not vcpus:
        raise SystemExit("qemu-pin: QEMU reports no vCPU")
    if not iothreads:
        raise SystemExit("qemu-pin: QEMU reports no I/O thread (-object iothread)")
    io_cpu = vcpus[-1]["cpu-index"] % ncpu
    lines = []
    for c in vcpus:
        cpu = c["cpu-index"] % ncpu
        os.sched_setaffinity(c["thread-id"], {cpu})
        lines.append(f"vcpu{c['cpu-index']} {c['thread-id']} {cpu} other")
    for t in iothreads:
        os.sched_setaffinity(t["thread-id"], {io_cpu})
        os.sched_setscheduler(t["thread-id"], os.SCHED_FIFO, os.sched_param(1))
        lines.append(f"iothread-{t['id']} {t['thread-id']} {io_cpu} fifo:1")
    # The main loop: the thread whose id is QEMU's pid.
    os.sched_setaffinity(pid, {io_cpu})
    lines.append(f"main {pid} {io_cpu} other")
    with open(sys.argv[2], "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
