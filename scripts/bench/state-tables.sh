#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# state-tables.sh - what the "auto" limit is on every intel_idle state table
# of the baseline tree and on the ACPI tables of data/state-tables/acpi.tsv,
# by v2's CPUIDLE_FLAG_SHALLOW rule and by v3's table rule (review point 10
# of v2; scripts/report/states.py says how each is computed).
#
# Needs the baseline tree (scripts/setup/baseline.sh). Writes
# data/state-tables/tables.tsv and run.txt (the command, the tree, the
# date), which scripts/report/report.py figures turns into the cover letter's
# table.
# Fails if a table cannot be parsed.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOP/scripts/lib/common.sh"
RUN_COMMIT=$(repo_head)

out=$TOP/data/state-tables
src=$(mktemp)
trap 'rm -f "$src"' EXIT
git -C "$BASE_DIR" show baseline:drivers/idle/intel_idle.c > "$src" ||
	die "state-tables: no baseline tree in $BASE_DIR (run scripts/setup/baseline.sh)"
python3 "$TOP/scripts/report/report.py" states "$src" "$out/acpi.tsv" > "$out/tables.tsv.new"
n=$(($(wc -l < "$out/tables.tsv.new") - 1))
[ "$n" -gt 20 ] || die "state-tables: only $n tables parsed"
mv "$out/tables.tsv.new" "$out/tables.tsv"
{
	echo "command=bash scripts/bench/state-tables.sh"
	echo "platform=none: reads drivers/idle/intel_idle.c of $BASE_PKG $BASE_VER ($BASE_SUITE), and data/state-tables/acpi.tsv"
	echo "date=$(date -u +%F)"
	echo "commit=$RUN_COMMIT"
} > "$out/run.txt"
log "state-tables: $n tables in ${out#"$TOP"/}/tables.tsv; $(awk -F'\t' 'NR > 1 && $8 != "yes"' "$out/tables.tsv" | wc -l) differ between the flag and the table rule"
