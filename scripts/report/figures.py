# SPDX-License-Identifier: GPL-2.0
"""report.py figures [--check] - the figures that README.md,
MEASUREMENTS.md, TESTING.md and the cover letter quote, generated from
committed result data under data/ (data/README.md: its layout).

The blocks, by the NAME of their markers, and where their data comes from:

  summary       README.md's short cost table: report.py cost on
                data/think-curve-icount
  commands      README.md's line on the two commands' newest cold runs
                (data/main-time, data/test-time)
  think-sweep   data/think-sweep/v1 and v2: scripts/bench/bench.sh runs of the
                v1 and the v2 kernel (summary.json, run.txt); per think
                time and governor, PM QoS updates and misses per I/O with
                "auto", p50 auto over off and in us, local timer
                interrupts per CPU and second
  raise-cost    data/raise-cost: scripts/bench/raise-cost.sh (summary.tsv,
                run.txt); data/raise-cost-v1: the same with --series-commit
                f95543c (v1)
  test-time     data/test-time/*/: cold runs of the test command in a fresh
                clone (timings.tsv as scripts/test.sh writes it; run.txt:
                command, commit, date, platform, result, wall_s)
  hook-cost     data/hook-cost: scripts/bench/hook-cost.sh (summary.tsv,
                run.txt): guest instructions per read under QEMU -icount;
                data/hook-cost-rq-qos and its repeat/: the same with
                --variant rq-qos, the hook as an rq_qos policy (a column)
                and, with the attribute off, no hook at all in two boots
                (a second table)
  hold-sweep    data/hold-sweep: scripts/bench/hold-sweep.sh (sweep.tsv,
                run.txt): the hold period against think time
  isolation     data/isolation/run-*/: scripts/bench/isolation.sh
                (isolation.tsv, run.txt): the eater experiment, QEMU
                threads shared and isolated
  think-curve   data/think-curve: scripts/bench/think-curve.sh
                (bench/summary.json, run.txt, curve.png): the think-time
                curve (TCG), its table by report.py think-curve
  think-curve-icount  data/think-curve-icount: the same on the
                deterministic platform (--platform icount; also
                bench/cells.json and bench/guest-cstates/info.json), with
                the modeled energy of report.py energy;
                think-curve-icount-80 and think-curve-icount-tail: the same
                at 80 us device latency, and at 20 us with 3 % of the
                requests at 500 us
  mixed-think   data/mixed-think: scripts/bench/mixed-think.sh (run.txt,
                per-cpu/ and one-queue/summary.json): two jobs with
                different think times at once, with a hardware queue per
                CPU and with one for both; the tables by
                report.py bench --jobs
  fsync         data/fsync: scripts/bench/fsync.sh (run.txt, <LATENCY>us/
                summary.json and cells.json, one folder per device
                latency): fsync() after every 4 KiB append on ext4; the
                tables by report.py bench --fsync
  icount-repro  data/icount-repro: scripts/bench/icount-repro.sh (repro.tsv,
                run.txt): one set of cells on the deterministic platform,
                twice on a quiet host and once with CPU eaters on it
  scale         data/scale-v2, data/scale: scripts/bench/scale.sh (rounds.tsv,
                rates.tsv, run.txt) with v2 and v3, the table by
                report.py scale; data/v2v3-think:
                scripts/bench/v2v3-think.sh (v2/ and v3/summary.json,
                run.txt), the table by report.py v2v3 (v2v3-think.sh
                --md). The MEASUREMENTS.md block
                adds the first v3 draft (data/scale-v3-draft,
                data/v2v3-think-draft), whose hold was too long, and the v3
                kernel booted again (data/scale-repeat)
  main-time     data/main-time/*/: cold runs of scripts/main.sh
                (timings.tsv, run.txt)
  mutants       data/mutants: scripts/tests/mutants.sh (table.tsv, run.txt), and
                data/mutants-by-hand (table.tsv, run.txt: the mutants that
                need the debug kernel, each run by hand): every mutant of
                tools/mutants/ with what killed it. Unlike the
                measurements, a mutant table depends on the tests: --check
                FAILS when it ran on another series than the one in
                patches/, tests included, or leaves a mutant of
                tools/mutants/ out
  test-steps    the test command's steps and what they assert: the PASS
                lines per step of the newest cold run in data/test-time
                that has them (steps.tsv), and what one stands for, counted
                in this tree's sources (KUnit cases and expectation sites,
                kselftest cases)

The cover letter quotes think-sweep, raise-cost, hook-cost, hold-sweep,
isolation, scale (v2 against v3), mutants (the counts) and a table of its
own, state-tables: data/state-tables (scripts/bench/state-tables.sh:
tables.tsv, run.txt), the "auto" limit on every C-state table by v2's
rule and by v3's.

The blocks that quote a measurement of the series (raise-cost, hook-cost,
hold-sweep, isolation, icount-repro, the think-curve blocks,
mixed-think, fsync, scale and summary) start with a "Stale" line when a run measured another series
than the one in patches/ or names no repository commit (series_of,
stale); in the cover letter only the v2-against-v3 lines do, as its v1
and v2 tables are the older series on purpose. think-sweep is v1 against
v2 by design.

Without --check, rewrites the blocks of README.md, MEASUREMENTS.md and
TESTING.md (between the lines "<!-- figures NAME begin -->" and
"<!-- figures NAME end -->"; each block is in exactly one of them) and the
tables of patches/0000-cover-letter.patch (each from the line COVER_BLOCKS
names, such as "  think time:", through the next line "  (generated by
scripts/report/report.py figures ...)"). Where data/ breaks the rules of
data/README.md, or a mutant table is not of this series, it prints a FAIL
line. With --check, prints "PASS figures ..." when every file already
holds what the data gives, else "FAIL figures: ..." (with a diff where a
page differs), and exits non-zero; the FAIL lines of data/ and of the
mutant tables fail it too.
"""
import fnmatch
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from functools import lru_cache

from bench import main as bench_main
from common import CONFIG_NAMES, TOP, awk_num, key_values, lines_of, md_row, not_a_program, read_lines, think_label
from common import run as run_in_process
from cost import main as cost_main
from energy import main as energy_main
from scale import main as scale_main
from think_curve import main as think_curve_main
from v2v3 import main as v2v3_main

# The command that makes the pages, as they and the lines that end each
# table of the cover letter name it.
SELF = "scripts/report/report.py figures"
PAGES = ("README.md", "MEASUREMENTS.md", "TESTING.md")
COVER = "patches/0000-cover-letter.patch"
# The blocks of the pages, in the order they are put in place.
PAGE_BLOCKS = ("summary", "commands", "think-sweep", "raise-cost", "test-time", "hook-cost", "hold-sweep",
               "isolation", "think-curve", "think-curve-icount", "think-curve-icount-80",
               "think-curve-icount-tail", "mixed-think", "fsync", "icount-repro", "scale", "main-time",
               "mutants", "test-steps", "kunit-hz", "v2-evidence")
# The tables of the cover letter: the line each starts at, its block, what a
# FAIL line calls it; each ends at the next line that COVER_END matches.
COVER_BLOCKS = (("^  think time: ", "think-sweep", "think-time table"),
                ("^  CPUs of the hctx: ", "raise-cost", "raise-cost table"),
                ("^  Hook cost:", "hook-cost", "hook-cost table"),
                ("^  Hold period:", "hold-sweep", "hold-sweep table"),
                ("^  Isolation:", "isolation", "isolation table"),
                ("^  State tables:", "state-tables", "state-tables table"),
                ("^  v2 against v3 at scale", "scale", "v2-against-v3 table"),
                ("^  Mutants: ", "mutants", "mutants lines"))
COVER_END = r"^  \(?generated by " + re.escape(SELF)


class Fail(Exception):
    """Fail(MESSAGE[, True]): a "FAIL figures: MESSAGE" that ends the run (on
    stderr with True)."""


def at(*parts):
    return os.path.join(TOP, *parts)


D = {n: at("data", n) for n in (
    "think-sweep", "raise-cost", "raise-cost-v1", "test-time", "hook-cost", "hook-cost-rq-qos", "hold-sweep",
    "isolation", "think-curve", "think-curve-icount", "think-curve-icount-80",
    "think-curve-icount-tail",
    "mixed-think", "fsync", "icount-repro", "scale", "scale-v2", "scale-v3-draft", "scale-repeat", "v2v3-think", "v2v3-think-draft",
    "main-time", "state-tables", "mutants", "mutants-by-hand", "kunit-hz1000", "v2-evidence")}


def rel(path):
    return path[len(TOP) + 1:] if path.startswith(TOP + "/") else path


# ---- reading the data ---------------------------------------------------------

def records(*path):
    """The lines of the file PATH; none (and a note) when it cannot be read."""
    try:
        return read_lines(os.path.join(*path))
    except OSError as e:
        print("figures: %s" % e, file=sys.stderr)
        return []


def table(*path):
    """The lines of a TSV file split at its tabs (awk -F'\\t'), header first."""
    return [line.split("\t") for line in records(*path)]


def col(row, i):
    """awk's $I of ROW."""
    return row[i - 1] if i <= len(row) else ""


def where(rows, out, **cols):
    """The column OUT of the ROWS whose columns ($N as cN) hold COLS, one a line."""
    return "\n".join(col(r, out) for r in rows if all(col(r, int(k[1:])) == v for k, v in cols.items()))


