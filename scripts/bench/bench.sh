#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [--table spr|skx|icx|amd] [--quick] [--reps N] [--runtime S]
#          [--pairs N] [--queues N] [--no-poll] [--quiet-wait S] [--shared]
#          [--govs LIST] [--configs LIST] [--workloads LIST]
#          [--platform tcg|icount] [--latency US] [--tail US:PERMILLE]
#          [--smp N] [--fs ext4] [--build DIR | --series-commit C] [--out DIR]
# bench.sh --report DIR
#
# The benchmark of the shallow_idle series, in the QEMU guest with
# emulated C-states (tools/emu-cstates, table spr by default): fio job files
# of tools/bench/ on /dev/vda (virtio-blk), run by tools/guest/bench.sh,
# for the cpuidle governors menu and teo and the configurations
#   off     shallow_idle off (today's kernel)
#   auto    shallow_idle auto on /dev/vda
#   c6off   the deep states (exit latency above the auto limit: C6 on spr,
#           C2 on amd) disabled on every CPU (the latency floor)
#   dmalat  /dev/cpu_dma_latency held at the auto limit (global)
#   poll    idle=poll: a second boot of the same kernel
# alternating in one boot (every configuration once per repetition and
# workload, the order rotated per repetition), and the workloads QD1,
# QD1 + 200 us think time, QD1 + 20 ms think time, QD32 x 2 jobs.
# Then the hot-path overhead: null_blk (irqmode=0) QD32 x 2 jobs, off and
# auto alternating in pairs (ABBA order), IOPS ratio auto/off.
#
# Defaults: 3 repetitions of 4 s per cell, 1 s idle after each cell, 5
# null_blk pairs of 3 s; about 15 minutes on a 2-core host under TCG.
# --quick: 1 repetition, 2 s cells, 2 pairs of 1 s (a smoke test).
#
# Output in DIR (default $RESULTS/bench; $RESULTS/bench-TABLE for other
# tables; "-quick" appended for --quick): bench.md (the tables and the
# targets, also printed, then the modeled energy of scripts/report/report.py energy
# with its own targets; energy.md and energy.json), cells.json (every cell), summary.json (median,
# min, max per governor, workload and configuration), targets.json,
# bench.png (matplotlib; without it a warning and no plot), and per boot
# guest-cstates/ and guest-poll/ with the raw fio JSON (fio/), the
# per-cell counters (meta/), info.json, bench.log and console.log. The
# report is scripts/report/report.py bench.
#
# --report DIR only rebuilds the report from the meta/ folders below DIR
# (scripts/bench/host-bench.sh uses it); it installs nothing.
#
# Targets are printed next to the measured values and never asserted: the
# exit status is 0 when every cell ran, whatever the numbers; 1 when a
# guest run or a fio run failed or a cell ran without its configuration
# (e.g. the write to /dev/cpu_dma_latency failed: the cell fails and gives
# no numbers); 2 on usage errors.
#
# The guests run with scripts/qemu/guest.sh --lock (no kernel build meanwhile).
# Other guests (kselftest, torture, ... of other users) still compete for
# the host CPUs: before each boot bench.sh waits up to --quiet-wait seconds
# (default 120) for them to end, then samples them every 5 s; the output
# says how many ran.
#
# The guests run isolated (scripts/qemu/guest.sh --isolate: each vCPU on its
# own host CPU, virtio-blk on an I/O thread that runs at SCHED_FIFO on the
# host CPU of the last vCPU, so that an emulated C-state exit that vCPU
# busy-waits delays neither vCPU 0 nor the I/O thread); --shared lets the
# host schedule QEMU's threads freely, as before 2026-12-02.
#
# The guests boot with tsc=reliable (see below) and, for idle=poll, with
# idle=poll.
#
# --govs, --configs and --workloads (comma lists) run a part of the matrix,
# e.g. --govs menu --configs auto,c6off --workloads qd1,qd1-cpu0; a workload
# is a job file tools/bench/NAME.fio, or qd1-t<N>us: QD1 with N us of think
# time (tools/bench/qd1-think.fio; scripts/bench/think-curve.sh).
#
# --queues N boots with virtio_blk.num_request_queues=N (default: one queue
# per vCPU, each hctx covering one CPU; with 1 queue the hctx covers both
# CPUs, so auto constrains both while busy).
# --platform icount (the deterministic platform): QEMU -icount
# (scripts/qemu/guest.sh --accel icount: the guest clock counts instructions,
# 1 ns each, and skips the time all vCPUs halt), -smp 3 by default, and the
# emulated storage device tools/emu-blk instead of virtio-blk: /dev/emublk0,
# one hardware queue per CPU (--queues 1: one for all), device latency
# --latency US (default 20) and --tail US:PERMILLE (a share of the requests
# takes US instead), completions sent by IPI from a controller CPU (the
# last vCPU, without emulated C-states, fio never runs there) to the
# submitting CPU. No host CPU time enters a figure; --shared and the
# isolation do not apply (one host thread runs every vCPU in turns).
# Defaults there: 1 repetition and 1 null_blk pair (the spread between
# runs is in data/icount-repro). --platform tcg (default): the platform
# above.
#
# --fs ext4 (with --platform icount; scripts/bench/fsync.sh): tools/emu-blk
# keeps its data (store=1, 384 MiB) and reports a volatile write cache
# (write_cache=1: fsync sends cache flushes); the guest makes an ext4 file
# system on it and mounts it for job files that write files (FSDIR), and
# fio may write. The kernel (--build) needs ext4 (scripts/configs/fs.config).
#
# Every cell also counts the device's completions that ran on a CPU woken
# from a deep state (trace events cpu_idle and block_rq_complete; column
# "deep wakes/IO").
#
# --series-commit C runs the series as this repository held it at commit C
# (its series file and patches/) instead of branch series, built into
# $BUILD, which is rebuilt from branch series afterwards (as for
# scripts/bench/raise-cost.sh): v2 against v3 on one platform. Default output
# then gets "-C" appended.
#
# Needs BASE_DIR like guest.sh; installs python3-matplotlib (for bench.png)
# when missing.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/series-build.sh"

