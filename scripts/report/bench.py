# SPDX-License-Identifier: GPL-2.0
"""report.py bench DIR - the report of a scripts/bench/bench.sh run.
report.py bench --jobs DIR... - the per-job table of several such runs.
report.py bench --fsync DIR... - the fsync() table of scripts/bench/fsync.sh.

Reads the cells below DIR: every meta/LABEL.json (the per-cell counters of
tools/guest/bench.sh), the fio JSON fio/LABEL.json beside its meta/ folder
(fio may print notes before it) and that run's info.json, and the
info.json files of the guest-*/ and host/ folders. Writes DIR/cells.json
(one entry per cell, the meta files in sorted path order), DIR/summary.json
(median, min, max and count per governor, workload and configuration; the
ratios auto/off, auto/c6off, auto/dmalat paired per repetition; the
null_blk overhead), DIR/targets.json (the targets of the benchmark,
printed, never asserted), DIR/bench.md (the tables and the targets, then
the modeled energy of report.py energy, which writes
DIR/energy.md and DIR/energy.json) and DIR/bench.png (matplotlib: per
governor the latency percentiles of the first workload per configuration,
p99 per workload and configuration, and the idle-state shares during the
first workload with the deep share after the I/O stopped; without
matplotlib a warning and no bench.png). Prints bench.md. Every file is
written to a temporary file and renamed into place.

A workload that ran several fio jobs at once (a job file without
group_reporting, such as tools/bench/mixed-think.fio) also gets per job,
in its cells and summary ("jobs": name, CPU, p50, p99, IOPS, fio's user
time (usr_cpu) and the completions on the job's CPU that woke it from a
deep state, per I/O, from the per-CPU counts of tools/guest/bench.sh) and
a per-job table in bench.md. --jobs prints that table for the runs DIR...
(their summary.json), a first column naming each by its folder
(scripts/bench/mixed-think.sh).

A run whose cells have per-CPU counters (tools/guest/bench.sh's
idle_us_cpu, idle_usage_cpu) gets per CPU, in its cells, summary ("cpus")
and a per-CPU table of bench.md: the share of the run in each idle state
and busy, wakeups, local timer interrupts, device completions, those
that woke the CPU from a deep state, function call and rescheduling IPIs,
per second; --jobs prints that table too, after its own.

A job that called fsync() (tools/bench/fsync.fio) is reported by its
fsync() calls: their latency and rate, and the per-I/O figures that
divide by fio's count (upd/IO, misses) per fsync(); deep wakes/IO and
steady upd/IO stay per device request (fio_side). --fsync prints, for the runs DIR... of scripts/bench/fsync.sh
(one per device latency, each folder named <LATENCY>us; printed by
latency), one table of
the fsync() calls per latency, governor and configuration, with the
modeled power of report.py energy, then auto against off and c6off.

The JSON files keep the key order, the list order, the null rules and the
number formatting of the jq programs that scripts/bench/bench.sh ran
before (the sum of nothing is null; a ratio with a zero denominator is
null unless the numerator is zero too), with one fix: a cell whose meta
file says "config_ok": false (its configuration could not be set) has no
figures, as the header of scripts/bench/bench.sh always said (jq's
"config_ok // true" took false for true; no committed record has such a
cell), and bench.md the formatting of its awk. Exit status 0, 1 on errors
(no cell, an unreadable cell), 2 on usage errors.
"""
import fnmatch
import os
import re
import socket
import sys
import time

import energy
from common import TOP, die, md_row, median, not_a_program, read_json, run, usage, write_atomic
from jq import (JqError, add, alt, divide, each, first_seen, get, group_by, jq_cmp, jq_dump, jq_eq, jq_max,
                jq_num, jq_sort, join, length, minus, parse_stream, path, plus, raw, read_stream, tostr, truthy)


def log(msg):
    print("[%s] %s" % (time.strftime("%H:%M:%S"), msg), file=sys.stderr)


def quotient(a, b, zero_by_zero):
    """a / b: null when either is null or for x / 0 with x not 0; 0 / 0
    gives zero_by_zero."""
    if a is None or b is None:
        return None
    if b == 0:
        return zero_by_zero if a == 0 else None
    return divide(a, b)


def div(a, b):
    """A rate per cell: nothing per nothing is 0."""
    return quotient(a, b, 0)


def ratio(a, b):
    """A ratio of two configurations: two zeros are equal, 1."""
    return quotient(a, b, 1)


