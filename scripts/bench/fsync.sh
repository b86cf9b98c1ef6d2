#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fsync.sh [--runtime S] [--reps N] [--govs LIST] [--table NAME]
#          [--latencies LIST] [--out DIR]
# fsync.sh --md DIR
#
# The sync-heavy workload on the deterministic platform (issue 17, "the
# case in which the 2024 removal of menu's iowait heuristic cost 5 % on
# Sapphire Rapids": LKP's fsmark, small files, fsync before close): fio
# appends 4 KiB to a file on ext4 and calls fsync() after every write
# (tools/bench/fsync.fio), on tools/emu-blk with its data kept in memory
# and a volatile write cache, so that each fsync() is a data write, a
# journal commit by the jbd2 thread and cache flushes (scripts/bench/bench.sh
# --platform icount --fs ext4). One boot per device latency of --latencies
# (microseconds per request, flushes included; default 20,1000: a local
# NVMe SSD, and network or cloud block storage); one hardware queue per
# CPU; for the governors (default menu,teo) and the configurations off,
# auto, c6off and dmalat; defaults 1 repetition of 4 s per cell. The
# figures are those of the fsync() calls: p50 and p99 of their latency
# and fsyncs per second, beside the device completions that woke their
# CPU from a deep state.
#
# The kernel: the test kernel plus scripts/configs/fs.config (ext4), built
# into $WORK/build-fs by scripts/setup/build.sh (a full build the first
# time, 6 to 10 minutes here; incremental after): the test command does
# not build ext4.
#
# Output in DIR (default $RESULTS/fsync): per latency a folder
# <LATENCY>us/ with scripts/bench/bench.sh's output (summary.json,
# bench.md, cells.json, energy.md, ...), fsync.md (report.py bench --fsync,
# also printed: per latency, governor and configuration the fsync() p50,
# p99 and rate, device requests per fsync(), deep wakes per request, PM QoS
# updates per fsync(), deep shares and the modeled power; then auto against
# off and c6off) and run.txt (command, platform, date, commit). --md DIR
# only prints the tables of DIR, as report.py figures quotes them.
# Printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
RUN_COMMIT=$(repo_head)
REPORT_PY=(/usr/bin/python3 "$TOP/scripts/report/report.py" bench --fsync)

usage() {
	sed -n '4,6s/^# //p' "$0" >&2
	exit 2
}

runtime=4 reps=1 govs=$GOVERNORS table=$DEFAULT_TABLE latencies=20,1000 out="" md_only=""
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=${2:?}; shift 2 ;;
	--reps) reps=${2:?}; shift 2 ;;
	--govs) govs=${2:?}; shift 2 ;;
	--table) table=${2:?}; shift 2 ;;
	--latencies) latencies=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--md) md_only=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done

if [ -n "$md_only" ]; then
	mapfile -t dirs < <(find "$md_only" -mindepth 1 -maxdepth 1 -type d -name '*us' | sort -V)
	[ ${#dirs[@]} -gt 0 ] || die "no <LATENCY>us/ folders in $md_only"
	exec "${REPORT_PY[@]}" "${dirs[@]}"
fi
[[ $latencies =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--latencies wants a comma list of microseconds, got $latencies"
[ "$(tr ',' '\n' <<< "$latencies" | sort | uniq -d)" = "" ] || die "--latencies names a latency twice: $latencies"
[[ $runtime =~ ^[1-9][0-9]*$ ]] && [ "$runtime" -ge 2 ] || die "--runtime wants whole seconds (2 or more), got $runtime"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "--reps wants a number, got $reps"
case ,$TABLES, in *,"$table",*) ;; *) die "--table wants one of $TABLES, got $table" ;; esac
for g in ${govs//,/ }; do
	case $g in menu|teo|ladder|haltpoll) ;; *) die "--govs: unknown governor '$g'" ;; esac
done

[ -n "$out" ] || out=$RESULTS/fsync
out=$(realpath -m "$out")
own_out "$out" .fsync-run
start=$SECONDS
build=$WORK/build-fs
mkdir -p "$WORK"
cat "$TOP/scripts/configs/test.config" "$TOP/scripts/configs/fs.config" > "$WORK/fs-test.config"
TEST_CONFIG=$WORK/fs-test.config BUILD_OUT=$build "$TOP/scripts/setup/build.sh" test
build_s=$((SECONDS - start))
rc=0
cmds=()
for lat in ${latencies//,/ }; do
	cmd=(bash scripts/bench/bench.sh --table "$table" --platform icount --latency "$lat" --fs ext4
		--govs "$govs" --configs "off,auto,c6off,dmalat" --workloads fsync --reps "$reps"
		--runtime "$runtime" --pairs 0 --no-poll --build "$build" --out "$out/${lat}us")
	cmds+=("${cmd[*]//"$TOP"\//}")
	"$TOP/${cmd[1]}" "${cmd[@]:2}" || rc=$?
	[ $rc = 0 ] || break
done
kernel=$(series_kernel)
{
	echo "command=bash scripts/bench/fsync.sh --runtime $runtime --reps $reps --govs $govs --table $table --latencies $latencies"
	for c in "${cmds[@]}"; do
		echo "bench_command_${c##*/}=$c"
	done
	echo "platform=$(icount_platform 3), tools/emu-blk with its data in memory and a volatile write cache (store=1 write_cache=1) at the device latency of each folder, one queue per vCPU, ext4 on it, controller CPU 2, fio on CPU 0, the jbd2 thread on CPUs 0-1"
	echo "kernel=${kernel/(test config)/(test config + scripts/configs/fs.config)}"
	echo "table=$table"
	echo "date=$(date -u +%Y-%m-%d)"
	echo "commit=$RUN_COMMIT"
	echo "build_s=$build_s"
	echo "wall_s=$((SECONDS - start))"
} > "$out/run.txt"
[ $rc = 0 ] || die "bench.sh failed (exit $rc); see $out"
dirs=()
for lat in ${latencies//,/ }; do
	dirs+=("$out/${lat}us")
done
"${REPORT_PY[@]}" "${dirs[@]}" | tee "$out/fsync.md"
log "fsync: $out/fsync.md, $((SECONDS - start)) s"