usage() {
	sed -n '4,8s/^# //p' "$0" >&2
	exit 2
}

# ---- the report -----------------------------------------------------------

# report DIR - cells.json, summary.json, targets.json, bench.md (with the
# modeled energy of scripts/report/report.py energy) and bench.png from the
# meta/ folders below DIR; prints bench.md (scripts/report/report.py bench).
report() {
	# Debian's python3, whose packages (python3-matplotlib) it imports: the
	# first python3 on PATH may be another one (pyenv).
	/usr/bin/python3 "$TOP/scripts/report/report.py" bench "$1"
}

# ---- arguments ------------------------------------------------------------

table=$DEFAULT_TABLE quick=0 reps="" runtime="" pairs="" poll=1 out="" report_only=""
queues="" quiet_wait=120 isolate=1 platform=tcg latency=20 tail="" smp="" scommit="" fs=""
govs=${GOVERNORS//,/ } configs=$BENCH_CONFIGS workloads=$BENCH_WORKLOADS
build=$BUILD
while [ $# -gt 0 ]; do
	case $1 in
	--table) table=${2:?}; shift 2 ;;
	--quick) quick=1; shift ;;
	--reps) reps=${2:?}; shift 2 ;;
	--runtime) runtime=${2:?}; shift 2 ;;
	--pairs) pairs=${2:?}; shift 2 ;;
	--no-poll) poll=0; shift ;;
	--shared) isolate=0; shift ;;
	--queues) queues=${2:?}; shift 2 ;;
	--platform) platform=${2:?}; shift 2 ;;
	--latency) latency=${2:?}; shift 2 ;;
	--tail) tail=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--fs) fs=${2:?}; shift 2 ;;
	--quiet-wait) quiet_wait=${2:?}; shift 2 ;;
	--govs) govs=$(echo "${2:?}" | tr ',' ' '); shift 2 ;;
	--configs) configs=$(echo "${2:?}" | tr ',' ' '); shift 2 ;;
	--workloads) workloads=$(echo "${2:?}" | tr ',' ' '); shift 2 ;;
	--build) build=${2:?}; shift 2 ;;
	--series-commit) scommit=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--report) report_only=${2:?}; shift 2 ;;
	-h|--help) usage ;;
	*) echo "unknown argument: $1" >&2; usage ;;
	esac
done

