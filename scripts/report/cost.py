# SPDX-License-Identifier: GPL-2.0
"""report.py cost CURVE_DIR [THINK_US,...] - what the attribute costs and buys.

The short table of README.md ("What it costs"), from a think-time curve
of scripts/bench/think-curve.sh on the deterministic platform (CURVE_DIR:
curve.tsv, bench/ with cells.json, run.txt): per think time (default 0,
1, 4 and 16 ms) and governor, the completions that woke their CPU from
the deep state per I/O (off / auto / C6 disabled), p99 latency with auto
over off, and the modeled power of report.py energy (a model, labelled
as such). Prints Markdown on stdout; exit status 1 when a think time or
a column is missing, 2 on usage errors. report.py figures runs it; it
writes nothing.
"""
import csv
import os
import sys

import energy
from common import TOP, die, key_values, md_row, not_a_program, read_lines, think_label, usage


def run_key(path, key):
    """The first value of KEY in the run.txt PATH, or None."""
    return (key_values(read_lines(path), key) or [None])[0]


def main(args):
    if len(args) not in (1, 2):
        return usage(__doc__)
    d = args[0]
    thinks = [int(t) for t in (args[1] if len(args) == 2 else "0,1000,4000,16000").split(",")]
    with open(os.path.join(d, "curve.tsv")) as f:
        curve = {(int(r["think_us"]), r["governor"]): r for r in csv.DictReader(f, delimiter="\t")}
    res = energy.compute(os.path.join(d, "bench"), os.path.join(TOP, "data/energy-model/params.tsv"))
    if res is None:
        die("no modeled cell in %s/bench" % d, prog="report.py cost")
    power = {(g, w): cfgs for g, w, cfgs in res[2]}
    govs = sorted({g for _, g in curve}, key=lambda g: (g != "menu", g))

    out = ["| think time between reads | governor | completions that woke a CPU from C6, per I/O: off / auto / C6 disabled | p99 latency, auto / off | modeled power (W): off / auto / C6 disabled |",
           "|---|---|---:|---:|---:|"]
    for t in thinks:
        for g in govs:
            r = curve.get((t, g))
            cfgs = power.get((g, "qd1-t%dus" % t))
            if r is None or cfgs is None or any(c not in cfgs for c in ("off", "auto", "c6off")):
                die("no think time %d us for %s in %s" % (t, g, d), prog="report.py cost")
            wakes = " / ".join("%.3f" % float(r["wake_" + c]) for c in ("off", "auto", "c6off"))
            watts = " / ".join("%.1f" % cfgs[c]["total_w"] for c in ("off", "auto", "c6off"))
            out.append(md_row([think_label(t), g, wakes, "%.2f" % float(r["p99_auto_off"]), watts]))
    print("\n".join(out))
    print()
    run_txt = os.path.join(d, "run.txt")
    print("Platform: %s; %s, %s." % (run_key(run_txt, "platform"), run_key(run_txt, "kernel"), run_key(run_txt, "date")))
    print("Power is modeled (`scripts/report/report.py energy`: per-state core and package "
          "power of published Zen 2 measurements, %.1f W for the package whenever "
          "not every CPU is in C6), never measured." % res[0]["pkg_w"])
    return 0


if __name__ == "__main__":
    sys.exit(not_a_program("cost"))
