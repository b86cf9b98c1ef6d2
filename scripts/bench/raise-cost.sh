#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# raise-cost.sh [--build DIR | --series-commit C] [--rounds N] [--out DIR] -
# the time one raise and one relax of an hctx take, for hctxs of 1, 2, 4
# and 8 CPUs: boots the test kernel of DIR (default $BUILD) with 8 vCPUs
# and runs tools/guest/raisecost.sh (N busy periods per device, default
# 10), then prints the median, minimum and maximum duration in us of the
# work item's runs that raised and that relaxed (the relax includes an RCU
# grace period). A benchmark: prints a table, asserts nothing but that
# every CPU count was measured.
#
# --series-commit C measures the series as this repository held it at
# commit C (its series file and patches/; f95543c is v1) instead of branch
# series: a branch series-C in $BASE_DIR (baseline + git am), built into
# $BUILD, which is rebuilt from branch series afterwards. Default output
# then $RESULTS/raise-cost-C.
#
# Output: DIR (default $RESULTS/raise-cost): raisecost.tsv, summary.tsv,
# run.txt (command, platform, date, kernel), trace.txt, console.log.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/series-build.sh"
RUN_COMMIT=$(repo_head)

build=$BUILD rounds=10 out="" scommit=""
args=("$@")
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=${2:?}; shift 2 ;;
	--series-commit) scommit=${2:?}; shift 2 ;;
	--rounds) rounds=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	*) sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds wants a number, got $rounds"
kernel="the $(series_names < "$TOP/series" | wc -l) patches of branch series ($(git -C "$BASE_DIR" rev-parse --short series)) on 7.3.4 (test config)"
if [ -n "$scommit" ]; then
	series_commit_build raise-cost "$scommit" "$build"
	: "${out:=$RESULTS/raise-cost-$short}"
fi
: "${out:=$RESULTS/raise-cost}"

"$TOP/scripts/qemu/guest.sh" --kernel "$build" --script raisecost.sh --out "$out" \
	--smp 8 --timeout 1800 --lock --append "raise_rounds=$rounds"
python3 "$TOP/scripts/report/report.py" tables raise-cost "$out"
echo "CPUs of the hctx, work runs that raised / relaxed: n, median, min, max (us)"
printf '%-5s %-6s %4s %8s %8s %8s\n' cpus kind n median min max
while IFS=$'\t' read -r c k n m lo hi; do
	printf '%-5s %-6s %4s %8s %8s %8s\n' "$c" "$k" "$n" "$m" "$lo" "$hi"
done < <(tail -n +2 "$out/summary.tsv")
for c in 1 2 4 8; do
	grep -q "^$c	raise	" "$out/summary.tsv" || die "raise-cost: no raise measured for $c CPUs"
done
{
	echo "command=bash scripts/bench/raise-cost.sh${args[*]:+ ${args[*]}}"
	echo "platform=$(tcg_platform 8), emulated Sapphire Rapids C-states (tools/emu-cstates), null_blk with 8, 4, 2 and 1 submit queues"
	echo "date=$(date -u +%F)"
	echo "commit=$RUN_COMMIT"
	echo "kernel=$kernel"
	echo "note=$(($(grep -c . "$out/raisecost.tsv") - 1)) work runs; $([ -d "$out" ] && grep -Eq '(block_shallow_idle|blk_cpu_lat)_raise' "$out/trace.txt" && echo "classified by the series' raise and relax events" || echo "classified by the dev_pm_qos request events (no raise or relax events in this kernel)")"
} > "$out/run.txt"