def key(path, k):
    """The value of "K=..." in the run.txt PATH (of every such line)."""
    return "\n".join(key_values(records(path), k)).rstrip("\n")


class Keys(dict):
    """Keys(FUNCTION)[K] is FUNCTION(K) (for text()'s fields)."""

    def __init__(self, function):
        super().__init__()
        self.function = function

    def __missing__(self, k):
        return self.function(k)


def run_txt(d):
    """The keys of the run.txt in the folder D: run_txt(D)["platform"]."""
    return Keys(lambda k: key(os.path.join(d, "run.txt"), k))


def nonempty(path):
    return os.path.exists(path) and os.path.getsize(path) > 0


def need(*paths, err=False):
    for p in paths:
        if not nonempty(p):
            raise Fail(rel(p) + " missing", err)


def data_lines(*path):
    """How many lines a TSV file has after its header."""
    return len(records(*path)[1:]) if os.path.exists(os.path.join(*path)) else 0


def subdirs(base, pattern="*"):
    """The folders BASE/PATTERN/, sorted, each with its trailing slash."""
    return sorted(glob.glob(os.path.join(base, pattern, "")))


def fields(line, n):
    """The N tab-separated fields of LINE, "" for those it lacks."""
    return (line.split("\t", n - 1) + [""] * n)[:n]


def pairs(path, skip=()):
    """"name s, name s, ..." of a timings.tsv, without the steps in SKIP."""
    return ", ".join("%s %s" % (col(r, 1), col(r, 2)) for r in table(path)[1:] if col(r, 1) not in skip)


# ---- numbers as awk reads and prints them ------------------------------------

NUM = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def num(s):
    """The number awk reads in the string S: its leading number, else 0."""
    m = NUM.match(s)
    return float(m.group(0)) if m else 0.0


def dec_f(spec, s):
    """printf SPEC (one %f conversion) of the decimal string S ("-" stays),
    rounded from its decimal value (half to even)."""
    return s if s == "-" else format(Decimal(s.strip() or "0"), spec[1:])


# ---- text ---------------------------------------------------------------------

def fold(line, width, indent=""):
    """GNU fold -s -w WIDTH of LINE (bytes as columns, no tabs): broken after
    the last blank within WIDTH, else at WIDTH; trailing blanks dropped, and
    the lines after the first that start with no blank indented by INDENT."""
    b, out = line.encode("utf-8", "surrogateescape"), []
    while len(b) > width:
        cut = b.rfind(b" ", 0, width) + 1 or width
        out.append(b[:cut])
        b = b[cut:]
    out = [x.decode("utf-8", "surrogateescape").rstrip(" ") for x in out + [b]]
    return out[:1] + [indent + x if x[:1] not in ("", " ") else x for x in out[1:]]


def replace(lines, start, end, block):
    """LINES with the lines from the first that matches START through the next
    that matches END replaced by BLOCK; None without them."""
    i = next((i for i, x in enumerate(lines) if re.search(start, x)), None)
    j = next((j for j in range(i + 1, len(lines)) if re.search(end, lines[j])), None) if i is not None else None
    return None if j is None else lines[:i] + block + lines[j + 1:]


def text(template, **fields):
    """The lines of TEMPLATE, text of a page, with its {fields} and {SELF}."""
    return template.format(SELF=SELF, **fields).split("\n")


def marked(name, lines):
    return ["<!-- figures %s begin -->" % name] + lines + ["<!-- figures %s end -->" % name]


def generated(source):
    return "  (generated by %s from %s)" % (SELF, source)


# ---- git and the other subcommands ---------------------------------------------

