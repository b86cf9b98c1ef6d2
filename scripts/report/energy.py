# SPDX-License-Identifier: GPL-2.0
"""report.py energy [--no-write] BENCH_DIR [PARAMS] - modeled energy of a run.

A MODEL, never a measurement: no platform of this project measures watts.
Reads BENCH_DIR/cells.json and the run's info.json files (scripts/bench/bench.sh)
and the parameters (default data/energy-model/params.tsv: per-state core
power above the deep state, package power, energy of a deep exit, each
with its source). Per cell, over the fio run, for the CPUs with emulated
idle states (the emulated device's controller CPU is left out):

  core     busy time x core_busy_w + time in each idle state x core_<S>_w
  package  the time in which not every CPU was in the deep state at once
           (emu_cstates' package count) x pkg_w
  exits    deep-state entries x deep_exit_uj

printed as modeled watts (above every core and the package in the deep
state) and microjoules per I/O, the median over repetitions, with the
targets of the benchmark issue beside them: auto at most C6 disabled and at
most /dev/cpu_dma_latency, in power and in energy per I/O (at QD1 the
package is awake for the whole run in every configuration, so energy per
I/O follows IOPS), and its cost over off. Prints the tables as Markdown and, unless
--no-write (report.py figures), writes them to BENCH_DIR/energy.md and
BENCH_DIR/energy.json. Exit status 0, 1 when BENCH_DIR has no usable
cell, 2 on usage errors.
"""
import json
import os
import sys

from common import CONFIG_NAMES, TOP, die, md_row, median, not_a_program, read_json, usage, write_atomic


