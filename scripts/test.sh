#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test.sh - the project's test command (README.md), from a fresh clone:
#
#   deps        (setup) install the packages the harness needs (scripts/setup/deps.sh)
#   lint        the harness's scripts: bash -n, and no pipe into a reader
#               that exits early under pipefail (scripts/checks/lint.sh, --selftest)
#   baseline    (setup) fetch the pinned linux-source-7.3 tree (scripts/setup/baseline.sh)
#   series      `series', patches/ and the copies agree, and the check can
#               fail (scripts/setup/series.sh check, selftest-check)
#   apply       (setup) git am the series onto the baseline (scripts/setup/series.sh apply)
#   b4          the series as a threaded mbox through `b4 am' (offline) and
#               git am gives the same commits and tree, and the check can
#               fail (scripts/checks/b4.sh check, selftest)
#   checks      checkpatch --strict, every patch builds, sparse, W=1,
#               kernel-doc (scripts/checks/checks.sh --kernel debug); the patches
#               are built one by one in the debug kernel's config (the test
#               config plus lockdep, KASAN, kmemleak, hang detectors, ...),
#               and the last build is the kernel every guest step boots
#   figures     README.md and the cover letter quote exactly what
#               scripts/report/report.py figures generates from the committed data/
#   kunit       the series' KUnit suites, from the boot log of that kernel,
#               parsed by kunit.py
#   platform    the emulated C-state platform self-test (scripts/tests/platform-test.sh)
#   kselftest   the series' kselftest in that guest, menu and teo, Sapphire
#               Rapids and AMD-like tables (scripts/tests/kselftest.sh --debug)
#   torture     the short torture (scripts/tests/torture.sh)
#
# One kernel, not a test kernel and a debug kernel: on a fresh machine each
# costs a full build, the longest step of the run, and every test runs as
# well with the checkers on. The test kernel without them is what the
# main job (scripts/main.sh) builds and measures; `scripts/tests/kselftest.sh'
# without --debug runs the same kselftest on it.
#
# Setup steps are no tests: each prints "SETUP ok name" or "SETUP FAIL name:
# why" and a failed one stops the run. Every check prints "PASS name" or
# "FAIL name: why"; a skipped test ("SKIP name: why", e.g. a TAP "ok ... #
# SKIP") is no pass. The last line is "N passed, N failed, N skipped"
# (failed includes failed setup steps). Exits non-zero on any failure and
# on any skip: CI has every tool, so a skip means a broken test. Logs:
# results/logs/ (timings.tsv: seconds per step; steps.tsv: PASS, FAIL and
# SKIP lines per test step).
#
# Usage: scripts/test.sh [--only STEP[,STEP...]]
set -uo pipefail
. "$(dirname "$0")/lib/common.sh"

only=""
[ "${1:-}" = --only ] && only=",$2,"
LOGS=$RESULTS/logs
mkdir -p "$LOGS"
: > "$LOGS/summary.txt"
: > "$LOGS/evidence.txt"
start=$(date +%s)
stop=0

# run_step KIND NAME CMD...: run CMD (KIND test or setup), log it and time
# it. A test step keeps CMD's PASS/FAIL/SKIP lines and adds one line for
# itself when CMD printed none, or failed without a FAIL or SKIP line. A
# setup step adds one SETUP line.
run_step() {
	local kind=$1 name=$2 s rc n0
	shift 2
	[ -z "$only" ] || [[ $only == *",$name,"* ]] || return 0
	if [ $stop != 0 ]; then
		if [ "$kind" = setup ]; then
			echo "SETUP FAIL $name: not run (an earlier step failed)"
		else
			echo "FAIL $name: not run (an earlier step failed)"
		fi | tee -a "$LOGS/summary.txt"
		return 0
	fi
	echo "=== $name: $*"
	s=$(date +%s)
	"$@" 2>&1 | tee "$LOGS/$name.log"
	rc=${PIPESTATUS[0]}
	if [ "$kind" = setup ]; then
		if [ "$rc" = 0 ]; then
			echo "SETUP ok $name"
		else
			echo "SETUP FAIL $name: exit $rc (log: $LOGS/$name.log)"
		fi | tee -a "$LOGS/summary.txt"
	else
		n0=$(wc -l < "$LOGS/summary.txt")
		grep -E '^(PASS|FAIL|SKIP) ' "$LOGS/$name.log" >> "$LOGS/summary.txt"
		if [ "$rc" != 0 ] && ! grep -qE '^(FAIL|SKIP) ' "$LOGS/$name.log"; then
			echo "FAIL $name: exit $rc (log: $LOGS/$name.log)" | tee -a "$LOGS/summary.txt"
		elif [ "$rc" = 0 ] && ! grep -qE '^(PASS|FAIL|SKIP) ' "$LOGS/$name.log"; then
			echo "PASS $name" | tee -a "$LOGS/summary.txt"
		fi
		evidence "$LOGS/$name.log" >> "$LOGS/evidence.txt"
		tail -n +"$((n0 + 1))" "$LOGS/summary.txt" | awk -v n="$name" '
			{ c[$1]++ } END { printf "%s\t%d\t%d\t%d\n", n, c["PASS"], c["FAIL"], c["SKIP"] }' >> "$LOGS/steps.tsv"
	fi
	printf '%s\t%d\n' "$name" "$(($(date +%s) - s))" >> "$LOGS/timings.tsv"
	echo "=== $name: exit $rc after $(($(date +%s) - s)) s"
	return "$rc"
}

