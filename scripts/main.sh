#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# main.sh - the project's main job (README.md), from a fresh clone: fetch
# the pinned baseline, apply the series, build the patched test kernel,
# boot it under QEMU with emulated C-states on the deterministic platform
# (scripts/bench/bench.sh --platform icount: QEMU -icount, the emulated storage
# device of tools/emu-blk at 20 us, 3 vCPUs of which the last is the
# device's controller) and show the effect:
#   1. the benchmark matrix of scripts/bench/bench.sh (attribute off, auto, C6
#      disabled, /dev/cpu_dma_latency, idle=poll; menu and teo) for QD1,
#      QD4 and QD32 (QD1 and QD32 on --platform tcg), printed as a Markdown table with its targets (printed,
#      not asserted), deep-state completions per I/O and the share of time
#      all CPUs were in C6 at once, written with a figure to
#      results/bench-icount/;
#   2. the think-time curve of scripts/bench/think-curve.sh (QD1 with 0 to 32 ms
#      of think time, 2 s cells; off, auto, C6 disabled; menu and teo; the
#      workarounds are in the matrix of step 1, and in the committed curve
#      of README.md, which has /dev/cpu_dma_latency too),
#      printed and plotted into results/think-curve-icount/curve.png.
# On the deterministic platform both use 2 s cells and the curve 8 think
# times (0, 0.5, 1, 2, 5, 8, 16, 32 ms; the committed curve of README.md
# has 12), so that the job stays well under 40 minutes from a fresh clone
# on a 2-core machine (4 s cells took about 50).
# --platform tcg runs both on the earlier platform instead (QEMU/TCG with
# pinned threads, virtio-blk; results/bench/, results/think-curve/).
# Step times go to results/main/timings.tsv and are printed at the end.
#
# Usage: scripts/main.sh [bench.sh options, e.g. --quick or --table amd]
# Options go to bench.sh; --table, --platform, --latency and --quick also
# shape the curve (--quick: 2 s cells at 0, 0.5, 2, 8 and 32 ms). Without --workloads,
# bench.sh runs qd1,qd4,qd32 (qd1,qd32 on tcg): the curve covers the
# think times.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

bench_args=("$@") curve_args=() has_wl=0 has_rt=0 quick=0 platform="" prev=""
for a in "$@"; do
	case $a in
	--workloads) has_wl=1 ;;
	--runtime) has_rt=1 ;;
	--quick) quick=1 curve_args+=(--runtime 2 --thinks 0,500,2000,8000,32000) ;;
	esac
	[ "$prev" != --table ] || curve_args+=(--table "$a")
	[ "$prev" != --platform ] || platform=$a
	[ "$prev" != --latency ] || curve_args+=(--latency "$a")
	prev=$a
done
if [ -z "$platform" ]; then
	platform=icount
	bench_args+=(--platform icount)
fi
if [ $has_wl = 0 ] && [ "$platform" = icount ]; then
	bench_args+=(--workloads qd1,qd4,qd32)
elif [ $has_wl = 0 ]; then
	bench_args+=(--workloads qd1,qd32)
fi
curve_args+=(--platform "$platform" --configs off,auto,c6off)
if [ "$platform" = icount ] && [ $quick = 0 ]; then
	[ $has_rt = 1 ] || bench_args+=(--runtime 2)
	curve_args+=(--runtime 2 --thinks 0,500,1000,2000,5000,8000,16000,32000)
fi

mkdir -p "$RESULTS/main"
# Not exported: the scripts below keep their own $WORK/timings.tsv.
TIMINGS=$RESULTS/main/timings.tsv
printf 'step\tseconds\n' > "$TIMINGS"
start=$SECONDS
timed deps "$TOP/scripts/setup/deps.sh"
timed baseline "$TOP/scripts/setup/baseline.sh"
timed series "$TOP/scripts/setup/series.sh" apply
timed build "$TOP/scripts/setup/build.sh" test
timed bench "$TOP/scripts/bench/bench.sh" "${bench_args[@]}"
timed curve "$TOP/scripts/bench/think-curve.sh" "${curve_args[@]}"
printf 'total\t%s\n' "$((SECONDS - start))" >> "$TIMINGS"
log "main: $((SECONDS - start)) s in all ($(step_times "$TIMINGS")); results/bench*/, results/think-curve*/"
