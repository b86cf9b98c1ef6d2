#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cost-summary.py CURVE_DIR [THINK_US,...] - what the attribute costs and buys.

The short table of README.md ("What it costs"), from a think-time curve
of scripts/bench/think-curve.sh on the deterministic platform (CURVE_DIR:
curve.tsv, bench/ with cells.json, run.txt): per think time (default 0,
1, 4 and 16 ms) and governor, the completions that woke their CPU from
the deep state per I/O (off / auto / C6 disabled), p99 latency with auto
over off, and the modeled power of scripts/report/energy-model.py (a model,
labelled as such). Prints Markdown on stdout; exit status 1 when a think
time or a column is missing, 2 on usage errors. scripts/report/figures.py calls
it; it writes nothing.
"""
import csv
import importlib.util
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def energy_model():
    spec = importlib.util.spec_from_file_location(
        "energy_model", os.path.join(os.path.dirname(os.path.abspath(__file__)), "energy-model.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def think_label(us):
    return "0" if us == 0 else ("%g ms" % (us / 1000) if us >= 1000 else "%d us" % us)


def run_key(path, key):
    with open(path) as f:
        for line in f:
            if line.startswith(key + "="):
                return line.rstrip("\n").split("=", 1)[1]
    return None


def main():
    args = sys.argv[1:]
    if len(args) not in (1, 2):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    d = args[0]
    thinks = [int(t) for t in (args[1] if len(args) == 2 else "0,1000,4000,16000").split(",")]
    with open(os.path.join(d, "curve.tsv")) as f:
        curve = {(int(r["think_us"]), r["governor"]): r for r in csv.DictReader(f, delimiter="\t")}
    em = energy_model()
    res = em.compute(os.path.join(d, "bench"), os.path.join(TOP, "data/energy-model/params.tsv"))
    if res is None:
        print("cost-summary: no modeled cell in %s/bench" % d, file=sys.stderr)
        return 1
    power = {(g, w): cfgs for g, w, cfgs in res[2]}
    govs = sorted({g for _, g in curve}, key=lambda g: (g != "menu", g))

    out = ["| think time between reads | governor | completions that woke a CPU from C6, per I/O: off / auto / C6 disabled | p99 latency, auto / off | modeled power (W): off / auto / C6 disabled |",
           "|---|---|---:|---:|---:|"]
    for t in thinks:
        for g in govs:
            r = curve.get((t, g))
            cfgs = power.get((g, "qd1-t%dus" % t))
            if r is None or cfgs is None or any(c not in cfgs for c in ("off", "auto", "c6off")):
                print("cost-summary: no think time %d us for %s in %s" % (t, g, d), file=sys.stderr)
                return 1
            wakes = " / ".join("%.3f" % float(r["wake_" + c]) for c in ("off", "auto", "c6off"))
            watts = " / ".join("%.1f" % cfgs[c]["total_w"] for c in ("off", "auto", "c6off"))
            out.append("| %s | %s | %s | %.2f | %s |" % (
                think_label(t), g, wakes, float(r["p99_auto_off"]), watts))
    print("\n".join(out))
    print()
    print("Platform: %s; %s, %s." % (
        run_key(os.path.join(d, "run.txt"), "platform"),
        run_key(os.path.join(d, "run.txt"), "kernel"),
        run_key(os.path.join(d, "run.txt"), "date")))
    print("Power is modeled (`scripts/report/energy-model.py`: per-state core and package "
          "power of published Zen 2 measurements, %.1f W for the package whenever "
          "not every CPU is in C6), never measured." % res[0]["pkg_w"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
