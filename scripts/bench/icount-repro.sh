#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# icount-repro.sh [--runtime S] [--out DIR] - is the deterministic platform
# deterministic? One set of cells of the benchmark on QEMU -icount with
# the emulated storage device (scripts/bench/bench.sh --platform icount: fio QD1
# 4 KiB reads on CPUs 0-1 of 3 vCPUs, 20 us device latency, menu, "off",
# "auto" and C6 disabled), run three times: twice on a quiet host and once
# with two CPU eaters on the host (one per host core, at the same
# priority as QEMU). On a deterministic platform the three runs give the
# same percentiles; the table says how close they are.
# A benchmark: prints a table, asserts nothing but that every cell ran.
# Output: DIR (default $RESULTS/icount-repro): run-a/, run-b/, run-eater/
# (bench.sh's output), repro.tsv (per run and configuration: p50, p99,
# p99.9 in us, IOPS, deep-state completions per I/O, controller ns per
# I/O), run.txt.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
RUN_COMMIT=$(repo_head)

runtime=4 out=$RESULTS/icount-repro
args=("$@")
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	*) sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
[[ $runtime =~ ^[1-9][0-9]*$ ]] && [ "$runtime" -ge 2 ] || die "--runtime wants 2 s or more, got $runtime"
mkdir -p "$out"
out=$(realpath "$out")
start=$(date +%s)
eaters=()
stop_eaters() {
	local p
	for p in "${eaters[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	eaters=()
}
trap stop_eaters EXIT
for r in a b eater; do
	if [ $r = eater ]; then
		for _ in $(seq "$(nproc)"); do
			(while :; do :; done) &
			eaters+=($!)
		done
	fi
	log "icount-repro: run $r${eaters[*]:+ (host CPU eaters: ${eaters[*]})}"
	"$TOP/scripts/bench/bench.sh" --platform icount --govs menu --configs off,auto,c6off \
		--workloads qd1 --reps 1 --runtime "$runtime" --pairs 0 --no-poll \
		--quiet-wait 0 --out "$out/run-$r" > "$out/run-$r.log" 2>&1 ||
		{ tail -n 20 "$out/run-$r.log" >&2; die "icount-repro: bench.sh failed (run $r; log: $out/run-$r.log)"; }
	stop_eaters
done
python3 "$TOP/scripts/report/report.py" tables icount-repro "$out" a b eater
n=$(($(wc -l < "$out/repro.tsv") - 1))
[ "$n" = 9 ] || die "icount-repro: $n cells in repro.tsv, expected 9"
{
	echo "command=bash scripts/bench/icount-repro.sh${args[*]:+ ${args[*]}}"
	echo "platform=$(icount_platform 3), emulated Sapphire Rapids C-states (tools/emu-cstates, none on the controller CPU 2), tools/emu-blk: 20 us device latency, one queue per vCPU, fio on CPUs 0-1, menu"
	echo "date=$(date -u +%F)"
	echo "commit=$RUN_COMMIT"
	echo "kernel=$(series_kernel)"
	for r in a b eater; do
		echo "host_$r=$(sed -n 's/^Host during boot[^:]*: //p' "$out/run-$r/bench.md" | sed -n 1p)"
		echo "wall_$r=$(sed -n 's/^wall_s=//p' "$out/run-$r/host-cstates.txt")"
	done
	echo "eaters=$(nproc) CPU eaters on the host, shell busy loops, one per host core"
	echo "wall_s=$(($(date +%s) - start))"
} > "$out/run.txt"
echo "icount reproducibility (menu, QD1, 20 us device, ${runtime} s per cell):"
column -t -s$'\t' "$out/repro.tsv"
echo "icount-repro: $n cells in $(($(date +%s) - start)) s; $out"
