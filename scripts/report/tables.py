# SPDX-License-Identifier: GPL-2.0
"""report.py tables COMMAND DIR [NAME...] - the TSV tables of five benchmark
scripts, from the results they leave in DIR.

  hold-sweep DIR HOLD...     (scripts/bench/hold-sweep.sh) reads
        DIR/hold-HOLD/summary.json per HOLD; writes DIR/sweep.tsv: per hold,
        think time and configuration of governor menu, the medians of PM QoS
        updates and misses per I/O, deep share, p50, p99 and local timer
        interrupts per CPU and second; sorted by configuration (reversed),
        hold and think time, numerically.
  icount-repro DIR RUN...    (scripts/bench/icount-repro.sh) reads
        DIR/run-RUN/cells.json per RUN; writes DIR/repro.tsv: per run and
        configuration of menu, the cell's I/Os, p50, p99, p99.9, IOPS,
        deep wakes and controller ns per I/O.
  isolation DIR PLATFORM...  (scripts/bench/isolation.sh) reads
        DIR/PLATFORM/summary.json per PLATFORM; writes DIR/isolation.tsv: per
        platform, workload and configuration of menu, the medians of p50,
        p99 and p99.9.
  hook-cost DIR              (scripts/bench/hook-cost.sh) reads
        DIR/hookcost.tsv (a header line, then layout, case, rep, raises,
        misses per fio run) and DIR/fio-LAYOUT-CASE-REP.json; writes
        DIR/runs.tsv (per run: reads, fio's mean read latency as
        instructions per read), DIR/cells.tsv (per layout and case, sorted:
        runs, median, min, max, the sums of raises, misses and reads) and
        DIR/summary.tsv (a header line, then the cells with the median's
        difference from the "off" case of the same I/O pattern, in
        instructions and percent).
  raise-cost DIR             (scripts/bench/raise-cost.sh) reads
        DIR/raisecost.tsv (a header line, then CPUs, kind, duration in us
        per work run); writes DIR/summary.tsv: per CPU count and kind, n,
        median, min and max (a header line, none when there is no run).

The tables are those of the jq and awk that the scripts ran before,
byte for byte on every committed record (input that no run writes, such
as nan, hex numbers or multi-line values, may print otherwise): numbers
as jq prints them (jq.py), null as "-", medians the
middle value or the mean of the two middle ones. Every file is written to
a temporary file and renamed into place. Exit
status 0, 1 on errors (a missing or unreadable input, a value the jq
would have failed on), 2 on usage errors.
"""
import os
import re
import sys

import jq
from common import awk_num, die, lines_of, not_a_program, spread, usage, write_atomic


# ---- files ----------------------------------------------------------------------

def read_text(p):
    try:
        with open(p, encoding="utf-8", errors="surrogateescape") as fh:
            return fh.read()
    except OSError as e:
        die("cannot read %s: %s" % (p, e.strerror))


def write_lines(p, lines):
    write_atomic(p, "".join(s + "\n" for s in lines).encode("utf-8", "surrogateescape"))


def rows_of(p, n):
    """The rows of the TSV file P after its header line, N fields each
    ("" for those a row lacks)."""
    return [(line.split("\t") + [""] * n)[:n] for line in lines_of(read_text(p))[1:]]


def num(s):
    """The number in the text S, 0 when it is none."""
    try:
        return float(s)
    except ValueError:
        return 0.0


def stats(fmt, xs):
    """"median<TAB>min<TAB>max" of the numbers XS, each printed with FMT."""
    return "\t".join(spread(xs, fmt))


# ---- jq over summary.json and cells.json ----------------------------------------------

def tsv_cell(v):
    """map(if . == null then "-" else tostring end) | @tsv, per value."""
    s = "-" if v is None else jq.tostr(v)
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n")


def menu_rows(p, cells, label, getters):
    """jq -r --arg x LABEL 'CELLS | select(.governor == "menu") | [$x, GETTERS...]
    | map(...) | @tsv' P, as lines."""
    out = []
    try:
        for v in jq.read_stream(p):
            for c in cells(v):
                if jq.jq_eq(jq.get(c, "governor"), "menu"):
                    out.append("\t".join(tsv_cell(x) for x in [label] + [g(c) for g in getters]))
    except (OSError, ValueError, jq.JqError) as e:
        die("%s: %s" % (p, e))
    return out


def summary_cells(v):
    return jq.each(jq.get(v, "cells"))


def key(k):
    return lambda c: jq.get(c, k)


def median(k):
    return lambda c: jq.path(c, k, "median")


def think_ms(c):
    """The think time of the workload: qd1 is 0, qd1-thinkNms N."""
    w = jq.get(c, "workload")
    if jq.jq_eq(w, "qd1"):
        return "0"
    if not isinstance(w, str):
        raise jq.JqError("%s cannot be matched, as it is not a string" % jq.jq_dump(w))
    return re.sub("ms$", "", re.sub("qd1-think", "", w, count=1), count=1)


def hold_sweep(d, holds):
    rows = []
    for h in holds:
        rows += menu_rows(os.path.join(d, "hold-%s" % h, "summary.json"), summary_cells, h,
                          [think_ms, key("config"), key("n")] + [median(k) for k in (
                              "qos_per_io", "misses_per_io", "deep_share", "p50_us", "p99_us",
                              "timer_irq_per_cpu_s")])
    # By configuration (reversed), then hold and think time, numerically.
    split = [r.split("\t") for r in rows]
    split.sort(key=lambda f: (num(f[0]), num(f[1]), f))
    split.sort(key=lambda f: f[2], reverse=True)
    rows = ["\t".join(f) for f in split]
    write_lines(os.path.join(d, "sweep.tsv"), [
        "hold_ms\tthink_ms\tconfig\tn\tqos_per_io\tmisses_per_io\tdeep_share\tp50_us\tp99_us\ttimer_per_cpu_s"] + rows)


