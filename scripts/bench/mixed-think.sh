#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mixed-think.sh [--runtime S] [--reps N] [--govs LIST] [--table NAME]
#                [--latency US] [--out DIR]
# mixed-think.sh --md DIR
#
# Jobs with different think times at once, on the deterministic platform
# (scripts/bench/bench.sh --platform icount, tools/emu-blk at --latency US):
# the workload tools/bench/mixed-think.fio runs a QD1 stream with 1 ms of
# think time on CPU 0 and a QD1 job with 20 ms of think time (gaps longer
# than the hold period) on CPU 1, at once. Two layouts: one hardware queue
# per CPU (the jobs use different hctxs) and one queue for all CPUs
# (bench.sh --queues 1: they share one hctx, as on AHCI or single-queue
# virtio-blk). For the governors (default menu,teo) and the configurations
# off, auto, c6off and dmalat, and per layout a second boot with idle=poll
# (bench.sh's poll); defaults 1 repetition of 4 s per cell.
# Answers whether auto holds the stream's CPU and leaves the sparse job's
# CPU alone, with its own hctx and with a shared one.
#
# Output in DIR (default $RESULTS/mixed-think): per-cpu/ and one-queue/
# (scripts/bench/bench.sh's output: summary.json, bench.md, cells.json,
# energy.md, ...), jobs.md (scripts/report/report.py bench --jobs, also
# printed: per layout, governor, configuration and job, p50, p99, IOPS
# and the completions that woke the job's CPU from a deep state, per I/O;
# then per layout and governor, PM QoS updates and misses per I/O with
# auto and the deep share of idle time off / auto) and run.txt (command,
# platform, date, commit). --md DIR only prints the tables of DIR, as
# scripts/report/report.py figures quotes them. Printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
RUN_COMMIT=$(repo_head)
JOBS_PY=(python3 "$TOP/scripts/report/report.py" bench --jobs)

usage() {
	sed -n '4,6s/^# //p' "$0" >&2
	exit 2
}

runtime=4 reps=1 govs=$GOVERNORS table=$DEFAULT_TABLE latency=20 out="" md_only=""
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=${2:?}; shift 2 ;;
	--reps) reps=${2:?}; shift 2 ;;
	--govs) govs=${2:?}; shift 2 ;;
	--table) table=${2:?}; shift 2 ;;
	--latency) latency=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--md) md_only=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done

if [ -n "$md_only" ]; then
	exec "${JOBS_PY[@]}" "$md_only/per-cpu" "$md_only/one-queue"
fi

[ -n "$out" ] || out=$RESULTS/mixed-think
out=$(realpath -m "$out")
own_out "$out" .mixed-think-run
common=(--table "$table" --platform icount --latency "$latency" --govs "$govs"
	--configs "off,auto,c6off,dmalat" --workloads mixed-think --reps "$reps"
	--runtime "$runtime" --pairs 0)
start=$SECONDS
rc=0
cmds=()
for layout in per-cpu one-queue; do
	q=()
	[ $layout = per-cpu ] || q=(--queues 1)
	cmd=(bash scripts/bench/bench.sh "${common[@]}" "${q[@]}" --out "$out/$layout")
	cmds+=("${cmd[*]//"$TOP"\//}")
	"$TOP/${cmd[1]}" "${cmd[@]:2}" || rc=$?
	[ $rc = 0 ] || break
done
{
	echo "command=bash scripts/bench/mixed-think.sh --runtime $runtime --reps $reps --govs $govs --table $table --latency $latency"
	echo "bench_command=${cmds[0]}"
	echo "bench_command_one_queue=${cmds[1]:-}"
	echo "platform=$(icount_platform 3), tools/emu-blk at $latency us, one queue per vCPU (per-cpu/) and one queue for all (one-queue/), controller CPU 2, fio job stream on CPU 0, sparse on CPU 1"
	record_tail "$table" "$start"
} > "$out/run.txt"
[ $rc = 0 ] || die "bench.sh failed (exit $rc); see $out"
"${JOBS_PY[@]}" "$out/per-cpu" "$out/one-queue" | tee "$out/jobs.md"
log "mixed-think: $out/jobs.md, $((SECONDS - start)) s"
