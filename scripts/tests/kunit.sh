#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunit.sh [--build DIR] [--filter SUITE.CASE] - the KUnit suites of the
# series, from the boot log of a guest kernel: they are built into it
# (scripts/configs/test.config, which debug.config extends) and run at
# boot. Boots the kernel of DIR (default $BUILD, the test kernel; the test
# command gives the debug kernel that `scripts/checks/checks.sh --kernel
# debug' builds) and hands the console log to `kunit.py parse`. No kernel
# is built here. --filter runs only the cases that
# kunit.filter_glob=SUITE.CASE selects (a glob within one suite), and then
# only that suite must run and pass (a mutant against its own test, by
# hand); results in $RESULTS/kunit-filter/. (More possible than present
# CPUs would be the better test of the series' present-CPU handling, but
# this QEMU's ACPI tables give the 7.3 kernel no hotpluggable CPU: -smp
# 2,maxcpus=4 and possible_cpus=4 both leave possible = present; cpus.txt
# records it.)
#
# Prints "PASS kunit ..." or "FAIL kunit: why"; fails unless both suites of
# the series (cpuidle_latency, blk_shallow_idle) ran, every test passed,
# none was skipped and its kernel log has no report (scan_reports in common.sh). The
# last line is "kunit: N passed, N failed, N skipped". Results:
# $RESULTS/kunit/ (console.log, kunit.log: kunit.py's output, cpus.txt).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

build=$BUILD filter=""
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=${2:?}; shift 2 ;;
	--filter) filter=${2:?}; shift 2 ;;
	*) sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
OUT=$RESULTS/kunit
SUITES="cpuidle_latency blk_shallow_idle"
append=()
if [ -n "$filter" ]; then
	[[ $filter =~ ^[a-z_]+\.[^.]+$ ]] || die "--filter wants SUITE.CASE (no glob in SUITE), got '$filter'"
	SUITES=${filter%%.*} OUT=$RESULTS/kunit-filter
	append=(--append "kunit.filter_glob=$filter")
fi

need_pkgs python3
rc=0
"$TOP/scripts/qemu/guest.sh" --kernel "$build" --script kunit.sh --out "$OUT" \
	--smp 2 --timeout 900 "${append[@]}" || rc=$?
[ -f "$OUT/console.log" ] || { echo "FAIL kunit: no console log (guest.sh exit $rc)"; exit 1; }

python3 "$BASE_DIR/tools/testing/kunit/kunit.py" parse "$OUT/console.log" \
	> "$OUT/kunit.log" 2>&1 || true
# kunit.py's output without colours and timestamps. Every check below reads
# this file, never a pipe into `grep -q': under pipefail, grep -q exits at its
# first match and its writer may die of SIGPIPE, which fails the pipeline (a
# CI run failed so: "suite blk_shallow_idle did not pass").
sed 's/\x1b\[[0-9;]*m//g; s/^\[[0-9:]*\] //' "$OUT/kunit.log" > "$OUT/kunit.txt"
grep -vE '^=+$' "$OUT/kunit.txt" | tail -n 40
sum=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$OUT/kunit.txt" | tail -n 1 || true)
p=$(sed -nE 's/.*passed: ([0-9]+).*/\1/p' <<< "$sum")
f=$(sed -nE 's/.*failed: ([0-9]+).*/\1/p' <<< "$sum")
s=$(sed -nE 's/.*skipped: ([0-9]+).*/\1/p' <<< "$sum")
e=$(sed -nE 's/.*errors: ([0-9]+).*/\1/p' <<< "$sum")
c=$(sed -nE 's/.*crashed: ([0-9]+).*/\1/p' <<< "$sum")
p=${p:-0} f=$((${f:-0} + ${e:-0} + ${c:-0})) s=${s:-0}

bad=""
[ -n "$sum" ] || bad="no KUnit summary in the boot log (kunit.py parse: $OUT/kunit.log)"
for suite in $SUITES; do
	grep -E "\[PASSED\] $suite( |\$)" "$OUT/kunit.txt" > /dev/null && continue
	said=$(grep -E "\] $suite( |\$)" "$OUT/kunit.txt" | tr -s '= ' ' ' | tr '\n' ';' || true)
	bad="${bad:+$bad; }suite $suite did not pass as a whole (kunit.py: ${said:-no result line})"
done
# What kunit.py flagged, so that the FAIL line alone names it.
flagged=$(grep -E '\[(FAILED|CRASHED|ERROR|SKIPPED)\]|EXPECTATION FAILED|ASSERTION FAILED' "$OUT/kunit.txt" |
	  sed -n '1,6p' | tr -s '= ' ' ' | tr '\n' ';' || true)
[ -z "$flagged" ] || bad="${bad:+$bad; }kunit.py: $flagged"
[ "$f" = 0 ] || bad="${bad:+$bad; }$f failed"
scan_reports "kernel log (kunit)" "$OUT" || bad="${bad:+$bad; }the kernel log has a report"
[ "$s" = 0 ] || bad="${bad:+$bad; }$s skipped"
possible=$(sed -n 's/^possible=//p' "$OUT/cpus.txt" 2>/dev/null)
present=$(sed -n 's/^present=//p' "$OUT/cpus.txt" 2>/dev/null)
if [ -n "$bad" ]; then
	echo "FAIL kunit: $bad"
else
	echo "PASS kunit: $p tests of $SUITES at boot (possible CPUs $possible, present $present)"
fi
echo "kunit: $p passed, $f failed, $s skipped"
[ -z "$bad" ]