# evidence LOG - each FAIL line of LOG with up to 12 of the indented
# lines that follow it (a report excerpt, a diff), without the frames that
# every report has (dump_stack, the KASAN and lockdep printers): the part
# of the evidence that CI shows, at the end of the output.
evidence() {
	awk '/^FAIL / { print; n = 12; next }
		n > 0 && /^[ \t]/ {
			if ($0 ~ /dump_stack|print_report|print_address_description|kasan_report|__asan_|Hardware name:|Tainted:|Call Trace:|<TASK>|^[ \t]*$|\] *$/) next
			print; n--; next }
		{ n = 0 }' "$1"
}

# step NAME CMD...: a test. critical NAME CMD...: a setup step, not a
# test; the rest is meaningless without it: its failure stops the run.
step() { run_step test "$@"; }
critical() { run_step setup "$@" || stop=1; }

printf 'step\tpassed\tfailed\tskipped\n' > "$LOGS/steps.tsv"
printf 'step\tseconds\n' > "$LOGS/timings.tsv"
critical deps "$TOP/scripts/setup/deps.sh"
step lint bash -c "'$TOP/scripts/checks/lint.sh' && '$TOP/scripts/checks/lint.sh' --selftest"
critical baseline "$TOP/scripts/setup/baseline.sh"
step series bash -c "'$TOP/scripts/setup/series.sh' check && '$TOP/scripts/setup/series.sh' selftest-check"
step figures python3 "$TOP/scripts/report/report.py" figures --check
critical apply "$TOP/scripts/setup/series.sh" apply
step b4 bash -c "'$TOP/scripts/checks/b4.sh' check && '$TOP/scripts/checks/b4.sh' selftest"
step mutants-apply "$TOP/scripts/tests/mutants.sh" --check
step checks "$TOP/scripts/checks/checks.sh" --kernel debug
step kunit "$TOP/scripts/tests/kunit.sh" --build "$BUILD_DEBUG"
step platform "$TOP/scripts/tests/platform-test.sh" --build "$BUILD_DEBUG"
step kselftest "$TOP/scripts/tests/kselftest.sh" --debug
step torture "$TOP/scripts/tests/torture.sh"

echo
echo "=== summary ($(($(date +%s) - start)) s; per step: $LOGS/timings.tsv)"
cat "$LOGS/summary.txt"
passed=$(grep -c '^PASS ' "$LOGS/summary.txt")
failed=$(grep -Ec '^(SETUP )?FAIL ' "$LOGS/summary.txt")
skipped=$(grep -c '^SKIP ' "$LOGS/summary.txt")
# CI shows the end of the output: repeat what failed or was skipped there,
# after the evidence of the first failures.
if [ -s "$LOGS/evidence.txt" ]; then
	echo
	echo "=== evidence of the failures (whole logs in $LOGS/)"
	head -n 30 "$LOGS/evidence.txt"
fi
if grep -Eq '^(SETUP FAIL|FAIL|SKIP) ' "$LOGS/summary.txt"; then
	echo
	echo "=== not passed (also above, in step order)"
	grep -E '^(SETUP FAIL|FAIL|SKIP) ' "$LOGS/summary.txt"
fi
echo
echo "=== step times (s): $(step_times "$LOGS/timings.tsv")"
echo "setup: $(grep -c '^SETUP ok ' "$LOGS/summary.txt") ok, $(grep -c '^SETUP FAIL ' "$LOGS/summary.txt") failed"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] && [ "$skipped" = 0 ] && [ "$passed" -gt 0 ]
