#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# participants.sh [--build DIR | --series-commit C] [--rounds N] [--out DIR]
# - which CPUs a busy period on a single-queue device raises (review point
# 4 of v2): boots the test kernel of DIR (default $BUILD) with 8 vCPUs and
# runs tools/guest/participants.sh (one null_blk device with one hctx for
# all 8 CPUs; N rounds, default 10, of a 300 ms fio stream pinned to CPU 0,
# then to CPUs 0 and 4), then prints per workload the busy periods and the
# CPUs whose request got a limit per round (median, min, max). A
# benchmark: prints a table, asserts nothing but that every workload was
# measured.
#
# --series-commit C measures the series as this repository held it at
# commit C (its series file and patches/; 24ebda1 is v2) instead of branch
# series, as scripts/raise-cost.sh does. Default output then
# $RESULTS/participants-C.
#
# Output: DIR (default $RESULTS/participants): participants.tsv,
# summary.tsv, run.txt (command, platform, date, kernel), trace.txt,
# console.log.
set -euo pipefail
. "$(dirname "$0")/common.sh"

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
	series_commit_build participants "$scommit" "$build"
	: "${out:=$RESULTS/participants-$short}"
fi
: "${out:=$RESULTS/participants}"
# The debug kernel carries lockdep and KASAN: say so (counts, not times).
[ "$(realpath -m "$build")" != "$(realpath -m "$BUILD_DEBUG")" ] || kernel=${kernel/(test config)/(debug config)}

"$TOP/scripts/guest.sh" --kernel "$build" --script participants.sh --out "$out" \
	--smp 8 --timeout 1800 --lock --append "part_rounds=$rounds"
: > "$out/summary.tsv"
for w in 1job 2jobs; do
	b=$(awk -F'\t' -v w=$w '$1 == w { s += $3 } END { print s + 0 }' "$out/participants.tsv")
	# shellcheck disable=SC2046
	c=$(stats %.0f $(awk -F'\t' -v w=$w '$1 == w { print $4 }' "$out/participants.tsv"))
	[ -n "$c" ] || die "participants: no round measured for $w"
	printf '%s\t%s\t%s\n' "$w" "$b" "$c" >> "$out/summary.tsv"
done
echo "workload, busy periods over all rounds, CPUs raised per round: median, min, max (of 8)"
printf '%-6s %6s %6s %4s %4s\n' workload busy median min max
while IFS=$'\t' read -r w b m lo hi; do
	printf '%-6s %6s %6s %4s %4s\n' "$w" "$b" "$m" "$lo" "$hi"
done < "$out/summary.tsv"
{
	echo "command=bash scripts/participants.sh${args[*]:+ ${args[*]}}"
	echo "platform=$(tcg_platform 8), emulated Sapphire Rapids C-states (tools/emu-cstates), null_blk with 1 submit queue, timer completions after 20 us"
	echo "date=$(date -u +%F)"
	echo "kernel=$kernel"
	echo "note=$(grep -c . "$out/participants.tsv") rounds of 300 ms fio and 0.5 s idle"
} > "$out/run.txt"