def icount_repro(d, runs):
    rows = ["run\tconfig\tios\tp50_us\tp99_us\tp999_us\tiops\tdeep_wakes_per_io\tctl_ns_per_io"]
    for r in runs:
        rows += menu_rows(os.path.join(d, "run-%s" % r, "cells.json"), jq.each, r, [key(k) for k in (
            "config", "ios", "p50_us", "p99_us", "p999_us", "iops", "deep_wake_per_io", "ctl_ns_per_io")])
    write_lines(os.path.join(d, "repro.tsv"), rows)


def isolation(d, platforms):
    rows = ["platform\tworkload\tconfig\tn\tp50_us\tp99_us\tp999_us"]
    for p in platforms:
        rows += menu_rows(os.path.join(d, p, "summary.json"), summary_cells, p,
                          [key("workload"), key("config"), key("n")] +
                          [median(k) for k in ("p50_us", "p99_us", "p999_us")])
    write_lines(os.path.join(d, "isolation.tsv"), rows)


# ---- hook-cost ----------------------------------------------------------------------

def fio_read(p, key):
    """.jobs[0].read.KEY of the fio JSON P."""
    if not os.path.exists(p) or os.path.getsize(p) == 0:
        die("hook-cost: %s missing" % p)
    try:
        return jq.path(jq.read_stream(p)[0], "jobs", 0, "read", *key.split("."))
    except (OSError, ValueError, IndexError, jq.JqError) as e:
        die("%s: %s" % (p, e))


def hook_runs(d):
    """runs.tsv: a row per row of hookcost.tsv (layout, case, rep,
    raises, misses), with its fio run's reads and mean latency."""
    out = []
    for lay, case, rep, ra, mi in rows_of(os.path.join(d, "hookcost.tsv"), 5):
        j = os.path.join(d, "fio-%s-%s-%s.json" % (lay, case, rep))
        out.append([lay, case, rep, jq.tostr(fio_read(j, "total_ios")),
                    "%.1f" % fio_read(j, "lat_ns.mean"), ra, mi])
    return out


def hook_cells(runs):
    """cells.tsv: per layout and case, sorted: runs, median, min, max of
    the instructions per read, and the sums of raises, misses and reads."""
    groups = {}
    for f in runs:
        g = groups.setdefault((f[0], f[1]), [[], 0.0, 0.0, 0.0])
        g[0].append(num(f[4]))
        for i, k in ((1, 5), (2, 6), (3, 3)):
            g[i] += num(f[k])
    return sorted("\t".join((lay, case, str(len(v)), stats("%.1f", v), *map(awk_num, sums)))
                  for (lay, case), (v, *sums) in groups.items())


def io_pattern(f):
    return f[0] + "\t" + ("stream" if "stream" in f[1] else "sparse")


def hook_summary(cells):
    """summary.tsv: the cells with the median minus that of the "off" case
    of the same layout and I/O pattern (the last such cell), in
    instructions and percent of it."""
    split = [c.split("\t") for c in cells]
    off = {io_pattern(f): f[3] for f in split if f[1].startswith("off-")}
    out = ["layout\tcase\truns\tmedian\tmin\tmax\traises\tmisses\treads\tdelta\tdelta_pct"]
    for c, f in zip(cells, split):
        med, o = num(f[3]), num(off.get(io_pattern(f), ""))
        out.append("%s\t%+.1f\t%+.3f" % (c, med - o, 100 * (med - o) / o if o > 0 else 0))
    return out


def hook_cost(d):
    runs = hook_runs(d)
    cells = hook_cells(runs)
    write_lines(os.path.join(d, "runs.tsv"), ["layout\tcase\trep\treads\tinsns_per_read\traises\tmisses"]
                + ["\t".join(r) for r in runs])
    write_lines(os.path.join(d, "cells.tsv"), cells)
    write_lines(os.path.join(d, "summary.tsv"), hook_summary(cells))


# ---- raise-cost ---------------------------------------------------------------------

def raise_cost(d):
    """summary.tsv: per CPU count and kind of raisecost.tsv's work runs, n
    and the median, min and max duration, sorted by CPU count."""
    groups = {}
    for cpus, kind, us in rows_of(os.path.join(d, "raisecost.tsv"), 3):
        groups.setdefault((cpus, kind), []).append(num(us))
    rows = sorted(("\t".join((cpus, kind, str(len(v)), stats("%.0f", v)))
                   for (cpus, kind), v in groups.items()), key=lambda r: (num(r.split("\t")[0]), r))
    write_lines(os.path.join(d, "summary.tsv"), ["cpus\tkind\tn\tmedian_us\tmin_us\tmax_us"] + rows if rows else [])


# ---- main ---------------------------------------------------------------------------

COMMANDS = {"hold-sweep": (hold_sweep, True), "icount-repro": (icount_repro, True),
            "isolation": (isolation, True), "hook-cost": (hook_cost, False),
            "raise-cost": (raise_cost, False)}


def main(args):
    cmd = COMMANDS.get(args[0]) if args else None
    if cmd is None or len(args) < 2 or (len(args) > 2) != cmd[1]:
        return usage(__doc__)
    if not os.path.isdir(args[1]):
        die("no folder %s" % args[1])
    if cmd[1]:
        cmd[0](args[1], args[2:])
    else:
        cmd[0](args[1])
    return 0


if __name__ == "__main__":
    sys.exit(not_a_program("tables"))
