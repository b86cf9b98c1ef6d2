#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test.sh - the project's test command (README.md), from a fresh clone:
#
#   deps        install the packages the harness needs (scripts/deps.sh)
#   baseline    fetch the pinned linux-source-7.3 tree (scripts/baseline.sh)
#   series      `series', patches/ and the copies agree, and the check can
#               fail (scripts/series.sh check, selftest-check)
#   apply       git am the series onto the baseline (scripts/series.sh apply)
#   checks      checkpatch --strict, every patch builds, sparse, W=1,
#               kernel-doc (scripts/checks.sh); this builds the test kernel
#   kunit       the series' KUnit suites with kunit.py on x86_64
#   platform    the emulated C-state platform self-test (scripts/platform-test.sh)
#   kselftest   the series' kselftest in the test guest, menu and teo,
#               Sapphire Rapids and AMD-like tables (scripts/kselftest.sh)
#   debug       the debug kernel (lockdep, KASAN, kmemleak, ...): build, the
#               kselftest, the short torture and the bad-input table
#               (scripts/torture.sh)
#
# Every check prints "PASS name" or "FAIL name: why"; the last line is
# "N passed, N failed". Exits non-zero on any failure. Logs: results/logs/.
#
# Usage: scripts/test.sh [--only STEP[,STEP...]]
set -uo pipefail
. "$(dirname "$0")/common.sh"

only=""
[ "${1:-}" = --only ] && only=",$2,"
LOGS=$RESULTS/logs
mkdir -p "$LOGS"
: > "$LOGS/summary.txt"
start=$(date +%s)
stop=0

# step NAME CMD...: run CMD, keep its PASS/FAIL lines, add one line for the
# step itself when CMD printed none or failed without saying why.
step() {
	local name=$1 s rc
	shift
	[ -z "$only" ] || [[ $only == *",$name,"* ]] || return 0
	[ $stop = 0 ] || { echo "FAIL $name: not run (an earlier step failed)" | tee -a "$LOGS/summary.txt"; return 0; }
	echo "=== $name: $*"
	s=$(date +%s)
	"$@" 2>&1 | tee "$LOGS/$name.log"
	rc=${PIPESTATUS[0]}
	grep -E '^(PASS|FAIL) ' "$LOGS/$name.log" >> "$LOGS/summary.txt"
	if [ $rc != 0 ] && ! grep -q '^FAIL ' "$LOGS/$name.log"; then
		echo "FAIL $name: exit $rc (log: $LOGS/$name.log)" | tee -a "$LOGS/summary.txt"
	elif [ $rc = 0 ] && ! grep -qE '^(PASS|FAIL) ' "$LOGS/$name.log"; then
		echo "PASS $name" | tee -a "$LOGS/summary.txt"
	fi
	printf '%s\t%d\n' "$name" "$(($(date +%s) - s))" >> "$LOGS/timings.tsv"
	echo "=== $name: exit $rc after $(($(date +%s) - s)) s"
	return $rc
}

# Steps whose failure makes the rest meaningless stop the run.
critical() { step "$@" || stop=1; }

: > "$LOGS/timings.tsv"
critical deps "$TOP/scripts/deps.sh"
critical baseline "$TOP/scripts/baseline.sh"
step series bash -c "'$TOP/scripts/series.sh' check && '$TOP/scripts/series.sh' selftest-check"
critical apply "$TOP/scripts/series.sh" apply
step checks "$TOP/scripts/checks.sh"
step kunit "$TOP/scripts/kunit.sh"
step platform "$TOP/scripts/platform-test.sh"
step kselftest "$TOP/scripts/kselftest.sh"
critical debug-build "$TOP/scripts/build.sh" debug
step debug-kselftest "$TOP/scripts/kselftest.sh" --debug
step debug-torture "$TOP/scripts/torture.sh"

echo
echo "=== summary ($(($(date +%s) - start)) s; per step: $LOGS/timings.tsv)"
cat "$LOGS/summary.txt"
passed=$(grep -c '^PASS ' "$LOGS/summary.txt")
failed=$(grep -c '^FAIL ' "$LOGS/summary.txt")
echo
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