def git(*args):
    """(exit status, stdout bytes) of git ARGS in this repository."""
    r = subprocess.run(["git", "-C", TOP, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    return r.returncode, r.stdout


def program(failure, main, *args, err=False):
    """The stdout lines of the subcommand MAIN of report.py on ARGS, run in
    this process; Fail(FAILURE, ERR) when it fails."""
    status, out = run_in_process(main, list(args))
    if status:
        raise Fail(failure, err)
    return lines_of(out)


# ---- which series a run measured ----------------------------------------------

@lru_cache(maxsize=None)
def series_diffs(rev=None, tests=False):
    """The code of the series at repository commit REV (the working tree
    without one): the diffs of the patches `series' lists, in order, without
    their changelogs, index lines and signatures, so that a changelog-only
    change (which builds the same kernel) leaves it as it is, and without
    Documentation/ (it builds no code and runs no test: the DOC blocks it
    pulls in are in the code, which counts). Without TESTS,
    also without the files that only tests are made of (KUnit suites,
    *-test.c and *_kunit.c, and tools/testing/): a KUnit suite runs at boot,
    before any benchmark starts, and a kselftest is not run by one, so a
    change to a test alone measures the same kernel. Their Kconfig and
    Makefile lines, and anything a test reaches in the code it tests
    (VISIBLE_IF_KUNIT), still count. In C sources the comments and blank
    lines are left out too, white space outside strings is folded, and
    hunk headers keep no line numbers (CCode), so that a comment-only
    change (kernel-doc and DOC blocks included), which builds the same
    code but for line numbers (__LINE__ in WARN and KUnit messages),
    leaves it as it is."""
    return patch_code(series_patches(rev), tests)


def series_patches(rev=None):
    """The patches `series' lists at repository commit REV (the working
    tree without one), in order, as bytes."""
    if rev:
        names = git("show", rev + ":series")[1].decode().split()
        return [git("show", "%s:patches/%s" % (rev, p))[1] for p in names]
    patches = []
    for p in " ".join(records(at("series"))).split():
        try:
            with open(at("patches", p), "rb") as f:
                patches.append(f.read())
        except OSError:
            pass
    return patches


def patch_code(patches, tests=False):
    """series_diffs() of the patches PATCHES (bytes each)."""
    keep, out, joined, c = False, [], b"".join(patches), None
    for line in (joined[:-1] if joined.endswith(b"\n") else joined).split(b"\n"):
        if line.startswith(b"diff --git "):
            f = line.split() + [b""] * 3
            keep = not f[2].startswith(b"a/Documentation/") and (
                tests or not re.search(rb"(-test|_kunit)\.c$|^a/tools/testing/", f[2]))
            c = CCode() if re.search(rb"\.[ch]$", f[2]) else None
        keep = keep and line != b"-- "
        if keep and not line.startswith(b"index "):
            line = c.line(line) if c else line
            if line is not None:
                out.append(line)
    return tuple(out)


class CCode:
    """The code of one C file's diff, line by line: line(LINE) gives LINE
    with its C comments removed and its white space folded, "@@" for a hunk
    header, or None for a line that holds no code. The comment state is
    followed on each side of the diff ('-' and ' ' lines are the old file,
    '+' and ' ' the new one), from the file's "---" and "+++" lines on."""

    def __init__(self):
        self.side = {b"-": False, b"+": False}
        self.body = False

    def line(self, line):
        if not self.body:
            self.body = line.startswith(b"@@")
            return line if not self.body else b"@@"
        if line.startswith(b"@@"):
            self.side = {b"-": False, b"+": False}
            return b"@@"
        mark, text = line[:1], line[1:]
        if mark not in (b" ", b"-", b"+"):
            return line  # "\ No newline at end of file", a bare empty line
        sides = (b"-", b"+") if mark == b" " else (mark,)
        code = None
        for s in sides:
            code, self.side[s] = self.strip(text, self.side[s])
        code = code.strip()
        return mark + code if code else None

    @staticmethod
    def strip(text, inside):
        """TEXT without its comments and with each run of white space
        outside strings folded to one blank, and whether a comment is still
        open at its end (INSIDE: one was open at its start). Strings and
        character literals are kept as they are."""
        out, i, n, quote = bytearray(), 0, len(text), None
        while i < n:
            ch = text[i:i + 1]
            if inside:
                end = text.find(b"*/", i)
                if end < 0:
                    return bytes(out), True
                inside, i = False, end + 2
                out += b"" if out.endswith(b" ") else b" "
            elif not quote and ch in b" \t\f\v":
                out += b"" if out.endswith(b" ") else b" "
                i += 1
            elif quote:
                out += ch
                if ch == b"\\":
                    out += text[i + 1:i + 2]
                    i += 1
                elif ch == quote:
                    quote = None
                i += 1
            elif text.startswith(b"/*", i):
                inside, i = True, i + 2
            elif text.startswith(b"//", i):
                break
            else:
                if ch in (b'"', b"'"):
                    quote = ch
                out += ch
                i += 1
        return bytes(out), inside


def rule_problems():
    """What is wrong with series_diffs()'s rule, on planted changes of this
    tree's series, each in a named file: in block/blk-shallow-idle.c a
    comment line added (its hunk counted one line longer), a comment put
    after a line of code, and the changelog changed must leave the code as
    it is; a line of code changed and a character changed inside a string
    must not; in the KUnit suite block/blk-shallow-idle-test.c a line of
    code changed must change only the series with TESTS. An empty list:
    none."""
    patches, bad = series_patches(), []
    code_f, test_f = b"block/blk-shallow-idle.c", b"block/blk-shallow-idle-test.c"

    def section(f, new=True):
        """(patch index, start, end) of the diff of F (a new file, or one
        the series modifies) in the first patch that has it."""
        for i, p in enumerate(patches):
            m = re.search(rb"\ndiff --git a/%s b/%s\n%s" % (re.escape(f), re.escape(f), b"new file mode" if new
                                                            else b"index "), p)
            if m:
                nxt = p.find(b"\ndiff --git ", m.end())
                return i, m.start(), nxt if nxt >= 0 else p.find(b"\n-- \n", m.end())
        return None

    def planted(f, old, new, hunk=0, new_file=True):
        """The patches with OLD replaced by NEW once in F's section; with
        HUNK, that many lines added: the hunk they are in counted longer
        and the hunks after it starting later. None if not found."""
        where = section(f, new_file)
        if where is None:
            return None
        i, a, b = where
        part = patches[i][a:b]
        m = re.search(old, part)
        if not m:
            return None
        part = part[:m.start()] + m.expand(new) + part[m.end():]
        if hunk:
            heads = list(re.finditer(rb"\n@@ -(\d+),(\d+) \+(\d+),(\d+) @@", part))
            k = max(j for j, h in enumerate(heads) if h.start() < m.start())
            for j in reversed(range(k, len(heads))):
                h = heads[j]
                start, count = int(h.group(3)) + (hunk if j > k else 0), int(h.group(4)) + (hunk if j == k else 0)
                part = part[:h.start(3)] + b"%d,%d" % (start, count) + part[h.end(4):]
        p = list(patches)
        p[i] = patches[i][:a] + part + patches[i][b:]
        return p

    base, base_t = patch_code(patches), patch_code(patches, True)
    code_line = rb"(\n\+\t[a-z][^\n/\"]*;)\n"
    cases = (("a comment line", planted(code_f, rb"\n\+ \* ", b"\n+ * Planted words.\n+ * ", 1), False, False),
             ("a comment line in a modified file, later hunks moved",
              planted(b"block/blk-mq.c", rb"(\n\+#include [^\n]*)\n", rb"\1\n+/* Planted words. */\n", 1, False),
              False, False),
             ("a blank doubled in a string", planted(code_f, rb'(\n\+\t[^\n*/"]*"[^\n"]*?) ', rb"\1  "), True, True),
             ("a comment after code", planted(code_f, code_line, rb"\1 /* planted */\n"), False, False),
             ("a // comment after code", planted(code_f, code_line, rb"\1 // planted\n"), False, False),
             ("a changelog-only change", [re.sub(rb"\n\n", b"\n\nPlanted words.\n\n", patches[0], count=1)]
              + patches[1:], False, False),
             ("a changed line of code", planted(code_f, code_line, rb"\1;\n"), True, True),
             ("a changed string", planted(code_f, rb'(\n\+\t[^\n*/"]*")([a-z])', rb"\1X\2"), True, True),
             ("a changed KUnit line", planted(test_f, code_line, rb"\1;\n"), False, True))
    for what, p, code, test in cases:
        if p is None or p == patches:
            bad.append("%s could not be planted" % what)
        elif (patch_code(p) != base) != code or (patch_code(p, True) != base_t) != test:
            bad.append("%s %s the measured series" % (what, "leaves" if code or test else "changes"))
    return bad


def is_commit(c):
    return bool(c) and git("cat-file", "-e", c + "^{commit}")[0] == 0


def series_of(run):
    """The repository commit whose series the run.txt RUN measured: "kernel=...
    commit HASH ...", else commit= when it names no kernel; else ""."""
    kernel = key(run, "kernel")
    m = re.search(r"commit ([0-9a-f]{7,})", kernel)
    return m.group(1) if m else "" if kernel else key(run, "commit")


def stale(*runs, tests=False):
    """A "Stale" line and a blank one when a run.txt in RUNS measured another
    series than this tree's (series_diffs differ; with TESTS, the series'
    tests included) or names no repository commit."""
    old = []
    for run in runs:
        c = series_of(run)
        if not is_commit(c):
            old.append(rel(run) + ": names no repository commit")
        elif series_diffs(c, tests) != series_diffs(None, tests):
            old.append("%s: the series as of %s" % (rel(run), c))
    return ["**Stale:** measured on an older series than the one in patches/%s (%s); the series has changed "
            "since." % (" (tests included)" if tests else "", "; ".join(old)), ""] if old else []


def mu_problems():
    """Why the mutant tables are not of this tree's series, or which mutants
    of tools/mutants/ neither holds."""
    out = []
    for d in (D["mutants"], D["mutants-by-hand"]):
        c = series_of(os.path.join(d, "run.txt"))
        if not is_commit(c):
            out.append(rel(d) + "/run.txt names no repository commit")
        elif series_diffs(c, True) != series_diffs(None, True):
            out.append("%s ran on the series as of %s; the series (tests included) has changed since" % (rel(d), c))
    names = {col(r, 1) for n in ("mutants", "mutants-by-hand") for r in table(D[n], "table.tsv")}
    return out + ["mutant %s is in no table" % n for n in (os.path.basename(p)[:-len(".patch")] for p in sorted(
        glob.glob(at("tools/mutants/[0-9][0-9]-*.patch")))) if n not in names]


def newest_run(base, need_file=None):
    """The run folder under BASE (with NEED_FILE) whose run.txt names the newest
    repository commit by commit time (folder names sort by date only), or ""."""
    runs = []
    for d in subdirs(base):
        if not need_file or nonempty(os.path.join(d, need_file)):
            rc, out = git("log", "-1", "--format=%ct", key(os.path.join(d, "run.txt"), "commit"))
            ct = out.decode().strip() if rc == 0 else "0"
            runs.append((num(ct), "%s %s" % (ct, d), d))
    return max(runs)[2] if runs else ""


# ---- the blocks: each returns its page lines, its cover letter lines or both ---

def think_sweep():
    """Per think time and governor of data/think-sweep's v2 runs: QoS updates
    and misses per I/O (v1, v2), p50 auto/off (v1, v2), p50 off and auto (v2),
    timer interrupts off (v2) and auto (v1, v2); and the number of rows."""
    s = {}
    for v in ("v1", "v2"):
        with open(os.path.join(D["think-sweep"], v, "summary.json")) as f:
            s[v] = json.load(f)

    def first(items, **want):
        return next((x for x in items if all(x.get(k) == v for k, v in want.items())), {})

    def med(v, g, w, c, k):
        return (first(s[v]["cells"], governor=g, workload=w, config=c).get(k) or {}).get("median")

    def ratio(v, g, w):
        return (first(s[v]["ratios"], governor=g, workload=w, num="auto", den="off",
                      metric="p50_us").get("ratio") or {}).get("median")

    def text_of(x):  # the number as JSON writes it, "-" for none
        return "-" if x is None else x if isinstance(x, str) else json.dumps(x)

    rows = []
    for w in s["v2"]["workloads"]:
        for g in (g for g in s["v2"]["governors"] if g != "-"):
            v = [med("v1", g, w, "auto", "qos_per_io"), med("v2", g, w, "auto", "qos_per_io"),
                 med("v1", g, w, "auto", "misses_per_io"), med("v2", g, w, "auto", "misses_per_io"),
                 ratio("v1", g, w), ratio("v2", g, w),
                 med("v2", g, w, "off", "p50_us"), med("v2", g, w, "auto", "p50_us"),
                 med("v2", g, w, "off", "timer_irq_per_cpu_s"), med("v1", g, w, "auto", "timer_irq_per_cpu_s"),
                 med("v2", g, w, "auto", "timer_irq_per_cpu_s")]
            think = "0" if w == "qd1" else w[len("qd1-think"):] if w.startswith("qd1-think") else w
            rows.append((think, g) + tuple(dec_f(f, text_of(x)) for x, f in zip(
                v, ("%.3f",) * 4 + ("%.2f",) * 2 + ("%.0f",) * 5)))
    if not rows:
        raise Fail("no rows from data/think-sweep")
    md = marked("think-sweep", text("""\
Think-time sweep, fio QD1 4 KiB random reads on virtio-blk (2 hardware
queues), emulated Sapphire Rapids table, 3 repetitions x 4 s, median.
Platform: {v2[platform]}.
Command: `{v2[command]}`, once with the
v1 kernel ({v1[kernel]}, {v1[date]})
and once with v2 ({v2[kernel]}, {v2[date]});
data in `data/think-sweep/`, table by `{SELF}`.
Host load during the runs: v1: {v1[note]};
v2: {v2[note]}. The latency columns
are dominated by that noise; the counts (QoS updates, misses, timer
interrupts) are not.

| think time | governor | QoS updates / I/O v1 | v2 | misses / I/O v1 | v2 | p50 auto/off v1 | v2 | p50 us off / auto (v2) | timer IRQ/s per CPU off / auto v1 / auto v2 |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|""", **{v: run_txt(os.path.join(D["think-sweep"], v)) for v in s})
        + ["| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s / %s / %s |" % r for r in rows])
    return len(rows), md, text("""\
  think time: ms of think time after each completion; QoS: PM QoS
  updates per I/O with auto; misses: requests issued while not raised,
  per I/O; p50: auto/off (paired per repetition), then off / auto in us
  (v2); timer: local timer interrupts per CPU and second, off / auto v1
  / auto v2. Other QEMU guests shared the 2-core host during both
  runs (load average 3 to 6): the latency columns are dominated by
  that noise, the counts are not.

  think   gov   QoS/IO v1   v2   misses v1   v2   p50 v1    v2   off auto   timer off v1 v2""") + [
        "  %-7s %-4s %6s %6s   %6s %6s   %5s %5s   %4s %4s   %4s %4s %4s" % r for r in rows] + [
        generated("data/think-sweep/")]


def raise_cost():
    """Per CPU count of the hctx, the raise and the relax of v2 and of v1."""
    v2, v1 = table(D["raise-cost"], "summary.tsv"), table(D["raise-cost-v1"], "summary.tsv")

    def cell(t, c, k):
        return "".join("%s (%s - %s)" % (col(r, 4), col(r, 5), col(r, 6)) for r in t
                       if col(r, 1) == c and col(r, 2) == k) or "-"

    cpus = {}
    for r in v2[1:]:
        cpus.setdefault(num(r[0]), r[0])  # sort -un
    rows = [(c, cell(v2, c, "raise"), cell(v2, c, "relax"), cell(v1, c, "raise"), cell(v1, c, "relax"))
            for _, c in sorted(cpus.items())]
    md = marked("raise-cost", stale(at("data/raise-cost/run.txt"), at("data/raise-cost-v1/run.txt")) + text("""\
Time of one raise and one relax of an hctx (the work item's run, from
the workqueue trace events), by CPUs in the hctx mask; 10 busy periods
each, median (min - max) in us. The relax includes one RCU grace period
(the issue/relax handshake of v2), during which the kworker sleeps.
Platform: {rc[platform]}; {rc[note]}.
v2: `{rc[command]}` ({rc[kernel]}, {rc[date]});
data in `data/raise-cost/`. v1: `{v1[command]}`
({v1[kernel]}, {v1[date]}; {v1[note]});
data in `data/raise-cost-v1/`.

| CPUs | raise v2 | relax v2 | raise v1 | relax v1 |
|---:|---:|---:|---:|---:|""", rc=run_txt(D["raise-cost"]), v1=run_txt(D["raise-cost-v1"]))
        + [md_row(r) for r in rows])
    return md, text("""\
  CPUs of the hctx: work item run that raised / relaxed, median
  (min - max) in us over 10 busy periods, v2 and v1; v2's relax
  includes an RCU grace period. QEMU/TCG, 8 vCPUs on 2 host cores.
""") + [x for c, r, x1, r1, x2 in rows for x in (
        "  %4s CPUs  v2 raise %-16s relax %s" % (c, r, x1),
        "  %4s       v1 raise %-16s relax %s" % ("", r1, x2))] + [generated("data/raise-cost/ and raise-cost-v1/")]


def test_time():
    """One row per committed cold run of the test command."""
    if not glob.glob(os.path.join(D["test-time"], "*", "run.txt")):
        raise Fail("no run in data/test-time")
    rows = ["| {r[date]} | {r[commit]} | {r[platform]} | `{r[command]}` | {r[result]} | {m:.1f} min | {t} |".format(
        r=run_txt(d), m=num(key(d + "run.txt", "wall_s")) / 60, t=pairs(d + "timings.tsv"))
        for d in subdirs(D["test-time"])]
    return marked("test-time", text("""\
Cold runs of the test command (a fresh clone on a new machine: no build
output, no downloaded packages); step times in seconds from the run's
`results/logs/timings.tsv`, data in `data/test-time/`.

| date | commit | platform | command | result | wall | step times (s) |
|---|---|---|---|---|---:|---|""") + rows)


def hook_cost():
    """Per layout and case, the median instructions per read, (min - max),
    the difference from "off" with the same I/O pattern, and that of the
    rq_qos variant; then "off" against the rq_qos variant's "off" (no hook on
    the issue path) in its two boots, whose difference bounds the comparison."""
    hq = D["hook-cost-rq-qos"]
    need(os.path.join(D["hook-cost"], "summary.tsv"), os.path.join(hq, "summary.tsv"),
         os.path.join(hq, "repeat", "summary.tsv"))
    hc, rq, rp = table(D["hook-cost"], "summary.tsv"), table(hq, "summary.tsv"), table(hq, "repeat", "summary.tsv")
    runs = min((col(r, 3) if len(r) > 1 else r[0] for r in hc[1:]), default="")
    rows = []
    for line in records(D["hook-cost"], "summary.tsv")[1:]:
        l, c, _, m, lo, hi, ra, mi, _, d, p = fields(line, 11)
        q = next((r for r in rq if col(r, 1) == l and col(r, 2) == c), [])
        rows.append((l, c, m, lo, hi, d, p, col(q, 10) or "-", col(q, 11) or "-", ra, mi))
    nohook = []
    for l in ("1q", "2q"):
        for c in ("off-stream", "off-sparse"):
            a, b, r = (where(t, 4, c1=l, c2=c) for t in (hc, rq, rp))
            if a and b and r:
                nohook.append((l, c, a, b, r, num(a) - (num(b) + num(r)) / 2, num(b) - num(r)))
    md = marked("hook-cost", stale(at("data/hook-cost/run.txt"), at("data/hook-cost-rq-qos/run.txt")) + text("""\
Cost of the issue hook in guest instructions per 4 KiB read, from fio's
mean read latency under QEMU -icount (1 guest ns = 1 instruction, so
the figures do not depend on the host or its load); 1q: one hctx
shared by both CPUs, 2q: one per CPU; stream: reads back to back (the
hctx stays raised), sparse: reads 20 ms apart (every read takes the
not-raised path); median (min - max) of {runs} runs, and the
difference of the median from "off" with the same pattern.
Platform: {h[platform]}.
Command: `{h[command]}` ({h[kernel]}, {h[date]});
data in `data/hook-cost/`. The rq_qos column: the same hook as an rq_qos
policy (`tools/variants/rq-qos.patch`: ->track() of a policy attached
while the attribute is not off), its median against the variant's own
"off"; `{q[command]}` ({q[date]}), data in
`data/hook-cost-rq-qos/`.

| hctxs | case | instructions per read | vs off | as rq_qos: vs off | raises | misses |
|---|---|---:|---:|---:|---:|---:|""", runs=runs, h=run_txt(D["hook-cost"]), q=run_txt(hq))
        + ["| %s | %s | %s (%s - %s) | %s (%s %%) | %s (%s %%) | %s | %s |" % r for r in rows] + text("""
No hook at all on the issue path (the rq_qos variant with the attribute
off, two boots) against the series with the attribute off,
instructions per read; two boots of one kernel differ by the last
column, which bounds what this comparison can resolve:

| hctxs | case | series, off | no hook, boot 1 / boot 2 | series minus no hook (mean) | boot 1 minus boot 2 |
|---|---|---:|---:|---:|---:|""") + ["| %s | %s | %s | %s / %s | %+.1f | %+.1f |" % r for r in nohook])
    return md, text("""\
  Hook cost: guest instructions per 4 KiB read (QEMU -icount, fio
  psync on null_blk completing inline), median (min - max) of {runs} runs,
  and the difference from off; 1q: one hctx for both CPUs, 2q: one
  per CPU; stream: back to back (raised), sparse: 20 ms apart; last
  column: the same hook as an rq_qos policy (->track()), against its
  own off.

                       median (min - max)     vs off        as rq_qos""", runs=runs) + [
        "  %-2s %-15s %6s (%s - %s) %6s %6s%% %6s %6s%%" % r[:9] for r in rows] + text("""
  No hook at all on the issue path (the rq_qos variant, off, two boots;
  "boots": how far two boots of one kernel differ):""") + [
        "  %-2s %-10s series %6s, no hook %6s / %6s: %s, boots %s" % (
            r[:5] + ("%+4.1f" % r[5], "%+.1f" % r[6])) for r in nohook] + [
        generated("data/hook-cost/")]


def hold_sweep():
    """Per think time, "off" once, then each hold period: PM QoS updates and
    misses per I/O, C6 share of idle time, p50, timer interrupts."""
    path = os.path.join(D["hold-sweep"], "sweep.tsv")
    need(path)
    if not data_lines(path):
        raise Fail("no rows in data/hold-sweep/sweep.tsv")
    lines = sorted(records(path)[1:])  # sort -k2,2n -k3,3r -k1,1n, then by the line
    for k, n, rev in ((1, True, False), (3, False, True), (2, True, False)):
        lines.sort(key=lambda x, k=k, n=n: num(col(x.split("\t"), k)) if n else col(x.split("\t"), k), reverse=rev)
    rows = []
    for line in lines:
        h, t, c, _, q, m, d, p50, _, tim = fields(line, 10)
        # HZ=250: the work item runs every msecs_to_jiffies(h) + 1 jiffies.
        h, win = ("off", "-") if c == "off" else (h, "%s-%d" % (h, ((int(h) + 3) // 4 + 1) * 4))
        rows.append((t, h, win, dec_f("%.3f", q), dec_f("%.3f", m), dec_f("%.2f", d), dec_f("%.0f", p50),
                     dec_f("%.0f", tim)))
    hs = run_txt(D["hold-sweep"])
    md = marked("hold-sweep", stale(at("data/hold-sweep/run.txt")) + text("""\
The hold period against think time: fio QD1 4 KiB random reads on
virtio-blk (one queue per vCPU), menu, "auto" with the hold period set
at build time (`BLK_SHALLOW_IDLE_HOLD_MS`; with HZ=250 the hold lasts
from H to the window's end), "off" once; medians of
{reps} runs of 4 s. C6 share: C6 residency over idle time, all CPUs.
Platform: {hs[platform]}.
Command: `{hs[command]}` ({hs[kernel]}, {hs[date]});
data in `data/hold-sweep/`. Host during the 8 ms run: {host}.

| think (ms) | hold (ms) | hold window (ms) | QoS updates / I/O | misses / I/O | C6 share | p50 us | timer IRQ/s per CPU |
|---:|---:|---:|---:|---:|---:|---:|---:|""", hs=hs, host=re.sub(r"\.$", "", hs["host_hold_8"]), reps="\n".join(
        m.group(1) for m in (re.match(r".*--reps ([0-9]*)", x) for x in hs["command"].split("\n")) if m))
        + [md_row(r) for r in rows])
    return md, text("""\
  Hold period: BLK_SHALLOW_IDLE_HOLD_MS set at build time (HZ=250:
  the hold lasts from H to the window's end), menu, QD1 4 KiB reads
  with think time; QoS updates and misses per I/O, C6 share of idle
  time, p50 in us, local timer interrupts per CPU and second.

  think  hold  window   QoS/IO  miss/IO    C6    p50  timer""") + [
        "  %5s  %4s  %6s   %6s  %6s  %5s  %5s  %4s" % r for r in rows] + [generated("data/hold-sweep/")]


def isolation():
    """Per run, threads and workload, p50 and p99 of off, auto and C6
    disabled, and auto over C6 disabled."""
    files = sorted(glob.glob(os.path.join(D["isolation"], "run-*", "isolation.tsv")))
    if not files:
        raise Fail("no run in data/isolation")
    for f in files:
        if data_lines(f) != 12:
            raise Fail(rel(f) + " has not 12 cells")
    rows, runs = [], []
    for d in subdirs(D["isolation"], "run-*"):
        name, t, r = os.path.basename(d[:-1]), table(d, "isolation.tsv"), run_txt(d)
        runs += text("""\
{name}: `{r[command]}` ({r[kernel]}, {r[date]}, {n} runs per cell);
threads: {r[pinning]}; host: {host}.""", name=name, r=r, n=col((t + [[]] * 2)[1], 4),
                     host=re.sub(r"\.$", "", r["host_isolated"]))
        for p in ("shared", "isolated"):
            for w in ("qd1-cpu0", "qd1-cpu0-spin1"):
                a = {}
                for x in t:
                    if col(x, 1) == p and col(x, 2) == w:
                        a[col(x, 3) + "50"], a[col(x, 3) + "99"] = num(col(x, 5)), num(col(x, 6))
                v = [a.get(k, 0.0) for k in ("off50", "auto50", "c6off50", "off99", "auto99", "c6off99")]
                rows.append((name, p, w) + tuple("%.0f" % x for x in v) + ("%.2f" % (v[1] / v[2]), "%.2f" % (v[4] / v[5])))
    md = marked("isolation", stale(*sorted(glob.glob(os.path.join(D["isolation"], "run-*", "run.txt")))) + text("""\
Does one vCPU's emulated C-state exit slow the other? fio QD1 4 KiB
random reads pinned to CPU 0, alone (qd1-cpu0) and with a CPU eater
on vCPU 1 spinning in 290 us chunks (qd1-cpu0-spin1); menu; medians
of 4-s runs. Shared: QEMU's threads placed by the host scheduler
(`bench.sh --shared`); isolated: the benchmark's default
(`guest.sh --isolate`: vCPU i on host CPU i, the virtio-blk I/O
thread and the main loop on vCPU 1's CPU, the I/O thread at SCHED_FIFO).
The same experiment twice, to show how far two runs differ; data in
`data/isolation/`.""") + runs + text("""\
Platform: {r[platform]}.

| run | threads | workload | p50 us off / auto / C6 off | p99 us off / auto / C6 off | p50 auto / C6 off | p99 auto / C6 off |
|---|---|---|---:|---:|---:|---:|""", r=run_txt(os.path.join(D["isolation"], "run-1")))
        + ["| %s | %s | %s | %s / %s / %s | %s / %s / %s | %s | %s |" % r for r in rows])
    return md, text("""\
  Isolation: fio QD1 pinned to CPU 0, alone and with a CPU eater on
  vCPU 1 (290 us chunks), menu; QEMU threads shared (host scheduler)
  or isolated (vCPU i on host CPU i, virtio-blk I/O thread at
  SCHED_FIFO on vCPU 1's CPU); the same experiment twice (run); p50
  and p99 in us, off / auto / C6 disabled, then auto over C6 off.

                                 p50              p99        auto/C6off""") + [
        "  %-5s %-8s %-14s %4s %4s %4s  %5s %5s %5s  %4s %4s" % ((r[0][4:] if r[0].startswith("run-") else r[0],)
                                                               + r[1:]) for r in rows] + [generated("data/isolation/")]


def curve_configs(r):
    """The configurations of a think-curve record, from its command's
    --configs (the records before that option: off, auto, C6 disabled)."""
    m = re.search(r"--configs (\S+)", r["command"])
    names = dict(CONFIG_NAMES, off="shallow_idle off")
    return " / ".join(names.get(c, c) for c in (m.group(1) if m else "off,auto,c6off").split(","))


def think_curve(name):
    """The think-time curve of data/NAME (data/think-curve: QEMU/TCG and
    virtio-blk; the others: the deterministic platform)."""
    d = D[name]
    r = run_txt(d)
    return marked(name, stale(os.path.join(d, "run.txt")) + text("""\
Think-time curve: fio QD1 4 KiB random reads, {configs},
menu and teo, emulated {r[table]} table; ratios of the
medians over the repetitions of the command.
Platform: {r[platform]}.
Command: `{r[command]}` (commit {r[commit]},
{r[date]}, {r[wall_s]} s); data in `{rel}/`,
table by `{SELF}` (`scripts/bench/think-curve.sh --md`).
""", r=r, rel=rel(d), configs=curve_configs(r)) + program(
        rel(d), think_curve_main, "--md", os.path.join(d, "bench", "summary.json"))
        + ["", "![think-time curve](%s/curve.png)" % rel(d)])


def think_curve_icount(name):
    """think_curve on the deterministic platform, with the modeled energy of
    the same runs."""
    d = D[name]
    need(*(os.path.join(d, f) for f in ("bench/summary.json", "bench/cells.json", "bench/guest-cstates/info.json",
                                        "run.txt", "curve.png")), err=True)
    try:
        tc = think_curve(name)
    except Fail as e:
        raise Fail(e.args[0], True) from e
    model = program("report.py energy failed on %s/bench" % rel(d), energy_main,
                    "--no-write", os.path.join(d, "bench"), err=True)
    return tc[:-1] + ["", "Modeled energy of the same runs (`scripts/report/report.py energy`, parameters and sources "
                      "in `data/energy-model/params.tsv`):"] + model[1:] + tc[-1:]


def mixed_think():
    """Two jobs with different think times at once, with a hardware queue
    per CPU and with one for both (report.py bench --jobs)."""
    d = D["mixed-think"]
    need(*(os.path.join(d, f) for f in ("run.txt", "per-cpu/summary.json", "one-queue/summary.json")))
    return marked("mixed-think", stale(os.path.join(d, "run.txt")) + text("""Platform: {r[platform]}.
Command: `{r[command]}` ({r[kernel]}, {r[date]}, {r[wall_s]} s);
data in `data/mixed-think/` (each boot's `bench.md` and the modeled
energy, `energy.md`, beside it), tables by `scripts/report/report.py bench --jobs`.
""", r=run_txt(d)) + program("report.py bench --jobs failed on data/mixed-think", bench_main,
                             "--jobs", os.path.join(d, "per-cpu"), os.path.join(d, "one-queue")))


def fsync_dirs():
    """The folders of data/fsync, one per device latency (<LATENCY>us), by
    latency."""
    d = D["fsync"]
    dirs = sorted((e for e in map(os.path.normpath, subdirs(d)) if re.fullmatch(r"[0-9]+us", os.path.basename(e))),
                  key=lambda e: int(os.path.basename(e)[:-2]))
    if not dirs:
        raise Fail("data/fsync has no <LATENCY>us folder")
    return dirs


def fsync():
    """fsync() after every append on ext4, per device latency (report.py
    bench --fsync)."""
    d = D["fsync"]
    dirs = fsync_dirs()
    need(os.path.join(d, "run.txt"), *(os.path.join(x, f) for x in dirs for f in ("summary.json", "cells.json")))
    return marked("fsync", stale(os.path.join(d, "run.txt")) + text("""Platform: {r[platform]}.
Command: `{r[command]}` ({r[kernel]}, {r[date]}, {r[wall_s]} s);
data in `data/fsync/` (per device latency, the `bench.md` of the boot and
the modeled energy, `energy.md`), tables by `scripts/report/report.py bench --fsync`.
""", r=run_txt(d)) + program("report.py bench --fsync failed on data/fsync", bench_main, "--fsync", *dirs))


def icount_repro():
    """The reproducibility of the deterministic platform."""
    d = D["icount-repro"]
    need(os.path.join(d, "repro.tsv"), os.path.join(d, "run.txt"))
    if data_lines(d, "repro.tsv") != 9:
        raise Fail("data/icount-repro/repro.tsv has not 9 cells")
    rows = table(d, "repro.tsv")[1:]
    configs = list(dict.fromkeys(col(r, 2) for r in rows))
    spread = []
    for k, name in zip(range(4, 8), ("p50", "p99", "p99.9", "IOPS")):
        v = [[num(col(r, k)) for r in rows if col(r, 2) == c] for c in configs]
        spread.append(" %s %.1f %%" % (name, max([0.0] + [(max(x) - min(x)) / min(x) for x in v]) * 100))
    return marked("icount-repro", stale(os.path.join(d, "run.txt")) + text("""\
Is the deterministic platform deterministic? The same three cells
(fio QD1 4 KiB reads on CPUs 0-1, menu; off, auto, C6 disabled) run three
times, each in its own boot: twice on a quiet host (a, b) and once with
{r[eaters]} (eater): the host is loaded,
the guest clock does not see it. fio's latency buckets are 0.5 us wide
between 32 and 64 us: 34.0 and 34.6 are neighbouring buckets.
Command: `{r[command]}` ({r[kernel]}, {r[date]});
data in `data/icount-repro/`. Platform: {r[platform]}.
Wall time per run (host seconds): a {r[wall_a]}, b {r[wall_b]}, eater {r[wall_eater]}.

| config | run | I/Os | p50 us | p99 us | p99.9 us | IOPS | deep wakes / I/O | controller ns / I/O |
|---|---|---:|---:|---:|---:|---:|---:|---:|""", r=run_txt(d)) + [
        "| %s | %s | %d | %.1f | %.1f | %.1f | %.0f | %s | %.0f |" % (
            col(r, 2), col(r, 1), int(num(col(r, 3))), num(col(r, 4)), num(col(r, 5)), num(col(r, 6)),
            num(col(r, 7)), "0" if num(col(r, 8)) == 0 else "%.2g" % num(col(r, 8)), num(col(r, 9)))
        for c in configs for r in rows if col(r, 2) == c] + [
        "", "Largest spread between the three runs of one configuration, (max - min) / min:" + ",".join(spread) + "."])


def scale():
    """v2 against v3 at scale (report.py scale) and at the think times
    (report.py v2v3), the cover letter without the v3 draft and the
    repeat. Only the v3 runs can be stale: v2 and the draft are older series."""
    need(*(os.path.join(D[n], f) for n in ("scale", "scale-v2", "scale-v3-draft", "scale-repeat")
           for f in ("rounds.tsv", "rates.tsv", "run.txt")),
         *(os.path.join(D["v2v3-think"], f) for f in ("v2/summary.json", "v3/summary.json", "run.txt")),
         *(os.path.join(D["v2v3-think-draft"], f) for f in ("v3/summary.json", "run.txt")))
    two = program("data/scale or data/scale-v2", scale_main, D["scale-v2"], D["scale"])
    four = program("data/scale-v3-draft", scale_main, *(D[n] for n in (
        "scale-v2", "scale-v3-draft", "scale", "scale-repeat")))
    think = program("data/v2v3-think", v2v3_main, D["v2v3-think"])
    think_draft = program("data/v2v3-think-draft", v2v3_main, D["v2v3-think"], D["v2v3-think-draft"])
    runs = [at("data/scale/run.txt"), at("data/v2v3-think/run.txt")]
    md = marked("scale", stale(*runs) + text("""\
v2 against v3 on the deterministic platform with 8 vCPUs: {sc[platform]}.
The second column is the first v3 draft, whose relax counted whole hold periods and then waited for an RCU grace period.
The last column is the v3 kernel of the column before it, the same binary booted again (`{rp[command]}`, {rp[date]}, data in `data/scale-repeat/`): how far two boots differ on this platform.
Commands: `{v2[command]}` ({v2[kernel]}, {v2[date]}, {v2[wall_s]} s),
`{dr[command]}` ({dr[kernel]}, {dr[date]}, {dr[wall_s]} s) and
`{sc[command]}` ({sc[kernel]}, {sc[date]}, {sc[wall_s]} s);
data in `data/scale-v2/`, `data/scale-v3-draft/` and `data/scale/`, table by `scripts/bench/scale.sh --report`. A stream is 300 ms of QD1 reads;
the median over {n} streams, [min-max].
""", n=sum(col(r, 1) == "1q-1job" for r in table(D["scale"], "rounds.tsv")),
        **{k: run_txt(D[n]) for k, n in (("sc", "scale"), ("v2", "scale-v2"), ("dr", "scale-v3-draft"),
                                          ("rp", "scale-repeat"))}) + four + text("""
At the think times of the curve ({vt[platform]}):
`{vt[command]}` (v3: {vt[kernel]}; v2: {vt[kernel_v2]};
{vt[date]}, {vt[wall_s]} s); data in `data/v2v3-think/`; the v3 draft column from `data/v2v3-think-draft/`
({vd[kernel]}, {vd[date]}); table by `scripts/bench/v2v3-think.sh --md`.
""", vt=run_txt(D["v2v3-think"]), vd=run_txt(D["v2v3-think-draft"])) + think_draft)

    def cells(line):  # awk -F' *\\| *'
        return re.split(r" *\| *", line) + [""] * 6

    wakes = {}
    for c in map(cells, think[2:]):
        acc = wakes.setdefault(c[1], ["", "", ""])
        for i, v in enumerate(c[3:6]):
            acc[i] += (" / " if acc[i] else "") + v
    txt = ["  v2 against v3 at scale (QEMU -icount, 8 vCPUs, emu_blk at 20 us;", "  v2 | v3):"]
    txt += [x for line in two[2:] for x in fold("  - %s: %s | %s" % tuple(cells(line)[1:4]), 72, "      ")]
    txt += ["  completions woken from C6 per I/O, QD1 (3 vCPUs), think", "  0 / 1 / 5 / 20 ms:"]
    txt += [x for g, (off, a2, a3) in wakes.items()
            for x in fold("  - %s: off %s; v2 auto %s; v3 auto %s" % (g, off, a2, a3), 72, "      ")]
    stale_lines = [s.replace("**", "").replace(" than the one in patches/", "", 1) for s in stale(*runs) if s]
    return md, txt + ["  " + x for s in stale_lines for x in fold(s, 70)] + [
        generated("data/scale-v2/, data/scale/ and data/v2v3-think/")]


def main_time():
    """The main job's cold runs: data/main-time/*/ (timings.tsv of
    scripts/main.sh, run.txt)."""
    if not glob.glob(os.path.join(D["main-time"], "*", "timings.tsv")):
        raise Fail("no run in data/main-time")
    return marked("main-time", [x for d in subdirs(D["main-time"]) for x in text("""\
`{r[command]}`, cold ({r[platform]}),
commit {r[commit]}, {r[date]}: {total} min
({steps} s).""", r=run_txt(d), steps=pairs(d + "timings.tsv", skip=("total",)), total="".join(
        "%.1f" % (num(col(x, 2)) / 60) for x in table(d, "timings.tsv") if col(x, 1) == "total"))])


def state_tables():
    """Review point 10 of v2: the "auto" limit per state table, flag rule
    against table rule."""
    if data_lines(D["state-tables"], "tables.tsv") <= 20:
        raise Fail("data/state-tables/tables.tsv missing or short")
    rows = table(D["state-tables"], "tables.tsv")[1:]
    return text("""\
  State tables: the "auto" limit in us on every intel_idle table of
  the 7.3 tree and on ACPI _CST tables from public dumps, by v2's rule
  (CPUIDLE_FLAG_SHALLOW on the MWAIT C1 class and ACPI C1), by v3's
  (the leading states that flush no TLB and exit in at most 15 us), and
  with "below 15 us" instead; then the states (exit us, /TLB).

  table                   flag    v3   <15  states""") + [
        "  %-22s %5s %5s %5s  %s" % (col(r, 1), col(r, 4), col(r, 6), col(r, 7), col(r, 2)) for r in rows] + text("""\
  ({n} tables, {differ} where v2 and v3 differ;
  {r[command]}, {r[date]};
  generated by {SELF} from data/state-tables/)""", n=len(rows), differ=sum(col(r, 8) != "yes" for r in rows),
                                                 r=run_txt(D["state-tables"]))


def mutants():
    """Every mutant with what killed it: data/mutants, then the by-hand runs
    of data/mutants-by-hand; in the cover letter, the counts."""
    for n in ("mutants", "mutants-by-hand"):
        if not all(nonempty(os.path.join(D[n], f)) for f in ("table.tsv", "run.txt")):
            raise Fail("data/%s/table.tsv or run.txt missing" % n)

    def mu_what(name):  # the bug, the first clause of the mutant's description line
        s = (records(at("tools/mutants", name + ".patch")) + [""])[0]
        for pattern, to in ((r"^Mutant[^:]*: ", ""), (r"([.;,]) .*", r"\1"), (r"[.;,]$", ""), (r" \([^)]*$", "")):
            s = re.sub(pattern, to, s, count=1)
        return s

    def cut(s, n):  # cut -c1-N: the first N bytes
        return s.encode("utf-8", "surrogateescape")[:n].decode("utf-8", "surrogateescape")

    lines = records(D["mutants"], "table.tsv")
    rows, by = [], {}
    for f in (x.split("\t") for x in lines[1:]):
        name, status, killer, det = (f + [""] * 3)[:4]
        if name != "00-control":
            rows.append(md_row([name, mu_what(name) or "-", killer if status == "killed" else status.upper(),
                                cut(det or "-", 140).replace("|", "\\|") + (" ..." if len(det) > 140 else ""), f[-1]]))
    hand = []
    for line in records(D["mutants-by-hand"], "table.tsv")[1:]:
        name, _, command, killer, det = fields(line, 5)
        hand.append("| %s | %s | `%s` | %s | %s |" % (
            name, mu_what(name), command, killer, cut(det, 160).replace("|", "\\|")))
    t = [x.split("\t") for x in lines]
    muts = [r for r in t[1:] if col(r, 1) != "00-control"]
    for r in muts:
        what = "by " + col(r, 3) if col(r, 2) == "killed" else col(r, 2)
        by[what] = by.get(what, 0) + 1
    mu, killed = run_txt(D["mutants"]), sum(col(r, 2) == "killed" for r in muts)
    md = marked("mutants", text("""\
`{mu[command]}` on {mu[kernel]}, {mu[date]};
{mu[platform]}; tests: {mu[tests]}.""", mu=mu) + (["Note: %s." % mu["note"]] if mu["note"] else []) + text("""\
Control (the unmutated series): {control}.
{killed} of {n} mutants killed, {seconds} s in all (control included); data in `data/mutants/`.

| mutant | the bug | killed by | first failure | time (s) |
|---|---|---|---|---:|""", control="\n".join("%s, %s s" % (col(r, 2), r[-1]) for r in t if col(r, 1) == "00-control"),
        killed=killed, n=len(muts), seconds=awk_num(sum(num(r[-1]) for r in t[1:]))) + rows + text("""
The mutants that need the debug kernel, each built on the series and run by hand
({mh[command]}) on {mh[kernel]}, {mh[date]}; data in `data/mutants-by-hand/`:

| mutant | the bug | command | killed by | first failure |
|---|---|---|---|---|""", mh=run_txt(D["mutants-by-hand"])) + hand)
    return md, ["  Mutants: %d of %d killed on this series (%s)," % (killed, len(muts), mu["date"]),
                "  " + ",".join(sorted("%s %d" % x for x in by.items())).replace(",", ", "),
                generated("data/mutants/")]


def test_steps():
    """What each step of the test command asserts: its PASS lines in the
    newest cold run of data/test-time that recorded them (steps.tsv), and
    what one stands for, counted in this tree's sources."""
    src = records(at("block/blk-shallow-idle-test.c")) + records(at("drivers/cpuidle/latency_kunit.c"))
    cases = [x for x in src if re.match(r"[ \t\r\f\v]*KUNIT_CASE(_PARAM)?\(", x)]
    run = newest_run(D["test-time"], "steps.tsv")
    r = run_txt(run)
    return marked("test-steps", [
        ("PASS lines per step in the cold run of commit %s (%s, `%ssteps.tsv`), and what they assert (counted in this "
         "tree's sources by `%s`):" % (r["commit"], r["date"], rel(run), SELF)) if run else
        "What the PASS lines of each step assert (counted in this tree's sources by `%s`; no recorded cold run has "
        "per-step counts yet):" % SELF] + text("""
| step | PASS lines | what they assert |
|---|---:|---|
| lint | {st[lint]} | each rule over every harness script (paths: over every tracked text file); then the rules' self-test, one line per planted fault (each must be found) and per clean script (none may be) |
| series | {st[series]} | the copies equal what the series creates, and the check fails on each planted fault |
| figures | {st[figures]} | README.md, MEASUREMENTS.md, TESTING.md and the cover letter quote exactly what data/ gives; the mutant tables are of this series and miss no mutant |
| b4 | {st[b4]} | the mbox through `b4 am`: export, am, subjects and authors, tree; then one line per planted fault found or clean copy passed |
| mutants-apply | {st[mutants-apply]} | one per mutant and variant: it still applies to the series |
| checks | {st[checks]} | one each: the branch, checkpatch --strict, every patch built on its own, sparse and W=1, kernel-doc |
| kunit | {st[kunit]} | the suites: {cases} KUnit cases ({param} parameterized, one result per parameter at run time) with {sites} expectation and assertion sites (`KUNIT_EXPECT_*`, `KUNIT_ASSERT_*`, `KUNIT_FAIL`), every result ok, none skipped; and the kernel log without a report |
| platform | {st[platform]} | the platform self-test, every TAP case ok; and the kernel log |
| kselftest | {st[kselftest]} | one per table and governor (2 x 2): all {nks} cases of `shallow_idle.d/` ok, none skipped; the KUnit suites at boot; the kernel log of the run; kmemleak's two scans |
| torture | {st[torture]} | one per TAP check of the torture (each worker's errors, the values during the storms, fio, no hang, relaxed after the run, C6 used again, cleanup, kmemleak, trace balance) and the guest's exit; and the kernel log |""",
        st=Keys(lambda step: where(table(run, "steps.tsv"), 2, c1=step) if run else "?"), cases=len(cases),
        param=sum(bool(re.match(r"[ \t\r\f\v]*KUNIT_CASE_PARAM\(", x)) for x in cases),
        sites=sum(len(re.findall(r"KUNIT_(?:EXPECT|ASSERT)_[A-Z_]+|KUNIT_FAIL", x)) for x in src),
        nks=sum(bool(re.match(r"[0-9]{3}-", x)) for x in os.listdir(at("tools/testing/selftests/block/shallow_idle.d")))))


# The tests of the points of the review of v2 that must fail on v2's
# behaviour (issue 16), each with the mutant that brings that behaviour
# back into v3: (point, mutant, its own test: a KUnit case or a kselftest
# case file).
V2_POINTS = (("1", "16-relax-waits-dispatch", "blk_shallow_idle_blocking_test"),
             ("2", "15-expire-at-period-end", "blk_shallow_idle_relax_bound_late_test"),
             ("3", "21-issue-marks", "blk_shallow_idle_requeue_test"),
             ("3", "21-issue-marks", "021-stall"),
             ("4", "22-raise-whole-mask", "022-single-queue"),
             ("6", "20-store-freezes", "blk_shallow_idle_mode_no_freeze_test"),
             ("7", "28-relax-no-wake", "023-relax-wakes"),
             ("8", "17-limit-counts-disabled", "blk_shallow_idle_refresh_states_test"))


def v2_evidence():
    """TESTING.md's table: each review point's own test on the mutant that
    is v2's behaviour there, from the failure data/mutants recorded (when
    that test failed first) or from data/v2-evidence (the test run on its
    own by hand). A Fail when a test is shown failing nowhere."""
    d = D["v2-evidence"]
    need(os.path.join(d, "run.txt"), os.path.join(d, "table.tsv"))
    by_hand = {(col(r, 1), col(r, 2)): r for r in table(d, "table.tsv")[1:]}
    recorded = {col(r, 1): r for r in table(D["mutants"], "table.tsv")[1:]}
    cases = at("tools/testing/selftests/block/shallow_idle.d")
    out = []
    for point, mutant, test in V2_POINTS:
        if test.startswith("blk_"):
            what, needle = "KUnit `%s`" % test, "." + test + ":"
        else:
            desc = key(os.path.join(cases, test), "DESCRIPTION").strip('"')
            what, needle = "kselftest `%s` (%s)" % (test, desc), desc
        h, m = by_hand.get((mutant, test)), recorded.get(mutant)
        if h is not None and col(h, 3) == "failed" and needle in col(h, 4):
            src, fail = "by hand (`data/v2-evidence/`)", col(h, 4)
        elif m is not None and col(m, 2) == "killed" and needle in col(m, 4):
            src, fail = "the mutant run (`data/mutants/`)", col(m, 4)
        else:
            raise Fail("point %s: %s is shown failing on mutant %s neither in data/v2-evidence nor in data/mutants"
                       % (point, test, mutant))
        out.append(md_row([point, mutant, what, src, (fail[:160] + " ...") if len(fail) > 160 else fail]))
    return marked("v2-evidence", stale(os.path.join(d, "run.txt"), tests=True) + text("""Does each review point's own test fail on v2's behaviour? The mutant of
each row puts v2's behaviour (for point 2: the first v3 draft's, which
like v2 relaxes whole work periods late) back into this series; the test
must fail on it. Where the mutant run stopped at another case first, the
test was run on its own: {r[command]} ({r[kernel]}, {r[date]}).

| point | mutant | its test | shown failing by | first failure |
|---|---|---|---|---|""", r=run_txt(d)) + out)


def kunit_hz():
    """TESTING.md's line on the last KUnit run at HZ=1000 (data/kunit-hz1000),
    marked stale when it ran on another series, tests included."""
    run = os.path.join(D["kunit-hz1000"], "run.txt")
    need(run, os.path.join(D["kunit-hz1000"], "kunit.txt"))
    return marked("kunit-hz", stale(run, tests=True) + text("""Its last run: `{r[command]}` on {kernel}, {r[date]}; {r[result]}
(`data/kunit-hz1000/`: run.txt and kunit.py's output).""", r=run_txt(D["kunit-hz1000"]),
                                   kernel=run_txt(D["kunit-hz1000"])["kernel"].replace("`", "'")))


def summary():
    """README.md's "What it costs": report.py cost on the
    think-time curve of the deterministic platform (data/think-curve-icount)."""
    d = D["think-curve-icount"]
    return marked("summary", stale(os.path.join(d, "run.txt")) + program(
        "report.py cost failed on data/think-curve-icount", cost_main, d) + [
        "", "Command: `%s`; data in `data/think-curve-icount/`." % run_txt(d)["command"]])


def commands():
    """README.md's line on the newest recorded cold time of the two commands."""
    m, t = newest_run(D["main-time"]), newest_run(D["test-time"])
    return marked("commands", text("""\
Newest cold runs (a fresh clone, no build output) on a machine of this
project's kind (2 cores, 24 GiB): main job {main} min
(commit {m[commit]}, {m[date]}), tests {tests:.0f} min, {t[result]}
(commit {t[commit]}, {t[date]}); every run in [MEASUREMENTS.md](MEASUREMENTS.md) and [TESTING.md](TESTING.md).""",
        m=run_txt(m), t=run_txt(t), tests=num(run_txt(t)["wall_s"]) / 60, main="".join(
            "%.0f" % (num(col(x, 2)) / 60) for x in table(m, "timings.tsv") if col(x, 1) == "total")))


# ---- data/ and the run ------------------------------------------------------------

def find(pattern):
    """The paths under data/ whose names match PATTERN, sorted."""
    return sorted(os.path.join(root, n) for root, dirs, files in os.walk(at("data"))
                  for n in dirs + files if fnmatch.fnmatchcase(n, pattern))


def data_problems():
    """Where data/ breaks the layout of data/README.md: every run.txt has
    command=, platform=, date= (YYYY-MM-DD) and commit= (a repository commit
    or "unrecorded"); every .tsv starts (after "#" comments) with a header
    line of column names; no file names a host path (/work/, /tmp/, /root/,
    /home/)."""
    def host_paths(d):  # in the order grep -r finds them
        out = []
        for e in os.scandir(d):
            if e.is_dir(follow_symlinks=False):
                out += host_paths(e.path)
            elif e.is_file(follow_symlinks=False):
                with open(e.path, "rb") as f:
                    out += [e.path] if re.search(rb"/(work|tmp|root|home)/", f.read()) else []
        return out

    out = []
    for f in find("run.txt"):
        out += ["%s: no %s=" % (rel(f), k) for k in ("command", "platform", "date", "commit") if not key(f, k)]
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", key(f, "date")):
            out.append(rel(f) + ": date= is not YYYY-MM-DD")
        if not re.fullmatch(r"[0-9a-f]{7,40}|unrecorded", key(f, "commit")):
            out.append(rel(f) + ": commit= is neither a commit nor unrecorded")
    for f in find("*.tsv"):
        if not re.fullmatch(r"[a-z][a-z0-9_]*(\t[a-z][a-z0-9_]*)*",
                            next((x for x in records(f) if not x.startswith("#")), "")):
            out.append(rel(f) + ": no header line (column names) first")
    return out + [rel(f) + ": names a host path" for f in host_paths(at("data"))]


def generate():
    """Every block, after the checks of its data: ({name: page lines},
    {name: cover letter lines}, the figures of the PASS line)."""
    for p in (D["think-sweep"] + "/v1/summary.json", D["think-sweep"] + "/v2/summary.json",
              D["raise-cost"] + "/summary.tsv", D["raise-cost-v1"] + "/summary.tsv"):
        if not nonempty(p):
            print("error: figures: %s missing" % p, file=sys.stderr)
            sys.exit(1)
    md, txt = {}, {}
    nrows, md["think-sweep"], txt["think-sweep"] = think_sweep()
    md["raise-cost"], txt["raise-cost"] = raise_cost()
    md["test-time"] = test_time()
    md["hook-cost"], txt["hook-cost"] = hook_cost()
    md["hold-sweep"], txt["hold-sweep"] = hold_sweep()
    md["isolation"], txt["isolation"] = isolation()
    need(*(os.path.join(D["think-curve"], f) for f in ("bench/summary.json", "run.txt", "curve.png")))
    md["think-curve"] = think_curve("think-curve")
    for n in ("think-curve-icount", "think-curve-icount-80", "think-curve-icount-tail"):
        md[n] = think_curve_icount(n)
    md["mixed-think"] = mixed_think()
    md["fsync"] = fsync()
    md["icount-repro"] = icount_repro()
    md["scale"], txt["scale"] = scale()
    md["main-time"] = main_time()
    txt["state-tables"] = state_tables()
    md["mutants"], txt["mutants"] = mutants()
    md["test-steps"], md["summary"], md["commands"] = test_steps(), summary(), commands()
    md["kunit-hz"] = kunit_hz()
    md["v2-evidence"] = v2_evidence()
    counts = (("data/think-sweep", nrows, "rows"),
              ("data/raise-cost", len({r[0] for r in table(D["raise-cost"], "summary.tsv")[1:]}), "CPU counts"),
              ("data/test-time", len(subdirs(D["test-time"])), "runs"),
              ("data/hook-cost", data_lines(D["hook-cost"], "summary.tsv"), "cells"),
              ("data/hook-cost-rq-qos", data_lines(D["hook-cost-rq-qos"], "summary.tsv"), "cells"),
              ("data/hold-sweep", data_lines(D["hold-sweep"], "sweep.tsv"), "cells"),
              ("data/isolation", len(subdirs(D["isolation"], "run-*")), "runs"),
              ("data/think-curve", sum(bool(re.match(r"\| [0-9]", x)) for x in md["think-curve"]), "rows"),
              ("data/icount-repro", data_lines(D["icount-repro"], "repro.tsv"), "cells"),
              ("data/mixed-think", len([x for x in md["mixed-think"] if x.startswith("| per-cpu")
                                        or x.startswith("| one-queue")]), "rows"),
              ("data/fsync", sum(bool(re.match(r"\| [0-9]+ us \| [a-z]+ \| [a-z0-9]+ \| [0-9]", x))
                                 for x in md["fsync"]), "cells"),
              ("data/scale", data_lines(D["scale"], "rounds.tsv"), "rounds"),
              ("data/v2v3-think", 2, "runs"),
              ("data/main-time", len(subdirs(D["main-time"])), "runs"),
              ("data/state-tables", data_lines(D["state-tables"], "tables.tsv"), "tables"))
    return md, txt, counts


def place(md, txt):
    """The pages and the cover letter (lines by file) with the blocks in
    place, and the FAIL lines of the blocks that are not where they belong."""
    fails, docs = [], {}
    for p in PAGES:
        if not nonempty(at(p)):
            raise Fail(p + " missing")
        docs[p] = records(at(p))
    for name in PAGE_BLOCKS:
        begin, n = "<!-- figures %s begin -->" % name, 0
        for p in (p for p in PAGES if begin in docs[p]):
            new = replace(docs[p], "^%s$" % re.escape(begin), "^%s$" % re.escape(
                "<!-- figures %s end -->" % name), md[name])
            if new is None:
                fails.append("%s has no end to its figures %s block" % (p, name))
            else:
                docs[p], n = new, n + 1
        if n != 1:
            fails.append("the figures %s block is in %d of %s, not one" % (name, n, " ".join(PAGES)))
    docs[COVER] = records(at(COVER))
    for start, name, what in COVER_BLOCKS:
        new = replace(docs[COVER], start, COVER_END, txt[name])
        if new is None:
            fails.append("the cover letter has no " + what)
        else:
            docs[COVER] = new
    return docs, fails


def main(args):
    sys.stdout.reconfigure(line_buffering=True)  # FAIL lines in order with the notes on stderr
    try:
        return figures(args)
    except Fail as e:
        print("FAIL figures: %s" % e.args[0], file=sys.stderr if e.args[1:] and e.args[1] else sys.stdout)
        return 1


def figures(args):
    arg = args[0] if args else ""
    if arg not in ("", "--check"):
        sys.stderr.write(__doc__)
        return 2
    check = arg == "--check"
    md, txt, counts = generate()
    problems = (data_problems(), "data/ does not follow data/README.md"), (
        mu_problems(),
        "the mutant table is not of this series (scripts/tests/mutants.sh, then copy results/mutants/ to data/mutants/)"), (
        rule_problems(), "the rule that tells which series a run measured (series_diffs) fails its planted changes")
    docs, fails = place(md, txt)
    if fails:
        print("".join("FAIL figures: %s\n" % f for f in fails), end="")
        return 1
    nrun, ntsv = len(find("run.txt")), len(find("*.tsv"))
    bad = not (nrun and ntsv)
    if bad:
        print("FAIL figures: no run.txt or .tsv under data/")
    for lines, why in problems:
        if lines:
            print("FAIL figures: %s:\n%s" % (why, "".join("    %s\n" % x for x in lines)), end="")
            bad = bad or check
    if not check:
        for path in PAGES + (COVER,):
            with open(at(path), "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write("".join(x + "\n" for x in docs[path]))
        print("[%s] figures: README.md, MEASUREMENTS.md, TESTING.md and the cover letter updated from "
              "data/think-sweep, data/raise-cost, data/test-time, data/hook-cost, data/hook-cost-rq-qos, "
              "data/hold-sweep, data/isolation, data/think-curve, data/mixed-think, data/fsync, data/icount-repro, "
              "data/scale, "
              "data/scale-v2, "
              "data/scale-v3-draft, data/v2v3-think, data/v2v3-think-draft, data/main-time and data/state-tables"
              % time.strftime("%H:%M:%S"), file=sys.stderr)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in PAGES + (COVER,):
            new = os.path.join(tmp, "cover" if path == COVER else "page-" + path)
            with open(new, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write("".join(x + "\n" for x in docs[path]))
            out = subprocess.run(["diff", "-u", at(path), new], stdout=subprocess.PIPE, check=False).stdout
            if out:
                print("FAIL figures: %s does not quote what data/ gives (%s rewrites it):" % (path, SELF))
                print("".join(x + "\n" for x in lines_of(out.decode("utf-8", "surrogateescape"))[:40]), end="")
                bad = True
    if not bad:
        print("PASS figures (README.md, MEASUREMENTS.md, TESTING.md and the cover letter quote %s; data/ follows "
              "data/README.md: %d run.txt, %d .tsv)" % (", ".join("%s: %d %s" % c for c in counts), nrun, ntsv))
    return int(bad)


if __name__ == "__main__":
    sys.exit(not_a_program("figures"))
