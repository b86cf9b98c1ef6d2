#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kunit.sh - runs in the test guest (scripts/qemu/guest.sh, driven by
# scripts/tests/kunit.sh). The KUnit suites built into the test kernel ran at
# boot, before this script; their KTAP is in the console log, which the
# host parses. This only keeps the per-suite results from debugfs and the
# CPU masks the suites ran with (possible, present, online).

. "$SHARE/lib.sh"

for d in /sys/kernel/debug/kunit/*/; do
	[ -f "$d/results" ] && cat "$d/results"
done > "$RESULTS_DIR/kunit-debugfs.ktap"
{
	echo "possible=$(cat /sys/devices/system/cpu/possible)"
	echo "present=$(cat /sys/devices/system/cpu/present)"
	echo "online=$(cat /sys/devices/system/cpu/online)"
} > "$RESULTS_DIR/cpus.txt"
cat "$RESULTS_DIR/cpus.txt"
[ -s "$RESULTS_DIR/kunit-debugfs.ktap" ]
