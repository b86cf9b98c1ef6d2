#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kselftest.sh - runs in the test guest (scripts/qemu/guest.sh): the series'
# kselftests (selftests/block/ in the share) with the emulated cpuidle
# driver, once per state table and governor, plus the KUnit results of the
# boot and the kernel log.
#
# Kernel command line: kst_tables= and kst_governors= (comma lists, set by
# scripts/tests/kselftest.sh from its defaults) choose the runs.
#
# Results: kselftest-TABLE-GOVERNOR.tap, kunit-boot.ktap, dmesg.txt and,
# on a kernel with kmemleak, kmemleak.txt (after two scans) or, when the
# scan failed (kmemleak missing or switched off), kmemleak-error.txt.
# Exit code: 0 if every run exited 0 (a skipped test exits 4: a failure
# here, as the guest has everything the test needs).

. "$SHARE/lib.sh"

tables=$(echo "${kst_tables:?kst_tables= not set (scripts/tests/kselftest.sh sets it)}" | tr ',' ' ')
governors=$(echo "${kst_governors:?kst_governors= not set (scripts/tests/kselftest.sh sets it)}" | tr ',' ' ')
test=$SHARE/selftests/block/shallow_idle.sh
rc=0

for d in /sys/kernel/debug/kunit/*/; do
	[ -f "$d/results" ] && cat "$d/results"
done > "$RESULTS_DIR/kunit-boot.ktap"

if [ ! -f "$test" ]; then
	echo "kselftest: $test missing"
	exit 1
fi

for table in $tables; do
	if ! emu_load "$table"; then
		echo "kselftest: cannot load emu_cstates table=$table"
		rc=1
		continue
	fi
	for gov in $governors; do
		gov_set "$gov" || { echo "kselftest: no governor $gov"; rc=1; continue; }
		out=$RESULTS_DIR/kselftest-$table-$gov.tap
		sh "$test" > "$out" 2>&1
		r=$?
		echo "kselftest: table=$table governor=$gov exit=$r"
		grep -E '^(not ok|# Totals)' "$out"
		[ $r = 0 ] || rc=1
	done
	emu_unload || rc=1
done

# Debug kernels: look for leaks once everything was torn down. A kernel
# with kmemleak whose scan fails has not looked: kmemleak-error.txt.
kmemleak_scan "$RESULTS_DIR/kmemleak.txt" 5 > "$RESULTS_DIR/kmemleak-error.txt"
case $? in
0|2) rm -f "$RESULTS_DIR/kmemleak-error.txt" ;;
*) cat "$RESULTS_DIR/kmemleak-error.txt"; rm -f "$RESULTS_DIR/kmemleak.txt"; rc=1 ;;
esac

dmesg > "$RESULTS_DIR/dmesg.txt"
exit $rc
