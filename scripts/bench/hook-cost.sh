#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hook-cost.sh [--build DIR | --variant NAME] [--reps N] [--out DIR] - the
# cost of the series' issue hook in guest instructions per read: boots the
# test kernel of DIR (default $BUILD) under QEMU -icount (guest.sh --accel
# icount: the guest's clock counts instructions, so the figures do not
# depend on the host or its load) and runs tools/guest/hookcost.sh: fio
# reads from null_blk completing in the submitting context, attribute off
# and "auto", reads back to back (raised) and 20 ms apart (not raised),
# with one hctx shared by both CPUs (1q) and one per CPU (2q), N
# repetitions (default 5).
#
# --variant NAME measures tools/variants/NAME.patch on top of the series
# instead (rq-qos: the hook as an rq_qos policy): a branch variant-NAME in
# $BASE_DIR (branch series + git am of the patch), built into $BUILD, which
# is rebuilt from branch series afterwards. Default output then
# $RESULTS/hook-cost-NAME.
#
# A benchmark: prints a table, asserts nothing but that every cell was
# measured. Output: DIR (default $RESULTS/hook-cost): runs.tsv (one line
# per fio run: layout, case, rep, reads, instructions per read, raises,
# misses), summary.tsv (header line, then per layout and case: median, min, max of the runs;
# the median's difference from "off" of the same I/O pattern, in
# instructions and percent), run.txt (command, platform, date, kernel),
# hookcost.tsv, fio-*.json, console.log.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/series-build.sh"
RUN_COMMIT=$(repo_head)

build=$BUILD reps=5 out="" variant=""
args=("$@")
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=${2:?}; shift 2 ;;
	--variant) variant=${2:?}; shift 2 ;;
	--reps) reps=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	*) sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "--reps wants a number, got $reps"
kernel="the 9 patches of branch series ($(git -C "$BASE_DIR" rev-parse --short series)) on 7.3.4 (test config)"
if [ -n "$variant" ]; then
	vp=$TOP/tools/variants/$variant.patch
	[ -f "$vp" ] || die "--variant: no $vp"
	[ "$build" = "$BUILD" ] || die "--variant builds the test kernel in $BUILD: no --build with it"
	need_clean_series
	: "${out:=$RESULTS/hook-cost-$variant}"
	trap 'back_to_series hook-cost' EXIT
	git -C "$BASE_DIR" checkout -q -B "variant-$variant" series
	git -C "$BASE_DIR" am -q "$vp" || die "--variant: $vp does not apply to branch series"
	"$TOP/scripts/setup/build.sh" test
	export SERIES_BRANCH=variant-$variant
	# The subject, its folded lines joined.
	subj=$(awk '/^Subject: / { s = $0; f = 1; next } f && /^[ \t]/ { s = s $0; next } { f = 0 } END { print s }' "$vp" |
	       sed 's/^Subject: \[PATCH\] //; s/[[:space:]]\{1,\}/ /g')
	kernel="$kernel plus tools/variants/$variant.patch ($subj)"
fi
: "${out:=$RESULTS/hook-cost}"

"$TOP/scripts/qemu/guest.sh" --kernel "$build" --script hookcost.sh --out "$out" \
	--accel icount --timeout 3600 --lock --append "hook_reps=$reps"

{
	echo "command=bash scripts/bench/hook-cost.sh${args[*]:+ ${args[*]}}"
	echo "platform=$(qemu-system-x86_64 --version | sed -n 1p), TCG with -icount shift=0,sleep=off (instruction counts, independent of the host), 2 vCPUs, -cpu max, emulated Sapphire Rapids C-states, menu; null_blk irqmode=0, fio psync 4 KiB randread pinned to CPU 0"
	echo "date=$(date -u +%F)"
	echo "commit=$RUN_COMMIT"
	echo "kernel=$kernel"
	echo "note=fio's mean read latency in guest ns, which -icount shift=0 makes guest instructions; stream: 20000 reads back to back, sparse: 100 reads 20 ms apart"
} > "$out/run.txt"

# runs.tsv (reads and instructions per read from each run's fio JSON), and
# per layout and case n, median, min, max, then the median minus that of
# the "off" case with the same I/O pattern (stream or sparse): cells.tsv,
# summary.tsv.
python3 "$TOP/scripts/report/report.py" tables hook-cost "$out"
echo "Guest instructions per 4 KiB read (QEMU -icount), $reps runs per cell: median (min - max), difference of the median from off"
printf '%-6s %-16s %10s %22s %9s %8s %8s %8s\n' layout case median "(min - max)" delta "%" raises misses
while IFS=$'\t' read -r l c _ m lo hi ra mi _ d p; do
	printf '%-6s %-16s %10s %22s %9s %8s %8s %8s\n' "$l" "$c" "$m" "($lo - $hi)" "$d" "$p" "$ra" "$mi"
done < <(tail -n +2 "$out/summary.tsv")
for l in 1q 2q; do
	for c in off-stream raised-stream off-sparse unraised-sparse; do
		grep -q "^$l	$c	$reps	" "$out/summary.tsv" || die "hook-cost: cell $l $c not measured $reps times"
	done
done
