#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# think-curve.sh [--thinks LIST] [--runtime S] [--reps N] [--govs LIST]
#                [--configs LIST] [--table NAME] [--platform tcg|icount]
#                [--latency US] [--tail US:PERMILLE] [--out DIR]
# think-curve.sh --report DIR | --md SUMMARY
#
# The think-time curve: fio QD1 4 KiB random reads with a think time after
# each completion (virtio-blk, or with --platform icount the emulated
# device of tools/emu-blk at --latency US, with --tail US:PERMILLE that
# share of the requests taking US instead, on the deterministic platform:
# scripts/bench/bench.sh --platform), swept over LIST (microseconds, default
# 0,100,200,500,1000,2000,4000,7000,8000,9000,16000,32000: 0 to 32 ms and
# the 8 ms hold period +- 1 ms), for the governors (default menu,teo) and
# the configurations of --configs (default off,auto,c6off,dmalat: the
# attribute off and auto, and today's workarounds C6 disabled and
# /dev/cpu_dma_latency; off, auto and c6off are needed; poll adds
# idle=poll, in a second boot, which under -icount runs many times slower
# than the others, as every idle vCPU executes), in one boot of the
# isolated platform (scripts/bench/bench.sh --workloads qd1-t<N>us ...;
# defaults: 1 repetition of 4 s per cell). Answers where auto helps, where it is
# neutral and where it hurts, and what it costs in the quantities power
# comes from.
#
# Per think time and governor, in DIR/curve.tsv and DIR/curve.md (also
# printed): p50 and p99 ratios auto/off and auto/c6off; PM QoS updates and
# misses per I/O with auto; completions that ran on a CPU woken from a
# deep state, per I/O, off / auto / c6off (and dmalat / poll, with p99
# auto/dmalat, when they ran); the share of idle time in the
# deep state and
# local timer interrupts per CPU and second, off / auto / c6off; the busy
# share of the CPUs, off / auto. DIR/curve.png plots the same. The tables
# and the plot are scripts/report/report.py think-curve's (matplotlib).
# Printed, never asserted.
#
# Output in DIR (default $RESULTS/think-curve): bench/ (scripts/bench/bench.sh's
# output: summary.json, bench.md, cells.json, ...), curve.tsv, curve.md,
# curve.png, run.txt (command, platform, date, commit). --report DIR only
# rebuilds curve.* from DIR/bench/summary.json (or DIR/summary.json);
# --md SUMMARY only prints the table of a summary.json (report.py figures).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
RUN_COMMIT=$(repo_head)
# The tables and the plot (Debian's python3 and python3-matplotlib: the
# python3 on PATH may be another one).
REPORT_PY=(/usr/bin/python3 "$TOP/scripts/report/report.py" think-curve)

usage() {
	sed -n '4,6s/^# //p' "$0" >&2
	exit 2
}

thinks=$THINKS
runtime=4 reps=1 govs=$GOVERNORS table=$DEFAULT_TABLE out="" report_only="" md_only=""
configs=off,auto,c6off,dmalat
platform=tcg latency=20 tail=""
while [ $# -gt 0 ]; do
	case $1 in
	--thinks) thinks=${2:?}; shift 2 ;;
	--runtime) runtime=${2:?}; shift 2 ;;
	--reps) reps=${2:?}; shift 2 ;;
	--govs) govs=${2:?}; shift 2 ;;
	--configs) configs=${2:?}; shift 2 ;;
	--table) table=${2:?}; shift 2 ;;
	--platform) platform=${2:?}; shift 2 ;;
	--latency) latency=${2:?}; shift 2 ;;
	--tail) tail=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--report) report_only=${2:?}; shift 2 ;;
	--md) md_only=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
[[ $thinks =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--thinks wants a comma list of microseconds, got '$thinks'"
# The configurations bench.sh runs in the first boot, and whether it boots
# once more for idle=poll.
boot_configs=$(echo ",$configs," | sed 's/,poll,/,/; s/^,//; s/,$//')
poll_arg=(--no-poll)
[[ ",$configs," != *,poll,* ]] || poll_arg=()
for c in off auto c6off; do
	[[ ",$boot_configs," == *",$c,"* ]] || die "--configs needs off, auto and c6off, got '$configs'"
done

# report DIR: curve.tsv, curve.md and curve.png from DIR's summary.json.
report() {
	local dir=$1
	# It finds the summary.json (DIR/bench or DIR) and fails without one.
	"${REPORT_PY[@]}" --report "$dir" || die "report.py think-curve failed on $dir"
	# The modeled energy per think time (a model, never a measurement).
	if [ -f "$dir/bench/cells.json" ] && python3 "$TOP/scripts/report/report.py" energy "$dir/bench" > "$dir/energy.md"; then
		echo
		cat "$dir/energy.md"
	fi
	log "think-curve: $dir/curve.md, curve.tsv, curve.png, energy.md"
}

if [ -n "$md_only" ]; then
	exec "${REPORT_PY[@]}" --md "$md_only"
fi
if [ -n "$report_only" ]; then
	report "$report_only"
	exit 0
fi

[ -n "$out" ] || out=$RESULTS/think-curve
[ "$table" = "$DEFAULT_TABLE" ] || [ "$out" != "$RESULTS/think-curve" ] || out=$out-$table
[ "$platform" = tcg ] || [ "$out" != "$RESULTS/think-curve" ] || out=$out-$platform
case $platform in tcg|icount) ;; *) die "--platform wants tcg or icount" ;; esac
plat=()
[ "$platform" = tcg ] || plat=(--platform "$platform" --latency "$latency" ${tail:+--tail "$tail"})
[ -z "$tail" ] || [ "$platform" = icount ] || die "--tail needs --platform icount"
out=$(realpath -m "$out")
own_out "$out" .think-curve-run
wls=$(echo "$thinks" | tr ',' '\n' | sed 's/.*/qd1-t&us/' | paste -sd, -)
cmd=(bash scripts/bench/bench.sh --table "$table" "${plat[@]}" --govs "$govs" --configs "$boot_configs"
     --workloads "$wls" --reps "$reps" --runtime "$runtime" --pairs 0 "${poll_arg[@]}"
     --out "$out/bench")
start=$SECONDS
rc=0
"$TOP/${cmd[1]}" "${cmd[@]:2}" || rc=$?
{
	echo "command=bash scripts/bench/think-curve.sh --thinks $thinks --runtime $runtime --reps $reps --govs $govs --configs $configs --table $table${plat[*]:+ ${plat[*]}}"
	echo "bench_command=${cmd[*]//"$TOP"\//}"
	if [ "$platform" = icount ]; then
		echo "platform=$(icount_platform 3), tools/emu-blk at $latency us${tail:+ (${tail#*:} per mille at ${tail%%:*} us)}, one queue per vCPU, controller CPU 2, fio on CPUs 0-1"
	else
		echo "platform=$(tcg_platform 2) (isolated: scripts/qemu/guest.sh --isolate)"
	fi
	record_tail "$table" "$start"
} > "$out/run.txt"
[ $rc = 0 ] || die "bench.sh failed (exit $rc); see $out/bench"
report "$out"
log "think-curve: $((SECONDS - start)) s"