if [ -n "$report_only" ]; then
	[ -d "$report_only" ] || die "no folder $report_only"
	report "$(realpath "$report_only")"
	exit 0
fi

case ,$TABLES, in *,"$table",*) ;; *) die "--table wants one of $TABLES, got $table" ;; esac
case $platform in tcg|icount) ;; *) die "--platform wants tcg or icount" ;; esac
[[ $latency =~ ^[0-9]+$ ]] && [ "$latency" -le 1000000 ] || die "--latency wants microseconds (0-1000000), got $latency"
[ -z "$tail" ] || { [[ $tail =~ ^[0-9]+:[0-9]+$ ]] && [ "${tail#*:}" -le 1000 ]; } ||
	die "--tail wants US:PERMILLE (PERMILLE 0-1000), got $tail"
[ -z "$smp" ] || { [[ $smp =~ ^[0-9]+$ ]] && [ "$smp" -ge 2 ] && [ "$smp" -le 16 ]; } ||
	die "--smp wants 2-16 CPUs, got $smp"
case $fs in ''|ext4) ;; *) die "--fs wants ext4, got $fs" ;; esac
[ -z "$fs" ] || [ "$platform" = icount ] || die "--fs needs --platform icount (the emulated device keeps the data)"
# With a file system mounted on the device, fio may write: only job files
# that work in it (FSDIR), never on the raw device under it.
if [ -n "$fs" ]; then
	for w in $workloads; do
		grep -q '^directory=\${FSDIR}$' "$TOP/tools/bench/$w.fio" 2> /dev/null ||
			die "--fs: workload $w does not work in the file system (no directory=\${FSDIR} in tools/bench/$w.fio)"
	done
fi
emu=""
if [ "$platform" = icount ]; then
	: "${smp:=3}"
	isolate=0
	emu="latency_us=$latency${queues:+ queues=$queues}"
	[ -z "$tail" ] || emu="$emu tail_us=${tail%%:*} tail_permille=${tail#*:}"
	[ -z "$fs" ] || emu="$emu store=1 write_cache=1 size_mb=384"
else
	[ -z "$tail" ] && [ "$latency" = 20 ] || die "--latency and --tail need --platform icount"
	: "${smp:=2}"
fi
if [ $quick = 1 ]; then
	: "${reps:=1}" "${runtime:=2}" "${pairs:=2}"
	steady=0.5 null_runtime=1
elif [ "$platform" = icount ]; then
	# Deterministic: runs differ far less than on TCG (data/icount-repro),
	# one repetition and one null_blk pair by default.
	: "${reps:=1}" "${runtime:=4}" "${pairs:=1}"
	steady=1 null_runtime=3
else
	: "${reps:=3}" "${runtime:=4}" "${pairs:=5}"
	steady=1 null_runtime=3
fi
after=1
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "--reps wants a number, got $reps"
[[ $runtime =~ ^[1-9][0-9]*$ ]] || die "--runtime wants whole seconds, got $runtime"
[[ $pairs =~ ^[0-9]+$ ]] || die "--pairs wants a number, got $pairs"
[[ $quiet_wait =~ ^[0-9]+$ ]] || die "--quiet-wait wants seconds, got $quiet_wait"
[ -z "$queues" ] || [[ $queues =~ ^[1-9][0-9]*$ ]] || die "--queues wants a number, got $queues"
for g in $govs; do
	case $g in menu|teo|ladder|haltpoll) ;; *) die "--govs: unknown governor '$g'" ;; esac
done
for c in $configs; do
	[[ " $BENCH_CONFIGS " == *" $c "* ]] || die "--configs: unknown configuration '$c' ($BENCH_CONFIGS)"
done
for w in $workloads; do
	[ -f "$TOP/tools/bench/$w.fio" ] || [[ $w =~ ^qd1-t[0-9]+us$ ]] ||
		die "--workloads: no job file tools/bench/$w.fio, and not qd1-t<N>us"
done
[ -n "$govs" ] && [ -n "$configs" ] && [ -n "$workloads" ] || die "--govs, --configs and --workloads want a non-empty list"
[ "$runtime" -ge 2 ] || die "--runtime must be at least 2 s"
if [ -n "$scommit" ]; then
	series_commit_build bench "$scommit" "$build"
