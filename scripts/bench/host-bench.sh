#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# host-bench.sh --device /dev/X [--write] [--reps N] [--runtime S]
#               [--governors LIST] [--workloads LIST] [--out DIR]
#
# The benchmark of scripts/bench/bench.sh on real hardware: runs the same fio
# matrix (tools/bench/*.fio, through tools/guest/bench.sh in host mode)
# directly on the machine it runs on, against /dev/X and no other device,
# for the configurations off, auto, c6off and dmalat (idle=poll needs a
# reboot and is left out), and prints the same tables as bench.sh, with
# the idle-state residency of the machine's own cpuidle driver and, where
# /sys/class/powercap/intel-rapl:* is readable, the package energy (power
# during the run and in the 1 s after, energy per I/O).
#
# Read-only by default: 4 KiB random reads (fio --readonly). --write adds
# random-write workloads (qd1-write, qd32-write), which DESTROY the data on
# /dev/X; it is refused for a device that is mounted, used as swap or held
# by another device (LVM, MD, dm-crypt), itself or any of its partitions.
#
# Refuses to run without --device, for anything that is not a block device
# and on a kernel without /sys/block/<disk>/queue/shallow_idle for that
# device. Needs root and a cpuidle driver. While it runs it changes, and
# restores on exit: the device's shallow_idle, the cpuidle governor
# (only with --governors), the disable flag of the deep idle states and a
# /dev/cpu_dma_latency request (dmalat); it adds and removes a tracefs
# instance. Nothing else is touched.
#
# Options: --reps N (default 3), --runtime S (seconds per cell, default 10),
# --governors menu,teo (default: the current governor only), --workloads
# LIST (read job files of tools/bench/, comma-separated; default: the
# matrix of bench.sh, e.g. qd1,qd1-think1ms,qd1-think20ms), --out DIR
# (default $RESULTS/host-bench). Installs fio and python3-matplotlib (the
# plot of bench.sh's report) when missing. Exit status: 0 when every cell
# ran (targets are not asserted), 1 on errors, 2 on usage errors.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

usage() {
	sed -n '4,5s/^# //p' "$0" >&2
	exit 2
}

device="" write=0 reps=3 runtime=10 govs="" out="" wls=""
while [ $# -gt 0 ]; do
	case $1 in
	--device) device=${2:?"--device wants a block device"}; shift 2 ;;
	--write) write=1; shift ;;
	--reps) reps=${2:?}; shift 2 ;;
	--runtime) runtime=${2:?}; shift 2 ;;
	--governors) govs=${2:?}; shift 2 ;;
	--workloads) wls=$(echo "${2:?}" | tr ',' ' '); shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	-h|--help) usage ;;
	*) echo "unknown argument: $1" >&2; usage ;;
	esac
done
[ -n "$device" ] || { echo "host-bench: --device /dev/X is required (the only device it touches)" >&2; usage; }
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "--reps wants a number, got $reps"
[[ $runtime =~ ^[1-9][0-9]*$ ]] || die "--runtime wants whole seconds, got $runtime"
[ "$runtime" -ge 2 ] || die "--runtime must be at least 2 s"

# ---- the device -------------------------------------------------------------

[ -e "$device" ] || die "$device does not exist"
dev=$(realpath "$device")
[ -b "$dev" ] || die "$device is not a block device"
name=$(basename "$dev")
sys=/sys/class/block/$name
[ -d "$sys" ] || die "$device: no $sys"
disk=$name
[ -f "$sys/partition" ] && disk=$(basename "$(realpath "$sys/..")")

# in_use NAME - prints why block device NAME is in use, if it is: mounted
# (by device number or, for btrfs and the like, by mount source), swap or
# held by another block device.
in_use() {
	local n=$1 mm m target src h
	mm=$(cat "/sys/class/block/$n/dev")
	while read -r m target src; do
		if [ "$m" = "$mm" ] ||
			{ [[ $src == /dev/* ]] && [ "$(realpath -q "$src" || true)" = "/dev/$n" ]; }; then
			echo "mounted on $target"
		fi
	done < <(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") break
			print $3, $5, $(i + 2) }' /proc/self/mountinfo)
	while read -r src _; do
		[ "$(realpath -q "$src" || true)" = "/dev/$n" ] && echo "used as swap"
	done < <(tail -n +2 /proc/swaps)
	for h in "/sys/class/block/$n/holders"/*; do
		[ -e "$h" ] && echo "held by $(basename "$h")"
	done
	return 0
}

if [ $write = 1 ]; then
	parts=("$name")
	for p in "$sys"/*/partition; do
		[ -f "$p" ] && parts+=("$(basename "$(dirname "$p")")")
	done
	for p in "${parts[@]}"; do
		why=$(in_use "$p")
		[ -z "$why" ] || die "--write: refusing $device: /dev/$p is ${why//$'\n'/, }"
	done
fi

attr=/sys/class/block/$disk/queue/shallow_idle
[ -f "$attr" ] || die "the running kernel ($(uname -r)) has no shallow_idle for $device" \
	"($attr missing): boot a kernel with the series, and use a blk-mq device"

[ "$(id -u)" = 0 ] || die "host-bench needs root (cpuidle, PM QoS and queue settings)"
cpuidle=/sys/devices/system/cpu/cpuidle
drv=$(cat "$cpuidle/current_driver" 2>/dev/null || echo none)
[ "$drv" != none ] || die "no cpuidle driver on this machine: nothing to measure"
if [ -n "$govs" ]; then
	for g in ${govs//,/ }; do
		grep -qw "$g" "$cpuidle/available_governors" ||
			die "governor $g not available (have: $(cat "$cpuidle/available_governors"))"
	done
else
	govs=$(cat "$cpuidle/current_governor")
fi

need_pkgs fio python3-matplotlib

out=$(realpath -m "${out:-$RESULTS/host-bench}")
own_out "$out" .bench-run
mkdir -p "$out/host"

workloads=${wls:-$BENCH_WORKLOADS}
for w in $workloads; do
	[ -f "$TOP/tools/bench/$w.fio" ] || die "--workloads: no tools/bench/$w.fio"
	case $w in *-write) die "--workloads: $w writes; use --write" ;; esac
done
readonly_flag=1
if [ $write = 1 ]; then
	workloads="$workloads qd1-write qd32-write"
	readonly_flag=0
	log "host-bench: --write: random writes to $device DESTROY its data"
fi

log "host-bench: $device ($disk, cpuidle $drv, governors ${govs//,/ }), $reps reps of $runtime s"
start=$SECONDS
rc=0
env SHARE="$TOP/tools/guest" RESULTS_DIR="$out/host" \
	bench_mode=host bench_idle=cpuidle bench_table=host bench_dev="$dev" \
	bench_govs="${govs//,/ }" bench_configs="$BENCH_CONFIGS" \
	bench_workloads="$workloads" bench_jobs="$TOP/tools/bench" \
	bench_reps="$reps" bench_runtime="$runtime" bench_steady=1 bench_after=1 \
	bench_pairs=0 bench_readonly=$readonly_flag \
	sh "$TOP/tools/guest/bench.sh" || rc=$?
[ -f "$out/host/info.json" ] || die "no results (exit $rc)"
"$TOP/scripts/bench/bench.sh" --report "$out"
echo
echo "Wall time: $((SECONDS - start)) s; $reps repetition(s) of $runtime s per cell." |
	tee -a "$out/bench.md"
log "host-bench: results in $out"
[ $rc = 0 ] || die "tools/guest/bench.sh exited $rc (see $out/host/bench.log)"
