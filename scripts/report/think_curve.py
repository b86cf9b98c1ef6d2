# SPDX-License-Identifier: GPL-2.0
"""report.py think-curve --report DIR | --md SUMMARY - the think-time curve.

The tables and the plot of a scripts/bench/think-curve.sh run, from the
summary.json that scripts/bench/bench.sh wrote (report.py bench). Per
think time (the workloads qd1-t<N>us) and governor: p50 and p99 ratios
auto/off and auto/c6off; PM QoS updates and misses per I/O with auto;
completions that ran on a CPU woken from a deep state, per I/O, off /
auto / c6off (and dmalat / poll, with their p99 ratio auto/dmalat, where
the run has them); the share of idle time in the deep state and local timer
interrupts per CPU and second, off / auto / c6off; the busy share of the
CPUs, off / auto; the medians over the repetitions, "-" (NaN in the TSV)
where a cell or a figure is missing.

  --report DIR   DIR/curve.tsv, DIR/curve.md and DIR/curve.png (matplotlib,
                 four panels: latency ratios, per-I/O counts, deep share,
                 timer interrupts; without matplotlib a warning and no
                 curve.png) from DIR/bench/summary.json, else
                 DIR/summary.json; prints curve.md.
  --md SUMMARY   prints the table of SUMMARY only (report.py figures).

Printed, never asserted. Files are written to a temporary file and
renamed into place. Exit status 0, 1 on errors (no summary, no qd1-t<N>us
workload), 2 on usage errors.
"""
import os
import re
import sys

from common import die, md_row, not_a_program, read_json, think_label, usage, write_atomic

PROG = "report.py think-curve"  # the prefix of its error messages
COLS = ["think_us", "governor", "p50_auto_off", "p99_auto_off",
        "p50_auto_c6off", "p99_auto_c6off", "qos_per_io", "misses_per_io",
        "deep_off", "deep_auto", "deep_c6off", "timer_off", "timer_auto",
        "timer_c6off", "busy_off", "busy_auto", "p50_off_us", "p50_auto_us",
        "wake_off", "wake_auto", "wake_c6off", "p99_auto_dmalat",
        "wake_dmalat", "wake_poll"]


def ratio(a, b):
    return a / b if a is not None and b not in (None, 0) else None


def f(v, fmt):
    return "-" if v is None else fmt % v


def rows_of(path):
    """The rows of the curve (columns COLS) from summary.json PATH."""
    try:
        s = read_json(path)
    except (OSError, ValueError) as e:
        die("cannot read %s: %s" % (path, e), prog=PROG)
    cells = {(c["governor"], c["workload"], c["config"]): c
             for c in s["cells"]}

    def med(gov, wl, cfg, key):
        # idle=poll runs in a boot of its own, without a governor ("-").
        c = cells.get((gov, wl, cfg)) or (cells.get(("-", wl, cfg)) if cfg == "poll" else None)
        v = c.get(key) if c else None
        return v.get("median") if isinstance(v, dict) else None

    wls = sorted((w for w in s["workloads"]
                  if re.fullmatch(r"qd1-t\d+us", w)),
                 key=lambda w: int(w[5:-2]))
    if not wls:
        die("no qd1-t<N>us workload in " + path, prog=PROG)
    rows = []
    # The idle=poll boot's cells have no governor ("-"): columns, not rows.
    govs = [g for g in s["governors"] if g != "-"] or ["-"]
    for wl in wls:
        for g in govs:
            def m(cfg, k, g=g, wl=wl):
                return med(g, wl, cfg, k)
            rows.append([int(wl[5:-2]), g,
                         ratio(m("auto", "p50_us"), m("off", "p50_us")),
                         ratio(m("auto", "p99_us"), m("off", "p99_us")),
                         ratio(m("auto", "p50_us"), m("c6off", "p50_us")),
                         ratio(m("auto", "p99_us"), m("c6off", "p99_us")),
                         m("auto", "qos_per_io"), m("auto", "misses_per_io"),
                         m("off", "deep_share"), m("auto", "deep_share"),
                         m("c6off", "deep_share"),
                         m("off", "timer_irq_per_cpu_s"),
                         m("auto", "timer_irq_per_cpu_s"),
                         m("c6off", "timer_irq_per_cpu_s"),
                         m("off", "busy_share"), m("auto", "busy_share"),
                         m("off", "p50_us"), m("auto", "p50_us"),
                         m("off", "deep_wake_per_io"),
                         m("auto", "deep_wake_per_io"),
                         m("c6off", "deep_wake_per_io"),
                         ratio(m("auto", "p99_us"), m("dmalat", "p99_us")),
                         m("dmalat", "deep_wake_per_io"),
                         m("poll", "deep_wake_per_io")])
    return rows


def tsv(rows):
    lines = ["\t".join(COLS)]
    for r in rows:
        lines.append("\t".join("NaN" if v is None else str(v) for v in r))
    return "\n".join(lines) + "\n"