fi
[ -d "$build" ] || die "no kernel build folder $build"
if [ -z "$out" ]; then
	out=$RESULTS/bench
	[ "$table" = "$DEFAULT_TABLE" ] || out=$out-$table
	[ "$platform" = tcg ] || out=$out-$platform
	[ -z "$scommit" ] || out=$out-$short
	[ -z "$queues" ] || out=$out-q$queues
	[ $quick = 0 ] || out=$out-quick
fi
out=$(realpath -m "$out")

need_pkgs python3-matplotlib

# OUT: replaced, but only when this script made it.
own_out "$out" .bench-run
mkdir -p "$out/.wrap"

# wrapper FILE IDLE - the guest script: settings, the job files, then
# tools/guest/bench.sh (in the share, like every file of tools/guest/).
wrapper() {
	local f
	{
		echo '#!/bin/sh'
		echo "# Generated by scripts/bench/bench.sh: settings and tools/bench/*.fio for"
		echo "# tools/guest/bench.sh."
		echo "export bench_mode=guest bench_idle=$2 bench_table=$table"
		echo "export bench_reps=$reps bench_runtime=$runtime bench_steady=$steady"
		echo "export bench_after=$after bench_pairs=$pairs bench_null_runtime=$null_runtime"
		echo "export bench_govs='$govs' bench_configs='$configs'"
		echo "export bench_workloads='$workloads'"
		echo "export bench_emu='$emu' bench_platform=$platform"
		echo "export bench_jobs=/tmp/bench-jobs bench_readonly=$([ -n "$fs" ] && echo 0 || echo 1) bench_fs=$fs"
		echo 'mkdir -p "$bench_jobs"'
		for f in "$TOP"/tools/bench/*.fio; do
			echo "cat > \"\$bench_jobs/$(basename "$f")\" <<'EOF_FIO'"
			cat "$f"
			echo "EOF_FIO"
		done
		# qd1-t<N>us: tools/bench/qd1-think.fio with thinktime=N.
		for f in $workloads; do
			[[ $f =~ ^qd1-t([0-9]+)us$ ]] && [ ! -f "$TOP/tools/bench/$f.fio" ] || continue
			echo "cat > \"\$bench_jobs/$f.fio\" <<'EOF_FIO'"
			sed -e "s/^thinktime=.*/thinktime=${BASH_REMATCH[1]}/" \
			    -e "s/^\[qd1-think\]/[$f]/" "$TOP/tools/bench/qd1-think.fio"
			echo "EOF_FIO"
		done
		echo 'exec sh "$SHARE/bench.sh"'
	} > "$1"
}

# other_qemu NAME - QEMU processes on the host other than the guest of
# boot NAME.
other_qemu() {
	ps -eo args= | awk -v me="guest_run=bench-$1.sh" \
		'$1 ~ /(^|\/)qemu-system-/ && index($0, me) == 0 { n++ } END { print n + 0 }'
}

