# SPDX-License-Identifier: GPL-2.0
"""What several subcommands of scripts/report/report.py share: the top of
the repository, the error and usage exits, reading text, TSV, JSON and
run.txt files, writing a file through a temporary one, medians, numbers
as awk prints them, Markdown rows, and running a subcommand in this
process as if it were a program of its own.
"""
import contextlib
import io
import json
import math
import os
import sys
import traceback

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The benchmark's configurations (scripts/bench/bench.sh) as the text names them.
CONFIG_NAMES = {"off": "off", "auto": "auto", "c6off": "C6 disabled",
                "dmalat": "/dev/cpu_dma_latency", "poll": "idle=poll"}


# ---- exits ---------------------------------------------------------------------

def die(msg, status=1, prog="error"):
    """"PROG: MSG" on stderr, then exit with STATUS."""
    print("%s: %s" % (prog, msg), file=sys.stderr)
    sys.exit(status)


def usage(doc):
    """The usage of a subcommand (the first paragraph of its module's DOC)
    on stderr; returns the exit status of a usage error, 2."""
    print(doc.split("\n\n")[0], file=sys.stderr)
    return 2


def not_a_program(name):
    """What running a module of scripts/report/ directly does: it says to
    run scripts/report/report.py NAME instead; returns 2."""
    print("error: run scripts/report/report.py %s" % name, file=sys.stderr)
    return 2


def run(main, argv):
    """(exit status, stdout) of the subcommand MAIN run on ARGV in this
    process, as it would have exited as a program of its own: the message
    of sys.exit(MESSAGE) on stderr and status 1, an exception's traceback
    on stderr and status 1."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            status = main(argv)
    except SystemExit as e:
        status = e.code
        if status is not None and not isinstance(status, int):
            print(status, file=sys.stderr)
            status = 1
    except Exception:  # a program that failed so would have printed it
        traceback.print_exc()
        status = 1
    return status or 0, out.getvalue()


# ---- files ---------------------------------------------------------------------

def lines_of(s):
    """The lines of S as awk reads them (the last with or without its newline)."""
    return s[:-1].split("\n") if s.endswith("\n") else s.split("\n") if s else []


def read_lines(path):
    """The lines of the file PATH (OSError when it cannot be read)."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return lines_of(f.read())


def read_tsv(path):
    """The lines of the TSV file PATH split at every tab, its header first."""
    return [line.split("\t") for line in read_lines(path)]


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def key_values(lines, k):
    """The values of the lines "K=VALUE" of a run.txt's LINES, in order."""
    return [x[len(k) + 1:] for x in lines if x.startswith(k + "=")]


def write_atomic(p, data):
    """The bytes DATA into the file P, through a temporary file beside it."""
    tmp = os.path.join(os.path.dirname(p), ".%s.%d.tmp" % (os.path.basename(p), os.getpid()))
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, p)


# ---- numbers -------------------------------------------------------------------

def median(v):
    """The median of the sorted list V: its middle value or the mean of its
    two middle ones."""
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def spread(xs, fmt):
    """(median, min, max) of the numbers XS (at least one), each printed
    with FMT."""
    v = sorted(xs)
    return tuple(fmt % x for x in (median(v), v[0], v[-1]))


def awk_num(x):
    """The number X as awk prints it: a whole number as such, else %.6g."""
    return "%d" % x if math.isfinite(x) and x == int(x) else "%.6g" % x


def think_label(us):
    """A think time of US microseconds as the tables name it: 0, N us, N ms."""
    return "0" if us == 0 else ("%g ms" % (us / 1000) if us >= 1000 else "%d us" % us)


# ---- Markdown ------------------------------------------------------------------

def md_row(cells):
    """One Markdown table row of CELLS (each as %s prints it)."""
    return "| %s |" % " | ".join(map(str, cells))


def md_rule(aligns):
    """The line under a Markdown table header: per column of ALIGNS, l (left)
    or r (right)."""
    return "|" + "".join("---:|" if a == "r" else "---|" for a in aligns)
