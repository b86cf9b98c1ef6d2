#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hold-sweep.sh [--holds LIST] [--workloads LIST] [--reps N] [--out DIR] -
# the hold period against think time (review point 14 of v1). For each hold
# period H in ms (default 4,8,16): a branch hold-H in $BASE_DIR, which is
# branch `series' plus one commit that sets BLK_SHALLOW_IDLE_HOLD_MS to H; an
# incremental build of the test kernel; scripts/bench/bench.sh with "auto", menu,
# QD1 4 KiB reads at the think times of LIST (default 0, 2, 5, 10 and 20
# ms), N repetitions (default 3). "off" does not depend on H and runs once,
# in the boot of the default hold (8 ms). Afterwards branch `series' is
# checked out again and the test kernel rebuilt from it.
#
# With HZ=250 (scripts/configs/test.config) the work item runs every
# msecs_to_jiffies(H) + 1 jiffies: the hold lasts from H to H + 4 ms, and
# H = 2 would be the same period as 4. A benchmark: prints a table,
# asserts nothing but that every cell ran. Output: DIR (default
# $RESULTS/hold-sweep): hold-H/ (bench.sh's output), sweep.tsv (per hold,
# think time and configuration: medians of PM QoS updates per I/O, misses
# per I/O, share of idle time in C6, p50 and p99 in us, local timer
# interrupts per CPU and second), run.txt.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/series-build.sh"
RUN_COMMIT=$(repo_head)

holds="4 8 16" reps=3 out=$RESULTS/hold-sweep
workloads="qd1 qd1-think2ms qd1-think5ms qd1-think10ms qd1-think20ms"
while [ $# -gt 0 ]; do
	case $1 in
	--holds) holds=$(tr ',' ' ' <<< "${2:?}"); shift 2 ;;
	--workloads) workloads=$(tr ',' ' ' <<< "${2:?}"); shift 2 ;;
	--reps) reps=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	*) sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
for h in $holds; do
	[[ $h =~ ^[1-9][0-9]*$ ]] || die "--holds wants whole ms, got $h"
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "--reps wants a number, got $reps"
src=block/blk-shallow-idle.c
def=$(git -C "$BASE_DIR" show "series:$src" | sed -n 's/^#define BLK_SHALLOW_IDLE_HOLD_MS[[:space:]]*\([0-9]*\)$/\1/p')
[ -n "$def" ] || die "no BLK_SHALLOW_IDLE_HOLD_MS in $src of branch series"
need_clean_series
mkdir -p "$out"
out=$(realpath "$out")

trap 'back_to_series hold-sweep' EXIT

start=$(date +%s)
for h in $holds; do
	git -C "$BASE_DIR" checkout -q -B "hold-$h" series
	sed -i "s/^\(#define BLK_SHALLOW_IDLE_HOLD_MS[[:space:]]*\)[0-9]*$/\1$h/" "$BASE_DIR/$src"
	grep -E "^#define BLK_SHALLOW_IDLE_HOLD_MS[[:space:]]+$h\$" "$BASE_DIR/$src" > /dev/null ||
		die "hold-sweep: could not set the hold period to $h"
	git -C "$BASE_DIR" commit -q --allow-empty -am "hold-sweep: BLK_SHALLOW_IDLE_HOLD_MS $h"
	SERIES_BRANCH=hold-$h "$TOP/scripts/setup/build.sh" test
	configs=auto
	[ "$h" != "$def" ] || configs=off,auto
	log "hold-sweep: hold $h ms: $configs"
	SERIES_BRANCH=hold-$h "$TOP/scripts/bench/bench.sh" --govs menu --configs "$configs" \
		--workloads "$(tr ' ' ',' <<< "$workloads")" --reps "$reps" --pairs 0 \
		--no-poll --out "$out/hold-$h" > "$out/hold-$h.log" 2>&1 ||
		{ tail -n 20 "$out/hold-$h.log" >&2; die "hold-sweep: bench.sh failed for hold $h ms (log: $out/hold-$h.log)"; }
done

# One line per hold, think time and configuration (medians over the reps).
# shellcheck disable=SC2086
python3 "$TOP/scripts/report/report.py" tables hold-sweep "$out" $holds
n=$(($(wc -l < "$out/sweep.tsv") - 1))
want=$(($(wc -w <<< "$holds") * $(wc -w <<< "$workloads") + $(wc -w <<< "$workloads")))
[ "$n" = "$want" ] || die "hold-sweep: $n cells in sweep.tsv, expected $want"

{
	echo "command=bash scripts/bench/hold-sweep.sh --holds $(tr ' ' ',' <<< "$holds") --workloads $(tr ' ' ',' <<< "$workloads") --reps $reps"
	echo "platform=$(tcg_platform 2), emulated Sapphire Rapids C-states (tools/emu-cstates), virtio-blk with one queue per vCPU, menu"
	echo "date=$(date -u +%F)"
	echo "commit=$RUN_COMMIT"
	echo "kernel=the 9 patches of branch series ($(git -C "$BASE_DIR" rev-parse --short series)) on 7.3.4 (test config, HZ=250), BLK_SHALLOW_IDLE_HOLD_MS set per run"
	echo "wall_s=$(($(date +%s) - start))"
	for h in $holds; do
		echo "host_hold_$h=$(sed -n 's/^Host during boot[^:]*: //p' "$out/hold-$h/bench.md" | sed -n 1p)"
	done
} > "$out/run.txt"
echo "Hold period against think time (menu, QD1 4 KiB reads, $reps runs per cell, medians):"
column -t -s$'\t' "$out/sweep.tsv"
echo "hold-sweep: $n cells in $(($(date +%s) - start)) s; $out"
