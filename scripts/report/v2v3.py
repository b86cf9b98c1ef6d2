# SPDX-License-Identifier: GPL-2.0
"""report.py v2v3 DIR [DRAFT] - the table of a scripts/bench/v2v3-think.sh run.

DIR holds v2/ and v3/, each the output of scripts/bench/bench.sh with
its summary.json. Per governor and think time: the completions that ran
on a CPU woken from a deep state, per I/O, off (v3 kernel), v2 auto and
v3 auto, then auto's p50 and p99 over off for v2 and v3. With DRAFT, the
folder of an earlier run, its v3 auto column is added as "v3 draft"
(data/v2v3-think-draft). Prints Markdown; exit status 1 when a cell is
missing or failed, 2 on usage errors. Run by scripts/bench/v2v3-think.sh
and report.py figures.
"""
import sys

from common import die, md_row, md_rule, not_a_program, read_json, usage


def main(args):
    if len(args) not in (1, 2) or args[0].startswith("-"):
        return usage(__doc__)
    d = args[0]
    s = {v: read_json("%s/%s/summary.json" % (d, v)) for v in ("v2", "v3")}
    draft = len(args) > 1
    if draft:
        s["draft"] = read_json("%s/v3/summary.json" % args[1])

    def cell(v, g, w, c):
        for x in s[v]["cells"]:
            if (x["governor"], x["workload"], x["config"]) == (g, w, c) and not x["failed"]:
                return x
        die("no cell %s %s %s %s in %s" % (v, g, w, c, d), prog="report.py v2v3")

    def wake(x):
        return "%.3f" % x["deep_wake_per_io"]["median"]

    def r(a, o, k):
        return "%.2f" % (a[k]["median"] / o[k]["median"])

    print(md_row(["governor", "think ms", "deep wakes / I/O, off (v3 kernel)", "v2 auto"]
                 + ["v3 draft auto"] * draft + ["v3 auto", "p50 auto/off, v2", "v3", "p99 auto/off, v2", "v3"]))
    print(md_rule("lrrr" + "r" * draft + "rrrrr"))
    for g in s["v3"]["governors"]:
        for w in s["v3"]["workloads"]:
            o2, a2 = cell("v2", g, w, "off"), cell("v2", g, w, "auto")
            o3, a3 = cell("v3", g, w, "off"), cell("v3", g, w, "auto")
            dr = [wake(cell("draft", g, w, "auto"))] if draft else []
            print(md_row([g, "%g" % (int(w[5:-2]) / 1000), wake(o3), wake(a2)] + dr + [
                wake(a3), r(a2, o2, "p50_us"), r(a3, o3, "p50_us"), r(a2, o2, "p99_us"), r(a3, o3, "p99_us")]))
    return 0


if __name__ == "__main__":
    sys.exit(not_a_program("v2v3"))
