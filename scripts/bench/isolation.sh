#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# isolation.sh [--reps N] [--out DIR] - does one vCPU's emulated C-state
# exit still slow the other? The experiment of issue 11: fio QD1 4 KiB
# reads pinned to CPU 0 (qd1-cpu0), alone and with a CPU eater on vCPU 1
# that spins in 290 us chunks (qd1-cpu0-spin1), "off", "auto" and C6
# disabled, menu, N repetitions (default 3); once with QEMU's threads
# placed by the host (scripts/bench/bench.sh --shared) and once isolated (the
# benchmark's default, scripts/qemu/guest.sh --isolate). On a platform that
# does not blur the result the eater moves no C6-disabled percentile.
# A benchmark: prints a table, asserts nothing but that every cell ran.
# Output: DIR (default $RESULTS/isolation): shared/ and isolated/
# (bench.sh's output), isolation.tsv (per platform, workload and
# configuration: medians of p50 and p99 in us), run.txt.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
RUN_COMMIT=$(repo_head)

reps=3 out=$RESULTS/isolation
args=("$@")
while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	*) sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "--reps wants a number, got $reps"
mkdir -p "$out"
out=$(realpath "$out")
start=$(date +%s)
for p in shared isolated; do
	log "isolation: $p"
	"$TOP/scripts/bench/bench.sh" $([ $p = isolated ] || echo --shared) --govs menu \
		--configs off,auto,c6off --workloads qd1-cpu0,qd1-cpu0-spin1 --reps "$reps" \
		--pairs 0 --no-poll --out "$out/$p" > "$out/$p.log" 2>&1 ||
		{ tail -n 20 "$out/$p.log" >&2; die "isolation: bench.sh failed ($p; log: $out/$p.log)"; }
done
python3 "$TOP/scripts/report/report.py" tables isolation "$out" shared isolated
n=$(($(wc -l < "$out/isolation.tsv") - 1))
[ "$n" = 12 ] || die "isolation: $n cells in isolation.tsv, expected 12"
{
	echo "command=bash scripts/bench/isolation.sh${args[*]:+ ${args[*]}}"
	echo "platform=$(tcg_platform 2), emulated Sapphire Rapids C-states (tools/emu-cstates), virtio-blk with one queue per vCPU, menu"
	echo "date=$(date -u +%F)"
	echo "commit=$RUN_COMMIT"
	echo "kernel=the 9 patches of branch series ($(git -C "$BASE_DIR" rev-parse --short series)) on 7.3.4 (test config)"
	echo "pinning=$(pinning_text "$out/isolated/guest-cstates/pinning.txt")"
	for p in shared isolated; do
		echo "host_$p=$(sed -n 's/^Host during boot[^:]*: //p' "$out/$p/bench.md" | sed -n 1p)"
	done
	echo "wall_s=$(($(date +%s) - start))"
} > "$out/run.txt"
echo "Eater experiment (menu, $reps runs per cell, medians):"
column -t -s$'\t' "$out/isolation.tsv"
echo "isolation: $n cells in $(($(date +%s) - start)) s; $out"