def stats(xs):
    v = jq_sort([x for x in xs if x is not None])
    n = len(v)
    if n == 0:
        return None
    med = v[n // 2] if n % 2 == 1 else divide(plus(v[n // 2 - 1], v[n // 2]), 2)
    return {"median": med, "min": v[0], "max": v[-1], "n": n}


# ---- files -----------------------------------------------------------------


def find(top):
    """The paths below top (top included) in the order of find(1): depth
    first, each folder's entries in the order the file system lists them."""
    yield top
    try:
        entries = list(os.scandir(top))
    except OSError:
        return
    for e in entries:
        if e.is_dir(follow_symlinks=False):
            yield from find(e.path)
        else:
            yield e.path


def write_json(p, v):
    write_atomic(p, (jq_dump(v, 2) + "\n").encode())


def read_fio(p):
    """The fio JSON of a cell, or None: from its first line that starts
    with "{" (fio may print notes before it)."""
    if not os.path.isfile(p):
        return None
    try:
        with open(p, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().split("\n")
        start = next((i for i, line in enumerate(lines) if line.startswith("{")), len(lines))
        vals = parse_stream("\n".join(lines[start:]))
    except (OSError, ValueError):
        return None
    if not vals or not truthy(vals[-1]):
        return None
    return vals[0]


# ---- cells, summary, targets -------------------------------------------------

def cell(m, fio, info):
    """One cell from its meta JSON m, its fio JSON (or None) and its
    run's info.json."""
    deep = each(alt(get(info, "deep_states"), []))
    d = []
    names = []
    for job in each(alt(get(fio, "jobs"), [])):
        if jq_eq(alt(path(job, "job options", "ioengine"), ""), "cpuio"):
            continue
        d.append(fio_side(job))
        names.append((alt(get(job, "jobname"), "?"), alt(path(job, "job options", "cpus_allowed"), None),
                      get(job, "usr_cpu")))
    if not (len(d) > 0 and jq_eq(get(m, "fio_rc"), 0) and get(m, "config_ok") is not False):
        d = None
    idle_us = get(m, "idle_us")
    idle_after_us = get(m, "idle_after_us")
    it = add(idle_us)
    at = add(idle_after_us)
    ios = None if d is None else add([get(x, "total_ios") for x in d])

    def pct(k, p):
        return None if d is None else percentile_us(d[0], k, p)

    def dmax(k):
        v = None if d is None else jq_max([path(x, k, "max") for x in d])
        return None if v is None else divide(v, 1000)

    def per_cpu_s(k):
        v = alt(get(m, k), None)
        if v is None or length(v) == 0:
            return None
        return div(divide(add(v), length(v)), get(m, "run_s"))

    def deep_sum(v):
        return add([alt(get(v, s), 0) for s in deep])

    def emu_delta(k):
        a, b = alt(get(m, "emu_after"), None), alt(get(m, "emu_before"), None)
        if a is None or b is None:
            return None
        return div(minus(get(a, k), get(b, k)), minus(get(a, "completed"), get(b, "completed")))

    if not isinstance(idle_us, dict):
        raise JqError("%s has no keys" % jq_dump(idle_us))
    stat = get(m, "stat")
    energy = alt(get(m, "energy_uj"), None)
    energy_after = alt(get(m, "energy_after_uj"), None)
    wake = get(m, "wake")
    dbg = get(m, "debugfs")
    out = {
        "table": get(m, "table"), "idle": get(m, "idle"), "mode": get(m, "mode"),
        "governor": get(m, "governor"), "config": get(m, "config"),
        "workload": get(m, "workload"), "rep": get(m, "rep"),
        "device": get(m, "device"), "ok": d is not None,
        "p50_us": pct("lat_ns", "50.000000"), "p99_us": pct("lat_ns", "99.000000"),
        "p999_us": pct("lat_ns", "99.900000"),
        "max_us": dmax("lat_ns"),
        "clat_p50_us": pct("clat_ns", "50.000000"), "clat_p99_us": pct("clat_ns", "99.000000"),
        "clat_p999_us": pct("clat_ns", "99.900000"),
        "clat_max_us": dmax("clat_ns"),
        "iops": None if d is None else add([get(x, "iops") for x in d]),
        "ios": ios,
        "run_s": get(m, "run_s"), "startup_s": get(m, "startup_s"), "after_s": get(m, "after_s"),
        "idle_us": idle_us, "idle_after_us": idle_after_us,
        "state_share": {k: div(v, it) for k, v in idle_us.items()},
        "poll_share": div(get(idle_us, "POLL"), it),
        "deep_share": None if it is None else div(deep_sum(idle_us), it),
        "deep_entries": None if alt(get(m, "idle_usage"), None) is None else deep_sum(get(m, "idle_usage")),
        "deep_after_share": None if at is None else div(deep_sum(idle_after_us), at),
        "busy_share": div(minus(minus(get(stat, "total"), get(stat, "idle")), get(stat, "iowait")),
                          get(stat, "total")),
        "qos_events": get(m, "qos_events"), "qos_per_io": div(get(m, "qos_events"), ios),
        "qos_steady": get(m, "qos_events_steady"), "ios_steady": get(m, "ios_steady"),
        "qos_steady_per_io": div(get(m, "qos_events_steady"), get(m, "ios_steady")),
        "raises": get(dbg, "raises"), "relaxes": get(dbg, "relaxes"), "misses": get(dbg, "misses"),
        "misses_per_io": div(get(dbg, "misses"), ios),
        "call_ipi_per_cpu_s": per_cpu_s("call_ipis"),
        "resched_ipi_per_cpu_s": per_cpu_s("resched_ipis"),
        "timer_irq_per_cpu_s": per_cpu_s("local_timer_irqs"),
        "power_w": div(None if energy is None else divide(energy, 1e6), get(m, "run_s")),
        "power_after_w": div(None if energy_after is None else divide(energy_after, 1e6), get(m, "after_s")),
        "energy_per_io_uj": div(energy, ios),
        "limit_us": get(m, "limit_us"), "dmalat_read": get(m, "dmalat_read"),
        "clocksource": get(m, "clocksource"),
        "pkg_deep_share": alt(get(m, "pkg_deep_share"), None),
        "pkg_deep_after_share": alt(get(m, "pkg_deep_after_share"), None),
        "completions": alt(get(wake, "completions"), None), "deep_wakes": alt(get(wake, "deep"), None),
        "wake_lost": alt(get(wake, "lost"), None),
        "deep_wake_per_io": div(alt(get(wake, "deep"), None), alt(get(wake, "completions"), None)),
        "ctl_ns_per_io": emu_delta("ctl_ns"),
        "late_mean_ns": emu_delta("late_sum_ns"),
    }
    if d is not None and any(isinstance(x, dict) and x.get("fsync") for x in d):
        out["fio_side"] = "fsync"
    if get(m, "idle_us_cpu") is not None:
        out["cpus"] = cpu_cells(m, wake, deep)
    if d is not None and len(d) > 1:
        out["jobs"] = [job_cell(name, cpus, usr, x, alt(get(wake, "per_cpu"), None))
                       for (name, cpus, usr), x in zip(names, d)]
    return out


def cpu_cells(m, wake, deep):
    """Per CPU of a cell, in CPU order: the share of the run window it
    spent in each idle state (cpuidle's time, which a CPU without a
    cpuidle driver does not have) and in none (busy), and per second of
    the run its wakeups (idle-state entries: each ends in one), local
    timer, function call and rescheduling interrupts,
    the device's completions that ran on it and those of them that woke it
    from a deep state (tools/guest/bench.sh: idle_us_cpu, /proc/interrupts
    in CPU order, wake per_cpu)."""
    run_us = get(m, "run_s") * 1e6 if get(m, "run_s") else None
    idle = get(m, "idle_us_cpu") or {}
    usage = alt(get(m, "idle_usage_cpu"), None) or {}
    # Completions per CPU where the trace was read (a CPU it does not
    # name completed none), else unknown.
    wpc = alt(get(wake, "per_cpu"), None)

    def rate(v):
        return None if v is None or not run_us else v * 1e6 / run_us

    def irq(k, i):
        v = alt(get(m, k), None) or []
        return rate(v[i]) if i < len(v) else None

    out = []
    for i in range(int(get(m, "cpus"))):
        c = str(i)
        st = idle.get(c)
        share = None if not st or not run_us else {k: v / run_us for k, v in st.items()}
        w = [None, None] if wpc is None else wpc.get(c, [0, 0])
        out.append({
            "cpu": c,
            "state_time_share": share,
            "deep_time_share": None if share is None else sum(share.get(x, 0) for x in deep),
            "busy_time_share": None if share is None else max(0.0, 1 - sum(share.values())),
            "wakeups_s": rate(sum(usage[c].values())) if c in usage else None,
            "timer_irq_s": irq("local_timer_irqs", i), "call_ipi_s": irq("call_ipis", i),
            "resched_ipi_s": irq("resched_ipis", i),
            "completions_s": rate(w[0]), "deep_wakes_s": rate(w[1]),
        })
    return out


def fio_side(job):
    """What the figures of a cell describe of one fio job: its fsync()
    calls when it made any (tools/bench/fsync.fio, whose write() calls
    only fill the page cache), else its reads when it made any, else its
    writes. fio gives the fsync() calls a count and a latency (lat_ns),
    no rate and no clat: their rate is the count over the job's run time."""
    if jq_cmp(alt(path(job, "sync", "total_ios"), 0), 0) > 0:
        n, ms = path(job, "sync", "total_ios"), alt(get(job, "job_runtime"), 0)
        return {"fsync": True, "total_ios": n, "lat_ns": path(job, "sync", "lat_ns"),
                "iops": n * 1000 / ms if ms else None}
    if jq_cmp(alt(path(job, "read", "total_ios"), 0), 0) > 0:
        return get(job, "read")
    return get(job, "write")


def job_cell(name, cpus, usr, d, per_cpu):
    """One fio job of a cell that ran several (a workload without
    group_reporting, e.g. tools/bench/mixed-think.fio): its latency, its
    IOPS, its user time as a share of its run (fio's usr_cpu: where fio
    spins out its think times, this is the spin) and, when it ran on one
    CPU, the completions on that CPU that woke it from a deep state, per
    completion (the device completes on the submitting CPU:
    QUEUE_FLAG_SAME_FORCE)."""
    cw = get(per_cpu, cpus) if isinstance(cpus, str) and cpus.isdigit() else None
    return {"name": name, "cpus": cpus, "iops": get(d, "iops"), "ios": get(d, "total_ios"),
            "p50_us": percentile_us(d, "lat_ns", "50.000000"),
            "p99_us": percentile_us(d, "lat_ns", "99.000000"),
            "usr_share": None if usr is None else usr / 100,
            "deep_wake_per_io": None if cw is None else div(cw[1], cw[0])}


def percentile_us(d, k, p):
    """Percentile P of fio's K (lat_ns, clat_ns) of one job's read or
    write d, in us, or None."""
    v = alt(path(d, k, "percentile", p), None)
    return None if v is None else divide(v, 1000)


METRICS = ["p50_us", "p99_us", "p999_us", "max_us", "clat_p50_us", "clat_p99_us",
           "clat_p999_us", "clat_max_us", "iops", "poll_share", "deep_share",
           "deep_after_share", "busy_share", "qos_events", "qos_per_io", "qos_steady",
           "qos_steady_per_io", "misses", "misses_per_io", "raises", "relaxes",
           "timer_irq_per_cpu_s", "power_w",
           "power_after_w", "energy_per_io_uj", "deep_wake_per_io", "ctl_ns_per_io",
           "late_mean_ns", "pkg_deep_share", "pkg_deep_after_share", "call_ipi_per_cpu_s",
           "resched_ipi_per_cpu_s"]

RATIOS = [("auto", "c6off", "p50_us"), ("auto", "c6off", "p99_us"),
          ("auto", "c6off", "p999_us"), ("auto", "off", "p50_us"),
          ("auto", "off", "p99_us"), ("auto", "off", "deep_after_share"),
          ("auto", "off", "poll_share"), ("auto", "off", "iops"),
          ("auto", "dmalat", "p99_us"), ("auto", "off", "power_w"),
          ("auto", "off", "power_after_w")]


def summary(cells, infos):
    main = [c for c in cells if not jq_eq(get(c, "workload"), "null-qd32")]
    null = [c for c in cells if jq_eq(get(c, "workload"), "null-qd32")]
    allstates = [s for i in infos for s in each(alt(get(i, "states"), []))]
    # unique_by(.name) (the first of each name, sorted by name), then
    # sort_by(.latency_us).
    states = [get(s, "name") for s in jq_sort([g[0] for g in group_by(allstates, lambda s: get(s, "name"))],
                                              lambda s: get(s, "latency_us"))]
    deep = [g[0] for g in group_by([s for i in infos for s in each(alt(get(i, "deep_states"), []))],
                                   lambda x: x)]

    def key3(c):
        return [get(c, "governor"), get(c, "workload"), get(c, "config")]

    out_cells = []
    for g in group_by(main, key3):
        row = {"governor": get(g[0], "governor"), "workload": get(g[0], "workload"),
               "config": get(g[0], "config"), "n": len(g),
               "failed": sum(1 for c in g if not truthy(get(c, "ok")))}
        for k in METRICS:
            row[k] = stats([get(c, k) for c in g])
        row["state_share"] = {s: stats([get(get(c, "state_share"), s) for c in g]) for s in states}
        if any("jobs" in c for c in g):
            row["jobs"] = job_rows(g)
        if any("cpus" in c for c in g):
            row["cpus"] = cpu_rows(g, states)
        out_cells.append(row)

    ratios = []
    for g in group_by(main, lambda c: [get(c, "governor"), get(c, "workload")]):
        for a, b, k in RATIOS:
            na, nb = {}, {}
            for c in g:
                if jq_eq(get(c, "config"), a):
                    na[tostr(get(c, "rep"))] = get(c, k)
                if jq_eq(get(c, "config"), b):
                    nb[tostr(get(c, "rep"))] = get(c, k)
            r = [ratio(na[x], nb[x]) for x in sorted(na) if nb.get(x) is not None]
            if r:
                ratios.append({"governor": get(g[0], "governor"), "workload": get(g[0], "workload"),
                               "num": a, "den": b, "metric": k, "pairs": r, "ratio": stats(r)})

    overhead = None
    if null:
        pairs = []
        for g in group_by(null, lambda c: get(c, "rep")):
            off = [c for c in g if jq_eq(get(c, "config"), "off")]
            auto = [c for c in g if jq_eq(get(c, "config"), "auto")]
            p = {"pair": get(g[0], "rep"),
                 "off": get(off[0], "iops") if off else None,
                 "auto": get(auto[0], "iops") if auto else None}
            p["ratio"] = ratio(p["auto"], p["off"])
            pairs.append(p)
        overhead = {"governor": get(null[0], "governor"), "device": get(null[0], "device"),
                    "pairs": pairs, "ratio": stats([p["ratio"] for p in pairs]),
                    "off_iops": stats([p["off"] for p in pairs]),
                    "auto_iops": stats([p["auto"] for p in pairs])}

    return {
        "states": states,
        "deep_states": deep,
        "governors": first_seen([x for i in infos for x in each(get(i, "governors"))]),
        "workloads": first_seen([x for i in infos for x in each(get(i, "workloads"))]),
        "configs": first_seen([x for i in infos for x in each(get(i, "configs"))]),
        "cells": out_cells,
        "ratios": ratios,
        "overhead": overhead,
    }


JOB_METRICS = ["p50_us", "p99_us", "iops", "usr_share", "deep_wake_per_io"]


def job_rows(g):
    """Per fio job (by name, in the order of the first cell), the median,
    min and max over the repetitions g of a workload with several jobs."""
    first = next(c for c in g if "jobs" in c)
    out = []
    for j in first["jobs"]:
        js = [x for c in g for x in c.get("jobs", []) if x["name"] == j["name"]]
        row = {"name": j["name"], "cpus": j["cpus"]}
        for k in JOB_METRICS:
            row[k] = stats([x.get(k) for x in js])
        out.append(row)
    return out


CPU_METRICS = ["deep_time_share", "busy_time_share", "wakeups_s", "timer_irq_s", "call_ipi_s", "resched_ipi_s",
               "completions_s", "deep_wakes_s"]


def cpu_rows(g, states):
    """Per CPU, the median, min and max over the repetitions g of the
    per-CPU figures of cpu_cells (the idle states by name)."""
    cs = [c for c in g if "cpus" in c]
    out = []
    for i in range(max(len(c["cpus"]) for c in cs)):
        xs = [c["cpus"][i] for c in cs if i < len(c["cpus"])]
        row = {"cpu": xs[0]["cpu"]}
        row["state_time_share"] = {st: stats([(x["state_time_share"] or {}).get(st) for x in xs])
                                   for st in states}
        for k in CPU_METRICS:
            row[k] = stats([x[k] for x in xs])
        out.append(row)
    return out


def first_cell(s, g, w, c):
    for x in s["cells"]:
        if jq_eq(get(x, "governor"), g) and jq_eq(get(x, "workload"), w) and jq_eq(get(x, "config"), c):
            return x
    return None


# The hold period of the series (BLK_SHALLOW_IDLE_HOLD_MS) in us; the
# hold-sweep builds other ones, and its targets still take this one.
HOLD_US = 8000


def think_us(w):
    """The think time of workload W in us (qd1-t<N>us, qd1-think<N>us or
    <N>ms; 0 for qd1, qd4, qd32 and their -write forms), or None."""
    m = re.fullmatch(r"qd1-t(\d+)us", w) or re.fullmatch(r"qd1-think(\d+)us", w)
    if m:
        return int(m.group(1))
    m = re.fullmatch(r"qd1-think(\d+)ms", w)
    if m:
        return int(m.group(1)) * 1000
    return 0 if re.fullmatch(r"qd(1|4|32)(-write)?", w) else None


def targets(s):
    def r(g, w, a, b, k):
        for x in s["ratios"]:
            if (jq_eq(x["governor"], g) and jq_eq(x["workload"], w) and x["num"] == a
                    and x["den"] == b and x["metric"] == k):
                return x["ratio"]
        return None

    def t(name, g, w, v, op, goal):
        if v is None:
            met = None
        else:
            c = jq_cmp(get(v, "median"), goal)
            met = c <= 0 if op == "<=" else c >= 0
        return {"target": name, "governor": g, "workload": w, "value": v, "op": op,
                "goal": goal, "met": met}

    govs = [g for g in s["governors"] if g != "-"]
    wls = s["workloads"]
    # Where a stream exists (think time below the hold period): auto as fast
    # as C6 disabled and almost no deep-state completion; where the gaps
    # are longer than the hold period and its jiffy (12 ms at HZ=250):
    # auto as off. A workload of unknown think time (a job file of its
    # own, fsync) is taken for a stream.
    stream = [w for w in wls if (think_us(w) is None or think_us(w) < HOLD_US)]
    sparse = [w for w in wls if think_us(w) is not None and think_us(w) > HOLD_US + 4000]
    out = []
    for g in govs:
        for w in stream:
            out.append(t("auto/c6off p50", g, w, r(g, w, "auto", "c6off", "p50_us"), "<=", 1.02))
            out.append(t("auto/c6off p99", g, w, r(g, w, "auto", "c6off", "p99_us"), "<=", 1.02))
    for g in govs:
        for w in stream:
            c = first_cell(s, g, w, "auto")
            if get(c, "deep_wake_per_io") is not None:
                out.append(t("deep-state completions per I/O (auto)", g, w, c["deep_wake_per_io"], "<=", 0.01))
    for g in govs:
        for w in sparse:
            for k in ("p50_us", "p99_us"):
                v = r(g, w, "auto", "off", k)
                out.append(t("gaps beyond the hold: auto/off %s at least" % k[:3], g, w, v, ">=", 0.98))
                out.append(t("gaps beyond the hold: auto/off %s at most" % k[:3], g, w, v, "<=", 1.02))
    for g in govs:
        for w in wls:
            out.append(t("deep-state share after I/O stops auto/off", g, w,
                         r(g, w, "auto", "off", "deep_after_share"), ">=", 0.99))
    for g in govs:
        for w in wls:
            out.append(t("POLL residency during I/O auto/off", g, w,
                         r(g, w, "auto", "off", "poll_share"), "<=", 1.0))
    if s["overhead"] is not None:
        out.append(t("null_blk IOPS auto/off", s["overhead"]["governor"], "null-qd32",
                     s["overhead"]["ratio"], ">=", 0.995))
    for g in govs:
        for w in wls:
            if w not in ("qd1", "qd32", "qd1-write", "qd32-write"):
                continue
            c = first_cell(s, g, w, "auto")
            if c is not None:
                out.append(t("steady-state PM QoS updates per I/O (auto)", g, w,
                             c["qos_steady_per_io"], "<=", 0))
    return out


# ---- bench.md ----------------------------------------------------------------

def f(k, v):
    """One value of kind k: us, n (count), pct (share in %), r (ratio),
    w (watts), e (small number)."""
    if v is None:
        return "-"
    if k == "us":
        return "%.1f" % v if v < 10 else "%.0f" % v
    if k == "n":
        return "%.0f" % v
    if k == "pct":
        return "%.1f" % (v * 100)
    if k == "r":
        return "%.3f" % v
    if k == "w":
        return "%.1f" % v
    if k == "e":
        return "0" if v == 0 else "%.2g" % v
    return tostr(v)


def pct(v):
    return "%.2g%%" % v if v < 0.1 else "%.1f%%" % v


def fmt(k, med, lo, hi, n):
    """"median (min-max)", the median alone for one value or a range
    that rounds to one value."""
    if med is None:
        return "-"
    if n == 1 or f(k, lo) == f(k, hi):
        return f(k, med)
    return "%s (%s-%s)" % (f(k, med), f(k, lo), f(k, hi))


def fmt_stats(k, v):
    if v is None:
        return "-"
    return fmt(k, get(v, "median"), get(v, "min"), get(v, "max"), get(v, "n"))


def run_order(s):
    """The summary cells of s in the order of the run: per governor,
    workload and configuration, then the idle=poll cells (governor "-")
    per workload."""
    govs = [g for g in s["governors"] if g != "-"]
    sel = [c for g in govs for w in s["workloads"] for cf in s["configs"] for c in s["cells"]
           if jq_eq(get(c, "governor"), g) and jq_eq(get(c, "workload"), w) and jq_eq(get(c, "config"), cf)]
    return sel + [c for w in s["workloads"] for c in s["cells"]
                  if jq_eq(get(c, "governor"), "-") and jq_eq(get(c, "workload"), w)]


def gov_label(g):
    """A governor as the tables name it: the idle=poll boot has none ("-")."""
    return "- (idle=poll)" if g == "-" else g


def rows(s, getters, kinds):
    """One Markdown row per governor, workload and configuration (in the
    order of the run), each value "median (min-max)"."""
    sel = run_order(s)
    out = []
    for row in sel:
        names = [join([row.get(k)], "") for k in ("governor", "workload", "config")]
        out.append(md_row([gov_label(names[0]), names[1], names[2]]
                          + [fmt_stats(k, get_v(row)) for get_v, k in zip(getters, kinds)]))
    return out


JOB_HEADER = ["| governor | workload | config | job | CPU | p50 us | p99 us | IOPS | fio user % | deep wakes/IO |",
              "|---|---|---|---|---:|---:|---:|---:|---:|---:|"]


def job_lines(s, first=None):
    """Per job of the workloads that ran several fio jobs, in the order of
    the run, one Markdown row ("median (min-max)"); with first, a first
    column of that value."""
    sel = [c for c in run_order(s) if "jobs" in c]
    lead = [] if first is None else [first]
    return [md_row(lead + [gov_label(c["governor"]), c["workload"], c["config"], j["name"], j["cpus"] or "-",
                           fmt_stats("us", j["p50_us"]), fmt_stats("us", j["p99_us"]),
                           fmt_stats("n", j["iops"]), fmt_stats("pct", j.get("usr_share")),
                           fmt_stats("e", j["deep_wake_per_io"])])
            for c in sel for j in c["jobs"]]


def job_table(s):
    """bench.md's per-job table (nothing when no workload ran several
    jobs)."""
    lines = job_lines(s)
    if not lines:
        return []
    return ["## Per fio job", "",
            "Workloads with several fio jobs at once: each job's latency and IOPS, its user time "
            "(fio's usr_cpu: fio spins out the last ns_granularity of every think time, so a high "
            "share is fio spinning, not I/O), and the "
            "completions on its CPU that woke it from a deep state, per completion. (In the "
            "tables above, the latency percentiles and the targets are those of the first "
            "job; max, IOPS and deep wakes are of all jobs.)", ""] + \
        JOB_HEADER + lines + [""]


# The per-CPU table's columns per second, in order: key, header.
CPU_RATES = [("wakeups_s", "wakeups/s"), ("timer_irq_s", "timer/s"), ("completions_s", "completions/s"),
             ("deep_wakes_s", "deep wakes/s"), ("call_ipi_s", "call IPI/s"), ("resched_ipi_s", "resched IPI/s")]


def cpu_header(s, first=None):
    """The per-CPU table's header rows (with first, a first column)."""
    states = [tostr(x) for x in s["states"]]
    lead = "" if first is None else "| %s " % first
    return [lead + "| governor | workload | config | CPU |" + "".join(" %s %% |" % st for st in states)
            + " busy % |" + "".join(" %s |" % label for _, label in CPU_RATES),
            ("" if first is None else "|---") + "|---|---|---|---|" + "---:|" * (len(states) + 1 + len(CPU_RATES))]


def cpu_lines(s, ctl, first=None):
    """Per CPU of every summary cell with per-CPU figures, in the order
    of the run, one Markdown row ("median (min-max)"); ctl: the
    controller CPU ("2") or None; with first, a first column of that
    value."""
    states = [tostr(x) for x in s["states"]]
    lead = [] if first is None else [first]
    out = []
    for c in run_order(s):
        for x in c.get("cpus", []):
            cpu = x["cpu"] + (" (ctl)" if x["cpu"] == ctl else "")
            out.append(md_row(lead + [gov_label(c["governor"]), c["workload"], c["config"], cpu]
                              + [fmt_stats("pct", x["state_time_share"][st]) for st in states]
                              + [fmt_stats("pct", x["busy_time_share"])]
                              + [fmt_stats("n", x[k]) for k, _ in CPU_RATES]))
    return out


def cpu_text(s, ctl):
    return ("Per CPU, of the run window: the share of time in each idle state (cpuidle's residency) and "
            "in none (busy; \"-\" where the CPU has no cpuidle states: the device's controller CPU, "
            "idle=poll), and per second its wakeups (idle-state entries, each ended by one), its local "
            "timer interrupts, the device's completions that ran on it, those of them that woke it from "
            "%s, and its function call and rescheduling IPIs (on the deterministic platform a completion "
            "arrives as a function call IPI from the controller, so call IPI/s counts the completions "
            "too). Median (min-max) over the repetitions.%s" % (
                join(s["deep_states"], "+"),
                "" if ctl is None else " CPU %s (ctl) is the device's controller." % ctl))


def controller(info):
    c = get(info, "controller_cpu")
    return None if c is None else tostr(c)


def cpu_table(s, info):
    """bench.md's per-CPU table (nothing for a run without per-CPU
    counters)."""
    ctl = controller(info)
    lines = cpu_lines(s, ctl)
    if not lines:
        return []
    return ["## Per CPU", "", cpu_text(s, ctl), ""] + cpu_header(s) + lines + [""]


def jobs_main(dirs):
    """--jobs DIR...: of the bench.sh outputs DIR (their summary.json), a
    first column naming each DIR by its folder name, one per-job table, then
    per run, governor and workload with several jobs what auto did: PM QoS
    updates and misses per I/O, and the deep states' share of idle time
    off / auto."""
    jobs = ["| hctxs " + JOB_HEADER[0], "|---" + JOB_HEADER[1]]
    cpus, texts = [], {}
    cost = ["| hctxs | governor | workload | PM QoS updates/IO, auto | misses/IO, auto "
            "| deep share of idle %, off / auto |", "|---|---|---|---:|---:|---:|"]
    for d in dirs:
        p = os.path.join(d, "summary.json")
        if not os.path.isfile(p):
            die("no %s" % p)
        s = read_json(p)
        name = os.path.basename(os.path.normpath(d))
        lines = job_lines(s, name)
        if not lines:
            die("%s has no workload with several fio jobs" % p)
        jobs += lines
        info = os.path.join(d, "guest-cstates", "info.json")
        ctl = controller(read_json(info)) if os.path.isfile(info) else None
        rows_ = cpu_lines(s, ctl, name)
        if rows_:
            cpus = cpus or cpu_header(s, "hctxs")
            cpus += rows_
            texts.setdefault(cpu_text(s, ctl), []).append(name)
        for g in s["governors"]:
            for w in s["workloads"]:
                off, auto = first_cell(s, g, w, "off"), first_cell(s, g, w, "auto")
                if auto is None or "jobs" not in auto:
                    continue
                cost.append(md_row([name, g, w, fmt_stats("e", auto["qos_per_io"]),
                                    fmt_stats("e", auto["misses_per_io"]), "%s / %s" % (
                                        "-" if off is None else fmt_stats("pct", off["deep_share"]),
                                        fmt_stats("pct", auto["deep_share"]))]))
    # One explanation when the runs share it (the same states and
    # controller), else one per run, named.
    notes = [t if len(texts) == 1 else "%s: %s" % (", ".join(n), t) for t, n in texts.items()]
    print("\n".join(jobs + [""] + cost + ([""] + [x for n in notes for x in (n, "")] + cpus if cpus else [])))
    return 0


FSYNC_HEADER = ["| device latency | governor | config | fsync p50 us | fsync p99 us | fsyncs/s "
                "| requests/fsync | deep wakes/request | PM QoS upd/fsync | deep % of idle "
                "| all CPUs deep % | modeled W |",
                "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
FSYNC_VS = ["| device latency | governor | fsync p50 auto/off | fsyncs/s auto/off | fsync p50 auto/c6off "
            "| fsyncs/s auto/c6off | modeled W auto - off | modeled energy per fsync auto/off |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]


def fsync_main(dirs):
    """--fsync DIR...: the bench.sh outputs DIR of scripts/bench/fsync.sh
    (summary.json, cells.json and the modeled energy of energy.compute),
    one per device latency, each named by its folder (<LATENCY>us)."""
    rows, vs = list(FSYNC_HEADER), list(FSYNC_VS)

    def latency(d):
        n = os.path.basename(os.path.normpath(d))
        return int(n[:-2]) if n.endswith("us") and n[:-2].isdigit() else float("inf")
    for d in sorted(dirs, key=latency):
        for f in ("summary.json", "cells.json"):
            if not os.path.isfile(os.path.join(d, f)):
                die("no %s" % os.path.join(d, f))
        s, cells = read_json(os.path.join(d, "summary.json")), read_json(os.path.join(d, "cells.json"))
        lat = os.path.basename(os.path.normpath(d))
        lat = lat[:-2] + " us" if lat.endswith("us") else lat
        model = energy.compute(d, os.path.join(TOP, "data/energy-model/params.tsv"))
        watts = {(g, w, c): m for g, w, cfgs in (model[2] if model else []) for c, m in cfgs.items()}
        fs = [c for c in run_order(s) if any(x.get("fio_side") == "fsync" and x["governor"] == c["governor"]
                                             and x["workload"] == c["workload"] for x in cells)]
        if not fs:
            die("%s has no cell that called fsync()" % d)
        for c in fs:
            key = (c["governor"], c["workload"], c["config"])
            per = [x["completions"] / x["ios"] for x in cells if (x["governor"], x["workload"], x["config"]) == key
                   and x.get("ok") and x.get("ios") and x.get("completions") is not None]
            m = watts.get(key)
            rows.append(md_row([lat, c["governor"], c["config"], fmt_stats("us", c["p50_us"]),
                                fmt_stats("us", c["p99_us"]), fmt_stats("n", c["iops"]),
                                "%.1f" % median(sorted(per)) if per else "-",
                                fmt_stats("e", c["deep_wake_per_io"]), fmt_stats("e", c["qos_per_io"]),
                                fmt_stats("pct", c["deep_share"]), fmt_stats("pct", c["pkg_deep_share"]),
                                "-" if m is None else "%.1f" % m["total_w"]]))
        for g in [g for g in s["governors"] if g != "-"]:
            for w in s["workloads"]:
                off, auto, c6 = (first_cell(s, g, w, x) for x in ("off", "auto", "c6off"))
                if auto is None or auto not in fs:
                    continue

                def r(a, b, k):
                    a, b = a and get(a[k], "median"), b and get(b[k], "median")
                    return "%.3f" % (a / b) if a and b else "-"
                mo, ma = watts.get((g, w, "off")), watts.get((g, w, "auto"))
                vs.append(md_row([lat, g, r(auto, off, "p50_us"), r(auto, off, "iops"), r(auto, c6, "p50_us"),
                                  r(auto, c6, "iops"), "%+.1f" % (ma["total_w"] - mo["total_w"]) if ma and mo else "-",
                                  "%.3f" % (ma["uj_per_io"] / mo["uj_per_io"]) if ma and mo else "-"]))
    print("\n".join(rows + [""] + vs))
    return 0


def states_text(info):
    try:
        return join([tostr(get(s, "name")) + " " + tostr(get(s, "latency_us")) + "/" +
                     tostr(get(s, "residency_us")) + " us" for s in each(get(info, "states"))], ", ")
    except JqError as e:
        print("jq: error: %s" % e, file=sys.stderr)
        return ""


def hctx_text(info):
    try:
        return join(get(info, "hctx_cpus"), "; ")
    except JqError as e:
        print("jq: error: %s" % e, file=sys.stderr)
        return ""


def markdown(s, tg, cells, info):
    out = []
    echo = out.append
    states = [tostr(x) for x in s["states"]]
    deep = join(s["deep_states"], "+")
    energy = sum(1 for c in s["cells"] if c.get("power_w") is not None)

    def i(k):
        return raw(get(info, k)).rstrip("\n")

    kernel, table = i("kernel"), i("table")
    limit = "%s us (%s)" % (tostr(get(info, "limit_us")), tostr(get(info, "limit_source")))
    device = i("device")

    def hctx():
        return "Hardware queues of %s: %s (CPUs per hctx: %s). Kernel build: %s." % (
            device, jq_num(length(get(info, "hctx_cpus"))), hctx_text(info),
            raw(alt(get(info, "kernel_version"), "?")))

    echo("# shallow_idle benchmark")
    echo("")
    if raw(alt(get(info, "platform"), "tcg")) == "icount":
        echo("Kernel %s in QEMU -icount (deterministic: the guest clock counts "
             "instructions, 1 ns each), -smp %s, emulated C-states table `%s` "
             "(%s exit latency/target residency), device %s "
             "(tools/emu-blk: %s, completions sent by IPI from "
             "controller CPU %s, which has no emulated C-states; "
             "fio on CPUs %s)." % (kernel, i("cpus"), table, states_text(info), device, i("emu"),
                                   i("controller_cpu"), i("fio_cpus")))
        echo("")
        echo("The figures count guest instructions, not host time: two runs give the "
             "same figures whatever the host does. The guest is a 1-GIPS CPU on which "
             "every kernel path costs what it costs under TCG in instructions, so the "
             "absolute latencies are those of a slow CPU; the emulated exit latencies "
             "are busy-waits in the same clock. The controller's work per I/O "
             "(ctl ns/IO below) runs in turn with the other vCPUs and adds to the latency "
             "of every configuration alike.")
        echo("")
        echo(hctx())
    elif i("mode") == "guest":
        echo("Kernel %s in QEMU/TCG, -smp 2, emulated C-states table `%s` "
             "(%s exit latency/target residency), device %s (virtio-blk)." % (
                 kernel, table, states_text(info), device))
        echo("")
        echo("**TCG inflates everything**: every latency, the CPU cost of each I/O and "
             "of each idle entry and exit are those of an emulated CPU, and the emulated "
             "C-state exit latencies are busy-waited by it. The absolute numbers do not "
             "transfer to real hardware; the ratios between configurations (auto vs off, "
             "c6off, dmalat, poll; null_blk auto/off) are what transfers. One more "
             "artefact: an emulated exit latency is a busy-wait that occupies a host "
             "core, so the C-state exits of vCPUs that auto leaves unconstrained (those "
             "outside the busy hctx) take host CPU time from the busy vCPU and QEMU's "
             "I/O thread; on real hardware another CPU's exit latency costs nothing.")
        echo("")
        sources = group_by([alt(get(c, "clocksource"), "?") for c in cells], lambda x: x)
        echo(hctx()[:-1] + ". Guest clocksource at the end of each cell: %s." % ", ".join(
            "%s (%d cells)" % (tostr(g[0]), len(g)) for g in sources))
    else:
        echo("Kernel %s on %s, %s CPUs, cpuidle driver %s, device %s (%s)." % (
            kernel, socket.gethostname(), i("cpus"), i("cpuidle_driver"), device, states_text(info)))
    echo("")
    after = i("after_s")
    echo("Auto limit %s; deep states (disabled for c6off): %s. Per cell: %s s of fio (time based), "
         "then %s s idle; %s repetition(s), configurations alternating within each repetition." % (
             limit, deep, i("runtime_s"), after, i("reps")))
    clatnote = "fio's completion latency, leaves out the submission system call"
    if i("mode") == "guest":
        clatnote += (", in which under TCG a large share of the I/Os already completes (clat of 1-2 us), "
                     "so its percentiles jump between modes")
    echo("Values: median (min-max) over the repetitions. Latency (p50 to max, and the "
         "targets): time from submission to completion of each I/O (fio lat); clat, "
         "%s. Idle-state columns: share of idle time (all CPUs) from the "
         "first I/O to the end of the run; \"%s after\": share of idle time in the "
         "%s s after the I/O stopped. QoS upd: dev_pm_qos "
         "add/update/remove trace events on CPU devices during the run (busy edges "
         "included); steady: those from %s s after the "
         "first I/O to 0.5 s before the end of the run, per I/O of that window. misses: debugfs, completions on CPUs "
         "not held (v2 counted requests issued before the raise took effect). all CPUs %s: share of the run (and of the idle window after it) in "
         "which every CPU with emulated states was in %s at once, the time in which the package could "
         "sleep (emu_cstates' package count; \"-\" without it). deep wakes/IO: the device's completions that "
         "ran on a CPU woken from %s (trace events cpu_idle and block_rq_complete), per I/O. "
         "timer/s, call IPI/s, resched IPI/s: local timer, function call and rescheduling interrupts "
         "per CPU and second over the run (/proc/interrupts LOC, CAL, RES). busy %%: /proc/stat, "
         "tick-sampled (on the deterministic platform a workload period that divides the tick "
         "period can alias with it)." % (clatnote, deep, after, i("steady_after_s"), deep, deep, deep))
    if any(jq_eq(get(c, "config"), "poll") for c in s["cells"]):
        echo("poll: a separate boot with idle=poll (no cpuidle driver in use, no "
             "governor; all idle time polls, no state residency exists).")
    fs = [w for w in s["workloads"] if any(jq_eq(get(c, "workload"), w) and c.get("fio_side") == "fsync"
                                            for c in cells)]
    if fs:
        echo("%s: the fio job called fsync() after each write, and the latency columns, IOPS, "
             "upd/IO and misses are those of the fsync() calls (fio's sync latency; an fsync() "
             "has no clat), each of which waits for several device requests; steady upd/IO and "
             "deep wakes/IO are per device request." % ", ".join(tostr(w) for w in fs))
    echo("")

    echo("## Latency and throughput")
    echo("")
    echo("| governor | workload | config | p50 us | p99 us | p99.9 us | max us | clat p50 us | clat p99 us | IOPS | deep wakes/IO |")
    echo("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    keys = ["p50_us", "p99_us", "p999_us", "max_us", "clat_p50_us", "clat_p99_us", "iops", "deep_wake_per_io"]
    out += rows(s, [lambda c, k=k: c.get(k) for k in keys], "us us us us us us n e".split())
    echo("")
    out += job_table(s)

    echo("## Idle states, CPU and PM QoS")
    echo("")
    hdr = "| governor | workload | config |" + "".join(" %s %% |" % st for st in states)
    sep = "|---|---|---|" + "---:|" * len(states)
    getters = [lambda c, st=st: get(get(c, "state_share"), st) for st in states]
    kinds = ["pct"] * len(states)
    hdr += (" %s %% after | all CPUs %s %% | after | busy %% | QoS upd | upd/IO | steady upd/IO | misses "
            "| timer/s | call IPI/s | resched IPI/s |" % (deep, deep))
    sep += "---:|" * 11
    keys = ["deep_after_share", "pkg_deep_share", "pkg_deep_after_share", "busy_share", "qos_events",
            "qos_per_io", "qos_steady_per_io", "misses", "timer_irq_per_cpu_s", "call_ipi_per_cpu_s",
            "resched_ipi_per_cpu_s"]
    kinds += "pct pct pct pct n e e n n n n".split()
    if energy:
        hdr += " pkg W | pkg W after | uJ/IO |"
        sep += "---:|" * 3
        keys += ["power_w", "power_after_w", "energy_per_io_uj"]
        kinds += "w w n".split()
    getters += [lambda c, k=k: c.get(k) for k in keys]
    echo(hdr)
    echo(sep)
    out += rows(s, getters, kinds)
    echo("")
    out += cpu_table(s, info)

    o = s["overhead"]
    if o is not None:
        echo("## Overhead: null_blk, irqmode=0, 4k randread QD32 x 2 jobs (governor %s)" % raw(o["governor"]))
        echo("")
        echo("| pair | off IOPS | auto IOPS | auto/off |")
        echo("|---:|---:|---:|---:|")
        for p in o["pairs"]:
            echo(md_row([tostr(p["pair"]), f("n", p["off"]), f("n", p["auto"]), f("r", p["ratio"])]))
        r = o["ratio"]
        echo("\nauto/off IOPS ratio: %s over %s pairs (median off %s, auto %s IOPS). TCG inflates "
             "the cost of every I/O; the ratio is what transfers to real hardware." % (
                 fmt_stats("r", r), tostr(get(r, "n")), f("n", get(o["off_iops"], "median")),
                 f("n", get(o["auto_iops"], "median"))))
        echo("")

    echo("## Targets (benchmarks, not asserted)")
    echo("")
    echo("Ratios are paired per repetition (or null_blk pair): median (min-max).")
    echo("")
    echo("| target | governor | workload | measured | goal | status |")
    echo("|---|---|---|---:|---:|---|")
    for t in tg:
        v, op, goal = t["value"], t["op"], t["goal"]
        if v is None:
            val, st = "-", "no data"
        else:
            if isinstance(v, dict):
                med, lo, hi, n = get(v, "median"), get(v, "min"), get(v, "max"), get(v, "n")
            else:
                med = lo = hi = v
                n = 1
            val = fmt("e" if "per I/O" in t["target"] else "r", med, lo, hi, n)
            if t["met"] is True:
                st = "met"
            elif op == "<=" and goal == 0:
                st = "MISSED (%s > 0)" % f("e", med)
            elif op == "<=":
                st = "MISSED by " + pct((med / goal - 1) * 100)
            else:
                st = "MISSED by " + pct((1 - med / goal) * 100)
        echo(md_row([tostr(t["target"]), tostr(t["governor"]), tostr(t["workload"]), val,
                     "%s %s" % (op, tostr(goal)), st]))
    echo("")
    met = sum(1 for t in tg if t["met"] is True)
    unknown = sum(1 for t in tg if t["met"] is None)
    echo("%d of %d targets met, %d missed%s." % (met, len(tg), len(tg) - met - unknown,
                                                 ", %d without data" % unknown if unknown else ""))
    between = [w for w in s["workloads"] if think_us(w) is not None and HOLD_US <= think_us(w) <= HOLD_US + 4000]
    if between:
        echo("No latency or deep-state target for %s: think times within the hold period and its jiffy "
             "(8 to 12 ms), where whether a stream is held depends on the jiffy." % ", ".join(between))
    return "\n".join(out) + "\n"


# ---- bench.png ---------------------------------------------------------------

def plot(d, s):
    """DIR/bench.png: per governor (rows) the latency percentiles of the
    first workload per configuration, p99 per workload and configuration,
    and the idle-state shares during the first workload with the deep
    share after the I/O stopped."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import LogFormatter
    except ImportError:
        log("bench: warning: no matplotlib (python3-matplotlib), no %s/bench.png" % d)
        return
    png = os.path.join(d, "bench.png")
    tmp = os.path.join(d, ".bench.png.%d.tmp" % os.getpid())
    try:
        govs = [g for g in s["governors"] if g != "-"] or ["-"]
        wl0 = s["workloads"][0] if s["workloads"] else "null"
        configs, states = s["configs"], s["states"]
        deep = join(s["deep_states"], "+")

        def pick(g, w, c):
            for x in s["cells"]:
                if (jq_eq(x["workload"], w) and jq_eq(x["config"], c)
                        and (jq_eq(x["governor"], g) or x["governor"] == "-")):
                    return x
            return None

        ngov = len(govs)
        fig, axes = plt.subplots(ngov, 3, figsize=(18, (460 * ngov + 60) / 100), dpi=100,
                                 squeeze=False, constrained_layout=True)
        fig.suptitle("shallow_idle benchmark: %s (median, bars: min-max over repetitions)" %
                     join(configs, ", "))
        for row, g in zip(axes, govs):
            # Latency percentiles of the first workload per configuration.
            ax = row[0]
            lat = [(c, pick(g, wl0, c)) for c in configs]
            lat = [(tostr(c), x) for c, x in lat if x is not None]
            width = 0.25
            for j, (k, name, color) in enumerate((("p50_us", "p50", "#4e79a7"), ("p99_us", "p99", "#f28e2b"),
                                                  ("p999_us", "p99.9", "#e15759"))):
                xs, ys, lo, hi = [], [], [], []
                for n, (_c, x) in enumerate(lat):
                    v = x.get(k)
                    if v is None:
                        continue
                    xs.append(n + (j - 1) * width)
                    ys.append(v["median"])
                    lo.append(v["median"] - v["min"])
                    hi.append(v["max"] - v["median"])
                if xs:
                    ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, color=color, edgecolor="black",
                           linewidth=0.5, label=name)
            ax.set_yscale("log")
            # Plain numbers, minor ticks labelled too (a latency range may span less than a decade).
            ax.yaxis.set_major_formatter(LogFormatter(labelOnlyBase=False))
            ax.yaxis.set_minor_formatter(LogFormatter(labelOnlyBase=False, minor_thresholds=(2, 1)))
            ax.set_xticks(range(len(lat)))
            ax.set_xticklabels([c for c, _x in lat])
            ax.set_ylabel("I/O latency, submission to completion (us)")
            ax.set_title("governor %s: %s latency per configuration" % (g, wl0))
            ax.grid(axis="y", alpha=0.4)
            ax.legend(loc="upper left")

            # p99 per workload and configuration.
            ax = row[1]
            wls = s["workloads"]
            width = 1 / (len(configs) + 1)
            for j, c in enumerate(configs):
                xs, ys = [], []
                for n, w in enumerate(wls):
                    x = pick(g, w, c)
                    v = None if x is None else get(x.get("p99_us"), "median")
                    if v is not None:
                        xs.append(n + (j - (len(configs) - 1) / 2) * width)
                        ys.append(v)
                if xs:
                    ax.bar(xs, ys, width, edgecolor="black", linewidth=0.5, label=tostr(c))
            ax.set_yscale("log")
            # Plain numbers, minor ticks labelled too (a latency range may span less than a decade).
            ax.yaxis.set_major_formatter(LogFormatter(labelOnlyBase=False))
            ax.yaxis.set_minor_formatter(LogFormatter(labelOnlyBase=False, minor_thresholds=(2, 1)))
            ax.set_xticks(range(len(wls)))
            ax.set_xticklabels([tostr(w) for w in wls], rotation=-40, ha="left")
            ax.set_ylabel("p99 I/O latency (us)")
            ax.set_title("governor %s: p99 per workload" % g)
            ax.grid(axis="y", alpha=0.4)
            ax.legend(loc="upper left")

            # Idle-state shares during the first workload, the deep share after.
            ax = row[2]
            bottom = [0.0] * len(lat)
            for st in states:
                ys = []
                for _c, x in lat:
                    v = get(x.get("state_share"), st)
                    ys.append(0.0 if v is None else v["median"] * 100)
                if lat:
                    ax.bar(range(len(lat)), ys, 0.75, bottom=bottom, edgecolor="black", linewidth=0.5,
                           label=tostr(st))
                bottom = [b + y for b, y in zip(bottom, ys)]
            pts = [(n, x["deep_after_share"]["median"] * 100) for n, (_c, x) in enumerate(lat)
                   if x.get("deep_after_share") is not None]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o", color="black", markersize=8,
                        label="%s after (%%)" % deep)
            ax.set_ylim(0, 105)
            ax.set_xticks(range(len(lat)))
            ax.set_xticklabels([c for c, _x in lat])
            ax.set_ylabel("share of idle time (%)")
            ax.set_title("governor %s: idle states during %s, and %s share in the 1 s after" % (g, wl0, deep))
            ax.grid(axis="y", alpha=0.4)
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
        fig.savefig(tmp, format="png")
        plt.close(fig)
        os.replace(tmp, png)
    except Exception as e:  # the plot is optional: warn, keep the report
        print("report.py bench: plot: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        log("bench: warning: matplotlib failed, no %s" % png)
        if os.path.exists(tmp):
            os.unlink(tmp)


# ---- main ----------------------------------------------------------------------

def main(args):
    if len(args) > 1 and args[0] == "--jobs":
        return jobs_main(args[1:])
    if len(args) > 1 and args[0] == "--fsync":
        return fsync_main(args[1:])
    if len(args) != 1 or args[0].startswith("-"):
        return usage(__doc__)
    if not os.path.isdir(args[0]):
        die("no folder %s" % args[0])
    d = os.path.realpath(args[0])
    paths = list(find(d))

    cells = []
    for m in sorted(p for p in paths if fnmatch.fnmatchcase(p, "*/meta/*.json")):
        base = os.path.dirname(os.path.dirname(m))
        label = os.path.basename(m)[:-len(".json")]
        try:
            mv = read_stream(m)
            iv = read_stream(os.path.join(base, "info.json"))
            cells.append(cell(mv[0] if mv else None,
                              read_fio(os.path.join(base, "fio", label + ".json")),
                              iv[0] if iv else None))
        except (OSError, ValueError, JqError, TypeError, KeyError) as e:
            print("report.py bench: %s: %s" % (m, e), file=sys.stderr)
            die("cannot read %s" % m)
    if not cells:
        die("no cells below %s" % d)
    write_json(os.path.join(d, "cells.json"), cells)

    infos = []
    for p in sorted(p for p in paths if os.path.basename(p) == "info.json" and (
            fnmatch.fnmatchcase(p, "*/guest-*/*") or fnmatch.fnmatchcase(p, "*/host/*"))):
        infos += read_stream(p)
    s = summary(cells, infos)
    write_json(os.path.join(d, "summary.json"), s)
    tg = targets(s)
    write_json(os.path.join(d, "targets.json"), tg)

    info_first = next((p for p in paths if os.path.basename(p) == "info.json" and (
        fnmatch.fnmatchcase(p, "*/guest-cstates/*") or fnmatch.fnmatchcase(p, "*/host/*"))), None)
    if info_first is None:
        die("no info.json in a guest-cstates/ or host/ folder below %s" % d)
    iv = read_stream(info_first)
    md = markdown(s, tg, cells, iv[0] if iv else None).encode()
    # The energy model (energy.py): modeled, never measured.
    status, text = run(energy.main, [d])
    if status == 0:
        md += b"\n" + text.encode()
    else:
        print("bench: no modeled energy (report.py energy failed)", file=sys.stderr)
    write_atomic(os.path.join(d, "bench.md"), md)
    plot(d, s)
    sys.stdout.flush()
    sys.stdout.buffer.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(not_a_program("bench"))
