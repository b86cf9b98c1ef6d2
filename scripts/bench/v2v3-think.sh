#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# v2v3-think.sh [--v2 C | --v2-from DIR] [--out DIR]
# v2v3-think.sh --md DIR [DRAFT]
#
# v2 against v3 where the series exists for: fio QD1 4 KiB random reads on
# the deterministic platform (scripts/bench/bench.sh --platform icount: emu_blk
# at 20 us, the controller on CPU 2, fio on CPUs 0-1) with think times of
# 0, 1, 5 and 20 ms, menu and teo, shallow_idle (cpu_latency_qos in v2)
# off and auto, 2 s per cell: once with branch series (v3) and once with
# the series of commit C (default 8411acc, v2 as it landed; bench.sh
# --series-commit). The figure is the completions that ran on a CPU woken
# from a deep state, per I/O, and the latency of auto against off.
# A benchmark: prints a table, asserts nothing.
#
# --v2-from DIR takes the v2 half from DIR/v2 of an earlier run (v2's
# patches do not change; its run.txt names the run) instead of building
# and measuring v2 again: v3 is measured alone.
#
# --md DIR prints the table of such a run (scripts/report/report.py v2v3,
# which report.py figures quotes); with DRAFT,
# the directory of an earlier run, its v3 auto column is added as "v3
# draft" (the series as it was then: data/v2v3-think-draft).
#
# Output: DIR (default $RESULTS/v2v3-think): v2/ and v3/ (bench.sh output:
# summary.json, bench.md, ...), run.txt (commands, platform, date,
# kernels, commit, wall time).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
RUN_COMMIT=$(repo_head)

usage() {
	sed -n '4,5s/^# //p' "$0" >&2
	exit 2
}

# md DIR [DRAFT] - the table of the run in DIR (scripts/report/report.py v2v3).
md() { python3 "$TOP/scripts/report/report.py" v2v3 "$@"; }

v2=8411acc v2_from="" out="" md_only=()
args=("$@")
while [ $# -gt 0 ]; do
	case $1 in
	--v2) v2=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--v2-from) v2_from=$(realpath "${2:?}"); shift 2 ;;
	--md) shift; md_only=("$@"); break ;;
	*) usage ;;
	esac
done
if [ ${#md_only[@]} -gt 0 ]; then
	[ ${#md_only[@]} -le 2 ] || usage
	md "${md_only[@]}"
	exit 0
fi
out=$(realpath -m "${out:-$RESULTS/v2v3-think}")
own_out "$out" .v2v3-think-run
bench=(--platform icount --govs "$GOVERNORS" --configs off,auto
	--workloads qd1-t0us,qd1-t1000us,qd1-t5000us,qd1-t20000us --runtime 2 --pairs 0 --no-poll)
s=$(date +%s)
"$TOP/scripts/bench/bench.sh" "${bench[@]}" --out "$out/v3"
if [ -n "$v2_from" ]; then
	[ -f "$v2_from/v2/summary.json" ] && [ -f "$v2_from/run.txt" ] ||
		die "--v2-from $v2_from: no v2/summary.json and run.txt there"
	v2_run=$(sed -n 's/^date=//p' "$v2_from/run.txt")
	v2_kernel=$(sed -n 's/^kernel_v2=//p' "$v2_from/run.txt")
	[ -n "$v2_kernel" ] || die "--v2-from $v2_from: its run.txt names no v2 kernel"
	rm -rf "$out/v2"
	cp -r "$v2_from/v2" "$out/v2"
else
	"$TOP/scripts/bench/bench.sh" "${bench[@]}" --series-commit "$v2" --out "$out/v2"
	v2_run="" v2_kernel="the patches of commit $(git -C "$TOP" rev-parse --short "$v2") of this repository on linux-source-7.3 $BASE_VER (test config)"
fi
{
	echo "command=bash scripts/bench/v2v3-think.sh ${args[*]}"
	echo "bench_command=bash scripts/bench/bench.sh ${bench[*]} [--series-commit $v2] --out DIR/v3|v2"
	echo "platform=$(icount_platform 3), tools/emu-blk at 20 us, one queue per vCPU, controller CPU 2, fio on CPUs 0-1"
	echo "date=$(date +%F)"
	echo "kernel=$(series_kernel)"
	echo "kernel_v2=$v2_kernel"
	[ -z "$v2_from" ] || echo "v2_from=the v2 half of the run of $v2_run (data/v2v3-think then), not measured again"
	echo "commit=$RUN_COMMIT"
	echo "wall_s=$(($(date +%s) - s))"
} > "$out/run.txt"
md "$out" | tee "$out/think.md"
