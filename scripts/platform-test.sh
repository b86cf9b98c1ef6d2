#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# platform-test.sh [--build BUILD_DIR] [--no-lock] [guest.sh options...]
#
# Self-test of the test platform: boots the test kernel (default $BUILD)
# with scripts/guest.sh and runs tools/guest/platform-selftest.sh in it
# (emulated C-states, governors menu and teo, per-CPU resume latency limit,
# fio latency with and without C6). Prints the TAP lines and the latency
# table, and fails unless the guest script exited 0, the TAP plan matches
# the number of tests and every test is "ok" (a SKIP counts as a failure:
# the platform must be complete).
#
# The guest runs with guest.sh --lock (no kernel build runs meanwhile, so
# that the latency numbers mean something); --no-lock turns that off.
# Further options (--timeout, --smp, --accel, --append, --keep-share) go to
# guest.sh. Results: $RESULTS/platform/ (platform.tap,
# platform-latency.json, platform-latency.txt, console.log, ...).
set -euo pipefail
. "$(dirname "$0")/common.sh"

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
timed "platform-test" "$TOP/scripts/guest.sh" --kernel "$build" \
	--script platform-selftest.sh --out "$out" --timeout 900 ${lock:+"$lock"} \
	"${args[@]}" || rc=$?
elapsed=$((SECONDS - start))

tap=$out/platform.tap
fail=0
if [ -f "$tap" ]; then
	echo "---- $tap"
	cat "$tap"
	plan=$(sed -n 's/^1\.\.\([0-9]\+\)$/\1/p' "$tap")
	n=$(grep -cE '^(not )?ok [0-9]+' "$tap" || true)
	bad=$(grep -E '^not ok [0-9]+|^ok [0-9]+ .*# *SKIP' "$tap" || true)
	if [ -z "$plan" ]; then
		echo "platform-test: no TAP plan in $tap" >&2
		fail=1
	elif [ "$plan" != "$n" ]; then
		echo "platform-test: TAP plan 1..$plan but $n tests" >&2
		fail=1
	fi
	if [ -n "$bad" ]; then
		echo "platform-test: failed or skipped:" >&2
		echo "$bad" >&2
		fail=1
	fi
else
	echo "platform-test: no $tap" >&2
	fail=1
fi

if [ -f "$out/platform-latency.txt" ]; then
	echo "---- $out/platform-latency.txt"
	cat "$out/platform-latency.txt"
else
	echo "platform-test: no latency table" >&2
	fail=1
fi

[ $rc = 0 ] || echo "platform-test: guest.sh exited $rc" >&2
if [ $rc != 0 ] || [ $fail != 0 ]; then
	log "platform-test: FAILED after $elapsed s (results in $out)"
	exit 1
fi
log "platform-test: PASSED in $elapsed s (results in $out)"
