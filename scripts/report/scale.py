# SPDX-License-Identifier: GPL-2.0
"""report.py scale DIR... - the table of scripts/bench/scale.sh runs, side by side.

One column per DIR (a run of scripts/bench/scale.sh: rounds.tsv and
rates.tsv as tools/guest/scale.sh writes them, run.txt whose label= heads
the column), one row per figure (ROWS): of the disk with one hctx for 8
CPUs, the CPUs given a limit per stream and the limit sets per stream
(median [min-max] of the rounds), how long after a stream's last
completion its CPUs were relaxed, the longest run of the work item; of the
8 namespaces, IOPS, the CPUs given a limit, work runs and PM QoS calls per
second, and the interrupts per second on the idle CPU 6 and on the busy
CPUs 0-5, off / auto. Prints the Markdown table; scripts/bench/scale.sh
(after a run, and --report) and report.py figures run it. Exit status 1
when a DIR has no rounds.tsv or rates.tsv, 2 on usage errors.
"""
import os
import sys

from common import awk_num, die, key_values, md_row, not_a_program, read_lines, read_tsv, spread, usage

ROWS = [
    "one hctx for 8 CPUs, 1 stream (CPU 0): CPUs given a limit per stream",
    "one hctx for 8 CPUs, 2 streams (CPUs 0, 4): CPUs given a limit per stream",
    "one hctx, 1 stream: limit sets (PM QoS requests set to a limit) per stream",
    "one hctx, 1 stream: relaxed after the last completion, ms",
    "one hctx, 2 streams: relaxed after the last completion, ms",
    "longest run of the work item, us",
    "8 namespaces, 6 streams: IOPS, off / auto",
    "8 namespaces, auto: CPUs given a limit",
    "8 namespaces, auto: work runs per second",
    "8 namespaces, auto: PM QoS calls (add, update) per second",
    "timer interrupts per second on the idle CPU 6, off / auto",
    "timer interrupts per second per busy CPU 0-5, off / auto",
    "rescheduling IPIs per second on the idle CPU 6, off / auto",
    "function call IPIs per second on the idle CPU 6, off / auto"]


def stats(values, fmt):
    """(median, min, max) of VALUES (numbers as text), each printed with FMT;
    no value counts as one 0 (scripts/lib/common.sh's stats)."""
    return spread([float(x) for x in values] or [0.0], fmt)


def column(d):
    """The column of the run in D: one value per row of ROWS."""
    if not all(os.path.isfile(os.path.join(d, f)) and os.path.getsize(os.path.join(d, f))
               for f in ("rounds.tsv", "rates.tsv")):
        die("%s: no rounds.tsv or rates.tsv" % d)
    rounds = read_tsv(os.path.join(d, "rounds.tsv"))
    out = []
    for w in ("1q-1job", "1q-2jobs"):
        med, lo, hi = stats([r[3] for r in rounds if r[0] == w], "%.0f")
        out.append((med if float(lo) == float(hi) else "%s [%s-%s]" % (med, lo, hi)) + " of 8")
    out.append(stats([r[4] for r in rounds if r[0] == "1q-1job"], "%.0f")[0])
    for w in ("1q-1job", "1q-2jobs"):
        # The delay in ms, as awk printed it (%.6g).
        ms = ["%.6g" % (float(r[8]) / 1000) for r in rounds if r[0] == w and r[8] != "-"]
        out.append("%s [%s-%s]" % stats(ms, "%.1f") if ms else "nothing raised")
    longest = max([float(r[7]) for r in rounds if r[0].startswith("1q-")] + [0])
    out.append(awk_num(longest))

    rates = {r[0]: r for r in read_tsv(os.path.join(d, "rates.tsv"))[1:]}
    o, a = rates["8ns-off"], rates["8ns-auto"]

    def per_s(r, col, cpu=None):
        """Column COL of the row R per second: CPU's value of a per-CPU
        list, the mean of CPUs 0-5 without CPU."""
        v = [float(x or 0) for x in r[col].split(",")] + [0.0] * 8
        return (v[cpu] if cpu is not None else sum(v[:6]) / 6) / float(r[1])

    out += ["%.0f / %.0f" % (float(o[2]) / float(o[1]), float(a[2]) / float(a[1])),
            "%d of 8" % int(float(a[3])),
            "%.0f" % (float(a[6]) / float(a[1])),
            "%.0f" % (float(a[5]) / float(a[1])),
            "%.0f / %.0f" % (per_s(o, 9, 6), per_s(a, 9, 6)),
            "%.0f / %.0f" % (per_s(o, 9), per_s(a, 9))]
    out += ["%.0f / %.0f" % (per_s(o, col, 6), per_s(a, col, 6)) for col in (10, 11)]
    return out


def label(d):
    """The label= of the run in D."""
    return "\n".join(key_values(read_lines(os.path.join(d, "run.txt")), "label"))


def report(dirs):
    """The Markdown table of the runs in DIRS, one column each."""
    cols = [column(d) for d in dirs]
    lines = ["| |" + "".join(" %s |" % label(d) for d in dirs),
             "|---|" + "---|" * len(dirs)]
    lines += [md_row([row] + [c[i] for c in cols]) for i, row in enumerate(ROWS)]
    return "\n".join(lines) + "\n"


def main(args):
    if not args or args[0].startswith("-"):
        return usage(__doc__)
    sys.stdout.write(report(args))
    return 0


if __name__ == "__main__":
    sys.exit(not_a_program("scale"))
