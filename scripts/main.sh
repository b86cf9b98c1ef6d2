#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# main.sh - the project's main job (README.md), from a fresh clone: fetch
# the pinned baseline, apply the series, build the patched test kernel,
# boot it under QEMU with emulated C-states on the isolated platform
# (scripts/guest.sh --isolate) and show the effect:
#   1. the benchmark matrix of scripts/bench.sh (attribute off, auto, C6
#      disabled, /dev/cpu_dma_latency, idle=poll; menu and teo) for QD1
#      and QD32, printed as a Markdown table with its targets (printed,
#      not asserted) and written with a figure to results/bench/;
#   2. the think-time curve of scripts/think-curve.sh (QD1 with 0 to 32 ms
#      of think time; off, auto, C6 disabled; menu and teo), printed and
#      plotted into results/think-curve/curve.png.
# Step times go to results/main/timings.tsv and are printed at the end.
#
# Usage: scripts/main.sh [bench.sh options, e.g. --quick or --table amd]
# Options go to bench.sh; --table and --quick also shape the curve
# (--quick: 2 s cells at 0, 0.5, 2, 8 and 32 ms). Without --workloads,
# bench.sh runs qd1,qd32: the curve covers the think times.
set -euo pipefail
. "$(dirname "$0")/common.sh"

bench_args=("$@") curve_args=() has_wl=0 prev=""
for a in "$@"; do
	case $a in
	--workloads) has_wl=1 ;;
	--quick) curve_args+=(--runtime 2 --thinks 0,500,2000,8000,32000) ;;
	esac
	[ "$prev" != --table ] || curve_args+=(--table "$a")
	prev=$a
done
[ $has_wl = 1 ] || bench_args+=(--workloads qd1,qd32)

mkdir -p "$RESULTS/main"
# Not exported: the scripts below keep their own $WORK/timings.tsv.
TIMINGS=$RESULTS/main/timings.tsv
: > "$TIMINGS"
start=$SECONDS
timed deps "$TOP/scripts/deps.sh"
timed baseline "$TOP/scripts/baseline.sh"
timed series "$TOP/scripts/series.sh" apply
timed build "$TOP/scripts/build.sh" test
timed bench "$TOP/scripts/bench.sh" "${bench_args[@]}"
timed curve "$TOP/scripts/think-curve.sh" "${curve_args[@]}"
printf 'total\t%s\n' "$((SECONDS - start))" >> "$TIMINGS"
log "main: $((SECONDS - start)) s in all ($(step_times "$TIMINGS")); results/bench/, results/think-curve/"