def md(rows):
    """The table; with /dev/cpu_dma_latency or idle=poll cells in ROWS, two
    columns more for them (a run of off, auto and c6off alone has none)."""
    more = any(r[i] is not None for r in rows for i in (21, 22, 23))
    out = ["| think time | governor | p50 auto/off | p99 auto/off "
           "| p50 auto/C6 off | p99 auto/C6 off | QoS updates / I/O "
           "| misses / I/O | deep wakes / I/O off / auto / C6 off "
           "| deep share off / auto / C6 off "
           "| timer IRQ/s per CPU off / auto / C6 off | busy off / auto |"
           + (" p99 auto/dma_latency | deep wakes / I/O dma_latency / idle=poll |" if more else ""),
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if more else "")]
    def cols(r, fmt, *i):  # the columns I of R, " / " between them
        return " / ".join(f(r[k], fmt) for k in i)

    for r in rows:
        out.append(md_row([think_label(r[0]), r[1], f(r[2], "%.2f"), f(r[3], "%.2f"), f(r[4], "%.2f"),
                           f(r[5], "%.2f"), f(r[6], "%.3f"), f(r[7], "%.3f"), cols(r, "%.3f", 18, 19, 20),
                           cols(r, "%.2f", 8, 9, 10), cols(r, "%.0f", 11, 12, 13), cols(r, "%.2f", 14, 15)]
                          + ([f(r[21], "%.2f"), cols(r, "%.3f", 22, 23)] if more else [])))
    return "\n".join(out) + "\n"


# The panels of curve.png: title, y range, and per line the column,
# its label and whether it is dashed.
PANELS = [
    ("latency ratios (1 = no change)", (0, None),
     [("p50_auto_off", "p50 auto/off", False),
      ("p99_auto_off", "p99 auto/off", False),
      ("p50_auto_c6off", "p50 auto/C6 off", True),
      ("p99_auto_c6off", "p99 auto/C6 off", True)]),
    ("per I/O: deep-state wakes (off, auto), PM QoS updates and misses "
     "(auto)", (None, None),
     [("wake_off", "deep wakes/IO off", False),
      ("wake_auto", "deep wakes/IO auto", False),
      ("wake_dmalat", "deep wakes/IO dma_latency", True),
      ("qos_per_io", "QoS/IO", False),
      ("misses_per_io", "misses/IO", False)]),
    ("share of idle time in the deep state", (0, 1),
     [("deep_off", "off", False), ("deep_auto", "auto", False),
      ("deep_c6off", "C6 off", False)]),
    ("local timer interrupts per CPU and second", (0, None),
     [("timer_off", "off", False), ("timer_auto", "auto", False),
      ("timer_c6off", "C6 off", False)]),
]


def plot(rows, png):
    """curve.png from ROWS; a warning and no file without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write("report.py think-curve: warning: no matplotlib "
                         "(python3-matplotlib), no %s\n" % png)
        return
    govs = list(dict.fromkeys(r[1] for r in rows))
    fig, axes = plt.subplots(2, 2, figsize=(14, 10))
    fig.suptitle("Think-time curve: fio QD1 4 KiB randread, shallow_idle "
                 "off / auto / C6 disabled")
    for ax, (title, (lo, hi), lines) in zip(axes.flat, PANELS):
        for col, label, dashed in lines:
            i = COLS.index(col)
            for g in govs:
                pts = [(r[0] if r[0] > 0 else 10, r[i]) for r in rows
                       if r[1] == g and r[i] is not None]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts],
                            marker="o", linestyle="--" if dashed else "-",
                            label="%s %s" % (label, g))
        ax.set_xscale("log")
        ax.set_xlabel("think time (us; 0 plotted at 10)")
        ax.set_title(title)
        ax.grid(True)
        if lo is not None:
            ax.set_ylim(bottom=lo)
        if hi is not None:
            ax.set_ylim(top=hi)
        ax.legend(fontsize=7)
    fig.tight_layout()
    tmp = "%s.%d.tmp.png" % (png[:-4], os.getpid())
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, png)


def main(args):
    if len(args) != 2 or args[0] not in ("--report", "--md"):
        return usage(__doc__)
    if args[0] == "--md":
        sys.stdout.write(md(rows_of(args[1])))
        return 0
    d = args[1]
    summary = os.path.join(d, "bench", "summary.json")
    if not os.path.isfile(summary):
        summary = os.path.join(d, "summary.json")
    if not os.path.isfile(summary):
        die("no summary.json in %s/bench or %s" % (d, d), prog=PROG)
    rows = rows_of(summary)
    write_atomic(os.path.join(d, "curve.tsv"), tsv(rows).encode())
    text = md(rows)
    write_atomic(os.path.join(d, "curve.md"), text.encode())
    plot(rows, os.path.join(d, "curve.png"))
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(not_a_program("think-curve"))