def load_params(path):
    params, kinds = {}, {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("param\t") or not line.strip():
                continue
            name, value, _unit, kind, _src = line.rstrip("\n").split("\t", 4)
            params[name] = float(value)
            kinds[name] = kind
    return params, kinds


def infos_of(bench_dir):
    infos = []
    for root, _dirs, files in os.walk(bench_dir):
        if "info.json" in files and os.path.basename(root).startswith("guest-"):
            infos.append((os.path.basename(root), read_json(os.path.join(root, "info.json"))))
    return infos


def cell_model(c, info, p):
    """Modeled joules of one cell's run window, or None."""
    t = c.get("run_s")
    ios = c.get("ios")
    if not c.get("ok") or not t or not ios:
        return None
    cpus = info.get("cpus", 0)
    n = cpus - (1 if info.get("controller_cpu") is not None else 0)
    idle_us = c.get("idle_us") or {}
    if idle_us:
        idle_s = sum(idle_us.values()) / 1e6
        core = max(n * t - idle_s, 0.0) * p["core_busy_w"]
        for state, us in idle_us.items():
            core += us / 1e6 * p.get("core_%s_w" % state, p["core_busy_w"])
        pkg_share = c.get("pkg_deep_share") or 0.0
    else:
        # idle=poll: no idle states; every idle moment polls.
        busy = c.get("busy_share") or 0.0
        core = n * t * (busy * p["core_busy_w"] + (1 - busy) * p["core_POLL_w"])
        pkg_share = 0.0
    pkg = (1 - pkg_share) * t * p["pkg_w"]
    exits = (c.get("deep_entries") or 0) * p["deep_exit_uj"] / 1e6
    return {"core_w": core / t, "pkg_w": pkg / t, "exit_w": exits / t,
            "total_w": (core + pkg + exits) / t,
            "uj_per_io": (core + pkg + exits) / ios * 1e6,
            "has_exits": c.get("deep_entries") is not None}


def compute(bench_dir, params_path):
    """The model of every cell of BENCH_DIR: (params, kinds, rows, targets,
    present), rows as (governor, workload, {config: model}), or None when
    BENCH_DIR has no usable cell."""
    p, kinds = load_params(params_path)
    cells = read_json(os.path.join(bench_dir, "cells.json"))
    infos = dict(infos_of(bench_dir))
    info_c = infos.get("guest-cstates") or next(iter(infos.values()), {})
    info_p = infos.get("guest-poll", info_c)

    groups = {}
    for c in cells:
        if c.get("workload") == "null-qd32":
            continue
        m = cell_model(c, info_p if c.get("config") == "poll" else info_c, p)
        if m:
            groups.setdefault((c["governor"], c["workload"], c["config"]), []).append(m)
    if not groups:
        return None
    med = {k: {f: median(sorted(m[f] for m in v)) for f in v[0] if f != "has_exits"}
           for k, v in groups.items()}

    order = ["off", "auto", "c6off", "dmalat", "poll"]
    wl_order = info_c.get("workloads") or sorted({k[1] for k in med})
    gov_order = [g for g in info_c.get("governors", []) if g != "-"] or sorted({k[0] for k in med})
    rows, targets = [], []
    for w in wl_order:
        for g in gov_order:
            cfgs = {}
            for cfg in order:
                m = med.get((g, w, cfg)) or (med.get(("-", w, cfg)) if cfg == "poll" else None)
                if m:
                    cfgs[cfg] = m
            if not cfgs:
                continue
            rows.append((g, w, cfgs))
            auto = cfgs.get("auto")
            for other in ("c6off", "dmalat"):
                o = cfgs.get(other)
                if auto and o:
                    targets.append((g, w, "power auto/%s" % other,
                                    auto["total_w"] / o["total_w"], auto["total_w"] <= o["total_w"]))
                    targets.append((g, w, "energy per I/O auto/%s" % other,
                                    auto["uj_per_io"] / o["uj_per_io"], auto["uj_per_io"] <= o["uj_per_io"]))

    present = [c for c in order if any(c in r[2] for r in rows)]
    return p, kinds, rows, targets, present


def main(args):
    write = True
    if args and args[0] == "--no-write":
        write = False
        args = args[1:]
    if len(args) not in (1, 2):
        return usage(__doc__)
    bench_dir = args[0]
    params_path = args[1] if len(args) == 2 else os.path.join(TOP, "data/energy-model/params.tsv")
    res = compute(bench_dir, params_path)
    if res is None:
        die("no usable cell in %s" % bench_dir, prog="report.py energy")
    p, kinds, rows, targets, present = res
    assumed = sorted(k for k, v in kinds.items() if v == "assumption")

    def col(cfgs, key, fmt):
        return " / ".join(fmt % cfgs[c][key] if c in cfgs else "-" for c in present)

    out = []
    out.append("## Modeled energy (a model, not a measurement)")
    out.append("")
    out.append("Power above every core and the package in the deep state, over the fio run, "
               "for the CPUs with emulated idle states, from `data/energy-model/params.tsv` "
               "(per-state core power and package power from the Zen 2 node measurements of "
               "Schoene et al. 2021; assumptions: %s). Nothing here was measured in watts. "
               "The package term (%.1f W whenever not every CPU is in the deep state) dominates: "
               "while I/O streams the package is awake in every configuration." %
               (", ".join(assumed), p["pkg_w"]))
    out.append("")
    names = " / ".join(present)
    out.append("| workload | governor | W %s | core W %s | auto - off W | uJ per I/O %s |" % (names, names, names))
    out.append("|---|---|---:|---:|---:|---:|")
    for g, w, cfgs in rows:
        d = "-"
        if "auto" in cfgs and "off" in cfgs:
            d = "%+.3f" % (cfgs["auto"]["total_w"] - cfgs["off"]["total_w"])
        out.append(md_row([w, g, col(cfgs, "total_w", "%.2f"), col(cfgs, "core_w", "%.3f"), d,
                           col(cfgs, "uj_per_io", "%.0f")]))
    out.append("")
    met = sum(1 for t in targets if t[4])
    against = " and at most ".join(CONFIG_NAMES[c] for c in ("c6off", "dmalat") if c in present)
    out.append("Targets (printed, not asserted): %s, in modeled power and in modeled energy "
               "per I/O: %d of %d met%s." % ("auto at most " + against if against else
                                             "none (no C6-disabled or /dev/cpu_dma_latency cell)",
                                             met, len(targets), "" if met == len(targets) else
                                             "; missed: " + ", ".join("%s %s %s %.3f" % (w, g, n, r)
                                                                      for g, w, n, r, ok in targets if not ok)))
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if not write:
        return 0
    write_atomic(os.path.join(bench_dir, "energy.md"), text.encode())
    write_atomic(os.path.join(bench_dir, "energy.json"), json.dumps(
        {"params": params_path, "model": True,
         "cells": [{"governor": g, "workload": w, "config": cfg, **m}
                   for g, w, cfgs in rows for cfg, m in cfgs.items()],
         "targets": [{"target": n, "governor": g, "workload": w, "ratio": r, "met": met}
                     for g, w, n, r, met in targets]}, indent=1).encode())
    return 0


if __name__ == "__main__":
    sys.exit(not_a_program("energy"))
