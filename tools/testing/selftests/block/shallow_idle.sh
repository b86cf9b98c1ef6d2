#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Test the shallow_idle queue attribute (CONFIG_BLK_SHALLOW_IDLE) on
# null_blk devices.
#
# Usage: shallow_idle.sh [CASE...]   (default: every case; CASE is a file
# name in shallow_idle.d/ or its number, such as 021)
#
# Each case is a file shallow_idle.d/NNN-name, in the way blktests lays out
# its tests: DESCRIPTION, the one line it proves; optionally requires(),
# which sets SKIP_REASON and fails when something the case needs is
# missing; and test_case(), whose exit status is the verdict (0 pass, 1
# fail, 4 skip with SKIP_REASON). A case runs in a subshell of its own, so
# no variable of one case reaches the next. It makes the devices it uses
# (make_test_dev for the standard one), and every device it made, every
# trace event and every fault injection setting is undone after it
# whatever its verdict; the PM QoS and shallow idle trace events are on,
# with an empty trace buffer, when it starts. Helpers: shallow_idle.d/lib.sh.
#
# The limit "auto" must give is known for the emulated tables of the test
# harness (tools/emu-cstates: spr 289, skx 132, icx 169, amd 399) and is
# looked up from the CPU's state table; on other machines give it in
# SHALLOW_IDLE_EXPECTED. The idle state cases need a cpuidle driver with a
# state deeper than the limit and are skipped without one.
#
# Needs root, null_blk with configfs, debugfs, tracefs and fio.
# Environment: FIO (fio binary), IO_SECONDS (I/O run time, default 4),
# SHALLOW_IDLE_EXPECTED (the "auto" limit in us, if the table is not known
# here), CONCURRENT_WRITES (rounds of scheduler and nr_requests writes in
# the concurrent writer cases, default 20).

DIR=$(dirname "$0")
CASES=$DIR/shallow_idle.d
. "$DIR/../kselftest/ktap_helpers.sh"
. "$CASES/lib.sh"

TMP=$(mktemp -d)
trap 'case_teardown; rm -rf "$TMP"' EXIT

skip_all() {
	ktap_skip_all "$@"
	exit "$KSFT_SKIP"
}

# The case files to run, in order.
list_cases() {
	if [ $# = 0 ]; then
		ls "$CASES" | grep -E '^[0-9]{3}-' | sort
		return
	fi
	for c in "$@"; do
		f=$(ls "$CASES" | grep -E "^(${c%%-*}-|$c\$)" | head -n 1)
		[ -n "$f" ] || { echo "no case $c in $CASES" >&2; return 1; }
		echo "$f"
	done
}

# run_case FILE: one TAP result. The case's subshell writes its skip
# reason to $TMP/skip.
run_case() {
	desc=$(sed -n 's/^DESCRIPTION="\(.*\)"$/\1/p' "$CASES/$1")
	[ -n "$desc" ] || desc="$1 (no DESCRIPTION)"
	rm -f "$TMP/skip"
	(
		SKIP_REASON=""
		CASE_TMP=$TMP/$1
		mkdir -p "$CASE_TMP"
		. "$CASES/$1"
		r=0
		if command -v requires > /dev/null && ! requires; then
			r=4
		else
			case_setup && { test_case; r=$?; } || r=$?
		fi
		case_teardown
		[ $r = 4 ] && echo "$SKIP_REASON" > "$TMP/skip"
		exit $r
	)
	r=$?
	case $r in
	0) ktap_test_pass "$desc" ;;
	4) ktap_test_skip "$desc ($(cat "$TMP/skip" 2>/dev/null))" ;;
	*) ktap_test_fail "$desc" ;;
	esac
}

[ "$(id -u)" = 0 ] || skip_all "must be run as root"
command -v "$FIO" > /dev/null || skip_all "fio not found"
[ -d "$NULLB_CFS" ] || modprobe null_blk nr_devices=0 2>/dev/null
[ -d "$NULLB_CFS" ] || skip_all "null_blk with configfs not available"
[ -d "$TRACEFS/events/power" ] || mount -t tracefs none "$TRACEFS" 2>/dev/null
[ -d "$TRACEFS/events/power/dev_pm_qos_add_request" ] ||
	skip_all "dev_pm_qos trace events not available"
make_test_dev || skip_all "cannot create a null_blk device"
[ -e "$(attr)" ] || skip_all "no shallow_idle attribute (CONFIG_BLK_SHALLOW_IDLE)"
case_teardown
cases=$(list_cases "$@") || exit 1

ktap_print_header
ktap_set_plan "$(echo "$cases" | wc -l)"
ktap_print_msg "table of cpu0: $(table_signature 0)-> auto limit ${limit0:-unknown}"
for f in $cases; do
	run_case "$f"
done
ktap_finished
