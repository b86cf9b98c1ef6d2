#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# platform-test.sh [--build BUILD_DIR] [--no-lock] [guest.sh options...]
#
# Self-test of the test platform: boots the test kernel (default $BUILD)
# with scripts/qemu/guest.sh and runs tools/guest/platform-selftest.sh in it
# (emulated C-states, governors menu and teo, per-CPU resume latency limit,
# fio latency with and without C6). Prints the TAP lines and the latency
# table, and fails unless the guest script exited 0, the TAP plan matches
# the number of tests, every test is "ok" and the kernel log of the run has
# no report (scan_reports in common.sh). A skipped test is no pass: it
# prints "SKIP platform: ..." and makes the exit status non-zero (the
# platform must be complete). Verdict lines: "PASS platform: ...",
# "FAIL platform...: why", "SKIP platform: ...".
#
# The guest runs with guest.sh --lock (no kernel build runs meanwhile, so
# that the latency numbers mean something); --no-lock turns that off.
# Further options (--timeout, --smp, --accel, --append, --keep-share) go to
# guest.sh. Results: $RESULTS/platform/ (platform.tap,
# platform-latency.json, platform-latency.txt, console.log, ...).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

build=$BUILD
lock=--lock
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=${2:?}; shift 2 ;;
	--no-lock) lock=""; shift ;;
	-h|--help) sed -n '4,4s/^# //p' "$0" >&2; exit 2 ;;
	*) args+=("$1"); shift ;;
	esac
done

out=$RESULTS/platform
start=$SECONDS
rc=0
# kunit.enable=0: the KUnit suites built into the kernel are the kunit
# step's; run here again at boot they would only cost time.
timed "platform-test" "$TOP/scripts/qemu/guest.sh" --kernel "$build" \
	--script platform-selftest.sh --out "$out" --timeout 900 ${lock:+"$lock"} \
	--append kunit.enable=0 "${args[@]}" || rc=$?
elapsed=$((SECONDS - start))

tap=$out/platform.tap
fail=0 skip=0
if [ -f "$tap" ]; then
	echo "---- $tap"
	cat "$tap"
	plan=$(sed -n 's/^1\.\.\([0-9]\+\)$/\1/p' "$tap")
	n=$(grep -cE '^(not )?ok [0-9]+' "$tap" || true)
	bad=$(grep -E '^not ok [0-9]+' "$tap" || true)
	skipped=$(grep -E '^ok [0-9]+ .*# *SKIP' "$tap" || true)
	if [ -z "$plan" ]; then
		echo "FAIL platform: no TAP plan in $tap"
		fail=1
	elif [ "$plan" != "$n" ]; then
		echo "FAIL platform: TAP plan 1..$plan but $n tests"
		fail=1
	fi
	if [ -n "$bad" ]; then
		echo "FAIL platform: $(wc -l <<< "$bad") tests failed:"
		while IFS= read -r l; do echo "    $l"; done <<< "$bad"
		fail=1
	fi
	if [ -n "$skipped" ]; then
		sed -E 's/^ok [0-9]+ (- )?/SKIP platform: /' <<< "$skipped"
		skip=1
	fi
else
	echo "FAIL platform: no $tap"
	fail=1
fi

if [ -f "$out/platform-latency.txt" ]; then
	echo "---- $out/platform-latency.txt"
	cat "$out/platform-latency.txt"
else
	echo "FAIL platform: no latency table"
	fail=1
fi

if [ -f "$out/console.log" ]; then
	scan_reports "kernel log (platform)" "$out" || fail=1
fi
if [ $rc != 0 ]; then
	echo "FAIL platform: guest.sh exited $rc (see $out/console.log)"
	fail=1
fi
if [ $fail != 0 ] || [ $skip != 0 ]; then
	log "platform-test: FAILED or skipped after $elapsed s (results in $out)"
	exit 1
fi
echo "PASS platform: $n/$plan ok ($elapsed s)"
log "platform-test: PASSED in $elapsed s (results in $out)"
