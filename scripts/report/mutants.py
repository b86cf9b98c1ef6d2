# SPDX-License-Identifier: GPL-2.0
"""report.py mutants TABLE_TSV - the Markdown table of a mutants.sh run.

From the table.tsv that scripts/tests/mutants.sh writes (a header line,
then per mutant: mutant, status, killed_by, first_failure, the step times
and total_s), one row per mutant in name order: the mutant, what killed
it (the test step; the status in capitals when it was not killed, and
with the step where an error happened), its first failure ("-" for none)
and its total time in seconds. Prints the table on stdout; exit status 1
when the file cannot be read or has no header line, 2 on usage errors.
"""
import sys

from common import die, md_row, not_a_program, read_lines, usage


def rows(path):
    """The rows of TABLE_TSV PATH, as lists of fields, without the header."""
    try:
        lines = read_lines(path)
    except OSError as e:
        die("cannot read %s: %s" % (path, e), prog="report.py mutants")
    if not lines or not lines[0].startswith("mutant\tstatus\t"):
        die("%s has no header line" % path, prog="report.py mutants")
    return sorted((x.split("\t") for x in lines[1:] if x), key=lambda r: r[0])


def main(args):
    if len(args) != 1:
        return usage(__doc__)
    out = ["| mutant | killed by | first failure | time (s) |", "|---|---|---|---:|"]
    for r in rows(args[0]):
        r += [""] * (4 - len(r))
        by = r[2] if r[1] == "killed" else r[1].upper()
        if r[1] == "error" and r[2]:
            by += " (%s)" % r[2]
        out.append(md_row([r[0], by, (r[3] or "-").replace("|", "\\|"), r[-1]]))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(not_a_program("mutants"))