# boot NAME IDLE [APPEND] - one guest run into OUT/guest-NAME.
boot() {
	local name=$1 idle=$2 append=${3:-} cells est rc=0 s waited=0 sampler
	local nwl
	nwl=$(echo $workloads | wc -w)
	wrapper "$out/.wrap/bench-$name.sh" "$idle"
	if [ "$idle" = poll ]; then
		cells=$((reps * nwl))
	else
		cells=$((reps * $(echo $govs | wc -w) * $(echo $configs | wc -w) * nwl + 2 * pairs))
	fi
	# idle=poll under -icount: every vCPU executes all the time, so a guest
	# second costs each vCPU a full second of instructions; measured
	# 2026-12-08: about 85 host s per 2 s cell (14 times a cell's
	# runtime + after + 3 s), where a boot with C-states takes about 12.
	slow=1
	[ "$idle" != poll ] || [ "$platform" != icount ] || slow=15
	est=$((cells * (runtime + after + 3) * slow + 120))
	# Other guests share the host CPUs: wait a while for them to end.
	while [ "$(other_qemu "$name")" != 0 ] && [ $waited -lt "$quiet_wait" ]; do
		[ $waited != 0 ] || log "bench: other QEMU guests are running; waiting up to $quiet_wait s for them to end"
		sleep 5
		waited=$((waited + 5))
	done
	{
		echo "waited_for_quiet_host_s=$waited"
		echo "loadavg_at_start=$(cut -d' ' -f1-3 /proc/loadavg)"
	} > "$out/host-$name.txt"
	# Sample the other QEMU processes every 5 s while the guest runs.
	(while :; do other_qemu "$name"; sleep 5; done) > "$out/host-$name.qemu" 2>/dev/null &
	sampler=$!
	log "bench: boot '$name' ($cells cells, about $((est / 60)) min at most)"
	s=$SECONDS
	"$TOP/scripts/qemu/guest.sh" --kernel "$build" --script "$out/.wrap/bench-$name.sh" \
		--out "$out/guest-$name" --timeout $((2 * est + 300)) --lock \
		--smp "$smp" $([ "$platform" = tcg ] || echo --accel "$platform") \
		${append:+--append "$append"} $([ $isolate = 0 ] || echo --isolate) || rc=$?
	kill "$sampler" 2>/dev/null || true
	wait "$sampler" 2>/dev/null || true
	echo "$((SECONDS - s))" > "$out/guest-$name/wall_s"
	{
		echo "loadavg_at_end=$(cut -d' ' -f1-3 /proc/loadavg)"
		echo "other_qemu_max=$(sort -n "$out/host-$name.qemu" | tail -n 1)"
		echo "other_qemu_samples_busy=$(awk '$1 > 0 { n++ } END { print n + 0 }' "$out/host-$name.qemu")/$(wc -l < "$out/host-$name.qemu")"
		echo "wall_s=$((SECONDS - s))"
	} >> "$out/host-$name.txt"
	log "bench: boot '$name' took $((SECONDS - s)) s (exit $rc)"
	return $rc
}

start=$SECONDS
fail=0
# tsc=reliable: under TCG on a loaded host the clocksource watchdog may
# switch the guest to hpet in the middle of the run, which makes every fio
# time stamp dearer from then on; keep the TSC for the whole run.
# kunit.enable=0: the KUnit suites built into the test kernel run at boot
# otherwise (minutes under -icount); scripts/tests/kunit.sh runs them.
kargs="tsc=reliable kunit.enable=0"
[ -n "$emu" ] || kargs="$kargs${queues:+ virtio_blk.num_request_queues=$queues}"
timed "bench:cstates" boot cstates cpuidle "$kargs" || fail=1
if [ $poll = 1 ]; then
	timed "bench:poll" boot poll poll "idle=poll $kargs" || fail=1
fi
[ -f "$out/guest-cstates/info.json" ] || die "the guest wrote no results (see $out/guest-cstates/console.log)"
report "$out"
wall=$((SECONDS - start))
{
	echo
	echo "Wall time: $wall s in all (boot with C-states $(cat "$out/guest-cstates/wall_s") s$(
		[ $poll = 0 ] || echo ", idle=poll boot $(cat "$out/guest-poll/wall_s") s"));" \
		"$reps repetition(s), ${runtime} s per cell, ${pairs} null_blk pairs of ${null_runtime} s," \
		"host $(nproc) CPUs."
	if [ $isolate = 1 ]; then
		echo "QEMU threads isolated (scripts/qemu/guest.sh --isolate): $(pinning_text "$out/guest-cstates/pinning.txt")."
	else
		echo "QEMU threads shared (--shared): placed by the host scheduler."
	fi
	for f in "$out"/host-*.txt; do
		echo "Host during boot '$(basename "$f" .txt | sed 's/^host-//')': other QEMU" \
			"guests (other users) in $(sed -n 's/^other_qemu_samples_busy=//p' "$f")" \
			"5-s samples (at most $(sed -n 's/^other_qemu_max=//p' "$f") at once;" \
			"waited $(sed -n 's/^waited_for_quiet_host_s=//p' "$f") s for a quiet host first)," \
			"load average $(sed -n 's/^loadavg_at_start=//p' "$f") at start," \
			"$(sed -n 's/^loadavg_at_end=//p' "$f") at end."
	done
} | tee -a "$out/bench.md"
log "bench: results in $out (bench.md, bench.png, cells.json, summary.json, targets.json)"
if [ $fail != 0 ]; then
	log "bench: a guest run failed (see $out/guest-*/console.log and bench.log)"
	exit 1
fi
