#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py SUBCOMMAND [ARGUMENT...] - the analysis of this project's results.

Every table, page block and plot made from data/ and from the results of
scripts/bench/ is a subcommand of this one program, in the module of
scripts/report/ of its name (think-curve: think_curve.py), whose header
says what the subcommand takes and does; report.py SUBCOMMAND with wrong
arguments prints its usage line.

%s

Exit status: the subcommand's; 2 without a known subcommand. --help
prints this on stdout.
"""
import importlib
import sys

# Each subcommand (its module: the name with "_" for "-") and what it makes.
SUBCOMMANDS = (
    ("figures", "the figures of the pages and the cover letter, from data/"),
    ("bench", "the report of a bench.sh run; --jobs: the per-job table of runs; --fsync: the fsync() table"),
    ("tables", "TSV tables of five bench scripts: tables COMMAND DIR [NAME...]"),
    ("energy", "the modeled energy of a bench.sh run (a model, never measured)"),
    ("cost", "README.md's \"What it costs\" table, from a think-time curve"),
    ("think-curve", "the tables and the plot of a think-curve.sh run"),
    ("scale", "the table of scale.sh runs, side by side"),
    ("v2v3", "the table of a v2v3-think.sh run"),
    ("states", "the \"auto\" limit of every C-state table, by v2's rule and v3's"),
    ("mutants", "the Markdown table of a mutants.sh run, from its table.tsv"),
)


def doc():
    return __doc__ % "\n".join("  %-12s %s" % s for s in SUBCOMMANDS)


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        sys.stdout.write(doc())
        return 0
    if not argv or argv[0] not in dict(SUBCOMMANDS):
        sys.stderr.write(doc())
        return 2
    return importlib.import_module(argv[0].replace("-", "_")).main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
